// cli/rank_candidate.hpp: what rank reads of a checked file (the CLI's `rank` and the Python
// package's `rank()` both build their candidates and their reference with it).
#pragma once
#include "cli/driver.hpp"
#include "rank/rank.hpp"

namespace tikzlint::cli {

// The report must outlive the candidate: the candidate points at its diagrams.
inline rank::Candidate rank_candidate(const FileReport& r) {
  rank::Candidate c;
  c.readable = r.status == FileStatus::checked;
  c.verdicts = r.verdicts;
  c.diagnostics = r.diagnostics;
  c.diagrams = &r.diagrams;
  return c;
}

}  // namespace tikzlint::cli
