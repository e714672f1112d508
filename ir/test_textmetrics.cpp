// Unit tests of ir::measure_text. Expected figures are what lualatex measured for the same
// text (tools/tex-diff metrics fixtures/metrics/strings.tsv), to 0.01pt.
#include <doctest/doctest.h>

#include "ir/textmetrics.hpp"

using namespace tikzlint::ir;

namespace {
FontSpec lmr(double size = 10) { return FontSpec{size, "lmr", false, false}; }
FontSpec opensans(double size = 12) { return FontSpec{size, "opensans", false, false}; }
constexpr double kTeX = 0.01;  // pt
}  // namespace

TEST_CASE("plain text in Latin Modern has TeX's width, height and depth") {
  TextBox b = measure_text("Hello", lmr());
  CHECK(b.width == doctest::Approx(22.5).epsilon(kTeX / 22.5));
  CHECK(b.height == doctest::Approx(6.94).epsilon(kTeX / 6.94));
  CHECK(b.depth == doctest::Approx(0.11).epsilon(0.1));
  CHECK(b.uncertainty == 0);
  CHECK(b.lines == 1);
}

TEST_CASE("Open Sans of the IM class is scaled 0.95 and unkerned") {
  TextBox b = measure_text("Hello", opensans());
  CHECK(b.width == doctest::Approx(27.459).epsilon(kTeX / 27.459));
  CHECK(b.height == doctest::Approx(8.661).epsilon(kTeX / 8.661));
  // TeX sets "AV" at the sum of the advance widths (luaotfload ignores the legacy kern table)
  TextBox av = measure_text("AV", opensans());
  CHECK(av.width == doctest::Approx(13.99947).epsilon(kTeX / 14));
}

TEST_CASE("interword space comes from the font and spaces collapse") {
  TextBox one = measure_text("a b", lmr());
  TextBox many = measure_text("a   b", lmr());
  TextBox none = measure_text("ab", lmr());
  CHECK(one.width - none.width == doctest::Approx(3.33).epsilon(0.01));
  CHECK(many.width == doctest::Approx(one.width));
  CHECK(measure_text("  ab  ", lmr()).width == doctest::Approx(none.width));
}

TEST_CASE("math: superscript degree sign, as $60^\\circ$") {
  TextBox b = measure_text("$60^\\circ$", lmr());
  CHECK(b.width == doctest::Approx(14.597).epsilon(kTeX / 14.6));
  CHECK(b.height == doctest::Approx(6.886).epsilon(kTeX / 6.886));
  CHECK(b.depth == doctest::Approx(0).epsilon(kTeX));
  CHECK(measure_text("$60\\degree$", lmr()).width == doctest::Approx(b.width));
}

TEST_CASE("math: \\frac stacks numerator over denominator") {
  TextBox b = measure_text("$\\frac{3}{4}$", lmr());
  CHECK(b.width == doctest::Approx(6.386).epsilon(kTeX / 6.386));
  CHECK(b.height == doctest::Approx(8.448).epsilon(kTeX / 8.448));
  CHECK(b.depth == doctest::Approx(3.448).epsilon(kTeX / 3.448));
  TextBox os = measure_text("$\\frac{3}{4}$", opensans());
  CHECK(os.width == doctest::Approx(6.745).epsilon(kTeX / 6.745));
  CHECK(os.height == doctest::Approx(10.228).epsilon(kTeX / 10.228));
}

TEST_CASE("math: \\sqrt adds the surd and a rule above the radicand") {
  TextBox b = measure_text("$\\sqrt{2}$", lmr());
  CHECK(b.width == doctest::Approx(13.333).epsilon(kTeX / 13.3));
  CHECK(b.height == doctest::Approx(9.072).epsilon(kTeX / 9.07));
  CHECK(b.depth == doctest::Approx(1.328).epsilon(kTeX / 1.33));
}

TEST_CASE("math letters are italic with italic correction, digits upright") {
  // cmmi A is 7.5pt at 10pt; an upright A (cmr) is 7.5pt too but f differs: cmmi f has ic
  CHECK(measure_text("$A$", lmr()).width == doctest::Approx(7.5).epsilon(0.001));
  CHECK(measure_text("$f$", lmr()).width > measure_text("f", lmr()).width);
  // Open Sans math letters come from Open Sans Italic (sfmath), x with luaotfload's itlc
  CHECK(measure_text("$x$", opensans()).width == doctest::Approx(5.845).epsilon(kTeX / 5.8));
}

TEST_CASE("\\textbf is wider than regular text, \\textit adds the italic correction") {
  CHECK(measure_text("\\textbf{Label}", lmr()).width > measure_text("Label", lmr()).width);
  CHECK(measure_text("\\textit{note}", lmr()).width == doctest::Approx(18.93).epsilon(kTeX / 18.9));
  FontSpec bold = lmr();
  bold.bold = true;
  CHECK(measure_text("Label", bold).width == doctest::Approx(measure_text("\\textbf{Label}", lmr()).width));
}

