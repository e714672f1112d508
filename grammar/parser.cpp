// grammar/parser.cpp: grammar::parse. Splits the text into statements at top-level ';', runs
// the ANTLR parser (TikZ.g4) on each, and turns the parse tree into the AST of grammar.hpp.
// A statement with a syntax error is dropped with one located error; parsing continues after
// its ';' (TikZ itself stops at the first error; a linter wants to see the rest).
#include <array>
#include <deque>
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
  // The bytes the loop below acts on; runs of others are skipped a byte at a time, with one test.
  static constexpr auto kSpecial = [] {
    std::array<bool, 256> t{};
    for (unsigned char c : std::string_view("\\%{[(}]);")) t[c] = true;
    return t;
  }();
  std::vector<Piece> pieces;
  Piece cur;
  std::size_t braces = 0, groups = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (!kSpecial[static_cast<unsigned char>(text[i])]) continue;
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

// The two trees TreeReader reads: ANTLR's parse tree, and FastParser's of the same shape (the
// same children in the same order, rule indices and token types of TikZ.g4).
struct AntlrTree {
  using Tok = antlr4::Token;
  using Ctx = antlr4::ParserRuleContext;
  using Kid = antlr4::tree::ParseTree*;
  antlr4::TokenStream* tokens;

  // TerminalNode is a virtual base, so no static_cast; its source interval is its token index.
  Tok* token(Kid t) const {
    if (!is_terminal(typeid(*t))) return nullptr;
    return tokens->get(t->getSourceInterval().a);
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
  static Ctx* rule(Kid t) { return static_cast<Ctx*>(t); }
  static const std::vector<Kid>& kids(Ctx* c) { return c->children; }
  static std::size_t rule_index(Ctx* c) { return c->getRuleIndex(); }
  static Tok* start(Ctx* c) { return c->getStart(); }
  static Tok* stop(Ctx* c) { return c->getStop(); }
  static std::size_t type(Tok* t) { return t->getType(); }
  static std::size_t start_index(Tok* t) { return t->getStartIndex(); }
  static std::size_t stop_index(Tok* t) { return t->getStopIndex(); }
};

struct FastTok {
  std::size_t type = 0;
  std::size_t start = 0, stop = 0;  // byte offsets, stop inclusive (as ANTLR's)
};
struct FastCtx;
struct FastKid {
  FastTok* tok = nullptr;  // a terminal, or
  FastCtx* ctx = nullptr;  // a rule
};
struct FastCtx {
  std::size_t rule = 0;
  std::vector<FastKid> children;
  FastTok* start = nullptr;  // the first token when the rule was entered (LT(1))
  FastTok* stop = nullptr;   // the last token it consumed (LT(-1) when it ended)
};
struct FastTree {
  using Tok = FastTok;
  using Ctx = FastCtx;
  using Kid = FastKid;
  Tok* token(const Kid& k) const { return k.tok; }
  static Ctx* rule(const Kid& k) { return k.ctx; }
  static const std::vector<Kid>& kids(Ctx* c) { return c->children; }
  static std::size_t rule_index(Ctx* c) { return c->rule; }
  static Tok* start(Ctx* c) { return c->start; }
  static Tok* stop(Ctx* c) { return c->stop; }
  static std::size_t type(Tok* t) { return t->type; }
  static std::size_t start_index(Tok* t) { return t->start; }
  static std::size_t stop_index(Tok* t) { return t->stop; }
};

// Converts one statement's parse tree; offsets become statement-text offsets via `base`.
// The tree is read by walking children once and switching on token types and rule indices:
// the generated accessors (ctx->OPTIONS(), ...) dynamic_cast every child on every call, which
// cost more than the parse itself.
template <class Tree>
class TreeReader {
  using Tok = typename Tree::Tok;
  using Ctx = typename Tree::Ctx;
  using Kid = typename Tree::Kid;

 public:
  TreeReader(std::string_view text, std::uint32_t base, Tree tree) : text_(text), base_(base), tree_(tree) {}

