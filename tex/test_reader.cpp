// tex/test_reader.cpp: TeX reader states (TeXbook ch. 8), catcodes, offsets, directives.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstring>

#include "tex/reader.hpp"

using namespace tikzlint;
using namespace tikzlint::tex;

namespace {
std::vector<Token> read_all(const std::string& text, bool at_letter = false) {
  SourceFile f("t.tex", text);
  Reader r(f, 0);
  std::vector<Token> out;
  Token t;
  while (r.next(t, at_letter)) out.push_back(t);
  return out;
}
}  // namespace

TEST_CASE("control words, control symbols and their byte offsets") {
  auto t = read_all("\\draw\\,x");
  REQUIRE(t.size() == 3);
  CHECK(t[0].cat == Cat::control);
  CHECK(t[0].text == "draw");
  CHECK(t[0].offset == 0);
  CHECK(t[1].cat == Cat::control);
  CHECK(t[1].text == ",");
  CHECK(t[1].offset == 5);
  CHECK(t[2].cat == Cat::letter);
  CHECK(t[2].offset == 7);
  CHECK(t[2].origin_begin == 7);
  CHECK(t[2].origin_end == 8);
}

TEST_CASE("spaces after a control word are skipped, runs of blanks become one space") {
  auto t = read_all("\\a   b  c");
  REQUIRE(t.size() == 4);
  CHECK(t[0].text == "a");
  CHECK(t[1].text == "b");
  CHECK(t[2].cat == Cat::space);
  CHECK(t[3].text == "c");
}

TEST_CASE("a newline is a space, a blank line is \\par, leading blanks are dropped") {
  auto t = read_all("a\n   b\n\nc");
  REQUIRE(t.size() == 6);
  CHECK(t[1].cat == Cat::space);
  CHECK(t[2].text == "b");
  CHECK(t[3].cat == Cat::space);
  CHECK(t[4].cat == Cat::par);
  CHECK(t[5].text == "c");
}

TEST_CASE("comments are dropped with their newline") {
  auto t = read_all("a% comment\nb");
  REQUIRE(t.size() == 2);
  CHECK(t[0].text == "a");
  CHECK(t[1].text == "b");
}

TEST_CASE("@ is a letter only when asked (class files, \\makeatletter)") {
  auto other = read_all("\\IM@debug");
  REQUIRE(other.size() == 7);
  CHECK(other[0].text == "IM");
  CHECK(other[1].cat == Cat::other);
  auto letter = read_all("\\IM@debug", true);
  REQUIRE(letter.size() == 1);
  CHECK(letter[0].text == "IM@debug");
}

TEST_CASE("catcodes of the special characters and parameters") {
  auto t = read_all("{}$&#^_~1");
  REQUIRE(t.size() == 9);
  CHECK(t[0].cat == Cat::begin_group);
  CHECK(t[1].cat == Cat::end_group);
  CHECK(t[2].cat == Cat::math);
  CHECK(t[3].cat == Cat::align);
  CHECK(t[4].cat == Cat::param);
  CHECK(t[5].cat == Cat::superscript);
  CHECK(t[6].cat == Cat::subscript);
  CHECK(t[7].cat == Cat::active);
  CHECK(t[8].cat == Cat::other);
}

TEST_CASE("a UTF-8 character is one token, invalid bytes become U+FFFD and are reported once") {
  SourceFile f("t.tex", "\xC3\xA9\xFF\xFEz");
  Reader r(f, 0);
  Token t;
  REQUIRE(r.next(t, false));
  CHECK(t.text == "\xC3\xA9");
  std::uint32_t bad = 0;
  CHECK_FALSE(r.take_invalid_utf8(bad));
  REQUIRE(r.next(t, false));
  CHECK(t.text == "\xEF\xBF\xBD");
  REQUIRE(r.take_invalid_utf8(bad));
  CHECK(bad == 2);
  REQUIRE(r.next(t, false));
  CHECK_FALSE(r.take_invalid_utf8(bad));  // once per file
  CHECK(find_invalid_utf8("ok") == std::string_view::npos);
  CHECK(find_invalid_utf8(std::string("a\0b", 3)) == 1);
  CHECK(find_invalid_utf8("\xED\xA0\x80") == 0);  // a surrogate is not valid UTF-8
}

