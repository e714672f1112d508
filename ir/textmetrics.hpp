// ir/textmetrics.hpp: the size of a node's text as TeX would typeset it.
// One interface: lowering asks only this; the implementation uses font metric tables.
#pragma once
#include <string>
#include <string_view>

namespace tikzlint::ir {

struct FontSpec {
  double size_pt = 10;      // nominal size after \small, font=, scale...
  std::string family = "lmr";  // "lmr" (Latin Modern / CM), "opensans", ...
  bool bold = false, italic = false;
};

struct TextBox {
  double width = 0, height = 0, depth = 0;  // pt
  double uncertainty = 0;                   // pt; grows with unknown commands or glyphs
  int lines = 1;
};

// `text` is the node's text after macro expansion (may hold $math$, \textbf, \\ ...).
// `text_width` > 0 wraps at that width (text width=); `align` is "left"/"center"/"right"/"".
TextBox measure_text(std::string_view text, const FontSpec& font, double text_width = 0);

// Font-size commands (\tiny ... \Huge) relative to the class base size (10, 11 or 12pt).
double font_size_for_command(std::string_view command, double base_size_pt);

}  // namespace tikzlint::ir
