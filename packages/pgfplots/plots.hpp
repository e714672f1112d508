// packages/pgfplots/plots.hpp: the plot types an \addplot draws (pgfplots manual 4.5 "Two
// Dimensional Plot Types"): which handler its options (after the axis' own) select, and the
// geometry pgf's plot handlers make of the points (pgflibraryplothandlers.code.tex,
// pgfplots.code.tex's ybar/xbar styles).
#pragma once
#include <optional>
#include <string>
#include <vector>

#include "ir/diagram.hpp"

namespace tikzlint::pgfplots {

struct PlotKind {
  // pgf's plot handlers: lineto (sharp plot), constantlineto (const plot = const plot mark left),
  // constantlinetomarkright, constantlinetomarkmid, jumpmarkleft, jumpmarkright, ybar, xbar,
  // ybarinterval, xbarinterval
  enum class Handler { line, const_left, const_right, const_mid, jump_left, jump_right, bar_y, bar_x, interval_y, interval_x };
  Handler handler = Handler::line;
  bool only_marks = false;       // `only marks`: the marks without the line
  bool stacked = false;          // `stack plots=y` (x for `xbar stacked`), `ybar stacked`
  bool shift_auto = false;       // `bar shift auto` (what `ybar=<sep>`/`xbar=<sep>` set)
  std::string bar_sep = "2pt";   // `ybar=<sep>`: the space between the bars of one group
  std::string bar_width = "10pt";  // /pgf/bar width (pgfmoduleplot's default)
  std::string bar_shift = "0pt";   // /pgf/bar shift
  // `ybar interval=<w>` (default 1): the k-th of n interval plots has bar interval width w/n and
  // bar interval shift (k + 1/2)/n, in units of the interval
  std::string interval_width = "1";
  // `nodes near coords` (pgfplots manual 4.5.11): the point meta printed at each point
  bool nodes_near_coords = false;
  std::string near_align = "auto";  // `nodes near coords align`: auto, vertical, horizontal
  std::string near_style;           // `every node near coord/.append style`
  char point_meta = 0;              // `point meta=x`/`y`; 0: pgfplots' default (f(x), x for xbar)
  std::string near_unsupported;     // non-empty: the nodes are not modelled (the plot still is)
  std::string unsupported;       // non-empty: a plot type this model does not draw (says which)
  // `hist={...}` (statistics library): the plot's points are the histogram of its data, drawn
  // by ybar interval
  bool hist = false;
  std::string hist_bins = "10", hist_min, hist_max;  // hist/bins, data min, data max ("" : the data's)
  char hist_data = 'y';                              // hist/data=x or y (the default: the y value)
  bool hist_intervals = true, hist_cumulative = false, hist_density = false;
  bool bars() const { return handler == Handler::bar_y || handler == Handler::bar_x; }
  bool intervals() const { return handler == Handler::interval_y || handler == Handler::interval_x; }
  // the bars stand on the x axis (ybar, ybar interval) or on the y axis (xbar, xbar interval)
  bool vertical() const { return handler == Handler::bar_y || handler == Handler::interval_y; }
};

// Reads the plot-type keys of one option list into `kind` (later keys win, as pgfkeys sets them).
// Returns true when the key is one of them (so the caller does not hand it on to TikZ).
bool read_plot_kind_key(const std::string& key, const std::string& value, bool has_value, PlotKind& kind);

// The points of pgfplots' histogram (pgfplotsplothandlers.code.tex, \pgfplotsplothandlerhistogram)
// of `values` over [lo, hi] in `bins` bins of width h = (hi - lo)/bins: (lo + i h, count_i), a value
// in bin floor((v - lo)/h + 1e-4) held to [0, bins - 1]; `cumulative` sums the counts, `density`
// divides them by total h (by the total when cumulative); `intervals` repeats the last count at hi.
std::vector<ir::Point> histogram(const std::vector<double>& values, double lo, double hi, int bins, bool intervals,
                                 bool cumulative, bool density);

// The axis-level keys a plot-type key sets as well (pgfplots.code.tex: `ybar` and `ybar interval`
// set `xtick align=outside`, `xbar` and `xbar interval` set `ytick align=outside`): 'x', 'y' or 0.
char outside_ticks_of(const std::string& key);

// The polyline pieces pgf's handler makes of the points (in pt): one piece for a line or a
// constant plot, one per step for jump marks.
std::vector<std::vector<ir::Point>> handler_pieces(const std::vector<ir::Point>& pts, PlotKind::Handler h);

}  // namespace tikzlint::pgfplots
