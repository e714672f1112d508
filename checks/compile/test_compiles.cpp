// Unit tests of the catalog and the rule `compiles` (fixtures/rules/compiles/ test it end to end).
#include <doctest/doctest.h>

#include "checks/compile/catalog.hpp"
#include "checks/compile/compiles.hpp"

using namespace tikzlint;
using namespace tikzlint::compile;

namespace {

Outcome check(const std::string& text) {
  SourceManager sm;
  FileId f = sm.add("test.tex", text);
  return evaluate(sm, f, {"/nonexistent-dir"}, checks::Config{});
}

bool has_check(const Outcome& o, const std::string& check) {
  for (const auto& d : o.findings)
    if (d.severity == Severity::error && d.evidence.value("check", "") == check) return true;
  return false;
}

const char* kPicture = "\\begin{tikzpicture}\n\\draw (0,0) -- (1,0);\n\\end{tikzpicture}\n";

}  // namespace

TEST_CASE("catalog: tikz defines its commands, libraries their keys and shapes") {
  const Catalog& c = Catalog::get();
  auto tikz = c.unit("package", "tikz");
  auto pos = c.unit("tikzlib", "positioning");
  auto geo = c.unit("tikzlib", "shapes.geometric");
  REQUIRE(tikz);
  REQUIRE(pos);
  REQUIRE(geo);
  UnitSet with_tikz = c.closure({*tikz});
  CHECK(c.defined(Kind::command, "draw", with_tikz));
  CHECK(c.defined(Kind::command, "tikzpicture", with_tikz));
  CHECK(c.defined(Kind::key, "/tikz/line width", with_tikz));
  CHECK(c.defined(Kind::shape, "circle", with_tikz));
  CHECK_FALSE(c.defined(Kind::shape, "diamond", with_tikz));
  CHECK(c.defined(Kind::shape, "diamond", c.closure({*geo})));
  CHECK(c.defined(Kind::key, "/tikz/on grid", c.closure({*pos})));
  CHECK(c.defined(Kind::math_function, "sin", with_tikz));
  CHECK(c.exists("package", "amsmath"));
  CHECK_FALSE(c.exists("package", "no-such-package-xyz"));
  CHECK(c.primitive("hbox"));
  CHECK_FALSE(c.source().empty());
}

TEST_CASE("edit distance stops past its limit") {
  CHECK(edit_distance("thick", "thik", 2) == 1);
  CHECK(edit_distance("above", "abvoe", 2) == 2);
  CHECK(edit_distance("a", "completely", 2) == 3);
}

TEST_CASE("compiles: a plain document passes, each TeX stop fails") {
  std::string head = "\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n";
  CHECK(check(head + kPicture + "\\end{document}\n").verdict == checks::Verdict::pass);
  CHECK(has_check(check("```latex\n" + head + kPicture + "\\end{document}\n```\n"), "text-before-documentclass"));
  // a control sequence named with \csname before the class is a definition, not text
  CHECK(check("\\expandafter\\def\\csname input@path\\endcsname{{./}}\n" + head + kPicture + "\\end{document}\n").verdict ==
        checks::Verdict::pass);
  CHECK(has_check(check("input path\n" + head + kPicture + "\\end{document}\n"), "text-before-documentclass"));
  CHECK(has_check(check("\\documentclass{article}\n\\usepackage{tikz}\n" + std::string(kPicture) + "\\end{document}\n"),
                  "missing-begin-document"));
  CHECK(has_check(check(head + kPicture), "missing-end-document"));
  CHECK(has_check(check(head + "\\node {a;\n" + kPicture + "\\end{document}\n"), "unbalanced-braces"));
  CHECK(has_check(check(head + "\\begin{tikzpicture}\n\\end{document}\n"), "unbalanced-environments"));
  CHECK(has_check(check("\\documentclass{article}\n\\usepackage{tikzz}\n\\begin{document}\n\\end{document}\n"),
                  "unknown-package"));
  CHECK(has_check(check(head + "\\usetikzlibrary{positionning}\n\\end{document}\n"), "unknown-tikzlib"));
  CHECK(has_check(check(head + "\\tikz\\draw[-{Arrowhead}] (0,0) -- (1,0);\n\\end{document}\n"), "unknown-arrow tip"));
  CHECK(has_check(check(head + "\\tikz\\node[shape=hexagon] {};\n\\end{document}\n"), "unknown-shape"));
  CHECK(has_check(check(head + "\\tikz\\draw (0,0) -- ({cosd(30)},1);\n\\end{document}\n"), "unknown-function"));
  CHECK(has_check(check(head + "\\tikz\\draw (0,0) -- (\\pi,1);\n\\end{document}\n"), "math-command-in-coordinate"));
}

