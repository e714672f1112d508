// ir/textboxes.cpp: node text that is one box of LaTeX's own making, sized as LaTeX builds it:
// \parbox, a minipage, a tabular. Everything inside is measured by measure_text (textmetrics.cpp).
//
// Sources: latex.ltx / ltboxes.dtx (\parbox, minipage: a \vbox of \hsize = the width, \parindent
// 0pt, placed by its [c]/[t]/[b] option; [c] is \vcenter, centred on the math axis) and
// ltxtab.dtx (tabular: each column \tabcolsep = 6pt on both sides; a `|` rule is
// \hskip-.5\arrayrulewidth \vline \hskip-.5\arrayrulewidth, no width, `||` \doublerulesep apart;
// every row at least the \strut of \arraystretch = 1 times .7\baselineskip above and
// .3\baselineskip below the baseline; \hline adds \arrayrulewidth). With the array package
// loaded a rule has its width: that is the box's uncertainty.
#include <algorithm>
#include <cctype>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/textmetrics.hpp"
#include "support/ascii.hpp"

namespace tikzlint::ir {
namespace {

constexpr double kTabColSep = 6.0;         // \tabcolsep (latex.ltx)
constexpr double kArrayRuleWidth = 0.4;    // \arrayrulewidth
constexpr double kDoubleRuleSep = 2.0;     // \doublerulesep (`||`)
constexpr double kStrutHeight = 0.7;       // \strut: .7\baselineskip above the baseline
constexpr double kStrutDepth = 0.3;        // and .3\baselineskip below
constexpr double kMathAxisPerEm = 0.25;    // cmsy10 \fontdimen22 (axis height) / its size

// The group starting at s[i] ('{' or '['), without its delimiters; i moves past it.
std::optional<std::string_view> group(std::string_view s, std::size_t& i, char open, char close) {
  while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
  if (i >= s.size() || s[i] != open) return std::nullopt;
  int depth = 0;
  for (std::size_t j = i; j < s.size(); ++j) {
    if (s[j] == '\\') {
      ++j;
      continue;
    }
    if (s[j] == '{' || (open == '[' && s[j] == '[')) ++depth;
    if (s[j] == '}' || (open == '[' && s[j] == ']')) --depth;
    if (depth == 0) {
      std::string_view inner = s.substr(i + 1, j - i - 1);
      i = j + 1;
      return inner;
    }
  }
  return std::nullopt;
}

// A width as \parbox and minipage take it: a number with a TeX unit (em/ex of the font).
std::optional<double> length_pt(std::string_view v, const FontSpec& font) {
  v = trim_ascii(v);
  std::size_t k = 0;
  while (k < v.size() && (std::isdigit(static_cast<unsigned char>(v[k])) || v[k] == '.' || v[k] == '-')) ++k;
  if (k == 0) return std::nullopt;
  double n = 0;
  try {
    n = std::stod(std::string(v.substr(0, k)));
  } catch (...) {
    return std::nullopt;
  }
  const std::string_view unit = trim_ascii(v.substr(k));
  struct Unit {
    std::string_view name;
    double pt;
  };
  static constexpr Unit kUnits[] = {{"pt", 1.0},           {"cm", 72.27 / 2.54},  {"mm", 72.27 / 25.4},
                                    {"in", 72.27},         {"bp", 72.27 / 72.0},  {"pc", 12.0}};
  for (const Unit& u : kUnits)
    if (unit == u.name) return n * u.pt;
  if (unit == "em") return n * font_quad_pt(font);
  if (unit == "ex") return n * font_xheight_pt(font);
  return std::nullopt;  // \textwidth, \linewidth...: lengths of the page, unknown here
}

// Split at a delimiter that stands outside braces (`&` in a row, `\\` between rows).
std::vector<std::string_view> split_top(std::string_view s, std::string_view delim) {
  std::vector<std::string_view> out;
  int depth = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (depth == 0 && s.substr(i, delim.size()) == delim) {
      out.push_back(s.substr(start, i - start));
      i += delim.size() - 1;
      start = i + 1;
    } else if (s[i] == '\\') {
      ++i;  // an escaped character (\&, \{) or a control word's first letter
    } else if (s[i] == '{') {
      ++depth;
    } else if (s[i] == '}') {
      --depth;
    }
  }
  out.push_back(s.substr(start));
  return out;
}

// A paragraph box of width w: lines broken at w, no indentation (\@parboxrestore), placed by
// its position letter.
TextBox paragraph_box(std::string_view body, double w, char pos, const FontSpec& font) {
  TextBox lines = measure_text(body, font, w);  // wrapped: height = first line, depth = the rest
  TextBox b = lines;
  b.width = w;
  const double total = lines.height + lines.depth;
  if (pos == 't') return b;  // the first line's baseline
  if (pos == 'b') {
    // the last line's baseline: its depth below, the rest above
    const double last_depth = lines.lines > 1 ? 0.3 * baselineskip_for_size(font.size_pt) : lines.depth;
    b.depth = std::min(total, last_depth);
    b.height = total - b.depth;
    if (lines.lines > 1) b.uncertainty += 0.3 * baselineskip_for_size(font.size_pt);
    return b;
  }
  const double axis = kMathAxisPerEm * font.size_pt;  // [c]: \vcenter
  b.height = total / 2 + axis;
  b.depth = total / 2 - axis;
  return b;
}

std::optional<TextBox> tabular_box(std::string_view spec, std::string_view body, char pos, const FontSpec& font) {
  // columns: l c r, p{w}; rules | and ||. Anything else (@{}, >{}, *{}, m{}, X...) is not read.
  struct Column {
    char align = 'l';
    double fixed = 0;  // p{w}
  };
  std::vector<Column> cols;
  double rules = 0, array_rules = 0;
  for (std::size_t i = 0; i < spec.size();) {
    const char c = spec[i];
    if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == 'l' || c == 'c' || c == 'r') {
      cols.push_back({c, 0});
      ++i;
    } else if (c == 'p') {
      ++i;
      auto w = group(spec, i, '{', '}');
      if (!w) return std::nullopt;
      auto pt = length_pt(*w, font);
      if (!pt) return std::nullopt;
      cols.push_back({'p', *pt});
    } else if (c == '|') {
      array_rules += kArrayRuleWidth;  // what array.sty would add
      if (i + 1 < spec.size() && spec[i + 1] == '|') rules += kDoubleRuleSep;  // \doublerulesep between
      ++i;
    } else {
      return std::nullopt;
    }
  }
  if (cols.empty()) return std::nullopt;
  const double skip = baselineskip_for_size(font.size_pt);
  std::vector<double> widths(cols.size(), 0.0);
  for (std::size_t k = 0; k < cols.size(); ++k) widths[k] = cols[k].fixed;
  double total = 0, uncertainty = 0;
  std::vector<std::string_view> rows = split_top(body, "\\\\");
  for (std::size_t r = 0; r < rows.size(); ++r) {
    std::string_view row = trim_ascii(rows[r]);
    // rules between rows: each \hline adds its width; \cline draws over the row (net nothing)
    for (;;) {
      if (row.starts_with("\\hline")) {
        total += kArrayRuleWidth;
        row = trim_ascii(row.substr(6));
      } else if (row.starts_with("\\cline")) {
        std::size_t i = 6;
        if (!group(row, i, '{', '}')) return std::nullopt;
        row = trim_ascii(row.substr(i));
      } else if (row.starts_with("[")) {
        // \\[len] after the previous row: extra depth
        std::size_t i = 0;
        auto len = group(row, i, '[', ']');
        auto pt = len ? length_pt(*len, font) : std::nullopt;
        if (!pt) return std::nullopt;
        total += *pt;
        row = trim_ascii(row.substr(i));
      } else {
        break;
      }
    }
    if (row.empty() && r + 1 == rows.size()) break;  // `\\` after the last row: no row
    std::vector<std::string_view> cells = split_top(row, "&");
    if (cells.size() > cols.size()) return std::nullopt;
    double h = kStrutHeight * skip, d = kStrutDepth * skip;
    for (std::size_t k = 0; k < cells.size(); ++k) {
      std::string_view cell = trim_ascii(cells[k]);
      if (cell.find("\\multicolumn") != std::string_view::npos || cell.find("\\multirow") != std::string_view::npos)
        return std::nullopt;
      if (cell.empty()) continue;
      TextBox t = cols[k].fixed > 0 ? measure_text(cell, font, cols[k].fixed) : measure_text(cell, font);
      if (cols[k].fixed <= 0) widths[k] = std::max(widths[k], t.width);
      h = std::max(h, t.height);
      d = std::max(d, t.depth);
      // a p column's last line ends with a \strut too (ltxtab \@finalstrut)
      if (cols[k].fixed > 0 && t.lines > 1) d = std::max(d, (t.lines - 1 + kStrutDepth) * skip);
      uncertainty = std::max(uncertainty, t.uncertainty);
    }
    total += h + d;
  }
  TextBox b;
  b.width = rules;
  for (double w : widths) b.width += w + 2 * kTabColSep;
  b.uncertainty = uncertainty + array_rules;
  b.lines = static_cast<int>(rows.size());
  const double axis = kMathAxisPerEm * font.size_pt;
  if (pos == 't' || pos == 'b') b.uncertainty += 0.5 * skip;  // the baseline of the first/last row
  b.height = total / 2 + axis;
  b.depth = total / 2 - axis;
  return b;
}

}  // namespace

