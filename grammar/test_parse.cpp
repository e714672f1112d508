// grammar/test_parse.cpp: statements, path operations, spans, syntax errors and recovery.
#include <doctest/doctest.h>

#include <atomic>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "grammar/grammar.hpp"

using namespace tikzlint::grammar;

namespace {

std::string_view at(std::string_view text, Span s) { return text.substr(s.begin, s.end - s.begin); }

// Parses one statement that must be free of errors.
Statement one(std::string_view text) {
  ParseResult r = parse(text);
  CAPTURE(text);
  for (const SyntaxError& e : r.errors) CAPTURE(e.message);
  REQUIRE(r.errors.empty());
  REQUIRE(r.statements.size() == 1);
  return r.statements[0];
}

std::vector<OpKind> kinds(const Statement& s) {
  std::vector<OpKind> out;
  for (const PathOp& op : s.ops) out.push_back(op.kind);
  return out;
}

}  // namespace

TEST_CASE("every path command is a statement") {
  for (const char* cmd : {"draw", "path", "fill", "filldraw", "shade", "shadedraw", "clip", "useasboundingbox"}) {
    std::string text = std::string("\\") + cmd + " (0,0) rectangle (1,1);";
    CHECK(one(text).command == cmd);
  }
  CHECK(one("\\draw;").ops.empty());
}

TEST_CASE("the example statement of the brief, with spans") {
  std::string_view t =
      "\\draw[thick,->] (0,0) -- (1,0) node[midway,below]{$5$ cm} -- ++(0,1) -| (A.north east) "
      ".. controls (1,2) and +(3,4) .. (5,6) -- cycle;";
  Statement s = one(t);
  CHECK(s.command == "draw");
  REQUIRE(s.options);
  CHECK(s.options->raw == "thick,->");
  CHECK(at(t, s.options->span) == "[thick,->]");
  CHECK(at(t, s.span) == t);
  CHECK(kinds(s) == std::vector{OpKind::Move, OpKind::Line, OpKind::NodeOp, OpKind::Line, OpKind::VH,
                                OpKind::Curve, OpKind::Cycle});
  CHECK(at(t, s.ops[0].coords[0].span) == "(0,0)");
  CHECK(s.ops[1].raw == "-- (1,0)");
  const Node& n = *s.ops[2].node;
  CHECK(n.options->raw == "midway,below");
  CHECK(n.text == "$5$ cm");
  CHECK(at(t, n.text_span) == "$5$ cm");
  CHECK(n.has_text);
  CHECK(s.ops[3].coords[0].relative == Coordinate::Relative::PlusPlus);
  CHECK(at(t, s.ops[3].coords[0].span) == "++(0,1)");
  CHECK(s.ops[4].coords[0].anchor == "north east");
  const PathOp& curve = s.ops[5];
  REQUIRE(curve.coords.size() == 3);
  CHECK(curve.coords[1].relative == Coordinate::Relative::Plus);
  CHECK(curve.coords[2].parts == std::vector<std::string>{"5", "6"});
  CHECK(s.ops[6].to_cycle);
  CHECK(s.ops[6].argument == "--");
}

TEST_CASE("connectors: -- |- -| and cycle after each") {
  Statement s = one("\\draw (0,0) |- (1,1) -| (2,0) |- cycle;");
  CHECK(kinds(s) == std::vector{OpKind::Move, OpKind::HV, OpKind::VH, OpKind::Cycle});
  CHECK(s.ops[3].argument == "|-");
  Statement single = one("\\draw (0,0) .. controls (1,1) .. (2,0) .. controls (3,1) and (4,1) .. cycle;");
  CHECK(single.ops[1].coords.size() == 2);
  CHECK(single.ops[2].kind == OpKind::Curve);
  CHECK(single.ops[2].to_cycle);
  CHECK(single.ops[2].coords.size() == 2);
}

