// grammar/coordinate.cpp: the inside of a coordinate, `(...)`, decomposed into its form
// (pgfmanual 13: coordinate systems). Hand-written: the statement grammar hands us one
// balanced paren-group token, and the forms are told apart by top-level separators.
#include <algorithm>
#include <cctype>
#include <optional>
#include <cstddef>
#include <string>
#include <string_view>

#include "grammar/byte_lexer.hpp"
#include "grammar/grammar.hpp"

namespace tikzlint::grammar {
namespace {

using Form = Coordinate::Form;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'; }

// [b, e) with surrounding white space removed.
void trim(std::string_view s, std::size_t& b, std::size_t& e) {
  while (b < e && is_space(s[b])) ++b;
  while (e > b && is_space(s[e - 1])) --e;
}

Span span_at(std::uint32_t base, std::size_t b, std::size_t e) {
  return {base + static_cast<std::uint32_t>(b), base + static_cast<std::uint32_t>(e)};
}

// Calls f(i) for every byte of s[b, e) that is outside {}, (), [] and $...$ groups, skipping
// TeX control sequences; stops when f returns true and returns that index (or e).
template <class F>
std::size_t scan_top(std::string_view s, std::size_t b, std::size_t e, F f) {
  std::size_t depth = 0;
  bool math = false;
  for (std::size_t i = b; i < e; ++i) {
    char c = s[i];
    if (c == '\\') {
      ++i;
      continue;
    }
    if (c == '{' || c == '(' || c == '[') {
      ++depth;
    } else if (c == '}' || c == ')' || c == ']') {
      if (depth > 0) --depth;
    } else if (c == '$') {
      math = !math;
    } else if (depth == 0 && !math && f(i)) {
      return i;
    }
  }
  return e;
}

std::size_t find_top(std::string_view s, std::size_t b, std::size_t e, std::string_view what) {
  return scan_top(s, b, e, [&](std::size_t i) { return s.substr(i, what.size()) == what && i + what.size() <= e; });
}

// ` and ` as a separate word at top level (polar `(30:2 and 1)`, `intersection of`).
std::size_t find_and(std::string_view s, std::size_t b, std::size_t e) {
  return scan_top(s, b, e, [&](std::size_t i) {
    return i + 3 <= e && s.substr(i, 3) == "and" && i > b && is_space(s[i - 1]) &&
           (i + 3 == e || is_space(s[i + 3]));
  });
}

bool starts_with_word(std::string_view s, std::size_t b, std::size_t e, std::string_view w) {
  return e - b >= w.size() && s.substr(b, w.size()) == w &&
         (e - b == w.size() || !std::isalpha(static_cast<unsigned char>(s[b + w.size()])));
}

Coordinate parse_at(std::string_view s, std::size_t b, std::size_t e, std::uint32_t base,
                    std::size_t depth);

// A bare operand of |- or `intersection of`: `A`, `A.north`, `1,2`, `(A)`, `$(A)+(1,0)$`.
Coordinate parse_operand(std::string_view s, std::size_t b, std::size_t e, std::uint32_t base,
                         std::size_t depth) {
  trim(s, b, e);
  if (e - b >= 2 && s[b] == '{' && s[e - 1] == '}' &&
      scan_top(s, b, e, [](std::size_t) { return true; }) == e) {
    ++b;  // {0,1}: braces only group the operand
    --e;
    trim(s, b, e);
  }
  if (e - b >= 2 && s[b] == '(' && s[e - 1] == ')' &&
      scan_top(s, b, e, [](std::size_t) { return true; }) == e) {
    // One whole paren group: look inside it.
    Coordinate c = parse_at(s, b + 1, e - 1, base, depth + 1);
    c.span = span_at(base, b, e);
    return c;
  }
  return parse_at(s, b, e, base, depth + 1);
}

void split_parts(Coordinate& c, std::string_view s, std::size_t b, std::size_t e, char sep) {
  c.parts.reserve(3);  // x,y or x,y,z (or angle:radius): one allocation, not one per growth
  std::size_t start = b;
  for (;;) {
    std::size_t at = scan_top(s, start, e, [&](std::size_t i) { return s[i] == sep; });
    std::size_t pb = start, pe = at;
    trim(s, pb, pe);
    c.parts.emplace_back(s.substr(pb, pe - pb));
    if (at == e) break;
    start = at + 1;
  }
}

// `intersection of A--B and C--D` or `intersection cs: first line={(A)--(B)}, second ...`.
void parse_intersection(Coordinate& c, std::string_view s, std::size_t b, std::size_t e,
                        std::uint32_t base, std::size_t depth) {
  c.form = Form::Intersection;
  std::size_t of = b + std::string_view("intersection").size();
  while (of < e && is_space(s[of])) ++of;
  if (starts_with_word(s, of, e, "of")) {
    std::size_t rest = of + 2;
    std::size_t mid = find_and(s, rest, e);
    if (mid == e) return;
    for (auto [lb, le] : {std::pair{rest, mid}, std::pair{mid + 3, e}}) {
      std::size_t dash = find_top(s, lb, le, "--");
      if (dash == le) {
        c.sub.clear();
        return;
      }
      c.sub.push_back(parse_operand(s, lb, dash, base, depth));
      c.sub.push_back(parse_operand(s, dash + 2, le, base, depth));
    }
    return;
  }
  // cs form: the parenthesised points of `first line={..}` and `second line={..}`, in order.
  std::vector<Coordinate> points;
  for (std::size_t i = b; i < e; ++i) {
    if (s[i] != '{') continue;
    std::size_t close = i + 1;
    for (std::size_t d = 1; close < e; ++close) {
      if (s[close] == '{') ++d;
      if (s[close] == '}' && --d == 0) break;
    }
    if (close >= e) break;
    for (Coordinate& p : parse_coordinate_list(s.substr(i + 1, close - i - 1), base + static_cast<std::uint32_t>(i + 1)))
      points.push_back(std::move(p));
    i = close;
  }
  if (points.size() == 4) c.sub = std::move(points);
}

Coordinate parse_at(std::string_view s, std::size_t b, std::size_t e, std::uint32_t base,
                    std::size_t depth) {
  Coordinate c;
  c.raw = std::string(s.substr(b, e - b));
  c.span = span_at(base, b, e);
  if (depth > kMaxCoordinateNesting) return c;  // Raw: too deep to be a real coordinate
  trim(s, b, e);
  if (depth == 0 && e - b >= 2 && s[b] == '{' && s[e - 1] == '}' &&
      scan_top(s, b, e, [](std::size_t) { return true; }) == e) {
    ++b;  // `({2.5,0})`: TeX strips the braces around a delimited argument that is one group
    --e;
    trim(s, b, e);
  }

  // ([xshift=2pt] A.east): options first.
  if (b < e && s[b] == '[') {
    std::vector<char> stack;
    std::size_t len = balanced_group_length(s.substr(0, e), b, stack);
    if (len == 0) return c;
    std::size_t close = b + len;
    c.options = Options{std::string(s.substr(b + 1, close - 1 - (b + 1))), span_at(base, b, close)};
    b = close;
    trim(s, b, e);
  }
  if (b == e) return c;

  // One pass over the top level finds every separator that decides the form.
  std::size_t hv = e, vh = e, comma = e, colon = e, dot = e, cs = e;
  scan_top(s, b, e, [&](std::size_t i) {
    char ch = s[i];
    char next = i + 1 < e ? s[i + 1] : '\0';
    if (ch == '|' && next == '-' && hv == e) hv = i;
    if (ch == '-' && next == '|' && vh == e) vh = i;
    if (ch == ',' && comma == e) comma = i;
    if (ch == '.' && dot == e) dot = i;
    if (ch == ':' && colon == e) {
      colon = i;
      if (i >= b + 2 && s[i - 2] == 'c' && s[i - 1] == 's') cs = i;
    }
    return false;
  });

  if (hv < e || vh < e) {
    std::size_t at = hv < e ? hv : vh;
    c.form = Form::Perpendicular;
    c.hv = hv < e;
    c.sub.push_back(parse_operand(s, b, at, base, depth));
    c.sub.push_back(parse_operand(s, at + 2, e, base, depth));
    return c;
  }
  if (s[b] == '$') {
    // The whole text must be one $...$ group: nothing at top level outside it.
    if (e - b >= 2 && s[e - 1] == '$' && scan_top(s, b, e, [](std::size_t) { return true; }) == e) {
      c.form = Form::Calc;
      c.raw = std::string(s.substr(b + 1, e - 1 - (b + 1)));
    }
    return c;
  }
  if (starts_with_word(s, b, e, "intersection")) {
    parse_intersection(c, s, b, e, base, depth);
    return c;
  }
  // (name cs: ...) coordinate systems and let registers (\p1) stay raw; (\x,{\x^2}) does not.
  if (cs < e) return c;
  if (s[b] == '\\' && comma == e && colon == e) return c;
  if (comma < e) {
    split_parts(c, s, b, e, ',');
    if (c.parts.size() == 2 || c.parts.size() == 3) {
      c.form = Form::Cartesian;
    } else {
      c.parts.clear();
    }
    return c;
  }
  if (colon < e) {
    std::size_t ab = b, ae = colon;
    trim(s, ab, ae);
    c.parts.emplace_back(s.substr(ab, ae - ab));
    std::size_t rb = colon + 1, re = e;
    if (scan_top(s, rb, re, [&](std::size_t i) { return s[i] == ':'; }) < re) {
      c.parts.clear();
      return c;  // (a:b:c) is not a coordinate
    }
    if (std::size_t andp = find_and(s, rb, re); andp < re) {
      std::size_t xb = rb, xe = andp, yb = andp + 3, ye = re;
      trim(s, xb, xe);
      trim(s, yb, ye);
      c.parts.emplace_back(s.substr(xb, xe - xb));
      c.parts.emplace_back(s.substr(yb, ye - yb));
    } else {
      trim(s, rb, re);
      c.parts.emplace_back(s.substr(rb, re - rb));
    }
    c.form = Form::Polar;
    return c;
  }
  // Named node or coordinate; TikZ splits the anchor off at the first '.'.
  std::size_t nb = b, ne = dot;
  trim(s, nb, ne);
  if (nb == ne) return c;
  c.form = Form::Named;
  c.name = std::string(s.substr(nb, ne - nb));
  if (dot < e) {
    std::size_t ab = dot + 1, ae = e;
    trim(s, ab, ae);
    c.anchor = std::string(s.substr(ab, ae - ab));
  }
  return c;
}

}  // namespace

Coordinate parse_coordinate(std::string_view inner, std::uint32_t base) {
  return parse_at(inner, 0, inner.size(), base, 0);
}

std::vector<Coordinate> parse_coordinate_list(std::string_view text, std::uint32_t base) {
  std::vector<Coordinate> out;
  std::vector<char> stack;
  std::size_t i = 0;
  while (i < text.size()) {
    char c = text[i];
    if (c == '\\') {
      i += 2;
      continue;
    }
    if (c == '{' || c == '[') {  // skip a whole group: `{(1,2)}` is not a list item here
      std::size_t len = balanced_group_length(text, i, stack);
      i += len == 0 ? 1 : len;
      continue;
    }
    if (c != '(') {
      ++i;
      continue;
    }
    std::size_t start = i;
    if (start >= 2 && text.substr(start - 2, 2) == "++") {
      start -= 2;
    } else if (start >= 1 && text[start - 1] == '+') {
      start -= 1;
    }
    std::size_t len = balanced_group_length(text, i, stack);
    if (len == 0) break;  // unbalanced: nothing more to read
    std::size_t j = i + len - 1;
    Coordinate coord = parse_coordinate(text.substr(i + 1, j - i - 1), base + static_cast<std::uint32_t>(i + 1));
    coord.relative = start == i ? Coordinate::Relative::None
                     : i - start == 2 ? Coordinate::Relative::PlusPlus
                                      : Coordinate::Relative::Plus;
    coord.span = span_at(base, start, j + 1);
    out.push_back(std::move(coord));
    i = j + 1;
  }
  return out;
}

namespace {

// A TeX dimension unit at the end of a calc amount makes `!..!` a distance, not a fraction.
bool ends_in_unit(std::string_view a) {
  static constexpr std::string_view kUnits[] = {"pt", "cm", "mm", "in", "bp", "ex", "em",
                                                "sp", "pc", "dd", "cc"};
  while (!a.empty() && (a.back() == '}' || is_space(a.back()))) a.remove_suffix(1);
  for (std::string_view u : kUnits)
    if (a.size() >= u.size() && a.substr(a.size() - u.size()) == u) return true;
  return false;
}

// Reads calc text left to right; every helper returns false on anything unexpected.
class CalcReader {
 public:
  CalcReader(std::string_view s, std::uint32_t base) : s_(s), base_(base) {}

