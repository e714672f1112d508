// cli/progress.hpp: progress of a long batch on stderr (files done, rate, time left), only when
// stderr is a terminal and the batch has run longer than a delay (about a second): a short run,
// a pipe or a CI log never sees it.
#pragma once
#include <chrono>
#include <cstddef>
#include <ostream>
#include <string>

namespace tikzlint::cli {

class Progress {
 public:
  using Clock = std::chrono::steady_clock;
  // `enabled`: stderr is a terminal and output is not --quiet (the caller decides).
  Progress(std::ostream& err, std::size_t total, bool enabled, std::chrono::milliseconds delay);
  void file_done();  // one more file reported
  void finish();     // erase the line, if one was drawn
  bool shown() const { return drawn_; }

  // "[12/340] 35.2 files/s, 9 s left" (no carriage return).
  static std::string line(std::size_t done, std::size_t total, double seconds);

 private:
  std::ostream& err_;
  std::size_t total_, done_ = 0;
  bool enabled_;
  std::chrono::milliseconds delay_;
  Clock::time_point start_, last_draw_{};
  bool drawn_ = false;
};

// The default delay (1 s), or TIKZLINT_PROGRESS_DELAY_MS when set (tests use 0).
std::chrono::milliseconds progress_delay();

}  // namespace tikzlint::cli