TEST_CASE("compiles: what it cannot follow is indeterminate, never fail") {
  std::string text = "\\documentclass{article}\n\\usepackage{my-own-macros}\n\\usepackage{tikz}\n\\begin{document}\n"
                     "\\tikz\\node[mystyle] {\\mymacro};\n\\end{document}\n";
  SourceManager sm;
  FileId f = sm.add("test.tex", text);
  // a package of the file's own folder: not catalogued
  Outcome o = evaluate(sm, f, {"/nonexistent-dir"}, checks::Config{});
  // Not installed here, and no misspelling of an installed package: it may exist in the user's
  // TeX Live (the catalog lists this machine's), so indeterminate, never fail.
  CHECK(o.verdict == checks::Verdict::indeterminate);
  // A misspelling of an installed package is an error: TeX stops on it.
  CHECK(check("\\documentclass{article}\n\\usepackage{tikzz}\n\\begin{document}\nx\n\\end{document}\n").verdict ==
        checks::Verdict::fail);
  std::string with_csname = "\\documentclass{article}\n\\usepackage{tikz}\n"
                            "\\expandafter\\def\\csname mymacro\\endcsname{x}\n\\begin{document}\n"
                            "\\tikz\\node {\\mymacro};\n\\end{document}\n";
  CHECK(check(with_csname).verdict == checks::Verdict::indeterminate);
}

TEST_CASE("compiles: macros pgf commands define, and graph drawing keys, are not errors") {
  std::string head = "\\documentclass{article}\n\\usepackage{tikz}\n";
  // \pgfkeysgetvalue stores in its second argument (the PGF manual's graphs examples)
  CHECK(check(head + "\\begin{document}\n\\pgfkeysgetvalue{/tikz/x}{\\mynum}\\tikz\\node {\\mynum};\n\\end{document}\n")
            .verdict == checks::Verdict::pass);
  // ... but a macro nothing defines is still TeX's error
  CHECK(has_check(check(head + "\\begin{document}\n\\tikz\\node {\\mynum};\n\\end{document}\n"), "undefined-command"));
  // graph drawing libraries declare their keys in Lua: not an unknown key
  Outcome gd = check(head + "\\usetikzlibrary{graphs,graphdrawing}\n\\usegdlibrary{trees}\n\\begin{document}\n"
                            "\\tikz [tree layout] \\graph {1 -> {b,c}};\n\\end{document}\n");
  CHECK(gd.verdict != checks::Verdict::fail);
}

TEST_CASE("compiles: pgfplots libraries load as pgfplots does, and its macro-made keys are not errors") {
  std::string head = "\\documentclass{article}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.18}\n";
  // \usepgfplotslibrary{X} inputs tikzlibrarypgfplots.X.code.tex: X exists, and defines its environments
  Outcome polar = check(head + "\\usepgfplotslibrary{polar}\n\\begin{document}\n\\begin{tikzpicture}\\begin{polaraxis}"
                               "\\addplot coordinates {(0,1) (90,1)};\\end{polaraxis}\\end{tikzpicture}\n\\end{document}\n");
  CHECK(polar.verdict != checks::Verdict::fail);
  CHECK(has_check(check(head + "\\usepgfplotslibrary{polarr}\n\\begin{document}\nx\n\\end{document}\n"), "unknown-pgfplotslib"));
  // keys pgfplots makes with its own macros (ylabel style, nodes near coords)
  Outcome keys = check(head + "\\begin{document}\n\\begin{tikzpicture}\\begin{axis}[ylabel style={red}]"
                              "\\addplot+[nodes near coords] coordinates {(0,1)};\\end{axis}\\end{tikzpicture}\n\\end{document}\n");
  CHECK(keys.verdict != checks::Verdict::fail);
}

