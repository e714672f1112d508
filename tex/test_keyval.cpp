// Unit tests of parse_keyval: TikZ option lists as pgfkeys splits them.
#include <doctest/doctest.h>

#include <string>

#include "tex/pgfmath.hpp"

using namespace tikzlint::tex::pgfmath;

namespace {

std::string item(std::string_view text, const KeyValue& kv) {
  return std::string(text.substr(kv.begin, kv.end - kv.begin));
}

}  // namespace

TEST_CASE("keyval: flags and key=value pairs") {
  std::string_view t = "draw, fill=red!20,thick";
  auto kv = parse_keyval(t);
  REQUIRE(kv.size() == 3);
  CHECK(kv[0].key == "draw");
  CHECK_FALSE(kv[0].has_value);
  CHECK(kv[0].value.empty());
  CHECK(kv[1].key == "fill");
  CHECK(kv[1].has_value);
  CHECK(kv[1].value == "red!20");
  CHECK(kv[2].key == "thick");
  // Byte ranges cover each item without the surrounding blanks.
  CHECK(item(t, kv[0]) == "draw");
  CHECK(item(t, kv[1]) == "fill=red!20");
  CHECK(kv[1].begin == 6);
  CHECK(item(t, kv[2]) == "thick");
}

TEST_CASE("keyval: commas inside braces, parentheses and brackets do not split") {
  auto kv = parse_keyval("shift={(1,2)}, at=(3,4), label={[red]above:$A$}, x={(1cm,0)}");
  REQUIRE(kv.size() == 4);
  CHECK(kv[0].key == "shift");
  CHECK(kv[0].value == "(1,2)");  // one outer brace pair stripped
  CHECK(kv[1].key == "at");
  CHECK(kv[1].value == "(3,4)");
  CHECK(kv[2].key == "label");
  CHECK(kv[2].value == "[red]above:$A$");
  CHECK(kv[3].value == "(1cm,0)");
  auto br = parse_keyval("label=[draw,red]left:x, y");
  REQUIRE(br.size() == 2);
  CHECK(br[0].value == "[draw,red]left:x");
  CHECK(br[1].key == "y");
}

TEST_CASE("keyval: nested braces keep their inner braces") {
  auto kv = parse_keyval("every node/.style={draw, {inner sep=2pt}}, a={{x}}");
  REQUIRE(kv.size() == 2);
  CHECK(kv[0].key == "every node/.style");
  CHECK(kv[0].value == "draw, {inner sep=2pt}");
  CHECK(kv[1].value == "{x}");  // only ONE outer pair is stripped
  auto two = parse_keyval("a={x}{y}");
  REQUIRE(two.size() == 1);
  CHECK(two[0].value == "{x}{y}");  // not one group around the whole value
}

TEST_CASE("keyval: style keys and handlers") {
  auto kv = parse_keyval(
      "vertex/.style={circle, fill=black, inner sep=#1}, vertex/.default=1pt, "
      "my style/.append style={red}");
  REQUIRE(kv.size() == 3);
  CHECK(kv[0].key == "vertex/.style");
  CHECK(kv[0].value == "circle, fill=black, inner sep=#1");
  CHECK(kv[1].key == "vertex/.default");
  CHECK(kv[1].value == "1pt");
  CHECK(kv[2].key == "my style/.append style");
  CHECK(kv[2].value == "red");
}

TEST_CASE("keyval: keys are whitespace-normalised, values trimmed") {
  auto kv = parse_keyval("  inner    sep =  3pt  ,\n  minimum\twidth= 1cm\n");
  REQUIRE(kv.size() == 2);
  CHECK(kv[0].key == "inner sep");
  CHECK(kv[0].value == "3pt");
  CHECK(kv[1].key == "minimum width");
  CHECK(kv[1].value == "1cm");
  auto spaced = parse_keyval("text width = { 3cm }");
  REQUIRE(spaced.size() == 1);
  CHECK(spaced[0].value == " 3cm ");  // braces protect inner blanks
}

TEST_CASE("keyval: the first top-level = splits") {
  auto kv = parse_keyval("a=b=c, d={e=f}=g, {h=i}");
  REQUIRE(kv.size() == 3);
  CHECK(kv[0].key == "a");
  CHECK(kv[0].value == "b=c");
  CHECK(kv[1].key == "d");
  CHECK(kv[1].value == "{e=f}=g");
  CHECK(kv[2].key == "{h=i}");  // = inside braces does not split
  CHECK_FALSE(kv[2].has_value);
}

TEST_CASE("keyval: empty values and empty items") {
  auto kv = parse_keyval(",, draw ,, label= , name={}, ,");
  REQUIRE(kv.size() == 3);
  CHECK(kv[0].key == "draw");
  CHECK(kv[1].key == "label");
  CHECK(kv[1].has_value);
  CHECK(kv[1].value.empty());
  CHECK(kv[2].key == "name");
  CHECK(kv[2].has_value);
  CHECK(kv[2].value.empty());
  CHECK(parse_keyval("").empty());
  CHECK(parse_keyval(" , ,\n").empty());
}

TEST_CASE("keyval: unbalanced parenthesis and bracket are plain text, braces rule") {
  auto kv = parse_keyval("label=above:$[0,1)$, red");
  // "[0,1)" never closes its bracket, so the comma inside it splits as pgfkeys would.
  REQUIRE(kv.size() == 3);
  CHECK(kv[0].value == "above:$[0");
  CHECK(kv[1].key == "1)$");
  CHECK(kv[2].key == "red");
  auto protect = parse_keyval("label={$[0,1)$}, red");
  REQUIRE(protect.size() == 2);
  CHECK(protect[0].value == "$[0,1)$");
  auto open = parse_keyval("a=(1, b");
  REQUIRE(open.size() == 2);
  CHECK(open[0].value == "(1");
  auto inner = parse_keyval("a={(1}, b");  // an unclosed ( inside braces ends with them
  REQUIRE(inner.size() == 2);
  CHECK(inner[0].value == "(1");
  auto stray = parse_keyval("a=1), b=2]");
  REQUIRE(stray.size() == 2);
  CHECK(stray[1].value == "2]");
}

TEST_CASE("keyval: escaped braces do not group") {
  auto kv = parse_keyval("node contents=\\{a, b");
  REQUIRE(kv.size() == 2);
  CHECK(kv[0].value == "\\{a");
}

TEST_CASE("keyval: pathological input is linear, not exponential") {
  std::string deep(20000, '(');
  deep += ",x";
  auto kv = parse_keyval(deep);
  REQUIRE(kv.size() == 2);
  CHECK(kv[1].key == "x");
  std::string nested;
  for (int i = 0; i < 5000; ++i) nested += "{";
  nested += "a,b";
  for (int i = 0; i < 5000; ++i) nested += "}";
  auto one = parse_keyval(nested);
  REQUIRE(one.size() == 1);
}