TEST_CASE("rectangle, circle, ellipse and arc in old and new syntax") {
  Statement s = one(
      "\\draw (0,0) rectangle (1,1) circle (1cm) circle [radius=2pt] circle[x radius=1,y radius=2] "
      "ellipse (2 and 1) arc (0:90:1) arc (0:90:2 and 1) arc[start angle=0,end angle=90,radius=1] "
      "arc[start angle=10, delta angle=30, x radius=1, y radius=2] circle;");
  CHECK(kinds(s) == std::vector{OpKind::Move, OpKind::Rectangle, OpKind::Circle, OpKind::Circle, OpKind::Circle,
                                OpKind::Ellipse, OpKind::Arc, OpKind::Arc, OpKind::Arc, OpKind::Arc, OpKind::Circle});
  CHECK(s.ops[1].coords[0].parts == std::vector<std::string>{"1", "1"});
  CHECK(s.ops[2].argument == "1cm");
  CHECK_FALSE(s.ops[2].options);
  CHECK(s.ops[3].options->raw == "radius=2pt");
  CHECK(s.ops[4].options->raw == "x radius=1,y radius=2");
  CHECK(s.ops[5].argument == "2 and 1");
  CHECK(s.ops[6].argument == "0:90:1");
  CHECK(s.ops[7].argument == "0:90:2 and 1");
  CHECK(s.ops[8].options->raw == "start angle=0,end angle=90,radius=1");
  CHECK(s.ops[9].options->raw == "start angle=10, delta angle=30, x radius=1, y radius=2");
  CHECK(s.ops[10].argument.empty());
}

TEST_CASE("grid, parabola, sin and cos") {
  Statement s = one("\\draw (0,0) grid (3,3) grid[step=.5] (4,4) parabola[bend at end] bend (1,1) (2,0) "
                    "parabola (3,1) sin (4,1) cos (5,0);");
  CHECK(kinds(s) == std::vector{OpKind::Move, OpKind::Grid, OpKind::Grid, OpKind::Parabola, OpKind::Parabola,
                                OpKind::Sine, OpKind::Cosine});
  CHECK_FALSE(s.ops[1].options);
  CHECK(s.ops[2].options->raw == "step=.5");
  CHECK(s.ops[3].coords.size() == 2);  // bend, target
  CHECK(s.ops[3].options->raw == "bend at end");
  CHECK(s.ops[4].coords.size() == 1);
  CHECK(s.ops[5].coords[0].parts == std::vector<std::string>{"4", "1"});
}

TEST_CASE("to and edge with options and nodes inside") {
  std::string_view t = "\\draw (A) to[out=30,in=150,bend left=10] node[above]{a} (B) "
                       "edge[->] node{b} node[below]{c} (C) to (D) to[loop above] cycle;";
  Statement s = one(t);
  CHECK(kinds(s) == std::vector{OpKind::Move, OpKind::To, OpKind::Edge, OpKind::To, OpKind::To});
  CHECK(s.ops[1].options->raw == "out=30,in=150,bend left=10");
  REQUIRE(s.ops[1].edge_nodes.size() == 1);
  CHECK(s.ops[1].edge_nodes[0].text == "a");
  CHECK(at(t, s.ops[1].edge_nodes[0].span) == "node[above]{a}");
  CHECK(s.ops[1].coords[0].name == "B");
  CHECK(s.ops[2].edge_nodes.size() == 2);
  CHECK(s.ops[2].options->raw == "->");
  CHECK(s.ops[4].to_cycle);
  CHECK(s.ops[4].coords.empty());
}

TEST_CASE("nodes and coordinates between a connector and its target") {
  Statement s = one("\\draw (0,0) -- node[above]{$a$} coordinate (m) (1,0);");
  REQUIRE(s.ops[1].edge_nodes.size() == 2);
  CHECK(s.ops[1].edge_nodes[0].text == "$a$");
  CHECK(s.ops[1].edge_nodes[1].is_coordinate);
  CHECK(s.ops[1].edge_nodes[1].name == "m");
  CHECK(s.ops[1].coords[0].parts == std::vector<std::string>{"1", "0"});
}

