// checks/check.hpp: the public face of the rule checks.
// A rule reads only an ir::Diagram and returns a verdict plus findings with evidence.
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "ir/diagram.hpp"
#include "support/diagnostic.hpp"

namespace tikzlint::checks {

enum class Verdict { pass, fail, na, indeterminate };
const char* to_string(Verdict v);  // "pass", "fail", "n/a", "indeterminate"

// A named, documented, configurable number a rule uses.
struct Threshold {
  std::string name;         // e.g. "tolerance_pt"
  double default_value = 0;
  std::string unit;         // "pt", "deg", "ratio"...
  std::string reason;       // the physical reason for the value
};

struct RuleDoc {
  std::string name;         // "in_frame" (also the verdict key in jsonl output)
  std::string summary;      // one line: what it catches
  std::string description;  // why it matters, what it measures, n/a and indeterminate semantics
  std::string failing_example;  // TikZ that fires
  std::string fix;              // how to fix it
  std::vector<Threshold> thresholds;
};

// Overrides for thresholds, keyed "rule.name" (e.g. "in_frame.tolerance_pt").
class Config {
 public:
  void set(const std::string& key, double value) { values_[key] = value; }
  double get(const RuleDoc& doc, const std::string& name) const;  // override or default
 private:
  std::map<std::string, double> values_;
};

struct RuleResult {
  Verdict verdict = Verdict::na;
  std::vector<Diagnostic> findings;  // each with evidence {measured, limit, unit, ...}
  std::string reason;                // for n/a and indeterminate
  // The most findings a rule reports (a pairwise rule's `max_findings` threshold; unlimited
  // otherwise): a dense picture (100,000 overlapping labels) makes a pairwise rule find millions,
  // and building them took minutes and gigabytes. A rule that reaches it stops searching.
  std::size_t max_findings = static_cast<std::size_t>(-1);
  bool truncated = false;  // the rule stopped at max_findings
  // Whether another finding may be added; if not, the rule is marked truncated. Asked before the
  // finding is built, so that the refused one costs nothing.
  bool room() {
    if (findings.size() < max_findings) return true;
    truncated = true;
    return false;
  }
  bool full() const { return findings.size() >= max_findings; }
};

struct Rule {
  const RuleDoc* doc;
  std::function<RuleResult(const ir::Diagram&, const Config&)> run;
};

// The one explicit registry of every rule, in rubric order.
const std::vector<Rule>& registry();
const Rule* find_rule(const std::string& name);

// Render a rule's documentation as text (tikzlint explain) or Markdown (docs/rules/).
std::string explain(const RuleDoc& doc, bool markdown = false);

}  // namespace tikzlint::checks
