// packages/pgfplots/ticks.cpp: pgfplots' tick algorithm (pgfplotsticks.code.tex) and tick label
// text (pgfmathprintnumber, std format).
#include "packages/pgfplots/ticks.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tikzlint::pgfplots {
namespace {

// \pgfplots@assign@default@tick@foraxis@normalizetickdist: the mantissa of the step snapped to
// 1, 2 or 5 (thresholds 1.5, 3.5, 7.5 as pgfplots writes them).
double normalize_step(double h) {
  if (!(h > 0)) return 1;
  int e = static_cast<int>(std::floor(std::log10(h)));
  double m = h / std::pow(10.0, e);
  if (m >= 9.99999999) m = 1, ++e;  // float noise at a power of ten
  double snapped;
  if (m < 2) snapped = m < 1.5 ? 1 : 2;
  else if (m < 4.9999) snapped = m < 3.5 ? 2 : 5;
  else if (m < 7.5) snapped = 5;
  else snapped = 1, ++e;
  return snapped * std::pow(10.0, e);
}

// pgfplots' TeX dimen arithmetic works to 2^-16; values within that of a limit count as on it.
constexpr double kDimenEps = 1.0 / 65536;
// `xtick placement tolerance=0.05pt` (pgfplots.code.tex): the limits a tick must lie within are
// widened by this much on the page (\pgfplots@prepare@tick@coordlists@for@handletolerance).
constexpr double kPlacementTolerancePt = 0.05;

}  // namespace

std::vector<double> linear_ticks(double lo, double hi, double length_pt, const TickParameters& p) {
  std::vector<double> out;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return out;
  // desirednumticks = max(try min ticks, trunc(length / max space) + 1); retried with one more
  // (up to 15 times) while fewer than two ticks would fall in the range.
  int base = static_cast<int>(std::trunc(length_pt / std::max(1.0, p.max_space_pt))) + 1;
  int try_min = p.try_min_ticks;
  for (int attempt = 0; attempt < 15; ++attempt, ++try_min) {
    const int n = std::max(base, try_min);
    const double h = normalize_step((hi - lo) / std::max(1, n - 1));
    // MIN = int(lo / H) * H - H (truncated toward zero), then MIN, MIN+H, ... up to hi + 0.5 H
    const double first = std::trunc(lo / h) * h - h;
    const double max = hi + p.max_slack;
    if (max < first + 2 * h && attempt + 1 < 15) continue;
    const double tol = std::max({kDimenEps, 1e-9 * std::max(std::abs(lo), std::abs(hi)),
                                 length_pt > 0 ? kPlacementTolerancePt * (hi - lo) / length_pt : 0.0});
    for (int k = 0; k < 10000; ++k) {
      double t = first + k * h;
      if (t > max + 0.5 * h) break;
      if (std::abs(t) < 1e-12 * h) t = 0;
      if (t >= lo - tol && t <= hi + tol) out.push_back(t);
    }
    return out;
  }
  return out;
}

std::vector<double> log_ticks(double lo, double hi, double length_pt, const TickParameters& p) {
  std::vector<double> out;
  if (!(hi > lo) || !std::isfinite(lo) || !std::isfinite(hi)) return out;
  // Step H = j decades (j = floor of range / (n - 1), at least 1); ticks at multiples of j.
  int n = std::max(static_cast<int>(std::trunc(length_pt / std::max(1.0, p.max_space_pt))) + 1, p.try_min_ticks_log);
  double h = (hi - lo) / std::max(1, n - 1);
  int j = h < 2 ? 1 : static_cast<int>(std::floor(h));
  const double tol = 1e-9;
  for (long long k = static_cast<long long>(std::floor(lo)) - 1; k <= static_cast<long long>(std::ceil(hi)) + 1; ++k)
    if (k % j == 0 && k >= lo - tol && k <= hi + tol) out.push_back(static_cast<double>(k));
  return out;
}

int tick_scale_exponent(double lo, double hi) {
  auto exponent = [](double v) { return static_cast<int>(std::floor(std::log10(std::abs(v)))); };
  int a, b;
  if (lo == 0 && hi == 0) return 0;
  if (lo == 0) a = b = exponent(hi);
  else if (hi == 0) a = b = exponent(lo);
  else a = exponent(lo), b = exponent(hi);
  const int e = std::max(a, b);
  return e > 3 || e < -1 ? e : 0;
}

std::optional<std::string> print_number(double v, const std::string& thousands_sep) {
  if (!std::isfinite(v)) return std::nullopt;
  const double a = std::abs(v);
  if (a >= 1e5 || (a > 0 && a < 1e-3)) return std::nullopt;
  // pgf rounds the decimal value half up at the precision (0.125 -> 0.13)
  const double rounded = std::floor(a * 100 + 0.5 + 1e-9) / 100;
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.2f", rounded);
  std::string s = buf;
  while (!s.empty() && s.back() == '0') s.pop_back();
  if (!s.empty() && s.back() == '.') s.pop_back();
  if (s == "0") return std::string("0");
  std::size_t dot = s.find('.');
  std::string ip = s.substr(0, dot), fp = dot == std::string::npos ? "" : s.substr(dot);
  std::string grouped;
  for (std::size_t i = 0; i < ip.size(); ++i) {
    if (i > 0 && (ip.size() - i) % 3 == 0) grouped += thousands_sep;
    grouped += ip[i];
  }
  return (v < 0 ? "-" : "") + grouped + fp;
}

}  // namespace tikzlint::pgfplots
