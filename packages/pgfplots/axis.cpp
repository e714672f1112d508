// packages/pgfplots/axis.cpp: a pgfplots axis laid out as pgfplots lays it out (pgfplots manual 4
// "The Reference"; pgfplots.code.tex, pgfplots.scaling.code.tex, pgfplotsticks.code.tex):
//
//   limits   the user's xmin..ymax, else the data of every \addplot in the axis (a coordinate
//            counts for the other direction only inside the user's limits), enlarged by 10% of
//            the range on each automatic side (`enlargelimits=auto`, 2D);
//   size     width 240pt, height 207pt including labels: the axis box is 45pt smaller in each
//            direction (`scale only axis`: exactly that size; `x=`/`y=`: units given);
//   ticks    pgfplots' tick algorithm (ticks.cpp) or the user's `xtick`/`ytick`;
//   text     tick labels (`$\pgfmathprintnumber{..}$`, `$10^{..}$` on log axes) as nodes anchored
//            north/east at the axis box, xlabel/ylabel at `ticklabel cs:0.5` (`near ticklabel`),
//            the title 6pt above the box: plain \node statements, so their boxes are measured
//            like any node and grow the picture as pgf's do; their role is "tick label"/"axis label";
//   drawing  the box (or no lines), the grid, the clip: plots and TikZ paths inside the axis are
//            clipped to the box and, as in pgfplots (clip=true), do not grow the picture.
//
// What is not modelled is reported where it stands: an unknown axis key (`unsupported-key`, and
// the note `approximate-axis`, which the rules read as "the axis frame is known only roughly"); a
// plot form, a legend (`unsupported-construct`). An axis whose limits cannot be known (polar,
// ternary, automatic limits over data that is not modelled) is not lowered: one warning,
// and the whole picture is unplaced for the rules.
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "ir/coords.hpp"
#include "ir/library.hpp"
#include "packages/pgfplots/data.hpp"
#include "packages/pgfplots/fillbetween.hpp"
#include "packages/pgfplots/plots.hpp"
#include "packages/pgfplots/ticks.hpp"
#include "packages/pgfplots/view3d.hpp"
#include "packages/support.hpp"
#include "tex/pgfmath.hpp"
#include "tex/styles.hpp"

namespace tikzlint::packages {
namespace {

using ir::Point;
using namespace tikzlint::pgfplots;

bool starts_with(std::string_view s, std::string_view p) { return s.substr(0, p.size()) == p; }
std::string trimmed(std::string_view s) { return std::string(ir::text_trim(s)); }

// pgfplots.code.tex: \axisdefaultwidth 240pt, \axisdefaultheight 207pt; 45pt of each is left
// for the labels (pgfplots.scaling.code.tex, \pgfplots@initsizes@handle@label@const).
constexpr double kDefaultWidthPt = 240, kDefaultHeightPt = 207, kLabelAllowancePt = 45;
// `\addplot table {file}`: files up to 16 MiB are read (a bound on memory and time; a plot of
// more data than that is rare in a figure and pgfplots itself would need minutes for it).
constexpr std::size_t kMaxDataFileBytes = 16u << 20;
// `view/az=25`, `view/el=30` (pgfplots.code.tex): the default view of a 3D axis.
constexpr double kDefaultAzimuth = 25, kDefaultElevation = 30;
// `every 3d description` sets `try min ticks=3`.
constexpr int kTryMinTicks3d = 3;
// `enlargelimits=auto` enlarges an automatic limit by 10% of the range (\pgfplots@enlarge@limit).
constexpr double kDefaultEnlargement = 0.1;
// A range of one value v is widened to [0.8 v, 1.2 v] (pgfplots' \pgfplots@avoid@empty@axis@range@for).
constexpr double kEmptyRangeLow = 0.8, kEmptyRangeHigh = 1.2;
// `every 3d description`'s tick scale labels: x and y at (xticklabel cs:0.95,5pt), z at
// (zticklabel* cs:1.2,-0.3em) (pgfplots.code.tex).
constexpr double kScaleLabel3dAt = 0.95, kScaleLabel3dShiftPt = 5, kScaleLabel3dZAt = 1.2, kScaleLabel3dZShiftEm = 0.3;
// An em of the surrounding font where the font cannot be asked (cmr10 at 10pt: \fontdimen6).
constexpr double kDefaultEmPt = 10;
// `every axis title shift=6pt`: the title's south anchor above the box.
constexpr double kTitleShiftPt = 6;
// The colorbar (pgfplots.code.tex, `colorbar right`...): `colorbar/width` 0.5cm, and `colorbar
// shift`, 0.3cm away from the parent axis' outer box
constexpr double kColorbarWidthPt = 0.5 * ir::kPtPerCm, kColorbarShiftPt = 0.3 * ir::kPtPerCm;
// /pgfplots/compat/mostrecent in pgfplots 1.18: what `compat=newest` selects.
constexpr double kCompatNewest = 1 + 18 / 100.0;
// `xtick placement tolerance=0.05pt` (pgfplots.code.tex): a tick this close to where another axis
// line crosses is hidden by `hide obscured x ticks` (pgfplotsticks.code.tex, \pgfplots@xtick@check@tickshow).
constexpr double kTickPlacementTolerancePt = 0.05;
// `every axis label` offsets of compat pre 1.3 (`xlabel absolute`, `ylabel absolute`) and of the
// pre-1.8 `axis x line=top` / `axis y line=right` label styles (pgfplots.code.tex).
constexpr double kAbsoluteXLabelShiftPt = 15, kAbsoluteYLabelShiftPt = 35;
constexpr double kTopLabelShiftPt = 15, kRightLabelShiftPt = 33;
// Plot points are held within this distance of the box (pt): TeX's largest dimension is 16383pt.
constexpr double kFarPt = 15000;
// `major tick length=0.15cm`: tick labels stand clear of ticks that reach out of the box
// (`tick align=center`: half of it, `outside`: all of it).
constexpr double kMajorTickLengthPt = 0.15 * ir::kPtPerCm;
// `every axis legend` (pgfplots.code.tex): at={(0.98,0.98)}, inner xsep=3pt, inner ysep=2pt; the
// legend image is 0.6cm of line (plus the default 0.4pt line width: its ends' half widths).
constexpr double kLegendAt = 0.98, kLegendInnerXSepPt = 3, kLegendInnerYSepPt = 2;
constexpr double kLegendLineInsetPt = 0.2, kLegendImageWidthPt = 0.6 * ir::kPtPerCm + 2 * kLegendLineInsetPt;

// The default cycle list (`cycle list name=color`, pgfplots.code.tex) an \addplot without options
// (or \addplot+) draws with: its colour and mark.
constexpr const char* kCycleList[] = {
    "blue, mark=*",           "red, mark=square*",        "brown!60!black, mark=otimes*",
    "black, mark=star",       "blue, mark=diamond*",      "red, densely dashed, mark=*",
    "brown!60!black, densely dashed, mark=square*",       "black, densely dashed, mark=otimes*",
    "blue, densely dashed, mark=star",                    "red, densely dashed, mark=diamond*"};

// `bar cycle list` (pgfplots.code.tex), which `ybar`/`xbar` select: the bars' colours.
constexpr const char* kBarCycleList[] = {"blue,fill=blue!30!white",           "red,fill=red!30!white",
                                         "brown!60!black,fill=brown!30!white", "black,fill=gray",
                                         "violet!80!black,fill=violet",        "green,fill=green!80!black"};

// Axis keys that, when not modelled, leave the whole axis at a guessed place: they move or turn
// it as a whole (the axis is a scope placed by at= and anchor=: pgfplots.code.tex
// \pgfplots@set@options, manual 4.19 "Alignment") or change how every coordinate is read
// (trig format=rad turns view angles and sin/cos arguments into radians).
const std::set<std::string>& placing_keys() {
  static const std::set<std::string> k = {"rotate", "scale", "trig format", "x dir", "y dir"};
  return k;
}
// Of those, the keys that only shift the whole axis: what is inside it keeps its place relative
// to the rest of it; only its place beside other content of the picture is unknown.
const std::set<std::string>& moving_keys() {
  static const std::set<std::string> k = {"at", "anchor", "shift", "xshift", "yshift"};
  return k;
}

// Axis keys that change only how things are painted, never where anything is (colours, line
// styles of ticks/grid/axis lines, the plots' styles, number of minor ticks).
const std::set<std::string>& appearance_keys() {
  static const std::set<std::string> keys = {
      "compat", "tick style", "major tick style", "minor tick style", "every tick/.style", "every tick/.append style",
      "grid style", "major grid style", "minor grid style", "every axis grid/.style", "every axis grid/.append style",
      "every major grid/.style", "every minor grid/.style", "axis background/.style", "axis background style",
      "every axis plot/.style", "every axis plot/.append style", "every axis plot post/.style",
      "every axis plot post/.append style", "cycle list name", "cycle list", "cycle multi list", "cycle multiindex* list",
      "no markers", "no marks", "mark options", "mark size", "every mark/.style", "every mark/.append style",
      "minor tick num", "minor x tick num", "minor y tick num", "minor xtick", "minor ytick",
      "minor tick length", "subtickwidth",
      "axis on top", "unbounded coords", "filter discard warning", "trig format plots", "smooth", "thick", "thin",
      "very thick", "ultra thick", "semithick", "very thin", "line width", "color", "draw", "fill", "opacity",
      "axis line style", "every axis/.style", "every axis/.append style", "every tick label/.style",
      "legend image post style",
      "every axis legend/.style", "every axis legend/.append style", "legend plot pos", "reverse legend",
      "clip marker paths", "clip mode", "set layers", "mark layer",
      "separate axis lines", "every outer x axis line/.style", "every outer y axis line/.style",
      "every inner x axis line/.style", "every inner y axis line/.style", "x axis line style", "y axis line style",
      "point meta", "colormap name", "colormap/viridis", "colormap/hot", "colormap/cool",
      "colormap/bluered", "colormap/jet", "colormap/greenyellow", "colormap/redyellow", "colormap/blackwhite",
      "mesh/ordering", "shader", "restrict x to domain*", "restrict y to domain*"};
  return keys;
}

// Plot options pgfplots itself reads (sampling, bookkeeping): taken out before the plot is drawn
// as a TikZ plot; the rest are TikZ drawing keys.
const std::set<std::string>& plot_keys() {
  static const std::set<std::string> keys = {"domain",      "samples",  "samples at", "variable",
                                             "forget plot", "id",       "unbounded coords",
                                             "no markers",  "no marks", "legend image post style",
                                             "trig format plots", "samples y", "domain y", "y domain", "variable y", "point meta",
                                             "scatter", "scatter src", "visualization depends on", "ybar legend",
                                             "xbar legend", "area legend", "line legend", "bar cycle list"};
  return keys;
}

// pgfplots' size styles (pgfplots.code.tex), as key lists: `height=` empty keeps the default
// aspect ratio; fonts, tick spacing, tick length and the title shift change with the size.
const char* size_style(const std::string& k) {
  if (k == "normalsize") return "width=240pt,height=207pt,max space between ticks=35";
  if (k == "small")
    return "width=6.5cm,height=,tick label style={font=\\footnotesize},label style={font=\\small},"
           "max space between ticks=25";
  if (k == "footnotesize")
    return "width=5cm,height=,legend style={font=\\footnotesize},tick label style={font=\\footnotesize},"
           "label style={font=\\small},title style={font=\\small},every axis title shift=0pt,"
           "max space between ticks=15,major tick length=0.1cm";
  if (k == "tiny")
    return "width=4cm,height=,legend style={font=\\tiny},tick label style={font=\\tiny},"
           "label style={font=\\tiny},title style={font=\\footnotesize},every axis title shift=0pt,"
           "max space between ticks=12,major tick length=0.1cm";
  return nullptr;
}

// pgfplots' own plot keys, read or only painting: not handed on to TikZ
bool pgfplots_plot_key(const std::string& k) { return plot_keys().count(k) != 0 || starts_with(k, "scatter/"); }

// A 2D `mesh` of an expression (pgfplots manual 4.6.9 "Mesh plots" with one-dimensional data):
// one scanline, drawn as the polyline through the samples with colours from the colormap (paint).
// Coordinates or tables may end scanlines with blank lines, which the statement text no longer
// shows: not modelled there.
bool line_mesh(const std::string& key, const AddPlot& ap) {
  if (key != "mesh" || ap.three_d) return false;
  const std::string src = trimmed(ap.source);
  return !src.empty() && (src[0] == '{' || src[0] == '(' || starts_with(src, "expression"));
}

// \addplot3 options that paint a mesh or surface, or order its drawing: read as nothing here.
bool paint3_key(const std::string& k) {
  static const std::set<std::string> keys = {"z buffer", "shader", "faceted color", "colormap name", "colorbar",
                                             "mesh/ordering", "mesh/color input", "mesh/interior colormap name",
                                             "mesh/interior colormap", "colormap access", "point meta min",
                                             "point meta max", "opacity", "fill opacity", "draw opacity",
                                             "samples y", "domain y", "y domain", "variable y"};
  return keys.count(k) != 0 || starts_with(k, "colormap/");
}

// Plot options of plot types this model does not draw (bars, error bars, meshes...).
bool unmodelled_plot_key(const std::string& k) {
  static const std::set<std::string> keys = {
      "error bars/.cd", "mesh", "surf", "contour prepared", "contour gnuplot", "contour lua", "quiver",
      "ycomb", "xcomb", "patch", "matrix plot", "matrix plot*", "shader",
      "restrict x to domain", "restrict y to domain", "x filter/.code", "y filter/.code", "x expr", "y expr",
      "fill between/of", "error bars/y dir", "error bars/x dir", "boxplot", "boxplot prepared", "polar comb", "smooth cycle", "parametric", "raw gnuplot",
      "colormap name", "view"};
  return keys.count(k) != 0 || starts_with(k, "error bars") || starts_with(k, "x error") || starts_with(k, "y error") ||
         starts_with(k, "mesh/") ||
         starts_with(k, "boxplot/");
}

std::string strip_prefix(std::string k) {
  for (const char* p : {"/pgfplots/", "/tikz/", "/pgf/"})
    if (starts_with(k, p)) k = k.substr(std::string_view(p).size());
  return k;
}

std::string pt(double v) { return ir::text_number(v) + "pt"; }

// The keys of a tick label style other than /pgf/number format/..., which set how
// \pgfmathprintnumber prints the labels (not the nodes' keys): `1000 sep` goes to `on_sep`, the
// others are not modelled and stay (reported as unknown keys of the nodes).
std::string number_format_keys(const std::string& style, const std::function<void(const std::string&)>& on_sep) {
  std::string out;
  for (const auto& it : tex::split_options(style)) {
    const std::string k = tex::normalise_key(it.key);
    if (it.has_value && (k == "/pgf/number format/1000 sep" || k == "number format/1000 sep")) {
      on_sep(trimmed(tex::strip_braces(it.value)));
      continue;
    }
    out += (out.empty() ? "" : ",") + (it.has_value ? it.key + "=" + it.value : it.key);
  }
  return out;
}

// The text of `xticklabel=<template>` for one tick: \pgfmathprintnumber{\tick} (or \tick without
// braces) becomes `tick`, likewise \nexttick; nullopt when the template uses the tick otherwise
// (\tick alone, \ticknum...) or a number that is not printed.
std::optional<std::string> tick_label_text(const std::string& tmpl, const std::optional<std::string>& tick,
                                           const std::optional<std::string>& next) {
  std::string out;
  for (std::size_t i = 0; i < tmpl.size();) {
    bool done = false;
    for (const auto& [name, value] : {std::pair{std::string("tick"), &tick}, std::pair{std::string("nexttick"), &next}})
      for (const std::string& form : {"\\pgfmathprintnumber{\\" + name + "}", "\\pgfmathprintnumber\\" + name}) {
        if (done || tmpl.compare(i, form.size(), form) != 0) continue;
        const std::size_t e = i + form.size();
        if (form.back() != '}' && e < tmpl.size() && std::isalpha(static_cast<unsigned char>(tmpl[e]))) continue;
        if (!*value) return std::nullopt;
        out += **value, i = e, done = true;
      }
    if (done) continue;
    if (tmpl.compare(i, 5, "\\tick") == 0 || tmpl.compare(i, 9, "\\nexttick") == 0) return std::nullopt;
    out += tmpl[i++];
  }
  return out;
}

// Where `every axis x label` puts an axis label (pgfplots.code.tex; which style depends on
// `compat` and on the axis lines, in the order their keys are set; a document may define the
// style itself):
//   at      ticklabel cs:t[,shift]  on the tick labels' line at t along the axis, moved out by
//                                   the tick labels' reach (\pgfplotsvalueoflargesttickdimen) + shift
//           ticklabel* cs:t[,shift] on that line, moved out by shift only
//           desc (fx, fy)           axis description cs: a fraction of the box, or NaN for the
//                                   other direction's zero (`current axis.right of origin`...)
//   anchor  near ticklabel (the side facing the line) or near ticklabel opposite, with `near
//           ticklabel align` (center, inside: towards the axis' start, outside), or one in opts
//   opts    the style's other keys (rotate, shifts, below, anchor=...), in their order
// The styles pgfplots sets: `xlabel near ticks` {at={(ticklabel cs:0.5)},anchor=near ticklabel}
// (y: rotate=90), `xlabel absolute` (compat unset or pre 1.3) {at={(0.5,0)},below,yshift=-15pt}
// (y: at={(0,0.5)},xshift=-35pt,rotate=90), the middle/top/right lines' styles of compat >= 1.8
// {near ticklabel align=inside|outside,at={(ticklabel* cs:t)},anchor=near ticklabel opposite} and
// of compat < 1.8 (`current axis.right of origin`...).
struct LabelPlace {
  enum At { tcs, tcs_star, desc } at = desc;
  double t = 0.5, shift = 0;  // ticklabel cs
  bool shift_em = false;      // the shift is in em of the surrounding font
  double fx = 0, fy = 0;      // desc
  enum Anchor { given, near, opposite } anchor = given;
  std::string align = "center";
  std::string opts;
};

LabelPlace near_label(char axis) {
  LabelPlace p;
  p.at = LabelPlace::tcs, p.anchor = LabelPlace::near;
  if (axis == 'y') p.opts = "rotate=90";
  return p;
}
LabelPlace absolute_label(char axis) {
  LabelPlace p;
  if (axis == 'x') p.fx = 0.5, p.fy = 0, p.opts = "below,yshift=" + pt(-kAbsoluteXLabelShiftPt);
  else p.fx = 0, p.fy = 0.5, p.opts = "xshift=" + pt(-kAbsoluteYLabelShiftPt) + ",rotate=90";
  return p;
}
LabelPlace star_label(double t, bool inside) {
  LabelPlace p;
  p.at = LabelPlace::tcs_star, p.t = t, p.anchor = LabelPlace::opposite, p.align = inside ? "inside" : "outside";
  return p;
}
LabelPlace desc_label(double fx, double fy, std::string opts) {
  LabelPlace p;
  p.fx = fx, p.fy = fy, p.opts = std::move(opts);
  return p;
}
// Where `every x tick scale label` puts the tick labels' common factor (pgfplots.code.tex), set
// with the axis label's style by `xlabel near ticks` (compat >= 1.3): x at (xticklabel cs:0.9,5pt)
// anchored near xticklabel, y at (yticklabel* cs:1.03,-0.3em) anchored near yticklabel opposite
// with near ticklabel align=outside; by `xlabel absolute`: x at (1,0), yshift=-2em, left; y at
// (0,1), above right, yshift=0.3em. All with inner sep=0pt.
LabelPlace near_scale_label(char axis) {
  LabelPlace p;
  p.anchor = axis == 'x' ? LabelPlace::near : LabelPlace::opposite;
  if (axis == 'x') p.at = LabelPlace::tcs, p.t = 0.9, p.shift = 5;
  else p.at = LabelPlace::tcs_star, p.t = 1.03, p.shift = -0.3, p.shift_em = true, p.align = "outside";
  p.opts = "inner sep=0pt";
  return p;
}
LabelPlace absolute_scale_label(char axis) {
  if (axis == 'x') return desc_label(1, 0, "yshift=-2em,left,inner sep=0pt");
  return desc_label(0, 1, "above right,inner sep=0pt,yshift=0.3em");
}

// A document's own `every axis x label/.style={...}` or `every x tick scale label/.style`: nullopt
// when a key places the label in a way not modelled (another coordinate system, an anchor
// computed otherwise). `xticklabel cs` and `near xticklabel` are the x axis' own names of
// `ticklabel cs` and `near ticklabel` (y, z alike).
std::optional<LabelPlace> read_label_style(const std::string& body) {
  LabelPlace p;
  auto unnamed = [](std::string t) {  // "xticklabel..." -> "ticklabel...", "near yticklabel" -> "near ticklabel"
    for (const char* from : {"xticklabel", "yticklabel", "zticklabel"})
      if (auto at = t.find(from); at != std::string::npos && (at == 0 || t[at - 1] == ' ')) t.erase(at, 1);
    return t;
  };
  for (const auto& it : tex::split_options(body)) {
    const std::string k = strip_prefix(tex::normalise_key(it.key));
    const std::string v = unnamed(trimmed(tex::strip_braces(it.value)));
    if (k == "at") {
      std::string c = v;
      if (c.size() < 2 || c.front() != '(' || c.back() != ')') return std::nullopt;
      c = unnamed(trimmed(c.substr(1, c.size() - 2)));
      const bool star = starts_with(c, "ticklabel* cs:");
      if (star || starts_with(c, "ticklabel cs:")) {
        auto parts = tex::split_options(c.substr(c.find(':') + 1));
        if (parts.empty() || parts.size() > 2) return std::nullopt;
        auto t = parse_number(trimmed(parts[0].key));
        std::optional<double> sh = 0.0;
        if (parts.size() == 2) {
          const std::string d = trimmed(parts[1].key);
          sh = tex::pgfmath::parse_dimension(d);
          if (!sh) sh = parse_number(d);  // \pgfmathparse'd and read in pt
        }
        if (!t || !sh) return std::nullopt;
        p.at = star ? LabelPlace::tcs_star : LabelPlace::tcs, p.t = *t, p.shift = *sh;
      } else {
        auto xy = tex::split_options(c);
        std::optional<double> fx, fy;
        if (xy.size() == 2 && !xy[0].has_value && !xy[1].has_value)
          fx = parse_number(trimmed(xy[0].key)), fy = parse_number(trimmed(xy[1].key));
        if (!fx || !fy) return std::nullopt;  // a coordinate system other than the description's
        p.at = LabelPlace::desc, p.fx = *fx, p.fy = *fy;
      }
    } else if (k == "anchor" && (v == "near ticklabel" || v == "near ticklabel opposite")) {
      p.anchor = v == "near ticklabel" ? LabelPlace::near : LabelPlace::opposite;
    } else if (k == "anchor" && starts_with(v, "near")) {
      return std::nullopt;
    } else if (k == "near ticklabel align") {
      if (v != "inside" && v != "outside" && v != "center") return std::nullopt;
      p.align = v;
    } else {
      if (k == "anchor") p.anchor = LabelPlace::given;
      p.opts += (p.opts.empty() ? "" : ",") + (it.has_value ? it.key + "={" + it.value + "}" : it.key);
    }
  }
  return p;
}

// A pgfplots version as a number that orders as versions do: major + minor/100 (1.5 is 1.05,
// below 1.18).
constexpr double version(int major, int minor) { return major + minor / 100.0; }

// `compat=1.18` (or 1.5.1) as version(1, 18); nullopt when not a version.
std::optional<double> parse_version(const std::string& v) {
  int major = 0, minor = 0;
  char tail = 0;
  const int n = std::sscanf(v.c_str(), "%d.%d%c", &major, &minor, &tail);
  if (n < 2 || (n == 3 && tail != '.') || major < 1 || minor < 0 || minor > 99) return std::nullopt;
  return version(major, minor);
}

// One direction of the axis (x or y).
struct Direction {
  char name = 'x';
  bool log = false;
  std::optional<double> user_min, user_max;  // as written (data units)
  std::string enlarge = "auto";
  std::optional<double> unit;                // `x=` / `y=` (pt per data unit)
  std::optional<std::vector<double>> ticks;  // `xtick=` (data units); empty: no ticks
  bool ticks_data = false;                   // `xtick=data`
  std::optional<std::vector<std::string>> tick_labels;  // `xticklabels=`
  // `x tick label as interval` (set by `ybar interval`): the label of [tick, next tick] at its
  // middle, none at the last tick (pgfplotsticks.code.tex, \pgfplots@show@ticklabel)
  bool interval_labels = false;
  std::optional<std::string> label_template;  // `xticklabel=`: the text, with \tick (and \nexttick)
  std::string sep = "{,}";  // /pgf/number format/1000 sep of the tick labels
  std::vector<std::string> symbols;                      // `symbolic x coords=`
  std::string label, label_style, ticklabel_style;
  bool has_label = false, hidden = false;
  // `axis x line` (pgfplots.code.tex, \pgfplots@xaxislinesnum): box, lower (bottom/left), upper
  // (top/right), middle (center: through the other direction's zero), none
  std::string line = "box";
  bool star_none = false;  // `axis x line*=none` (line number 4 without `hide x axis`)
  std::uint32_t line_at = 0;          // where the line was chosen
  std::string tick_align = "inside";  // where the ticks stand: inside, center, outside the line
  bool ticks_upper = true;            // `xtick pos=both` (the default): ticks on the upper line too
  bool labels_upper = false;          // `xticklabel pos=upper|right|top`: a box's tick labels on its upper line
  bool arrow = false;                 // the line ends in an arrow (-stealth)
  bool hide_obscured = true;          // `hide obscured x ticks`
  LabelPlace label_at;                // `every axis x label`: where the axis label stands
  LabelPlace scale_at;                // `every x tick scale label`: where the common factor stands
  bool scaled = true;                 // `scaled x ticks=true|false`
  double zero = 0;                    // laid out: the logical zero (transformed units), where the other middle line is
  // laid out
  double lo = 0, hi = 1;       // limits (log10 on a log axis)
  double length = 0, scale = 0;  // pt along the axis; pt per (transformed) data unit
  std::vector<double> tick_positions;  // transformed data units
  double map(double v) const { return (v - lo) * scale; }
  std::optional<double> transform(double v) const {
    if (!log) return v;
    if (!(v > 0)) return std::nullopt;
    return std::log10(v);
  }
};

// Error bars (pgfplots manual 4.12, pgfplots.errorbars.code.tex): per direction which way they
// go (`dir`: none, plus, minus, both) and where their length comes from (`explicit`: the data's
// `+- (..)` or error column; `explicit relative`: that times the value; `fixed`; `fixed relative`).
struct ErrorBars {
  struct Dir {
    std::string dir = "none", mode;  // mode: "", "explicit", "explicit relative", "fixed", "fixed relative"
    double fixed = 0;
    bool drawn() const { return dir != "none" && !mode.empty(); }
  };
  Dir x, y;
  std::string unsupported;
  std::vector<bool> consumed;  // which option items are error-bar keys (not TikZ drawing keys)
  bool any() const { return x.drawn() || y.drawn(); }
};

ErrorBars read_error_bars(const std::string& options, const std::function<std::optional<double>(const std::string&)>& num) {
  ErrorBars eb;
  bool in_path = false;  // after `error bars/.cd`, relative keys are error-bar keys
  const auto items = tex::split_options(options);
  eb.consumed.assign(items.size(), false);
  for (std::size_t i = 0; i < items.size(); ++i) {
    std::string k = tex::normalise_key(items[i].key);
    const std::string v = trimmed(tex::strip_braces(items[i].value));
    if (starts_with(k, "/")) in_path = false;
    k = strip_prefix(k);
    if (k == "error bars/.cd") {
      in_path = true, eb.consumed[i] = true;
      continue;
    }
    if (starts_with(k, "error bars/")) k = k.substr(11);
    else if (!in_path) continue;
    eb.consumed[i] = true;
    if (k.size() > 2 && (k[0] == 'x' || k[0] == 'y') && k[1] == ' ') {
      ErrorBars::Dir& d = k[0] == 'x' ? eb.x : eb.y;
      const std::string what = k.substr(2);
      if (what == "dir" && (v == "none" || v == "plus" || v == "minus" || v == "both")) {
        d.dir = v;
        continue;
      }
      if (what == "explicit" || what == "explicit relative") {
        d.mode = what;
        continue;
      }
      if (what == "fixed" || what == "fixed relative") {
        if (auto n = num(v)) {
          d.mode = what, d.fixed = std::abs(*n);
          continue;
        }
      }
    }
    // the bars' paint: their style and the marks at their ends (marks are not drawn)
    if (k == "error bar style" || k == "error mark" || k == "error mark options" || k == "error bar legend") continue;
    eb.unsupported = "error bars key '" + k + "' is not modelled";
  }
  return eb;
}

// The extent of one point's error bar in one direction: [value - minus, value + plus].
std::pair<double, double> error_extent(const ErrorBars::Dir& d, double value, double plus_given, double minus_given) {
  double plus = 0, minus = 0;
  if (d.mode == "fixed") plus = minus = d.fixed;
  else if (d.mode == "fixed relative") plus = minus = d.fixed * std::abs(value);
  else if (d.mode == "explicit") plus = plus_given, minus = minus_given;
  else if (d.mode == "explicit relative") plus = plus_given * std::abs(value), minus = minus_given * std::abs(value);
  if (!std::isfinite(plus)) plus = 0;
  if (!std::isfinite(minus)) minus = 0;
  return {value - (d.dir == "minus" || d.dir == "both" ? minus : 0), value + (d.dir == "plus" || d.dir == "both" ? plus : 0)};
}

class AxisPicture final : public ir::PackagePicture {
 public:
  explicit AxisPicture(const tex::Picture& pic) : pic_(pic) {}

