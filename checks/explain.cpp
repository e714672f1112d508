// checks/explain.cpp: a rule's documentation as text (tikzlint explain) or Markdown (docs/rules/).
#include <sstream>

#include "checks/check.hpp"
#include "checks/rule_support.hpp"

namespace tikzlint::checks {

namespace {

std::string indent(const std::string& text, const std::string& pad) {
  std::string out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out += (line.empty() ? "" : pad + line) + "\n";
  return out;
}

std::string default_text(const Threshold& t) {
  return num(t.default_value) + (t.unit.empty() ? "" : " " + t.unit);
}

}  // namespace

std::string explain(const RuleDoc& doc, bool markdown) {
  std::ostringstream o;
  if (markdown) {
    o << "# " << doc.name << "\n\n" << doc.summary << "\n\n" << doc.description << "\n\n";
    o << "## Failing example\n\n```latex\n" << doc.failing_example << "\n```\n\n";
    o << "## Fix\n\n" << doc.fix << "\n\n";
    if (!doc.thresholds.empty()) {
      o << "## Thresholds\n\n| name | default | reason |\n|---|---|---|\n";
      for (const Threshold& t : doc.thresholds)
        o << "| `" << doc.name << "." << t.name << "` | " << default_text(t) << " | " << t.reason << " |\n";
      o << "\nOverride with `--set " << doc.name << ".NAME=VALUE`.\n";
    }
    return o.str();
  }
  o << doc.name << ": " << doc.summary << "\n\n" << indent(doc.description, "  ") << "\n";
  o << "failing example:\n" << indent(doc.failing_example, "    ") << "\n";
  o << "fix:\n" << indent(doc.fix, "  ") << "\n";
  if (!doc.thresholds.empty()) {
    o << "thresholds (override with --set " << doc.name << ".NAME=VALUE):\n";
    for (const Threshold& t : doc.thresholds)
      o << "  " << t.name << " = " << default_text(t) << "\n" << indent(t.reason, "      ");
  }
  return o.str();
}

}  // namespace tikzlint::checks
