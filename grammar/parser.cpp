// grammar/parser.cpp: grammar::parse. Splits the text into statements at top-level ';', runs
// the ANTLR parser (TikZ.g4) on each, and turns the parse tree into the AST of grammar.hpp.
// A statement with a syntax error is dropped with one located error; parsing continues after
// its ';' (TikZ itself stops at the first error; a linter wants to see the rest).
#include <exception>
#include <memory>
#include <string>
#include <string_view>

#include "TikZLexer.h"
#include "TikZParser.h"
#include "antlr4-runtime.h"
#include "grammar/grammar.hpp"

namespace tikzlint::grammar {
namespace {

using tikzgen::TikZLexer;
using tikzgen::TikZParser;

// The lexer reads bytes as code points 0..255, so token indices are byte offsets and invalid
// UTF-8 cannot upset the runtime's UTF-8 decoder.
class ByteStream : public antlr4::ANTLRInputStream {
 public:
  void assign(std::string_view bytes) {
    _data.clear();
    _data.reserve(bytes.size());
    for (unsigned char c : bytes) _data.push_back(static_cast<char32_t>(c));
    reset();
  }
};

// One statement's extent in the text, from the splitter.
struct Piece {
  std::uint32_t begin = 0, end = 0;  // end is one past the ';' (or the end of the text)
  std::size_t max_depth = 0;         // deepest nesting of { [ ( inside
};

bool only_blank(std::string_view s) {
  bool comment = false;
  for (char c : s) {
    if (comment) {
      if (c == '\n' || c == '\r') comment = false;
    } else if (c == '%') {
      comment = true;
    } else if (c != ' ' && c != '\t' && c != '\n' && c != '\r' && c != '\f') {
      return false;
    }
  }
  return true;
}

// Statements end at a ';' outside braces (TeX groups); comments and control symbols (`\;`,
// `\{`) are skipped. Bracket and paren depth only feed the nesting bound.
std::vector<Piece> split_statements(std::string_view text) {
  std::vector<Piece> pieces;
  Piece cur;
  std::size_t braces = 0, groups = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (c == '\\') {
      ++i;
    } else if (c == '%') {
      while (i + 1 < text.size() && text[i + 1] != '\n' && text[i + 1] != '\r') ++i;
    } else if (c == '{' || c == '[' || c == '(') {
      if (c == '{') ++braces;
      cur.max_depth = std::max(cur.max_depth, ++groups);
    } else if (c == '}' || c == ']' || c == ')') {
      if (c == '}' && braces > 0) --braces;
      if (groups > 0) --groups;
    } else if (c == ';' && braces == 0) {
      cur.end = static_cast<std::uint32_t>(i + 1);
      pieces.push_back(cur);
      cur = Piece{};
      cur.begin = static_cast<std::uint32_t>(i + 1);
      groups = 0;
    }
  }
  cur.end = static_cast<std::uint32_t>(text.size());
  if (cur.begin < cur.end) pieces.push_back(cur);
  return pieces;
}

std::string quoted(std::string_view s) {
  constexpr std::size_t kMax = 24;
  std::string out = "'";
  for (char c : s.substr(0, kMax)) {
    unsigned char u = static_cast<unsigned char>(c);
    out += (u < 0x20 || u == 0x7f) ? '?' : c;
  }
  if (s.size() > kMax) out += "...";
  return out + "'";
}

// Turns ANTLR's first complaint about a statement into a message a TikZ author understands.
class ErrorCollector : public antlr4::BaseErrorListener {
 public:
  std::string_view text;  // the statement piece
  std::uint32_t base = 0;
  antlr4::TokenStream* tokens = nullptr;
  std::optional<SyntaxError> first;

  void syntaxError(antlr4::Recognizer*, antlr4::Token* offending, std::size_t, std::size_t,
                   const std::string&, std::exception_ptr) override {
    if (first || offending == nullptr) return;
    first = describe(offending);
  }

 private:
  std::string_view token_text(antlr4::Token* t) const {
    if (t->getType() == antlr4::Token::EOF || t->getStartIndex() >= text.size()) return {};
    std::size_t b = t->getStartIndex(), e = std::min(t->getStopIndex() + 1, text.size());
    return b < e ? text.substr(b, e - b) : std::string_view{};
  }

