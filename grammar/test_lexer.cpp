// grammar/test_lexer.cpp: the hand-written ByteLexer must tokenise exactly like the lexer
// ANTLR generates from TikZ.g4 (same types, same offsets), on real forms and on random bytes.
#include <doctest/doctest.h>

#include <random>
#include <string>
#include <vector>

#include "TikZLexer.h"
#include "antlr4-runtime.h"
#include "grammar/byte_lexer.hpp"

namespace {

struct Tok {
  std::size_t type, start, stop;
  bool operator==(const Tok&) const = default;
};

std::vector<Tok> reference_tokens(const std::string& text) {
  antlr4::ANTLRInputStream input(text);
  tikzgen::TikZLexer lexer(&input);
  lexer.removeErrorListeners();
  std::vector<Tok> out;
  for (;;) {
    auto t = lexer.nextToken();
    out.push_back({t->getType(), t->getStartIndex(), t->getStopIndex()});
    if (t->getType() == antlr4::Token::EOF) break;
  }
  return out;
}

std::vector<Tok> byte_tokens(const std::string& text) {
  tikzlint::grammar::ByteLexer lexer;
  lexer.reset(nullptr, text);
  std::vector<Tok> out;
  for (;;) {
    std::size_t start = 0, stop = 0;
    std::size_t type = lexer.next_token(start, stop);
    out.push_back({type, start, stop});
    if (type == antlr4::Token::EOF) break;
  }
  return out;
}

}  // namespace

TEST_CASE("byte lexer matches the generated lexer on every statement form") {
  const char* samples[] = {
      // One statement over two lines (parenthesised: clang's -Wstring-concatenation).
      ("\\draw[thick,->] (0,0) -- (1,0) node[midway,below]{$5$ cm} -- ++(0,1) -| (A.north east) "
       ".. controls (1,2) and +(3,4) .. (5,6) -- cycle;"),
      "\\node[draw] (a) at (1,2) {x}; \\coordinate[label=above:$A$] (A) at (1,2);",
      "\\draw (0,0) circle [radius=1] ellipse (2 and 1) arc (0:90:1) arc[start angle=0,delta angle=30];",
      "\\draw plot[domain=0:1,samples=20] (\\x,{\\x^2}) plot coordinates {(0,0) (1,1)};",
      "\\path let \\p1 = (A), \\n1 = {veclen(\\x1,\\y1)} in (\\p1) circle (\\n1);",
      "\\pic[\"$\\alpha$\", draw] {angle = A--B--C}; \\filldraw \\drawing \\shadedraw",
      "\\draw ({2*cos(30)},{sin(30)*1cm}) -- (-.5, 3) -- (1.5.2) |- (1..2) -|x-|y|z 12.5.",
      "\\draw ([xshift=2pt]A.east) to[out=30,in=150] node{a\\}b} (B) edge[bend left] (C);",
      "{unclosed [ ( } ] ) \\{ \\ % comment ; here\n ; $ @ \\@x \\; \\",
      "\\draw[label={[red]above:{a]b}}] (0,0) [ (x] ) {(} {)} (]) ([) ;",
  };
  for (const char* s : samples) {
    CAPTURE(s);
    CHECK(byte_tokens(s) == reference_tokens(s));
  }
}

TEST_CASE("byte lexer matches the generated lexer on random text") {
  const std::string alphabet = "{}[]()\\$-|.+;,=% \n\t@abcnodetrlix0123456789:!\"&";
  std::mt19937 rng(1234);
  std::uniform_int_distribution<std::size_t> pick(0, alphabet.size() - 1), len(0, 40);
  for (int i = 0; i < 3000; ++i) {
    std::string s;
    for (std::size_t n = len(rng); n > 0; --n) s += alphabet[pick(rng)];
    CAPTURE(s);
    REQUIRE(byte_tokens(s) == reference_tokens(s));
  }
}