  ir::Offer lower_statement(const ir::PackageStatement& s, ir::LibraryHost& host) override {
    // what this package emits (the plots' paths, the tick labels) comes back here while the
    // statement that made it is lowered: it is plain TikZ in the frame it was made for
    if (nested_ > 0) return ir::Offer::pass;
    struct Nest {
      int& n;
      explicit Nest(int& k) : n(k) { ++n; }
      ~Nest() { --n; }
    } nest(nested_);
    const std::string t(ir::text_trim(s.st.text));
    if (!s.path && starts_with(t, "\\begin{")) {
      const std::string env = t.substr(7, t.find('}') - 7);
      if (env == "axis" || env == "semilogxaxis" || env == "semilogyaxis" || env == "loglogaxis" ||
          env == "polaraxis" || env == "groupplot" || env == "ternaryaxis" || env == "smithchart") {
        ++depth_;
        if (depth_ == 1 && env == "groupplot") begin_group(s.st, host);
        else if (depth_ == 1) begin_axis(s.st, env, host);
        return ir::Offer::lowered;
      }
    }
    if (depth_ == 0) return ir::Offer::pass;
    if (group_ && depth_ == 1 && !s.path && starts_with(t, "\\nextgroupplot")) {
      next_group_plot(s.st, host);
      return ir::Offer::lowered;
    }
    if (group_ && depth_ == 1 && !group_cell_open_ && !s.path && !starts_with(t, "\\end{")) {
      if (!failed_) not_lowered(s.st, "a statement of a groupplot before its first \\nextgroupplot is not modelled");
      return ir::Offer::lowered;
    }
    if (!s.path && starts_with(t, "\\end{")) {
      const std::string env = t.substr(5, t.find('}') - 5);
      if (env == "axis" || env == "semilogxaxis" || env == "semilogyaxis" || env == "loglogaxis" ||
          env == "polaraxis" || env == "groupplot" || env == "ternaryaxis" || env == "smithchart") {
        // the axis ends with depth_ still counting it: its end code reads `axis cs:` (coordinate())
        if (depth_ == 1) {
          end_axis(s.st, host);
          group_ = false;
        }
        --depth_;
        return ir::Offer::lowered;
      }
    }
    if (!axis_) return s.path ? ir::Offer::pass : ir::Offer::lowered;  // covered by the axis warning
    if (s.path) {
      if (x_.log || y_.log) {
        host.problem("unsupported-coordinate", "TikZ coordinates inside a logarithmic axis are not mapped", 0,
                     static_cast<std::uint32_t>(s.st.text.size()));
        return ir::Offer::lowered;
      }
      const std::string with_limits = limit_values(s.st.text);
      if (with_limits == s.st.text) return ir::Offer::pass;
      host.emit(with_limits, 0, static_cast<std::uint32_t>(s.st.text.size()));
      return ir::Offer::lowered;
    }
    if (starts_with(t, "\\addplot")) {
      lower_addplot(s.st, host, t);
    } else if (starts_with(t, "\\addlegendentry") || starts_with(t, "\\legend")) {
      read_legend_command(t, s.st, host);
    } else {
      host.problem("unsupported-construct",
                   "'" + t.substr(0, std::min<std::size_t>(t.size(), 30)) + "' inside a pgfplots axis is not modelled", 0,
                   static_cast<std::uint32_t>(s.st.text.size()));
    }
    return ir::Offer::lowered;
  }

  // `\pgfkeysvalueof{/pgfplots/xmin}` and kin in a path of the axis: once the limits are known,
  // pgfplots sets the keys to them (pgfplots.code.tex, \pgfplots@set@options@after@survey), so a
  // path can span the axis (the fillbetween manual's `(\pgfkeysvalueof{/pgfplots/xmin},0) -- ...`)
  std::string limit_values(std::string text) const {
    const std::pair<const char*, const Direction*> keys[] = {{"x", &x_}, {"y", &y_}, {"z", &z_}};
    for (const auto& [name, d] : keys) {
      if (d == &z_ && !three_d_) continue;
      for (const char* end : {"min", "max"}) {
        const std::string macro = std::string("\\pgfkeysvalueof{/pgfplots/") + name + end + "}";
        const std::string value = ir::text_number(std::string_view(end) == "min" ? d->lo : d->hi);
        for (std::size_t at = text.find(macro); at != std::string::npos; at = text.find(macro, at + value.size()))
          text.replace(at, macro.size(), value);
      }
    }
    return text;
  }

  // `axis cs:` (and `rel axis cs:`): data coordinates in the axis frame, logarithmic where the
  // axis is.
  Coordinate coordinate(std::string_view system, std::string_view args, const ir::Settings& s,
                        const Eval& eval) override {
    if (depth_ > 0 && (system == "xticklabel" || system == "yticklabel" || system == "xticklabel*" ||
                       system == "yticklabel*"))
      return ticklabel_coordinate(system, args, s, eval);
    const bool rel = system == "rel axis";
    if ((system != "axis" && !rel) || depth_ == 0) return {};
    Coordinate out;
    out.handled = true;
    if (!axis_) return out;
    auto items = tex::split_options(args);
    const std::size_t dims = three_d_ ? 3 : 2;
    if (items.size() < dims) return out;
    double v[3] = {0, 0, 0};
    for (std::size_t k = 0; k < dims; ++k) {
      const Direction& d = k == 0 ? x_ : k == 1 ? y_ : z_;
      // a symbolic coordinate: its name, or `[normalized]<index>` (pgfplots manual 4.22)
      const std::string item = trimmed(tex::strip_braces(items[k].key));
      if (!rel && !items[k].has_value && !d.symbols.empty()) {
        std::optional<double> idx = starts_with(item, "[normalized]") ? parse_number(item.substr(12))
                                                                      : data_value(item, d.symbols);
        if (!idx) return out;
        v[k] = *idx;
        continue;
      }
      auto r = eval(items[k].has_value ? items[k].key + "=" + items[k].value : items[k].key);
      if (!r) return out;
      if (rel) {
        v[k] = d.lo + r->value * (d.hi - d.lo);
      } else {
        auto tv = d.transform(r->value);
        if (!tv) return out;
        v[k] = *tv;
      }
    }
    // in the data scope: local units are data units (xvec/yvec scaled, origin shifted); in the
    // extra description's scope the same point of the page
    out.local = v[0] * s.xvec + v[1] * s.yvec + v[2] * s.zvec;
    if (description_open_) {
      const ir::Settings& f = data_frame_;
      out.local = s.ctm.inverse().apply(f.ctm.apply(v[0] * f.xvec + v[1] * f.yvec + v[2] * f.zvec));
    }
    return out;
  }

  // `xticklabel cs:t[,d]` (pgfplots manual 4.9.3, "Alignment of axis descriptions"): on the line
  // the x tick labels stand on, t along the axis, moved out by how far the tick labels reach
  // (\pgfplotsvalueoflargesttickdimen) and by d (a length, or a number of pt); `xticklabel* cs`
  // by d alone. Two-dimensional laid-out axes; a 3D axis' is not handled (reported).
  Coordinate ticklabel_coordinate(std::string_view system, std::string_view args, const ir::Settings& s,
                                  const Eval& eval) {
    if (!axis_ || three_d_ || !laid_out_2d_) return {};
    Coordinate out;
    out.handled = true;
    auto items = tex::split_options(args);
    if (items.empty() || items.size() > 2) return out;
    auto t = eval(items[0].key);
    if (!t) return out;
    double shift = 0;
    if (items.size() == 2) {
      auto d = eval(items[1].key);
      if (!d) return out;
      shift = d->value;  // a length in pt, or a number read as pt
    }
    const bool xd = system[0] == 'x', star = system.back() == '*';
    const Direction& d = xd ? x_ : y_;
    const LabelSide side = label_side(d);
    const Point at = side.point(t->value * d.length, (star ? 0 : ticklabel_reach_[xd ? 0 : 1]) + shift);
    out.local = s.ctm.inverse().apply(frame_.ctm.apply(at));
    return out;
  }

  bool covers_problem(std::string_view code) const override {
    // inside an axis it cannot lay out, every problem (a math error on pgfplots' own macros in a
    // TikZ path, an unknown key) rests on what the one warning already says
    return depth_ > 0 && failed_;
  }

  void end_picture(ir::LibraryHost& host) override {
    if (!not_lowered_.valid) {
      // every axis laid out: the rules read the picture as any other (approximate ones aside)
      if (!any_approximate_) host.set_uses_axis(false);
      return;
    }
    Diagnostic dg;
    dg.rule = "unsupported-construct";
    dg.severity = Severity::warning;
    dg.message = "pgfplots axis is not lowered: " + not_lowered_reason_;
    dg.range = not_lowered_;
    host.report(dg, "pgfplots axis");
    host.mark_incomplete();
  }

 private:
  void begin_axis(const tex::Statement& st, const std::string& env, ir::LibraryHost& host);
  void begin_group(const tex::Statement& st, ir::LibraryHost& host);
  void next_group_plot(const tex::Statement& st, ir::LibraryHost& host);
  void open_group_cell(ir::LibraryHost& host);
  void end_axis(const tex::Statement& st, ir::LibraryHost& host);
  // `text`: the \addplot's own text (a \nextgroupplot statement carries one after its options)
  void lower_addplot(const tex::Statement& st, ir::LibraryHost& host, const std::string& text);
  void lower_addplot3(const tex::Statement& st, ir::LibraryHost& host, const std::string& text);
  void lower_fill_between(const AddPlot& ap, const std::string& draw_opts, const tex::Statement& st,
                          ir::LibraryHost& host);
  void layout_3d(const tex::Statement& st, ir::LibraryHost& host);
  void draw_title(double W, double H, ir::LibraryHost& host, std::uint32_t whole);
  void open_data_frame(const tex::Statement& st, ir::LibraryHost& host, ir::Settings s, const std::vector<Point>& outline,
                       bool is_rectangle);
  std::optional<std::size_t> plot3_scanline(const AddPlot& ap, ir::LibraryHost& host, std::string& why) const;
  std::optional<Point> near_ticklabel_center(Point at, Point inward, Point along, bool rotated, const std::string& opts,
                                             const std::string& text, ir::LibraryHost& host, ir::Box* box) const;
  void read_legend_command(const std::string& t, const tex::Statement& st, ir::LibraryHost& host);
  void read_legend_style(const std::string& v, std::uint32_t at);
  void draw_legend(ir::LibraryHost& host);
  bool read_keys(const tex::Statement& st, const std::string& env, ir::LibraryHost& host);
  bool set_axis_line(Direction& d, const std::string& m, bool star, std::uint32_t at);
  // `every axis x label/.style={...}`: the placement, which drops what `xlabel style` appended before
  static void set_label_place(Direction& d, LabelPlace p) { d.label_at = std::move(p), d.label_style.clear(); }
  // `xlabel near ticks` / `xlabel absolute` (or compat's `labels`): the axis label's and the tick
  // scale label's places together
  void set_label_places(Direction& d, bool near) {
    set_label_place(d, near ? near_label(d.name) : absolute_label(d.name));
    d.scale_at = near ? near_scale_label(d.name) : absolute_scale_label(d.name);
  }
  // The common factor's text, `$\cdot 10^{e}$` (xtick scale label code, tick scale binop).
  std::string scale_label_text(int e) const { return "$" + tick_scale_binop_ + " 10^{" + std::to_string(e) + "}$"; }
  // An em of the font in force, for the description places written in em.
  static double em_pt(ir::LibraryHost& host) {
    std::string err;
    auto em = host.eval("1em", &err);
    return em ? em->value : kDefaultEmPt;
  }
  // The exponent of the tick labels' common factor (`scaled ticks`), 0 for none.
  int scale_exponent(const Direction& d) const {
    return !d.scaled || d.log || d.ticks || d.tick_labels || !d.symbols.empty() ? 0 : tick_scale_exponent(d.lo, d.hi);
  }
  // The common factor is placed where both lines are the box's, the lower ones or none (the other
  // axis lines' styles move it elsewhere, not modelled), in a two-dimensional axis; in a 3D axis
  // (boxed: layout_3d reports the other lines) with `every 3d description`, not in the view from
  // above ({0}{90}), which takes the 2D styles.
  bool scale_label_modelled() const {
    auto plain = [](const Direction& d) { return d.line == "box" || d.line == "lower" || d.line == "none"; };
    if (three_d_) return !(view_az_ == 0 && view_el_ == 90);
    return plain(x_) && plain(y_);
  }
  // The line a direction's tick labels stand on (pt from the box's lower left corner) and its
  // outer normal: the lower line of a box, or the axis line (pgfplots' ticklabel axis spec).
  struct LabelSide {
    bool x = true;     // the labels run along x
    double base = 0;   // where the line crosses the other direction (pt)
    Point normal;      // outer unit normal
    std::string anchor;  // `near ticklabel`: the side facing the line
    Point point(double along, double out) const {
      return x ? Point{along, base + normal.y * out} : Point{base + normal.x * out, along};
    }
  };
  LabelSide label_side(const Direction& d) const;
  void draw_description(const Direction& d, const LabelPlace& lp, const std::string& before, const std::string& after,
                        const std::string& text, double W, double H, double reach, std::uint32_t whole,
                        ir::LibraryHost& host);
  void draw_axis_lines(double W, double H, std::uint32_t whole, ir::LibraryHost& host);
  void draw_outer_ticks(double W, double H, std::uint32_t whole, ir::LibraryHost& host);
  double tick_clearance(const Direction& d) const {
    return d.tick_align == "center" ? major_tick_length_ / 2 : d.tick_align == "outside" ? major_tick_length_ : 0.0;
  }
  // a \nextgroupplot statement: its options and the text after them (the front end reads the
  // statement on to the next ';', so an \addplot may follow)
  static void split_group_cell(const std::string& t, std::string& opts, std::string& rest);
  bool compute_limits(const tex::Statement& st, ir::LibraryHost& host);
  void not_lowered(const tex::Statement& st, const std::string& why) {
    failed_ = true;
    if (!not_lowered_.valid) not_lowered_ = st.prov.range, not_lowered_reason_ = why;
  }
  std::optional<std::vector<double>> tick_list(const std::string& v, ir::LibraryHost& host);
  std::vector<double> tick_positions(const Direction& d) const;
  std::vector<std::pair<double, std::string>> tick_labels(const Direction& d, ir::LibraryHost& host,
                                                          const tex::Statement& st);
  Sampling sampling_from(const std::string& options, ir::LibraryHost& host) const;
  std::optional<double> number(const std::string& v, ir::LibraryHost& host) const {
    std::string err;
    auto r = host.eval(v, &err);
    if (!r) return std::nullopt;
    return r->value;
  }

  // One \addplot as the limits were computed: its type, its points (stacked values where the
  // plots stack), the stack below it, its place among the plots of the same bar type.
  struct Resolved {
    PlotKind kind;
    std::vector<Point> points, base;
    std::size_t type_index = 0, type_count = 1;
    ErrorBars errors;
    std::vector<Point> err_plus, err_minus;  // explicit error values (PlotData)
  };
  void draw_error_bars(const Resolved& r, const std::string& opts, const tex::Statement& st, ir::LibraryHost& host);
  PlotKind plot_kind(const AddPlot& ap) const;
  void draw_bars(const Resolved& r, const std::string& opts, const tex::Statement& st, ir::LibraryHost& host);
  void draw_interval_bars(const Resolved& r, const std::string& opts, const tex::Statement& st, ir::LibraryHost& host);
  void emit_in_plot_frame(const std::vector<std::string>& statements, const std::string& role, std::uint32_t whole,
                          ir::LibraryHost& host);
  void draw_rectangles(const std::vector<std::pair<Point, Point>>& bars, const std::string& opts, std::uint32_t whole,
                       ir::LibraryHost& host);
  std::optional<double> bar_shift_pt(const Resolved& r, ir::LibraryHost& host) const;
  void draw_nodes_near_coords(const Resolved& r, const tex::Statement& st, ir::LibraryHost& host);

