// cli/progress.cpp: see progress.hpp.
#include "cli/progress.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace tikzlint::cli {

Progress::Progress(std::ostream& err, std::size_t total, bool enabled, std::chrono::milliseconds delay)
    : err_(err), total_(total), enabled_(enabled && total > 1), delay_(delay), start_(Clock::now()) {}

std::string Progress::line(std::size_t done, std::size_t total, double seconds) {
  const double rate = seconds > 0 ? static_cast<double>(done) / seconds : 0;
  char buf[160];
  if (rate > 0) {
    const double left = static_cast<double>(total - std::min(done, total)) / rate;
    std::snprintf(buf, sizeof buf, "[%zu/%zu] %.1f files/s, %.0f s left", done, total, rate, std::ceil(left));
  } else {
    std::snprintf(buf, sizeof buf, "[%zu/%zu]", done, total);
  }
  return buf;
}

void Progress::file_done() {
  ++done_;
  if (!enabled_) return;
  const auto now = Clock::now();
  if (now - start_ < delay_) return;
  if (drawn_ && now - last_draw_ < std::chrono::milliseconds(100) && done_ < total_) return;  // 10 per second
  const double seconds = std::chrono::duration<double>(now - start_).count();
  err_ << "\r\x1b[K" << line(done_, total_, seconds) << std::flush;  // \x1b[K: erase to the end
  drawn_ = true;
  last_draw_ = now;
}

void Progress::finish() {
  if (drawn_) err_ << "\r\x1b[K" << std::flush;
  drawn_ = false;
}

std::chrono::milliseconds progress_delay() {
  if (const char* v = std::getenv("TIKZLINT_PROGRESS_DELAY_MS")) {
    char* end = nullptr;
    const long ms = std::strtol(v, &end, 10);
    if (end != v && *end == '\0' && ms >= 0) return std::chrono::milliseconds(ms);
  }
  return std::chrono::milliseconds(1000);
}

}  // namespace tikzlint::cli