  std::optional<CalcExpr> read() {
    CalcExpr expr;
    skip();
    while (i_ < s_.size()) {
      CalcTerm term;
      std::size_t start = i_;
      if (!expr.terms.empty() || s_[i_] == '-' || s_[i_] == '+') {
        if (s_[i_] != '+' && s_[i_] != '-') return std::nullopt;
        term.negate = s_[i_] == '-';
        ++i_;
        skip();
      }
      if (i_ < s_.size() && s_[i_] != '(') {
        // factor*(A): the factor runs to the '*' at top level.
        std::size_t star = scan_top(s_, i_, s_.size(), [&](std::size_t k) { return s_[k] == '*'; });
        if (star == s_.size()) return std::nullopt;
        std::size_t fb = i_, fe = star;
        trim(s_, fb, fe);
        term.factor = std::string(s_.substr(fb, fe - fb));
        i_ = star + 1;
        skip();
      }
      if (!paren(term.point)) return std::nullopt;
      while (true) {
        skip();
        if (i_ >= s_.size() || s_[i_] != '!') break;
        CalcModifier m;
        if (!modifier(m)) return std::nullopt;
        term.modifiers.push_back(std::move(m));
      }
      term.span = span_at(base_, start, i_);
      expr.terms.push_back(std::move(term));
      skip();
    }
    if (expr.terms.empty()) return std::nullopt;
    return expr;
  }

