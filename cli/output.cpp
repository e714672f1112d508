#include "cli/output.hpp"

#include "checks/scene.hpp"
#include "ir/ir.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>

namespace tikzlint::cli {

using nlohmann::ordered_json;

std::optional<Format> parse_format(std::string_view name) {
  static const std::pair<std::string_view, Format> table[] = {
      {"text", Format::text}, {"json", Format::json},     {"jsonl", Format::jsonl},
      {"sarif", Format::sarif}, {"github", Format::github},
  };
  for (const auto& [n, f] : table)
    if (n == name) return f;
  return std::nullopt;
}

Location locate(const FileReport& r, const SourceRange& range) {
  Location loc;
  if (!r.sources) {
    loc.path = r.path;
    return loc;
  }
  if (!range.valid || range.file >= r.sources->size()) {
    loc.path = r.sources->get(r.file).path();
    return loc;
  }
  const SourceFile& f = r.sources->get(range.file);
  auto b = f.line_col(range.begin);
  auto e = f.line_col(std::max(range.begin, range.end));
  loc.path = f.path();
  loc.line = b.line;
  loc.col = b.col;
  loc.end_line = e.line;
  loc.end_col = e.col;
  loc.valid = true;
  return loc;
}

namespace {

std::string fmt_number(double v) {
  if (!std::isfinite(v)) return std::isnan(v) ? "nan" : v > 0 ? "inf" : "-inf";
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

std::string value_text(const nlohmann::json& v) {
  if (v.is_string()) return v.get<std::string>();
  if (v.is_number_float()) return fmt_number(v.get<double>());
  return v.dump();
}

// "measured=41.2, limit=12, unit=pt": evidence as one line (notes are printed on their own).
std::string evidence_text(const nlohmann::json& ev) {
  std::string out;
  if (!ev.is_object()) return ev.is_null() ? "" : ev.dump();
  for (auto it = ev.begin(); it != ev.end(); ++it) {
    if (!out.empty()) out += ", ";
    out += it.key() + "=" + value_text(it.value());
  }
  return out;
}

nlohmann::json location_fields(const Location& loc) {
  if (!loc.valid) return nullptr;
  return {loc.line, loc.col, loc.end_line, loc.end_col};
}

// Byte offsets of the code points of `s` (plus the end).
std::vector<std::size_t> code_point_starts(std::string_view s) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < s.size(); ++i)
    if ((static_cast<unsigned char>(s[i]) & 0xC0) != 0x80) out.push_back(i);
  out.push_back(s.size());
  return out;
}

// The source line and the caret line under [col, end_col) (1-based code points). Long lines
// are shown as a window around the caret; control bytes are shown as '?'.
std::string snippet(std::string_view line, std::uint32_t col, std::uint32_t end_col) {
  auto cps = code_point_starts(line);
  std::size_t n = cps.size() - 1;
  std::size_t first = col > 0 ? col - 1 : 0;
  first = std::min(first, n);
  std::size_t last = end_col > col ? std::min<std::size_t>(end_col - 1, n) : first + 1;  // exclusive
  constexpr std::size_t kBefore = 80, kWidth = 240;
  std::size_t from = first > kBefore ? first - kBefore : 0;
  std::size_t to = std::min(n, from + kWidth);
  std::string src = from > 0 ? "..." : "", caret = from > 0 ? "   " : "";
  for (std::size_t i = from; i < to; ++i) {
    std::string_view cp = line.substr(cps[i], cps[i + 1] - cps[i]);
    bool tab = cp == "\t";
    if (cp.size() == 1 && static_cast<unsigned char>(cp[0]) < 0x20 && !tab)
      src += '?';
    else
      src += cp;
    if (i < first)
      caret += tab ? '\t' : ' ';
    else if (i == first)
      caret += '^';
    else if (i < last)
      caret += '~';
  }
  if (to < n) src += "...";
  if (first >= to) caret += '^';  // the range starts at the end of the line
  return src + "\n" + caret + "\n";
}

std::string location_prefix(const Location& loc) {
  if (!loc.valid) return loc.path + ": ";
  return loc.path + ":" + std::to_string(loc.line) + ":" + std::to_string(loc.col) + ": ";
}

std::string source_snippet(const FileReport& r, const SourceRange& range, const Location& loc) {
  if (!loc.valid || !r.sources) return "";
  std::string_view line = r.sources->get(range.file).line_text(loc.line);
  std::uint32_t end_col = loc.end_line == loc.line ? loc.end_col : static_cast<std::uint32_t>(line.size() + 1);
  return snippet(line, loc.col, end_col);
}

}  // namespace

