// ir/plot_file.cpp: the data of `plot file {name}` (pgfmanual 22.6), read as pgfmoduleplot.code.tex's
// \pgfplotxyfile reads it: one point per line, "x y [flag]"; `#` and `%` start a comment; an empty
// line starts a new data set (a jump); the flag `u` marks an undefined point (also a jump), `o` an
// outlier (drawn like a point by the default handlers); `i` and anything else is a normal point.
#include <cctype>
#include <cstdlib>
#include <fstream>
#include <sstream>

#include "ir/lowering.hpp"

namespace tikzlint::ir {

namespace {

// A number as pgfmath reads a table entry: decimal, optional sign and exponent.
bool parse_number(const std::string& s, double& out) {
  if (s.empty()) return false;
  char* end = nullptr;
  out = std::strtod(s.c_str(), &end);
  return end == s.c_str() + s.size() && std::isfinite(out);
}

}  // namespace

PlotFileData read_plot_file(const std::string& path) {
  PlotFileData data;
  std::ifstream in(path, std::ios::binary);
  if (!in) return data;
  data.found = true;
  std::vector<std::pair<double, double>> run;
  auto jump = [&] {
    if (!run.empty()) data.runs.push_back(std::move(run));
    run.clear();
  };
  std::string line;
  std::size_t bytes = 0, points = 0, line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    bytes += line.size() + 1;
    if (bytes > kPlotFileMaxBytes || points > kPlotFileMaxPoints) {
      data.error = "plot data file is larger than " + std::to_string(kPlotFileMaxBytes) + " bytes or " +
                   std::to_string(kPlotFileMaxPoints) + " points";
      data.runs.clear();
      return data;
    }
    const std::size_t comment = line.find_first_of("#%");
    if (comment != std::string::npos) line.resize(comment);
    std::istringstream words(line);
    std::string xs, ys, flag;
    if (!(words >> xs)) {
      jump();  // an empty line: a new data set
      continue;
    }
    words >> ys >> flag;
    double x = 0, y = 0;
    if (!parse_number(xs, x) || !parse_number(ys, y)) {
      data.error = "line " + std::to_string(line_no) + " of the plot data file is not 'x y'";
      data.runs.clear();
      return data;
    }
    if (flag == "u") {
      jump();
      continue;
    }
    run.emplace_back(x, y);
    ++points;
  }
  jump();
  return data;
}

}  // namespace tikzlint::ir