  const tex::Picture& pic_;
  std::string axis_plot_keys_;  // the axis' plot-type keys (ybar, bar width, const plot...): every plot's
  std::map<const tex::Statement*, Resolved> resolved_;
  int depth_ = 0;
  int nested_ = 0;  // lower_statement calls in progress (> 0: a statement this package emitted)
  bool axis_ = false;    // the current axis is laid out (its data scope is open)
  bool failed_ = false;  // the current axis cannot be laid out: its one warning covers the rest
  std::uint32_t opt_base_ = 0;
  SourceRange not_lowered_;
  std::string not_lowered_reason_;
  Direction x_, y_, z_;
  // groupplots (pgfplots manual 5.8, tikzlibrarypgfplots.groupplots.code.tex): the group's own
  // options (every plot's), its grid, where each plot's box stands (picture frame, pt)
  bool group_ = false, group_cell_open_ = false;
  std::string group_opts_;
  int group_columns_ = 1, group_rows_ = 1, group_index_ = 0;
  double group_hsep_ = 0, group_vsep_ = 0;
  std::map<std::pair<int, int>, ir::Box> group_boxes_;
  // three-dimensional axes (an \addplot3 in the axis): the view and its projection
  bool three_d_ = false;
  std::string tick_scale_binop_ = "\\cdot";  // `tick scale binop`
  double view_az_ = 25, view_el_ = 30;
  View3d view_;
  std::vector<PlotData> data3_;  // reused by lower_addplot
  std::map<const tex::Statement*, PlotData> plots3_;
  std::string title_, title_style_, label_style_, tick_label_style_, grid_ = "none";
  // `compat` as a version number (1.18...; 0: unset, `default` or `pre 1.3`)
  double compat_ = 0;
  bool has_title_ = false, scale_only_ = false, clip_ = true, approximate_ = false, legend_ = false,
       legend_reported_ = false, any_approximate_ = false;
  // An unknown key moved the whole axis or changed how its coordinates are read (at=, anchor=,
  // shift, trig format=rad): every node lowered from axis_first_node_ on stands at a guessed place.
  bool place_unknown_ = false;
  std::size_t axis_first_node_ = 0;
  // An unknown key shifted the whole axis: its nodes are unplaced once the picture holds other
  // content (before it, or an axis after it: then from the shifted axis' first node on).
  bool moved_unknown_ = false;
  std::optional<std::size_t> shifted_axis_first_node_;
  bool earlier_content_ = false;
  double width_ = kDefaultWidthPt, height_ = kDefaultHeightPt;
  // `width=` / `height=` left empty (the size styles do): that one follows the other at the
  // default aspect ratio (pgfplots.scaling.code.tex)
  // `width` and `height` are empty unless given (pgfplots.code.tex: /pgfplots/width/.initial=):
  // neither given is 240pt x 207pt; one given, the other follows at that aspect ratio
  // (pgfplots.scaling.code.tex \pgfplots@set@default@size@options)
  bool width_given_ = false, height_given_ = false;
  bool legend_to_name_ = false;
  double title_shift_ = kTitleShiftPt;
  TickParameters tick_params_;
  int legend_columns_ = 1;
  double major_tick_length_ = kMajorTickLengthPt;
  Sampling sampling_;
  std::size_t plot_index_ = 0;
  std::vector<std::pair<std::string, std::uint32_t>> unknown_keys_;
  // the legend (pgfplots manual 4.9.5): its entries, the styles of the plots they show, where it stands
  std::vector<std::string> legend_entries_, legend_plot_styles_;
  std::vector<bool> legend_area_;  // the plot's legend image is `area legend`'s rectangle (fill between)
  double legend_at_x_ = kLegendAt, legend_at_y_ = kLegendAt;
  std::string legend_anchor_ = "north east", legend_font_, legend_cells_anchor_ = "center";
  const tex::Statement* begin_statement_ = nullptr;
  ir::Settings frame_;  // the picture's settings where the axis stands (its box from (0,0))
  // a two-dimensional axis' tick labels: how far they reach out from their lines (x, y), for
  // `xticklabel cs` (laid_out_2d_: known)
  std::array<double, 2> ticklabel_reach_ = {0, 0};
  bool laid_out_2d_ = false;
  // The code pgfplots runs around an axis (pgfplots.code.tex): `execute at begin axis` at the
  // start of the body; `before end axis/.code` then `execute at end axis` at its end (data frame,
  // clipped); `extra description/.code` after the legend, in axis description cs
  // (\pgfplots@draw@axis); `after end axis/.code` after the axis, in the picture, where
  // `current axis` names it (\pgfplots@END@init@and@draw@axis).
  struct AxisCode {
    std::string begin, before_end, end, extra_description, after_end;
  } code_;
  std::uint32_t code_span_ = 0;  // the size of the statement whose code runs (\begin{axis}, \end{axis}): it points there
  bool description_open_ = false;  // extra description code runs: `axis cs:` maps through data_frame_
  ir::Settings data_frame_;        // the data frame's settings (open_data_frame)
  void run_axis_code(const std::string& code, const char* hook, bool in_axis, ir::LibraryHost& host);
  void name_current_axis(double W, double H, ir::LibraryHost& host);
  // The colorbar (pgfplots manual 4.9.13 "Color Bars"; pgfplots.code.tex `colorbar right`, `left`,
  // `horizontal`, `every colorbar global`): after the axis, an axis of its own beside the parent's
  // outer box, with the axis-wide point meta range as its limits.
  bool colorbar_ = false;
  char colorbar_side_ = 'r';  // r(ight), l(eft), b (horizontal, below)
  std::string colorbar_style_;  // `colorbar style` keys, each ",{...}"
  double colorbar_width_ = kColorbarWidthPt;
  std::uint32_t colorbar_at_ = 0;  // where the key that switched it on stands (its options)
  std::optional<double> meta_min_, meta_max_;  // `point meta min` / `point meta max`
  std::vector<std::pair<std::string, std::uint32_t>> upper_ticklabel_keys_;  // `yticklabel pos=right`...
  // `name=`, `at=`, `anchor=`, `xshift`/`yshift` of the axis (pgfplots manual 4.19 "Alignment"):
  // the axis, typeset as a node, has its anchor (a compass anchor of its box, `origin`...) at
  // `at` (default (0,0) and south west), then shifted. Kept as written; begin_axis places it.
  struct PlacementKey {
    std::string key, value;
    std::uint32_t at = 0;
  };
  std::string axis_name_;
  std::uint32_t axis_name_at_ = 0;
  std::vector<PlacementKey> placement_keys_;
  // the place read from them: `at` (canvas pt, nullopt: (0,0) of the frame), the anchor, shifts (pt)
  struct Placement {
    std::optional<Point> at;
    std::string anchor = "south west";
    Point shift{0, 0};
  };
  std::optional<Placement> placement_;
  bool placement_open_ = false;  // the scope that places the axis is open
  std::optional<Point> anchor_offset(const std::string& anchor, double W, double H) const;
  std::string axis_point_meta_;                // the axis' `point meta`: every plot's
  // The axis-wide point meta range (pgfplots' \pgfplots@axiswide@metamin/max) over the plots that
  // have point meta; `unknown`: a plot's meta is not modelled (explicit, an expression, rand)
  struct Meta {
    double lo = INFINITY, hi = -INFINITY;
    std::string unknown;
    void add(double v) { lo = std::min(lo, v), hi = std::max(hi, v); }
  } meta_;
  // The meta source of one plot (`point meta` / `scatter src` as written, or the axis'), and
  // whether its type uses meta unless told `none` (mesh, surf, scatter, contour, patch,
  // nodes near coords: `set point meta if empty=f(x)`): 'x', 'y', 'z', 'X'/'Y'/'Z' (raw), 0 none,
  // '?' not modelled
  char plot_meta_source(const std::string& options, bool three_d);
  void add_plot_meta(char src, const std::vector<Point>& points, const std::vector<double>& z);
  // The parent axis' inner box (canvas pt; the bounding box of its outline, \pgfplotspointbb)
  std::optional<ir::Box> inner_box_;
  bool probe_open_ = false;  // a begin_bbox_probe for the colorbar is open
  void draw_colorbar(const tex::Statement& st, std::optional<ir::Box> outer, ir::LibraryHost& host);
};

void AxisPicture::read_legend_style(const std::string& v, std::uint32_t at) {
  for (const auto& it : tex::split_options(v)) {
    const std::string k = strip_prefix(tex::normalise_key(it.key));
    const std::string val = trimmed(tex::strip_braces(it.value));
    if (k == "at") {
      // at={(x,y)}: rel axis coordinates
      std::string c = val;
      if (c.size() >= 2 && c.front() == '(' && c.back() == ')') c = c.substr(1, c.size() - 2);
      auto xy = tex::split_options(c);
      std::optional<double> ax, ay;
      if (xy.size() == 2) ax = parse_number(xy[0].key), ay = parse_number(xy[1].key);
      if (ax && ay) legend_at_x_ = *ax, legend_at_y_ = *ay;
      else unknown_keys_.push_back({"legend style at=" + val, at});
    } else if (k == "anchor") {
      legend_anchor_ = val;
    } else if (k == "legend columns") {
      auto n = parse_number(val);
      if (n && (*n == -1 || *n >= 1)) legend_columns_ = static_cast<int>(*n);
      else unknown_keys_.push_back({"legend style legend columns=" + val, at});
    } else if (k == "font") {
      legend_font_ = val;
    } else if (k == "draw" || k == "fill" || k == "line width" || k == "thick" || k == "thin" || k == "text" ||
               k == "opacity" || k == "fill opacity" || k == "draw opacity" || k == "text opacity" ||
               k == "rounded corners" || (!it.has_value && k.find('!') != std::string::npos)) {
      // paint only
    } else if (k == "cells" && (val == "anchor=west" || val == "anchor=east" || val == "anchor=center")) {
      legend_cells_anchor_ = val.substr(7);
    } else {
      unknown_keys_.push_back({"legend style " + k, at});
    }
  }
}

void AxisPicture::read_legend_command(const std::string& t, const tex::Statement& st, ir::LibraryHost& host) {
  std::size_t i = t.find('{');
  if (starts_with(t, "\\addlegendentry")) {
    std::size_t b = t.find('[');
    if (b != std::string::npos && b < i) i = t.find('{', ir::text_skip_group(t, b));
  }
  std::size_t j = i == std::string::npos ? std::string::npos : ir::text_skip_group(t, i);
  if (j == std::string::npos) {
    host.problem("unsupported-construct", "legend command without a braced argument is not modelled", 0,
                 static_cast<std::uint32_t>(st.text.size()));
    return;
  }
  const std::string arg = t.substr(i + 1, j - i - 2);
  if (starts_with(t, "\\addlegendentry")) {
    legend_entries_.push_back(trimmed(arg));
  } else {
    legend_entries_.clear();
    for (const auto& it : tex::split_options(arg))
      legend_entries_.push_back(trimmed(tex::strip_braces(it.has_value ? it.key + "=" + it.value : it.key)));
  }
}

// The legend as pgfplots' `every axis legend` typesets it: a matrix (inner xsep 3pt, inner ysep
// 2pt, drawn and filled) of rows <legend image | text>, the image 0.6cm of the plot's line, each
// text a node with inner sep 2pt and text depth 0.15em, at (0.98,0.98) of the axis, anchor north
// east (`legend pos`, `legend style={at=..,anchor=..}` move it).
void AxisPicture::draw_legend(ir::LibraryHost& host) {
  // `legend to name`: the legend is typeset where \ref{name} stands, not in the axis
  if (legend_entries_.empty() || legend_to_name_) return;
  const std::uint32_t whole = begin_statement_ ? static_cast<std::uint32_t>(begin_statement_->text.size()) : 0;
  const std::string text_opts = "inner sep=2pt,text depth=0.15em" + (legend_font_.empty() ? "" : ",font=" + legend_font_);
  // `legend columns` (-1: all entries in one row): the entries fill the rows left to right; a
  // column is as wide as its widest text (plus the image), a row as high as its highest text
  const std::size_t n = legend_entries_.size();
  const std::size_t cols = legend_columns_ < 0 ? n : std::min<std::size_t>(n, static_cast<std::size_t>(legend_columns_));
  const std::size_t rows = (n + cols - 1) / cols;
  std::vector<ir::NodeExtent> cells;
  std::vector<double> col_w(cols, 0), row_h(rows, 0);
  for (std::size_t k = 0; k < n; ++k) {
    auto m = host.measure_node(text_opts, legend_entries_[k]);
    if (!m) return;
    cells.push_back(*m);
    col_w[k % cols] = std::max(col_w[k % cols], m->box.width());
    row_h[k / cols] = std::max(row_h[k / cols], m->box.height());
  }
  double w = 2 * kLegendInnerXSepPt, h = 2 * kLegendInnerYSepPt;
  for (double c : col_w) w += kLegendImageWidthPt + c;
  for (double r : row_h) h += r;
  const std::string box_opts = "draw,fill=white,inner sep=0pt,minimum width=" + pt(w) + ",minimum height=" + pt(h) +
                               ",anchor=" + legend_anchor_;
  // axis description cs: the box (the projected box's bounding box in 3D)
  const double px = legend_at_x_ * (three_d_ ? view_.width : x_.length),
               py = legend_at_y_ * (three_d_ ? view_.height : y_.length);
  auto m = host.measure_node(box_opts, "");
  if (!m) return;
  const std::size_t first = host.node_count();
  host.emit("\\node[" + box_opts + "] at (" + pt(px) + "," + pt(py) + ") {};", 0, whole);
  const ir::Box box{m->box.xmin + px, m->box.ymin + py, m->box.xmax + px, m->box.ymax + py};
  double top = box.ymax - kLegendInnerYSepPt;
  for (std::size_t r = 0; r < rows; ++r) {
    double image_x = box.xmin + kLegendInnerXSepPt;
    const double cy = top - row_h[r] / 2;
    for (std::size_t c = 0; c < cols && r * cols + c < n; ++c) {
      const std::size_t k = r * cols + c;
      const double cw = cells[k].box.width(), col_x = image_x + kLegendImageWidthPt;
      double cx = col_x + col_w[c] / 2;
      if (legend_cells_anchor_ == "west") cx = col_x + cw / 2;
      if (legend_cells_anchor_ == "east") cx = col_x + col_w[c] - cw / 2;
      host.emit("\\node[" + text_opts + "] at (" + pt(cx) + "," + pt(cy) + ") {" + legend_entries_[k] + "};", 0, whole);
      const std::string style = k < legend_plot_styles_.size() ? legend_plot_styles_[k] : std::string();
      if (k < legend_area_.size() && legend_area_[k]) {
        // `area legend` (pgfplots.code.tex): \draw[style] (0cm,-0.1cm) rectangle (0.6cm,0.1cm)
        const double x0 = image_x + kLegendLineInsetPt, half = 0.1 * ir::kPtPerCm;
        host.emit("\\draw[" + style + "] (" + pt(x0) + "," + pt(cy - half) + ") rectangle (" +
                      pt(x0 + 0.6 * ir::kPtPerCm) + "," + pt(cy + half) + ");",
                  0, whole);
        image_x = col_x + col_w[c];
        continue;
      }
      // the image: pgfplots' `legend image code`, a line through (0cm,0) (0.3cm,0) (0.6cm,0)
      host.emit("\\draw[" + style + "] (" + pt(image_x + kLegendLineInsetPt) + "," + pt(cy) + ") -- (" +
                    pt(image_x + kLegendImageWidthPt - kLegendLineInsetPt) + "," + pt(cy) + ");",
                0, whole);
      image_x = col_x + col_w[c];
    }
    top -= row_h[r];
  }
  host.set_node_role(first, "legend");
}

std::optional<std::vector<double>> AxisPicture::tick_list(const std::string& v0, ir::LibraryHost& host) {
  std::string v = trimmed(v0);
  std::vector<double> out;
  if (v.empty() || v == "\\empty" || v == "{}") return out;
  auto items = tex::split_options(v);
  for (std::size_t i = 0; i < items.size(); ++i) {
    const std::string it = trimmed(items[i].key);
    if (it == "...") {
      if (out.empty() || i + 1 >= items.size()) return std::nullopt;
      const double step = out.size() >= 2 ? out.back() - out[out.size() - 2] : 1;
      auto end = number(trimmed(items[i + 1].key), host);
      if (!end || step == 0 || (*end - out.back()) / step > 10000) return std::nullopt;
      for (double t = out.back() + step; step > 0 ? t < *end - 1e-9 * std::abs(step) : t > *end + 1e-9 * std::abs(step);
           t += step)
        out.push_back(t);
      continue;
    }
    auto n = number(it, host);
    if (!n) return std::nullopt;
    out.push_back(*n);
  }
  return out;
}

Sampling AxisPicture::sampling_from(const std::string& options, ir::LibraryHost& host) const {
  Sampling s = sampling_;
  for (const auto& it : tex::split_options(options)) {
    const std::string k = strip_prefix(tex::normalise_key(it.key));
    const std::string v = trimmed(tex::strip_braces(it.value));
    if (k == "domain") {
      auto colon = v.find(':');
      if (colon == std::string::npos) continue;
      auto a = number(v.substr(0, colon), host), b = number(v.substr(colon + 1), host);
      if (a && b) s.lo = *a, s.hi = *b;
    } else if (k == "samples") {
      if (auto n = number(v, host)) s.samples = static_cast<int>(std::lround(*n));
    } else if (k == "domain y" || k == "y domain") {
      auto colon = v.find(':');
      if (colon == std::string::npos) continue;
      auto a = number(v.substr(0, colon), host), b = number(v.substr(colon + 1), host);
      if (a && b) s.domain_y = std::make_pair(*a, *b);
    } else if (k == "samples y") {
      if (auto n = number(v, host)) s.samples_y = static_cast<int>(std::lround(*n));
    } else if (k == "variable y") {
      s.variable_y = v.size() > 1 && v[0] == '\\' ? v.substr(1) : v;
    } else if (k == "variable") {
      s.variable = v.size() > 1 && v[0] == '\\' ? v.substr(1) : v;
    } else if (k == "samples at") {
      std::string err;
      // a \foreach list: a, b, ..., c
      s.at.clear();
      auto items = tex::split_options(v);
      for (std::size_t i = 0; i < items.size(); ++i) {
        const std::string it2 = trimmed(items[i].key);
        if (it2 == "..." && !s.at.empty() && i + 1 < items.size()) {
          const double step = s.at.size() >= 2 ? s.at.back() - s.at[s.at.size() - 2] : 1;
          auto end = number(trimmed(items[i + 1].key), host);
          if (!end || step == 0 || (*end - s.at.back()) / step > 10000) break;
          for (double t = s.at.back() + step; step > 0 ? t < *end - 1e-9 : t > *end + 1e-9; t += step) s.at.push_back(t);
          continue;
        }
        if (auto n = number(it2, host)) s.at.push_back(*n);
      }
    }
  }
  return s;
}

// The axis' options: what is modelled is read, what only paints is accepted, the rest is reported.
bool AxisPicture::read_keys(const tex::Statement& st, const std::string& env, ir::LibraryHost& host) {
  std::string t(ir::text_trim(st.text));
  std::string opts;
  std::size_t open = t.find('[');
  if (starts_with(t, "\\nextgroupplot")) {
    std::string rest;
    split_group_cell(t, opts, rest);
    open = t.find('[');
    if (open != 14) open = std::string::npos;
  } else if (open != std::string::npos && t.back() == ']') {
    opts = t.substr(open + 1, t.size() - open - 2);
  }
  compat_ = 0;
  x_ = Direction{};
  y_ = Direction{};
  x_.name = 'x';
  y_.name = 'y';
  z_ = Direction{};
  z_.name = 'z';
  // compat unset: `compat/labels/default` is pre 1.3, xlabel absolute and ylabel absolute
  set_label_places(x_, false), set_label_places(y_, false);
  view_az_ = kDefaultAzimuth, view_el_ = kDefaultElevation;
  three_d_ = false;
  laid_out_2d_ = false;
  x_.log = env == "semilogxaxis" || env == "loglogaxis";
  y_.log = env == "semilogyaxis" || env == "loglogaxis";
  title_.clear(), title_style_.clear(), label_style_.clear(), tick_label_style_.clear();
  grid_ = "none";
  has_title_ = scale_only_ = approximate_ = legend_ = legend_reported_ = false;
  clip_ = true;
  width_ = kDefaultWidthPt, height_ = kDefaultHeightPt;
  width_given_ = height_given_ = false;
  legend_to_name_ = false;
  title_shift_ = kTitleShiftPt;
  tick_params_ = TickParameters{};
  legend_columns_ = 1;
  major_tick_length_ = kMajorTickLengthPt;
  sampling_ = Sampling{};
  plot_index_ = 0;
  unknown_keys_.clear();
  place_unknown_ = moved_unknown_ = false;
  legend_entries_.clear(), legend_plot_styles_.clear(), legend_area_.clear();
  legend_at_x_ = legend_at_y_ = kLegendAt;
  legend_anchor_ = "north east", legend_font_.clear(), legend_cells_anchor_ = "center";
  begin_statement_ = &st;
  axis_plot_keys_.clear();
  resolved_.clear();
  code_ = AxisCode{};
  colorbar_ = false, colorbar_side_ = 'r', colorbar_style_.clear(), colorbar_width_ = kColorbarWidthPt;
  colorbar_at_ = 0;
  upper_ticklabel_keys_.clear();
  axis_name_.clear(), axis_name_at_ = 0, placement_keys_.clear(), placement_.reset();
  meta_min_.reset(), meta_max_.reset(), axis_point_meta_.clear();
  meta_ = Meta{};
  inner_box_.reset();
  const std::uint32_t opt_base = open == std::string::npos ? 0 : static_cast<std::uint32_t>(open + 1);
  // `every axis` first (pgfplots.code.tex \pgfplots@init@options: the style, then the axis'
  // options): \pgfplotsset's plain keys and `every axis/.append style` land there (tex/expander.cpp)
  std::vector<tex::FlatKey> keys = host.expand_keys("every axis");
  if (group_ && !group_opts_.empty()) {
    // a groupplot's options hold for each of its plots, before the plot's own
    std::vector<tex::FlatKey> g = host.expand_keys(group_opts_);
    keys.insert(keys.end(), g.begin(), g.end());
  }
  for (tex::FlatKey& fk : keys) fk.begin = fk.end = 0;
  // a tick length set in `every tick` (defined through \pgfplotsset, so it is in the style table;
  // Tikz-IM.sty sets `tickwidth=.1in` there): pgfplots reads it as the axis' /pgfplots/tickwidth
  for (const tex::FlatKey& fk : host.expand_keys("every tick")) {
    if (fk.has_value && (strip_prefix(fk.key) == "tickwidth" || strip_prefix(fk.key) == "major tick length"))
      if (auto n = number(fk.value, host)) major_tick_length_ = *n;
  }
  {
    std::vector<tex::FlatKey> own = host.expand_keys(opts);
    keys.insert(keys.end(), std::make_move_iterator(own.begin()), std::make_move_iterator(own.end()));
  }
  // `every axis post` (pgfplots.code.tex \pgfplots@init@options: after the axis' options): its
  // keys are read after the others
  std::string post;
  bool post_read = false;
  for (std::size_t key_index = 0;; ++key_index) {
    if (key_index == keys.size()) {
      if (post_read || post.empty()) break;
      post_read = true;
      std::vector<tex::FlatKey> more = host.expand_keys(post);
      for (tex::FlatKey& e : more) e.begin = e.end = 0;
      keys.insert(keys.end(), more.begin(), more.end());
      if (key_index == keys.size()) break;
    }
    const tex::FlatKey fk = keys[key_index];
    const std::string k = strip_prefix(fk.key);
    if (const char* style = size_style(k); style && !fk.has_value) {
      // pgfplots' size styles (pgfplots.code.tex, /pgfplots/small/.style...): their keys in place
      std::vector<tex::FlatKey> expansion = host.expand_keys(style);
      for (tex::FlatKey& e : expansion) e.begin = fk.begin, e.end = fk.end;
      keys.insert(keys.begin() + static_cast<std::ptrdiff_t>(key_index) + 1, expansion.begin(), expansion.end());
      continue;
    }
    if (k == "every axis" && !fk.has_value) continue;  // not defined: nothing to apply
    const std::string v = fk.value;
    auto dir = [&](char c) -> Direction& { return c == 'x' ? x_ : c == 'y' ? y_ : z_; };
    auto on_both = [&](auto&& f) { f(x_), f(y_), f(z_); };
    PlotKind probe;
    if (read_plot_kind_key(k, trimmed(v), fk.has_value, probe)) {
      // every plot of the axis is of this type (pgfplots applies them in the axis' scope)
      axis_plot_keys_ += "," + k + (fk.has_value ? "={" + v + "}" : "");
      if (char d = outside_ticks_of(k)) dir(d).tick_align = "outside";
      if (probe.intervals()) {
        // ybar interval's axis keys: `x tick label as interval`, `xtick=data` (xmajorgrids: paint)
        Direction& along = dir(probe.vertical() ? 'x' : 'y');
        along.interval_labels = true, along.ticks_data = true, along.ticks.reset();
      }
      continue;
    }
    if (k == "symbolic x coords" || k == "symbolic y coords") {
      std::vector<std::string> names;
      for (const auto& it : tex::split_options(v))
        names.push_back(trimmed(tex::strip_braces(it.has_value ? it.key + "=" + it.value : it.key)));
      dir(k[9]).symbols = names;
      continue;
    }
    if (k == "view") {
      // view={az}{el} (pgfplots manual 4.11.1)
      std::size_t e1 = 0;
      const std::string val = trimmed(v);
      std::optional<double> az, el;
      if (!val.empty() && val[0] == '{' && (e1 = ir::text_skip_group(val, 0)) != std::string::npos) {
        const std::size_t b2 = ir::text_skip_space(val, e1);
        const std::size_t e2 = b2 < val.size() && val[b2] == '{' ? ir::text_skip_group(val, b2) : std::string::npos;
        if (e2 != std::string::npos && trimmed(val.substr(e2)).empty()) {
          az = number(val.substr(1, e1 - 2), host), el = number(val.substr(b2 + 1, e2 - b2 - 2), host);
        }
      }
      if (az && el) view_az_ = *az, view_el_ = *el;
      else unknown_keys_.push_back({k + "=" + val, fk.begin});
      continue;
    }
    if (k == "view/h" || k == "view/v" || k == "view/az" || k == "view/el") {
      auto n = number(v, host);
      if (n) (k == "view/h" || k == "view/az" ? view_az_ : view_el_) = *n;
      else unknown_keys_.push_back({k + "=" + v, fk.begin});
      continue;
    }
    if (k == "xmin" || k == "xmax" || k == "ymin" || k == "ymax" || k == "zmin" || k == "zmax") {
      auto n = number(v, host);
      if (!n) n = data_value(v, dir(k[0]).symbols);
      if (!n) {
        unknown_keys_.push_back({k + "=" + v, fk.begin});
        continue;
      }
      Direction& d = dir(k[0]);
      (k.substr(1) == "min" ? d.user_min : d.user_max) = *n;
    } else if (k == "width" || k == "height") {
      auto n = number(v, host);
      if (n) (k == "width" ? width_ : height_) = *n, (k == "width" ? width_given_ : height_given_) = true;
      else if (trimmed(v).empty()) (k == "width" ? width_given_ : height_given_) = false;
      else unknown_keys_.push_back({k + "=" + v, fk.begin});
    } else if (k == "max space between ticks") {
      auto n = number(v, host);
      if (n && *n > 0) tick_params_.max_space_pt = *n;
      else unknown_keys_.push_back({k + "=" + v, fk.begin});
    } else if (k == "every axis title shift") {
      auto n = number(v, host);
      if (n) title_shift_ = *n;
      else unknown_keys_.push_back({k + "=" + v, fk.begin});
    } else if (k == "legend columns") {
      auto n = number(v, host);
      if (n && (*n == -1 || *n >= 1)) legend_columns_ = static_cast<int>(*n);
      else unknown_keys_.push_back({k + "=" + v, fk.begin});
    } else if (k == "scale only axis") {
      scale_only_ = !(fk.has_value && trimmed(v) == "false");
    } else if (k == "x" || k == "y") {
      auto n = number(v, host);
      if (n && *n > 0) dir(k[0]).unit = *n;
      else unknown_keys_.push_back({k + "=" + v, fk.begin});
    } else if (k == "enlargelimits") {
      on_both([&](Direction& d) { d.enlarge = fk.has_value ? trimmed(v) : "true"; });
    } else if (k == "enlarge x limits" || k == "enlarge y limits" || k == "enlarge z limits") {
      dir(k[8]).enlarge = fk.has_value ? trimmed(v) : "true";
    } else if (k == "xmode" || k == "ymode" || k == "zmode") {
      dir(k[0]).log = trimmed(v) == "log";
    } else if (k == "compat") {
      // pgfplots.code.tex /pgfplots/compat: `labels` (pre 1.3: xlabel/ylabel absolute, else near
      // ticks) and the axis line styles (pre 1.8 or post 1.8) of later keys; `newest` is 1.18
      const std::string m = trimmed(v);
      std::optional<double> c = m == "newest" ? std::optional<double>(kCompatNewest)
                                : m == "pre 1.3" || m == "default" || !fk.has_value ? std::optional<double>(0)
                                                                                     : parse_version(m);
      if (!c) {
        unknown_keys_.push_back({k + "=" + m, fk.begin});
        continue;
      }
      compat_ = *c;
      for (Direction* d : {&x_, &y_}) set_label_places(*d, compat_ >= version(1, 3));
    } else if (k == "axis lines" || k == "axis lines*" || k == "axis x line" || k == "axis y line" ||
               k == "axis z line" || k == "axis x line*" || k == "axis y line*" || k == "axis z line*") {
      const std::string m = trimmed(v);
      const bool star = k.back() == '*';
      bool ok = true;
      auto set = [&](Direction& d) {
        if (!set_axis_line(d, m, star, fk.begin)) ok = false;
      };
      // `axis lines=m` is `axis x line=m, axis y line=m, axis z line=m`, in that order
      if (k == "axis lines" || k == "axis lines*") set(x_), set(y_), set(z_);
      else set(dir(k[5]));
      if (!ok) unknown_keys_.push_back({k + "=" + m, fk.begin});
    } else if (k == "xlabel near ticks" || k == "ylabel near ticks" || k == "label near ticks") {
      // `every axis x label/.style={at={(ticklabel cs:0.5)},anchor=near ticklabel}`
      if (k[0] != 'y') set_label_places(x_, true);
      if (k[0] != 'x') set_label_places(y_, true);
    } else if (k == "every axis x label/.style" || k == "every axis y label/.style") {
      // a document's own placement (the style table passes its definition on in order)
      if (auto p = read_label_style(v)) set_label_place(dir(k[11]), *p);
      else unknown_keys_.push_back({k + "=" + trimmed(v).substr(0, 40), fk.begin});
    } else if (std::string* code = k == "execute at begin axis"   ? &code_.begin
                                   : k == "execute at end axis"   ? &code_.end
                                   : starts_with(k, "before end axis/.")   ? &code_.before_end
                                   : starts_with(k, "extra description/.") ? &code_.extra_description
                                   : starts_with(k, "after end axis/.")    ? &code_.after_end
                                                                           : nullptr) {
      // the axis' code (the style table passes the /.code definitions on as keys, in order)
      const std::string h = k.substr(std::min(k.size(), k.find("/.") == std::string::npos ? k.size() : k.find("/.")));
      if (h.empty() || h == "/.code") *code = v;
      else if (h == "/.append code") *code += "\n" + v;
      else if (h == "/.prefix code") *code = v + "\n" + *code;
      else unknown_keys_.push_back({k, fk.begin});
    } else if (k == "every axis post/.style" || k == "every axis post/.append style") {
      post = (k == "every axis post/.style" || post.empty() ? "" : post + ",") + v;
    } else if (k == "every axis legend/.style") {
      read_legend_style(v, fk.begin);
    } else if (k == "every axis title/.style" || k == "every axis label/.style" || k == "every axis z label/.style" ||
               k == "every tick label/.style" || k == "every x tick label/.style" ||
               k == "every y tick label/.style" || k == "every z tick label/.style") {
      // replaces where pgfplots puts them (`at`, `anchor`...): not modelled
      unknown_keys_.push_back({k + "=" + trimmed(v).substr(0, 40), fk.begin});
    } else if (k == "hide obscured x ticks" || k == "hide obscured y ticks") {
      dir(k[14]).hide_obscured = !(fk.has_value && trimmed(v) == "false");
    } else if (k == "xlabel absolute" || k == "ylabel absolute") {
      set_label_places(dir(k[0]), false);
    } else if (k == "tick pos" || k == "xtick pos" || k == "ytick pos") {
      // both (default), or the lower line only (left/bottom); ticks on the upper line alone
      // move the tick labels there, which is not modelled
      const std::string m = trimmed(v);
      const bool lower = m == "left" || m == "bottom" || m == "lower";
      if (m != "both" && !lower) unknown_keys_.push_back({k + "=" + m, fk.begin});
      else if (k == "tick pos") on_both([&](Direction& d) { d.ticks_upper = !lower; });
      else dir(k[0]).ticks_upper = !lower;
    } else if (k == "tick align" || k == "xtick align" || k == "ytick align") {
      const std::string m = trimmed(v);
      if (m != "inside" && m != "outside" && m != "center") unknown_keys_.push_back({k + "=" + m, fk.begin});
      else if (k == "tick align") on_both([&](Direction& d) { d.tick_align = m; });
      else dir(k[0]).tick_align = m;
    } else if (k == "every tick/.style" || k == "every tick/.append style") {
      // paints the ticks, except a length set in it (Tikz-IM.sty: `tickwidth=.1in` there), which
      // pgfplots reads as the axis' (pgfplotsticks.code.tex: /pgfplots/tickwidth)
      for (const auto& it : tex::split_options(v)) {
        const std::string ik = trimmed(it.key);
        if (it.has_value && (ik == "tickwidth" || ik == "major tick length")) {
          if (auto n = number(it.value, host)) major_tick_length_ = *n;
        }
      }
    } else if (k == "major tick length" || k == "tickwidth") {
      auto n = number(v, host);
      if (n) major_tick_length_ = *n;
      else unknown_keys_.push_back({k + "=" + v, fk.begin});
    } else if (k == "hide axis") {
      if (!(fk.has_value && trimmed(v) == "false")) x_.hidden = y_.hidden = true;
    } else if (k == "hide x axis" || k == "hide y axis" || k == "hide z axis") {
      if (!(fk.has_value && trimmed(v) == "false")) dir(k[5]).hidden = true;
    } else if (k == "xlabel" || k == "ylabel" || k == "zlabel") {
      dir(k[0]).label = tex::strip_braces(v);
      dir(k[0]).has_label = !trimmed(dir(k[0]).label).empty();
    } else if (k == "title") {
      title_ = tex::strip_braces(v);
      has_title_ = !trimmed(title_).empty();
    } else if (k == "xlabel style" || k == "ylabel style" || k == "zlabel style" ||
               k == "every axis x label/.append style" || k == "every axis y label/.append style" ||
               k == "every axis z label/.append style") {
      dir(k[0] == 'e' ? k[11] : k[0]).label_style += "," + v;
    } else if (k == "label style" || k == "every axis label/.append style") {
      label_style_ += "," + v;
    } else if (k == "title style" || k == "every axis title/.append style") {
      title_style_ += "," + v;
    } else if (k == "tick label style" || k == "ticklabel style" || k == "every tick label/.append style") {
      tick_label_style_ += "," + number_format_keys(v, [&](const std::string& sep) { x_.sep = y_.sep = z_.sep = sep; });
    } else if (k == "xticklabel style" || k == "yticklabel style" || k == "zticklabel style" ||
               k == "every x tick label/.append style" || k == "every y tick label/.append style" ||
               k == "every z tick label/.append style" || k == "x tick label style" || k == "y tick label style" ||
               k == "z tick label style") {
      Direction& d = dir(k[0] == 'e' ? k[6] : k[0]);
      d.ticklabel_style += "," + number_format_keys(v, [&](const std::string& sep) { d.sep = sep; });
    } else if (k == "xtick" || k == "ytick" || k == "ztick") {
      if (trimmed(v) == "data") {
        dir(k[0]).ticks_data = true;
        continue;
      }
      dir(k[0]).ticks_data = false;
      if (trimmed(v).empty() || trimmed(v) == "{}") {
        // an empty list is pgfplots' default ticks (\pgfplots@init@ticks@for); `\empty` is none
        dir(k[0]).ticks.reset();
        continue;
      }
      std::optional<std::vector<double>> l;
      if (!dir(k[0]).symbols.empty()) {
        l.emplace();
        for (const auto& it : tex::split_options(v)) {
          auto n = data_value(trimmed(tex::strip_braces(it.key)), dir(k[0]).symbols);
          if (!n) {
            l.reset();
            break;
          }
          l->push_back(*n);
        }
      } else {
        l = tick_list(v, host);
      }
      if (l) dir(k[0]).ticks = *l;
      else unknown_keys_.push_back({k + "=" + v, fk.begin});
    } else if (k == "x tick label as interval" || k == "y tick label as interval") {
      dir(k[0]).interval_labels = !(fk.has_value && trimmed(v) == "false");
    } else if (k == "xticklabel interval boundaries" || k == "yticklabel interval boundaries") {
      // pgfplots.code.tex: {x tick label as interval, xticklabel={$\pgfmathprintnumber{\tick}$ --
      // $\pgfmathprintnumber{\nexttick}$}}
      dir(k[0]).interval_labels = true;
      dir(k[0]).label_template = "$\\pgfmathprintnumber{\\tick}$ -- $\\pgfmathprintnumber{\\nexttick}$";
    } else if (k == "xticklabel" || k == "yticklabel") {
      // a trailing control space (`yticklabel=\ ,`: an empty-looking label) lost its space to
      // the trimming of the value: it is given back
      std::string t = tex::strip_braces(v);
      std::size_t slashes = 0;
      while (slashes < t.size() && t[t.size() - 1 - slashes] == '\\') ++slashes;
      if (slashes % 2 == 1) t += ' ';
      dir(k[0]).label_template = t;
    } else if (k == "xticklabels" || k == "yticklabels" || k == "zticklabels") {
      std::vector<std::string> labels;
      for (const auto& it : tex::split_options(v))
        labels.push_back(it.has_value ? it.key + "=" + it.value : trimmed(tex::strip_braces(it.key)));
      dir(k[0]).tick_labels = labels;
    } else if (k == "grid" || k == "xmajorgrids" || k == "ymajorgrids") {
      grid_ = k == "grid" ? (fk.has_value ? trimmed(v) : "major") : "major";
    } else if (k == "xminorgrids" || k == "yminorgrids" || k == "minor grid style") {
      // minor grid lines: paint only (lines inside the box)
    } else if (k == "domain" || k == "samples" || k == "variable" || k == "samples at" || k == "domain y" || k == "y domain" ||
               k == "samples y" || k == "variable y") {
      sampling_ = sampling_from(k + "={" + v + "}", host);
    } else if (k == "clip") {
      clip_ = !(fk.has_value && trimmed(v) == "false");
    } else if (k == "scaled ticks" || k == "scaled x ticks" || k == "scaled y ticks") {
      // true (the default): a common factor where the range needs one; false: none, the labels
      // are the values (pgfplotsticks.code.tex, case 0); the other choices are not modelled
      const std::string m = trimmed(v);
      if (m != "true" && m != "false") unknown_keys_.push_back({k + "=" + v, fk.begin});
      else if (k == "scaled ticks") on_both([&](Direction& d) { d.scaled = m == "true"; });
      else dir(k[7]).scaled = m == "true";
    } else if (k == "tick scale binop") {
      tick_scale_binop_ = trimmed(v);
    } else if (k == "every x tick scale label/.style" || k == "every y tick scale label/.style") {
      if (auto p = read_label_style(v)) dir(k[6]).scale_at = *p;
      else unknown_keys_.push_back({k + "=" + trimmed(v).substr(0, 40), fk.begin});
    } else if (k == "legend style" || k == "every axis legend/.append style") {
      read_legend_style(v, fk.begin);
    } else if (k == "legend pos") {
      // pgfplots.code.tex: /pgfplots/legend pos/<choice>
      const std::string m = trimmed(v);
      if (m == "south west") legend_at_x_ = 0.03, legend_at_y_ = 0.03, legend_anchor_ = m;
      else if (m == "south east") legend_at_x_ = 0.97, legend_at_y_ = 0.03, legend_anchor_ = m;
      else if (m == "north west") legend_at_x_ = 0.03, legend_at_y_ = 0.97, legend_anchor_ = m;
      else if (m == "north east") legend_at_x_ = 0.97, legend_at_y_ = 0.97, legend_anchor_ = m;
      else if (m == "outer north east") legend_at_x_ = 1.03, legend_at_y_ = 1, legend_anchor_ = "north west";
      else unknown_keys_.push_back({k + "=" + m, fk.begin});
    } else if (k == "legend to name") {
      legend_to_name_ = true;
    } else if (k == "legend cell align") {
      const std::string m = trimmed(v);
      if (m == "left") legend_cells_anchor_ = "west";
      else if (m == "right") legend_cells_anchor_ = "east";
      else legend_cells_anchor_ = "center";
    } else if (k == "legend entries") {
      legend_entries_.clear();
      for (const auto& it : tex::split_options(v))
        legend_entries_.push_back(trimmed(tex::strip_braces(it.has_value ? it.key + "=" + it.value : it.key)));
    } else if (k == "ticklabel pos" || k == "xticklabel pos" || k == "yticklabel pos") {
      // pgfplots.code.tex \pgfplots@ticklabel@pos@choice: left/bottom/lower (and default, the
      // lower line of a box) or right/top/upper; `both` and `none` are not modelled
      const std::string m = trimmed(v);
      const bool upper = m == "right" || m == "top" || m == "upper";
      if (!upper && m != "left" && m != "bottom" && m != "lower" && m != "default") {
        unknown_keys_.push_back({k + "=" + m, fk.begin});
      } else {
        if (k == "ticklabel pos") x_.labels_upper = y_.labels_upper = upper;
        else dir(k[0]).labels_upper = upper;
        // a three-dimensional axis places its tick labels its own way (layout_3d): not modelled there
        if (upper) upper_ticklabel_keys_.push_back({k + "=" + m, fk.begin});
      }
    } else if (k == "colorbar" || k == "colorbar right" || k == "colorbar left" || k == "colorbar horizontal" ||
               k == "colorbar sampled") {
      // `colorbar` (an \if, default true); the others choose its side and switch it on; `colorbar
      // sampled` draws the same box with sampled colours
      colorbar_ = !(k == "colorbar" && fk.has_value && trimmed(v) == "false");
      if (k == "colorbar right") colorbar_side_ = 'r';
      if (k == "colorbar left") colorbar_side_ = 'l';
      if (k == "colorbar horizontal") colorbar_side_ = 'b';
      colorbar_at_ = fk.begin;
    } else if (k == "name") {
      axis_name_ = trimmed(tex::strip_braces(v)), axis_name_at_ = fk.begin;
    } else if (k == "at" || k == "anchor" || k == "xshift" || k == "yshift") {
      // where the axis stands (placed in begin_axis when the model can; else reported there)
      placement_keys_.push_back({k, trimmed(tex::strip_braces(v)), fk.begin});
    } else if (k == "colorbar style") {
      colorbar_style_ += "," + v;
    } else if (k == "colorbar/width") {
      if (auto n = number(v, host); n && *n > 0) colorbar_width_ = *n;
      else unknown_keys_.push_back({k + "=" + v, fk.begin});
    } else if (k == "point meta min" || k == "point meta max") {
      auto n = number(v, host);
      if (n) (k == "point meta min" ? meta_min_ : meta_max_) = *n;
      else if (trimmed(v).empty()) (k == "point meta min" ? meta_min_ : meta_max_).reset();
      else unknown_keys_.push_back({k + "=" + v, fk.begin});
    } else if (k == "point meta") {
      axis_point_meta_ = trimmed(v);
    } else if ((starts_with(k, "colormap/") && !fk.has_value) || k == "colormap" || k == "colormap access" ||
               k == "cycle from colormap manual style") {
      // a colormap chosen (`colormap/viridis`) or defined and chosen (`colormap={name}{spec}`), how
      // colours are read from it, a cycle list of its colours: colours only, the colorbar's too
    } else if (appearance_keys().count(k) || (fk.has_value == false && !k.empty() && k.find('!') != std::string::npos)) {
      // paints only
    } else {
      unknown_keys_.push_back({k + (fk.has_value ? "=" + trimmed(v).substr(0, 40) : ""), fk.begin});
      if (moving_keys().count(k)) moved_unknown_ = true;
      else if (placing_keys().count(k)) place_unknown_ = true;
    }
  }
  opt_base_ = opt_base;
  return true;
}

// `axis x line=m` / `axis x line*=m` (pgfplots.code.tex, axis line style pre 1.8 / post 1.8):
// the starred key chooses the line only; the plain one also applies `every non boxed x axis`
// (tick align=center, enlarge x limits=false, an arrow at the line's end) and moves the axis
// labels as pgfplots' choice code does, which reads the other direction's line as set so far.
// false: not a choice pgfplots has (TeX stops there too).
bool AxisPicture::set_axis_line(Direction& d, const std::string& m, bool star, std::uint32_t at) {
  std::string line;
  if (m == "box" || m == "none") line = m;
  else if (m == "middle" || m == "center") line = "middle";
  else if (m == "left" || (d.name == 'x' && m == "bottom")) line = "lower";
  else if (m == "right" || (d.name == 'x' && m == "top")) line = "upper";
  else return false;
  d.line = line, d.line_at = at, d.star_none = star && line == "none";
  if (star || d.name == 'z') {
    // (a 3D axis has its own label styles, `every 3d description`; the z line is read there)
    if (!star && d.name == 'z' && line == "none") d.hidden = true;
    return true;
  }
  if (line == "none") {
    d.hidden = true;  // axis x line*/none, hide x axis
    return true;
  }
  const bool post18 = compat_ >= version(1, 8);
  const double zero = NAN;  // the other direction's zero (`current axis.right of origin`...)
  if (line == "box") {
    if (post18) set_label_place(d, near_label(d.name));
    return true;
  }
  d.enlarge = "false", d.tick_align = "center", d.arrow = true;  // every non boxed x axis
  Direction& other = d.name == 'x' ? y_ : x_;
  if (d.name == 'x' && line == "middle") {
    const bool y_right = other.line == "upper";
    if (post18) set_label_place(d, star_label(y_right ? 0 : 1, true));
    else set_label_place(d, y_right ? desc_label(0, zero, "anchor=south west") : desc_label(1, zero, "anchor=south east"));
  } else if (d.name == 'x' && line == "upper") {
    if (other.line == "middle")
      set_label_place(other, post18 ? star_label(0, true) : desc_label(zero, 0, "anchor=south west"));
    set_label_place(d, post18 ? near_label(d.name)
                              : desc_label(0.5, 1, "anchor=south,yshift=" + pt(kTopLabelShiftPt)));
  } else if (d.name == 'y' && line == "middle") {
    const bool x_top = other.line == "upper";
    if (post18) set_label_place(d, x_top ? star_label(0, false) : star_label(1, true));
    else set_label_place(d, x_top ? desc_label(zero, 0, "anchor=south west") : desc_label(zero, 1, "anchor=north west"));
  } else if (d.name == 'y' && line == "upper") {
    if (other.line == "middle")
      set_label_place(other, post18 ? star_label(0, false) : desc_label(0, zero, "anchor=south west"));
    set_label_place(d, post18 ? near_label(d.name)
                              : desc_label(1, 0.5, "xshift=" + pt(kRightLabelShiftPt) + ",rotate=90"));
  }
  return true;
}

// The plot type of one \addplot: the axis' plot-type keys, then its own.
PlotKind AxisPicture::plot_kind(const AddPlot& ap) const {
  PlotKind kind;
  for (const std::string& opts : {axis_plot_keys_, ap.options})
    for (const auto& it : tex::split_options(opts))
      read_plot_kind_key(strip_prefix(tex::normalise_key(it.key)), tex::strip_braces(it.value), it.has_value, kind);
  return kind;
}

// Limits from the user and from the data of every \addplot up to the matching \end{axis}.
bool AxisPicture::compute_limits(const tex::Statement& st, ir::LibraryHost& host) {
  std::size_t i = 0;
  while (i < pic_.statements.size() && &pic_.statements[i] != &st) ++i;
  // the axis' own \addplot statements: up to its \end, or for a group plot (which starts at its
  // \nextgroupplot) up to the next one
  std::vector<std::pair<std::size_t, std::string>> own;
  {
    const bool cell = starts_with(ir::text_trim(st.text), "\\nextgroupplot");
    if (cell) {
      std::string opts, rest;
      split_group_cell(std::string(ir::text_trim(st.text)), opts, rest);
      if (starts_with(rest, "\\addplot")) own.push_back({i, rest});
    }
    int d = cell ? 1 : 0;
    for (std::size_t j = cell ? i + 1 : i; j < pic_.statements.size(); ++j) {
      const std::string t(ir::text_trim(pic_.statements[j].text));
      if (cell && d == 1 && starts_with(t, "\\nextgroupplot")) break;
      if (starts_with(t, "\\begin{")) ++d;
      if (starts_with(t, "\\end{") && --d == 0) break;
      if (d == 1 && starts_with(t, "\\addplot")) own.push_back({j, t});
    }
  }
  std::vector<Point> data;
  std::vector<Point> first_points;  // `xtick=data`: the first plot's coordinates
  bool data_unknown = false;
  std::string unknown_why;
  const Symbols symbols{x_.symbols, y_.symbols};
  std::vector<Point> stack;  // the stacked plots so far (pgfplots stacks by coordinate index)
  std::map<int, std::vector<Resolved*>> bar_groups;  // bar plots with `bar shift auto`, by handler
  std::vector<std::array<double, 3>> data3;  // a 3D axis' data (x, y, z)
  // `table {file}`: read next to the input under the read policy; problems point at the axis
  const ReadFile read_file = [&](const std::string& name) {
    return host.read_data_file(name, 0, static_cast<std::uint32_t>(st.text.size()), kMaxDataFileBytes);
  };
  plots3_.clear();
  // an axis with an \addplot3 is three-dimensional (pgfplots sets \ifpgfplots@threedim there)
  {
    for (const auto& [j, text] : own)
      if (starts_with(text, "\\addplot3")) three_d_ = true;
  }
  for (const auto& [j, t] : own) {
    auto ap = split_addplot(t);
    if (!ap) continue;
    // fill between surveys no data: it fills between paths the other plots made
    // (tikzlibrarypgfplots.fillbetween.code.tex enqueues a TikZ instruction, not coordinates)
    if (ap->fill_between && !three_d_) continue;
    if (three_d_) {
      if (!ap->three_d) {
        not_lowered(st, "a two-dimensional \\addplot in a three-dimensional axis is not modelled");
        return false;
      }
      std::string why;
      PlotData pd;
      const std::optional<std::size_t> cols = plot3_scanline(*ap, host, why);
      if (why.empty()) {
        pd = read_plot_data3(ap->source, sampling_from(ap->options, host),
                             [&](const std::string& e) { return number(e, host); }, read_file);
        why = pd.unsupported;
      }
      if (!why.empty()) {
        data_unknown = true, unknown_why = why;
        continue;
      }
      if (cols) pd.scanline = *cols;
      if (colorbar_) add_plot_meta(plot_meta_source(ap->options, true), pd.points, pd.z);
      for (std::size_t k = 0; k < pd.points.size(); ++k) data3.push_back({pd.points[k].x, pd.points[k].y, pd.z[k]});
      if (first_points.empty()) first_points = pd.points;
      plots3_[&pic_.statements[j]] = std::move(pd);
      continue;
    }
    std::string unmodelled;
    Resolved r;
    r.errors = read_error_bars(ap->options, [&](const std::string& e) { return number(e, host); });
    {
      const auto items = tex::split_options(ap->options);
      for (std::size_t q = 0; q < items.size(); ++q)
        if (const std::string k = strip_prefix(tex::normalise_key(items[q].key));
            unmodelled.empty() && !r.errors.consumed[q] && unmodelled_plot_key(k) && !line_mesh(k, *ap))
          unmodelled = k;
    }
    if (unmodelled.empty() && !r.errors.unsupported.empty()) unmodelled = r.errors.unsupported;
    r.kind = plot_kind(*ap);
    if (!unmodelled.empty() || !r.kind.unsupported.empty()) {
      data_unknown = true,
      unknown_why = "a plot type that is not modelled ('" + (unmodelled.empty() ? r.kind.unsupported : unmodelled) + "')";
      continue;
    }
    const Sampling s = sampling_from(ap->options, host);
    PlotData pd =
        read_plot_data(ap->source, s, [&](const std::string& e) { return number(e, host); }, symbols, read_file);
    if (!pd.unsupported.empty()) {
      data_unknown = true, unknown_why = pd.unsupported;
      continue;
    }
    if (r.kind.hist) {
      // the histogram of the data (statistics library): its points are what the plot draws and
      // what the limits see; data min/max default to the axis' xmin/xmax, else the data's
      std::vector<double> values;
      for (const Point& q : pd.points) values.push_back(r.kind.hist_data == 'x' ? q.x : q.y);
      auto bound = [&](const std::string& given, const std::optional<double>& user, bool upper) -> std::optional<double> {
        if (!given.empty()) return number(given, host);
        if (user) return user;
        if (values.empty()) return std::nullopt;
        return upper ? *std::max_element(values.begin(), values.end()) : *std::min_element(values.begin(), values.end());
      };
      const auto lo = bound(r.kind.hist_min, x_.user_min, false), hi = bound(r.kind.hist_max, x_.user_max, true);
      const auto bins = number(r.kind.hist_bins, host);
      if (!lo || !hi || !bins || !(*hi > *lo) || *bins < 1 || *bins > 10000 || x_.log || y_.log) {
        data_unknown = true, unknown_why = "a histogram whose range or bins are not known";
        continue;
      }
      pd.points = histogram(values, *lo, *hi, static_cast<int>(*bins), r.kind.hist_intervals, r.kind.hist_cumulative,
                            r.kind.hist_density);
      pd.err_plus.clear(), pd.err_minus.clear();
    }
    if (first_points.empty()) first_points = pd.points;
    if (r.kind.stacked) {
      // `stack plots=y` (x for xbar stacked): each coordinate on top of the previous stacked
      // plot's coordinate of the same index (pgfplotsstackedplots.code.tex)
      const bool in_x = r.kind.handler == PlotKind::Handler::bar_x;
      if (!stack.empty()) {
        bool same = stack.size() == pd.points.size();
        for (std::size_t k = 0; same && k < stack.size(); ++k)
          same = std::abs(in_x ? stack[k].y - pd.points[k].y : stack[k].x - pd.points[k].x) < 1e-9;
        if (!same) {
          data_unknown = true, unknown_why = "stacked plots whose coordinates do not match";
          continue;
        }
        r.base = stack;
        for (std::size_t k = 0; k < stack.size(); ++k) (in_x ? pd.points[k].x : pd.points[k].y) += in_x ? stack[k].x : stack[k].y;
      }
      stack = pd.points;
    }
    r.points = pd.points;
    data.insert(data.end(), pd.points.begin(), pd.points.end());
    if (r.errors.any()) {
      if (r.kind.stacked || r.kind.bars() || x_.log || y_.log) {
        data_unknown = true, unknown_why = "error bars on stacked plots, bars or a logarithmic axis";
        continue;
      }
      // pgfplots counts the bars' ends in the limits
      r.err_plus = pd.err_plus, r.err_minus = pd.err_minus;
      for (std::size_t q = 0; q < pd.points.size(); ++q) {
        const Point ep = q < pd.err_plus.size() ? pd.err_plus[q] : Point{NAN, NAN};
        const Point em = q < pd.err_minus.size() ? pd.err_minus[q] : Point{NAN, NAN};
        const auto [x0, x1] = error_extent(r.errors.x, pd.points[q].x, ep.x, em.x);
        const auto [y0, y1] = error_extent(r.errors.y, pd.points[q].y, ep.y, em.y);
        data.push_back({x0, pd.points[q].y}), data.push_back({x1, pd.points[q].y});
        data.push_back({pd.points[q].x, y0}), data.push_back({pd.points[q].x, y1});
      }
    }
    if (colorbar_) add_plot_meta(plot_meta_source(ap->options, false), r.points, {});
    Resolved& kept = resolved_[&pic_.statements[j]] = std::move(r);
    if ((kept.kind.bars() && kept.kind.shift_auto) || kept.kind.intervals())
      bar_groups[static_cast<int>(kept.kind.handler)].push_back(&kept);
  }
  // bar shift auto, bar interval width/shift: \numplotsofactualtype and \plotnumofactualtype
  // (pgfplots.code.tex)
  for (auto& [handler, group] : bar_groups)
    for (std::size_t k = 0; k < group.size(); ++k) group[k]->type_index = k, group[k]->type_count = group.size();
  // a plot left out (its data not modelled) may have point meta: the colorbar's range is not known
  if (data_unknown && meta_.unknown.empty()) meta_.unknown = unknown_why;
  auto need = [](const Direction& d) { return !d.user_min || !d.user_max; };
  if (data_unknown && (need(x_) || need(y_) || (three_d_ && need(z_)))) {
    not_lowered(st, "its limits rest on " + unknown_why);
    return false;
  }
  // data in the transformed (log10) domain; a point counts for one direction only where it lies
  // within the user's limits of the other (pgfplots' coordinate filtering by the limits)
  auto within = [](const Direction& d, double v) {
    return (!d.user_min || v >= *d.user_min - 1e-12) && (!d.user_max || v <= *d.user_max + 1e-12);
  };
  if (!three_d_)
    for (const Point& p : data) data3.push_back({p.x, p.y, 0.0});
  const std::vector<Direction*> dirs = three_d_ ? std::vector<Direction*>{&x_, &y_, &z_} : std::vector<Direction*>{&x_, &y_};
  for (std::size_t a = 0; a < dirs.size(); ++a) {
    Direction* d = dirs[a];
    double lo = INFINITY, hi = -INFINITY;
    for (const auto& p : data3) {
      bool inside = true;
      for (std::size_t b = 0; b < dirs.size(); ++b)
        if (b != a && !within(*dirs[b], p[b])) inside = false;
      if (!inside) continue;
      auto tv = d->transform(p[a]);
      if (!tv) continue;
      lo = std::min(lo, *tv), hi = std::max(hi, *tv);
    }
    const bool auto_lo = !d->user_min, auto_hi = !d->user_max;
    if (!std::isfinite(lo)) {  // no data: pgfplots' empty axis spans [0, 1] (a log axis 10^0..10^1)
      lo = 0, hi = 1;
    }
    if (d->user_min) {
      auto tv = d->transform(*d->user_min);
      if (!tv) return not_lowered(st, "a limit of a logarithmic axis is not positive"), false;
      lo = *tv;
      if (auto_hi) hi = std::max(hi, lo);
    }
    if (d->user_max) {
      auto tv = d->transform(*d->user_max);
      if (!tv) return not_lowered(st, "a limit of a logarithmic axis is not positive"), false;
      hi = *tv;
      if (auto_lo) lo = std::min(lo, hi);
    }
    // a range of one value on a linear axis (pgfplots.code.tex \pgfplots@avoid@empty@axis@range@for,
    // after enlargelimits, which cannot widen it): v > 0 in [0.8 v, 1.2 v], 0 in [-1, 1]. A
    // negative v (lualatex: [1.2 v, 0.8 v] with ticks on part of it) and a logarithmic axis are
    // not modelled.
    bool widened = false;
    if (hi == lo && !d->log && lo >= 0) {
      if (lo == 0) lo = -1, hi = 1;
      else lo = kEmptyRangeLow * lo, hi = kEmptyRangeHigh * hi;
      widened = true;
    }
    if (!(hi > lo)) {
      not_lowered(st, std::string("its ") + d->name + " range is empty");
      return false;
    }
    // enlargelimits (pgfplots.code.tex, /pgfplots/@enlargelimits): auto enlarges the automatic
    // sides, true both, upper/lower one, a number is the relative amount, false none.
    bool en_lo = false, en_hi = false;
    double amount = kDefaultEnlargement;
    std::string e = d->enlarge;
    // (a 3D axis enlarges only z on `auto`)
    if (e == "auto") en_lo = (!three_d_ || d == &z_) && auto_lo, en_hi = (!three_d_ || d == &z_) && auto_hi;
    else if (e == "true") en_lo = en_hi = true;
    else if (e == "upper") en_hi = true;
    else if (e == "lower") en_lo = true;
    else if (e != "false") {
      auto n = number(e, host);
      if (!n) {
        not_lowered(st, "enlargelimits='" + e + "' is not modelled");
        return false;
      }
      en_lo = en_hi = true, amount = *n;
    }
    const double range = hi - lo;
    if (en_lo && !widened) lo -= amount * range;
    if (en_hi && !widened) hi += amount * range;
    d->lo = lo, d->hi = hi;
    if (d->ticks_data && d == &z_) {
      not_lowered(st, "ztick=data is not modelled");
      return false;
    }
    if (d->ticks_data) {
      std::vector<double> ts;
      for (const Point& p : first_points)
        if (auto tv = d->transform(d == &x_ ? p.x : p.y)) ts.push_back(*tv);
      d->ticks = ts;
    }
  }
  return true;
}

// The major ticks of one direction, in transformed data units: the user's, or pgfplots' own.
std::vector<double> AxisPicture::tick_positions(const Direction& d) const {
  std::vector<double> ticks;
  if (d.ticks) {
    for (double v : *d.ticks) {
      auto tv = d.ticks_data ? std::optional<double>(v) : d.transform(v);
      // the limits widened by `xtick placement tolerance` (0.05pt on the page)
      const double tol = std::max(1e-9 * (d.hi - d.lo), d.scale > 0 ? kTickPlacementTolerancePt / d.scale : 0.0);
      if (tv && *tv >= d.lo - tol && *tv <= d.hi + tol) ticks.push_back(*tv);
    }
  } else {
    ticks = d.log ? log_ticks(d.lo, d.hi, d.length, tick_params_) : linear_ticks(d.lo, d.hi, d.length, tick_params_);
  }
  // `hide obscured x ticks` (pgfplotsticks.code.tex, \pgfplots@xtick@check@tickshow): on a middle
  // line, no tick (nor its label) where the other direction's line crosses it: both ends for a
  // box, the lower or upper end, or the other middle line's zero
  if (!three_d_ && d.line == "middle" && d.hide_obscured && (&d == &x_ || &d == &y_)) {
    const Direction& other = &d == &x_ ? y_ : x_;
    std::vector<double> hidden;
    if (other.line == "box") hidden = {d.lo, d.hi};
    else if (other.line == "lower") hidden = {d.lo};
    else if (other.line == "upper") hidden = {d.hi};
    else if (other.line == "middle") hidden = {d.zero};
    ticks.erase(std::remove_if(ticks.begin(), ticks.end(),
                               [&](double v) {
                                 for (double c : hidden)
                                   if (std::abs(v - c) * d.scale < kTickPlacementTolerancePt) return true;
                                 return false;
                               }),
                ticks.end());
  }
  return ticks;
}

// The tick labels of one direction: (position along the axis in pt, text).
std::vector<std::pair<double, std::string>> AxisPicture::tick_labels(const Direction& d, ir::LibraryHost& host,
                                                                     const tex::Statement& st) {
  std::vector<std::pair<double, std::string>> out;
  const std::vector<double> ticks = tick_positions(d);
  if (!d.symbols.empty() && !d.ticks && !d.tick_labels) {
    // the default ticks of a symbolic axis: where pgfplots puts them is not modelled
    host.problem("unsupported-construct",
                 std::string("the default tick labels of symbolic ") + d.name + " coordinates are not placed", 0,
                 static_cast<std::uint32_t>(st.text.size()), false);
    approximate_ = true;
    return out;
  }
  const int scale_exp = scale_exponent(d);
  if (scale_exp != 0 && !scale_label_modelled()) {
    host.problem("unsupported-construct",
                 std::string("the common factor of the ") + d.name + " tick labels (scaled ticks) is not placed", 0,
                 static_cast<std::uint32_t>(st.text.size()), false);
    approximate_ = true;
  }
  auto printed = [&](double v) { return print_number(d.log ? std::round(v) : v / std::pow(10.0, scale_exp), d.sep); };
  auto not_typeset = [&](const std::string& why) {
    host.problem("unsupported-construct", why, 0, static_cast<std::uint32_t>(st.text.size()), false);
    approximate_ = true;
  };
  // `x tick label as interval`: one label per interval [t_k, t_k+1], at its middle
  const std::size_t n = d.interval_labels ? (ticks.empty() ? 0 : ticks.size() - 1) : ticks.size();
  for (std::size_t k = 0; k < n; ++k) {
    const double v = ticks[k];
    const double at = d.interval_labels ? 0.5 * (d.map(v) + d.map(ticks[k + 1])) : d.map(v);
    std::string text;
    if (d.tick_labels) {
      if (k >= d.tick_labels->size()) break;
      text = (*d.tick_labels)[k];
    } else if (!d.symbols.empty()) {
      // a symbolic coordinate is printed as its name (pgfplots manual 4.22, symbolic x coords)
      const long idx = std::lround(v);
      if (std::abs(v - static_cast<double>(idx)) > 1e-9 || idx < 0 || static_cast<std::size_t>(idx) >= d.symbols.size()) continue;
      text = d.symbols[static_cast<std::size_t>(idx)];
    } else if (d.label_template) {
      // `xticklabel=`: \pgfmathprintnumber{\tick} (and {\nexttick}) are the numbers; any other
      // use of the tick's value is not typeset here
      auto t = tick_label_text(*d.label_template, printed(v),
                               k + 1 < ticks.size() ? printed(ticks[k + 1]) : std::nullopt);
      if (!t || d.log) {
        not_typeset(std::string("a ") + d.name + "ticklabel text of its own is not typeset");
        return {};
      }
      text = *t;
    } else {
      auto p = printed(v);
      if (!p) {
        not_typeset(std::string("a ") + d.name + " tick label in scientific notation is not typeset");
        continue;
      }
      text = d.log ? "$10^{" + *p + "}$" : "$" + *p + "$";
    }
    out.push_back({at, text});
  }
  return out;
}

void AxisPicture::begin_axis(const tex::Statement& st, const std::string& env, ir::LibraryHost& host) {
  axis_ = false;
  if (shifted_axis_first_node_) host.mark_nodes_incomplete(*shifted_axis_first_node_);
  shifted_axis_first_node_.reset();
  axis_first_node_ = host.node_count();
  earlier_content_ = axis_first_node_ > 0 || host.element_count() > 0;
  if (env != "axis" && env != "semilogxaxis" && env != "semilogyaxis" && env != "loglogaxis") {
    not_lowered(st, "the " + env + " environment is not modelled");
    return;
  }
  if (!group_) failed_ = false;
  read_keys(st, env, host);
  if (!compute_limits(st, host)) return;
  // the logical zero of each direction (pgfplotscoordprocessing.code.tex,
  // \pgfplots@prepare@ZERO@coordinates): 0 held within the limits; on a log axis `log origin`,
  // 0 (that is 10^0) from compat 1.5 on, else the lower limit. The other direction's middle line
  // passes there.
  for (Direction* d : {&x_, &y_})
    d->zero = d->log ? (compat_ >= version(1, 5) ? 0.0 : d->lo) : std::clamp(0.0, d->lo, d->hi);
  if (three_d_) unknown_keys_.insert(unknown_keys_.end(), upper_ticklabel_keys_.begin(), upper_ticklabel_keys_.end());
  if (!placement_keys_.empty()) {
    // a two-dimensional axis outside a group: its place from `at`, `anchor`, shifts; else as before
    Placement pl;
    bool ok = !three_d_ && !group_;
    for (const PlacementKey& pk : placement_keys_) {
      if (!ok) break;
      if (pk.key == "at") {
        pl.at = host.locate({}, pk.value);
        ok = pl.at.has_value();
      } else if (pk.key == "anchor") {
        pl.anchor = pk.value;
        ok = anchor_offset(pl.anchor, 1, 1).has_value();
      } else {
        std::string err;
        auto n = host.eval(pk.value, &err);
        ok = n.has_value();
        if (ok) (pk.key == "xshift" ? pl.shift.x : pl.shift.y) += n->value;
      }
    }
    if (ok) {
      placement_ = pl;
    } else {
      for (const PlacementKey& pk : placement_keys_)
        unknown_keys_.push_back({pk.key + "=" + pk.value.substr(0, 40), pk.at});
      moved_unknown_ = true;
    }
  }
  if (three_d_ && !axis_name_.empty()) unknown_keys_.push_back({"name=" + axis_name_, axis_name_at_});
  if (colorbar_) {
    // what the colorbar model needs: a plain axis in an unturned, unscaled frame, and its range
    std::string why;
    if (group_) why = "in a groupplot";
    else if (!host.settings().ctm.is_identity_linear()) why = "in a transformed frame";
    else if (!(meta_min_ && meta_max_) && !meta_.unknown.empty()) why = "its range rests on " + meta_.unknown;
    if (why.empty()) {
      // no plot with point meta: pgfplots warns `colorbar uninitialised` and shows [0,1]
      const bool none = !(meta_.lo <= meta_.hi);
      const double lo = meta_min_ ? *meta_min_ : none ? 0.0 : meta_.lo, hi = meta_max_ ? *meta_max_ : none ? 1.0 : meta_.hi;
      if (!(hi > lo)) why = "its point meta range is empty";
      else meta_.lo = lo, meta_.hi = hi;
    }
    if (!why.empty()) {
      host.problem("unsupported-key", "pgfplots colorbar is not modelled: " + why, opt_base_ + colorbar_at_,
                   opt_base_ + colorbar_at_ + 1, false);
      approximate_ = true;
      colorbar_ = false;
    } else {
      // the parent axis is typeset as a picture of its own: its box places the colorbar
      host.begin_bbox_probe();
      probe_open_ = true;
    }
  }
  for (const auto& [key, at] : unknown_keys_) {
    host.problem("unsupported-key", "pgfplots axis key '" + key + "' is not modelled", opt_base_ + at,
                 opt_base_ + at + 1, false);
    approximate_ = true;
  }
  // size (pgfplots.scaling.code.tex): an empty width or height follows the other at 240:207
  if (!width_given_ && !height_given_) width_ = kDefaultWidthPt, height_ = kDefaultHeightPt;
  else if (!height_given_) height_ = width_ * kDefaultHeightPt / kDefaultWidthPt;
  else if (!width_given_) width_ = height_ * kDefaultWidthPt / kDefaultHeightPt;
  if (three_d_) {
    if (group_) {
      not_lowered(st, "a three-dimensional plot in a groupplot is not modelled");
      return;
    }
    layout_3d(st, host);
    code_span_ = static_cast<std::uint32_t>(st.text.size());
    if (axis_) run_axis_code(code_.begin, "execute at begin axis", true, host);
    return;
  }
  for (Direction* d : {&x_, &y_}) {
    if (d->unit) {
      d->scale = *d->unit;
      d->length = d->scale * (d->hi - d->lo);
    } else {
      const double total = d == &x_ ? width_ : height_;
      d->length = std::max(0.0, scale_only_ ? total : total - kLabelAllowancePt);
      d->scale = d->length / (d->hi - d->lo);
    }
  }
  if (!(x_.length > 0) || !(y_.length > 0)) {
    not_lowered(st, "its box has no extent");
    return;
  }
  if (group_) open_group_cell(host);
  if (placement_) {
    // the box's corner where the anchor lands on `at`, shifted (local units of the frame)
    ir::Settings s = host.settings();
    const Point at = placement_->at ? s.ctm.inverse().apply(*placement_->at) : Point{0, 0};
    const Point off = *anchor_offset(placement_->anchor, x_.length, y_.length);
    s.ctm = s.ctm.then_local(ir::Transform::shift(at.x - off.x + placement_->shift.x, at.y - off.y + placement_->shift.y));
    host.begin_scope(s);
    placement_open_ = true;
  }
  const std::uint32_t whole = static_cast<std::uint32_t>(st.text.size());
  const double W = x_.length, H = y_.length;
  // grid lines (paint only: an ir::Grid, which the rules never read as a figure's lines)
  if (grid_ == "major" || grid_ == "both" || grid_ == "minor") {
    ir::Style gs;
    gs.draw = true;
    gs.line_width = 0.4;
    gs.draw_color = "black!25";
    auto step = [this](const Direction& d) {
      auto t = d.log ? log_ticks(d.lo, d.hi, d.length, tick_params_) : linear_ticks(d.lo, d.hi, d.length, tick_params_);
      return t.size() >= 2 ? (t[1] - t[0]) * d.scale : d.length;
    };
    ir::Grid g;
    const ir::Settings& s0 = host.settings();
    g.corners = {s0.ctm.apply({0, 0}), s0.ctm.apply({W, 0}), s0.ctm.apply({W, H}), s0.ctm.apply({0, H})};
    g.step_x = step(x_), g.step_y = step(y_);
    host.add_path({g}, gs);
  }
  draw_axis_lines(W, H, whole, host);
  draw_outer_ticks(W, H, whole, host);
  // tick labels on the line pgfplots gives them (the lower one of a box, or the axis line), at
  // the tick moved out by the tick's reach (ticklabel pos: \pgfplots@drawticklabels@onorientedsurf),
  // anchored `near ticklabel`: the side that faces the line
  const std::size_t first_node = host.node_count();
  std::array<double, 2> reach = {0, 0};  // how far the tick labels reach out from their line (ticklabel cs)
  for (int a = 0; a < 2; ++a) {
    Direction& d = a == 0 ? x_ : y_;
    if (d.hidden) continue;
    const LabelSide side = label_side(d);
    const std::string style = tick_label_style_ + d.ticklabel_style;
    const double c = tick_clearance(d);
    reach[a] = c;
    for (const auto& [p, text] : tick_labels(d, host, st)) {
      const std::string opts = "anchor=" + side.anchor + style;
      if (auto m = host.measure_node(opts, text)) {
        const double out = side.normal.x > 0   ? m->box.xmax
                           : side.normal.x < 0 ? -m->box.xmin
                           : side.normal.y > 0 ? m->box.ymax
                                               : -m->box.ymin;
        reach[a] = std::max(reach[a], c + out);
      }
      const Point at = side.point(p, c);
      host.emit("\\node[" + opts + "] at (" + pt(at.x) + "," + pt(at.y) + ") {" + text + "};", 0, whole);
    }
  }
  host.set_node_role(first_node, "tick label");
  const std::size_t label_nodes = host.node_count();
  for (int a = 0; a < 2; ++a) {
    Direction& d = a == 0 ? x_ : y_;
    if (d.has_label && !d.hidden) draw_description(d, d.label_at, label_style_, d.label_style, d.label, W, H, reach[a], whole, host);
  }
  // every axis title: at (0.5,1), above, yshift=6pt
  draw_title(W, H, host, whole);
  host.set_node_role(label_nodes, "axis label");
  // the tick labels' common factor (pgfplotsticks.code.tex \pgfplots@init@scaled@tick@for): a
  // node `$\cdot 10^{e}$` after the axis labels, where there are tick labels to share it
  if (scale_label_modelled()) {
    const std::size_t scale_nodes = host.node_count();
    for (int a = 0; a < 2; ++a) {
      Direction& d = a == 0 ? x_ : y_;
      const int e = scale_exponent(d);
      if (e == 0 || d.hidden || tick_positions(d).empty()) continue;
      draw_description(d, d.scale_at, tick_label_style_ + d.ticklabel_style, "",
                       scale_label_text(e), W, H, reach[a], whole, host);
    }
    host.set_node_role(scale_nodes, "tick label");
  }

  ticklabel_reach_ = reach, laid_out_2d_ = true;
  // the data frame: local units are (log10 where logarithmic) data units
  frame_ = host.settings();
  {
    const Point a = frame_.ctm.apply({0, 0}), b = frame_.ctm.apply({W, H});
    inner_box_ = ir::Box{std::min(a.x, b.x), std::min(a.y, b.y), std::max(a.x, b.x), std::max(a.y, b.y)};
  }
  ir::Settings s = host.settings();
  s.ctm = s.ctm.then_local(ir::Transform::shift(-x_.lo * x_.scale, -y_.lo * y_.scale));
  s.xvec = {x_.scale, 0};
  s.yvec = {0, y_.scale};
  const Point lo = s.ctm.apply({x_.lo * x_.scale, y_.lo * y_.scale}), hi = s.ctm.apply({x_.hi * x_.scale, y_.hi * y_.scale});
  open_data_frame(st, host, s, {lo, {hi.x, lo.y}, hi, {lo.x, hi.y}}, true);
  name_current_axis(W, H, host);
  code_span_ = static_cast<std::uint32_t>(st.text.size());
  run_axis_code(code_.begin, "execute at begin axis", true, host);
}

// `current axis` (pgfplots.code.tex, the shapes pgfplots@low@level@shape and its INNER variant):
// the box's compass anchors, `origin` at both logical zeros, `above origin`... where the lines
// through it meet the box. The outer anchors rest on the axis' own bounding box (the picture it
// is typeset in), which is not modelled: they are reported where used.
void AxisPicture::name_current_axis(double W, double H, ir::LibraryHost& host) {
  auto outline = std::make_shared<ir::ShapeOutline>();
  const Point c{W / 2, H / 2};
  for (const char* name : {"north", "north east", "east", "south east", "south", "south west", "west", "north west",
                           "origin", "above origin", "below origin", "left of origin", "right of origin"})
    outline->anchors.push_back({name, *anchor_offset(name, W, H) - c});
  outline->border = {{-c.x, -c.y}, {c.x, -c.y}, {c.x, c.y}, {-c.x, c.y}};
  outline->path_box = outline->outer_box = {-c.x, -c.y, c.x, c.y};
  outline->unmodelled_anchors = {"image", "outer north", "outer north east", "outer east", "outer south east",
                                 "outer south", "outer south west", "outer west", "outer north west", "outer center",
                                 "above north", "above north east", "right of north east", "right of east",
                                 "right of south east", "below south east", "below south", "below south west",
                                 "left of south west", "left of west", "left of north west", "above north west"};
  host.name_node("current axis", frame_.ctm.apply(c), frame_.ctm, std::move(outline));
}

// One piece of the axis' code (code_), each ';'-terminated statement lowered where pgfplots runs
// it: in the data frame (`in_axis`) or where the scope open now puts it. A path statement
// (\draw, \node...) is lowered as written; anything else (an \addplot, whose data the limits
// did not count; a macro; \foreach) is reported and not drawn.
void AxisPicture::run_axis_code(const std::string& code, const char* hook, bool in_axis, ir::LibraryHost& host) {
  if (code.empty()) return;
  // TeX comments out, then the statements at brace depth 0
  std::string text;
  for (std::size_t i = 0; i < code.size(); ++i) {
    if (code[i] == '\\' && i + 1 < code.size()) {
      text += code.substr(i, 2), ++i;
    } else if (code[i] == '%') {
      while (i < code.size() && code[i] != '\n') ++i;
      text += '\n';
    } else {
      text += code[i];
    }
  }
  static const std::set<std::string> kPath = {"\\draw", "\\path", "\\fill",  "\\filldraw", "\\node",
                                              "\\coordinate", "\\shade", "\\shadedraw", "\\pic", "\\clip"};
  auto command = [](std::string_view t, std::size_t i) {  // the control word at t[i] ('\\')
    std::size_t j = i + 1;
    while (j < t.size() && std::isalpha(static_cast<unsigned char>(t[j]))) ++j;
    return std::string(t.substr(i, j - i));
  };
  // a path statement runs to its ';'; other code (\pgfmathsetmacro..., \foreach...) to the next
  // path command or ';' at brace depth 0, and is reported as one piece
  std::vector<std::string> statements;
  std::size_t start = 0;
  int depth = 0;
  for (std::size_t i = 0; i <= text.size(); ++i) {
    const char ch = i < text.size() ? text[i] : ';';
    if (ch == '\\' && depth <= 0 && kPath.count(command(text, i)) && i > start) {
      const std::string before = trimmed(std::string_view(text).substr(start, i - start));
      if (!before.empty() && !(before[0] == '\\' && kPath.count(command(before, 0)))) {
        statements.push_back(before);
        start = i;
      }
    }
    if (ch == '\\') ++i;
    else if (ch == '{') ++depth;
    else if (ch == '}') --depth;
    else if (ch == ';' && depth <= 0) {
      const std::string one = trimmed(std::string_view(text).substr(start, std::min(i + 1, text.size()) - start));
      if (!one.empty() && one != ";") statements.push_back(one);
      start = i + 1;
      depth = 0;
    }
  }
  // after the axis, pgfplots still reads a coordinate of plain numbers in a frame of its own (its
  // data scaling: lualatex puts (1,1) of an axis over [-3,5] x [-2,4] at (0.24pt, 0.27pt) from the
  // box's corner), which is not modelled; a node's anchor and lengths with units mean what they
  // mean anywhere
  auto plain_numbers = [](const std::string& t) {
    int brace = 0, bracket = 0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      const char ch = t[i];
      if (ch == '\\') ++i;
      else if (ch == '{') ++brace;
      else if (ch == '}') --brace;
      else if (ch == '[' && brace == 0) ++bracket;
      else if (ch == ']' && brace == 0) --bracket;
      else if (ch == '(' && brace == 0 && bracket == 0) {
        const std::size_t close = t.find_first_of("()", i + 1);
        if (close == std::string::npos || t[close] == '(') continue;  // not innermost
        for (const auto& part : tex::split_options(t.substr(i + 1, close - i - 1))) {
          std::string item = part.has_value ? part.key + "=" + part.value : part.key;
          for (std::string_view piece : {std::string_view(item)}) {
            std::size_t b = 0;
            for (std::size_t k = 0; k <= piece.size(); ++k)
              if (k == piece.size() || piece[k] == ':') {
                const std::string one = trimmed(piece.substr(b, k - b));
                bool letters = false;
                for (char c : one) letters = letters || std::isalpha(static_cast<unsigned char>(c));
                // 0 is the same place in both frames (their origin is the box's lower left corner)
                const bool zero = parse_number(one) && *parse_number(one) == 0;
                if (!one.empty() && !letters && !zero) return true;
                b = k + 1;
              }
          }
        }
      }
    }
    return false;
  };
  for (const std::string& one : statements) {
    const bool path = one[0] == '\\' && kPath.count(command(one, 0)) != 0 && one.back() == ';';
    if (path && !in_axis && !description_open_ && plain_numbers(one)) {
      host.problem("unsupported-coordinate",
                   std::string("a coordinate of plain numbers in the axis' ") + hook +
                       " code (pgfplots' scaled data frame) is not modelled",
                   0, code_span_);
      continue;
    }
    if (path && !(in_axis && (x_.log || y_.log))) {
      host.emit(one, 0, code_span_);
      continue;
    }
    const std::string why = !path ? "'" + one.substr(0, std::min<std::size_t>(one.size(), 30)) + "'"
                                  : std::string("a TikZ path inside a logarithmic axis");
    host.problem("unsupported-construct", why + " in the axis' " + hook + " code is not modelled", 0, code_span_);
  }
}

// The axis lines (pgfplots.code.tex): both directions boxed, one rectangle
// (\pgfplots@drawaxis@outerlines@cycledpath: its corners bound the picture even when one
// direction is hidden); otherwise each shown direction's lines: a box's two outer lines, the
// lower or upper one, the one its tick labels stand on for `axis x line*=none`, and the inner
// line of `middle` through the other direction's zero (\pgfplots@drawaxis@innerlines@onorientedsurf),
// each with `-stealth` after `every non boxed x axis`. The default line width.
void AxisPicture::draw_axis_lines(double W, double H, std::uint32_t whole, ir::LibraryHost& host) {
  if (x_.line == "box" && y_.line == "box") {
    if (!(x_.hidden && y_.hidden)) host.emit("\\draw (0pt,0pt) rectangle (" + pt(W) + "," + pt(H) + ");", 0, whole);
    return;
  }
  for (const Direction* d : {&x_, &y_}) {
    if (d->hidden) continue;
    const bool xd = d == &x_;
    const double across = xd ? H : W, along = xd ? W : H;
    std::vector<double> at;  // where the lines cross the other direction (pt)
    if (d->line == "box") at = {0, across};
    else if (d->line == "lower" || d->line == "none") at = {0};
    else if (d->line == "upper") at = {across};
    else if (d->line == "middle") at = {(xd ? y_ : x_).map((xd ? y_ : x_).zero)};
    for (double c : at)
      host.emit(std::string("\\draw") + (d->arrow ? "[-stealth]" : "") + " (" + pt(xd ? 0 : c) + "," + pt(xd ? c : 0) +
                    ") -- (" + pt(xd ? along : c) + "," + pt(xd ? c : along) + ");",
                0, whole);
  }
}

// Major ticks where they reach out of the box (`tick align=outside` or `center`, as `ybar` and
// every non boxed axis set it): `every tick` is very thin, on the lines pgfplots puts them (a
// box's lower and, tick pos=both, upper line; the axis line otherwise). Ticks inside the box are
// paint inside it and are not drawn.
void AxisPicture::draw_outer_ticks(double W, double H, std::uint32_t whole, ir::LibraryHost& host) {
  for (const Direction* d : {&x_, &y_}) {
    if (d->hidden) continue;
    const bool xd = d == &x_;
    const double across = xd ? H : W;
    const double out = tick_clearance(*d), in = major_tick_length_ - out;
    // each line's place and the sign of its outer normal
    std::vector<std::pair<double, double>> lines;
    if (d->line == "box") {
      lines.push_back({0, -1});
      if (d->ticks_upper) lines.push_back({across, 1});
    } else if (d->line == "lower" || d->line == "none") {
      lines.push_back({0, -1});
    } else if (d->line == "upper") {
      lines.push_back({across, 1});
    } else if (d->line == "middle") {
      lines.push_back({(xd ? y_ : x_).map((xd ? y_ : x_).zero), -1});
    }
    std::string path;
    for (const auto& [c, sign] : lines) {
      const double a = c + sign * out, b = c - sign * in;
      if (std::min(a, b) >= -1e-9 && std::max(a, b) <= across + 1e-9) continue;  // inside the box
      for (double v : tick_positions(*d)) {
        const double p = d->map(v);
        path += " (" + pt(xd ? p : a) + "," + pt(xd ? a : p) + ") -- (" + pt(xd ? p : b) + "," + pt(xd ? b : p) + ")";
      }
    }
    if (!path.empty()) host.emit("\\draw[very thin,gray]" + path + ";", 0, whole);
  }
}

AxisPicture::LabelSide AxisPicture::label_side(const Direction& d) const {
  LabelSide side;
  side.x = &d == &x_;
  const Direction& other = side.x ? y_ : x_;
  double sign = -1;
  if (d.line == "upper" || (d.line == "box" && d.labels_upper)) side.base = other.length, sign = 1;
  else if (d.line == "middle") side.base = other.map(other.zero);
  side.normal = side.x ? Point{0, sign} : Point{sign, 0};
  side.anchor = side.x ? (sign < 0 ? "north" : "south") : (sign < 0 ? "east" : "west");
  return side;
}

// A description node of direction d where a LabelPlace puts it: the axis label (`every axis x
// label`, after `every axis label` and before the user's `xlabel style`, as pgfplots'
// \pgfplots@show@label gives them) or the tick labels' common factor (`every tick label`, `every
// x tick label`, then `every x tick scale label`). `before`/`after`: the options around the
// place (each ",key=value..."). `reach`: how far the tick labels reach out from their line
// (\pgfplotsvalueoflargesttickdimen).
void AxisPicture::draw_description(const Direction& d, const LabelPlace& lp, const std::string& before,
                                   const std::string& after, const std::string& text, double W, double H,
                                   double reach, std::uint32_t whole, ir::LibraryHost& host) {
  const LabelSide side = label_side(d);
  const bool xd = side.x;
  const double along = xd ? W : H;
  const double shift = lp.shift_em ? lp.shift * em_pt(host) : lp.shift;
  Point at;
  if (lp.at == LabelPlace::desc)
    at = {std::isnan(lp.fx) ? x_.map(x_.zero) : lp.fx * W, std::isnan(lp.fy) ? y_.map(y_.zero) : lp.fy * H};
  else
    at = side.point(lp.t * along, (lp.at == LabelPlace::tcs ? reach : 0) + shift);
  std::string place = lp.opts;
  if (lp.anchor != LabelPlace::given) {
    // `near ticklabel` (\pgfplots@borderanchor@for@axis@): the compass side of the node towards
    // the line (opposite: away from it), in the node's frame (turned by its rotation); with
    // `near ticklabel align=inside|outside` the side towards the axis' start or end too
    std::optional<double> turn = 0.0;
    for (const auto& it : tex::split_options(lp.opts + after))
      if (strip_prefix(tex::normalise_key(it.key)) == "rotate") turn = parse_number(trimmed(tex::strip_braces(it.value)));
    int quarter = -1;
    if (turn) {
      const double q = *turn / 90;
      if (std::abs(q - std::round(q)) < 1e-9) quarter = static_cast<int>(((std::lround(q) % 4) + 4) % 4);
    }
    if (quarter < 0) {
      host.problem("unsupported-key", std::string("the ") + d.name + " label's near ticklabel anchor on a turned node is not modelled",
                   0, whole, false);
      approximate_ = true;
      quarter = 0;
    }
    // a page direction in the node's frame: turned back by the node's rotation
    auto to_node = [&](Point v) {
      for (int q = 0; q < quarter; ++q) v = {v.y, -v.x};
      return v;
    };
    auto compass = [](Point v) -> std::pair<std::string, std::string> {  // (vertical, horizontal)
      return {v.y > 0.5 ? "north" : v.y < -0.5 ? "south" : "", v.x > 0.5 ? "east" : v.x < -0.5 ? "west" : ""};
    };
    const double sign = lp.anchor == LabelPlace::near ? -1 : 1;
    const auto face = compass(to_node({sign * side.normal.x, sign * side.normal.y}));
    std::pair<std::string, std::string> inner{"", ""};
    if (lp.align != "center") {
      const double s2 = lp.align == "inside" ? 1 : -1;
      inner = compass(to_node(xd ? Point{s2, 0} : Point{0, s2}));
    }
    const std::string v = face.first.empty() ? inner.first : face.first;
    const std::string h = face.second.empty() ? inner.second : face.second;
    const std::string anchor = v.empty() ? h : h.empty() ? v : v + " " + h;
    place = "anchor=" + anchor + (place.empty() ? "" : "," + place);
  }
  std::string opts = before.empty() ? "" : before.substr(1);
  if (!place.empty()) opts += (opts.empty() ? "" : ",") + place;
  opts += after;
  if (!opts.empty() && opts[0] == ',') opts = opts.substr(1);
  host.emit("\\node[" + opts + "] at (" + pt(at.x) + "," + pt(at.y) + ") {" + text + "};", 0, whole);
}

void AxisPicture::draw_title(double W, double H, ir::LibraryHost& host, std::uint32_t whole) {
  if (has_title_)
    host.emit("\\node[anchor=south" + title_style_ + "] at (" + pt(W / 2) + "," + pt(H + title_shift_) + ") {" + title_ +
                  "};",
              0, whole);
}

// The data frame's scope `s` and the plots' clip `outline` (page coordinates): with pgfplots'
// clip=true what is inside does not grow the picture. An axis with keys that are not modelled
// gets its approximate-axis note here. For 2D and 3D axes alike.
void AxisPicture::open_data_frame(const tex::Statement& st, ir::LibraryHost& host, ir::Settings s,
                                  const std::vector<Point>& outline, bool is_rectangle) {
  if (clip_) s.size_frozen = true;
  data_frame_ = s;
  host.begin_scope(s);
  axis_ = true;
  if (clip_) {
    ir::ClipRegion cr;
    cr.polygon = outline;
    cr.is_rectangle = is_rectangle;
    cr.bounds = {INFINITY, INFINITY, -INFINITY, -INFINITY};
    for (const Point& p : outline)
      cr.bounds = {std::min(cr.bounds.xmin, p.x), std::min(cr.bounds.ymin, p.y), std::max(cr.bounds.xmax, p.x),
                   std::max(cr.bounds.ymax, p.y)};
    cr.prov = st.prov;
    cr.owner = "pgfplots axis";
    host.add_clip(cr);
  }
  if (approximate_) {
    any_approximate_ = true;
    Diagnostic dg;
    dg.rule = "approximate-axis";
    dg.severity = Severity::note;
    dg.message = "pgfplots axis lowered approximately: some of its keys or text are not modelled";
    dg.range = st.prov.range;
    host.report(dg);
  }
}

void AxisPicture::end_axis(const tex::Statement& st, ir::LibraryHost& host) {
  if (axis_) {
    code_span_ = static_cast<std::uint32_t>(st.text.size());
    run_axis_code(code_.before_end, "before end axis", true, host);
    run_axis_code(code_.end, "execute at end axis", true, host);
    host.emit("\\end{scope}", 0, 0);
    draw_legend(host);
    if (!code_.extra_description.empty() && three_d_) {
      host.problem("unsupported-construct", "the extra description code of a three-dimensional axis is not modelled", 0,
                   code_span_);
    } else if (!code_.extra_description.empty()) {
      // axis description cs: (0,0) the box's lower left corner, (1,1) its upper right one
      ir::Settings d = frame_;
      d.xvec = {x_.length, 0}, d.yvec = {0, y_.length};
      host.begin_scope(d);
      description_open_ = true;
      run_axis_code(code_.extra_description, "extra description", false, host);
      description_open_ = false;
      host.emit("\\end{scope}", 0, 0);
    }
    run_axis_code(code_.after_end, "after end axis", false, host);
    if (place_unknown_ || (moved_unknown_ && earlier_content_)) host.mark_nodes_incomplete(axis_first_node_);
    else if (moved_unknown_) shifted_axis_first_node_ = axis_first_node_;
  }
  if (placement_open_) host.emit("\\end{scope}", 0, 0);
  placement_open_ = false;
  std::optional<ir::Box> outer;
  if (probe_open_) outer = host.end_bbox_probe();
  probe_open_ = false;
  if (axis_ && colorbar_) draw_colorbar(st, outer, host);
  // `name=`: the axis' node under that name too, as `current axis` names it (2D)
  if (axis_ && !three_d_ && !axis_name_.empty()) host.alias_node(axis_name_, "current axis");
  axis_ = false;
  if (group_cell_open_) host.emit("\\end{scope}", 0, 0);
  group_cell_open_ = false;
}

// An anchor of the axis' box (pgfplots.code.tex, the axis shape): the compass anchors and
// `center`, `origin` (both logical zeros) and the anchors where the lines through it meet the
// box, as an offset from the box's lower left corner; nullopt for the outer anchors (they rest
// on the axis' bounding box) and any other.
std::optional<Point> AxisPicture::anchor_offset(const std::string& anchor, double W, double H) const {
  const Point o{x_.map(x_.zero), y_.map(y_.zero)};
  static const std::map<std::string, std::pair<double, double>> compass = {
      {"south west", {0, 0}}, {"south", {0.5, 0}}, {"south east", {1, 0}}, {"east", {1, 0.5}},
      {"north east", {1, 1}}, {"north", {0.5, 1}}, {"north west", {0, 1}}, {"west", {0, 0.5}},
      {"center", {0.5, 0.5}}};
  if (auto it = compass.find(anchor); it != compass.end()) return Point{it->second.first * W, it->second.second * H};
  if (anchor == "origin") return o;
  if (anchor == "above origin") return Point{o.x, H};
  if (anchor == "below origin") return Point{o.x, 0};
  if (anchor == "left of origin") return Point{0, o.y};
  if (anchor == "right of origin") return Point{W, o.y};
  return std::nullopt;
}

char AxisPicture::plot_meta_source(const std::string& options, bool three_d) {
  std::string src = axis_point_meta_;
  bool uses = false;
  for (const auto& it : tex::split_options(axis_plot_keys_ + "," + options)) {
    const std::string k = strip_prefix(tex::normalise_key(it.key)), v = trimmed(tex::strip_braces(it.value));
    if (k == "point meta" || k == "scatter src") src = v;
    else if (starts_with(k, "contour") && (v.find("levels") != std::string::npos || k.find("levels") != std::string::npos))
      // contour levels of one's own make the colorbar show them (pgfplots' contour filled): not modelled
      meta_.unknown = "contour levels";
    else if (k == "scatter" || k == "mesh" || k == "surf" || k == "patch" || starts_with(k, "contour") ||
             k == "nodes near coords" || k == "nodes near coords*")
      uses = !(it.has_value && v == "false");
  }
  if (src.empty()) {
    if (!uses) return 0;
    src = "f(x)";
  }
  if (src == "none") return 0;
  if (src == "f(x)") return three_d ? 'z' : 'y';
  if (src == "x" || src == "y" || (src == "z" && three_d)) return src[0];
  if (src == "rawx" || src == "rawy" || (src == "rawz" && three_d)) return static_cast<char>(src[3] - 'a' + 'A');
  if (meta_.unknown.empty()) meta_.unknown = "point meta '" + src.substr(0, 30) + "'";
  return '?';
}

// pgfplots' point meta of each point (pgfplots manual 4.8.1): `x`, `y`, `z` as the axis
// processes them (log10 on a logarithmic axis), `rawx`... as written.
void AxisPicture::add_plot_meta(char src, const std::vector<Point>& points, const std::vector<double>& z) {
  if (src == 0) return;
  if (src == '?') return;  // plot_meta_source said which
  for (std::size_t k = 0; k < points.size(); ++k) {
    std::optional<double> v;
    switch (src) {
      case 'x': v = x_.transform(points[k].x); break;
      case 'y': v = y_.transform(points[k].y); break;
      case 'z': if (k < z.size()) v = z_.transform(z[k]); break;
      case 'X': v = points[k].x; break;
      case 'Y': v = points[k].y; break;
      case 'Z': if (k < z.size()) v = z[k]; break;
      default: break;
    }
    if (v && std::isfinite(*v)) meta_.add(*v);
  }
}

namespace {
// The host a synthesised axis (the colorbar) is lowered through: its statements point at the
// parent's statement as a whole, and what it would report is kept, to be said once of the key
// that made it.
class SynthesizedHost final : public ir::ForwardingHost {
 public:
  SynthesizedHost(ir::LibraryHost& in, std::uint32_t whole) : ForwardingHost(in), whole_(whole) {}
  void emit(const std::string& statement, std::uint32_t, std::uint32_t) override { in_.emit(statement, 0, whole_); }
  void problem(const std::string&, const std::string& message, std::uint32_t, std::uint32_t, bool) override {
    if (first_.empty()) first_ = message;
  }
  void report(const Diagnostic& dg, const std::string&) override {
    if (first_.empty()) first_ = dg.message;
  }
  std::optional<std::string> read_data_file(const std::string&, std::uint32_t, std::uint32_t, std::size_t) override {
    return std::nullopt;
  }
  const std::string& first_problem() const { return first_; }

