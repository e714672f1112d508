// tex/test_styles.cpp: pgfkeys style semantics (pgfmanual 87.4).
#include <doctest/doctest.h>

#include "tex/styles.hpp"

using namespace tikzlint::tex;

namespace {
std::vector<std::string> keys(const std::vector<FlatKey>& ks) {
  std::vector<std::string> out;
  for (const auto& k : ks) out.push_back(k.has_value ? k.key + "=" + k.value : k.key);
  return out;
}
}  // namespace

TEST_CASE("split_options is brace, bracket and paren aware") {
  auto items = split_options("draw, fill=red!20, shift={(1,2)}, label={[red]above:$a,b$}, x=(1cm,0)");
  REQUIRE(items.size() == 5);
  CHECK(items[1].key == "fill");
  CHECK(items[1].value == "red!20");
  CHECK(items[2].value == "(1,2)");
  CHECK(items[3].value == "[red]above:$a,b$");
  CHECK(items[4].value == "(1cm,0)");
  CHECK(items[1].begin == 6);
}

TEST_CASE(".style expands recursively, with the span of the using key") {
  StyleTable t;
  t.run_tikzset("vertex/.style={circle, fill, inner sep=0pt, minimum size=4pt}, big/.style={vertex, minimum size=8pt}",
                nullptr);
  auto flat = t.expand("big, red", nullptr);
  CHECK(keys(flat) == std::vector<std::string>{"circle", "fill", "inner sep=0pt", "minimum size=4pt",
                                                 "minimum size=8pt", "red"});
  CHECK(flat[0].via == "big");
  CHECK(flat[0].begin == 0);
  CHECK(flat[0].end == 3);
  CHECK(flat[5].via == "");
}

TEST_CASE(".append style, .prefix style and every node") {
  StyleTable t;
  t.run_tikzset("every node/.style={draw}", nullptr);
  t.run_tikzset("every node/.append style={font=\\small}", nullptr);
  t.run_tikzset("every node/.prefix style={red}", nullptr);
  CHECK(keys(t.expand_style("every node", nullptr)) == std::vector<std::string>{"red", "draw", "font=\\small"});
}

TEST_CASE("styles with arguments: #1, .default, n args, 2 args, args pattern") {
  StyleTable t;
  t.run_tikzset("thick line/.style={line width=#1}, thick line/.default=2pt", nullptr);
  CHECK(keys(t.expand("thick line", nullptr)) == std::vector<std::string>{"line width=2pt"});
  CHECK(keys(t.expand("thick line=3pt", nullptr)) == std::vector<std::string>{"line width=3pt"});
  t.run_tikzset("pair/.style n args={3}{xshift=#1, yshift=#2, #3}", nullptr);
  CHECK(keys(t.expand("pair={1cm}{2cm}{draw}", nullptr)) ==
        std::vector<std::string>{"xshift=1cm", "yshift=2cm", "draw"});
  t.run_tikzset("two/.style 2 args={xshift=#1, yshift=#2}", nullptr);
  CHECK(keys(t.expand("two={3pt}{4pt}", nullptr)) == std::vector<std::string>{"xshift=3pt", "yshift=4pt"});
  t.run_tikzset("at grid/.style args={#1 and #2}{xshift=#1, yshift=#2}", nullptr);
  CHECK(keys(t.expand("at grid=5pt and 6pt", nullptr)) == std::vector<std::string>{"xshift=5pt", "yshift=6pt"});
}

TEST_CASE(".style args: a delimiter is matched with its spaces, outside braces, as TeX matches its tokens") {
  StyleTable t;
  // `{#1 at #2 at#3}`: #1 ends at the first " at ", not at the "at" inside "Latex"
  t.run_tikzset("tip/.style args={#1 at #2 at#3}{arrow tip=#1, pos=#2}", nullptr);
  CHECK(keys(t.expand("tip=Latex at .3 at .5 at", nullptr)) == std::vector<std::string>{"arrow tip=Latex", "pos=.3"});
  CHECK(keys(t.expand("tip=Latex[scale=2]   at .8 at", nullptr)) ==
        std::vector<std::string>{"arrow tip=Latex[scale=2]", "pos=.8"});
  // a delimiter inside braces is not one
  t.run_tikzset("both/.style args={#1 and #2}{xshift=#1, yshift=#2}", nullptr);
  CHECK(keys(t.expand("both={1pt and 2pt} and 3pt", nullptr)) ==
        std::vector<std::string>{"xshift=1pt and 2pt", "yshift=3pt"});
  // Brand: "and" inside a word is no delimiter
  CHECK(keys(t.expand("both=\\Brand and 4pt", nullptr)) == std::vector<std::string>{"xshift=\\Brand", "yshift=4pt"});
}

TEST_CASE("scopes: a style defined inside a scope disappears at its end") {
  StyleTable t;
  t.run_tikzset("a/.style={draw}", nullptr);
  t.push();
  t.run_tikzset("a/.style={fill}", nullptr);
  CHECK(keys(t.expand("a", nullptr)) == std::vector<std::string>{"fill"});
  t.pop();
  CHECK(keys(t.expand("a", nullptr)) == std::vector<std::string>{"draw"});
}

