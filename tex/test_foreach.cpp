// tex/test_foreach.cpp: \foreach per pgfmanual part VII ("Repeating Things: The Foreach
// Statement"): lists, ranges, tuples, options, nesting, in-path use, provenance.
#include <doctest/doctest.h>

#include "tex/test_support.hpp"

using namespace tikzlint;
using namespace tikzlint::tex;
using testing::picture;

namespace {
std::vector<std::string> nodes(const std::string& list) {
  auto r = picture("\\foreach \\x in " + list + " {\\node {\\x};}");
  std::vector<std::string> out;
  for (const auto& t : r.texts()) {
    auto b = t.find('{'), e = t.rfind('}');
    out.push_back(t.substr(b + 1, e - b - 1));
  }
  return out;
}
using V = std::vector<std::string>;
}  // namespace

TEST_CASE("a plain list, items trimmed, braces around an item removed") {
  CHECK(nodes("{1, 2 ,{a,b}}") == V{"1", "2", "a,b"});
}

TEST_CASE("... ranges: step 1, step from the first two items, descending, not overshooting") {
  CHECK(nodes("{1,...,4}") == V{"1", "2", "3", "4"});
  CHECK(nodes("{0,2,...,7}") == V{"0", "2", "4", "6"});
  CHECK(nodes("{5,...,2}") == V{"5", "4", "3", "2"});
  CHECK(nodes("{10,8,...,4}") == V{"10", "8", "6", "4"});
  CHECK(nodes("{1,...,3,10}") == V{"1", "2", "3", "10"});
  auto halves = nodes("{0,0.5,...,2}");
  REQUIRE(halves.size() == 5);
  CHECK(halves[0] == "0");
  CHECK(std::stod(halves[3]) == doctest::Approx(1.5));
  CHECK(std::stod(halves[4]) == doctest::Approx(2.0));
}

TEST_CASE("letter ranges") {
  CHECK(nodes("{a,...,e}") == V{"a", "b", "c", "d", "e"});
  CHECK(nodes("{A,C,...,G}") == V{"A", "C", "E", "G"});
}

TEST_CASE("the list may come from a macro, range ends may be expressions") {
  auto r = picture("\\def\\pts{1,2,3}\\def\\n{2}\n\\foreach \\x in \\pts {\\node {\\x};}\n\\foreach \\y in {1,...,\\n+1} {\\node {\\y};}");
  CHECK(r.texts() == V{"\\node{1};", "\\node{2};", "\\node{3};", "\\node{1};", "\\node{2};", "\\node{3};"});
}

TEST_CASE("tuples: \\x/\\y, a missing part repeats the last one") {
  auto r = picture("\\foreach \\x/\\y in {1/a, 2/b, 3} {\\node at (\\x,0) {\\y};}");
  CHECK(r.texts() == V{"\\node at (1,0) {a};", "\\node at (2,0) {b};", "\\node at (3,0) {3};"});
}

TEST_CASE("options: var, count, evaluate, remember, parse") {
  auto r = picture(
      "\\foreach [var=\\v, count=\\i from 0] in {a,b} {\\node at (\\i,0) {\\v};}\n"
      "\\foreach \\x [evaluate=\\x as \\d using \\x*2, count=\\c] in {1,2} {\\draw (\\c,\\d);}\n"
      "\\foreach \\x [remember=\\x as \\last (initially A)] in {B,C} {\\draw (\\last) -- (\\x);}\n"
      "\\foreach \\x [parse=true] in {1,...,1+1} {\\draw (\\x,0);}");
  CHECK(r.texts() == V{"\\node at (0,0) {a};", "\\node at (1,0) {b};", "\\draw(1,2.0);", "\\draw(2,4.0);",
                       "\\draw(A) -- (B);", "\\draw(B) -- (C);", "\\draw(1,0);", "\\draw(2,0);"});
}

