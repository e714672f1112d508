// rank/rank.hpp: the public face of comparing and ranking candidate diagrams (docs/rank.md).
// A generation pipeline writes K candidates for one figure; `rank` orders them best first and
// `compare` says how close one is to a reference, both from the IR only (no TeX run, no image).
#pragma once
#include <cstddef>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "checks/check.hpp"
#include "ir/diagram.hpp"
#include "support/diagnostic.hpp"

namespace tikzlint::rank {

// One part of a similarity: its value in [0, 1] (1: no difference found), its weight in the
// combined score (0 when neither diagram has what the part measures), and each change it found
// in words ("label 'B' is in A, not in B", "arrow A → B in A runs B → A in B").
struct Part {
  std::string name;  // labels, label_positions, strokes, arrows, structure
  double score = 1;
  double weight = 0;
  bool applies = false;
  std::vector<std::string> changes;
  nlohmann::json evidence = nlohmann::json::object();  // the measured numbers
};

struct Similarity {
  double score = 1;  // the weighted mean of the parts that apply, in [0, 1]
  // B's size over A's (the normalising frames' sizes; 1 when either is empty). The score does
  // not see a uniform scale; rank breaks a tie in score by it (a copy at the reference's size
  // is closer than one drawn 1.4 times as large).
  double size_ratio = 1;
  std::vector<Part> parts;
  nlohmann::json to_json() const;  // {"score", "size_ratio", "parts": [{"name", "score", "weight", "changes", "evidence"}]}
};

// The thresholds of compare (`--set compare.NAME=V`, `tikzlint explain compare`).
const checks::RuleDoc& doc();

// Compare two pictures: a is the reference (or the first), b the candidate.
Similarity compare(const ir::Diagram& a, const ir::Diagram& b, const checks::Config& cfg = {});
// Two files: their first pictures; a file without a picture compares as an empty picture.
Similarity compare(const std::vector<ir::Diagram>& a, const std::vector<ir::Diagram>& b,
                   const checks::Config& cfg = {});

// What rank reads of one checked candidate.
struct Candidate {
  bool readable = true;  // false: the file could not be read or the pipeline failed
  std::vector<std::pair<std::string, checks::Verdict>> verdicts;
  std::vector<Diagnostic> diagnostics;               // severities and rules are read
  const std::vector<ir::Diagram>* diagrams = nullptr;  // needed with a reference
};

struct Ranked {
  std::size_t index = 0;  // position in the input
  double score = 0;       // in [0, 1]; rank order is descending score (ties: input order)
  bool compiles = false;
  bool rules_pass = false;
  int finding_weight = 0;  // 2 per error, 1 per warning
  std::optional<Similarity> similarity;  // with a reference
  std::vector<std::string> reasons;
};

// Best first: compiles (the `compiles` verdict when the registry has one, else no error
// diagnostic) > no rule fails > fewer and lighter findings > closer to the reference.
// With a reference, what the reference itself has is the intended figure, not a defect a
// candidate brought: a rule that fails on the reference does not count against a candidate, and
// of each rule's findings only those beyond the reference's count weigh (docs/rank.md).
std::vector<Ranked> rank(const std::vector<Candidate>& candidates, const Candidate* reference,
                         const checks::Config& cfg = {});

}  // namespace tikzlint::rank