TEST_CASE("plot over coordinates, expressions and files") {
  Statement s = one("\\draw plot coordinates {(0,0) (1,1) (2,0)} plot[domain=0:1,samples=20] (\\x,{\\x^2}) "
                    "plot (\\x,{sin(\\x r)}) plot[smooth] file {data.txt} plot function {x**2};");
  REQUIRE(s.ops.size() == 5);
  CHECK(s.ops[0].plot_kind == "coordinates");
  CHECK(s.ops[0].coords.size() == 3);
  CHECK(s.ops[1].plot_kind == "expression");
  CHECK(s.ops[1].options->raw == "domain=0:1,samples=20");
  REQUIRE(s.ops[1].coords.size() == 1);
  CHECK(s.ops[1].coords[0].parts == std::vector<std::string>{"\\x", "{\\x^2}"});
  CHECK(s.ops[2].argument == "\\x,{sin(\\x r)}");
  CHECK(s.ops[3].plot_kind == "file");
  CHECK(s.ops[3].argument == "data.txt");
  CHECK(s.ops[4].plot_kind == "function");
}

TEST_CASE("nodes on a path: options, name and at in any order") {
  std::string_view t = "\\draw (0,0) node {plain} node[right] (n) {named} node at (1,1) {placed} "
                       "node (m) [draw] at (2,2) {late options} coordinate (c) coordinate[label=x] (d) at (3,3);";
  Statement s = one(t);
  CHECK(kinds(s) == std::vector{OpKind::Move, OpKind::NodeOp, OpKind::NodeOp, OpKind::NodeOp, OpKind::NodeOp,
                                OpKind::CoordinateOp, OpKind::CoordinateOp});
  CHECK_FALSE(s.ops[1].node->options);
  CHECK(s.ops[1].node->text == "plain");
  CHECK(s.ops[2].node->name == "n");
  CHECK(s.ops[3].node->at->parts == std::vector<std::string>{"1", "1"});
  CHECK(s.ops[4].node->options->raw == "draw");
  CHECK(s.ops[4].node->name == "m");
  CHECK(s.ops[5].node->is_coordinate);
  CHECK_FALSE(s.ops[5].node->has_text);
  CHECK(s.ops[6].node->options->raw == "label=x");
  CHECK(s.ops[6].node->at.has_value());
}

TEST_CASE("\\node, \\coordinate, \\pic and \\matrix statements") {
  std::string_view t = "\\node[draw,circle] (a) at (1,2) {x};";
  Statement n = one(t);
  CHECK(n.command == "node");
  CHECK_FALSE(n.options);
  REQUIRE(n.ops.size() == 1);
  CHECK(n.ops[0].kind == OpKind::NodeOp);
  CHECK(n.ops[0].node->options->raw == "draw,circle");
  CHECK(n.ops[0].node->name == "a");
  CHECK(n.ops[0].node->text == "x");
  CHECK(at(t, n.ops[0].span) == "[draw,circle] (a) at (1,2) {x}");

  Statement late = one("\\node (n) [above] {t};");
  CHECK(late.ops[0].node->options->raw == "above");
  Statement two = one("\\node[a] (n) [b] {t};");
  CHECK(two.ops[0].node->options->raw == "a,b");

  Statement c = one("\\coordinate (A) at (1,2);");
  CHECK(c.command == "coordinate");
  CHECK(c.ops[0].kind == OpKind::CoordinateOp);
  CHECK(c.ops[0].node->name == "A");
  Statement lc = one("\\coordinate[label=above:$A$] (A) at (1,2);");
  CHECK(lc.ops[0].node->options->raw == "label=above:$A$");

  Statement p = one("\\pic[draw, \"$\\alpha$\", angle radius=4mm] (ang) {angle = A--B--C};");
  CHECK(p.command == "pic");
  CHECK(p.ops[0].kind == OpKind::PicOp);
  CHECK(p.ops[0].node->text == "angle = A--B--C");
  CHECK(p.ops[0].node->name == "ang");
  Statement ra = one("\\draw pic {right angle = A--B--C};");
  CHECK(ra.ops[0].kind == OpKind::PicOp);
  CHECK(ra.ops[0].node->text == "right angle = A--B--C");

  Statement m = one("\\matrix[matrix of nodes] (m) {a & b \\\\ c & d \\\\};");
  CHECK(m.command == "matrix");

  Statement more = one("\\node at (0,0) {A} node at (1,0) {B};");
  CHECK(more.ops.size() == 2);
}