 private:
  std::string_view s_;
  std::uint32_t base_;
  std::size_t i_ = 0;
  std::vector<char> stack_;

  void skip() {
    while (i_ < s_.size() && is_space(s_[i_])) ++i_;
  }

  // A balanced (...) at i_, parsed as a coordinate.
  bool paren(Coordinate& out) {
    if (i_ >= s_.size() || s_[i_] != '(') return false;
    std::size_t len = balanced_group_length(s_, i_, stack_);
    if (len == 0) return false;
    std::size_t j = i_ + len - 1;
    out = parse_coordinate(s_.substr(i_ + 1, j - i_ - 1), base_ + static_cast<std::uint32_t>(i_ + 1));
    out.span = span_at(base_, i_, j + 1);
    i_ = j + 1;
    return true;
  }

  // !t!(B), !t!angle:(B), !(P)!(B)
  bool modifier(CalcModifier& m) {
    ++i_;  // the first '!'
    skip();
    if (i_ < s_.size() && s_[i_] == '(') {
      m.kind = CalcModifier::Kind::Projection;
      if (!paren(m.through)) return false;
      skip();
      if (i_ >= s_.size() || s_[i_] != '!') return false;
    } else {
      std::size_t bang = scan_top(s_, i_, s_.size(), [&](std::size_t k) { return s_[k] == '!'; });
      if (bang == s_.size()) return false;
      std::size_t ab = i_, ae = bang;
      trim(s_, ab, ae);
      m.amount = std::string(s_.substr(ab, ae - ab));
      m.kind = ends_in_unit(m.amount) ? CalcModifier::Kind::Distance : CalcModifier::Kind::Partway;
      i_ = bang;
    }
    ++i_;  // the second '!'
    skip();
    if (i_ < s_.size() && s_[i_] != '(') {
      std::size_t colon = scan_top(s_, i_, s_.size(), [&](std::size_t k) { return s_[k] == ':' || s_[k] == '('; });
      if (colon == s_.size() || s_[colon] != ':') return false;
      std::size_t ab = i_, ae = colon;
      trim(s_, ab, ae);
      m.angle = std::string(s_.substr(ab, ae - ab));
      i_ = colon + 1;
      skip();
    }
    return paren(m.target);
  }
};

}  // namespace

std::optional<CalcExpr> parse_calc(std::string_view text, std::uint32_t base) {
  return CalcReader(text, base).read();
}

}  // namespace tikzlint::grammar