TEST_CASE("font size commands follow LaTeX's size tables for 10, 11 and 12pt classes") {
  CHECK(font_size_for_command("\\small", 12) == doctest::Approx(10.95));
  CHECK(font_size_for_command("small", 10) == doctest::Approx(9));
  CHECK(font_size_for_command("\\Large", 10) == doctest::Approx(14.4));
  CHECK(font_size_for_command("\\tiny", 10.95) == doctest::Approx(6));
  CHECK(font_size_for_command("\\footnotesize", 12) == doctest::Approx(10));
  CHECK(font_size_for_command("\\Huge", 12) == doctest::Approx(24.88));
  CHECK(font_size_for_command("\\bogus", 12) == doctest::Approx(12));
  // a size command inside the text uses the class's base size
  TextBox small = measure_text("{\\small Hello}", opensans());
  CHECK(small.width == doctest::Approx(25.056).epsilon(kTeX / 25));
}

TEST_CASE("a double backslash starts a new line, the box's baseline is the last line's (align=)") {
  TextBox b = measure_text("Line one\\\\second line", lmr());
  CHECK(b.lines == 2);
  CHECK(b.width == doctest::Approx(47.83).epsilon(kTeX / 47.8));
  CHECK(b.height == doctest::Approx(18.83).epsilon(kTeX / 18.8));  // 6.83 + \baselineskip 12
  CHECK(b.depth == doctest::Approx(0.11).epsilon(0.1));
  TextBox os = measure_text("Line one\\\\second line", opensans());
  CHECK(os.height == doctest::Approx(22.866).epsilon(kTeX / 22.9));  // \baselineskip 14.5 at 12pt
}

TEST_CASE("text width wraps words, the box is that wide and top-aligned") {
  TextBox b = measure_text("a rather long label that wraps over lines", lmr(), 60);
  CHECK(b.width == doctest::Approx(60));
  CHECK(b.lines == 4);
  CHECK(b.height == doctest::Approx(6.94).epsilon(kTeX / 6.94));
  CHECK(b.depth == doctest::Approx(36.11).epsilon(kTeX / 36.1));
}

TEST_CASE("unknown commands and glyphs raise the uncertainty") {
  CHECK(measure_text("$x = 3$", lmr()).uncertainty == 0);
  TextBox unknown = measure_text("\\mysterymacro{AB}", lmr());
  CHECK(unknown.uncertainty >= 10);
  CHECK(unknown.width == doctest::Approx(measure_text("AB", lmr()).width));  // its argument is still set
  CHECK(measure_text("\xe4\xb8\xad", lmr()).uncertainty > 0);  // a CJK glyph no table has
  FontSpec other = lmr();
  other.family = "helvetica";
  CHECK(measure_text("Hello", other).uncertainty > 0);
}

TEST_CASE("spaces: a thin space, a tie and a quad") {
  double ab = measure_text("ab", lmr()).width;
  CHECK(measure_text("a\\,b", lmr()).width - ab == doctest::Approx(10.0 / 6).epsilon(0.01));
  CHECK(measure_text("a~b", lmr()).width - ab == doctest::Approx(3.33).epsilon(0.01));
  CHECK(measure_text("a\\quad b", lmr()).width - ab == doctest::Approx(10).epsilon(0.01));
}

TEST_CASE("the document class chooses the family and base size") {
  CHECK(font_family_for_class("IM") == "opensans");
  CHECK(font_family_for_class("article") == "lmr");
  CHECK(class_base_size("IM", "") == 12);
  CHECK(class_base_size("article", "11pt,a4paper") == doctest::Approx(10.95));
  CHECK(class_base_size("standalone", "tikz") == 10);
  CHECK(baselineskip_for_size(12) == doctest::Approx(14.5));
  CHECK(baselineskip_for_size(13) == doctest::Approx(15.6));
}

TEST_CASE("em and ex of the node font (inner sep is .3333em of it)") {
  CHECK(font_quad_pt(lmr()) == doctest::Approx(10));
  CHECK(font_quad_pt(opensans()) == doctest::Approx(11.4));  // Open Sans at 12pt, scale 0.95
  CHECK(font_xheight_pt(lmr()) == doctest::Approx(4.3).epsilon(0.01));
  CHECK(font_xheight_pt(opensans()) > 5.5);
}

TEST_CASE("\\sffamily switches Latin Modern to its sans for the rest of the group") {
  TextBox sans = measure_text("\\textsf{Sans label}", lmr());
  TextBox serif = measure_text("Sans label", lmr());
  CHECK(sans.width != doctest::Approx(serif.width));
  CHECK(sans.uncertainty == 0);
  FontSpec lmss = lmr();
  lmss.family = "lmss";
  CHECK(measure_text("Sans label", lmss).width == doctest::Approx(sans.width));
}