std::optional<TextBox> measure_latex_box(std::string_view text, const FontSpec& font) {
  text = trim_ascii(text);
  std::size_t i = 0;
  char pos = 'c';
  auto position = [&]() -> bool {  // an optional [c]/[t]/[b]
    std::size_t save = i;
    if (auto p = group(text, i, '[', ']')) {
      std::string_view v = trim_ascii(*p);
      if (v.size() != 1 || (v[0] != 'c' && v[0] != 't' && v[0] != 'b')) return false;
      pos = v[0];
    } else {
      i = save;
    }
    return true;
  };
  if (text.starts_with("\\parbox")) {
    i = 7;
    if (!position()) return std::nullopt;
    auto w = group(text, i, '{', '}');
    if (!w) return std::nullopt;
    auto body = group(text, i, '{', '}');
    if (!body || !trim_ascii(text.substr(i)).empty()) return std::nullopt;
    auto pt = length_pt(*w, font);
    if (!pt || *pt <= 0) return std::nullopt;
    return paragraph_box(*body, *pt, pos, font);
  }
  for (std::string_view env : {std::string_view("minipage"), std::string_view("tabular")}) {
    const std::string begin = "\\begin{" + std::string(env) + "}";
    const std::string end = "\\end{" + std::string(env) + "}";
    if (!text.starts_with(begin) || !text.ends_with(end)) continue;
    std::string_view inner = text.substr(0, text.size() - end.size());
    i = begin.size();
    if (!position()) return std::nullopt;
    auto arg = group(inner, i, '{', '}');
    if (!arg) return std::nullopt;
    std::string_view body = inner.substr(i);
    if (body.find(begin) != std::string_view::npos) return std::nullopt;  // nested: not read
    if (env == "minipage") {
      auto pt = length_pt(*arg, font);
      if (!pt || *pt <= 0) return std::nullopt;
      return paragraph_box(body, *pt, pos, font);
    }
    return tabular_box(*arg, body, pos, font);
  }
  return std::nullopt;
}

}  // namespace tikzlint::ir
