// rank/rank.cpp: candidates best first (docs/rank.md).
#include <algorithm>
#include <cstdio>
#include <tuple>

#include "rank/rank.hpp"

namespace tikzlint::rank {

namespace {

using checks::Verdict;

// The share of the score each level of the order holds: a higher level always outweighs every
// lower one, so descending score is the lexicographic order of the levels.
constexpr double kCompiles = 0.5, kRulesPass = 0.25, kFindings = 0.25;

double lightness(int weight) { return 1.0 / (1.0 + weight); }

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

std::vector<Ranked> rank(const std::vector<Candidate>& candidates, const std::vector<ir::Diagram>* reference,
                         const checks::Config& cfg) {
  const bool has_compiles = checks::find_rule("compiles") != nullptr;
  std::vector<Ranked> out;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    Ranked r;
    r.index = i;
    int errors = 0, warnings = 0;
    std::vector<std::string> failing;
    for (const auto& d : c.diagnostics) {
      if (d.severity == Severity::error) ++errors;
      else if (d.severity == Severity::warning) ++warnings;
    }
    std::optional<Verdict> compiles_verdict;
    for (const auto& [name, v] : c.verdicts) {
      if (name == "compiles") compiles_verdict = v;
      if (v == Verdict::fail) failing.push_back(name);
    }
    if (!c.readable) {
      r.compiles = false;
      r.reasons.push_back("does not compile: the file could not be read or checked");
    } else if (has_compiles && compiles_verdict) {
      r.compiles = *compiles_verdict != Verdict::fail;
      r.reasons.push_back(r.compiles ? "compiles (verdict compiles: " + std::string(checks::to_string(*compiles_verdict)) + ")"
                                     : "does not compile (verdict compiles: fail)");
    } else {
      r.compiles = errors == 0;
      r.reasons.push_back(r.compiles ? "compiles: no error diagnostic"
                                     : "does not compile: " + std::to_string(errors) + " error diagnostic(s)");
    }
    r.rules_pass = c.readable && failing.empty();
    if (r.rules_pass) {
      r.reasons.push_back("no rule fails");
    } else if (c.readable) {
      std::string names;
      for (const auto& n : failing) names += (names.empty() ? "" : ", ") + n;
      r.reasons.push_back("fails: " + names);
    }
    r.finding_weight = 2 * errors + warnings;
    r.reasons.push_back(std::to_string(errors) + " error(s), " + std::to_string(warnings) + " warning(s): finding weight " +
                        std::to_string(r.finding_weight));
    double closeness = 1;
    if (reference) {
      static const std::vector<ir::Diagram> none;
      r.similarity = compare(*reference, c.diagrams ? *c.diagrams : none, cfg);
      closeness = r.similarity->score;
      std::string parts;
      for (const auto& p : r.similarity->parts)
        if (p.applies) parts += (parts.empty() ? "" : ", ") + p.name + " " + fmt(p.score);
      r.reasons.push_back("similarity to the reference " + fmt(closeness) + " (" + parts + ")");
      for (const auto& p : r.similarity->parts)
        for (const auto& ch : p.changes) r.reasons.push_back(p.name + ": " + ch);
    }
    // Closeness places a candidate between the lightness of its finding weight and the next.
    const double hi = lightness(r.finding_weight), lo = lightness(r.finding_weight + 1);
    r.score = kCompiles * r.compiles + kRulesPass * r.rules_pass + kFindings * (lo + closeness * (hi - lo));
    out.push_back(std::move(r));
  }
  std::stable_sort(out.begin(), out.end(), [](const Ranked& a, const Ranked& b) {
    const double sa = a.similarity ? a.similarity->score : 1, sb = b.similarity ? b.similarity->score : 1;
    return std::tuple(!a.compiles, !a.rules_pass, a.finding_weight, -sa) <
           std::tuple(!b.compiles, !b.rules_pass, b.finding_weight, -sb);
  });
  return out;
}

}  // namespace tikzlint::rank
