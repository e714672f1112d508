// packages/pgfplots/ticks.hpp: pgfplots' default tick placement (pgfplotsticks.code.tex,
// \pgfplots@assign@default@tick@foraxis) and the text of a tick label (\pgfmathprintnumber).
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace tikzlint::pgfplots {

// pgfplots' defaults (pgfplots.code.tex): `max space between ticks=35` (pt), `try min ticks=4`,
// `try min ticks log=3`.
struct TickParameters {
  double max_space_pt = 35;
  int try_min_ticks = 4;
  int try_min_ticks_log = 3;
  // \pgfplots@assign@default@tick@foraxis@compute adds 0.001pt to the upper limit "to avoid round
  // errors" in the axis' own (possibly data-scaled) units: 0.001 data units on a 2D axis; a 3D
  // axis scales its data to its box first, so there it is negligible (0).
  double max_slack = 0.001;
};

// The tick positions of a linear axis [lo, hi] drawn `length_pt` long, in data units, ascending,
// only those within the limits (pgfplots draws no tick outside them).
std::vector<double> linear_ticks(double lo, double hi, double length_pt, const TickParameters& p = {});

// The ticks of a logarithmic axis whose limits are log10 values [lo, hi]: the exponents k of the
// ticks 10^k.
std::vector<double> log_ticks(double lo, double hi, double length_pt, const TickParameters& p = {});

// pgfplots' `scaled ticks=true` (pgfplotsticks.code.tex): the exponent E factored out of the tick
// labels of a linear axis with limits [lo, hi] (`scale ticks above exponent=3`, `below=-1`), 0
// when the labels are printed unscaled.
int tick_scale_exponent(double lo, double hi);

// \pgfmathprintnumber{v} in pgf's default `std` format (precision 2, trailing zeros dropped,
// `{,}` between thousands), as math-mode text without the dollars; nullopt where pgf would print
// scientific notation (|v| >= 10^5 or 0 < |v| < 10^-3), which this model does not typeset.
// `thousands_sep`: /pgf/number format/1000 sep.
std::optional<std::string> print_number(double v, const std::string& thousands_sep = "{,}");

}  // namespace tikzlint::pgfplots