 private:
  std::uint32_t whole_;
  std::string first_;
};
}  // namespace

// The colorbar (pgfplots.code.tex: `colorbar right` and kin, drawn after the axis by
// \pgfplots@colorbar@draw@): \axis[every colorbar, colorbar shift, colorbar=false] with
// `every colorbar global` (scale only axis, enlargelimits=false, no title or labels), its range
// the axis-wide point meta range, its box `colorbar/width` wide and the parent's box high (right,
// left: \pgfplotspointbbdiagonal) or the parent's box wide and `colorbar/width` high
// (horizontal), its corner at `parent axis.right of north east` (outer box's right, inner box's
// top; anchor north west), `left of north west` (anchor north east) or `below south west`
// (anchor north west), 0.3cm further out (`colorbar shift`); tick labels on the far side
// (`yticklabel pos=right`...), the parent's `every tick label` style kept. Its shading is a
// "data fill" rectangle. Keys of `colorbar style` that move it (at, anchor, shifts) are not
// modelled: the colorbar is then drawn where the default puts it, unplaced, and reported.
void AxisPicture::draw_colorbar(const tex::Statement& st, std::optional<ir::Box> outer, ir::LibraryHost& host) {
  const std::uint32_t whole = static_cast<std::uint32_t>(st.text.size());
  if (!outer || !inner_box_) return;
  const ir::Box in = *inner_box_;
  const char side = colorbar_side_;
  const bool horizontal = side == 'b';
  double w = horizontal ? in.width() : colorbar_width_, h = horizontal ? colorbar_width_ : in.height();
  // the style's keys, but those that move the colorbar (at, anchor, shifts: relative to the
  // parent, which is not modelled): it is drawn where the default puts it, and reported
  std::string style, moved;
  for (const tex::FlatKey& fk : host.expand_keys(colorbar_style_)) {
    const std::string k = strip_prefix(fk.key);
    if (k == "width" || k == "height")
      if (auto n = number(fk.value, host)) (k == "width" ? w : h) = *n;
    if (moving_keys().count(k)) {
      if (moved.empty()) moved = "colorbar style key '" + k + "=" + trimmed(tex::strip_braces(fk.value)).substr(0, 30) + "' is not modelled";
      continue;
    }
    style += "," + fk.key + (fk.has_value ? "={" + fk.value + "}" : "");
  }
  Point ll;
  if (side == 'r') ll = {outer->xmax + kColorbarShiftPt, in.ymax - h};
  else if (side == 'l') ll = {outer->xmin - kColorbarShiftPt - w, in.ymax - h};
  else ll = {in.xmin, outer->ymin - kColorbarShiftPt - h};
  const std::string lo = ir::text_number(meta_.lo), hi = ir::text_number(meta_.hi);
  std::string opts = "scale only axis,enlargelimits=false,axis on top,colorbar=false,width=" + pt(w) + ",height=" + pt(h);
  if (horizontal) opts += ",ymin=0,ymax=1,xmin=" + lo + ",xmax=" + hi + ",ytick=\\empty,xticklabel pos=left";
  else opts += ",xmin=0,xmax=1,ymin=" + lo + ",ymax=" + hi + ",xtick=\\empty,yticklabel pos=" + (side == 'r' ? "right" : "left");
  if (!tick_label_style_.empty()) opts += ",tick label style={" + tick_label_style_.substr(1) + "}";
  opts += style;
  tex::Picture bar;
  bar.statements.resize(2);
  bar.statements[0].text = "\\begin{axis}[" + opts + "]";
  bar.statements[1].text = "\\end{axis}";
  for (tex::Statement& b : bar.statements) b.prov = st.prov;
  const std::size_t first_node = host.node_count(), first_element = host.element_count();
  ir::Settings at = host.settings();
  at.ctm = ir::Transform::shift(ll.x, ll.y);
  host.begin_scope(at);
  {
    AxisPicture child(bar);
    SynthesizedHost sh(host, whole);
    child.lower_statement({bar.statements[0], "", false}, sh);
    if (child.axis_) {
      const std::size_t first = host.element_count();
      host.emit(horizontal ? "\\fill[gray!50] (" + lo + ",0) rectangle (" + hi + ",1);"
                           : "\\fill[gray!50] (0," + lo + ") rectangle (1," + hi + ");",
                0, whole);
      host.set_element_role(first, "data fill");
    }
    child.lower_statement({bar.statements[1], "", false}, sh);
    std::string why = moved.empty() ? sh.first_problem() : moved;
    if (why.empty() && child.not_lowered_.valid) why = child.not_lowered_reason_;
    if (!why.empty()) {
      // said of the key that made the colorbar, in the axis' options
      Diagnostic dg;
      dg.rule = "unsupported-key";
      dg.severity = Severity::warning;
      dg.message = "pgfplots colorbar is placed approximately: " + why;
      dg.range = begin_statement_ ? begin_statement_->range_of(opt_base_ + colorbar_at_, opt_base_ + colorbar_at_ + 1)
                                  : st.prov.range;
      host.report(dg);
      host.mark_unplaced_from(first_node, first_element);
      any_approximate_ = true;
    }
  }
  host.emit("\\end{scope}", 0, 0);
  // `current colorbar axis` names the colorbar, `current axis` the parent again
  host.alias_node("current colorbar axis", "current axis");
  if (!three_d_) name_current_axis(x_.length, y_.length, host);
}

// \begin{groupplot}[group style={group size=C by R, horizontal sep, vertical sep}, ...]: the
// other options hold for every plot; the plots come with \nextgroupplot.
void AxisPicture::begin_group(const tex::Statement& st, ir::LibraryHost& host) {
  group_ = true, group_cell_open_ = false, failed_ = false, axis_ = false;
  group_opts_.clear(), group_boxes_.clear();
  group_columns_ = group_rows_ = 1, group_index_ = 0;
  group_hsep_ = group_vsep_ = ir::kPtPerCm;  // /pgfplots/group/horizontal sep=1cm, vertical sep=1cm
  const std::string t(ir::text_trim(st.text));
  const std::size_t open = t.find('[');
  std::string opts;
  if (open != std::string::npos && t.back() == ']') opts = t.substr(open + 1, t.size() - open - 2);
  std::string why;
  for (const auto& it : tex::split_options(opts)) {
    const std::string k = strip_prefix(tex::normalise_key(it.key));
    if (k != "group style") {
      group_opts_ += (group_opts_.empty() ? "" : ",") + (it.has_value ? it.key + "={" + it.value + "}" : it.key);
      continue;
    }
    for (const auto& g : tex::split_options(tex::strip_braces(it.value))) {
      std::string gk = strip_prefix(tex::normalise_key(g.key));
      if (starts_with(gk, "group/")) gk = gk.substr(6);
      const std::string gv = trimmed(tex::strip_braces(g.value));
      if (gk == "group size") {
        int c = 0, r = 0;
        char tail = 0;
        if (std::sscanf(gv.c_str(), "%d by %d%c", &c, &r, &tail) == 2 && c >= 1 && r >= 1) group_columns_ = c, group_rows_ = r;
        else why = "group size=" + gv;
      } else if (gk == "horizontal sep" || gk == "vertical sep") {
        auto n = number(gv, host);
        if (n) (gk[0] == 'h' ? group_hsep_ : group_vsep_) = *n;
        else why = gk + "=" + gv;
      } else if (gk == "group name") {
        // names the plots' nodes (`my plots c1r1`), which are not modelled as nodes
      } else if ((gk == "xlabels at" || gk == "ylabels at" || gk == "xticklabels at" || gk == "yticklabels at" ||
                  gk == "x descriptions at" || gk == "y descriptions at") && gv == "all") {
      } else {
        why = gk + (g.has_value ? "=" + gv : "");
      }
    }
  }
  if (!why.empty()) not_lowered(st, "groupplot key '" + why + "' is not modelled");
}

void AxisPicture::split_group_cell(const std::string& t, std::string& opts, std::string& rest) {
  std::size_t i = ir::text_skip_space(t, 14);  // after \nextgroupplot
  opts.clear();
  if (i < t.size() && t[i] == '[') {
    const std::size_t j = ir::text_skip_group(t, i);
    if (j != std::string::npos) opts = t.substr(i + 1, j - i - 2), i = j;
  }
  rest = trimmed(std::string_view(t).substr(std::min(i, t.size())));
}

void AxisPicture::next_group_plot(const tex::Statement& st, ir::LibraryHost& host) {
  end_axis(st, host);
  if (failed_) return;
  if (group_index_ >= group_columns_ * group_rows_) {
    not_lowered(st, "more \\nextgroupplot than the group size holds");
    return;
  }
  begin_axis(st, "axis", host);
  std::string opts, rest;
  split_group_cell(std::string(ir::text_trim(st.text)), opts, rest);
  if (!rest.empty() && axis_) {
    if (starts_with(rest, "\\addplot")) lower_addplot(st, host, rest);
    else host.problem("unsupported-construct", "'" + rest.substr(0, 30) + "' after \\nextgroupplot is not modelled", 0,
                      static_cast<std::uint32_t>(st.text.size()));
  }
}

// Where the next plot's box stands (the groupplots library's `at`/`anchor`): the first at the
// origin; one to the right of another with its west anchor `horizontal sep` right of that plot's
// east anchor; a plot below another with its north anchor `vertical sep` below that one's south.
void AxisPicture::open_group_cell(ir::LibraryHost& host) {
  const int c = group_index_ % group_columns_, r = group_index_ / group_columns_;
  ++group_index_;
  const double W = x_.length, H = y_.length;
  ir::Box box{0, 0, W, H};
  if (r > 0 && group_boxes_.count({c, r - 1})) {
    const ir::Box& above = group_boxes_[{c, r - 1}];
    const double cx = (above.xmin + above.xmax) / 2, top = above.ymin - group_vsep_;
    box = {cx - W / 2, top - H, cx + W / 2, top};
  } else if (c > 0 && group_boxes_.count({c - 1, r})) {
    const ir::Box& left = group_boxes_[{c - 1, r}];
    const double cy = (left.ymin + left.ymax) / 2, x0 = left.xmax + group_hsep_;
    box = {x0, cy - H / 2, x0 + W, cy + H / 2};
  }
  group_boxes_[{c, r}] = box;
  ir::Settings s = host.settings();
  s.ctm = s.ctm.then_local(ir::Transform::shift(box.xmin, box.ymin));
  host.begin_scope(s);
  group_cell_open_ = true;
}

// \addplot[opts] <data>; drawn as pgf's plot handler draws the points pgfplots computes: a TikZ
// path in pt from the box's corner (pgfplots computes in floating point: data such as 1e5 is no
// TeX dimension), in a scope of the axis' frame that keeps the data scope's clip.
void AxisPicture::lower_addplot(const tex::Statement& st, ir::LibraryHost& host, const std::string& text) {
  if (three_d_) return lower_addplot3(st, host, text);
  const std::uint32_t whole = static_cast<std::uint32_t>(st.text.size());
  auto ap = split_addplot(text);
  if (!ap) return;
  std::string draw_opts;
  bool modelled = true;
  PlotKind ignored;
  const ErrorBars errors = read_error_bars(ap->options, [&](const std::string& e) { return number(e, host); });
  const auto option_items = tex::split_options(ap->options);
  for (std::size_t q = 0; q < option_items.size(); ++q) {
    const auto& it = option_items[q];
    const std::string k = strip_prefix(tex::normalise_key(it.key));
    if (errors.consumed[q] || line_mesh(k, *ap)) continue;
    if (unmodelled_plot_key(k)) {
      host.problem("unsupported-construct", "\\addplot option '" + k + "' (a plot type) is not modelled", 0, whole);
      modelled = false;
      break;
    }
    if (pgfplots_plot_key(k) || read_plot_kind_key(k, tex::strip_braces(it.value), it.has_value, ignored)) continue;
    draw_opts += (draw_opts.empty() ? "" : ",") + (it.has_value ? it.key + "={" + it.value + "}" : it.key);
  }
  const std::size_t cycle = plot_index_++;
  if (!modelled) return;
  if (!errors.unsupported.empty()) {
    host.problem("unsupported-construct", "\\addplot: " + errors.unsupported, 0, whole);
    return;
  }
  if (ap->fill_between) {
    if (ap->options.empty() || ap->plus)
      draw_opts = kCycleList[cycle % std::size(kCycleList)] + (draw_opts.empty() ? "" : "," + draw_opts);
    bool forget = false;
    for (const auto& it : option_items)
      if (strip_prefix(tex::normalise_key(it.key)) == "forget plot") forget = true;
    if (!forget) legend_plot_styles_.push_back(draw_opts), legend_area_.push_back(true);
    return lower_fill_between(*ap, draw_opts, st, host);
  }
  // the plot as the limits saw it; a plot they did not see (inside a scope) is read alone
  Resolved r;
  if (auto found = resolved_.find(&st); found != resolved_.end()) {
    r = found->second;
  } else {
    r.kind = plot_kind(*ap);
    if (r.kind.unsupported.empty()) {
      const Sampling s = sampling_from(ap->options, host);
      PlotData pd = read_plot_data(
          ap->source, s, [&](const std::string& e) { return number(e, host); }, Symbols{x_.symbols, y_.symbols},
          [&](const std::string& name) { return host.read_data_file(name, 0, whole, kMaxDataFileBytes); });
      if (!pd.unsupported.empty()) {
        host.problem("unsupported-construct", pd.unsupported, 0, whole);
        return;
      }
      if (r.kind.stacked) r.kind.unsupported = "a stacked plot inside a scope of the axis is not modelled";
      if (r.kind.hist) r.kind.unsupported = "a histogram inside a scope of the axis is not modelled";
      if (errors.any()) r.kind.unsupported = "error bars inside a scope of the axis are not modelled";
      r.points = pd.points;
    }
  }
  if (!r.kind.unsupported.empty()) {
    host.problem("unsupported-construct", "\\addplot: " + r.kind.unsupported, 0, whole);
    return;
  }
  if (ap->options.empty() || ap->plus) {
    const std::string entry = r.kind.bars() || r.kind.intervals() ? kBarCycleList[cycle % std::size(kBarCycleList)]
                                            : kCycleList[cycle % std::size(kCycleList)];
    draw_opts = entry + (draw_opts.empty() ? "" : "," + draw_opts);
  }
  bool forget = false;
  for (const auto& it : tex::split_options(ap->options))
    if (strip_prefix(tex::normalise_key(it.key)) == "forget plot") forget = true;
  if (!forget) legend_plot_styles_.push_back(draw_opts), legend_area_.push_back(false);
  if (r.kind.bars()) {
    if (ap->closed_cycle) {
      host.problem("unsupported-construct", "\\closedcycle after a bar plot is not modelled", 0, whole);
      return;
    }
    draw_bars(r, draw_opts, st, host);
    if (r.kind.nodes_near_coords || !r.kind.near_unsupported.empty()) draw_nodes_near_coords(r, st, host);
    return;
  }
  if (r.kind.intervals()) {
    if (ap->closed_cycle || r.kind.stacked || r.kind.nodes_near_coords || !r.kind.near_unsupported.empty()) {
      host.problem("unsupported-construct",
                   "\\closedcycle, stacking or nodes near coords on a bar interval plot are not modelled", 0, whole);
      return;
    }
    draw_interval_bars(r, draw_opts, st, host);
    return;
  }
  // Points far outside the box are clipped away; they are held to TeX's range.
  auto held = [](double v) { return std::clamp(v, -kFarPt, kFarPt); };
  auto mapped = [&](const std::vector<Point>& pts) {
    std::vector<Point> out;
    for (const Point& p : pts) {
      auto x = x_.transform(p.x), y = y_.transform(p.y);
      if (x && y) out.push_back({held(x_.map(*x)), held(y_.map(*y))});
    }
    return out;
  };
  const std::vector<Point> pts = mapped(r.points);
  if (pts.empty()) return;
  auto at = [](const Point& p) { return "(" + pt(p.x) + "," + pt(p.y) + ")"; };
  std::vector<std::string> paths;
  if (ap->closed_cycle) {
    // \closedcycle (pgfplots.code.tex): the path runs back along the stacked plot below it, or
    // down to y=0 and back at the first x (`area plots`, manual 4.5.10)
    std::vector<Point> below;
    if (!r.base.empty()) {
      below = mapped(r.base);
      std::reverse(below.begin(), below.end());
    } else {
      auto zero = y_.transform(0);
      if (!zero) {
        host.problem("unsupported-construct", "\\closedcycle on a logarithmic y axis is not modelled", 0, whole);
        return;
      }
      below = {{pts.back().x, held(y_.map(*zero))}, {pts.front().x, held(y_.map(*zero))}};
    }
    std::string path;
    for (const auto& piece : handler_pieces(pts, r.kind.handler))
      for (const Point& p : piece) path += (path.empty() ? "" : " -- ") + at(p);
    for (const Point& p : below) path += " -- " + at(p);
    paths.push_back(path + " -- cycle");
  } else if (!r.kind.only_marks) {
    for (const auto& piece : handler_pieces(pts, r.kind.handler)) {
      std::string coords;
      for (const Point& p : piece) coords += at(p) + " ";
      paths.push_back("plot coordinates {" + coords + "}");
    }
  }
  // `only marks`: the marks alone, which this model does not draw (nor on any plot)
  if (!paths.empty()) {
    std::vector<std::string> draws;
    for (const std::string& path : paths) draws.push_back("\\draw[" + draw_opts + "] " + path + ";");
    emit_in_plot_frame(draws, "", whole, host);
  }
  if (r.errors.any()) draw_error_bars(r, draw_opts, st, host);
  if (r.kind.nodes_near_coords || !r.kind.near_unsupported.empty()) draw_nodes_near_coords(r, st, host);
}

// `\addplot fill between[of=A and B]` (tikzlibrarypgfplots.fillbetween.code.tex): a fill of the
// region between two paths named with `name path` (plots or TikZ paths of the axis), built as
// \pgfpathfillbetween builds it: each path's pieces joined (inner moveto=connect), soft clipped,
// then the first path followed by the second, reversed when both run the same way (reverse=auto).
// It is filled (every fill between plot: /tikz/fill, drawn only with `draw`) inside the axis clip.
void AxisPicture::lower_fill_between(const AddPlot& ap, const std::string& draw_opts, const tex::Statement& st,
                                     ir::LibraryHost& host) {
  const std::uint32_t whole = static_cast<std::uint32_t>(st.text.size());
  FillBetween fb = read_fill_between(ap.fill_options);
  if (fb.unsupported.empty() && !ap.fill_after.empty())
    fb.unsupported = "fill between: a path after the last segment ('" + ap.fill_after.substr(0, 20) + "') is not modelled";
  // soft clip: an x range (pgfplots' `soft clip assign/domain`: the y range covers everything) or
  // a rectangle in axis cs, in the axis' local pt
  std::optional<std::pair<Point, Point>> clip_box;
  if (fb.unsupported.empty() && fb.soft_clip) {
    const std::string c = *fb.soft_clip;
    auto x_at = [&](const std::string& v) -> std::optional<double> {
      auto n = number(v, host);
      if (!n) return std::nullopt;
      auto t = x_.transform(*n);
      return t ? std::optional<double>(x_.map(*t)) : std::nullopt;
    };
    auto y_at = [&](const std::string& v) -> std::optional<double> {
      auto n = number(v, host);
      if (!n) return std::nullopt;
      auto t = y_.transform(*n);
      return t ? std::optional<double>(y_.map(*t)) : std::nullopt;
    };
    if (starts_with(c, "domain=") && c.find(':') != std::string::npos) {
      const std::string range = c.substr(7);
      const std::size_t colon = range.find(':');
      auto a = x_at(range.substr(0, colon)), b = x_at(range.substr(colon + 1));
      if (a && b) clip_box = {{std::min(*a, *b), -4 * kFarPt}, {std::max(*a, *b), 4 * kFarPt}};
    } else if (const std::size_t r = c.find("rectangle"); r != std::string::npos && !c.empty() && c.front() == '(') {
      auto corner = [&](std::string t) -> std::optional<Point> {
        t = trimmed(t);
        if (t.size() < 2 || t.front() != '(' || t.back() != ')') return std::nullopt;
        t = trimmed(t.substr(1, t.size() - 2));
        if (starts_with(t, "axis cs:")) t = trimmed(t.substr(8));
        const auto parts = tex::split_options(t);
        if (parts.size() != 2 || parts[0].has_value || parts[1].has_value) return std::nullopt;
        auto x = x_at(parts[0].key), y = y_at(parts[1].key);
        if (!x || !y) return std::nullopt;
        return Point{*x, *y};
      };
      auto p = corner(c.substr(0, r)), q = corner(c.substr(r + 9));
      if (p && q) clip_box = {{std::min(p->x, q->x), std::min(p->y, q->y)}, {std::max(p->x, q->x), std::max(p->y, q->y)}};
    }
    if (!clip_box) fb.unsupported = "fill between: 'soft clip={" + c.substr(0, 30) + "}' is not modelled";
  }
  std::vector<Point> line[2];
  char direction[2] = {'+', '+'};
  for (int k = 0; k < 2 && fb.unsupported.empty(); ++k) {
    const std::string& name = k == 0 ? fb.first : fb.second;
    auto pieces = host.named_path(name);
    if (!pieces) {
      fb.unsupported = "fill between: no path named '" + name + "' before it";
      break;
    }
    std::vector<Point> canvas;
    for (const auto& piece : *pieces) canvas.insert(canvas.end(), piece.begin(), piece.end());
    direction[k] = path_direction(canvas);
    const ir::Transform to_local = frame_.ctm.inverse();
    for (const Point& p : canvas) line[k].push_back(to_local.apply(p));
    if (clip_box) line[k] = clip_to_box(line[k], clip_box->first, clip_box->second);
  }
  if (!fb.unsupported.empty()) {
    host.problem("unsupported-construct", fb.unsupported, 0, whole);
    return;
  }
  // a path soft clipped away: pgf warns and fills nothing
  if (line[0].empty() || line[1].empty()) return;
  const bool reverse = fb.reverse == 1 || (fb.reverse == 2 && direction[0] == direction[1]);
  const std::vector<Point> outline = fill_between_outline(line[0], line[1], reverse);
  if (outline.size() < 3) return;
  std::string path;
  for (const Point& p : outline) path += (path.empty() ? "" : " -- ") + std::string("(") + pt(p.x) + "," + pt(p.y) + ")";
  emit_in_plot_frame({"\\fill[" + draw_opts + "] " + path + " -- cycle;"}, "data fill", whole, host);
}

// What the plot handlers draw is in the axis' plot frame: `statements` are emitted in a scope of
// their own whose CTM is the frame's, and the elements they make get `role` (ir::Element::role;
// empty: they keep none).
void AxisPicture::emit_in_plot_frame(const std::vector<std::string>& statements, const std::string& role,
                                     std::uint32_t whole, ir::LibraryHost& host) {
  ir::Settings plot_frame = host.settings();
  plot_frame.ctm = frame_.ctm;
  host.begin_scope(plot_frame);
  const std::size_t first = host.element_count();
  for (const std::string& statement : statements) host.emit(statement, 0, whole);
  if (!role.empty()) host.set_element_role(first, role);
  host.emit("\\end{scope}", 0, 0);
}

// Error bars (pgfplots.errorbars.code.tex): a line from value - minus to value + plus at each
// point, in the plot's style; the marks at their ends (`error mark`, small) are not drawn.
void AxisPicture::draw_error_bars(const Resolved& r, const std::string& opts, const tex::Statement& st,
                                  ir::LibraryHost& host) {
  const std::uint32_t whole = static_cast<std::uint32_t>(st.text.size());
  auto held = [](double v) { return std::clamp(v, -kFarPt, kFarPt); };
  auto at = [&](double x, double y) { return "(" + pt(held(x_.map(x))) + "," + pt(held(y_.map(y))) + ")"; };
  std::string path;
  for (std::size_t q = 0; q < r.points.size(); ++q) {
    const Point p = r.points[q];
    const Point ep = q < r.err_plus.size() ? r.err_plus[q] : Point{NAN, NAN};
    const Point em = q < r.err_minus.size() ? r.err_minus[q] : Point{NAN, NAN};
    if (r.errors.y.drawn()) {
      const auto [y0, y1] = error_extent(r.errors.y, p.y, ep.y, em.y);
      if (y1 > y0) path += " " + at(p.x, y0) + " -- " + at(p.x, y1);
    }
    if (r.errors.x.drawn()) {
      const auto [x0, x1] = error_extent(r.errors.x, p.x, ep.x, em.x);
      if (x1 > x0) path += " " + at(x0, p.y) + " -- " + at(x1, p.y);
    }
  }
  if (path.empty()) return;
  emit_in_plot_frame({"\\draw[" + opts + "]" + path + ";"}, "data", whole, host);
}

// ybar/xbar (pgflibraryplothandlers.code.tex, \pgfplothandlerybar): a rectangle per point from
// the zero level (the stacked plot below, for stacked bars) to the point, `bar width` wide
// (a length, or axis units without one: compat >= 1.7), moved by `bar shift`; `bar shift auto`
// sets the shift of the k-th of n plots to -(n w + (n-1) sep)/2 + (k + 1/2) w + k sep.
void AxisPicture::draw_bars(const Resolved& r, const std::string& opts, const tex::Statement& st,
                            ir::LibraryHost& host) {
  const std::uint32_t whole = static_cast<std::uint32_t>(st.text.size());
  const bool vertical = r.kind.handler == PlotKind::Handler::bar_y;
  const Direction& along = vertical ? x_ : y_;   // where the bars stand
  const Direction& value = vertical ? y_ : x_;   // how long they are
  if (along.log || value.log) {
    host.problem("unsupported-construct", "bars on a logarithmic axis are not modelled", 0, whole);
    return;
  }
  std::string err;
  auto wm = host.eval(r.kind.bar_width, &err);
  auto w = wm ? std::optional<double>(wm->is_length ? wm->value : wm->value * along.scale) : std::nullopt;
  auto shift = bar_shift_pt(r, host);
  if (!w || !shift) {
    host.problem("unsupported-construct", "a bar width or shift that is not a number is not modelled", 0, whole);
    return;
  }
  auto held = [](double v) { return std::clamp(v, -kFarPt, kFarPt); };
  std::vector<std::pair<Point, Point>> bars;
  for (std::size_t i = 0; i < r.points.size(); ++i) {
    const Point p = r.points[i];
    const double from = r.base.size() == r.points.size() ? (vertical ? r.base[i].y : r.base[i].x) : 0.0;
    const double c = along.map(vertical ? p.x : p.y) + *shift;
    const double v0 = held(value.map(from)), v1 = held(value.map(vertical ? p.y : p.x));
    const double a0 = held(c - *w / 2), a1 = held(c + *w / 2);
    Point lo = vertical ? Point{a0, v0} : Point{v0, a0}, hi = vertical ? Point{a1, v1} : Point{v1, a1};
    bars.push_back({lo, hi});
  }
  draw_rectangles(bars, opts, whole, host);
}

// The bars as rectangles (pt in the axis box), role `data`: what the axis' clip leaves of each (a
// bar from a zero level below the box is cut at its edge, as TeX shows it); a bar wholly outside
// is not seen.
void AxisPicture::draw_rectangles(const std::vector<std::pair<Point, Point>>& bars, const std::string& opts,
                                  std::uint32_t whole, ir::LibraryHost& host) {
  std::string path;
  for (auto [lo, hi] : bars) {
    if (clip_) {
      const double bx0 = std::max(std::min(lo.x, hi.x), 0.0), bx1 = std::min(std::max(lo.x, hi.x), x_.length);
      const double by0 = std::max(std::min(lo.y, hi.y), 0.0), by1 = std::min(std::max(lo.y, hi.y), y_.length);
      if (!(bx1 > bx0) || !(by1 > by0)) continue;
      lo = {bx0, by0}, hi = {bx1, by1};
    }
    path += " (" + pt(lo.x) + "," + pt(lo.y) + ") rectangle (" + pt(hi.x) + "," + pt(hi.y) + ")";
  }
  if (path.empty()) return;
  emit_in_plot_frame({"\\draw[" + opts + "]" + path + ";"}, "data", whole, host);
}

// ybar interval/xbar interval (pgflibraryplothandlers.code.tex, \pgfplothandlerybarinterval): of
// N+1 points, N bars, the i-th over [x_i, x_i+1] from the zero level to y_i (the last y is not
// drawn), centred at x_i + shift (x_i+1 - x_i) and width (x_i+1 - x_i) wide, with pgfplots'
// width = w/n and shift = (k + 1/2)/n for the k-th of n interval plots (`ybar interval=w`).
void AxisPicture::draw_interval_bars(const Resolved& r, const std::string& opts, const tex::Statement& st,
                                     ir::LibraryHost& host) {
  const std::uint32_t whole = static_cast<std::uint32_t>(st.text.size());
  const bool vertical = r.kind.vertical();
  const Direction& along = vertical ? x_ : y_;
  const Direction& value = vertical ? y_ : x_;
  auto w = number(r.kind.interval_width, host);
  if (along.log || value.log || !w) {
    host.problem("unsupported-construct",
                 along.log || value.log ? "bar intervals on a logarithmic axis are not modelled"
                                        : "a bar interval width that is not a number is not modelled",
                 0, whole);
    return;
  }
  const double n = static_cast<double>(r.type_count), k = static_cast<double>(r.type_index);
  const double width = *w / n, shift = (k + 0.5) / n;
  auto held = [](double v) { return std::clamp(v, -kFarPt, kFarPt); };
  std::vector<std::pair<Point, Point>> bars;
  for (std::size_t i = 0; i + 1 < r.points.size(); ++i) {
    const Point p = r.points[i], q = r.points[i + 1];
    const double a = along.map(vertical ? p.x : p.y), b = along.map(vertical ? q.x : q.y);
    const double c = a + shift * (b - a), half = 0.5 * width * (b - a);
    const double v0 = held(value.map(0.0)), v1 = held(value.map(vertical ? p.y : p.x));
    const double a0 = held(c - half), a1 = held(c + half);
    bars.push_back(vertical ? std::pair{Point{a0, v0}, Point{a1, v1}} : std::pair{Point{v0, a0}, Point{v1, a1}});
  }
  draw_rectangles(bars, opts, whole, host);
}

// The bar shift in pt (along the axis the bars stand on): `bar shift`, or with `bar shift auto`
// -(n w + (n-1) sep)/2 + (k + 1/2) w + k sep for the k-th of n plots of the type.
std::optional<double> AxisPicture::bar_shift_pt(const Resolved& r, ir::LibraryHost& host) const {
  const Direction& along = r.kind.handler == PlotKind::Handler::bar_y ? x_ : y_;
  auto length = [&](const std::string& v) -> std::optional<double> {
    std::string err;
    auto m = host.eval(v, &err);
    if (!m) return std::nullopt;
    return m->is_length ? m->value : m->value * along.scale;
  };
  auto w = length(r.kind.bar_width), shift = length(r.kind.bar_shift), sep = length(r.kind.bar_sep);
  if (!w || !shift || !sep) return std::nullopt;
  if (r.kind.shift_auto) {
    const double n = static_cast<double>(r.type_count), k = static_cast<double>(r.type_index);
    return -0.5 * (n * *w + (n - 1) * *sep) + (0.5 + k) * *w + k * *sep;
  }
  return shift;
}

// nodes near coords (pgfplots.code.tex, nodes near coords*): at each point (moved by the bar
// shift), \pgfmathprintnumber of the point meta (y; x for xbar or `point meta=x`), `above` it
// (below for a negative value) or, aligned horizontally, right of it (left). pgfplots draws them
// with the marks, outside the axis' clip: they grow the picture.
void AxisPicture::draw_nodes_near_coords(const Resolved& r, const tex::Statement& st, ir::LibraryHost& host) {
  const std::uint32_t whole = static_cast<std::uint32_t>(st.text.size());
  const char meta = r.kind.point_meta ? r.kind.point_meta : r.kind.handler == PlotKind::Handler::bar_x ? 'x' : 'y';
  std::string why = r.kind.near_unsupported;
  if (why.empty() && meta == '?') why = "nodes near coords of a point meta other than x or y are not modelled";
  if (why.empty() && r.kind.stacked) why = "nodes near coords on stacked plots are not modelled";
  if (why.empty() && (x_.log || y_.log)) why = "nodes near coords on a logarithmic axis are not modelled";
  std::optional<double> shift = 0.0;
  if (r.kind.bars()) shift = bar_shift_pt(r, host);
  if (why.empty() && !shift) why = "a bar shift that is not a number is not modelled";
  if (!why.empty()) {
    host.problem("unsupported-construct", why, 0, whole);
    return;
  }
  const bool horizontal = r.kind.near_align == "horizontal" || (r.kind.near_align == "auto" && meta == 'x');
  auto held = [](double v) { return std::clamp(v, -kFarPt, kFarPt); };
  std::vector<std::string> nodes;
  auto inside = [](const Direction& d, double v) {
    const double tol = 1e-9 * (d.hi - d.lo);
    return v >= d.lo - tol && v <= d.hi + tol;
  };
  for (const Point& p : r.points) {
    // as the marks: only at the points within the axis' limits (lualatex draws none outside)
    if (!inside(x_, p.x) || !inside(y_, p.y)) continue;
    const double v = meta == 'x' ? p.x : p.y;
    auto text = print_number(v);
    if (!text) {
      host.problem("unsupported-construct", "a node near coords in scientific notation is not typeset", 0, whole);
      return;
    }
    double px = x_.map(p.x), py = y_.map(p.y);
    (r.kind.handler == PlotKind::Handler::bar_x ? py : px) += *shift;
    const char* anchor = horizontal ? (v < 0 ? "east" : "west") : (v < 0 ? "north" : "south");
    nodes.push_back("\\node[anchor=" + std::string(anchor) + r.kind.near_style + "] at (" + pt(held(px)) + "," +
                    pt(held(py)) + ") {$" + *text + "$};");
  }
  host.begin_scope(frame_);
  const std::size_t first = host.node_count();
  for (const std::string& n : nodes) host.emit(n, 0, whole);
  host.set_node_role(first, "data label");
  host.emit("\\end{scope}", 0, 0);
}

// The plot-type keys of an \addplot3 (pgfplots manual 4.6 "Three Dimensional Plot Types"):
// `surf` and `mesh` are drawn as the lines of their mesh, which needs the scanlines (known for
// sampled expressions, or from `mesh/cols` / `mesh/rows`); `only marks` and `scatter` draw the
// marks only. Other plot types are not modelled (`why`). Returns the points per scanline given.
std::optional<std::size_t> AxisPicture::plot3_scanline(const AddPlot& ap, ir::LibraryHost& host, std::string& why) const {
  std::optional<std::size_t> cols;
  for (const auto& it : tex::split_options(ap.options)) {
    const std::string k = strip_prefix(tex::normalise_key(it.key));
    const std::string v = trimmed(tex::strip_braces(it.value));
    if (k == "mesh/cols" || k == "mesh/rows") {
      auto n = number(v, host);
      if (!n || *n < 1) {
        why = "\\addplot3 option '" + k + "=" + v + "' is not modelled";
        return std::nullopt;
      }
      // `mesh/cols` is the length of a scanline; `mesh/rows` their number (read when the data is)
      if (k == "mesh/cols") cols = static_cast<std::size_t>(std::lround(*n));
      else cols = std::numeric_limits<std::size_t>::max() - static_cast<std::size_t>(std::lround(*n));
      continue;
    }
    if (k == "surf" || k == "mesh" || k == "only marks" || k == "scatter" || paint3_key(k) || pgfplots_plot_key(k)) continue;
    PlotKind probe;
    if (unmodelled_plot_key(k) || read_plot_kind_key(k, v, it.has_value, probe)) {
      why = "\\addplot3 option '" + k + "' (a plot type) is not modelled";
      return std::nullopt;
    }
  }
  for (const auto& it : tex::split_options(axis_plot_keys_)) {
    const std::string k = strip_prefix(tex::normalise_key(it.key));
    if (k != "only marks" && k != "scatter") {
      why = "the axis' plot type '" + k + "' in a three-dimensional axis is not modelled";
      return std::nullopt;
    }
  }
  return cols;
}

// pgfplots' `near ticklabel` placement of a node at `at` (the tick, or `ticklabel cs`): the
// node's centre, and its box in `box`. `rotated`: the node has rotate=90 (the z label), whose
// anchor pgfplots computes in the node's own frame.
std::optional<Point> AxisPicture::near_ticklabel_center(Point at, Point inward, Point along, bool rotated,
                                                        const std::string& opts, const std::string& text,
                                                        ir::LibraryHost& host, ir::Box* box) const {
  auto local = [&](Point p) { return rotated ? Point{p.y, -p.x} : p; };
  const Point in_l = local(inward), along_l = local(along);
  const std::string name = snap_anchor(in_l);
  auto c = host.measure_node("anchor=center" + opts, text);
  if (!c) return std::nullopt;
  Point compass{0, 0};
  if (name != "center") {
    auto m = host.measure_node("anchor=" + name + opts, text);
    if (!m) return std::nullopt;
    compass = {-m->center.x, -m->center.y};
  }
  Point a = near_ticklabel_anchor(in_l, along_l, compass);
  if (rotated) a = {-a.y, a.x};
  const Point center{at.x - a.x, at.y - a.y};
  ir::Box b = c->box;
  if (rotated) b = ir::Box{-c->box.ymax, c->box.xmin, -c->box.ymin, c->box.xmax};
  *box = ir::Box{b.xmin + center.x, b.ymin + center.y, b.xmax + center.x, b.ymax + center.y};
  return center;
}

// A 3D axis (pgfplots manual 4.11): the box projected with `view` and stretched to the axis'
// width and height less the labels' allowance; its background edges; tick labels on the edges
// pgfplots chooses, with `near ticklabel` anchors; x/y/z labels at `ticklabel cs:0.5` (the
// z label rotated); the title above the box. Tick marks and grid lines are paint inside the box.
void AxisPicture::layout_3d(const tex::Statement& st, ir::LibraryHost& host) {
  const std::uint32_t whole = static_cast<std::uint32_t>(st.text.size());
  Direction* dirs[3] = {&x_, &y_, &z_};
  for (Direction* d : dirs) {
    if (d->line != "box" || d->unit || d->tick_align != "inside" || !d->symbols.empty()) {
      host.problem("unsupported-key",
                   std::string("pgfplots 3D axis: ") + d->name +
                       " axis lines, units, tick alignment or symbolic coordinates are not modelled",
                   0, whole, false);
      approximate_ = true;
      break;
    }
  }
  const double W = std::max(0.0, scale_only_ ? width_ : width_ - kLabelAllowancePt);
  const double H = std::max(0.0, scale_only_ ? height_ : height_ - kLabelAllowancePt);
  auto v = make_view(view_az_, view_el_, W, H);
  if (!v) {
    not_lowered(st, "its view collapses the box to a line");
    return;
  }
  view_ = *v;
  host.mark_3d();  // the picture is a projection of 3D data (ir::Diagram::is_3d)
  tick_params_.try_min_ticks = kTryMinTicks3d;  // every 3d description
  tick_params_.max_slack = 0;
  for (int a = 0; a < 3; ++a) {
    Direction& d = *dirs[a];
    d.length = view_.length(a);
    d.scale = d.length / (d.hi - d.lo);
    if (!(d.length > 1e-9)) d.hidden = true;  // seen end on: pgfplots hides the axis
  }
  auto corner = [&](const BoxEdge& e, double along) {
    double u[3] = {static_cast<double>(e.side[0]), static_cast<double>(e.side[1]), static_cast<double>(e.side[2])};
    u[e.axis] = along;
    return view_.at(u[0], u[1], u[2]);
  };
  auto at = [](Point p) { return "(" + pt(p.x) + "," + pt(p.y) + ")"; };
  if (!(x_.hidden && y_.hidden && z_.hidden)) {
    std::string path;
    for (const BoxEdge& e : background_edges(view_)) path += " " + at(corner(e, 0)) + " -- " + at(corner(e, 1));
    if (!path.empty()) host.emit("\\draw" + path + ";", 0, whole);
  }
  // tick labels, and how far they reach out from their edge along its outer normal
  const std::size_t first_node = host.node_count();
  double dimen[3] = {0, 0, 0};
  BoxEdge edges[3];
  Point normals[3];
  for (int a = 0; a < 3; ++a) {
    Direction& d = *dirs[a];
    if (d.hidden) continue;
    edges[a] = ticklabel_edge(view_, a);
    normals[a] = outer_normal(view_, edges[a]);
    const Point inward{-normals[a].x, -normals[a].y};
    const std::string style = tick_label_style_ + d.ticklabel_style;
    for (const auto& [p, text] : tick_labels(d, host, st)) {
      const Point tick = corner(edges[a], p / d.length);
      ir::Box box;
      auto c = near_ticklabel_center(tick, inward, view_.unit[static_cast<std::size_t>(a)], false, style, text, host, &box);
      if (!c) continue;
      // \pgfplots@ticklabel@maxtickdimen@updateforcurrentpath: the box corner toward the normal
      const Point far{normals[a].x > 0 ? box.xmax : box.xmin, normals[a].y > 0 ? box.ymax : box.ymin};
      dimen[a] = std::max(dimen[a], normals[a].x * (far.x - tick.x) + normals[a].y * (far.y - tick.y));
      host.emit("\\node[anchor=center" + style + "] at " + at(*c) + " {" + text + "};", 0, whole);
    }
  }
  host.set_node_role(first_node, "tick label");
  const std::size_t label_nodes = host.node_count();
  for (int a = 0; a < 3; ++a) {
    Direction& d = *dirs[a];
    if (!d.has_label || d.hidden) continue;
    const Point mid = corner(edges[a], 0.5);
    const Point p{mid.x + normals[a].x * dimen[a], mid.y + normals[a].y * dimen[a]};
    const std::string style = label_style_ + d.label_style;
    // `every axis z label` is rotated; so is the y label of `every 3d view {0}{90}`
    // (`ylabel near ticks`, the 2D axis' style)
    const bool rotated = a == 2 || (a == 1 && view_az_ == 0 && view_el_ == 90);
    ir::Box box;
    auto c = near_ticklabel_center(p, {-normals[a].x, -normals[a].y}, view_.unit[static_cast<std::size_t>(a)], rotated,
                                   style, d.label, host, &box);
    if (!c) continue;
    host.emit(std::string("\\node[") + (rotated ? "rotate=90," : "") + "anchor=center" + style + "] at " + at(*c) + " {" +
                  d.label + "};",
              0, whole);
  }
  draw_title(W, H, host, whole);
  host.set_node_role(label_nodes, "axis label");
  // the tick labels' common factor (`every 3d description`: x, y at (xticklabel cs:0.95,5pt)
  // anchored near xticklabel; z at (zticklabel* cs:1.2,-0.3em) anchored near zticklabel; inner
  // sep=0pt), where there are tick labels to share it
  if (scale_label_modelled()) {
    const std::size_t scale_nodes = host.node_count();
    for (int a = 0; a < 3; ++a) {
      Direction& d = *dirs[a];
      const int e = scale_exponent(d);
      if (e == 0 || d.hidden || tick_positions(d).empty()) continue;
      const bool z = a == 2;
      const double out = z ? -kScaleLabel3dZShiftEm * em_pt(host) : dimen[a] + kScaleLabel3dShiftPt;
      const Point base = corner(edges[a], z ? kScaleLabel3dZAt : kScaleLabel3dAt);
      const Point p{base.x + normals[a].x * out, base.y + normals[a].y * out};
      const std::string style = tick_label_style_ + d.ticklabel_style + ",inner sep=0pt";
      const std::string text = scale_label_text(e);
      ir::Box box;
      auto c = near_ticklabel_center(p, {-normals[a].x, -normals[a].y}, view_.unit[static_cast<std::size_t>(a)], false,
                                     style, text, host, &box);
      if (!c) continue;
      host.emit("\\node[anchor=center" + style + "] at " + at(*c) + " {" + text + "};", 0, whole);
    }
    host.set_node_role(scale_nodes, "tick label");
  }

  // the data frame: local units are (log10 where logarithmic) data units along the projected axes
  frame_ = host.settings();
  ir::Settings s = host.settings();
  const Point xv = (1 / (x_.hi - x_.lo)) * view_.unit[0], yv = (1 / (y_.hi - y_.lo)) * view_.unit[1],
              zv = (1 / (z_.hi - z_.lo)) * view_.unit[2];
  const Point shift = view_.origin - (x_.lo * xv + y_.lo * yv + z_.lo * zv);
  s.ctm = s.ctm.then_local(ir::Transform::shift(shift.x, shift.y));
  s.xvec = xv, s.yvec = yv, s.zvec = zv;
  // pgfplots clips 3D plots to the projected box: its outline, the hull of its corners
  std::vector<Point> pts;
  for (int c = 0; c < 8; ++c) pts.push_back(frame_.ctm.apply(view_.at(c & 1, (c >> 1) & 1, (c >> 2) & 1)));
  {
    ir::BBoxAccumulator corners;
    for (const Point& p : pts) corners.add(p);
    inner_box_ = corners.box;
  }
  std::sort(pts.begin(), pts.end(), [](const Point& p, const Point& q) { return p.x < q.x || (p.x == q.x && p.y < q.y); });
  auto cross = [](const Point& o, const Point& p, const Point& q) { return (p.x - o.x) * (q.y - o.y) - (p.y - o.y) * (q.x - o.x); };
  std::vector<Point> hull(16);
  std::size_t k = 0;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    while (k >= 2 && cross(hull[k - 2], hull[k - 1], pts[i]) <= 0) --k;
    hull[k++] = pts[i];
  }
  for (std::size_t i = pts.size() - 1, t = k + 1; i > 0; --i) {
    while (k >= t && cross(hull[k - 2], hull[k - 1], pts[i - 1]) <= 0) --k;
    hull[k++] = pts[i - 1];
  }
  hull.resize(k > 0 ? k - 1 : 0);
  open_data_frame(st, host, s, hull, false);
}

