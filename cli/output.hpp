// cli/output.hpp: the output formats of `tikzlint check` (docs/cli.md): clang-style text,
// json / jsonl (one object per file), SARIF 2.1.0, and GitHub workflow annotations.
#pragma once
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/driver.hpp"

namespace tikzlint::cli {

enum class Format { text, json, jsonl, sarif, github };
std::optional<Format> parse_format(std::string_view name);

struct ToolInfo {
  std::string name = "tikzlint";
  std::string version;
  std::string information_uri = "https://github.com/tikzlint/tikzlint";
};

// Where a diagnostic points, in the coordinates users see: 1-based lines, code-point columns,
// end column exclusive. `valid` is false for unlocated diagnostics.
struct Location {
  std::string path;
  std::uint32_t line = 0, col = 0, end_line = 0, end_col = 0;
  bool valid = false;
};
Location locate(const FileReport& r, const SourceRange& range);

// One file as a jsonl record: exactly file, status, verdicts, diagnostics, elapsed_us, ir_source.
nlohmann::ordered_json report_json(const FileReport& r);
// report_json(r) serialised compactly (dump(-1, ' ', false, replace)), written directly.
std::string report_jsonl(const FileReport& r);
// One diagnostic: exactly rule, severity, message, line, col, end_line, end_col, evidence.
nlohmann::ordered_json diagnostic_json(const FileReport& r, const Diagnostic& d);

// `tikzlint ir`: picture `picture` (1-based) of a report kept with its IR (CheckOptions::keep_ir)
// as the IR JSON plus file, picture_index, picture_count, ir_source and findings; a file without
// a picture gives the fixed fields empty. `picture` must be at most the number of pictures.
nlohmann::ordered_json ir_json(const FileReport& r, std::size_t picture = 1);

// One diagnostic in clang style: header line, source line, caret + ~~~ underline, notes.
std::string text_diagnostic(const FileReport& r, const Diagnostic& d);
// The verdict line of one file in the text format ("a.tex: verdict fail: in_frame").
std::string text_verdict_line(const FileReport& r);

// GitHub workflow-command escaping: data escapes % \r \n; property values also : and ,.
std::string github_escape_data(std::string_view s);
std::string github_escape_property(std::string_view s);
std::string github_annotation(const FileReport& r, const Diagnostic& d);

// A path as a SARIF artifact URI: relative paths stay relative (percent-encoded), absolute
// ones become file:// URIs.
std::string sarif_uri(std::string_view path);

// Receives the reports of one run in input order and writes them in one format.
class Reporter {
 public:
  virtual ~Reporter() = default;
  virtual void file(const FileReport& r) = 0;
  virtual void finish() = 0;  // after the last file (closes arrays, writes the summary)
};
// --quiet and --statistics (docs/cli.md).
struct OutputOptions {
  bool quiet = false;       // text: warnings and errors only (no notes, verdict lines, summary)
  bool statistics = false;  // any format: one line per rule or code with its count, as Ruff does
};
std::unique_ptr<Reporter> make_reporter(Format f, std::ostream& out, const ToolInfo& info,
                                        const OutputOptions& opts = {});

// The text format's run-level note for a class or package that was not found: one per file
// name, listing the inputs it affects (at most `shown`, then "and N more").
std::string missing_file_summary(const std::string& file, const std::vector<std::string>& inputs,
                                 std::size_t shown = 10);

}  // namespace tikzlint::cli
