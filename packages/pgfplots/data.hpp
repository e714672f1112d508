// packages/pgfplots/data.hpp: reading an \addplot statement (pgfplots manual 4.2-4.3): its
// options and its data (`coordinates`, an inline `table`, an expression sampled over `domain`).
#pragma once
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/diagram.hpp"

namespace tikzlint::pgfplots {

struct AddPlot {
  bool plus = false;       // \addplot+ : the options are appended to the cycle list entry
  bool three_d = false;    // \addplot3
  std::string options;     // between the brackets, as written
  std::string source;      // after the options, without the final ';' (and \closedcycle)
  bool closed_cycle = false;  // ends in \closedcycle (pgfplots manual 4.5.10, area plots)
  // `\addplot[..] fill between[opts] <path after>;` (fillbetween library): no data of its own
  bool fill_between = false;
  std::string fill_options, fill_after;
};

// Splits "\addplot+[opts] coordinates {...};"; nullopt when the text is not an \addplot.
std::optional<AddPlot> split_addplot(const std::string& text);

// The data of one plot, in data coordinates (before any log transform).
struct PlotData {
  std::vector<ir::Point> points;  // in order; a point pgfplots discards (undefined) is left out
  std::vector<double> z;          // \addplot3: the z of each point (parallel to `points`)
  std::size_t scanline = 0;       // \addplot3: points per scanline of a mesh (0: not known)
  // explicit error values (`+- (ex,ey)`, `+= (..)`, `-= (..)` after a coordinate, or a table's
  // `x error`/`y error` columns), parallel to `points` when any is given; NaN: none written
  std::vector<ir::Point> err_plus, err_minus;
  std::string unsupported;        // non-empty: the form is not modelled (the message says which)
};

// Evaluates a pgfmath expression; nullopt on an error (an undefined value pgfplots discards).
using Evaluate = std::function<std::optional<double>(const std::string& expr)>;

// Sampling of expressions (pgfplots manual 4.3.3): `domain` (default -5:5), `samples` (25),
// `samples at`, the variable (`variable`, default x).
struct Sampling {
  double lo = -5, hi = 5;
  int samples = 25;
  std::vector<double> at;  // `samples at`: used instead of domain/samples when non-empty
  std::string variable = "x";
  // \addplot3 (pgfplots manual 4.6.3): `domain y` and `samples y` (default: domain and samples),
  // the variable `variable y` (default y)
  std::optional<std::pair<double, double>> domain_y;
  std::optional<int> samples_y;
  std::string variable_y = "y";
};

// `symbolic x coords={a,b,c}` (pgfplots manual 4.22): the names stand for 0, 1, 2 in that direction.
struct Symbols {
  std::vector<std::string> x, y;
  bool empty() const { return x.empty() && y.empty(); }
};

// Reads the plot's data: `coordinates {...}`, `table[...] {inline data}` or `table[...] {file}`
// (through `read`), `{expr}`,
// `expression {expr}` or `({expr}, {expr})` (parametric). `table_keys` are the table's options.
// The text of a data file named by `table {name}` (nullopt: not read; the reader reports why).
using ReadFile = std::function<std::optional<std::string>(const std::string& name)>;

PlotData read_plot_data(const std::string& source, const Sampling& sampling, const Evaluate& eval,
                        const Symbols& symbols = {}, const ReadFile& read = nullptr);

// The same for \addplot3: `coordinates {(x,y,z) ...}`, an inline `table` (columns x, y, z),
// `{expr}` in x and y sampled over a grid (y outer, x inner: scanlines of `samples` points) or
// `({x},{y},{z})` (a grid too, a line with `samples y` 0 or 1). `points` hold x and y, `z` the z.
PlotData read_plot_data3(const std::string& source, const Sampling& sampling, const Evaluate& eval,
                         const ReadFile& read = nullptr);

// A coordinate of data: a number, or the index of a symbolic coordinate.
std::optional<double> data_value(const std::string& s, const std::vector<std::string>& symbols);

// `expr` with every use of the variable (`x`, `\x`) replaced by `value` (parenthesised).
std::string substitute_variable(const std::string& expr, const std::string& variable, const std::string& value);

// pgfplots' number parser for data: 1, -2.5, 1e-3, 3.2E4 (nullopt for anything else).
std::optional<double> parse_number(const std::string& s);

}  // namespace tikzlint::pgfplots
