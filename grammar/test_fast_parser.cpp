// grammar/test_fast_parser.cpp: the hand-written twin of TikZ.g4's parser gives what ANTLR gives,
// tree for tree and error for error, on generated statements and on the dev-style ones.
#include <doctest/doctest.h>

#include <cstdlib>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "grammar/grammar.hpp"

using namespace tikzlint::grammar;

namespace {

void show(std::ostream& o, Span s) { o << '[' << s.begin << ',' << s.end << ']'; }
void show(std::ostream& o, const std::optional<Options>& opt) {
  if (!opt) {
    o << "-";
    return;
  }
  o << "opt{" << opt->raw << '}';
  show(o, opt->span);
}
void show(std::ostream& o, const Coordinate& c) {
  o << "coord(" << static_cast<int>(c.form) << ',' << static_cast<int>(c.relative) << ",raw=" << c.raw << ",parts=";
  for (const auto& p : c.parts) o << p << '|';
  o << ",name=" << c.name << ",anchor=" << c.anchor << ",hv=" << c.hv << ",sub=";
  for (const auto& s : c.sub) show(o, s);
  o << ",opts=";
  show(o, c.options);
  show(o, c.span);
  o << ')';
}
void show(std::ostream& o, const Node& n) {
  o << "node(";
  show(o, n.options);
  o << ",name=" << n.name << ",at=";
  if (n.at) show(o, *n.at);
  o << ",text=" << n.text;
  show(o, n.text_span);
  o << n.has_text << n.is_coordinate << n.is_pic;
  show(o, n.span);
  for (const auto& u : n.unsupported) show(o, u);
  o << ')';
}
std::string show(const ParseResult& r) {
  std::ostringstream o;
  for (const Statement& st : r.statements) {
    o << "stmt " << st.command << ' ';
    show(o, st.options);
    show(o, st.span);
    for (const PathOp& op : st.ops) {
      o << "\n  op " << static_cast<int>(op.kind) << ' ';
      show(o, op.span);
      for (const auto& c : op.coords) show(o, c);
      show(o, op.options);
      o << " arg=" << op.argument << " raw=" << op.raw << " cycle=" << op.to_cycle << " plot=" << op.plot_kind
        << op.plot_connected << ' ';
      if (op.node) show(o, *op.node);
      for (const auto& n : op.edge_nodes) show(o, n);
      for (const auto& lb : op.let_bindings) {
        o << " let " << lb.reg << '=' << lb.value;
        if (lb.point) show(o, *lb.point);
        show(o, lb.span);
      }
    }
    o << '\n';
  }
  for (const SyntaxError& e : r.errors) {
    o << "error " << e.message;
    show(o, e.span);
    o << '\n';
  }
  return o.str();
}

void agree(const std::string& text) {
  ParseResult slow = parse(text, ParserChoice::antlr);
  ParseResult fast = parse(text, ParserChoice::fast_then_antlr);
  CAPTURE(text);
  CHECK(show(fast) == show(slow));
}

}  // namespace

