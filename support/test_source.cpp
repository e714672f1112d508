#include <doctest/doctest.h>

#include <cctype>

#include "support/ascii.hpp"
#include "support/source.hpp"

using namespace tikzlint;

TEST_CASE("line and column are 1-based and columns count code points") {
  SourceFile f("x.tex", "ab\n\xC3\xA9x\n");
  CHECK(f.line_col(0).line == 1);
  CHECK(f.line_col(1).col == 2);
  auto lc = f.line_col(5);  // 'x' after the two-byte e-acute
  CHECK(lc.line == 2);
  CHECK(lc.col == 2);
  CHECK(f.line_text(2) == "\xC3\xA9x");
  CHECK(f.line_count() == 3);
}

TEST_CASE("is_ascii_space is std::isspace of the C locale, for every byte") {
  for (int c = 0; c < 256; ++c) {
    const char ch = static_cast<char>(c);
    CHECK_MESSAGE(is_ascii_space(ch) == (std::isspace(c) != 0), "byte ", c);
  }
}