ordered_json diagnostic_json(const FileReport& r, const Diagnostic& d) {
  Location loc = locate(r, d.range);
  ordered_json j;
  j["rule"] = d.rule;
  j["severity"] = to_string(d.severity);
  j["message"] = d.message;
  auto lf = location_fields(loc);
  j["line"] = loc.valid ? lf[0] : nullptr;
  j["col"] = loc.valid ? lf[1] : nullptr;
  j["end_line"] = loc.valid ? lf[2] : nullptr;
  j["end_col"] = loc.valid ? lf[3] : nullptr;
  ordered_json ev = d.evidence.is_object() ? ordered_json(d.evidence) : ordered_json::object();
  if (!d.evidence.is_object() && !d.evidence.is_null()) ev["value"] = d.evidence;
  // The record has a fixed key set: where it is not the input, and its notes, go in evidence.
  if (loc.valid && r.sources && d.range.file != r.file) ev["file"] = loc.path;
  if (!d.notes.empty()) {
    ordered_json notes = ordered_json::array();
    for (const auto& n : d.notes) {
      Location nl = locate(r, n.range);
      ordered_json nj;
      nj["message"] = n.message;
      nj["line"] = nl.valid ? ordered_json(nl.line) : ordered_json(nullptr);
      nj["col"] = nl.valid ? ordered_json(nl.col) : ordered_json(nullptr);
      if (nl.valid && n.range.file != r.file) nj["file"] = nl.path;
      notes.push_back(std::move(nj));
    }
    ev["notes"] = std::move(notes);
  }
  j["evidence"] = std::move(ev);
  return j;
}

ordered_json report_json(const FileReport& r) {
  ordered_json j;
  j["file"] = r.path;
  j["status"] = to_string(r.status);
  ordered_json verdicts = ordered_json::object();
  for (const auto& [name, v] : r.verdicts) verdicts[name] = checks::to_string(v);
  j["verdicts"] = std::move(verdicts);
  ordered_json diags = ordered_json::array();
  for (const auto& d : r.diagnostics) diags.push_back(diagnostic_json(r, d));
  j["diagnostics"] = std::move(diags);
  j["elapsed_us"] = r.elapsed_us;
  j["ir_source"] = r.ir_source;
  return j;
}

