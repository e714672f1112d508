// support/diagnostic.hpp: a finding or parse problem with location and evidence.
#pragma once
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/source.hpp"

namespace tikzlint {

enum class Severity { note, warning, error };
const char* to_string(Severity s);

struct DiagnosticNote {
  std::string message;
  SourceRange range;  // may be invalid (no location)
};

struct Diagnostic {
  std::string rule;  // rule name ("in_frame") or front-end code ("syntax-error", "unsupported-...")
  Severity severity = Severity::error;
  std::string message;  // lowercase, no final period
  SourceRange range;
  nlohmann::json evidence = nlohmann::json::object();  // measured value, limit, unit...
  std::vector<DiagnosticNote> notes;
};

}  // namespace tikzlint
