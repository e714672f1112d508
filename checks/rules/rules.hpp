// checks/rules/rules.hpp: the eight rubric rules, one per file in this folder.
// Each file defines its RuleDoc (documentation and thresholds) and its check function;
// checks/registry.cpp lists them explicitly in rubric order.
#pragma once
#include "checks/check.hpp"

namespace tikzlint::checks::rules {

#define TIKZLINT_RULE(name)                 \
  extern const RuleDoc name##_doc;          \
  RuleResult check_##name(const ir::Diagram& d, const Config& cfg);

TIKZLINT_RULE(angle_labels)
TIKZLINT_RULE(length_proportions)
TIKZLINT_RULE(in_frame)
TIKZLINT_RULE(readable_size)
TIKZLINT_RULE(label_association)
TIKZLINT_RULE(overlap)
TIKZLINT_RULE(closed_shapes)
TIKZLINT_RULE(core_math)

#undef TIKZLINT_RULE

}  // namespace tikzlint::checks::rules
