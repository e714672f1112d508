// checks/compile/compiles.hpp: the rule `compiles` -- will TeX compile this file, and if not, why.
// Unlike the picture rules it reads the file's text (TeX stops on text, not on geometry) and the
// catalog of what the installed TeX Live defines (catalog.hpp).
#pragma once
#include <string>
#include <vector>

#include "checks/check.hpp"
#include "support/diagnostic.hpp"
#include "support/source.hpp"

namespace tikzlint::compile {

const checks::RuleDoc& doc();

struct Outcome {
  checks::Verdict verdict = checks::Verdict::pass;
  std::vector<Diagnostic> findings;  // errors where TeX stops; notes (fragment, why indeterminate)
  std::string reason;                // for indeterminate
};

// `search_dirs`: folders where the document's own classes, packages and libraries are looked up
// before TeX Live's (the file's folder, then --include-dir).
Outcome evaluate(const SourceManager& sm, FileId file, const std::vector<std::string>& search_dirs,
                 const checks::Config& config);

}  // namespace tikzlint::compile