TEST_CASE("\\tikzstyle and /tikz/ prefixes") {
  StyleTable t;
  t.run_tikzset("\\tikzstyle{vertex}=[circle, fill]", nullptr);
  t.run_tikzset("\\tikzstyle{vertex}+=[draw]", nullptr);
  CHECK(keys(t.expand("/tikz/vertex", nullptr)) == std::vector<std::string>{"circle", "fill", "draw"});
}

TEST_CASE(".code setters: \\def and substitution into later styles") {
  StyleTable t;
  t.run_tikzset(
      "len/.code={\\def\\mylen{#1}}, len=.125in, mark/.style={insert path={-- ++(\\mylen,0)}}", nullptr);
  CHECK(t.macro("mylen") == std::optional<std::string>(".125in"));
  CHECK(keys(t.expand("mark", nullptr)) == std::vector<std::string>{"insert path=-- ++(.125in,0)"});
  t.run_tikzset("both/.code={\\tikzset{draw, line width=#1}}", nullptr);
  CHECK(keys(t.expand("both=2pt", nullptr)) == std::vector<std::string>{"draw", "line width=2pt"});
}

TEST_CASE("unsupported code and unknown handlers are reported, recursion is bounded") {
  StyleTable t;
  std::vector<StyleProblem> problems;
  t.run_tikzset("weird/.code={\\pgftransformshift{#1}}", &problems);
  t.expand("weird=1", &problems);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].code == "unsupported-key");
  problems.clear();
  t.run_tikzset("x/.frobnicate=3", &problems);
  REQUIRE(problems.size() == 1);
  problems.clear();
  t.run_tikzset("loop/.style={loop}", &problems);
  t.expand("loop", &problems);
  REQUIRE(!problems.empty());
  CHECK(problems.back().code == "expansion-limit");
}

TEST_CASE("styles: a fallback table is consulted after the table's own definitions and its base") {
  auto lib = std::make_shared<StyleTable>();
  lib->run_tikzset("place/.style={circle,draw}, token/.style={fill}", nullptr);
  StyleTable t;
  t.run_tikzset("place/.style={rectangle}", nullptr);
  t.set_fallback(lib);
  REQUIRE(t.find("token") != nullptr);           // from the fallback
  CHECK(t.find("token")->body == "fill");
  CHECK(t.find("place")->body == "rectangle");   // the document's own definition wins
  CHECK(t.find("nothing") == nullptr);
  auto keys = t.expand("token, place", nullptr);
  REQUIRE(keys.size() == 2);
  CHECK(keys[0].key == "fill");
  CHECK(keys[1].key == "rectangle");
}

TEST_CASE("memoised expansions follow redefinitions, setters and the end of scopes") {
  StyleTable t;
  t.run_tikzset("a/.style={red}", nullptr);
  CHECK(keys(t.expand("a, thick", nullptr)) == std::vector<std::string>{"red", "thick"});
  CHECK(keys(t.expand("a, thick", nullptr)) == std::vector<std::string>{"red", "thick"});  // from the memo
  t.run_tikzset("a/.style={blue}", nullptr);  // redefined: the memo entry is stale
  CHECK(keys(t.expand("a, thick", nullptr)) == std::vector<std::string>{"blue", "thick"});
  t.push();
  t.run_tikzset("a/.style={green}", nullptr);
  CHECK(keys(t.expand("a, thick", nullptr)) == std::vector<std::string>{"green", "thick"});
  CHECK(keys(t.expand_style("a", nullptr)) == std::vector<std::string>{"green"});
  t.pop();  // the inner definition is gone, and so is what was memoised under it
  CHECK(keys(t.expand("a, thick", nullptr)) == std::vector<std::string>{"blue", "thick"});
  CHECK(keys(t.expand_style("a", nullptr)) == std::vector<std::string>{"blue"});
  // a .code setter's macro changes what a later expansion substitutes
  t.run_tikzset("len/.code={\\def\\mylen{#1}}, b/.style={line width=\\mylen}", nullptr);
  t.expand("len=2pt", nullptr);
  CHECK(keys(t.expand("b", nullptr)) == std::vector<std::string>{"line width=2pt"});
  t.expand("len=5pt", nullptr);
  CHECK(keys(t.expand("b", nullptr)) == std::vector<std::string>{"line width=5pt"});
  // problems are reported on every expansion, memoised or not
  std::vector<StyleProblem> p1, p2;
  t.run_tikzset("c/.code={\\unknowncommand}", nullptr);
  t.expand("c", &p1);
  t.expand("c", &p2);
  CHECK(p1.size() == 1);
  CHECK(p2.size() == p1.size());
}

