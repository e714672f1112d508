// checks/rule_support.hpp: what every rule needs to report: findings with evidence and a
// location, number formatting for messages, and the completeness of the geometry it reads.
#pragma once
#include <optional>
#include <string>

#include "checks/check.hpp"

namespace tikzlint::checks {

// A warning finding of `doc`'s rule at `range` with evidence {measured, limit, unit, ...extra}.
Diagnostic finding(const RuleDoc& doc, const SourceRange& range, std::string message, double measured,
                   double limit, const std::string& unit, nlohmann::json extra = nlohmann::json::object());

// "41.2" (one decimal, no trailing ".0" noise for integers kept as "12").
std::string num(double v);
// 'text' quoted and shortened for messages.
std::string quoted(const std::string& text);

// Why the diagram's geometry cannot be trusted to be complete, or nullopt when it can:
// a pgfplots axis, an unsupported path operation, coordinate or construct, or an element or
// node marked incomplete. Unsupported option keys alone (a colour, a font) do not move geometry:
// lowering marks the element incomplete when a key it did not understand could have.
// `axis_counts` false: for rules a pgfplots axis cannot affect (it sizes and clips itself).
std::optional<std::string> incomplete_geometry(const ir::Diagram& d, bool axis_counts = true);
// An element or node flagged `incomplete` whose geometry is not known: some problem in its
// statement (`r`) other than an unsupported option key, or none explains the flag.
bool geometry_lost(const ir::Diagram& d, bool incomplete, const SourceRange& r);
// The same for an element or node, which is also lost when its statement names a node whose
// place is not known (ir::Element::unplaced_reference), whatever its own diagnostics.
bool geometry_lost(const ir::Diagram& d, const ir::Element& e);
bool geometry_lost(const ir::Diagram& d, const ir::Node& n);

RuleResult make_result(Verdict v, std::string reason = {});

// The usual ending of a rule: fail with its findings; else indeterminate when the geometry is
// incomplete (a problem may hide in what is missing); else pass.
RuleResult conclude(RuleResult r, const ir::Diagram& d);
// When the rule stopped at r.max_findings: one note saying so, at the first finding.
void note_dropped(RuleResult& r, const RuleDoc& doc);

}  // namespace tikzlint::checks
