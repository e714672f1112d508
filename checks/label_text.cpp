#include "checks/label_text.hpp"

#include <array>
#include <cctype>
#include <regex>
#include <utility>

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

std::string collapse_spaces(const std::string& s) {
  std::string out;
  for (char c : s) {
    bool space = std::isspace(static_cast<unsigned char>(c)) != 0;
    if (space) {
      if (!out.empty() && out.back() != ' ') out.push_back(' ');
    } else {
      out.push_back(c);
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out;
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

LabelText read_label(std::string_view tex) {
  LabelText t;
  t.plain = plain_text(tex);
  const std::string& s = t.plain;
  if (s.empty()) return t;

  static const std::regex number_before_degree(R"((-?\d+(?:\.\d+)?)\s*°)");
  if (s.find("°") != std::string::npos) {
    t.kind = LabelKind::angle;
    std::smatch m;
    if (std::regex_search(s, m, number_before_degree)) t.value = std::stod(m[1].str());
    return t;
  }

  // An optional name or "Area" before '=' or ':', a number (decimal or a/b), an optional unit,
  // an optional square marker. Anchored: "3 × 9 = 27" and "7×4×5 cm" are not lengths.
  static const std::regex measure(
      R"(^(?:([A-Za-z][A-Za-z0-9']{0,9})\s*[=:]\s*)?(\d+(?:\.\d+)?|\.\d+|\d+\s*/\s*\d+)\s*)"
      R"(((?:sq\.?|square)\s+)?([A-Za-z]+)?\s*(²|\^2)?\.?$)");
  std::smatch m;
  if (std::regex_match(s, m, measure)) {
    std::string prefix = m[1].str(), number = m[2].str(), square = m[3].str(), unit = m[4].str();
    bool squared = m[5].matched || !square.empty();
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
      t.kind = (squared || area_prefix) ? LabelKind::area : LabelKind::length;
      return t;
    }
  }

  // A short identifier: vertex, side or angle name ("A", "B'", "h1", "AB", "θ").
  // Words ("Cube", "Left") are captions, not names.
  static const std::regex identifier(
      R"(^(?:[A-Za-z]'{0,2}|[A-Za-z][0-9]{1,2}'?|[A-Z]{2,3}'?|α|β|γ|θ|φ|δ|∠ ?[A-Z]{1,3})$)");
  if (std::regex_match(s, identifier)) {
    bool greek = s.rfind("α", 0) == 0 || s.rfind("β", 0) == 0 || s.rfind("γ", 0) == 0 ||
                 s.rfind("θ", 0) == 0 || s.rfind("φ", 0) == 0 || s.rfind("δ", 0) == 0 ||
                 s.rfind("∠", 0) == 0;
    t.kind = greek ? LabelKind::angle : LabelKind::name;
    return t;
  }
  t.kind = LabelKind::text;
  return t;
}

}  // namespace tikzlint::checks
