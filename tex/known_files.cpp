// tex/known_files.cpp: the classes and packages whose absence says nothing about a picture's
// geometry (tex/tex.hpp, quiet_when_missing). Most documents begin
// \documentclass{standalone}\usepackage{tikz}; without a TeX installation beside the input these
// are not found, and a note for each on every file of a folder of figures buries the findings.
#include <algorithm>
#include <array>
#include <string_view>

#include "tex/tex.hpp"

namespace tikzlint::tex {

namespace {

// Sorted. Why each is safe to ignore:
// - classes: the standard ones and their common relatives set page layout and the base font size,
//   which the front end reads from the class options itself (10pt/11pt/12pt); none changes TikZ;
// - tikz, pgf, pgfplots, tikz-cd, tkz-euclide, circuitikz, pgffor, pgfkeys, pgfmath and their libraries: modelled by tikzlint;
// - comment: its environment is skipped unread by the front end itself;
// - colour, fonts, encodings, mathematics, graphics inclusion, page layout, hyperlinks, language:
//   they change what text looks like in small ways (a glyph's shape) or what is outside the
//   picture, not where anything of the picture is drawn.
constexpr std::array<std::string_view, 88> kIrrelevant = {
    "amsart.cls", "amsbook.cls", "amsfonts.sty", "amsmath.sty", "amssymb.sty",
    "amsthm.sty", "article.cls", "babel.sty", "beamer.cls", "bm.sty",
    "book.cls", "booktabs.sty", "calc.sty", "caption.sty", "circuitikz.sty", "cmbright.sty",
    "color.sty", "comment.sty", "enumitem.sty", "eso-pic.sty", "etoolbox.sty", "euler.sty",
    "eurosym.sty", "fancyhdr.sty", "float.sty", "fontenc.sty", "fontspec.sty",
    "geometry.sty", "graphics.sty", "graphicx.sty", "helvet.sty", "hyperref.sty",
    "ifthen.sty", "inputenc.sty", "kpfonts.sty", "latexsym.sty", "letter.cls",
    "libertine.sty", "lmodern.sty", "mathpazo.sty", "mathptmx.sty", "mathrsfs.sty",
    "mathtools.sty", "memoir.cls", "microtype.sty", "minimal.cls", "newtxmath.sty",
    "newtxtext.sty", "palatino.sty", "pgf.sty", "pgfcore.sty", "pgffor.sty",
    "pgfkeys.sty", "pgfmath.sty", "pgfplots.sty", "pgfplotstable.sty", "preview.sty",
    "proc.cls", "report.cls", "scrartcl.cls", "scrbook.cls", "scrreprt.cls",
    "setspace.sty", "siunitx.sty", "slides.cls", "standalone.cls", "standalone.sty",
    "stmaryrd.sty", "subcaption.sty", "textcomp.sty", "tgheros.sty", "tgtermes.sty",
    "tikz-cd.sty", "tikz.sty", "times.sty", "tkz-euclide.sty", "txfonts.sty", "ulem.sty", "unicode-math.sty",
    "upgreek.sty", "url.sty", "verbatim.sty", "wasysym.sty", "xcolor.sty",
    "xparse.sty", "xspace.sty", "xstring.sty", "xunicode.sty",
};

static_assert(std::is_sorted(kIrrelevant.begin(), kIrrelevant.end()));

}  // namespace

bool quiet_when_missing(std::string_view file) {
  return std::binary_search(kIrrelevant.begin(), kIrrelevant.end(), file);
}

}  // namespace tikzlint::tex
