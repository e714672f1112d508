// checks/registry.cpp: the one explicit list of rules (cppcheck's checks.cpp), rubric order.
#include "checks/check.hpp"
#include "checks/rules/rules.hpp"

namespace tikzlint::checks {

const std::vector<Rule>& registry() {
  static const std::vector<Rule> rules = {
      {&rules::angle_labels_doc, rules::check_angle_labels},
      {&rules::length_proportions_doc, rules::check_length_proportions},
      {&rules::in_frame_doc, rules::check_in_frame},
      {&rules::readable_size_doc, rules::check_readable_size},
      {&rules::label_association_doc, rules::check_label_association},
      {&rules::overlap_doc, rules::check_overlap},
      {&rules::closed_shapes_doc, rules::check_closed_shapes},
      {&rules::core_math_doc, rules::check_core_math},
  };
  return rules;
}

const Rule* find_rule(const std::string& name) {
  for (const Rule& r : registry())
    if (r.doc->name == name) return &r;
  return nullptr;
}

const char* to_string(Verdict v) {
  switch (v) {
    case Verdict::pass: return "pass";
    case Verdict::fail: return "fail";
    case Verdict::na: return "n/a";
    case Verdict::indeterminate: return "indeterminate";
  }
  return "indeterminate";
}

double Config::get(const RuleDoc& doc, const std::string& name) const {
  if (!values_.empty()) {  // no overrides (the usual case): no key to build
    auto it = values_.find(doc.name + "." + name);
    if (it != values_.end()) return it->second;
  }
  for (const Threshold& t : doc.thresholds)
    if (t.name == name) return t.default_value;
  return 0;
}

}  // namespace tikzlint::checks
