// The decision log of Certified (certified_session.hpp): counts, the logged decisions, and
// the calling thread's current session.
#include <slidecheck/verify/level_c/certified_session.hpp>

#include "level_c/exact_adjudication.hpp"

namespace slidecheck::certified {

std::string_view to_string(Method m) {
  switch (m) {
    case Method::filter: return "filter";
    case Method::escalation: return "escalation";
    case Method::rational: return "rational";
    case Method::field: return "field";
    case Method::identity: return "identity";
    case Method::core: return "core";
    case Method::undecided: return "undecided";
  }
  return "unknown";
}

std::size_t Summary::total() const {
  std::size_t n = 0;
  for (std::size_t c : by_method) n += c;
  return n;
}

Summary& Summary::operator+=(const Summary& o) {
  for (std::size_t i = 0; i < by_method.size(); ++i) by_method[i] += o.by_method[i];
  ties += o.ties;
  return *this;
}

namespace {
thread_local Session* tl_current = nullptr;
}  // namespace

Session::Session(Options options) : options_(options), previous_(tl_current) {
  if (options_.first_precision_bits < 64) options_.first_precision_bits = 64;
  if (options_.max_precision_bits < options_.first_precision_bits)
    options_.max_precision_bits = options_.first_precision_bits;
  tl_current = this;
}

Session::~Session() { tl_current = previous_; }

Session& Session::current() {
  if (tl_current != nullptr) return *tl_current;
  thread_local Session fallback;  // its constructor makes it current for this thread
  return fallback;
}

void Session::record(Decision d) {
  ++summary_.by_method[static_cast<std::size_t>(d.method)];
  if (d.tie) ++summary_.ties;
  if ((d.method != Method::filter || options_.log_filter_decisions) && decisions_.size() < options_.max_logged) {
    d.where = where_;
    decisions_.push_back(std::move(d));
  }
}

Session::ExactState& Session::exact_state() {
  if (!exact_) exact_ = std::make_unique<ExactState>();
  return *exact_;
}

}  // namespace slidecheck::certified
