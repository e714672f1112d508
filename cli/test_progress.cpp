#include <doctest/doctest.h>

#include <sstream>

#include "cli/progress.hpp"

namespace tikzlint::cli {

TEST_CASE("progress: drawn only when enabled and past the delay, erased at the end") {
  std::ostringstream off;
  Progress p(off, 5, false, std::chrono::milliseconds(0));
  for (int i = 0; i < 5; ++i) p.file_done();
  p.finish();
  CHECK(off.str().empty());  // not a terminal: nothing, ever

  std::ostringstream late;
  Progress q(late, 5, true, std::chrono::hours(1));
  for (int i = 0; i < 5; ++i) q.file_done();
  q.finish();
  CHECK(late.str().empty());  // a batch shorter than the delay: nothing

  std::ostringstream on;
  Progress r(on, 3, true, std::chrono::milliseconds(0));
  for (int i = 0; i < 3; ++i) r.file_done();
  CHECK(r.shown());
  r.finish();
  CHECK(on.str().find("[3/3]") != std::string::npos);  // the last file is always drawn
  CHECK(on.str().substr(on.str().size() - 4) == "\r\x1b[K");

  std::ostringstream single;
  Progress s(single, 1, true, std::chrono::milliseconds(0));
  s.file_done();
  CHECK(single.str().empty());  // one file: no progress
}

TEST_CASE("progress line: files done, rate and time left") {
  CHECK(Progress::line(10, 40, 2.0) == "[10/40] 5.0 files/s, 6 s left");
  CHECK(Progress::line(0, 40, 0.0) == "[0/40]");
  CHECK(Progress::line(40, 40, 4.0) == "[40/40] 10.0 files/s, 0 s left");
}

}  // namespace tikzlint::cli
