// Progress lines on stderr (progress.hpp).
#include "progress.hpp"

#include <iostream>

#include <unistd.h>

namespace slidecheck::cli {

namespace {

std::string first_word(const std::string& text) { return text.substr(0, text.find_first_of(" :")); }

}  // namespace

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressLine::ProgressLine(bool enabled) : enabled_(enabled), terminal_(enabled && stderr_is_terminal()) {}

ProgressLine::~ProgressLine() { done(); }

void ProgressLine::print_line(const std::string& text) {
  if (terminal_) {
    // Blanks over the rest of a longer previous state.
    const std::size_t pad = width_ > text.size() ? width_ - text.size() : 0;
    std::cerr << '\r' << text << std::string(pad, ' ') << std::flush;
    width_ = text.size();
  } else {
    std::cerr << text << '\n' << std::flush;
  }
  shown_ = text;
  printed_at_ = std::chrono::steady_clock::now();
}

void ProgressLine::update(const std::string& text) {
  if (!enabled_) return;
  const bool new_phase = !last_.empty() && first_word(text) != first_word(last_);
  if (new_phase) {
    if (!terminal_ && shown_ != last_) print_line(last_);
    if (terminal_) {
      std::cerr << '\n';
      width_ = 0;
    }
  }
  last_ = text;
  const auto now = std::chrono::steady_clock::now();
  if (terminal_ || new_phase || shown_.empty() || now - printed_at_ >= std::chrono::seconds(1)) print_line(text);
}

void ProgressLine::done() {
  if (!enabled_ || last_.empty()) return;
  if (terminal_)
    std::cerr << '\n' << std::flush;
  else if (shown_ != last_)
    print_line(last_);
  last_.clear();
  shown_.clear();
  width_ = 0;
}

}  // namespace slidecheck::cli