TEST_CASE("let operations bind points and numbers") {
  Statement s = one("\\path let \\p1 = (A), \\p2 = ($(B)-(A)$), \\n1 = {veclen(\\x2,\\y2)} in (\\p1) circle (\\n1);");
  REQUIRE(s.ops[0].kind == OpKind::Let);
  REQUIRE(s.ops[0].let_bindings.size() == 3);
  CHECK(s.ops[0].let_bindings[0].reg == "\\p1");
  CHECK(s.ops[0].let_bindings[0].point->name == "A");
  CHECK(s.ops[0].let_bindings[1].point->form == Coordinate::Form::Calc);
  CHECK(s.ops[0].let_bindings[2].reg == "\\n1");
  CHECK(s.ops[0].let_bindings[2].value == "veclen(\\x2,\\y2)");
  CHECK(s.ops[1].coords[0].form == Coordinate::Form::Raw);
  CHECK(s.ops[2].argument == "\\n1");
}

TEST_CASE("option lists anywhere in a path") {
  Statement s = one("\\draw[thick] [red] (0,0) [dashed] -- (1,0) [->];");
  CHECK(s.options->raw == "thick");
  CHECK(kinds(s) == std::vector{OpKind::Options, OpKind::Move, OpKind::Options, OpKind::Line, OpKind::Options});
  CHECK(s.ops[2].options->raw == "dashed");
  Statement nested = one("\\draw[label={[red]above:{a]b}}, shift={(1,0)}] (0,0);");
  CHECK(nested.options->raw == "label={[red]above:{a]b}}, shift={(1,0)}");
}

TEST_CASE("braces, semicolons and dashes inside groups do not end anything") {
  Statement s = one("\\draw (0,0) node {a; b -- {c}} -- (1,0) node[label={x;y}] {$\\{ a \\}$};");
  CHECK(s.ops[1].node->text == "a; b -- {c}");
  CHECK(s.ops[3].node->text == "$\\{ a \\}$");
}

TEST_CASE("unknown operations keep their span") {
  std::string_view t = "\\draw (0,0) decorate[decoration=zigzag] {-- (1,1)} svg {M 0 0} \\pgfextra{\\x=1} -- (1,0);";
  Statement s = one(t);
  CHECK(kinds(s) == std::vector{OpKind::Move, OpKind::Unknown, OpKind::Unknown, OpKind::Unknown, OpKind::Line});
  CHECK(at(t, s.ops[1].span) == "decorate[decoration=zigzag] {-- (1,1)}");
  CHECK(s.ops[3].raw == "\\pgfextra{\\x=1}");
}

TEST_CASE("several statements in one text, comments skipped") {
  std::string_view t = "\\draw (0,0) -- (1,0); % a comment; with semicolons\n\\node at (1,1) {n};\n \\fill (2,2) circle (1pt);";
  ParseResult r = parse(t);
  CHECK(r.errors.empty());
  REQUIRE(r.statements.size() == 3);
  CHECK(r.statements[1].command == "node");
  CHECK(at(t, r.statements[1].span) == "\\node at (1,1) {n};");
  CHECK(at(t, r.statements[2].ops[1].span) == "circle (1pt)");
}

TEST_CASE("a syntax error drops its statement and parsing resumes after the semicolon") {
  std::string_view t = "\\draw (0,0) -- (1,1); \\draw (0,0) -- ; \\draw (2,2) -- (3,3);";
  ParseResult r = parse(t);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message == "expected a coordinate or 'cycle' after '--', found ';'");
  CHECK(at(t, r.errors[0].span) == ";");
  REQUIRE(r.statements.size() == 2);
  CHECK(r.statements[1].ops[0].coords[0].parts[0] == "2");
}