TEST_CASE("a space after a colon or full stop gets the font's extra space (\\nonfrenchspacing)") {
  // lualatex: "Scale Factor: 1.5" in Open Sans at 12pt is 86.531pt wide
  CHECK(measure_text("Scale Factor: 1.5", opensans()).width == doctest::Approx(86.531).epsilon(kTeX / 86.5));
  double plain = measure_text("a b", lmr()).width;
  CHECK(measure_text("a: b", lmr()).width - measure_text("a:b", lmr()).width == doctest::Approx(plain - measure_text("ab", lmr()).width + 1.11).epsilon(0.01));
  // an uppercase letter before the period keeps the normal space
  CHECK(measure_text("A. b", lmr()).width - measure_text("A.b", lmr()).width == doctest::Approx(3.33).epsilon(0.01));
}

TEST_CASE("a parbox, a minipage and a tabular are sized as LaTeX builds them") {
  FontSpec f;  // Latin Modern 10pt
  // lualatex: \parbox{2cm}{...} and a minipage are their width; [c] centres on the math axis
  auto pb = measure_latex_box("\\parbox{2cm}{some text that wraps here}", f);
  REQUIRE(pb);
  CHECK(pb->width == doctest::Approx(56.9055).epsilon(1e-4));
  CHECK(pb->height - pb->depth == doctest::Approx(2 * 2.5));
  // tabular{cc}: columns a/c and b/d with \tabcolsep 6pt on both sides, two 12pt rows
  auto tab = measure_latex_box("\\begin{tabular}{cc} a & b \\\\ c & d \\end{tabular}", f);
  REQUIRE(tab);
  CHECK(tab->width == doctest::Approx(41.23 - 6.6666).epsilon(1e-3));
  CHECK(tab->height + tab->depth == doctest::Approx(24.0));
  // a `|` rule takes no width without the array package; \hline adds 0.4pt
  auto ruled = measure_latex_box("\\begin{tabular}{|c|} a \\\\ \\hline \\end{tabular}", f);
  auto plain = measure_latex_box("\\begin{tabular}{c} a \\\\ \\end{tabular}", f);
  REQUIRE(ruled);
  REQUIRE(plain);
  CHECK(ruled->width == doctest::Approx(plain->width));
  CHECK(ruled->height + ruled->depth == doctest::Approx(plain->height + plain->depth + 0.4));
  // what is not read stays unsized
  CHECK(!measure_latex_box("\\parbox{0.5\\textwidth}{x}", f));
  CHECK(!measure_latex_box("\\begin{tabular}{@{}c} \\multicolumn{1}{c}{x} \\end{tabular}", f));
  CHECK(!measure_latex_box("x \\begin{tabular}{c} a \\end{tabular}", f));
}

TEST_CASE("TeX's \\vrule and LaTeX's \\rule are boxes of their given sizes") {
  const TextBox plain = measure_text("Rule", lmr());
  const TextBox ruled = measure_text("Rule\\vrule width 1pt height 2cm", lmr());
  CHECK(ruled.width - plain.width == doctest::Approx(1.0));
  CHECK(ruled.height == doctest::Approx(56.905).epsilon(0.001));
  CHECK(ruled.uncertainty == 0);
  // no size given: 0.4pt wide, as high and deep as the line
  CHECK(measure_text("a\\vrule b", lmr()).width - measure_text("ab", lmr()).width == doctest::Approx(0.4));
  CHECK(measure_text("a\\vrule depth 1cm b", lmr()).depth == doctest::Approx(28.4528).epsilon(0.001));
  // \rule[raise]{width}{height}: raised by `raise`, no depth unless lowered
  const TextBox r = measure_text("x\\rule{2cm}{3pt}y", lmr());
  CHECK(r.width - measure_text("xy", lmr()).width == doctest::Approx(56.905).epsilon(0.001));
  const TextBox low = measure_text("\\rule[-1cm]{1pt}{1.5cm}", lmr());
  CHECK(low.height == doctest::Approx(14.2264).epsilon(0.001));
  CHECK(low.depth == doctest::Approx(28.4528).epsilon(0.001));
  // a width that is a register is not read: the measure admits it
  CHECK(measure_text("\\rule{\\linewidth}{1pt}", lmr()).uncertainty > 0);
}

TEST_CASE("typewriter text is Latin Modern Mono: 0.525em a glyph, a glyph-wide space, no ligatures") {
  CHECK(measure_text("\\texttt{abc}", lmr()).width == doctest::Approx(15.75).epsilon(0.001));
  CHECK(measure_text("\\ttfamily a b", lmr()).width == doctest::Approx(15.75).epsilon(0.001));
  CHECK(measure_text("\\texttt{a--b}", lmr()).width == doctest::Approx(21.0).epsilon(0.001));  // 4 glyphs
  FontSpec tt = lmr();
  tt.family = "lmtt";
  CHECK(measure_text("fifi", tt).width == doctest::Approx(21.0).epsilon(0.001));
  CHECK(measure_text("fifi", tt).uncertainty == 0);
}
