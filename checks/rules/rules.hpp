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

namespace testing {
// For tests only: overlap decides most pairs of 3D faces without GEOS's overlay (those it is
// certain GEOS would not report). With `shortcuts` false every pair goes through GEOS; `skipped`
// counts the pairs decided without it on this thread.
struct FacePairProbe {
  bool shortcuts = true;
  std::size_t skipped = 0;
};
inline thread_local FacePairProbe face_pairs;
}  // namespace testing

}  // namespace tikzlint::checks::rules