TEST_CASE("syntax error messages name what was expected") {
  auto first_error = [](std::string_view text) {
    ParseResult r = parse(text);
    REQUIRE(r.errors.size() == 1);
    return r.errors[0];
  };
  CHECK(first_error("\\draw (0,0) -- (1,1)").message == "missing ';' at the end of the statement");
  CHECK(first_error("\\node at (0,0);").message == "expected the node text in braces before ';'");
  CHECK(first_error("\\draw (0,0) .. controls ;").message ==
        "expected a control point after 'controls', found ';'");
  CHECK(first_error("\\draw (0,0) -- +;").message == "expected a coordinate in parentheses after '+', found ';'");
  CHECK(first_error("\\coordinate (A) at;").message == "expected a coordinate after 'at', found ';'");
  CHECK(first_error("\\draw (0,0) -| plot coordinates {(1,1)};").message ==
        "expected a coordinate or 'cycle' after '-|', found 'plot'");
  CHECK(first_error("\\draw (0,0) rectangle;").message == "expected a coordinate after 'rectangle', found ';'");
  CHECK(first_error("\\foo (0,0);").message == "expected a path command such as \\draw, found '\\foo'");
  std::string_view open = "\\draw (0,0 -- (1,1);";
  SyntaxError e = first_error(open);
  CHECK(e.message == "unbalanced '('");
  CHECK(e.span.begin == 6);
  CHECK(first_error("\\draw (0,0) } -- (1,1);").message == "unbalanced '}'");
  // Messages are lowercase, with no final period.
  CHECK(first_error("\\draw (0,0) and (1,1);").message.back() != '.');
}

TEST_CASE("an unclosed brace swallows the rest but still gives one located error") {
  std::string_view t = "\\draw {(0,0) -- (1,1); \\draw (0,0) -- (1,0);";
  ParseResult r = parse(t);
  REQUIRE(r.errors.size() == 1);
  CHECK(r.errors[0].message == "unbalanced '{'");
  CHECK(r.errors[0].span.begin == 6);
}

TEST_CASE("hostile input never throws and ends in errors") {
  std::string junk;
  for (int i = 0; i < 4096; ++i) junk += static_cast<char>((i * 7919 + 13) % 256);
  ParseResult r = parse(junk);
  CHECK_FALSE(r.errors.empty());
  for (const SyntaxError& e : r.errors) {
    CHECK(e.span.end <= junk.size());
    for (char c : e.message) CHECK(static_cast<unsigned char>(c) < 0x80);
  }

  std::string deep = "\\draw (0,0) node {" + std::string(10000, '{') + std::string(10000, '}') + "};";
  ParseResult d = parse(deep);
  REQUIRE(d.errors.size() == 1);
  CHECK(d.errors[0].message == "groups nested deeper than 256 levels");
  CHECK(d.statements.empty());

  std::string parens = "\\draw " + std::string(10000, '(') + ";";
  CHECK_FALSE(parse(parens).errors.empty());
  std::string bars = "\\draw (" + std::string(20000, '|') + std::string(1, '-') + "A);";
  CHECK_NOTHROW(parse(bars));
  std::string dashes;
  for (int i = 0; i < 5000; ++i) dashes += "A |- ";
  CHECK(parse("\\draw (" + dashes + "B);").errors.empty());

  CHECK(parse("").statements.empty());
  CHECK(parse(";;; ;").errors.empty());
  CHECK_FALSE(parse(std::string_view("\\draw\0 (0,0);", 13)).errors.empty());
  CHECK_FALSE(parse("\\draw (0,0) node[").errors.empty());
  CHECK_FALSE(parse("\\").errors.empty());
}

