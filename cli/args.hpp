// cli/args.hpp: the command line of tikzlint (docs/cli.md). Parsing is separate from running
// so that every flag and every usage error is unit-tested.
#pragma once
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "backtranslate/backtranslate.hpp"
#include "cli/output.hpp"

namespace tikzlint::cli {

enum class Command { check, ir, render, rank, compare, explain, version, help };

struct Invocation {
  Command command = Command::help;
  std::vector<std::string> operands;  // files and directories, or the rule name for explain
  // check / ir / render
  Format format = Format::text;
  std::vector<std::string> include_dirs;
  std::vector<std::string> allow_read;  // --allow-read DIR (support/read_policy.hpp)
  unsigned jobs = 1;  // 0: one per core
  std::vector<std::pair<std::string, double>> thresholds;  // --set rule.threshold=value
  backtranslate::Mode fallback = backtranslate::Mode::never;
  std::string llm_base_url, llm_model, llm_cache;
  std::size_t picture = 1;  // ir / render: which picture of the file (1-based)
  std::string output;       // render: -o FILE ("" or "-": stdout)
  std::string spec;         // check: --spec FILE (docs/spec.md)
  std::string output_file;  // check: --output-file FILE (the report goes there, not to stdout)
  bool quiet = false;       // check: --quiet
  bool statistics = false;  // check: --statistics
  std::string reference;    // rank: --reference REF.tex (docs/rank.md)
  std::string stdin_filename;  // --stdin-filename NAME: the name of the operand "-"
  // configuration (cli/config.hpp): the command line takes precedence over config files
  std::optional<std::vector<std::string>> select;  // --select (repeatable, comma-separated)
  std::vector<std::string> ignore;                 // --ignore
  std::string config;                              // --config FILE: no discovery
  bool isolated = false;                           // --isolated: no config file at all
  // explain
  bool markdown = false;
  bool list = false;
};

struct ParsedArgs {
  std::optional<Invocation> invocation;
  std::string error;  // the usage error when invocation is empty
};

// `args` excludes argv[0].
ParsedArgs parse_args(const std::vector<std::string>& args);
std::string usage_text();

}  // namespace tikzlint::cli