TEST_CASE("tables layered on one base share its memo only while they define nothing of their own") {
  auto base = std::make_shared<StyleTable>();
  base->run_tikzset("a/.style={red}, len/.code={\\def\\mylen{#1}}, b/.style={line width=\\mylen}", nullptr);
  std::shared_ptr<const StyleTable> shared = base;
  StyleTable one(shared), two(shared);
  CHECK(keys(one.expand("a, thick", nullptr)) == std::vector<std::string>{"red", "thick"});
  CHECK(keys(one.expand_style("a", nullptr)) == std::vector<std::string>{"red"});
  CHECK(shared->shared_memo_size() == 2);
  CHECK(keys(two.expand("a, thick", nullptr)) ==
        std::vector<std::string>{"red", "thick"});  // the base's memo
  CHECK(shared->shared_memo_size() == 2);
  // A table with a definition of its own expands with it, and keeps it out of the base's memo.
  two.push();
  two.run_tikzset("a/.style={blue}", nullptr);
  CHECK(keys(two.expand("a, thick", nullptr)) == std::vector<std::string>{"blue", "thick"});
  CHECK(keys(two.expand_style("a", nullptr)) == std::vector<std::string>{"blue"});
  CHECK(keys(two.expand("a, dashed", nullptr)) == std::vector<std::string>{"blue", "dashed"});
  CHECK(shared->shared_memo_size() == 2);
  CHECK(keys(one.expand("a, dashed", nullptr)) == std::vector<std::string>{"red", "dashed"});
  two.pop();  // nothing of its own again: back to the base's
  CHECK(keys(two.expand("a, thick", nullptr)) == std::vector<std::string>{"red", "thick"});
  // An expansion that sets a macro is not repeatable: never in the base's memo.
  const std::size_t before = shared->shared_memo_size();
  one.expand("len=2pt", nullptr);
  CHECK(shared->shared_memo_size() == before);
  CHECK(keys(one.expand("b", nullptr)) == std::vector<std::string>{"line width=2pt"});
  CHECK(keys(two.expand("b", nullptr)) == std::vector<std::string>{"line width=\\mylen"});
  // A copy of the base starts a memo of its own.
  StyleTable copy = *base;
  CHECK(copy.shared_memo_size() == 0);
}

TEST_CASE("styles that multiply stop at kMaxKeys with one expansion-limit problem") {
  StyleTable t;
  std::string defs;
  for (int i = 1; i <= 30; ++i)  // s1 uses s2 twice, s2 uses s3 twice...: 2^30 keys
    defs.append("s")
        .append(std::to_string(i))
        .append("/.style={s")
        .append(std::to_string(i + 1))
        .append(",s")
        .append(std::to_string(i + 1))
        .append("},");
  defs += "s31/.style={thick}";
  t.run_tikzset(defs, nullptr);
  std::vector<StyleProblem> problems;
  auto many = t.expand("draw, s1", &problems);
  CHECK(many.size() <= StyleTable::kMaxKeys);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].code == "expansion-limit");
  CHECK(problems[0].begin == 6);  // located at the key that used the style
  // a later, ordinary expansion is not affected
  problems.clear();
  CHECK(keys(t.expand("s29", &problems)) == std::vector<std::string>{"thick", "thick", "thick", "thick"});
  CHECK(problems.empty());
}

TEST_CASE("a cycle of styles that each use the next twice stops at kMaxSteps with one expansion-limit problem") {
  // s1 -> ... -> s5 -> s6 -> ... -> s15 -> s6: one key per lap while the calls double; under
  // kMaxKeys alone this took seconds and one depth problem per leaf (gigabytes)
  StyleTable t;
  std::string defs;
  for (int i = 1; i <= 14; ++i)
    defs.append("s")
        .append(std::to_string(i))
        .append("/.style={s")
        .append(std::to_string(i + 1))
        .append(",s")
        .append(std::to_string(i + 1))
        .append("},");
  defs += "s15/.style={s6,k}";
  t.run_tikzset(defs, nullptr);
  std::vector<StyleProblem> problems;
  auto keys_out = t.expand("draw, s1", &problems);
  CHECK(keys_out.size() < StyleTable::kMaxKeys);
  // each reported once: the depth limit (first reached on the way down) and the step limit
  REQUIRE(problems.size() == 2);
  CHECK(problems[0].code == "expansion-limit");
  CHECK(problems[0].message.find("deeper") != std::string::npos);
  CHECK(problems[1].code == "expansion-limit");
  CHECK(problems[1].message.find("steps") != std::string::npos);
  // a plain recursive style is reported once, at its depth limit
  problems.clear();
  t.run_tikzset("r/.style={r,thin}", nullptr);
  t.expand("r", &problems);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].message.find("deeper") != std::string::npos);
}

TEST_CASE("path/.cd: later keys are looked up under the path first, the others stay /tikz keys") {
  StyleTable t;
  t.run_tikzset("commutative diagrams/every arrow/.style={draw, ->}", nullptr);
  auto flat = t.expand("commutative diagrams/.cd, every arrow, red, /tikz/.cd, every arrow", nullptr);
  CHECK(keys(flat) == std::vector<std::string>{"draw", "->", "red", "every arrow"});
}