TEST_CASE("pgfmanual corner cases: nodes before controls, pics on a to, -- plot, parabola cycle") {
  Statement c = one("\\draw (0,0) .. coordinate (bc) controls +(up:1cm) and +(left:1cm) .. (3,1);");
  REQUIRE(c.ops[1].kind == OpKind::Curve);
  REQUIRE(c.ops[1].edge_nodes.size() == 1);
  CHECK(c.ops[1].edge_nodes[0].name == "bc");
  CHECK(c.ops[1].coords[0].form == Coordinate::Form::Polar);

  Statement p = one("\\draw (0,0) to [bend left] pic [near start] {seagull} pic {seagull} (4,0);");
  REQUIRE(p.ops[1].edge_nodes.size() == 2);
  CHECK(p.ops[1].edge_nodes[0].is_pic);
  CHECK(p.ops[1].edge_nodes[1].text == "seagull");

  Statement lp = one("\\draw (0,0) -- (1,1) -- plot coordinates {(2,0) (4,0)} plot coordinates {(5,5)};");
  REQUIRE(lp.ops.size() == 4);
  CHECK(lp.ops[2].kind == OpKind::Plot);
  CHECK(lp.ops[2].plot_connected);
  CHECK(lp.ops[2].coords.size() == 2);
  CHECK_FALSE(lp.ops[3].plot_connected);

  Statement pc = one("\\draw (1,1.5) -- (0,0) parabola cycle;");
  CHECK(pc.ops[2].kind == OpKind::Parabola);
  CHECK(pc.ops[2].to_cycle);
}

TEST_CASE("animations are kept as unsupported spans") {
  std::string_view t = "\\node :fill opacity = { 0s=\"1\", 2s=\"0\", begin on=click } [fill=blue] {Click};";
  Statement n = one(t);
  REQUIRE(n.ops[0].node->unsupported.size() == 1);
  CHECK(at(t, n.ops[0].node->unsupported[0]).substr(0, 14) == ":fill opacity ");
  CHECK(n.ops[0].node->options->raw == "fill=blue");
  Statement d = one("\\draw :xshift = {0s = \"0cm\", 30s = \"-3cm\", repeats} (0,0) circle (5mm);");
  CHECK(d.ops[0].kind == OpKind::Unknown);
  CHECK(d.ops[1].kind == OpKind::Move);
}

TEST_CASE("foreach left over by the expander stays visible") {
  std::string_view t = "\\draw (0,0) node foreach \\x in {1,2,3} [pos=\\x] {\\x} -- (1,1);";
  Statement s = one(t);
  REQUIRE(s.ops[1].kind == OpKind::NodeOp);
  REQUIRE(s.ops[1].node->unsupported.size() == 1);
  CHECK(at(t, s.ops[1].node->unsupported[0]) == "foreach \\x in {1,2,3}");
  CHECK(s.ops[1].node->options->raw == "pos=\\x");
  Statement p = one("\\path foreach \\x/\\y [count=\\i] in {1/2, 3/4} {(\\x,\\y) circle (1pt)} (5,5);");
  CHECK(kinds(p) == std::vector{OpKind::Unknown, OpKind::Move});
}

TEST_CASE("random statements never throw and keep every span inside the text") {
  const char* pieces[] = {"\\draw", "\\node", "\\coordinate", "\\pic", " ", "(0,0)", "(A.north)", "+", "++",
                          "--", "|-", "-|", "..", "controls", "and", "cycle", "node", "{x}", "[red]", "at",
                          "circle", "arc", "(0:90:1)", "to", "edge", "plot", "coordinates", "let", "\\p1",
                          "=", ",", "in", ";", "{", "}", "(", ")", "[", "]", "$", "%", "\n", "\\", ":", "foreach",
                          "($(A)!.5!(B)$)", "(A |- B)", "grid", "parabola", "bend", "sin", "\xff", "rectangle"};
  std::uint32_t state = 42;
  auto next = [&state] {
    state = state * 1664525u + 1013904223u;
    return state >> 8;
  };
  auto inside = [](Span s, std::size_t size) { return s.begin <= s.end && s.end <= size; };
  for (int i = 0; i < 3000; ++i) {
    std::string text;
    for (std::uint32_t n = next() % 24; n > 0; --n) text += pieces[next() % std::size(pieces)];
    CAPTURE(text);
    ParseResult r;
    REQUIRE_NOTHROW(r = parse(text));
    for (const SyntaxError& e : r.errors) {
      CHECK(inside(e.span, text.size()));
      CHECK_FALSE(e.message.empty());
    }
    for (const Statement& s : r.statements) {
      CHECK(inside(s.span, text.size()));
      for (const PathOp& op : s.ops) {
        CHECK(inside(op.span, text.size()));
        for (const Coordinate& c : op.coords) CHECK(inside(c.span, text.size()));
      }
    }
  }
}

