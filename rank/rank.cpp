// rank/rank.cpp: candidates best first (docs/rank.md).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <tuple>

#include "rank/rank.hpp"

namespace tikzlint::rank {

namespace {

using checks::Verdict;

// The share of the score each level of the order holds: a higher level always outweighs every
// lower one, so descending score is the lexicographic order of the levels.
constexpr double kCompiles = 0.5, kRulesPass = 0.25, kFindings = 0.25;

double lightness(int weight) { return 1.0 / (1.0 + weight); }

// Findings per (rule, severity): the unit in which a candidate's findings are set against the
// reference's (a moved or rescaled copy changes a finding's numbers, not its rule or severity).
std::map<std::pair<std::string, Severity>, int> finding_counts(const Candidate& c) {
  std::map<std::pair<std::string, Severity>, int> n;
  for (const auto& d : c.diagnostics)
    if (d.severity == Severity::error || d.severity == Severity::warning) ++n[{d.rule, d.severity}];
  return n;
}

std::string fmt(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", v);
  return buf;
}

}  // namespace

std::vector<Ranked> rank(const std::vector<Candidate>& candidates, const Candidate* reference,
                         const checks::Config& cfg) {
  const bool has_compiles = checks::find_rule("compiles") != nullptr;
  // What the reference itself has (empty without one): its failing rules and its findings.
  std::set<std::string> ref_failing;
  std::map<std::pair<std::string, Severity>, int> ref_findings;
  if (reference) {
    for (const auto& [name, v] : reference->verdicts)
      if (v == Verdict::fail && name != "compiles") ref_failing.insert(name);
    ref_findings = finding_counts(*reference);
  }
  std::vector<Ranked> out;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    const Candidate& c = candidates[i];
    Ranked r;
    r.index = i;
    int errors = 0, warnings = 0, shared = 0;
    for (const auto& [key, n] : finding_counts(c)) {
      auto it = ref_findings.find(key);
      const int inherited = std::min(n, it == ref_findings.end() ? 0 : it->second);
      shared += inherited;
      (key.second == Severity::error ? errors : warnings) += n - inherited;
    }
    // Errors decide compiling on their own, whatever the reference has.
    int all_errors = 0;
    for (const auto& d : c.diagnostics) all_errors += d.severity == Severity::error;
    std::vector<std::string> failing, failing_shared;
    std::optional<Verdict> compiles_verdict;
    for (const auto& [name, v] : c.verdicts) {
      if (name == "compiles") compiles_verdict = v;
      if (v == Verdict::fail) (ref_failing.count(name) ? failing_shared : failing).push_back(name);
    }
    if (!c.readable) {
      r.compiles = false;
      r.reasons.push_back("does not compile: the file could not be read or checked");
    } else if (has_compiles && compiles_verdict) {
      r.compiles = *compiles_verdict != Verdict::fail;
      r.reasons.push_back(r.compiles ? "compiles (verdict compiles: " + std::string(checks::to_string(*compiles_verdict)) + ")"
                                     : "does not compile (verdict compiles: fail)");
    } else {
      r.compiles = all_errors == 0;
      r.reasons.push_back(r.compiles ? "compiles: no error diagnostic"
                                     : "does not compile: " + std::to_string(all_errors) + " error diagnostic(s)");
    }
    r.rules_pass = c.readable && failing.empty();
    if (r.rules_pass) {
      r.reasons.push_back("no rule fails");
    } else if (c.readable) {
      std::string names;
      for (const auto& n : failing) names += (names.empty() ? "" : ", ") + n;
      r.reasons.push_back("fails: " + names);
    }
    if (!failing_shared.empty()) {
      std::string names;
      for (const auto& n : failing_shared) names += (names.empty() ? "" : ", ") + n;
      r.reasons.push_back("fails as the reference does (not counted): " + names);
    }
    r.finding_weight = 2 * errors + warnings;
    r.reasons.push_back(std::to_string(errors) + " error(s), " + std::to_string(warnings) + " warning(s): finding weight " +
                        std::to_string(r.finding_weight));
    if (shared > 0) r.reasons.push_back(std::to_string(shared) + " finding(s) the reference has too (not counted)");
    double closeness = 1;
    if (reference) {
      static const std::vector<ir::Diagram> none;
      r.similarity = compare(reference->diagrams ? *reference->diagrams : none, c.diagrams ? *c.diagrams : none, cfg);
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
  // Last, among candidates equally close, the one whose size changed least.
  auto resized = [](const Ranked& r) { return r.similarity ? std::abs(std::log(r.similarity->size_ratio)) : 0.0; };
  std::stable_sort(out.begin(), out.end(), [&](const Ranked& a, const Ranked& b) {
    const double sa = a.similarity ? a.similarity->score : 1, sb = b.similarity ? b.similarity->score : 1;
    return std::tuple(!a.compiles, !a.rules_pass, a.finding_weight, -sa, resized(a)) <
           std::tuple(!b.compiles, !b.rules_pass, b.finding_weight, -sb, resized(b));
  });
  return out;
}

}  // namespace tikzlint::rank