  SyntaxError describe(antlr4::Token* tok) const {
    SyntaxError err;
    bool at_eof = tok->getType() == antlr4::Token::EOF;
    std::uint32_t b = at_eof ? static_cast<std::uint32_t>(text.size())
                             : static_cast<std::uint32_t>(tok->getStartIndex());
    std::uint32_t e = at_eof ? b : static_cast<std::uint32_t>(tok->getStopIndex() + 1);
    err.span = {base + b, base + e};
    std::string_view found = token_text(tok);
    std::string what = at_eof ? std::string("the end of the statement")
                       : tok->getType() == TikZLexer::SEMI ? std::string("';'")
                                                           : quoted(found);

    antlr4::Token* prev = nullptr;
    std::size_t index = tok->getTokenIndex();
    if (tokens != nullptr && index != static_cast<std::size_t>(-1) && index > 0)
      prev = tokens->get(index - 1);
    std::size_t prev_type = prev ? prev->getType() : antlr4::Token::INVALID_TYPE;
    std::string prev_text = prev ? std::string(token_text(prev)) : std::string();

    if (tok->getType() == TikZLexer::STRAY) {
      err.message = "unbalanced " + quoted(found);
    } else if (prev == nullptr) {
      err.message = "expected a path command such as \\draw, found " + what;
    } else if (at_eof) {
      err.message = "missing ';' at the end of the statement";
    } else {
      switch (prev_type) {
        case TikZLexer::LINE:
        case TikZLexer::HV:
        case TikZLexer::VH:
          err.message = "expected a coordinate or 'cycle' after '" + prev_text + "', found " + what;
          break;
        case TikZLexer::CONTROLS:
          err.message = "expected a control point after 'controls', found " + what;
          break;
        case TikZLexer::DOTS:
          err.message = "expected 'controls' or a coordinate after '..', found " + what;
          break;
        case TikZLexer::PLUS:
        case TikZLexer::PLUSPLUS:
          err.message = "expected a coordinate in parentheses after '" + prev_text + "', found " + what;
          break;
        case TikZLexer::AT:
          err.message = "expected a coordinate after 'at', found " + what;
          break;
        case TikZLexer::TO:
        case TikZLexer::EDGE:
        case TikZLexer::RECTANGLE:
        case TikZLexer::GRID:
        case TikZLexer::SIN:
        case TikZLexer::COS:
        case TikZLexer::PARABOLA:
        case TikZLexer::BEND:
          err.message = "expected a coordinate after '" + prev_text + "', found " + what;
          break;
        case TikZLexer::PLOT:
          err.message = "expected 'coordinates', 'file' or a coordinate expression after 'plot', found " + what;
          break;
        case TikZLexer::LET:
          err.message = "expected a register such as \\p1 after 'let', found " + what;
          break;
        default:
          err.message = "unexpected " + what;
          break;
      }
    }
    // Inside a node, the usual mistake is a missing text group.
    if (tok->getType() == TikZLexer::SEMI && prev != nullptr &&
        (prev_type == TikZLexer::NODE || prev_type == TikZLexer::NODE_CMD ||
         prev_type == TikZLexer::OPTIONS || prev_type == TikZLexer::PAREN)) {
      // Only when a node spec was open: the parser's current rule tells.
      if (in_node_spec) err.message = "expected the node text in braces before ';'";
    }
    return err;
  }

 public:
  bool in_node_spec = false;
};

class ErrorCollectorHook : public antlr4::BaseErrorListener {
 public:
  ErrorCollector* target = nullptr;
  void syntaxError(antlr4::Recognizer* r, antlr4::Token* t, std::size_t line, std::size_t col,
                   const std::string& msg, std::exception_ptr e) override {
    if (target->first) return;
    auto* parser = dynamic_cast<antlr4::Parser*>(r);
    if (parser != nullptr && parser->getContext() != nullptr) {
      std::size_t rule = parser->getContext()->getRuleIndex();
      target->in_node_spec =
          rule == TikZParser::RuleNodeSpec || rule == TikZParser::RuleNodeAttr;
    }
    target->syntaxError(r, t, line, col, msg, e);
  }
};

// Per-thread ANTLR objects: building a lexer and parser costs far more than one statement.
struct Engine {
  ByteStream input;
  TikZLexer lexer{&input};
  antlr4::CommonTokenStream tokens{&lexer};
  TikZParser parser{&tokens};
  std::shared_ptr<antlr4::BailErrorStrategy> bail = std::make_shared<antlr4::BailErrorStrategy>();
  std::shared_ptr<antlr4::DefaultErrorStrategy> recover =
      std::make_shared<antlr4::DefaultErrorStrategy>();
  ErrorCollector errors;
  ErrorCollectorHook hook;