TEST_CASE("parse is safe to call from several threads at once") {
  std::string_view t = "\\draw[thick] (0,0) -- (1,0) node[midway]{a} .. controls (1,1) .. (2,2) -- cycle;";
  std::atomic<int> good{0};
  std::vector<std::thread> threads;
  for (int k = 0; k < 4; ++k) {
    threads.emplace_back([&] {
      for (int i = 0; i < 500; ++i) {
        ParseResult r = parse(t);
        if (r.errors.empty() && r.statements.size() == 1 && r.statements[0].ops.size() == 5) ++good;
      }
    });
  }
  for (auto& th : threads) th.join();
  CHECK(good == 2000);
}

TEST_CASE("circle with options takes no (radius) after them: the parenthesis is the next point") {
  // tikz.code.tex \tikz@circle@opt scans the next command, not a radius
  const std::string text = "\\fill (0,0) circle [radius=2pt] (1,1) circle (3pt);";
  Statement s = one(text);
  CHECK(kinds(s) == std::vector<OpKind>{OpKind::Move, OpKind::Circle, OpKind::Move, OpKind::Circle});
  CHECK(s.ops[1].argument.empty());
  CHECK(at(text, s.ops[2].span) == "(1,1)");
  CHECK(s.ops[2].coords.at(0).parts == std::vector<std::string>{"1", "1"});
  CHECK(s.ops[3].argument == "3pt");
}

// tikz.code.tex: `node contents=` and `pic type=` complete the node or pic at the end of their
// option list, so no `{text}` follows (checked against lualatex: these compile; `\node[node
// contents=x] at (0,0);` does not, TikZ reads `at` as the start of `arc`).
TEST_CASE("node contents and pic type end the node or pic without a text group") {
  for (ParserChoice choice : {ParserChoice::fast_then_antlr, ParserChoice::antlr}) {
    ParseResult r = parse("\\path (0,3) node[draw, node contents = {a, b}] -- (1,1);", choice);
    REQUIRE(r.errors.empty());
    REQUIRE(r.statements.size() == 1);
    const Statement& st = r.statements[0];
    REQUIRE(st.ops.size() == 3);
    REQUIRE(st.ops[1].node.has_value());
    CHECK(st.ops[1].node->has_text);
    CHECK(st.ops[1].node->text == "a, b");
    CHECK(st.ops[2].kind == OpKind::Line);

    r = parse("\\pic at (2,0) [pic type=box];", choice);
    REQUIRE(r.errors.empty());
    REQUIRE(r.statements.size() == 1);
    REQUIRE(!r.statements[0].ops.empty());
    REQUIRE(r.statements[0].ops[0].node.has_value());
    CHECK(r.statements[0].ops[0].node->text == "box");
    CHECK(r.statements[0].ops[0].node->at.has_value());

    // a pic with options and no {name}: a style among them sets pic type (tqft, penrose)
    r = parse("\\pic[tqft/pair of pants, name=a];", choice);
    REQUIRE(r.errors.empty());
    REQUIRE(r.statements.size() == 1);
    REQUIRE(r.statements[0].ops[0].node.has_value());
    CHECK(r.statements[0].ops[0].node->text.empty());
    r = parse("\\path (0,0) pic[kite] -- (1,1);", choice);
    REQUIRE(r.errors.empty());
    CHECK(r.statements[0].ops.back().kind == OpKind::Line);
    r = parse("\\pic at (0,0);", choice);
    CHECK(r.errors.size() == 1);

    r = parse("\\node[node contents=x] at (0,0);", choice);
    CHECK(r.errors.size() == 1);
    r = parse("\\node[draw] at (0,0);", choice);
    REQUIRE(r.errors.size() == 1);
    CHECK(r.errors[0].message == "expected the node text in braces before ';'");
  }
}