TEST_CASE("next_plain: a run of plain characters is one token, with one origin per byte") {
  SourceFile f("t.tex", "draw12.5,7;abc@x\\q");
  Reader r(f, 0);
  Token t;
  REQUIRE(r.next_plain(t));
  CHECK(t.cat == Cat::letter);
  CHECK(t.text == "draw");
  CHECK(t.run);
  CHECK(t.origin_begin == 0);
  CHECK(t.origin_end == 4);
  REQUIRE(r.next_plain(t));
  CHECK(t.cat == Cat::other);
  CHECK(t.text == "12.5,7");  // digits and punctuation no statement reader looks at one by one
  REQUIRE(r.next_plain(t));   // ';' ends statements: a token of its own, never in a run
  CHECK(t.is_char(';'));
  CHECK_FALSE(t.run);
  REQUIRE(r.next_plain(t));
  CHECK(t.text == "abc");  // '@' is never plain (it is a letter in class files)
  REQUIRE_FALSE(r.next_plain(t));
  REQUIRE(r.next(t, false));
  CHECK(t.is_char('@'));
  REQUIRE(r.next_plain(t));
  CHECK(t.text == "x");
  CHECK_FALSE(t.run);              // one character is an ordinary token
  REQUIRE_FALSE(r.next_plain(t));  // a control sequence
  // Serialised, a run maps each byte to its own offset, as its character tokens would, and a
  // control word before a letter run gets its space.
  SourceFile g("u.tex", "\\draw{ab}");
  Reader r2(g, 0);
  TokenList l(4);
  REQUIRE(r2.next(l[0], false));
  REQUIRE(r2.next(l[1], false));
  REQUIRE(r2.next_plain(l[2]));
  REQUIRE(r2.next(l[3], false));
  std::string text;
  std::vector<std::uint32_t> origin;
  serialise(l, text, &origin);
  CHECK(text == "\\draw{ab}");
  CHECK(origin == std::vector<std::uint32_t>{0, 0, 0, 0, 0, 5, 6, 7, 8});
  TokenList m{l[0], l[2]};
  text.clear();
  origin.clear();
  serialise(m, text, &origin);
  CHECK(text == "\\draw ab");
  CHECK(origin == std::vector<std::uint32_t>{0, 0, 0, 0, 0, 0, 6, 7});
}

TEST_CASE("next_plain: single tokens and blanks as Reader::next reads them, and nothing it must read") {
  // Each prefix read with next_plain where it can, and with next where it cannot, gives the
  // tokens next alone gives.
  const std::string text =
      "\\draw (a)  -- ($b$)\n  x^2_1 &#  \n\n % c\n~{y}; @ \xc3\xa9 :=[] \\x  \n  z%\n\n\t\\y\n\n\n w% e";
  SourceFile f("t.tex", text);
  std::vector<Token> mixed;
  Reader r(f, 0);
  Token t;
  while (true) {
    if (r.next_plain(t)) {
      if (t.run) {  // one token per byte
        for (std::size_t k = 0; k < t.text.size(); ++k) {
          Token c = t;
          c.run = false;
          c.text = t.text.substr(k, 1);
          c.offset = c.origin_begin = t.origin_begin + static_cast<std::uint32_t>(k);
          c.origin_end = c.origin_begin + 1;
          mixed.push_back(c);
        }
      } else {
        mixed.push_back(t);
      }
      continue;
    }
    if (!r.next(t, false)) break;
    mixed.push_back(t);
  }
  auto plain = read_all(text);
  REQUIRE(mixed.size() == plain.size());
  for (std::size_t i = 0; i < plain.size(); ++i) {
    INFO("token " << i << " '" << plain[i].text << "'");
    CHECK(mixed[i].cat == plain[i].cat);
    CHECK(mixed[i].text == plain[i].text);
    CHECK(mixed[i].origin_begin == plain[i].origin_begin);
    CHECK(mixed[i].origin_end == plain[i].origin_end);
  }
  // What next_plain leaves to Reader::next: it reads nothing there.
  for (const char* s : {"\\x", "{", "}", "~", "@", "\xc3\xa9", std::string_view("\0", 1).data()}) {
    SourceFile g("u.tex", std::string(s, std::max<std::size_t>(1, std::strlen(s))));
    Reader q(g, 0);
    CHECK_FALSE(q.next_plain(t));
    CHECK(q.position() == 0);
  }
  // Blanks after a control word, at the start of a line and comments are skipped, as
  // Reader::next skips them, up to what it has to read.
  SourceFile g("v.tex", "\\x  % c\n   \\y");
  Reader q(g, 0);
  REQUIRE(q.next(t, false));
  CHECK_FALSE(q.next_plain(t));
  REQUIRE(q.next(t, false));
  CHECK(t.is_cs("y"));
}

TEST_CASE("serialise: a control word gets a space only before a letter") {
  auto t = read_all("\\draw (0,0) \\foo x\\bar{y}\\,z");
  CHECK(to_string(t) == "\\draw(0,0) \\foo x\\bar{y}\\,z");
}

TEST_CASE("tikzlint directives") {
  SourceFile f("t.tex",
               "% tikzlint: disable-file=in_frame\n"
               "a\n"
               "% tikzlint: disable-next-line=overlap, label_association -- labels sit on purpose\n"
               "\n"
               "% plain comment\n"
               "\\draw (0,0);\n"
               "x % tikzlint: disable=readable_size\n"
               "% tikzlint: frobnicate=x\n");
  std::vector<Diagnostic> diags;
  auto d = scan_directives(f, 0, diags);
  REQUIRE(d.size() == 3);
  CHECK(d[0].kind == "disable-file");
  CHECK(d[0].rules == std::vector<std::string>{"in_frame"});
  CHECK(d[1].kind == "disable-next-line");
  CHECK(d[1].rules == std::vector<std::string>{"overlap", "label_association"});
  CHECK(d[1].reason == "labels sit on purpose");
  CHECK(d[1].applies_to_line == 6);
  CHECK(d[2].kind == "disable");
  CHECK(d[2].range.begin == f.text().find("% tikzlint: disable="));
  REQUIRE(diags.size() == 1);
  CHECK(diags[0].message.find("frobnicate") != std::string::npos);
}