TEST_CASE("compiles: pgfplots' \\as and \\nextlist are delimiters, the macros \\as and \\pgfplotstableread name are defined") {
  std::string head = "\\documentclass{article}\n\\usepackage{pgfplots}\n\\pgfplotsset{compat=1.18}\n\\begin{document}\n";
  auto undefined = [](const Outcome& o, const std::string& name) {
    for (const auto& d : o.findings)
      if (d.severity == Severity::error && d.evidence.value("name", "") == name) return true;
    return false;
  };
  // pgfplots manual 4.17.1: visualization depends on={<expr> \as \macro} defines \macro for the plot
  Outcome vis = check(head + "\\begin{tikzpicture}\\begin{axis}\\addplot+[scatter,visualization depends on={2*x \\as \\mysize},"
                             "scatter/@pre marker code/.append style={/tikz/mark size=\\mysize}] {x};\\end{axis}"
                             "\\end{tikzpicture}\n\\end{document}\n");
  CHECK_FALSE(undefined(vis, "\\as"));
  CHECK_FALSE(undefined(vis, "\\mysize"));
  // cycle multi list={a\nextlist b}
  Outcome multi = check(head + "\\begin{tikzpicture}\\begin{axis}[cycle multi list={color list\\nextlist mark list}]"
                               "\\addplot {x};\\end{axis}\\end{tikzpicture}\n\\end{document}\n");
  CHECK_FALSE(undefined(multi, "\\nextlist"));
  // \pgfplotstableread{<inline data>}\name and \pgfplotstableread[opts]{file}{\name}
  Outcome table = check(head + "\\begin{tikzpicture}\\pgfplotstableread{\na b\n1 2\n}\\mytable\n"
                               "\\pgfplotstableread[col sep=comma]{data.csv}{\\other}\n"
                               "\\begin{axis}\\addplot table {\\mytable};\\addplot table {\\other};\\end{axis}"
                               "\\end{tikzpicture}\n\\end{document}\n");
  CHECK_FALSE(undefined(table, "\\mytable"));
  CHECK_FALSE(undefined(table, "\\other"));
  // without pgfplots, \as is TeX's "Undefined control sequence"
  Outcome bare = check("\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n\\begin{tikzpicture}"
                       "\\node[label={\\as}] {};\\end{tikzpicture}\n\\end{document}\n");
  CHECK(undefined(bare, "\\as"));
}

TEST_CASE("compiles: what tikz defines only as a 'You need to say \\usetikzlibrary' error needs the library") {
  std::string head = "\\documentclass{article}\n\\usepackage{tikz}\n";
  auto doc = [&](const std::string& libs, const std::string& body) {
    return check(head + libs + "\\begin{document}\n\\begin{tikzpicture}\n" + body + "\n\\end{tikzpicture}\n\\end{document}\n");
  };
  CHECK(has_check(doc("", "\\coordinate (a) at (1,0);\n\\draw (0,0) -- ($(a)+(1,1)$);"), "library-stub"));
  CHECK(doc("\\usetikzlibrary{calc}\n", "\\coordinate (a) at (1,0);\n\\draw (0,0) -- ($(a)+(1,1)$);").verdict ==
        checks::Verdict::pass);
  CHECK(has_check(doc("", "\\path let \\p1 = (1,0) in (0,0) -- (\\p1);"), "library-stub"));
  CHECK(has_check(doc("", "\\fill[pattern=north east lines] (0,0) rectangle (1,1);"), "library-stub"));
  CHECK(doc("\\usetikzlibrary{patterns.meta}\n", "\\fill[pattern=north east lines] (0,0) rectangle (1,1);").verdict ==
        checks::Verdict::pass);
  CHECK(has_check(doc("", "\\draw[decorate] (0,0) -- (1,0);"), "library-stub"));
  CHECK(doc("\\usetikzlibrary{decorations.pathmorphing}\n", "\\draw[decorate, decoration=zigzag] (0,0) -- (1,0);").verdict ==
        checks::Verdict::pass);
  CHECK(has_check(doc("", "\\graph { a -> b };"), "library-stub"));
  CHECK(has_check(doc("", "\\node[\"label\" above] {A};"), "library-stub"));
  CHECK(doc("\\usetikzlibrary{quotes}\n", "\\node[\"label\" above] {A};").verdict == checks::Verdict::pass);
  // a fragment is judged inside a document that loads what it uses
  CHECK(check("\\begin{tikzpicture}\\draw (0,0) -- ($(1,0)+(1,1)$);\\end{tikzpicture}\n").verdict != checks::Verdict::fail);
}