namespace {

// The compact JSON writer behind report_jsonl: the same bytes as report_json(r).dump(-1, ' ',
// false, replace), without building the ordered_json tree (which cost more than many checks).
// Strings of printable ASCII without '"' or '\\' are written as they are; any other string and
// every evidence value go through nlohmann's serializer, so escaping, invalid UTF-8 and number
// formatting are nlohmann's own.
void put_string(std::string& out, std::string_view s) {
  bool plain = true;
  for (char c : s) {
    unsigned char u = static_cast<unsigned char>(c);
    if (u < 0x20 || u >= 0x7f || c == '"' || c == '\\') {
      plain = false;
      break;
    }
  }
  if (plain) {
    out += '"';
    out += s;
    out += '"';
    return;
  }
  out += nlohmann::json(std::string(s)).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void put_value(std::string& out, const nlohmann::json& v) {
  out += v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
}

void put_key(std::string& out, std::string_view key, bool& first) {
  if (!first) out += ',';
  first = false;
  put_string(out, key);
  out += ':';
}

void put_diagnostic(std::string& out, const FileReport& r, const Diagnostic& d) {
  Location loc = locate(r, d.range);
  out += "{\"rule\":";
  put_string(out, d.rule);
  out += ",\"severity\":";
  put_string(out, to_string(d.severity));
  out += ",\"message\":";
  put_string(out, d.message);
  auto number = [&](const char* key, std::uint32_t v) {
    out += key;
    if (loc.valid) out += std::to_string(v);
    else out += "null";
  };
  number(",\"line\":", loc.line);
  number(",\"col\":", loc.col);
  number(",\"end_line\":", loc.end_line);
  number(",\"end_col\":", loc.end_col);
  // Evidence: the diagnostic's own keys (a non-object value as "value"), then "file" and
  // "notes", each replacing a key of that name in place, as ordered_json's operator[] does.
  std::vector<std::pair<std::string, std::string>> ev;
  if (d.evidence.is_object()) {
    for (const auto& [k, v] : d.evidence.items()) {
      std::string dumped;
      put_value(dumped, v);
      ev.emplace_back(k, std::move(dumped));
    }
  } else if (!d.evidence.is_null()) {
    std::string dumped;
    put_value(dumped, d.evidence);
    ev.emplace_back("value", std::move(dumped));
  }
  auto set = [&](const std::string& key, std::string value) {
    for (auto& [k, v] : ev)
      if (k == key) {
        v = std::move(value);
        return;
      }
    ev.emplace_back(key, std::move(value));
  };
  if (loc.valid && r.sources && d.range.file != r.file) {
    std::string path;
    put_string(path, loc.path);
    set("file", std::move(path));
  }
  if (!d.notes.empty()) {
    std::string notes = "[";
    for (std::size_t i = 0; i < d.notes.size(); ++i) {
      const auto& n = d.notes[i];
      Location nl = locate(r, n.range);
      if (i) notes += ',';
      notes += "{\"message\":";
      put_string(notes, n.message);
      notes += ",\"line\":";
      notes += nl.valid ? std::to_string(nl.line) : "null";
      notes += ",\"col\":";
      notes += nl.valid ? std::to_string(nl.col) : "null";
      if (nl.valid && n.range.file != r.file) {
        notes += ",\"file\":";
        put_string(notes, nl.path);
      }
      notes += '}';
    }
    notes += ']';
    set("notes", std::move(notes));
  }
  out += ",\"evidence\":{";
  bool first = true;
  for (const auto& [k, v] : ev) {
    put_key(out, k, first);
    out += v;
  }
  out += "}}";
}

}  // namespace

std::string report_jsonl(const FileReport& r) {
  std::string out;
  out.reserve(512 + 256 * r.diagnostics.size());
  out += "{\"file\":";
  put_string(out, r.path);
  out += ",\"status\":";
  put_string(out, to_string(r.status));
  out += ",\"verdicts\":{";
  // ordered_json's operator[] keeps the first position of a repeated name, with the last value.
  std::vector<std::pair<std::string_view, const char*>> verdicts;
  for (const auto& [rule, v] : r.verdicts) {
    const std::string_view name = rule;  // C++17: a structured binding cannot be captured (clang)
    auto it = std::find_if(verdicts.begin(), verdicts.end(), [name](const auto& e) { return e.first == name; });
    if (it != verdicts.end()) it->second = checks::to_string(v);
    else verdicts.emplace_back(name, checks::to_string(v));
  }
  bool first = true;
  for (const auto& [name, v] : verdicts) {
    put_key(out, name, first);
    put_string(out, v);
  }
  out += "},\"diagnostics\":[";
  for (std::size_t i = 0; i < r.diagnostics.size(); ++i) {
    if (i) out += ',';
    put_diagnostic(out, r, r.diagnostics[i]);
  }
  out += "],\"elapsed_us\":";
  out += std::to_string(r.elapsed_us);
  out += ",\"ir_source\":";
  put_string(out, r.ir_source);
  out += '}';
  return out;
}

nlohmann::ordered_json ir_json(const FileReport& r, std::size_t picture) {
  // Ordered, so the fixed fields come first and the findings keep their jsonl key order.
  ordered_json j;
  if (r.diagrams.empty() || !r.sources) {
    j = {{"picture_bbox", nullptr}, {"canvas", nullptr}, {"nodes", ordered_json::array()},
         {"elements", ordered_json::array()}, {"coordinates", ordered_json::array()},
         {"clips", ordered_json::array()}, {"unsupported", ordered_json::array()},
         {"diagnostics", ordered_json::array()}};
  } else {
    nlohmann::json ir = ir::to_json(r.diagrams.at(picture - 1), *r.sources);
    j = {{"picture_bbox", ir["picture_bbox"]}, {"canvas", ir["canvas"]}, {"nodes", ir["nodes"]}};
    for (auto it = ir.begin(); it != ir.end(); ++it)
      if (!j.contains(it.key())) j[it.key()] = it.value();
  }
  // What the picture is and what its numbers state, as the rules read it (checks/scene.hpp).
  j["reading"] = r.diagrams.empty() ? nlohmann::json(nullptr) : checks::Scene(r.diagrams.at(picture - 1)).reading_json();
  j["file"] = r.path;
  j["picture_index"] = r.diagrams.empty() ? 0 : picture;
  j["picture_count"] = r.diagrams.size();
  j["ir_source"] = r.ir_source;
  ordered_json findings = ordered_json::array();
  for (const auto& d : r.diagnostics) findings.push_back(diagnostic_json(r, d));
  j["findings"] = std::move(findings);
  return j;
}

std::string text_diagnostic(const FileReport& r, const Diagnostic& d) {
  Location loc = locate(r, d.range);
  std::string out = location_prefix(loc) + to_string(d.severity) + ": " + d.message + " [" + d.rule + "]\n";
  out += source_snippet(r, d.range, loc);
  // A finding's evidence is what makes it auditable; a note's is only detail (see jsonl).
  std::string ev = d.severity == Severity::note ? "" : evidence_text(d.evidence);
  if (!ev.empty()) out += location_prefix(loc) + "note: evidence: " + ev + "\n";
  for (const auto& n : d.notes) {
    Location nl = locate(r, n.range);
    out += location_prefix(nl) + "note: " + n.message + "\n";
    out += source_snippet(r, n.range, nl);
  }
  return out;
}

std::string text_verdict_line(const FileReport& r) {
  if (r.status != FileStatus::checked) return r.path + ": not checked\n";
  std::map<checks::Verdict, std::vector<std::string>> by;
  for (const auto& [name, v] : r.verdicts) by[v].push_back(name);
  auto list = [&](checks::Verdict v) {
    std::string s;
    for (const auto& n : by[v]) s += (s.empty() ? "" : ", ") + n;
    return s;
  };
  std::string out = r.path + ": verdict ";
  bool any_pass = !by[checks::Verdict::pass].empty();
  if (!by[checks::Verdict::fail].empty())
    out += "fail: " + list(checks::Verdict::fail);
  else if (any_pass || !by[checks::Verdict::indeterminate].empty())
    out += any_pass ? "pass" : "indeterminate";
  else
    out += "n/a";
  if (!by[checks::Verdict::indeterminate].empty() && (any_pass || !by[checks::Verdict::fail].empty()))
    out += "; indeterminate: " + list(checks::Verdict::indeterminate);
  return out + "\n";
}

std::string github_escape_data(std::string_view s) {
  std::string out;
  for (char c : s) {
    switch (c) {
      case '%': out += "%25"; break;
      case '\r': out += "%0D"; break;
      case '\n': out += "%0A"; break;
      default: out += c;
    }
  }
  return out;
}

std::string github_escape_property(std::string_view s) {
  std::string out;
  for (char c : github_escape_data(s)) {
    switch (c) {
      case ':': out += "%3A"; break;
      case ',': out += "%2C"; break;
      default: out += c;
    }
  }
  return out;
}

std::string github_annotation(const FileReport& r, const Diagnostic& d) {
  static const char* level[] = {"notice", "warning", "error"};  // note, warning, error
  Location loc = locate(r, d.range);
  std::string out = std::string("::") + level[static_cast<int>(d.severity)] + " file=" + github_escape_property(loc.path);
  if (loc.valid) {
    out += ",line=" + std::to_string(loc.line) + ",col=" + std::to_string(loc.col) +
           ",endLine=" + std::to_string(loc.end_line) + ",endColumn=" + std::to_string(loc.end_col);
  }
  out += ",title=" + github_escape_property(d.rule);
  std::string message = d.message;
  std::string ev = evidence_text(d.evidence);
  if (!ev.empty()) message += "\nevidence: " + ev;
  for (const auto& n : d.notes) message += "\nnote: " + n.message;
  return out + "::" + github_escape_data(message) + "\n";
}

std::string sarif_uri(std::string_view path) {
  static const char* hex = "0123456789ABCDEF";
  std::string p(path);
  while (p.rfind("./", 0) == 0) p.erase(0, 2);
  std::string out;
  bool absolute = !p.empty() && p[0] == '/';
  if (absolute) out = "file://";
  for (unsigned char c : p) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

namespace {

// A missing class or package note (not a data file): summarised once per run in the text format.
bool is_missing_package_note(const Diagnostic& d) {
  return d.rule == "missing-file" && d.severity == Severity::note && d.evidence.is_object() &&
         d.evidence.contains("file") && d.evidence["file"].is_string();
}

class TextReporter : public Reporter {
 public:
  TextReporter(std::ostream& out, bool quiet) : out_(out), quiet_(quiet) {}
  void file(const FileReport& r) override {
    for (const auto& d : r.diagnostics) {
      if (is_missing_package_note(d)) {
        const std::string name = d.evidence["file"].get<std::string>();
        auto [it, fresh] = missing_.try_emplace(name);
        if (fresh) missing_order_.push_back(name);
        if (it->second.empty() || it->second.back() != r.path) it->second.push_back(r.path);
        continue;
      }
      if (quiet_ && d.severity == Severity::note) continue;
      out_ << text_diagnostic(r, d);
      ++counts_[static_cast<int>(d.severity)];
    }
    if (!quiet_) out_ << text_verdict_line(r);
    ++files_;
    if (r.status != FileStatus::checked)
      ++unchecked_;
    else if (r.fails())
      ++failed_;
    else
      ++passed_;
    out_.flush();
  }
  void finish() override {
    auto plural = [](std::size_t n, const char* word) {
      return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
    };
    if (quiet_) {
      out_.flush();
      return;
    }
    for (const auto& name : missing_order_) {
      out_ << missing_file_summary(name, missing_[name]);
      ++counts_[0];
    }
    out_ << plural(files_, "file") << " checked: " << passed_ << " passed, " << failed_ << " failed, "
         << unchecked_ << " not checked; " << plural(counts_[2], "error") << ", "
         << plural(counts_[1], "warning") << ", " << plural(counts_[0], "note") << "\n";
    out_.flush();
  }

 private:
  std::ostream& out_;
  bool quiet_ = false;
  std::size_t files_ = 0, passed_ = 0, failed_ = 0, unchecked_ = 0;
  std::size_t counts_[3] = {0, 0, 0};
  std::map<std::string, std::vector<std::string>> missing_;  // file -> inputs, in input order
  std::vector<std::string> missing_order_;                    // first seen first
};

// --statistics: counts per rule or code and severity, the most frequent first (Ruff's
// `--statistics`), then the files' tally. Printed instead of the diagnostics, in every format.
class StatisticsReporter : public Reporter {
 public:
  StatisticsReporter(std::ostream& out, bool quiet) : out_(out), quiet_(quiet) {}
  void file(const FileReport& r) override {
    for (const auto& d : r.diagnostics) {
      if (quiet_ && d.severity == Severity::note) continue;
      ++counts_[{d.rule, static_cast<int>(d.severity)}];
    }
    ++files_;
    failed_ += r.fails() ? 1 : 0;
  }
  void finish() override {
    std::vector<std::pair<std::pair<std::string, int>, std::size_t>> rows(counts_.begin(), counts_.end());
    std::stable_sort(rows.begin(), rows.end(), [](const auto& a, const auto& b) {
      return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    std::size_t width = 1;
    for (const auto& row : rows) width = std::max(width, std::to_string(row.second).size());
    static const char* const kSeverity[] = {"note", "warning", "error"};
    for (const auto& [key, n] : rows) {
      std::string count = std::to_string(n);
      out_ << std::string(width - count.size(), ' ') << count << "\t" << key.first << "\t"
           << kSeverity[key.second] << "\n";
    }
    if (!quiet_) out_ << files_ << " file" << (files_ == 1 ? "" : "s") << " checked, " << failed_ << " failed\n";
    out_.flush();
  }

 private:
  std::ostream& out_;
  bool quiet_ = false;
  std::map<std::pair<std::string, int>, std::size_t> counts_;
  std::size_t files_ = 0, failed_ = 0;
};

class JsonlReporter : public Reporter {
 public:
  explicit JsonlReporter(std::ostream& out) : out_(out) {}
  void file(const FileReport& r) override {
    out_ << report_jsonl(r) << "\n";
    out_.flush();
  }
  void finish() override {}

 private:
  std::ostream& out_;
};

class JsonReporter : public Reporter {
 public:
  explicit JsonReporter(std::ostream& out) : out_(out) {}
  void file(const FileReport& r) override {
    out_ << (first_ ? "[\n" : ",\n") << report_jsonl(r);
    first_ = false;
  }
  void finish() override { out_ << (first_ ? "[]\n" : "\n]\n"); }

 private:
  std::ostream& out_;
  bool first_ = true;
};

class GithubReporter : public Reporter {
 public:
  explicit GithubReporter(std::ostream& out) : out_(out) {}
  void file(const FileReport& r) override {
    for (const auto& d : r.diagnostics) out_ << github_annotation(r, d);
    out_.flush();
  }
  void finish() override {}

 private:
  std::ostream& out_;
};

const char* sarif_level(Severity s) {
  switch (s) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "error";
}

// SARIF 2.1.0 as GitHub code scanning reads it: rules from the registry (and the front-end
// codes), every result with a physical location and a region.
class SarifReporter : public Reporter {
 public:
  SarifReporter(std::ostream& out, ToolInfo info) : out_(out), info_(std::move(info)) {
    std::vector<const checks::RuleDoc*> docs;
    for (const auto& rule : checks::registry()) docs.push_back(rule.doc);
    docs.push_back(&spec::doc());
    docs.push_back(&compile::doc());
    for (const checks::RuleDoc* d : docs) {
      const auto& doc = *d;
      ordered_json r;
      r["id"] = doc.name;
      r["name"] = doc.name;
      r["shortDescription"] = {{"text", doc.summary}};
      r["fullDescription"] = {{"text", doc.description.empty() ? doc.summary : doc.description}};
      r["help"] = {{"text", checks::explain(doc, false)}, {"markdown", checks::explain(doc, true)}};
      r["defaultConfiguration"] = {{"level", "error"}};
      r["properties"] = {{"tags", {"tikz", "diagram"}}};
      add_rule(std::move(r));
    }
    for (const auto& c : frontend_codes()) add_code_rule(c.code, c.summary);
  }

  void file(const FileReport& r) override {
    ordered_json verdicts = ordered_json::object();
    for (const auto& [name, v] : r.verdicts) verdicts[name] = checks::to_string(v);
    file_verdicts_[r.path] = {{"status", to_string(r.status)}, {"verdicts", verdicts}};
    for (const auto& d : r.diagnostics) {
      if (!index_.count(d.rule)) add_code_rule(d.rule, d.rule + " diagnostic");
      Location loc = locate(r, d.range);
      ordered_json res;
      res["ruleId"] = d.rule;
      res["ruleIndex"] = index_.at(d.rule);
      res["level"] = sarif_level(d.severity);
      std::string message = d.message;
      if (!d.evidence.empty()) message += " (" + evidence_text(d.evidence) + ")";
      res["message"] = {{"text", message}};
      res["locations"] = ordered_json::array({physical(loc)});
      ordered_json related = ordered_json::array();
      int id = 0;
      for (const auto& n : d.notes) {
        Location nl = locate(r, n.range);
        ordered_json rel = physical(nl);
        rel["id"] = id++;
        rel["message"] = {{"text", n.message}};
        related.push_back(std::move(rel));
      }
      if (!related.empty()) res["relatedLocations"] = std::move(related);
      if (!d.evidence.empty()) res["properties"] = {{"evidence", d.evidence}};
      results_.push_back(std::move(res));
    }
  }

  void finish() override {
    ordered_json driver;
    driver["name"] = info_.name;
    driver["version"] = info_.version;
    driver["semanticVersion"] = info_.version;
    driver["informationUri"] = info_.information_uri;
    driver["rules"] = rules_;
    ordered_json run;
    run["tool"] = {{"driver", std::move(driver)}};
    run["columnKind"] = "unicodeCodePoints";
    run["results"] = std::move(results_);
    run["invocations"] = ordered_json::array({{{"executionSuccessful", true}}});
    run["properties"] = {{"files", std::move(file_verdicts_)}};
    ordered_json log;
    log["$schema"] = "https://json.schemastore.org/sarif-2.1.0.json";
    log["version"] = "2.1.0";
    log["runs"] = ordered_json::array({std::move(run)});
    out_ << log.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    out_.flush();
  }

 private:
  void add_rule(ordered_json r) {
    index_[r["id"].get<std::string>()] = rules_.size();
    rules_.push_back(std::move(r));
  }
  void add_code_rule(const std::string& code, const std::string& summary) {
    if (index_.count(code)) return;
    ordered_json r;
    r["id"] = code;
    r["name"] = code;
    r["shortDescription"] = {{"text", summary}};
    r["fullDescription"] = {{"text", summary + " (a diagnostic of the tikzlint front end)"}};
    r["help"] = {{"text", summary}, {"markdown", summary}};
    r["defaultConfiguration"] = {{"level", "warning"}};
    add_rule(std::move(r));
  }
  // GitHub needs a region on every result; unlocated diagnostics point at the file's start.
  static ordered_json physical(const Location& loc) {
    ordered_json region;
    region["startLine"] = loc.valid ? loc.line : 1;
    region["startColumn"] = loc.valid ? loc.col : 1;
    region["endLine"] = loc.valid ? loc.end_line : 1;
    region["endColumn"] = loc.valid ? std::max(loc.end_col, loc.end_line == loc.line ? loc.col : 1u) : 1;
    ordered_json pl;
    pl["artifactLocation"] = {{"uri", sarif_uri(loc.path)}};
    pl["region"] = std::move(region);
    return {{"physicalLocation", std::move(pl)}};
  }

  std::ostream& out_;
  ToolInfo info_;
  ordered_json rules_ = ordered_json::array();
  std::map<std::string, std::size_t> index_;
  ordered_json results_ = ordered_json::array();
  ordered_json file_verdicts_ = ordered_json::object();
};

}  // namespace

std::string missing_file_summary(const std::string& file, const std::vector<std::string>& inputs, std::size_t shown) {
  std::string s = "note: '" + file + "' was not found; its definitions are not read (" +
                  std::to_string(inputs.size()) + (inputs.size() == 1 ? " file: " : " files: ");
  for (std::size_t i = 0; i < inputs.size() && i < shown; ++i) s += (i ? ", " : "") + inputs[i];
  if (inputs.size() > shown) s += ", and " + std::to_string(inputs.size() - shown) + " more";
  return s + ") [missing-file]\n";
}

std::unique_ptr<Reporter> make_reporter(Format f, std::ostream& out, const ToolInfo& info, const OutputOptions& opts) {
  if (opts.statistics) return std::make_unique<StatisticsReporter>(out, opts.quiet);
  switch (f) {
    case Format::text: return std::make_unique<TextReporter>(out, opts.quiet);
    case Format::json: return std::make_unique<JsonReporter>(out);
    case Format::jsonl: return std::make_unique<JsonlReporter>(out);
    case Format::sarif: return std::make_unique<SarifReporter>(out, info);
    case Format::github: return std::make_unique<GithubReporter>(out);
  }
  return std::make_unique<TextReporter>(out, opts.quiet);
}

}  // namespace tikzlint::cli