  Engine() {
    lexer.removeErrorListeners();
    parser.removeErrorListeners();
    hook.target = &errors;
  }
};

// Converts one statement's parse tree; offsets become statement-text offsets via `base`.
class TreeReader {
 public:
  TreeReader(std::string_view text, std::uint32_t base) : text_(text), base_(base) {}

  Statement statement(TikZParser::StatementContext* ctx) {
    Statement st;
    // The stop token is EOF; the statement ends with its ';'.
    auto* term = dynamic_cast<TikZParser::TerminatorContext*>(ctx->children.back());
    st.span = span(ctx->getStart(), term != nullptr ? term->SEMI()->getSymbol() : ctx->getStart());
    if (auto* p = dynamic_cast<TikZParser::PathStatementContext*>(ctx)) {
      st.command = command_name(p->PATH_CMD());
      if (p->OPTIONS()) st.options = options(p->OPTIONS());
      elements(st, p->element());
    } else if (auto* n = dynamic_cast<TikZParser::NodeStatementContext*>(ctx)) {
      st.command = command_name(n->NODE_CMD());
      st.ops.push_back(node_op(OpKind::NodeOp, n->nodeSpec(), n->nodeSpec()));
      elements(st, n->element());
    } else if (auto* c = dynamic_cast<TikZParser::CoordinateStatementContext*>(ctx)) {
      st.command = "coordinate";
      st.ops.push_back(coordinate_op(c->coordSpec(), c->coordSpec()));
      elements(st, c->element());
    } else if (auto* pic = dynamic_cast<TikZParser::PicStatementContext*>(ctx)) {
      st.command = "pic";
      st.ops.push_back(node_op(OpKind::PicOp, pic->nodeSpec(), pic->nodeSpec()));
      elements(st, pic->element());
    }
    return st;
  }

 private:
  std::string_view text_;  // the whole text given to parse()
  std::uint32_t base_;     // where this statement's piece starts in text_

  Span span(antlr4::Token* a, antlr4::Token* b) const {
    std::uint32_t begin = base_ + static_cast<std::uint32_t>(a->getStartIndex());
    std::uint32_t end = begin;
    if (b != nullptr && b->getType() != antlr4::Token::EOF && b->getStopIndex() + 1 >= a->getStartIndex())
      end = base_ + static_cast<std::uint32_t>(b->getStopIndex() + 1);
    return {begin, end};
  }
  Span span(antlr4::tree::TerminalNode* t) const { return span(t->getSymbol(), t->getSymbol()); }
  Span span(antlr4::ParserRuleContext* c) const {
    // An empty rule (coordSpec with nothing in it) has its stop before its start.
    if (c->getStop() == nullptr || c->getStop()->getTokenIndex() < c->getStart()->getTokenIndex() ||
        c->getStart()->getType() == antlr4::Token::EOF)
      return {base_ + static_cast<std::uint32_t>(c->getStart()->getStartIndex()),
              base_ + static_cast<std::uint32_t>(c->getStart()->getStartIndex())};
    return span(c->getStart(), c->getStop());
  }
  std::string_view slice(Span s) const { return text_.substr(s.begin, s.end - s.begin); }
  // The inside of a one-character-delimited group token: {..}, [..], (..).
  std::string_view inner(Span s) const {
    return s.end - s.begin >= 2 ? text_.substr(s.begin + 1, s.end - s.begin - 2) : std::string_view{};
  }

  std::string command_name(antlr4::tree::TerminalNode* t) const {
    return std::string(slice(span(t)).substr(1));
  }

  Options options(antlr4::tree::TerminalNode* t) const {
    Span s = span(t);
    return Options{std::string(inner(s)), s};
  }

  static void merge(std::optional<Options>& into, Options o) {
    if (!into) {
      into = std::move(o);
      return;
    }
    if (!into->raw.empty() && !o.raw.empty()) into->raw += ',';
    into->raw += o.raw;
    into->span.end = o.span.end;
  }

