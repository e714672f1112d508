// grammar/parser.cpp: grammar::parse. Splits the text into statements at top-level ';', runs
// the ANTLR parser (TikZ.g4) on each, and turns the parse tree into the AST of grammar.hpp.
// A statement with a syntax error is dropped with one located error; parsing continues after
// its ';' (TikZ itself stops at the first error; a linter wants to see the rest).
#include <array>
#include <exception>
#include <memory>
#include <string>
#include <string_view>
#include <typeinfo>

#include "TikZLexer.h"
#include "TikZParser.h"
#include "antlr4-runtime.h"
#include "grammar/byte_lexer.hpp"
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

// Blank, comments only, or a lone ';' (an empty statement, which TikZ ignores too).
bool only_blank(std::string_view s) {
  if (!s.empty() && s.back() == ';') s.remove_suffix(1);
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
  // Messages stay printable ASCII whatever the input bytes are.
  for (char c : s.substr(0, kMax)) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f) {
      static constexpr char kHex[] = "0123456789abcdef";
      out += "\\x";
      out += kHex[u >> 4];
      out += kHex[u & 15];
    } else {
      out += c;
    }
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

  void syntaxError(antlr4::Recognizer* recognizer, antlr4::Token* offending, std::size_t, std::size_t,
                   const std::string&, std::exception_ptr) override {
    if (first || offending == nullptr) return;
    auto* parser = dynamic_cast<antlr4::Parser*>(recognizer);
    in_node_spec = parser != nullptr && parser->getContext() != nullptr &&
                   parser->getContext()->getRuleIndex() == TikZParser::RuleNodeSpec;
    first = describe(offending);
    // One error per statement is all we report; recovering through the rest of a long junk
    // statement would only cost time.
    throw antlr4::ParseCancellationException();
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
    // Inside a node (the parser's current rule tells), the usual mistake is a missing text group.
    if (tok->getType() == TikZLexer::SEMI && in_node_spec)
      err.message = "expected the node text in braces before ';'";
    return err;
  }

  bool in_node_spec = false;
};

// Per-thread ANTLR objects: building a lexer and parser costs far more than one statement.
struct Engine {
  ByteStream input;
  ByteLexer lexer;  // TikZ.g4's lexer rules, hand-written for speed (byte_lexer.cpp)
  antlr4::CommonTokenStream tokens{&lexer};
  TikZParser parser{&tokens};
  std::shared_ptr<antlr4::BailErrorStrategy> bail = std::make_shared<antlr4::BailErrorStrategy>();
  std::shared_ptr<antlr4::DefaultErrorStrategy> recover =
      std::make_shared<antlr4::DefaultErrorStrategy>();
  ErrorCollector errors;

  Engine() {
    parser.removeErrorListeners();
  }
};

// Converts one statement's parse tree; offsets become statement-text offsets via `base`.
// The tree is read by walking children once and switching on token types and rule indices:
// the generated accessors (ctx->OPTIONS(), ...) dynamic_cast every child on every call, which
// cost more than the parse itself.
class TreeReader {
 public:
  TreeReader(std::string_view text, std::uint32_t base, antlr4::TokenStream* tokens)
      : text_(text), base_(base), tokens_(tokens) {}

  Statement statement(antlr4::ParserRuleContext* ctx) {
    Statement st;
    auto& kids = ctx->children;
    antlr4::Token* cmd = token(kids.front());
    // The last two children are the ';' and EOF; the statement ends with its ';'.
    st.span = span(cmd, token(kids[kids.size() - 2]));
    st.command = std::string(slice(span(cmd, cmd)).substr(1));
    std::size_t i = 1;
    switch (cmd->getType()) {
      case TikZLexer::PATH_CMD:
        // \draw[opts]: the first element, when it is an option list, belongs to the command.
        if (i + 2 < kids.size()) {
          auto& first = rule(kids[i])->children;
          if (antlr4::Token* t = token(first.front()); t != nullptr && t->getType() == TikZLexer::OPTIONS) {
            st.options = options(t);
            ++i;
          }
        }
        break;
      case TikZLexer::NODE_CMD:
      case TikZLexer::PIC_CMD: {
        auto* spec = rule(kids[i++]);
        PathOp op = bare_op(cmd->getType() == TikZLexer::NODE_CMD ? OpKind::NodeOp : OpKind::PicOp, spec);
        op.node = node_spec(spec, op.span);
        st.ops.push_back(std::move(op));
        break;
      }
      case TikZLexer::COORD_CMD: {
        auto* spec = rule(kids[i++]);
        PathOp op = bare_op(OpKind::CoordinateOp, spec);
        op.node = coord_spec(spec, op.span);
        st.ops.push_back(std::move(op));
        break;
      }
      default:
        break;
    }
    st.ops.reserve(st.ops.size() + kids.size() - i);
    for (; i + 2 < kids.size(); ++i) element(st.ops.emplace_back(), rule(kids[i]));
    return st;
  }