  Statement statement(Ctx* ctx) {
    Statement st;
    const auto& kids = Tree::kids(ctx);
    Tok* cmd = token(kids.front());
    // The last two children are the ';' and EOF; the statement ends with its ';'.
    st.span = span(cmd, token(kids[kids.size() - 2]));
    st.command = std::string(slice(span(cmd, cmd)).substr(1));
    std::size_t i = 1;
    switch (Tree::type(cmd)) {
      case TikZLexer::PATH_CMD:
        // \draw[opts]: the first element, when it is an option list, belongs to the command.
        if (i + 2 < kids.size()) {
          const auto& first = Tree::kids(rule(kids[i]));
          if (Tok* t = token(first.front()); t != nullptr && Tree::type(t) == TikZLexer::OPTIONS) {
            st.options = options(t);
            ++i;
          }
        }
        break;
      case TikZLexer::NODE_CMD:
      case TikZLexer::PIC_CMD: {
        auto* spec = rule(kids[i++]);
        PathOp op = bare_op(Tree::type(cmd) == TikZLexer::NODE_CMD ? OpKind::NodeOp : OpKind::PicOp, spec);
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
  Tree tree_;

 public:
  mutable std::optional<SyntaxError> problem;  // found while reading a tree the grammar accepted

 private:

  Tok* token(const Kid& k) const { return tree_.token(k); }
  static Ctx* rule(const Kid& k) { return Tree::rule(k); }

  Span span(Tok* a, Tok* b) const {
    std::uint32_t begin = base_ + static_cast<std::uint32_t>(Tree::start_index(a));
    std::uint32_t end = begin;
    if (b != nullptr && Tree::type(b) != antlr4::Token::EOF && Tree::stop_index(b) + 1 >= Tree::start_index(a))
      end = base_ + static_cast<std::uint32_t>(Tree::stop_index(b) + 1);
    return {begin, end};
  }
  Span span(Ctx* c) const {
    // An empty rule (coordSpec with nothing in it) has its stop before its start.
    if (Tree::kids(c).empty()) return span(Tree::start(c), nullptr);
    return span(Tree::start(c), Tree::stop(c));
  }
  std::string_view slice(Span s) const { return text_.substr(s.begin, s.end - s.begin); }
  // The inside of a one-character-delimited group token: {..}, [..], (..).
  std::string_view inner(Span s) const {
    return s.end - s.begin >= 2 ? text_.substr(s.begin + 1, s.end - s.begin - 2) : std::string_view{};
  }
  std::string_view inner(Tok* t) const { return inner(span(t, t)); }

  static std::string trimmed(std::string_view s) {
    auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; };
    while (!s.empty() && blank(s.front())) s.remove_prefix(1);
    while (!s.empty() && blank(s.back())) s.remove_suffix(1);
    return std::string(s);
  }

  Options options(Tok* t) const {
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
  Coordinate coordinate(Tok* rel, Tok* paren) const {
    Span p = span(paren, paren);
    Coordinate c = parse_coordinate(inner(p), p.begin + 1);
    if (rel != nullptr) {
      c.relative = Tree::type(rel) == TikZLexer::PLUSPLUS ? Coordinate::Relative::PlusPlus
                                                        : Coordinate::Relative::Plus;
    }
    c.span = span(rel != nullptr ? rel : paren, paren);
    return c;
  }

  // nodeSpec : (OPTIONS | PAREN | AT (PLUS | PLUSPLUS)? PAREN | animation | foreachClause)* BRACED
  // coordSpec: OPTIONS* (PAREN OPTIONS*)? (AT (PLUS | PLUSPLUS)? PAREN OPTIONS*)?
  // A PAREN after AT is the position, any other PAREN the name.
  void node_attributes(Node& n, Ctx* ctx) const {
    bool after_at = false;
    Tok* last_options = nullptr;
    Tok* rel = nullptr;
    for (const auto& kid : Tree::kids(ctx)) {
      Tok* t = token(kid);
      if (t == nullptr) {
        n.unsupported.push_back(span(rule(kid)));
        continue;
      }
      switch (Tree::type(t)) {
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
          n.has_text = true;
          if (ts.begin == ts.end && last_options != nullptr) {
            // the empty text ByteLexer yields after `node contents=..` / `pic type=..`: the text
            // is that key's value
            Span os = span(last_options, last_options);
            auto [b, e] = spec_text_key_value(inner(os));
            if (b != std::string_view::npos) {
              n.text = std::string(text_.substr(os.begin + 1 + b, e - b));
              n.text_span = {static_cast<std::uint32_t>(os.begin + 1 + b), static_cast<std::uint32_t>(os.begin + 1 + e)};
            }
            break;
          }
          n.text = std::string(inner(ts));
          n.text_span = {ts.begin + 1, ts.end - 1};
          break;
        }
        default:
          break;
      }
      if (Tree::type(t) == TikZLexer::OPTIONS) last_options = t;
    }
  }

  Node node_spec(Ctx* ctx, Span whole) const {
    Node n;
    n.span = whole;
    node_attributes(n, ctx);
    return n;
  }

  Node coord_spec(Ctx* ctx, Span whole) const {
    Node n;
    n.span = whole;
    n.is_coordinate = true;
    node_attributes(n, ctx);
    return n;
  }

  PathOp bare_op(OpKind kind, Ctx* ctx) const {
    PathOp op;
    op.kind = kind;
    op.span = span(ctx);
    op.raw = std::string(slice(op.span));
    return op;
  }

  // The element's alternative is fixed by its first token (see TikZ.g4, rule `element`).
  OpKind kind_of(const Kid& first) const {
    Tok* t = token(first);
    if (t == nullptr) return OpKind::Unknown;
    switch (Tree::type(t)) {
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
  void element(PathOp& op, Ctx* ctx) const {
    const auto& kids = Tree::kids(ctx);
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
    Tok* rel = nullptr;
    for (const auto& kid : kids) {
      if (Tok* t = token(kid)) {
        switch (Tree::type(t)) {
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
      switch (Tree::rule_index(r)) {
        case TikZParser::RuleMidNode: {
          auto* spec = rule(Tree::kids(r).back());
          if (Tree::rule_index(spec) == TikZParser::RuleNodeSpec) {
            op.edge_nodes.push_back(node_spec(spec, span(r)));
            op.edge_nodes.back().is_pic = Tree::type(token(Tree::kids(r).front())) == TikZLexer::PIC;
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
  void plot(PathOp& op, Ctx* src) const {
    op.kind = OpKind::Plot;  // also for `-- plot`, which starts as a line-to
    Tok* last = token(Tree::kids(src).back());
    Span group = span(last, last);
    op.argument = std::string(inner(group));
    switch (Tree::type(token(Tree::kids(src).front()))) {
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
        const auto& kids = Tree::kids(src);
        op.coords.push_back(coordinate(kids.size() > 1 ? token(kids.front()) : nullptr, last));
        break;
      }
    }
  }

  // let \p1 = (A), \n1 = {veclen(\x1,\y1)} in
  void let_op(PathOp& op, Ctx* ctx) const {
    const auto& kids = Tree::kids(ctx);
    Span kw = span(token(kids.front()), token(kids.front()));
    Span in = span(token(kids.back()), token(kids.back()));
    op.argument = trimmed(text_.substr(kw.end, in.begin - kw.end));
    for (const auto& kid : kids) {
      if (token(kid) != nullptr) continue;
      auto* b = rule(kid);
      LetBinding lb;
      lb.span = span(b);
      const auto& bk = Tree::kids(b);
      Tok* value = token(bk.back());
      Span eq = span(token(bk[bk.size() - 2]), nullptr);
      lb.reg = trimmed(text_.substr(lb.span.begin, eq.begin - lb.span.begin));
      Span v = span(value, value);
      if (Tree::type(value) == TikZLexer::PAREN) {
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

// A recursive-descent twin of TikZ.g4's parser over ByteLexer's tokens, for statements the
// grammar accepts (nearly all of them): ANTLR's runtime costs some 5 us per statement in
// prediction and context objects, this a fraction of that. Every decision takes the first
// alternative that can start with the next token, which is the alternative ANTLR chooses when
// more than one could go on (greedy loops and optional parts; the other alternatives of a rule
// start with distinct tokens). Where the first choice fails it does not backtrack: it gives up,
// and the statement goes to ANTLR, which parses it or reports the error as before. So a
// statement it accepts has the tree ANTLR builds (test_parse.cpp compares both on generated
// statements), and one it rejects costs what it did.
class FastParser {
 public:
  // The statement's tree, or null when the statement is not accepted here.
  FastCtx* parse(std::string_view src, ByteLexer& lexer) {
    toks_.clear();
    used_ = 0;
    lexer.reset(nullptr, src);
    for (;;) {
      FastTok t;
      t.type = lexer.next_token(t.start, t.stop);
      toks_.push_back(t);
      if (t.type == antlr4::Token::EOF) break;
    }
    pos_ = 0;
    FastCtx* st = open(TikZParser::RuleStatement);
    bool ok = false;
    switch (la()) {
      case TikZLexer::PATH_CMD:
        ok = match(st) && elements(st);
        break;
      case TikZLexer::NODE_CMD:
      case TikZLexer::PIC_CMD:
        ok = match(st) && node_spec(st) && elements(st);
        break;
      case TikZLexer::COORD_CMD:
        ok = match(st) && coord_spec(st) && elements(st);
        break;
      default:
        break;
    }
    ok = ok && expect(st, TikZLexer::SEMI) && expect(st, antlr4::Token::EOF);
    if (!ok) return nullptr;
    close(st);
    return st;
  }

 private:
  std::vector<FastTok> toks_;
  std::deque<FastCtx> pool_;  // reused across statements (children keep their capacity)
  std::size_t used_ = 0;
  std::size_t pos_ = 0;

  std::size_t la() const { return toks_[pos_].type; }
  bool at(std::size_t type) const { return la() == type; }
  bool at_sign() const { return at(TikZLexer::PLUS) || at(TikZLexer::PLUSPLUS); }

  FastCtx* open(std::size_t rule) {
    if (used_ == pool_.size()) pool_.emplace_back();
    FastCtx* c = &pool_[used_++];
    c->rule = rule;
    c->children.clear();
    c->start = &toks_[pos_];
    return c;
  }
  void close(FastCtx* c) { c->stop = pos_ > 0 ? &toks_[pos_ - 1] : nullptr; }
  void add(FastCtx* parent, FastCtx* child) {
    close(child);
    parent->children.push_back({nullptr, child});
  }
  bool match(FastCtx* c) {  // the current token, whatever it is (EOF is never consumed here)
    if (at(antlr4::Token::EOF)) return false;
    c->children.push_back({&toks_[pos_++], nullptr});
    return true;
  }
  bool expect(FastCtx* c, std::size_t type) {
    if (!at(type)) return false;
    c->children.push_back({&toks_[pos_], nullptr});
    if (type != antlr4::Token::EOF) ++pos_;
    return true;
  }
  // (PLUS | PLUSPLUS)? PAREN
  bool coordinate(FastCtx* c) {
    if (at_sign()) match(c);
    return expect(c, TikZLexer::PAREN);
  }
  void options(FastCtx* c) {  // OPTIONS*
    while (at(TikZLexer::OPTIONS)) match(c);
  }

  static bool starts_element(std::size_t t) {
    switch (t) {
      case TikZLexer::PLUS: case TikZLexer::PLUSPLUS: case TikZLexer::PAREN:
      case TikZLexer::LINE: case TikZLexer::HV: case TikZLexer::VH: case TikZLexer::DOTS:
      case TikZLexer::RECTANGLE: case TikZLexer::CIRCLE: case TikZLexer::ELLIPSE: case TikZLexer::ARC:
      case TikZLexer::GRID: case TikZLexer::PARABOLA: case TikZLexer::SIN: case TikZLexer::COS:
      case TikZLexer::TO: case TikZLexer::EDGE: case TikZLexer::PLOT: case TikZLexer::NODE:
      case TikZLexer::COORDINATE: case TikZLexer::PIC: case TikZLexer::LET: case TikZLexer::OPTIONS:
      // unknown
      case TikZLexer::COLON: case TikZLexer::FOREACH: case TikZLexer::WORD: case TikZLexer::CS:
      case TikZLexer::BRACED: case TikZLexer::IN:
        return true;
      default:
        return false;
    }
  }

  bool elements(FastCtx* st) {  // element*
    while (starts_element(la()))
      if (!element(st)) return false;
    return true;
  }

  bool mid_nodes(FastCtx* parent) {  // midNode*
    while (at(TikZLexer::NODE) || at(TikZLexer::COORDINATE) || at(TikZLexer::PIC)) {
      FastCtx* m = open(TikZParser::RuleMidNode);
      bool coord = at(TikZLexer::COORDINATE);
      match(m);
      if (!(coord ? coord_spec(m) : node_spec(m))) return false;
      add(parent, m);
    }
    return true;
  }

  // ((PLUS | PLUSPLUS)? PAREN | CYCLE)
  bool target_or_cycle(FastCtx* e) {
    if (at(TikZLexer::CYCLE)) return match(e);
    return coordinate(e);
  }

  bool element(FastCtx* st) {
    FastCtx* e = open(TikZParser::RuleElement);
    bool ok = false;
    switch (la()) {
      case TikZLexer::PLUS: case TikZLexer::PLUSPLUS: case TikZLexer::PAREN:
        ok = coordinate(e);
        break;
      case TikZLexer::LINE: case TikZLexer::HV: case TikZLexer::VH:
        match(e);
        ok = mid_nodes(e);
        if (!ok) break;
        if (at(TikZLexer::PLOT)) {
          match(e);
          options(e);
          ok = plot_source(e);
        } else {
          ok = target_or_cycle(e);
        }
        break;
      case TikZLexer::DOTS:
        match(e);
        ok = mid_nodes(e) && expect(e, TikZLexer::CONTROLS) && coordinate(e);
        if (!ok) break;
        if (at(TikZLexer::AND)) ok = match(e) && coordinate(e);
        ok = ok && expect(e, TikZLexer::DOTS) && mid_nodes(e) && target_or_cycle(e);
        break;
      case TikZLexer::RECTANGLE:
        match(e);
        ok = mid_nodes(e) && coordinate(e);
        break;
      case TikZLexer::CIRCLE: case TikZLexer::ELLIPSE: case TikZLexer::ARC:
        match(e);
        options(e);
        if (at(TikZLexer::PAREN)) match(e);
        ok = true;
        break;
      case TikZLexer::GRID:
        match(e);
        options(e);
        ok = mid_nodes(e) && coordinate(e);
        break;
      case TikZLexer::PARABOLA:
        match(e);
        options(e);
        ok = true;
        if (at(TikZLexer::BEND)) ok = match(e) && coordinate(e);
        ok = ok && mid_nodes(e) && target_or_cycle(e);
        break;
      case TikZLexer::SIN: case TikZLexer::COS:
        match(e);
        options(e);
        ok = mid_nodes(e) && coordinate(e);
        break;
      case TikZLexer::TO: case TikZLexer::EDGE:
        match(e);
        options(e);
        ok = mid_nodes(e) && target_or_cycle(e);
        break;
      case TikZLexer::PLOT:
        match(e);
        options(e);
        ok = plot_source(e);
        break;
      case TikZLexer::NODE: case TikZLexer::PIC:
        match(e);
        ok = node_spec(e);
        break;
      case TikZLexer::COORDINATE:
        match(e);
        ok = coord_spec(e);
        break;
      case TikZLexer::LET:
        match(e);
        ok = let_binding(e);
        while (ok && at(TikZLexer::COMMA)) ok = match(e) && let_binding(e);
        ok = ok && expect(e, TikZLexer::IN);
        break;
      case TikZLexer::OPTIONS:
        ok = match(e);
        break;
      default:
        ok = unknown(e);
        break;
    }
    if (!ok) return false;
    add(st, e);
    return true;
  }

  // nodeSpec : (OPTIONS | PAREN | AT (PLUS | PLUSPLUS)? PAREN | animation | foreachClause)* BRACED
  bool node_spec(FastCtx* parent) {
    FastCtx* n = open(TikZParser::RuleNodeSpec);
    for (;;) {
      if (at(TikZLexer::OPTIONS) || at(TikZLexer::PAREN)) {
        match(n);
      } else if (at(TikZLexer::AT)) {
        match(n);
        if (!coordinate(n)) return false;
      } else if (at(TikZLexer::COLON)) {
        if (!animation(n)) return false;
      } else if (at(TikZLexer::FOREACH)) {
        if (!foreach_clause(n)) return false;
      } else {
        break;
      }
    }
    if (!expect(n, TikZLexer::BRACED)) return false;
    add(parent, n);
    return true;
  }

  // coordSpec : OPTIONS* (PAREN OPTIONS*)? (AT (PLUS | PLUSPLUS)? PAREN OPTIONS*)?
  bool coord_spec(FastCtx* parent) {
    FastCtx* c = open(TikZParser::RuleCoordSpec);
    options(c);
    if (at(TikZLexer::PAREN)) {
      match(c);
      options(c);
    }
    if (at(TikZLexer::AT)) {
      match(c);
      if (!coordinate(c)) return false;
      options(c);
    }
    add(parent, c);
    return true;
  }

  // animation : COLON WORD* EQ BRACED
  bool animation(FastCtx* parent) {
    FastCtx* a = open(TikZParser::RuleAnimation);
    match(a);
    while (at(TikZLexer::WORD)) match(a);
    if (!expect(a, TikZLexer::EQ) || !expect(a, TikZLexer::BRACED)) return false;
    add(parent, a);
    return true;
  }

  // foreachClause : FOREACH (CS | OTHER | OPTIONS)* IN BRACED
  bool foreach_clause(FastCtx* parent) {
    FastCtx* f = open(TikZParser::RuleForeachClause);
    match(f);
    while (at(TikZLexer::CS) || at(TikZLexer::OTHER) || at(TikZLexer::OPTIONS)) match(f);
    if (!expect(f, TikZLexer::IN) || !expect(f, TikZLexer::BRACED)) return false;
    add(parent, f);
    return true;
  }

  // plotSource : COORDINATES BRACED | FILE BRACED | FUNCTION BRACED | (PLUS | PLUSPLUS)? PAREN
  bool plot_source(FastCtx* parent) {
    FastCtx* p = open(TikZParser::RulePlotSource);
    bool ok;
    if (at(TikZLexer::COORDINATES) || at(TikZLexer::FILE) || at(TikZLexer::FUNCTION))
      ok = match(p) && expect(p, TikZLexer::BRACED);
    else
      ok = coordinate(p);
    if (!ok) return false;
    add(parent, p);
    return true;
  }

  // letBinding : CS (NUMBER | WORD | BRACED)? EQ (PAREN | BRACED)
  bool let_binding(FastCtx* parent) {
    FastCtx* b = open(TikZParser::RuleLetBinding);
    if (!expect(b, TikZLexer::CS)) return false;
    if (at(TikZLexer::NUMBER) || at(TikZLexer::WORD) || at(TikZLexer::BRACED)) match(b);
    if (!expect(b, TikZLexer::EQ)) return false;
    if (!(at(TikZLexer::PAREN) || at(TikZLexer::BRACED))) return false;
    match(b);
    add(parent, b);
    return true;
  }

  // unknown : animation | foreachClause BRACED? | (WORD | CS) OPTIONS? BRACED* | BRACED | IN
  bool unknown(FastCtx* parent) {
    FastCtx* u = open(TikZParser::RuleUnknown);
    bool ok = true;
    switch (la()) {
      case TikZLexer::COLON:
        ok = animation(u);
        break;
      case TikZLexer::FOREACH:
        ok = foreach_clause(u);
        if (ok && at(TikZLexer::BRACED)) match(u);
        break;
      case TikZLexer::WORD: case TikZLexer::CS:
        match(u);
        if (at(TikZLexer::OPTIONS)) match(u);
        while (at(TikZLexer::BRACED)) match(u);
        break;
      case TikZLexer::BRACED: case TikZLexer::IN:
        match(u);
        break;
      default:
        return false;
    }
    if (!ok) return false;
    add(parent, u);
    return true;
  }
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
  FastParser fast;
  ByteLexer fast_lexer;

  Engine() {
    parser.removeErrorListeners();
  }
};

SyntaxError nesting_error(const Piece& p) {
  return {"groups nested deeper than " + std::to_string(kMaxGroupNesting) + " levels", {p.begin, p.end}};
}

void parse_piece(Engine& en, std::string_view text, const Piece& piece, ParseResult& out, bool fast) {
  std::string_view src = text.substr(piece.begin, piece.end - piece.begin);
  if (fast) {
    if (FastCtx* tree = en.fast.parse(src, en.fast_lexer)) {
      TreeReader<FastTree> reader(text, piece.begin, FastTree{});
      Statement st = reader.statement(tree);
      if (reader.problem) out.errors.push_back(std::move(*reader.problem));
      else out.statements.push_back(std::move(st));
      return;
    }
  }
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
  TreeReader<AntlrTree> reader(text, piece.begin, AntlrTree{&en.tokens});
  Statement st = reader.statement(tree);
  if (reader.problem) out.errors.push_back(std::move(*reader.problem));
  else out.statements.push_back(std::move(st));
}

}  // namespace

namespace {

// tikz.code.tex \tikz@@circle: `circle [opts]` takes no `(radius)` after its options, so in
// `circle [radius=2pt] (1,1)` the parenthesis is the next coordinate (both parsers read
// `circle OPTIONS* PAREN?` as one operation).
void split_circle_after_options(Statement& st, std::string_view text) {
  for (std::size_t i = 0; i < st.ops.size(); ++i) {
    PathOp& op = st.ops[i];
    if ((op.kind != OpKind::Circle && op.kind != OpKind::Ellipse) || !op.options || op.argument.empty()) continue;
    // the parenthesis closes the operation: find its opening at the top level
    const std::uint32_t end = op.span.end;
    if (end == 0 || end > text.size() || text[end - 1] != ')') continue;
    int depth = 0;
    std::uint32_t open = end;
    for (std::uint32_t k = end; k-- > op.span.begin;) {
      if (text[k] == ')' || text[k] == '}' || text[k] == ']') ++depth;
      if (text[k] == '(' || text[k] == '{' || text[k] == '[') --depth;
      if (depth == 0) {
        open = k;
        break;
      }
    }
    if (open == end || text[open] != '(') continue;
    PathOp move;
    move.kind = OpKind::Move;
    move.span = {open, end};
    move.raw = std::string(text.substr(open, end - open));
    Coordinate c = parse_coordinate(text.substr(open + 1, end - 1 - (open + 1)), open + 1);
    c.span = {open, end};
    move.coords.push_back(std::move(c));
    op.argument.clear();
    op.span.end = open;
    while (op.span.end > op.span.begin && (text[op.span.end - 1] == ' ' || text[op.span.end - 1] == '\n')) --op.span.end;
    op.raw = std::string(text.substr(op.span.begin, op.span.end - op.span.begin));
    st.ops.insert(st.ops.begin() + static_cast<std::ptrdiff_t>(i) + 1, std::move(move));
  }
}

}  // namespace

ParseResult parse(std::string_view text) { return parse(text, ParserChoice::fast_then_antlr); }

ParseResult parse(std::string_view text, ParserChoice choice) {
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
        parse_piece(engine, text, piece, out, choice == ParserChoice::fast_then_antlr);
      } catch (const std::exception& e) {
        out.errors.push_back({"internal parser error: " + std::string(e.what()), {piece.begin, piece.end}});
      }
    }
  } catch (...) {
    out.errors.push_back({"internal parser error", {0, static_cast<std::uint32_t>(text.size())}});
  }
  for (Statement& st : out.statements) split_circle_after_options(st, text);
  return out;
}

}  // namespace tikzlint::grammar
