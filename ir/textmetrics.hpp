// ir/textmetrics.hpp: the size of a node's text as TeX would typeset it.
// One interface: lowering asks only this; the implementation uses font metric tables.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace tikzlint::ir {

struct FontSpec {
  double size_pt = 10;      // nominal size after \small, font=, scale...
  std::string family = "lmr";  // "lmr" (Latin Modern / CM), "lmss" (its sans), "opensans" (IM class)
  bool bold = false, italic = false;
  double base_size_pt = 0;  // the class's \normalsize (for \small... inside the text); 0 = the family's default
};

struct TextBox {
  double width = 0, height = 0, depth = 0;  // pt
  double uncertainty = 0;                   // pt; grows with unknown commands or glyphs
  int lines = 1;
};

// `text` is the node's text after macro expansion (may hold $math$, \textbf, \\ ...).
// `text_width` > 0 wraps at that width (text width=); `align` is "left"/"center"/"right"/"".
TextBox measure_text(std::string_view text, const FontSpec& font, double text_width = 0);

// Node text that is one box LaTeX builds (ir/textboxes.cpp): `\parbox[pos]{w}{..}`,
// `\begin{minipage}[pos]{w}..\end{minipage}` or `\begin{tabular}[pos]{l c r p{w} |}..\end{tabular}`,
// sized as LaTeX sizes it; nullopt for anything else or a part it does not read (a width of the
// page such as \textwidth, \multicolumn, @{} columns...).
std::optional<TextBox> measure_latex_box(std::string_view text, const FontSpec& font);

// Font-size commands (\tiny ... \Huge) relative to the class base size (10, 11 or 12pt).
double font_size_for_command(std::string_view command, double base_size_pt);

// The font family FontSpec.family should name for a document class: "opensans" for the IM class
// (Open Sans at 12pt scaled 0.95, sansmath), "lmr" otherwise.
std::string_view font_family_for_class(std::string_view document_class);
// The class's base size: 12 for IM; 10/10.95/12 from the 10pt/11pt/12pt class options.
double class_base_size(std::string_view document_class, std::string_view class_options);
// LaTeX's \baselineskip for a font size (size10/11/12.clo; 1.2 x size elsewhere).
double baselineskip_for_size(double size_pt);
// The font's em (\fontdimen6, quad) and ex (\fontdimen5): what TikZ's "inner sep=.3333em"
// and "1ex" mean in a node of this font. Open Sans at 12pt is loaded at 11.4pt, so its em is 11.4pt.
double font_quad_pt(const FontSpec& font);
double font_xheight_pt(const FontSpec& font);

}  // namespace tikzlint::ir