TEST_CASE("a body without braces runs to the semicolon, nested loops unroll in order") {
  auto r = picture("\\foreach \\x in {1,2} \\foreach \\y in {a,b} \\node at (\\x,0) {\\y;};");
  CHECK(r.texts() == V{"\\node at (1,0) {a;};", "\\node at (1,0) {b;};", "\\node at (2,0) {a;};",
                       "\\node at (2,0) {b;};"});
}

TEST_CASE("inside a path the loop unrolls in place") {
  auto r = picture("\\draw (0,0) \\foreach \\i in {1,2} { -- (\\i,\\i) } -- cycle;");
  REQUIRE(r.texts().size() == 1);
  CHECK(r.texts()[0] == "\\draw(0,0) -- (1,1) -- (2,2) -- cycle;");
}

TEST_CASE("each iteration is a group: variables and definitions do not leak") {
  auto r = picture("\\def\\k{0}\\foreach \\x in {1,2} {\\def\\k{\\x}\\draw (\\k,0);}\n\\draw (\\k,\\x);");
  CHECK(r.texts() == V{"\\draw(1,0);", "\\draw(2,0);", "\\draw(0,\\x);"});
  CHECK(r.doc.unexpanded_user_macros == 0);  // \x is a loop variable, not a user macro
}

TEST_CASE("the bindings of each iteration are recorded in the provenance, outer loop first") {
  auto r = picture("\\foreach \\x in {1,2} {\\foreach \\y in {a} {\\draw (\\x,0) node {\\y};}}");
  REQUIRE(r.texts().size() == 2);
  const Statement& s = r.statement(1);
  REQUIRE(s.prov.loops.size() == 2);
  CHECK(s.prov.loops[0].variable == "\\x");
  CHECK(s.prov.loops[0].value == "2");
  CHECK(s.prov.loops[0].iteration == 1);
  CHECK(s.prov.loops[0].loop_site.begin == r.input.find("\\foreach \\x"));
  CHECK(s.prov.loops[1].variable == "\\y");
  CHECK(s.prov.loops[1].value == "a");
  CHECK(s.prov.loops[1].iteration == 0);
  // The text maps to the input: \draw sits in the loop body.
  CHECK(s.origin[0] == r.input.find("\\draw"));
}

TEST_CASE("loops inside macros (Ucube style) and macros inside loops") {
  auto r = picture(
      "\\newcommand\\cube[2]{\\begin{scope}[shift={(#1,#2)}]\\draw (0,0) rectangle (1,1);\\end{scope}}\n"
      "\\foreach \\x/\\y in {0/0, 1/0}{\\cube{\\x}{\\y};}");
  auto t = r.texts();
  REQUIRE(t.size() == 6);
  CHECK(t[0] == "shift={(0,0)}");
  CHECK(t[3] == "shift={(1,0)}");
  CHECK(r.statement(4).prov.macros.size() == 1);
  CHECK(r.statement(4).prov.loops.size() == 2);  // \\x and \\y of one iteration
}

TEST_CASE("\\ifthenelse on the loop variable (Hanger style)") {
  auto r = picture("\\foreach \\s [count=\\n] in {squ,cir} {\\ifthenelse{\\equal{\\s}{cir}}{\\draw (\\n,0) circle (1);}{\\draw (\\n,0) rectangle (1,1);}}");
  CHECK(r.texts() == V{"\\draw(1,0) rectangle (1,1);", "\\draw(2,0) circle (1);"});
}

TEST_CASE("an item that begins with ( runs to its ) and on to the next comma") {
  // pgffor.code.tex \pgffor@scanround: `(2,3)` is one item, also with text after the `)`
  CHECK(nodes("{(2,3), (4,3),(1,2)a, 5}") == V{"(2,3)", "(4,3)", "(1,2)a", "5"});
}

TEST_CASE("a body that is a \\foreach takes the inner loop's braced body") {
  // pgffor.code.tex \pgffor@collectforeach: no ';' after the inner group is needed
  auto r = picture("\\foreach \\x in {1,2} \\foreach \\y in {a} {\\draw (\\x,0); \\fill (\\y);}");
  CHECK(r.texts() == V{"\\draw(1,0);", "\\fill(a);", "\\draw(2,0);", "\\fill(a);"});
}