  void merge_all(std::optional<Options>& into,
                 const std::vector<antlr4::tree::TerminalNode*>& list) const {
    for (auto* t : list) merge(into, options(t));
  }

  Coordinate coordinate(TikZParser::CoordinateContext* ctx) const {
    Span paren = span(ctx->PAREN());
    Coordinate c = parse_coordinate(inner(paren), paren.begin + 1);
    if (ctx->PLUSPLUS()) c.relative = Coordinate::Relative::PlusPlus;
    else if (ctx->PLUS()) c.relative = Coordinate::Relative::Plus;
    c.span = span(ctx);
    return c;
  }

  std::string trimmed(std::string_view s) const {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\n' || s.front() == '\r')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\n' || s.back() == '\r')) s.remove_suffix(1);
    return std::string(s);
  }

  // Options, (name), `at (c)` in any order, then {text} (nodes and pics).
  Node node_spec(TikZParser::NodeSpecContext* ctx, Span whole) const {
    Node n;
    n.span = whole;
    for (auto* attr : ctx->nodeAttr()) {
      if (attr->OPTIONS()) merge(n.options, options(attr->OPTIONS()));
      else if (attr->PAREN()) n.name = trimmed(inner(span(attr->PAREN())));
      else if (attr->coordinate()) n.at = coordinate(attr->coordinate());
    }
    Span t = span(ctx->BRACED());
    n.text = std::string(inner(t));
    n.text_span = {t.begin + 1, t.end - 1};
    n.has_text = true;
    return n;
  }

  Node coord_spec(TikZParser::CoordSpecContext* ctx, Span whole) const {
    Node n;
    n.span = whole;
    n.is_coordinate = true;
    merge_all(n.options, ctx->OPTIONS());
    if (ctx->PAREN()) n.name = trimmed(inner(span(ctx->PAREN())));
    if (ctx->coordinate()) n.at = coordinate(ctx->coordinate());
    return n;
  }

  PathOp node_op(OpKind kind, TikZParser::NodeSpecContext* spec, antlr4::ParserRuleContext* whole) const {
    PathOp op;
    op.kind = kind;
    op.span = span(whole);
    op.raw = std::string(slice(op.span));
    op.node = node_spec(spec, op.span);
    return op;
  }

  PathOp coordinate_op(TikZParser::CoordSpecContext* spec, antlr4::ParserRuleContext* whole) const {
    PathOp op;
    op.kind = OpKind::CoordinateOp;
    op.span = span(whole);
    op.raw = std::string(slice(op.span));
    op.node = coord_spec(spec, op.span);
    return op;
  }

  void mid_nodes(PathOp& op, const std::vector<TikZParser::MidNodeContext*>& list) const {
    for (auto* m : list) {
      if (m->nodeSpec()) op.edge_nodes.push_back(node_spec(m->nodeSpec(), span(m)));
      else op.edge_nodes.push_back(coord_spec(m->coordSpec(), span(m)));
    }
  }

  void target(PathOp& op, TikZParser::TargetContext* t) const {
    if (t->CYCLE()) op.to_cycle = true;
    else op.coords.push_back(coordinate(t->coordinate()));
  }

  void elements(Statement& st, const std::vector<TikZParser::ElementContext*>& list) const {
    st.ops.reserve(st.ops.size() + list.size());
    for (auto* e : list) st.ops.push_back(element(e));
  }

  PathOp element(TikZParser::ElementContext* ctx) const {
    PathOp op;
    op.span = span(ctx);
    op.raw = std::string(slice(op.span));
    if (auto* m = dynamic_cast<TikZParser::MoveOpContext*>(ctx)) {
      op.kind = OpKind::Move;
      op.coords.push_back(coordinate(m->coordinate()));
    } else if (auto* l = dynamic_cast<TikZParser::LineOpContext*>(ctx)) {
      std::size_t type = l->connector->getType();
      op.kind = type == TikZLexer::LINE ? OpKind::Line : type == TikZLexer::HV ? OpKind::HV : OpKind::VH;
      mid_nodes(op, l->midNode());
      target(op, l->target());
      if (op.to_cycle) {
        op.kind = OpKind::Cycle;
        op.argument = std::string(slice(span(l->connector, l->connector)));
      }
    } else if (auto* c = dynamic_cast<TikZParser::CurveOpContext*>(ctx)) {
      op.kind = OpKind::Curve;
      op.coords.push_back(coordinate(c->c1));
      if (c->c2) op.coords.push_back(coordinate(c->c2));
      mid_nodes(op, c->midNode());
      target(op, c->target());
    } else if (auto* r = dynamic_cast<TikZParser::RectangleOpContext*>(ctx)) {
      op.kind = OpKind::Rectangle;
      mid_nodes(op, r->midNode());
      op.coords.push_back(coordinate(r->coordinate()));
    } else if (auto* round = dynamic_cast<TikZParser::RoundOpContext*>(ctx)) {
      std::size_t type = round->kind->getType();
      op.kind = type == TikZLexer::CIRCLE ? OpKind::Circle : type == TikZLexer::ELLIPSE ? OpKind::Ellipse : OpKind::Arc;
      merge_all(op.options, round->OPTIONS());
      if (round->PAREN()) op.argument = trimmed(inner(span(round->PAREN())));
    } else if (auto* g = dynamic_cast<TikZParser::GridOpContext*>(ctx)) {
      op.kind = OpKind::Grid;
      merge_all(op.options, g->OPTIONS());
      mid_nodes(op, g->midNode());
      op.coords.push_back(coordinate(g->coordinate()));
    } else if (auto* p = dynamic_cast<TikZParser::ParabolaOpContext*>(ctx)) {
      op.kind = OpKind::Parabola;
      merge_all(op.options, p->OPTIONS());
      mid_nodes(op, p->midNode());
      if (p->bend) op.coords.push_back(coordinate(p->bend));
      op.coords.push_back(coordinate(p->dest));
    } else if (auto* s = dynamic_cast<TikZParser::SineOpContext*>(ctx)) {
      op.kind = s->kind->getType() == TikZLexer::SIN ? OpKind::Sine : OpKind::Cosine;
      merge_all(op.options, s->OPTIONS());
      mid_nodes(op, s->midNode());
      op.coords.push_back(coordinate(s->coordinate()));
    } else if (auto* t = dynamic_cast<TikZParser::ToOpContext*>(ctx)) {
      op.kind = t->kind->getType() == TikZLexer::TO ? OpKind::To : OpKind::Edge;
      merge_all(op.options, t->OPTIONS());
      mid_nodes(op, t->midNode());
      target(op, t->target());
    } else if (auto* pl = dynamic_cast<TikZParser::PlotOpContext*>(ctx)) {
      plot(op, pl);
    } else if (auto* n = dynamic_cast<TikZParser::NodeOpContext*>(ctx)) {
      op = node_op(OpKind::NodeOp, n->nodeSpec(), ctx);
    } else if (auto* co = dynamic_cast<TikZParser::CoordinateOpContext*>(ctx)) {
      op = coordinate_op(co->coordSpec(), ctx);
    } else if (auto* pic = dynamic_cast<TikZParser::PicOpContext*>(ctx)) {
      op = node_op(OpKind::PicOp, pic->nodeSpec(), ctx);
    } else if (auto* let = dynamic_cast<TikZParser::LetOpContext*>(ctx)) {
      let_op(op, let);
    } else if (auto* o = dynamic_cast<TikZParser::OptionsOpContext*>(ctx)) {
      op.kind = OpKind::Options;
      op.options = options(o->OPTIONS());
    } else {
      op.kind = OpKind::Unknown;
    }
    return op;
  }

  void plot(PathOp& op, TikZParser::PlotOpContext* ctx) const {
    op.kind = OpKind::Plot;
    merge_all(op.options, ctx->OPTIONS());
    auto* src = ctx->plotSource();
    if (auto* c = dynamic_cast<TikZParser::PlotCoordinatesContext*>(src)) {
      Span b = span(c->BRACED());
      op.plot_kind = "coordinates";
      op.argument = std::string(inner(b));
      op.coords = parse_coordinate_list(inner(b), b.begin + 1);
    } else if (auto* f = dynamic_cast<TikZParser::PlotFileContext*>(src)) {
      op.plot_kind = "file";
      op.argument = std::string(inner(span(f->BRACED())));
    } else if (auto* fn = dynamic_cast<TikZParser::PlotFunctionContext*>(src)) {
      op.plot_kind = "function";
      op.argument = std::string(inner(span(fn->BRACED())));
    } else if (auto* e = dynamic_cast<TikZParser::PlotExpressionContext*>(src)) {
      op.plot_kind = "expression";
      Span paren = span(e->PAREN());
      op.argument = std::string(inner(paren));
      Coordinate c = parse_coordinate(inner(paren), paren.begin + 1);
      if (e->PLUSPLUS()) c.relative = Coordinate::Relative::PlusPlus;
      else if (e->PLUS()) c.relative = Coordinate::Relative::Plus;
      c.span = span(e);
      op.coords.push_back(std::move(c));
    }
  }

  void let_op(PathOp& op, TikZParser::LetOpContext* ctx) const {
    op.kind = OpKind::Let;
    Span kw = span(ctx->LET()), in = span(ctx->IN());
    op.argument = trimmed(text_.substr(kw.end, in.begin - kw.end));
    for (auto* b : ctx->letBinding()) {
      LetBinding lb;
      lb.span = span(b);
      Span eq = span(b->EQ());
      lb.reg = trimmed(text_.substr(lb.span.begin, eq.begin - lb.span.begin));
      if (b->PAREN()) {
        Span p = span(b->PAREN());
        Coordinate c = parse_coordinate(inner(p), p.begin + 1);
        c.span = p;
        lb.point = std::move(c);
      } else {
        // The value group is the last BRACED child (\p{name} = {..} has two).
        auto braced = b->BRACED();
        if (!braced.empty()) lb.value = std::string(inner(span(braced.back())));
      }
      op.let_bindings.push_back(std::move(lb));
    }
  }
};

