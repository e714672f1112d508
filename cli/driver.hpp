// cli/driver.hpp: the public face of the driver: one input file through the whole pipeline
// (read, expand, lower, optional LLM fallback, every rule), and batches of files on threads.
// Output formats live in cli/output.hpp; argument parsing in cli/args.hpp.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backtranslate/backtranslate.hpp"
#include "checks/check.hpp"
#include "ir/diagram.hpp"
#include "checks/compile/compiles.hpp"
#include "cli/config.hpp"
#include "spec/spec.hpp"
#include "support/diagnostic.hpp"
#include "support/read_file.hpp"
#include "support/source.hpp"
#include "tex/tex.hpp"

namespace tikzlint::cli {

// The operand "-": standard input, read once by the caller (read_descriptor(0, ...)) and
// checked under `name` (--stdin-filename): messages use it, and \input, classes and packages
// are looked up in its folder as for a file of that name.
struct StandardInput {
  std::string name = "<stdin>";
  FileText text;
};

struct CheckOptions {
  tex::FrontendOptions frontend;  // include dirs and budgets (max_input_bytes is the read limit)
  checks::Config config;          // --set rule.threshold=value, [rules.RULE] of a config file
  Selection selection;            // --select / --ignore and config files: what is reported
  backtranslate::Settings llm;    // --fallback, --llm-*
  bool keep_ir = false;           // keep the diagrams in the report (tikzlint ir / render)
  std::shared_ptr<const spec::Spec> spec;  // --spec: the verdict `spec` (n/a without one)
  std::shared_ptr<const StandardInput> standard_input;  // what the operand "-" reads
};

enum class FileStatus {
  checked,     // the pipeline ran; verdicts are meaningful
  unreadable,  // missing, unreadable or over the input limit (exit code 2)
  failed,      // an internal error stopped the pipeline for this file only
};
const char* to_string(FileStatus s);  // "checked", or "error" for both kinds of failure

// Everything known about one input file after checking it.
struct FileReport {
  std::string path;  // as given on the command line (or found under a directory)
  FileStatus status = FileStatus::checked;
  // One verdict per registry rule, in registry order, then `spec`.
  std::vector<std::pair<std::string, checks::Verdict>> verdicts;
  std::vector<Diagnostic> diagnostics;  // front end, lowering, fallback, rules, suppressions
  std::string ir_source = "parser";     // "parser" or "llm"
  std::int64_t elapsed_us = 0;
  std::shared_ptr<const SourceManager> sources;  // null when the file could not be read
  FileId file = 0;                               // the input's id in `sources`
  std::vector<ir::Diagram> diagrams;             // only with CheckOptions::keep_ir

  bool fails() const;  // a fail verdict or an error-severity diagnostic
};

// Apply the settings layers of a config file (cli/config.hpp: settings_for) to `opts`: their
// selection, thresholds and include dirs, in order. Returns the spec file the last layer that
// names one names (the caller loads it, unless a spec was given explicitly).
std::optional<std::string> apply_config(CheckOptions& opts, const std::vector<const Settings*>& layers);

// Check one file. Never throws: every problem becomes a diagnostic of this file. The path "-"
// is opts.standard_input when set.
FileReport check_file(const std::string& path, const CheckOptions& opts);
// Check a text held in memory as if it were the file `name` (which need not exist): messages
// use the name, and \input, classes and packages are looked up in its folder. Never throws.
FileReport check_source(const std::string& name, std::string text, const CheckOptions& opts);

// Check `paths` on `jobs` threads (0: one per core); `emit` is called on the calling thread
// with each report in input order, as soon as it and every earlier one are done. Workers run at
// most kReorderWindowPerJob * jobs files ahead of the last report emitted, so the reports held
// for ordering are bounded (behind one slow file the others wait instead of piling up).
inline constexpr std::size_t kReorderWindowPerJob = 4;
void check_files(const std::vector<std::string>& paths, const CheckOptions& opts, unsigned jobs,
                 const std::function<void(FileReport&&)>& emit);
// The same with options per file (each file's configuration): `opts[i]` for `paths[i]`.
void check_files(const std::vector<std::string>& paths, const std::vector<std::shared_ptr<const CheckOptions>>& opts,
                 unsigned jobs, const std::function<void(FileReport&&)>& emit);

// The command-line operands expanded: a directory stands for every *.tex below it (sorted).
// Problems (a directory with no .tex file) are returned as messages in `warnings`.
std::vector<std::string> collect_inputs(const std::vector<std::string>& operands,
                                        std::vector<std::string>& warnings);

// The process exit code for a set of reports: 2 if a file could not be read, 1 if a file
// fails (a fail verdict or an error diagnostic, including internal errors), else 0.
struct ExitTally {
  bool any_unreadable = false;
  bool any_failing = false;
  void add(const FileReport& r);
  int code() const { return any_unreadable ? 2 : any_failing ? 1 : 0; }
};

// Front-end diagnostic codes (DEVELOPERS.md) with a one-line description each; suppressions
// and SARIF rule descriptors accept these besides the registry's rule names.
struct CodeDoc {
  const char* code;
  const char* summary;
};
const std::vector<CodeDoc>& frontend_codes();

}  // namespace tikzlint::cli