TEST_CASE("compiles: options anywhere in a statement, styles where they are used") {
  std::string head = "\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n";
  std::string tail = "\\end{document}\n";
  auto pic = [&](const std::string& body) { return check(head + "\\begin{tikzpicture}\n" + body + "\n\\end{tikzpicture}\n" + tail); };
  // options after `at (...)`
  CHECK(has_check(pic("\\node at (0,0) [darw] {A};"), "unknown-key"));
  CHECK(pic("\\node at (0,0) [draw] {A};").verdict == checks::Verdict::pass);
  // a style's keys run where it is used
  CHECK(has_check(pic("\\tikzset{box/.style={darw, thick}}\n\\node[box] {A};"), "unknown-key"));
  CHECK(has_check(check(head + "\\tikzstyle{box}=[darw]\n\\begin{tikzpicture}\\node[box] {A};\\end{tikzpicture}\n" + tail),
                  "unknown-key"));
  // ... and not where it is only defined (TeX never runs it)
  CHECK(pic("\\tikzset{box/.style={darw, thick}}\n\\node[draw] {A};").verdict == checks::Verdict::pass);
  // a style with a parameter, or defined twice, is not read
  CHECK(pic("\\tikzset{box/.style={#1, thick}}\n\\node[box=darw] {A};").verdict != checks::Verdict::fail);
  // every node runs for each node
  CHECK(has_check(pic("\\tikzset{every node/.style={darw}}\n\\node {A};"), "unknown-key"));
  // comments inside an option list are not keys
  CHECK(pic("\\node[draw, % the border\n  thick] {A};").verdict == checks::Verdict::pass);
  CHECK(pic("\\tikzset{box/.style={% The shape, a rectangle\n draw}}\n\\node[box] {A};").verdict == checks::Verdict::pass);
  // `shape=` then one of TikZ's own keys: the invented shape is still the node's shape
  CHECK(has_check(pic("\\node[shape=oval, above] {A};"), "unknown-shape"));
  // coordinates inside `plot coordinates {...}` and after `=` in a let
  CHECK(has_check(pic("\\draw plot coordinates {(0,0) (\\sqrt(3),1)};"), "coordinate-parenthesis"));
  CHECK(pic("\\draw plot coordinates {(0,0) ({sqrt(3)},1)};").verdict == checks::Verdict::pass);
}

TEST_CASE("compiles: a color nothing defines stops xcolor") {
  std::string head = "\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n";
  auto node = [&](const std::string& opts, const std::string& pre = "") {
    return check("\\documentclass{article}\n\\usepackage{tikz}\n" + pre + "\\begin{document}\n\\tikz\\node[" + opts +
                 "] {A};\n\\end{document}\n");
  };
  CHECK(has_check(node("fill=gren"), "unknown-color"));
  CHECK(has_check(node("draw, text=blu"), "unknown-color"));
  CHECK(has_check(node("left color=red, right color=bue"), "unknown-color"));
  CHECK(node("fill=green, draw=none, text=transparent").verdict == checks::Verdict::pass);
  CHECK(node("fill=red!20!white, draw=.").verdict == checks::Verdict::pass);
  CHECK(node("fill=gren", "\\definecolor{gren}{RGB}{0,128,0}\n").verdict == checks::Verdict::pass);
}

TEST_CASE("compiles: a later style of the file may set the shape") {
  std::string text = "\\documentclass{article}\n\\usepackage{tikz}\n\\usetikzlibrary{shapes.geometric}\n\\begin{document}\n"
                     "\\tikzset{my node/.style={trapezium, fill=#1!20}}\n"
                     "\\tikz\\node[shape=box, my node=red] {A};\n\\end{document}\n";
  CHECK(check(text).verdict == checks::Verdict::pass);
}

TEST_CASE("compiles: circuitikz's poles in a to[...] are its keys, not arrow tips of an unloaded library") {
  // pgfcirc.defines.tex: a bipole style begins with the family /tikz/circuitikz, where `o-` is a
  // pole; lualatex compiles this document
  const std::string doc = "\\documentclass{article}\n\\usepackage{circuitikz}\n\\begin{document}\n"
                          "\\begin{tikzpicture}\\draw (0,0) to[L, o-] (2,0) to[R, -o] (4,0);\\end{tikzpicture}\n"
                          "\\end{document}\n";
  Outcome o = check(doc);
  for (const auto& d : o.findings) CHECK_MESSAGE(d.severity != Severity::error, d.message);
  CHECK(o.verdict != checks::Verdict::fail);
  // without circuitikz, `o-` is the arrow tip `o` of the arrows library, which is not loaded
  const std::string plain = "\\documentclass{article}\n\\usepackage{tikz}\n\\begin{document}\n"
                            "\\tikz\\draw[o-] (0,0) -- (2,0);\n\\end{document}\n";
  CHECK(check(plain).verdict == checks::Verdict::fail);
}

TEST_CASE("compiles: a key's answer kept from earlier files holds only for the same loaded units") {
  // The thread's KeyMemo keeps the catalog's answers across files: a file that loads other units
  // must get its own (positioning's `on grid` is a key with the library, unknown without it).
  const std::string with = "\\documentclass{article}\n\\usepackage{tikz}\n\\usetikzlibrary{positioning}\n"
                           "\\begin{document}\n\\tikz\\node[on grid] {a};\n\\end{document}\n";
  const std::string without = "\\documentclass{article}\n\\usepackage{tikz}\n"
                              "\\begin{document}\n\\tikz\\node[on grid] {a};\n\\end{document}\n";
  for (int round = 0; round < 2; ++round) {
    CHECK(check(with).verdict == checks::Verdict::pass);
    CHECK(check(with).verdict == checks::Verdict::pass);
    CHECK(has_check(check(without), "key-of-unloaded-library"));
    CHECK(has_check(check(without), "key-of-unloaded-library"));
  }
}