 private:
  std::string_view text_;  // the whole text given to parse()
  std::uint32_t base_;     // where this statement's piece starts in text_
  antlr4::TokenStream* tokens_;

 public:
  mutable std::optional<SyntaxError> problem;  // found while reading a tree the grammar accepted

 private:

  // TerminalNode is a virtual base, so no static_cast; its source interval is its token index.
  antlr4::Token* token(antlr4::tree::ParseTree* t) const {
    if (!is_terminal(typeid(*t))) return nullptr;
    return tokens_->get(t->getSourceInterval().a);
  }

  // type_info equality across shared objects falls back to strcmp on the mangled names, and
  // this test runs for every child of every node; remember the answer per type_info address.
  static bool is_terminal(const std::type_info& type) {
    struct Entry {
      const std::type_info* type;
      bool terminal;
    };
    thread_local std::array<Entry, 48> seen{};
    thread_local std::size_t used = 0;
    for (std::size_t i = 0; i < used; ++i)
      if (seen[i].type == &type) return seen[i].terminal;
    bool terminal = type == typeid(antlr4::tree::TerminalNodeImpl);
    if (used < seen.size()) seen[used++] = {&type, terminal};
    return terminal;
  }
  static antlr4::ParserRuleContext* rule(antlr4::tree::ParseTree* t) {
    return static_cast<antlr4::ParserRuleContext*>(t);
  }

  Span span(antlr4::Token* a, antlr4::Token* b) const {
    std::uint32_t begin = base_ + static_cast<std::uint32_t>(a->getStartIndex());
    std::uint32_t end = begin;
    if (b != nullptr && b->getType() != antlr4::Token::EOF && b->getStopIndex() + 1 >= a->getStartIndex())
      end = base_ + static_cast<std::uint32_t>(b->getStopIndex() + 1);
    return {begin, end};
  }
  Span span(antlr4::ParserRuleContext* c) const {
    // An empty rule (coordSpec with nothing in it) has its stop before its start.
    if (c->children.empty()) return span(c->getStart(), nullptr);
    return span(c->getStart(), c->getStop());
  }
  std::string_view slice(Span s) const { return text_.substr(s.begin, s.end - s.begin); }
  // The inside of a one-character-delimited group token: {..}, [..], (..).
  std::string_view inner(Span s) const {
    return s.end - s.begin >= 2 ? text_.substr(s.begin + 1, s.end - s.begin - 2) : std::string_view{};
  }
  std::string_view inner(antlr4::Token* t) const { return inner(span(t, t)); }