TEST_CASE("the fast parser and ANTLR agree on written statements") {
  for (const char* text : {
           "\\draw (0,0) -- (1,0) -- (1,1) -- cycle;",
           "\\draw[thick, ->] (0,0) to[bend left] node[above] {a} (2,0);",
           "\\node[draw, circle] (a) at (0,0) {$x$};",
           "\\coordinate (A) at (1,2);",
           "\\coordinate[label=above:$A$] (A) at ([shift={(1,0)}] B.north);",
           "\\draw (0,0) circle (1cm) (2,0) ellipse (1 and 2) arc (0:90:1);",
           "\\draw (0,0) .. controls (1,1) and (2,1) .. (3,0) .. controls +(1,1) .. cycle;",
           "\\draw (0,0) rectangle ++(2,1) grid[step=0.5] (3,3);",
           "\\draw (0,0) parabola bend (1,1) (2,0) sin (3,1) cos (4,0);",
           "\\draw plot[smooth] coordinates {(0,0) (1,1) (2,0)} -- plot (\\x,{sin(\\x)});",
           "\\draw let \\p1 = (A), \\n1 = {veclen(\\x1,\\y1)} in (0,0) circle (\\n1);",
           "\\draw (0,0) -- node[midway] {x} coordinate (m) (1,0) -| (2,2) |- cycle;",
           "\\pic[draw] {angle = A--B--C};",
           "\\draw (a) edge[->] (b) edge node {x} (c);",
           "\\draw (0,0) -- coordinate (1,0);",
           "\\draw (0,0) decorate[decoration=zigzag] {-- (1,0)};",
           "\\path (0,0) node foreach \\x in {1,2} {\\x};",
           "\\node :fill = {0s=\"red\"} {a};",
           "\\draw (0,0) -- ;",
           "\\draw (0,0) -- (1,0)",
           "\\node at (0,0) ;",
           "\\draw (0,0) -- |- plot (1,1);",
           "\\draw (0,0) |- plot coordinates {(1,1)};",
           "\\fill[red] (0,0) -- (1,0) -- (0,1) -- cycle; \\draw (0,0) circle[radius=2];",
           "\\draw (0,0) to (1,0) to cycle;",
           "\\matrix[matrix of nodes] {a \\\\ b \\\\};",
       })
    agree(text);
}

TEST_CASE("the fast parser and ANTLR agree on generated token soup") {
  // Statements of random tokens of TikZ.g4, biased towards well-formed ones, so that both
  // accepted trees (greedy choices, empty rules, nested rules) and every kind of error occur.
  const std::vector<std::string> words = {
      "--", "|-", "-|", "..", "+", "++", "(1,2)", "(A)", "(a.north)", "($(A)!.5!(B)$)", "(1cm)", "(0:90:1)",
      "[red]", "[bend left=10]", "{x}", "{}", "cycle", "controls", "and", "rectangle", "circle", "ellipse",
      "arc", "grid", "parabola", "bend", "sin", "cos", "to", "edge", "plot", "coordinates", "file",
      "function", "node", "coordinate", "pic", "at", "let", "foreach", "in", "\\p1", "\\x", "=", ",",
      ":", "word", "3.5", ";", "}", "(", "[", "$", "!", "\\pgfextra", "%c\n"};
  const std::vector<std::string> commands = {"\\draw", "\\path", "\\node", "\\coordinate", "\\pic", "\\fill", "node", ""};
  // TIKZLINT_SOUP_ROUNDS / TIKZLINT_SOUP_SEED run longer or other soups by hand.
  const char* rounds_env = std::getenv("TIKZLINT_SOUP_ROUNDS");
  const char* seed_env = std::getenv("TIKZLINT_SOUP_SEED");
  const int rounds = rounds_env ? std::atoi(rounds_env) : 20000;
  std::mt19937 rng(seed_env ? static_cast<unsigned>(std::atoi(seed_env)) : 42u);
  std::size_t accepted = 0;
  for (int round = 0; round < rounds; ++round) {
    std::string text = commands[rng() % commands.size()];
    int n = static_cast<int>(rng() % 9);
    for (int i = 0; i < n; ++i) {
      // Every third statement follows a simple path pattern, the rest are soup.
      const std::string& w = round % 3 == 0 && i % 2 == 0 ? words[rng() % 2] : words[rng() % words.size()];
      text += ' ';
      text += w;
    }
    if (rng() % 8 != 0) text += ";";
    ParseResult slow = parse(text, ParserChoice::antlr);
    accepted += slow.errors.empty() && !slow.statements.empty();
    ParseResult fast = parse(text, ParserChoice::fast_then_antlr);
    CAPTURE(text);
    REQUIRE(show(fast) == show(slow));
  }
  CHECK(accepted > static_cast<std::size_t>(rounds) / 20);
}
