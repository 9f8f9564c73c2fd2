// Progress of a run of many tasks (task_progress.hpp).
#include "task_progress.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace slidecheck::cli {

namespace {

/// How often the state is shown (ProgressLine keeps files to whole lines at most once a second).
constexpr std::chrono::milliseconds kTick{500};

/// Seconds without a finished task after which a line says so (and at least 3 mean task times).
constexpr double kStalled = 1;

}  // namespace

std::string rough_duration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  if (seconds < 90) return fmt::format("{:.0f} s", seconds);
  if (seconds < 90 * 60) return fmt::format("{:.0f} min", seconds / 60);
  return fmt::format("{:.1f} h", seconds / 3600);
}

TaskProgress::TaskProgress(std::string what, bool enabled)
    : what_(std::move(what)), line_(enabled), enabled_(enabled) {
  if (enabled_) thread_ = std::thread([this] { run(); });
}

TaskProgress::~TaskProgress() { finish(); }

void TaskProgress::update(std::size_t done, std::size_t total, std::size_t resumed, std::size_t failing) {
  const std::lock_guard lock(mutex_);
  const auto now = std::chrono::steady_clock::now();
  if (!any_) started_ = now;  // the rate counts from the first task on
  if (!any_ || done != done_) last_done_ = now;
  done_ = done;
  total_ = total;
  resumed_ = resumed;
  failing_ = failing;
  any_ = true;
}

std::string TaskProgress::text(std::chrono::steady_clock::time_point now) const {
  const double elapsed = std::chrono::duration<double>(now - started_).count();
  const std::size_t run = done_ - resumed_;
  std::string s = fmt::format("{}: {}/{} tasks, {} failing", what_, done_, total_, failing_);
  if (run == 0) return s + fmt::format(", {} elapsed", rough_duration(elapsed));
  const double rate = run / elapsed;
  s += rate >= 10 ? fmt::format(", {:.0f} tasks/s", rate) : fmt::format(", {:.2g} tasks/s", rate);
  if (done_ < total_) {
    s += ", about " + rough_duration(double(total_ - done_) / rate) + " left";
    // Tasks whose costs differ a thousandfold (level C's exact ties) make the rate a poor guide:
    // say so when none has finished for much longer than a task takes on average.
    const double since = std::chrono::duration<double>(now - last_done_).count();
    const double mean = std::chrono::duration<double>(last_done_ - started_).count() / double(run);
    if (since >= std::max(kStalled, 3 * mean)) s += ", none finished for " + rough_duration(since);
  }
  return s;
}

void TaskProgress::run() {
  std::unique_lock lock(mutex_);
  while (!wake_.wait_for(lock, kTick, [this] { return stop_; })) {
    if (!any_) continue;
    const std::string t = text(std::chrono::steady_clock::now());
    lock.unlock();
    line_.update(t);
    lock.lock();
  }
}

void TaskProgress::finish() {
  if (!thread_.joinable()) return;
  {
    const std::lock_guard lock(mutex_);
    stop_ = true;
  }
  wake_.notify_all();
  thread_.join();
  if (any_) line_.update(text(std::chrono::steady_clock::now()));
  line_.done();
}

}  // namespace slidecheck::cli