  static std::string trimmed(std::string_view s) {
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; };
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return std::string(s);
  }

  Options options(antlr4::Token* t) const {
    Span s = span(t, t);
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

  // A coordinate written inline as `(PLUS | PLUSPLUS)? PAREN`; `rel` is the sign token or null.
  Coordinate coordinate(antlr4::Token* rel, antlr4::Token* paren) const {
    Span p = span(paren, paren);
    Coordinate c = parse_coordinate(inner(p), p.begin + 1);
    if (rel != nullptr) {
      c.relative = rel->getType() == TikZLexer::PLUSPLUS ? Coordinate::Relative::PlusPlus
                                                        : Coordinate::Relative::Plus;
    }
    c.span = span(rel != nullptr ? rel : paren, paren);
    return c;
  }

  // nodeSpec : (OPTIONS | PAREN | AT (PLUS | PLUSPLUS)? PAREN | animation | foreachClause)* BRACED
  // coordSpec: OPTIONS* (PAREN OPTIONS*)? (AT (PLUS | PLUSPLUS)? PAREN OPTIONS*)?
  // A PAREN after AT is the position, any other PAREN the name.
  void node_attributes(Node& n, antlr4::ParserRuleContext* ctx) const {
    bool after_at = false;
    antlr4::Token* rel = nullptr;
    for (auto* kid : ctx->children) {
      antlr4::Token* t = token(kid);
      if (t == nullptr) {
        n.unsupported.push_back(span(rule(kid)));
        continue;
      }
      switch (t->getType()) {
        case TikZLexer::OPTIONS:
          merge(n.options, options(t));
          break;
        case TikZLexer::AT:
          after_at = true;
          break;
        case TikZLexer::PLUS:
        case TikZLexer::PLUSPLUS:
          rel = t;
          break;
        case TikZLexer::PAREN:
          if (after_at) n.at = coordinate(rel, t);
          else n.name = trimmed(inner(t));
          after_at = false;
          rel = nullptr;
          break;
        case TikZLexer::BRACED: {
          Span ts = span(t, t);
          n.text = std::string(inner(ts));
          n.text_span = {ts.begin + 1, ts.end - 1};
          n.has_text = true;
          break;
        }
        default:
          break;
      }
    }
  }

  Node node_spec(antlr4::ParserRuleContext* ctx, Span whole) const {
    Node n;
    n.span = whole;
    node_attributes(n, ctx);
    return n;
  }

  Node coord_spec(antlr4::ParserRuleContext* ctx, Span whole) const {
    Node n;
    n.span = whole;
    n.is_coordinate = true;
    node_attributes(n, ctx);
    return n;
  }

  PathOp bare_op(OpKind kind, antlr4::ParserRuleContext* ctx) const {
    PathOp op;
    op.kind = kind;
    op.span = span(ctx);
    op.raw = std::string(slice(op.span));
    return op;
  }

  // The element's alternative is fixed by its first token (see TikZ.g4, rule `element`).
  OpKind kind_of(antlr4::tree::ParseTree* first) const {
    antlr4::Token* t = token(first);
    if (t == nullptr) return OpKind::Unknown;
    switch (t->getType()) {
      case TikZLexer::PLUS:
      case TikZLexer::PLUSPLUS:
      case TikZLexer::PAREN: return OpKind::Move;
      case TikZLexer::LINE: return OpKind::Line;
      case TikZLexer::HV: return OpKind::HV;
      case TikZLexer::VH: return OpKind::VH;
      case TikZLexer::DOTS: return OpKind::Curve;
      case TikZLexer::RECTANGLE: return OpKind::Rectangle;
      case TikZLexer::CIRCLE: return OpKind::Circle;
      case TikZLexer::ELLIPSE: return OpKind::Ellipse;
      case TikZLexer::ARC: return OpKind::Arc;
      case TikZLexer::GRID: return OpKind::Grid;
      case TikZLexer::PARABOLA: return OpKind::Parabola;
      case TikZLexer::SIN: return OpKind::Sine;
      case TikZLexer::COS: return OpKind::Cosine;
      case TikZLexer::TO: return OpKind::To;
      case TikZLexer::EDGE: return OpKind::Edge;
      case TikZLexer::PLOT: return OpKind::Plot;
      case TikZLexer::NODE: return OpKind::NodeOp;
      case TikZLexer::COORDINATE: return OpKind::CoordinateOp;
      case TikZLexer::PIC: return OpKind::PicOp;
      case TikZLexer::LET: return OpKind::Let;
      case TikZLexer::OPTIONS: return OpKind::Options;
      default: return OpKind::Unknown;
    }
  }

  // Fills `op` in place (a PathOp is large; moving one per operation showed in profiles).
  void element(PathOp& op, antlr4::ParserRuleContext* ctx) const {
    auto& kids = ctx->children;
    op.kind = kind_of(kids.front());
    op.span = span(ctx);
    op.raw = std::string(slice(op.span));
    switch (op.kind) {
      case OpKind::Unknown:
        return;
      case OpKind::NodeOp:
      case OpKind::PicOp:
        op.node = node_spec(rule(kids.back()), op.span);
        return;
      case OpKind::CoordinateOp:
        op.node = coord_spec(rule(kids.back()), op.span);
        return;
      case OpKind::Options:
        op.options = options(token(kids.front()));
        return;
      case OpKind::Let:
        let_op(op, ctx);
        return;
      default:
        break;
    }
    const OpKind first_kind = op.kind;
    const bool paren_is_argument =
        op.kind == OpKind::Circle || op.kind == OpKind::Ellipse || op.kind == OpKind::Arc;
    antlr4::Token* rel = nullptr;
    for (auto* kid : kids) {
      if (antlr4::Token* t = token(kid)) {
        switch (t->getType()) {
          case TikZLexer::OPTIONS:
            merge(op.options, options(t));
            break;
          case TikZLexer::PLUS:
          case TikZLexer::PLUSPLUS:
            rel = t;
            break;
          case TikZLexer::PAREN:
            if (paren_is_argument) op.argument = trimmed(inner(t));  // circle (1cm), arc (0:90:1)
            else op.coords.push_back(coordinate(rel, t));
            rel = nullptr;
            break;
          case TikZLexer::CYCLE:
            op.to_cycle = true;
            break;
          default:
            break;
        }
        continue;
      }
      auto* r = rule(kid);
      switch (r->getRuleIndex()) {
        case TikZParser::RuleMidNode: {
          auto* spec = rule(r->children.back());
          if (spec->getRuleIndex() == TikZParser::RuleNodeSpec) {
            op.edge_nodes.push_back(node_spec(spec, span(r)));
            op.edge_nodes.back().is_pic = token(r->children.front())->getType() == TikZLexer::PIC;
          } else {
            op.edge_nodes.push_back(coord_spec(spec, span(r)));
          }
          break;
        }
        case TikZParser::RulePlotSource:
          plot(op, r);
          break;
        default:
          break;
      }
    }
    if (op.kind == OpKind::Plot && first_kind != OpKind::Plot) {
      // `-- plot` joins the plot with a line (pgfmanual 22.2); TikZ has no `|- plot`.
      if (first_kind == OpKind::Line) op.plot_connected = true;
      else if (!problem) problem = SyntaxError{"expected a coordinate or 'cycle' after '" + std::string(slice(span(token(kids.front()), token(kids.front())))) + "', found 'plot'", op.span};
    }
    if (op.to_cycle && (op.kind == OpKind::Line || op.kind == OpKind::HV || op.kind == OpKind::VH)) {
      op.argument = std::string(slice(span(token(kids.front()), token(kids.front()))));
      op.kind = OpKind::Cycle;
    }
  }

  // plotSource : COORDINATES BRACED | FILE BRACED | FUNCTION BRACED | (PLUS|PLUSPLUS)? PAREN
  void plot(PathOp& op, antlr4::ParserRuleContext* src) const {
    op.kind = OpKind::Plot;  // also for `-- plot`, which starts as a line-to
    antlr4::Token* last = token(src->children.back());
    Span group = span(last, last);
    op.argument = std::string(inner(group));
    switch (token(src->children.front())->getType()) {
      case TikZLexer::COORDINATES:
        op.plot_kind = "coordinates";
        op.coords = parse_coordinate_list(inner(group), group.begin + 1);
        break;
      case TikZLexer::FILE:
        op.plot_kind = "file";
        break;
      case TikZLexer::FUNCTION:
        op.plot_kind = "function";
        break;
      default: {
        op.plot_kind = "expression";
        auto& kids = src->children;
        op.coords.push_back(coordinate(kids.size() > 1 ? token(kids.front()) : nullptr, last));
        break;
      }
    }
  }

  // let \p1 = (A), \n1 = {veclen(\x1,\y1)} in
  void let_op(PathOp& op, antlr4::ParserRuleContext* ctx) const {
    auto& kids = ctx->children;
    Span kw = span(token(kids.front()), token(kids.front()));
    Span in = span(token(kids.back()), token(kids.back()));
    op.argument = trimmed(text_.substr(kw.end, in.begin - kw.end));
    for (auto* kid : kids) {
      if (token(kid) != nullptr) continue;
      auto* b = rule(kid);
      LetBinding lb;
      lb.span = span(b);
      antlr4::Token* value = token(b->children.back());
      Span eq = span(token(b->children[b->children.size() - 2]), nullptr);
      lb.reg = trimmed(text_.substr(lb.span.begin, eq.begin - lb.span.begin));
      Span v = span(value, value);
      if (value->getType() == TikZLexer::PAREN) {
        Coordinate c = parse_coordinate(inner(v), v.begin + 1);
        c.span = v;
        lb.point = std::move(c);
      } else {
        lb.value = std::string(inner(v));
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
  en.lexer.reset(&en.input, src);
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
    en.parser.addErrorListener(&en.errors);
    try {
      tree = en.parser.statement();
    } catch (const antlr4::ParseCancellationException&) {
      tree = nullptr;
    } catch (const antlr4::RecognitionException&) {
      tree = nullptr;
    }
    en.parser.removeErrorListeners();
    if (tree == nullptr || en.errors.first) {
      // Full LL agrees there is an error (SLL alone can fail on a valid statement).
      if (!en.errors.first) en.errors.first = SyntaxError{"malformed statement", {piece.begin, piece.end}};
      out.errors.push_back(std::move(*en.errors.first));
      return;
    }
  }
  TreeReader reader(text, piece.begin, &en.tokens);
  Statement st = reader.statement(tree);
  if (reader.problem) out.errors.push_back(std::move(*reader.problem));
  else out.statements.push_back(std::move(st));
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
