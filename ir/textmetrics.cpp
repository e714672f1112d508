// ir/textmetrics.cpp: PROVISIONAL estimate until the generated font tables land (issue 5).
// Width = characters x average advance (0.5em, spaces 0.333em); height .683em (cap height of
// cmr10), depth 0; uncertainty 25% of the width, since per-character widths vary +-40%.
#include "ir/textmetrics.hpp"

#include <algorithm>
#include <array>

namespace tikzlint::ir {

TextBox measure_text(std::string_view text, const FontSpec& font, double text_width) {
  const double em = font.size_pt;
  double w = 0;
  for (unsigned char c : text) {
    if ((c & 0xC0) == 0x80) continue;  // UTF-8 continuation byte
    if (c == '\\' || c == '{' || c == '}' || c == '$' || c == '^' || c == '_') continue;
    w += (c == ' ') ? 0.333 * em : 0.5 * em;
  }
  TextBox b;
  b.width = (text_width > 0) ? std::min(w, text_width) : w;
  b.height = text.empty() ? 0 : 0.683 * em;
  b.depth = 0;
  b.uncertainty = 0.25 * w + 0.1 * em;
  return b;
}

double font_size_for_command(std::string_view command, double base_size_pt) {
  struct Row {
    std::string_view name;
    std::array<double, 3> size;  // for base 10, 11, 12pt (LaTeX size10/11/12.clo)
  };
  static constexpr std::array<Row, 10> kSizes{{
      {"tiny", {5, 6, 6}},
      {"scriptsize", {7, 8, 8}},
      {"footnotesize", {8, 9, 10}},
      {"small", {9, 10, 10.95}},
      {"normalsize", {10, 10.95, 12}},
      {"large", {12, 12, 14.4}},
      {"Large", {14.4, 14.4, 17.28}},
      {"LARGE", {17.28, 17.28, 20.74}},
      {"huge", {20.74, 20.74, 24.88}},
      {"Huge", {24.88, 24.88, 24.88}},
  }};
  if (!command.empty() && command.front() == '\\') command.remove_prefix(1);
  const int col = base_size_pt >= 11.5 ? 2 : base_size_pt >= 10.5 ? 1 : 0;
  for (const auto& r : kSizes)
    if (r.name == command) return r.size[col];
  return base_size_pt;
}

}  // namespace tikzlint::ir
