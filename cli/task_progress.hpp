#pragma once
// Progress of a run of many tasks (verify): tasks done of all, failing, the rate and an
// estimate of the time left, shown through ProgressLine by a thread of its own every half
// second, so that it keeps coming while single tasks take long (level C's exact ties), and how
// long no task has finished when that is much longer than a task takes on average.
#include "progress.hpp"

#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <mutex>
#include <string>
#include <thread>

namespace slidecheck::cli {

class TaskProgress {
 public:
  /// `what` starts every line ("verify"); nothing is shown when `enabled` is false (--quiet).
  TaskProgress(std::string what, bool enabled);
  /// Stops the thread and leaves the last state visible.
  ~TaskProgress();
  TaskProgress(const TaskProgress&) = delete;
  TaskProgress& operator=(const TaskProgress&) = delete;

  /// The state before the first task and after each: `done` of `total` tasks, `resumed` of them from an earlier run (not
  /// counted in the rate), `failing` of them failing. Any thread.
  void update(std::size_t done, std::size_t total, std::size_t resumed, std::size_t failing);
  /// Stops showing progress (before the results are printed).
  void finish();

 private:
  std::string text(std::chrono::steady_clock::time_point now) const;
  void run();

  std::string what_;
  ProgressLine line_;
  bool enabled_;
  std::chrono::steady_clock::time_point started_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_done_ = started_;  ///< when a task last finished
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  bool stop_ = false, any_ = false;
  std::size_t done_ = 0, total_ = 0, resumed_ = 0, failing_ = 0;
  std::thread thread_;
};

/// "45 s", "12 min", "3.2 h": a duration for a progress line.
std::string rough_duration(double seconds);

}  // namespace slidecheck::cli
