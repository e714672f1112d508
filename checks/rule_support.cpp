#include "checks/rule_support.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>

namespace tikzlint::checks {

Diagnostic finding(const RuleDoc& doc, const SourceRange& range, std::string message, double measured,
                   double limit, const std::string& unit, nlohmann::json extra) {
  Diagnostic d;
  d.rule = doc.name;
  d.severity = Severity::warning;
  d.message = std::move(message);
  d.range = range;
  // The rule's own evidence, then measured, limit and unit where it has none of its own (the
  // keys are kept sorted: the order of insertion does not show).
  d.evidence = extra.is_object() ? std::move(extra) : nlohmann::json::object();
  auto fill = [&](const char* key, nlohmann::json value) {
    if (!d.evidence.contains(key)) d.evidence[key] = std::move(value);
  };
  fill("measured", std::round(measured * 100) / 100);
  fill("limit", std::round(limit * 100) / 100);
  fill("unit", unit);
  return d;
}

std::string num(double v) {
  if (!std::isfinite(v)) return v > 0 ? "inf" : "-inf";
  // to_chars in fixed notation gives printf's "%.0f" / "%.1f" digits (both exact, rounded to
  // nearest), without printf's format parsing: a dense diagram formats thousands of these.
  char buf[400];  // DBL_MAX in fixed notation has 309 digits
  double r = std::round(v * 10) / 10;
  const int digits = std::abs(r - std::round(r)) < 1e-9 ? 0 : 1;
  auto res = std::to_chars(buf, buf + sizeof buf, r, std::chars_format::fixed, digits);
  return std::string(buf, res.ptr);
}

std::string quoted(const std::string& text) {
  std::string t = text.size() > 40 ? text.substr(0, 37) + "..." : text;
  return "'" + t + "'";
}

namespace {

// Codes of front-end diagnostics that mean geometry is missing or wrong. An unknown option key
// alone (most often a colour the class defines, such as `LBlue`) does not move anything.
bool loses_geometry(const std::string& code) {
  return code == "unsupported-path-operation" || code == "unsupported-coordinate" ||
         code == "unsupported-construct" || code == "syntax-error" || code == "expansion-limit" ||
         code == "resource-limit" ||  // a library construct cut short at one of its bounds
         code == "refused-read";      // a data file outside the read policy, never read
}

bool within(const SourceRange& inner, const SourceRange& outer) {
  return inner.valid && outer.valid && inner.file == outer.file && inner.begin < outer.end && outer.begin < inner.end;
}

}  // namespace

std::optional<std::string> incomplete_geometry(const ir::Diagram& d, bool axis_counts) {
  if (d.uses_axis && axis_counts) return "the diagram uses a pgfplots axis, which is not lowered";
  for (const Diagnostic& diag : d.diagnostics) {
    // The one diagnostic that stands for a whole axis is covered by `uses_axis`.
    if (d.uses_axis && diag.rule == "unsupported-construct" && diag.message.find("axis") != std::string::npos) {
      if (axis_counts) return "unsupported input: " + diag.message;
      continue;
    }
    if (loses_geometry(diag.rule)) return "unsupported input: " + diag.message;
  }
  for (const ir::Element& e : d.elements)
    if (geometry_lost(d, e))
      return e.unplaced_reference
                 ? "an element is placed from a node whose place is not known (a key of it was not read)"
                 : "an element's geometry is incomplete (something in its statement was unsupported)";
  for (const ir::Node& n : d.nodes)
    if (geometry_lost(d, n))
      return n.unplaced_reference
                 ? "a node is placed from a node whose place is not known (a key of it was not read)"
                 : "a node's geometry is incomplete (something in its statement was unsupported)";
  return std::nullopt;
}

bool geometry_lost(const ir::Diagram& d, bool incomplete, const SourceRange& r) {
  if (!incomplete) return false;
  // An element or node flagged incomplete counts only when a geometry-losing problem lies in its
  // statement (or none of the diagnostics explains the flag): unsupported option keys alone (a
  // colour, a font) leave its geometry known.
  // A key of the picture's options reports over the whole picture: it encloses the statement, and
  // like a scope's key (reported at the scope's options, outside the statement) it may move
  // everything drawn under it (ir Settings::unread_scope_keys), so the geometry is lost.
  bool any = false;
  for (const Diagnostic& diag : d.diagnostics) {
    if (!within(diag.range, r)) continue;
    if (diag.rule != "unsupported-key") return true;
    const bool encloses = diag.range.begin <= r.begin && diag.range.end >= r.end &&
                          (diag.range.begin < r.begin || diag.range.end > r.end);
    if (encloses) return true;
    any = true;
  }
  return !any;
}

bool geometry_lost(const ir::Diagram& d, const ir::Element& e) {
  return e.unplaced_reference || geometry_lost(d, e.incomplete, e.prov.range);
}

bool geometry_lost(const ir::Diagram& d, const ir::Node& n) {
  return n.unplaced_reference || geometry_lost(d, n.incomplete, n.prov.range);
}

RuleResult make_result(Verdict v, std::string reason) {
  RuleResult r;
  r.verdict = v;
  r.reason = std::move(reason);
  return r;
}

void note_dropped(RuleResult& r, const RuleDoc& doc) {
  if (!r.truncated || r.findings.empty()) return;
  Diagnostic n = r.findings.front();
  n.severity = Severity::note;
  n.message = doc.name + " stopped at " + std::to_string(r.findings.size()) +
              " findings (max_findings): the rest of the picture was not searched";
  n.notes.clear();
  n.evidence = {{"measured", static_cast<double>(r.findings.size())},
                {"limit", static_cast<double>(r.max_findings)},
                {"unit", "count"}};
  r.findings.push_back(std::move(n));
}

RuleResult conclude(RuleResult r, const ir::Diagram& d) {
  if (!r.findings.empty()) {
    r.verdict = Verdict::fail;
    return r;
  }
  if (auto why = incomplete_geometry(d)) return make_result(Verdict::indeterminate, *why);
  r.verdict = Verdict::pass;
  return r;
}

}  // namespace tikzlint::checks