// \addplot3 (pgfplots manual 4.6): the points projected through the view; a line plot as one
// polyline, `mesh`/`surf` as the lines of their mesh (each scanline and each column: what the
// rules need of the surface's extent; the faces' colours are paint).
void AxisPicture::lower_addplot3(const tex::Statement& st, ir::LibraryHost& host, const std::string& text) {
  const std::uint32_t whole = static_cast<std::uint32_t>(st.text.size());
  auto ap = split_addplot(text);
  if (!ap) return;
  const std::size_t cycle = plot_index_++;
  PlotData pd;
  if (auto found = plots3_.find(&st); found != plots3_.end()) {
    pd = found->second;
  } else {
    std::string why;
    auto cols = plot3_scanline(*ap, host, why);
    if (why.empty()) {
      pd = read_plot_data3(ap->source, sampling_from(ap->options, host), [&](const std::string& e) { return number(e, host); },
                           [&](const std::string& name) { return host.read_data_file(name, 0, whole, kMaxDataFileBytes); });
      why = pd.unsupported;
      if (cols) pd.scanline = *cols;
    }
    if (!why.empty()) {
      host.problem("unsupported-construct", why, 0, whole);
      return;
    }
  }
  bool mesh = false, only_marks = false;
  std::string draw_opts;
  for (const std::string& opts : {axis_plot_keys_, ap->options})
    for (const auto& it : tex::split_options(opts)) {
      const std::string k = strip_prefix(tex::normalise_key(it.key));
      if (k == "surf" || k == "mesh") mesh = true;
      else if (k == "only marks" || k == "scatter") only_marks = true;
      else if (&opts == &ap->options && !paint3_key(k) && !pgfplots_plot_key(k) && !starts_with(k, "mesh/"))
        draw_opts += (draw_opts.empty() ? "" : ",") + (it.has_value ? it.key + "={" + it.value + "}" : it.key);
    }
  if (ap->options.empty() || ap->plus)
    draw_opts = std::string(kCycleList[cycle % std::size(kCycleList)]) + (draw_opts.empty() ? "" : "," + draw_opts);
  bool forget = false;
  for (const auto& it : tex::split_options(ap->options))
    if (strip_prefix(tex::normalise_key(it.key)) == "forget plot") forget = true;
  if (!forget) legend_plot_styles_.push_back(draw_opts), legend_area_.push_back(false);
  // `mesh/rows`: the scanline is the number of points over the rows
  if (pd.scanline > pd.points.size() && pd.scanline != 0) {
    const std::size_t rows = std::numeric_limits<std::size_t>::max() - pd.scanline;
    pd.scanline = rows > 0 && pd.points.size() % rows == 0 ? pd.points.size() / rows : 0;
  }
  if (only_marks && !mesh) return;  // marks are not drawn (as in 2D)
  if (mesh && (pd.scanline < 2 || pd.points.size() % pd.scanline != 0)) {
    host.problem("unsupported-construct", "\\addplot3 mesh or surf whose scanlines are not known (mesh/cols) is not modelled",
                 0, whole);
    return;
  }
  auto held = [](double v) { return std::clamp(v, -kFarPt, kFarPt); };
  std::vector<std::optional<Point>> proj;
  for (std::size_t k = 0; k < pd.points.size(); ++k) {
    auto x = x_.transform(pd.points[k].x), y = y_.transform(pd.points[k].y), z = z_.transform(pd.z[k]);
    if (!x || !y || !z) {
      proj.push_back(std::nullopt);
      continue;
    }
    const Point p = view_.at((*x - x_.lo) / (x_.hi - x_.lo), (*y - y_.lo) / (y_.hi - y_.lo), (*z - z_.lo) / (z_.hi - z_.lo));
    proj.push_back(Point{held(p.x), held(p.y)});
  }
  std::vector<std::vector<std::size_t>> lines;
  if (mesh) {
    const std::size_t n = pd.scanline, rows = pd.points.size() / n;
    for (std::size_t r = 0; r < rows; ++r) {
      lines.emplace_back();
      for (std::size_t c = 0; c < n; ++c) lines.back().push_back(r * n + c);
    }
    for (std::size_t c = 0; c < n && rows > 1; ++c) {
      lines.emplace_back();
      for (std::size_t r = 0; r < rows; ++r) lines.back().push_back(r * n + c);
    }
  } else {
    lines.emplace_back();
    for (std::size_t k = 0; k < proj.size(); ++k) lines.back().push_back(k);
  }
  std::vector<std::string> paths;
  for (const auto& line : lines) {
    std::string coords;
    std::size_t count = 0;
    for (std::size_t k : line)
      if (proj[k]) coords += "(" + pt(proj[k]->x) + "," + pt(proj[k]->y) + ") ", ++count;
    if (count >= 1) paths.push_back("plot coordinates {" + coords + "}");
  }
  if (paths.empty()) return;
  std::vector<std::string> draws;
  for (const std::string& path : paths) draws.push_back("\\draw[" + draw_opts + "] " + path + ";");
  emit_in_plot_frame(draws, "data", whole, host);
}

class Pgfplots final : public ir::Package {
 public:
  std::string_view name() const override { return "pgfplots"; }
  std::unique_ptr<ir::PackagePicture> begin_picture(const tex::Picture& pic) const override {
    if (!pic.is_axis) return nullptr;
    return std::make_unique<AxisPicture>(pic);
  }
};

}  // namespace

std::unique_ptr<ir::Package> pgfplots() { return std::make_unique<Pgfplots>(); }

}  // namespace tikzlint::packages
