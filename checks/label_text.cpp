#include "checks/label_text.hpp"

#include <array>
#include <cctype>
#include <utility>

#include "support/ascii.hpp"

namespace tikzlint::checks {

const char* to_string(LabelKind k) {
  switch (k) {
    case LabelKind::angle: return "angle";
    case LabelKind::length: return "length";
    case LabelKind::area: return "area";
    case LabelKind::name: return "name";
    case LabelKind::text: return "text";
  }
  return "text";
}

namespace {

// Commands whose output is a symbol a reader sees; every other control word is markup.
constexpr std::array<std::pair<std::string_view, std::string_view>, 20> kSymbols{{
    {"circ", "°"}, {"degree", "°"}, {"textdegree", "°"}, {"times", "×"}, {"cdot", "·"},
    {"alpha", "α"}, {"beta", "β"}, {"gamma", "γ"}, {"theta", "θ"}, {"phi", "φ"},
    {"varphi", "φ"}, {"delta", "δ"}, {"angle", "∠"}, {"measuredangle", "∠"}, {"pi", "π"},
    {"prime", "'"}, {"ldots", "..."}, {"dots", "..."}, {"approx", "≈"}, {"div", "÷"},
}};

bool is_letter(char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; }

// The content of a braced group starting at s[i] == '{'; advances i past the group.
std::string_view braced(std::string_view s, std::size_t& i) {
  if (i >= s.size() || s[i] != '{') return {};
  int depth = 0;
  std::size_t start = i + 1;
  for (; i < s.size(); ++i) {
    if (s[i] == '{') ++depth;
    if (s[i] == '}' && --depth == 0) break;
  }
  std::string_view inner = s.substr(start, i - start);
  if (i < s.size()) ++i;
  return inner;
}


struct Unit {
  std::string_view name;
  double metres;
};
constexpr std::array<Unit, 22> kUnits{{
    {"mm", 0.001}, {"cm", 0.01}, {"m", 1}, {"km", 1000}, {"in", 0.0254}, {"inch", 0.0254},
    {"inches", 0.0254}, {"ft", 0.3048}, {"feet", 0.3048}, {"foot", 0.3048}, {"yd", 0.9144},
    {"yard", 0.9144}, {"yards", 0.9144}, {"meters", 1}, {"meter", 1}, {"metres", 1},
    {"centimeters", 0.01}, {"centimetres", 0.01}, {"millimeters", 0.001}, {"units", 0},
    {"unit", 0}, {"u", 0},
}};

}  // namespace

std::string plain_text(std::string_view s) {
  std::string out;
  for (std::size_t i = 0; i < s.size();) {
    char c = s[i];
    if (c == '$' || c == '{' || c == '}') {
      ++i;
    } else if (c == '~') {
      out += ' ';
      ++i;
    } else if (c == '^' || c == '_') {
      ++i;
      std::string sub;
      if (i < s.size() && s[i] == '{') {
        sub = plain_text(braced(s, i));
      } else if (i < s.size() && s[i] == '\\') {
        std::size_t j = i + 1;
        while (j < s.size() && is_letter(s[j])) ++j;
        sub = plain_text(s.substr(i, j - i));
        i = j;
      } else if (i < s.size()) {
        sub = std::string(1, s[i++]);
      }
      if (c == '^' && sub == "2") out += "²";
      else if (c == '^' && sub == "3") out += "³";
      else out += sub;
    } else if (c == '\\') {
      std::size_t j = i + 1;
      while (j < s.size() && is_letter(s[j])) ++j;
      std::string_view word = s.substr(i + 1, j - i - 1);
      if (word.empty()) {  // control symbol: \, \; \  \\ \% \$
        char sym = j < s.size() ? s[j] : ' ';
        out += (sym == '%' || sym == '$' || sym == '&' || sym == '#') ? std::string(1, sym) : " ";
        i = j + 1;
        continue;
      }
      i = j;
      if (word == "frac" || word == "dfrac" || word == "tfrac") {
        while (i < s.size() && s[i] == ' ') ++i;
        std::string num = plain_text(braced(s, i));
        while (i < s.size() && s[i] == ' ') ++i;
        std::string den = plain_text(braced(s, i));
        out += num + "/" + den;
        continue;
      }
      bool symbol = false;
      for (const auto& [name, text] : kSymbols)
        if (word == name) {
          out += text;
          symbol = true;
        }
      (void)symbol;  // markup commands (\textbf, \small, \mathrm...) vanish, their argument stays
    } else {
      out += c;
      ++i;
    }
  }
  return collapse_spaces(out);
}

namespace label_patterns {
namespace {

// The classes of std::regex in the "C" locale (ECMAScript \s and \d; bytes >= 0x80 are none).
bool space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'; }
bool digit(char c) { return c >= '0' && c <= '9'; }
bool alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool upper(char c) { return c >= 'A' && c <= 'Z'; }

std::size_t skip(std::string_view s, std::size_t i, bool (*cls)(char)) {
  while (i < s.size() && cls(s[i])) ++i;
  return i;
}

bool at(std::string_view s, std::size_t i, std::string_view w) { return s.substr(std::min(i, s.size()), w.size()) == w; }

// From the end of the number: \s*(((?:sq\.?|square)\s+)?([A-Za-z]+)?\s*(²|\^2)?\.?$ .
// Backtracking into fewer spaces or letters never helps: the next character would then be a
// space or a letter, which only the same greedy path can consume. So the first match in the
// regex's order tries the square word's spellings in order, each with all its spaces, then none.
bool tail(std::string_view s, std::size_t p, Measure& m) {
  const std::size_t n = s.size();
  auto after_unit = [&](std::size_t u) {
    std::size_t b = skip(s, u, space);
    for (std::string_view sq : {std::string_view("²"), std::string_view("^2")})
      if (at(s, b, sq)) {
        std::size_t x = b + sq.size();
        if (x == n || (x + 1 == n && s[x] == '.')) {
          m.squared = true;
          return true;
        }
      }
    if (b == n || (b + 1 == n && s[b] == '.')) {
      m.squared = false;
      return true;
    }
    return false;
  };
  auto after_square = [&](std::size_t q) {
    std::size_t u = skip(s, q, alpha);
    if (u > q && after_unit(u)) {
      m.unit = std::string(s.substr(q, u - q));
      return true;
    }
    if (after_unit(q)) {
      m.unit.clear();
      return true;
    }
    return false;
  };
  const std::size_t a = skip(s, p, space);
  std::size_t ends[3];
  int count = 0;
  if (at(s, a, "sq")) {
    if (at(s, a + 2, ".")) ends[count++] = a + 3;
    ends[count++] = a + 2;
  }
  if (at(s, a, "square")) ends[count++] = a + 6;
  for (int k = 0; k < count; ++k) {
    std::size_t q = skip(s, ends[k], space);
    if (q > ends[k] && after_square(q)) {
      m.square = std::string(s.substr(a, q - a));
      return true;
    }
  }
  if (after_square(a)) {
    m.square.clear();
    return true;
  }
  return false;
}

}  // namespace

std::optional<std::string> number_before_degree(std::string_view s) {
  for (std::size_t i = 0; i < s.size(); ++i) {
    std::size_t p = s[i] == '-' ? i + 1 : i;
    std::size_t d = skip(s, p, digit);
    if (d == p) continue;
    if (d + 1 < s.size() && s[d] == '.' && digit(s[d + 1])) d = skip(s, d + 1, digit);
    if (at(s, skip(s, d, space), "°")) return std::string(s.substr(i, d - i));
  }
  return std::nullopt;
}

std::optional<Measure> measure(std::string_view s) {
  // ^(?:([A-Za-z][A-Za-z0-9']{0,9})\s*[=:]\s*)?(\d+(?:\.\d+)?|\.\d+|\d+\s*/\s*\d+)\s*  then tail().
  // Each piece is greedy and a shorter run leaves a character the next piece cannot start with,
  // so only the alternatives themselves are tried in order.
  Measure m;
  for (int with_prefix = 1; with_prefix >= 0; --with_prefix) {
    std::size_t p = 0;
    m.prefix.clear();
    if (with_prefix) {
      if (s.empty() || !alpha(s[0])) continue;
      std::size_t k = 1;
      while (k < s.size() && k < 10 && (alpha(s[k]) || digit(s[k]) || s[k] == '\'')) ++k;
      std::size_t eq = skip(s, k, space);
      if (eq >= s.size() || (s[eq] != '=' && s[eq] != ':')) continue;
      m.prefix = std::string(s.substr(0, k));
      p = skip(s, eq + 1, space);
    }
    auto try_number = [&](std::size_t end) {
      if (!tail(s, end, m)) return false;
      m.number = std::string(s.substr(p, end - p));
      return true;
    };
    const std::size_t d = skip(s, p, digit);
    if (d > p) {  // \d+(?:\.\d+)?
      if (d + 1 < s.size() && s[d] == '.' && digit(s[d + 1]) && try_number(skip(s, d + 1, digit))) return m;
      if (try_number(d)) return m;
    }
    if (p + 1 < s.size() && s[p] == '.' && digit(s[p + 1]) && try_number(skip(s, p + 1, digit))) return m;  // \.\d+
    if (d > p) {  // \d+\s*/\s*\d+
      std::size_t slash = skip(s, d, space);
      if (slash < s.size() && s[slash] == '/') {
        std::size_t q = skip(s, slash + 1, space);
        std::size_t e = skip(s, q, digit);
        if (e > q && try_number(e)) return m;
      }
    }
  }
  return std::nullopt;
}

bool identifier(std::string_view s) {
  // ^(?:[A-Za-z]'{0,2}|[A-Za-z][0-9]{1,2}'?|[A-Z]{2,3}'?|α|β|γ|θ|φ|δ|∠ ?[A-Z]{1,3})$
  const std::size_t n = s.size();
  if (n >= 1 && alpha(s[0])) {
    if (n <= 3 && skip(s, 1, [](char c) { return c == '\''; }) == n) return true;
    std::size_t d = skip(s, 1, digit) - 1;
    if ((d == 1 || d == 2) && (n == 1 + d || (n == 2 + d && s[1 + d] == '\''))) return true;
    std::size_t u = skip(s, 0, upper);
    for (std::size_t k : {std::size_t{2}, std::size_t{3}})
      if (k <= u && (n == k || (n == k + 1 && s[k] == '\''))) return true;
    return false;
  }
  for (std::string_view g : {"α", "β", "γ", "θ", "φ", "δ"})
    if (s == g) return true;
  if (at(s, 0, "∠")) {
    std::size_t i = 3;
    if (at(s, i, " ")) ++i;
    std::size_t u = skip(s, i, upper);
    return u == n && u > i && u - i <= 3;
  }
  return false;
}

}  // namespace label_patterns

LabelText read_label(std::string_view tex) {
  LabelText t;
  t.plain = plain_text(tex);
  const std::string& s = t.plain;
  if (s.empty()) return t;

  if (s.find("°") != std::string::npos) {
    t.kind = LabelKind::angle;
    if (auto number = label_patterns::number_before_degree(s)) t.value = std::stod(*number);
    return t;
  }

  // An optional name or "Area" before '=' or ':', a number (decimal or a/b), an optional unit,
  // an optional square marker. Anchored: "3 × 9 = 27" and "7×4×5 cm" are not lengths.
  // (the pattern: label_patterns::measure)
  if (auto m = label_patterns::measure(s)) {
    std::string prefix = m->prefix, number = m->number, square = m->square, unit = m->unit;
    bool squared = m->squared || !square.empty();
    bool unit_ok = unit.empty();
    for (const Unit& u : kUnits)
      if (unit == u.name) {
        unit_ok = true;
        t.unit_in_m = u.metres;
      }
    bool area_prefix = prefix == "A" || prefix == "Area" || prefix == "area" || prefix == "S";
    bool other_measure = prefix == "P" || prefix == "V" || prefix == "Perimeter" || prefix == "Volume";
    if (unit_ok && !other_measure) {
      auto slash = number.find('/');
      double v = slash == std::string::npos
                     ? std::stod(number)
                     : std::stod(number.substr(0, slash)) / std::max(1.0, std::stod(number.substr(slash + 1)));
      t.value = v;
      t.unit = unit;
      t.prefix = prefix;
      t.kind = (squared || area_prefix) ? LabelKind::area : LabelKind::length;
      return t;
    }
  }

  // A short identifier: vertex, side or angle name ("A", "B'", "h1", "AB", "θ").
  // Words ("Cube", "Left") are captions, not names.
  if (label_patterns::identifier(s)) {
    bool greek = s.rfind("α", 0) == 0 || s.rfind("β", 0) == 0 || s.rfind("γ", 0) == 0 ||
                 s.rfind("θ", 0) == 0 || s.rfind("φ", 0) == 0 || s.rfind("δ", 0) == 0 ||
                 s.rfind("∠", 0) == 0;
    t.kind = greek ? LabelKind::angle : LabelKind::name;
    return t;
  }
  // A capital letter with a lower-case index, set wholly in math mode ("$Ge$", "$I_a$", "$M_b'$"):
  // a point's name, as tkz-euclide names a triangle's centres and feet. Mathematics sets words
  // in text mode; letters in math italic are symbols. ("Ge" in text mode stays a word.)
  {
    std::string_view raw = tex;
    while (!raw.empty() && std::isspace(static_cast<unsigned char>(raw.front()))) raw.remove_prefix(1);
    while (!raw.empty() && std::isspace(static_cast<unsigned char>(raw.back()))) raw.remove_suffix(1);
    const bool math = raw.size() >= 3 && raw.front() == '$' && raw.back() == '$' &&
                      raw.find("\\text") == std::string_view::npos && raw.find("\\math") == std::string_view::npos;
    std::size_t n = s.size();
    while (n > 0 && s[n - 1] == '\'') --n;
    if (math && n == 2 && s.size() - n <= 2 && std::isupper(static_cast<unsigned char>(s[0])) &&
        std::islower(static_cast<unsigned char>(s[1]))) {
      t.kind = LabelKind::name;
      return t;
    }
  }
  t.kind = LabelKind::text;
  return t;
}

}  // namespace tikzlint::checks