SyntaxError nesting_error(const Piece& p) {
  return {"groups nested deeper than " + std::to_string(kMaxGroupNesting) + " levels", {p.begin, p.end}};
}

void parse_piece(Engine& en, std::string_view text, const Piece& piece, ParseResult& out) {
  std::string_view src = text.substr(piece.begin, piece.end - piece.begin);
  en.input.assign(src);
  en.lexer.setInputStream(&en.input);
  en.tokens.setTokenSource(&en.lexer);
  en.parser.setTokenStream(&en.tokens);

  // SLL with bail-out first; the grammar is SLL, so LL only runs to report an error.
  TikZParser::StatementContext* tree = nullptr;
  en.parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
      antlr4::atn::PredictionMode::SLL);
  en.parser.setErrorHandler(en.bail);
  en.parser.removeErrorListeners();
  try {
    tree = en.parser.statement();
  } catch (const antlr4::ParseCancellationException&) {
    tree = nullptr;
  } catch (const antlr4::RecognitionException&) {
    tree = nullptr;
  }
  if (tree == nullptr) {
    en.tokens.seek(0);
    en.parser.reset();
    en.parser.getInterpreter<antlr4::atn::ParserATNSimulator>()->setPredictionMode(
        antlr4::atn::PredictionMode::LL);
    en.parser.setErrorHandler(en.recover);
    en.errors.text = src;
    en.errors.base = piece.begin;
    en.errors.tokens = &en.tokens;
    en.errors.first.reset();
    en.errors.in_node_spec = false;
    en.parser.addErrorListener(&en.hook);
    tree = en.parser.statement();
    en.parser.removeErrorListeners();
    if (!en.errors.first) en.errors.first = SyntaxError{"malformed statement", {piece.begin, piece.end}};
    out.errors.push_back(std::move(*en.errors.first));
    return;
  }
  out.statements.push_back(TreeReader(text, piece.begin).statement(tree));
}

}  // namespace

ParseResult parse(std::string_view text) {
  ParseResult out;
  try {
    if (text.size() > 0xffffff00u) {
      out.errors.push_back({"statement text too large", {0, 0}});
      return out;
    }
    thread_local Engine engine;
    for (const Piece& piece : split_statements(text)) {
      std::string_view src = text.substr(piece.begin, piece.end - piece.begin);
      if (only_blank(src)) continue;
      if (piece.max_depth > kMaxGroupNesting) {
        out.errors.push_back(nesting_error(piece));
        continue;
      }
      try {
        parse_piece(engine, text, piece, out);
      } catch (const std::exception& e) {
        out.errors.push_back({"internal parser error: " + std::string(e.what()), {piece.begin, piece.end}});
      }
    }
  } catch (...) {
    out.errors.push_back({"internal parser error", {0, static_cast<std::uint32_t>(text.size())}});
  }
  return out;
}

}  // namespace tikzlint::grammar
