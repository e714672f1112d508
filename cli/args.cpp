#include "cli/args.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>

#include "checks/check.hpp"
#include "cli/config.hpp"
#include "rank/rank.hpp"
#include "checks/compile/compiles.hpp"
#include "spec/spec.hpp"

namespace tikzlint::cli {

std::string usage_text() {
  return R"(usage: tikzlint check [options] FILE|DIR|-...
       tikzlint ir FILE|- [--include-dir DIR]... [--picture N]
       tikzlint render FILE|- -o OUT.svg [--include-dir DIR]... [--picture N]
       tikzlint rank [--reference REF.tex] [--format text|jsonl] FILE...
       tikzlint compare A.tex B.tex [--format text|json]
       tikzlint explain RULE [--markdown] | tikzlint explain --list
       tikzlint --version | --help

tikzlint verifies TikZ diagrams without running TeX: it expands the file's macros, lowers
every tikzpicture to geometry in points and runs each rule on it.

check options:
  --format F            text (default), json, jsonl, sarif or github
  --include-dir DIR     where \documentclass and \usepackage files are looked up, after the
                        input file's own folder (repeatable)
  --allow-read DIR      a folder the checked files may also read from (\input, plot file...);
                        by default only the input's folder and the include dirs (repeatable)
  --jobs N              check files on N threads (0: one per core); output keeps input order
  --set RULE.NAME=V     override a rule threshold, e.g. --set in_frame.tolerance_pt=2
  --fallback MODE       never (default), auto (when the parser meets unsupported input) or
                        always: ask the LLM fallback for the geometry
  --llm-base-url URL    OpenAI-compatible endpoint (or TIKZLINT_LLM_BASE_URL)
  --llm-model M         model name (or TIKZLINT_LLM_MODEL)
  --llm-cache DIR       on-disk cache of LLM answers
  --output-file FILE    write the report to FILE instead of standard output
  --quiet, -q           only warnings and errors: no notes, verdict lines, summary or progress
  --statistics          one line per rule or code with its count, instead of the diagnostics
  --spec FILE           check each file against a spec of what it must show (docs/spec.md):
                        verdict `spec`, one finding per unmet item
  --select NAMES        report only these rules and codes (comma-separated; all, a name, or
                        a prefix ending in *); repeatable
  --ignore NAMES        do not report these rules and codes (comma-separated); repeatable
  --config FILE         read settings from FILE only (no tikzlint.toml / pyproject.toml search)
  --isolated            read no configuration file

  --stdin-filename NAME the name of standard input (the operand -) in messages; \input,
                        classes and packages are looked up in NAME's folder (also ir, render)

rank orders candidates best first: compiles > no rule fails > fewer and lighter findings >
closer to the --reference; compare scores two diagrams' similarity in [0, 1] by parts
(docs/rank.md). Both accept --include-dir, --set (including compare.*) and --stdin-filename.

A DIR operand stands for every *.tex file below it; - reads the file from standard input.
Settings are also read from tikzlint.toml, or [tool.tikzlint] in pyproject.toml, found upward
from each file up to the repository root; the command line wins (docs/configuration.md).
exit status: 0 every file passes, 1 some file fails a rule or has an error diagnostic,
             2 usage error or a file cannot be read
)";
}

namespace {

struct FlagSpec {
  const char* name;
  bool takes_value;
  bool check_only;  // meaningful for check (and ir/render share the front-end ones)
};

constexpr FlagSpec kFlags[] = {
    {"--format", true, true},        {"--include-dir", true, false}, {"-I", true, false},
    {"--jobs", true, true},          {"-j", true, true},             {"--set", true, false},
    {"--fallback", true, false},     {"--llm-base-url", true, false}, {"--llm-model", true, false},
    {"--llm-cache", true, false},    {"--picture", true, false},     {"-o", true, false},
    {"--output", true, false},       {"--markdown", false, false},   {"--list", false, false},
    {"--spec", true, true},          {"--allow-read", true, false},  {"--output-file", true, true},
    {"--quiet", false, true},        {"-q", false, true},            {"--statistics", false, true},
    {"--stdin-filename", true, false}, {"--reference", true, false},
    {"--config", true, false},       {"--isolated", false, false},   {"--select", true, false},
    {"--ignore", true, false},
};

const FlagSpec* find_flag(const std::string& name) {
  for (const auto& f : kFlags)
    if (name == f.name) return &f;
  return nullptr;
}

std::optional<long> parse_int(const std::string& s) {
  long v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

std::optional<double> parse_double(const std::string& s) {
  if (s.empty()) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size() || !std::isfinite(v)) return std::nullopt;
  return v;
}

// "rule.threshold=value", checked against the registry so a typo is a usage error.
std::string parse_threshold(const std::string& text, Invocation& inv) {
  auto eq = text.find('=');
  auto dot = text.find('.');
  if (eq == std::string::npos || dot == std::string::npos || dot > eq)
    return "--set expects RULE.THRESHOLD=VALUE, got '" + text + "'";
  std::string rule = text.substr(0, dot), name = text.substr(dot + 1, eq - dot - 1);
  if (auto e = check_threshold(rule, name); !e.empty()) return "--set: " + e;
  auto v = parse_double(text.substr(eq + 1));
  if (!v) return "--set: '" + text.substr(eq + 1) + "' is not a number";
  inv.thresholds.emplace_back(rule + "." + name, *v);
  return "";
}

std::string apply_flag(const std::string& name, const std::string& value, Invocation& inv) {
  if (name == "--format") {
    auto f = parse_format(value);
    if (!f) return "unknown format '" + value + "' (expected text, json, jsonl, sarif or github)";
    inv.format = *f;
  } else if (name == "--include-dir" || name == "-I") {
    inv.include_dirs.push_back(value);
  } else if (name == "--allow-read") {
    inv.allow_read.push_back(value);
  } else if (name == "--jobs" || name == "-j") {
    auto n = parse_int(value);
    if (!n || *n < 0 || *n > 4096) return "--jobs expects a number from 0 to 4096, got '" + value + "'";
    inv.jobs = static_cast<unsigned>(*n);
  } else if (name == "--set") {
    return parse_threshold(value, inv);
  } else if (name == "--fallback") {
    using backtranslate::Mode;
    if (value == "never") inv.fallback = Mode::never;
    else if (value == "auto") inv.fallback = Mode::automatic;
    else if (value == "always") inv.fallback = Mode::always;
    else return "--fallback expects never, auto or always, got '" + value + "'";
  } else if (name == "--llm-base-url") {
    inv.llm_base_url = value;
  } else if (name == "--llm-model") {
    inv.llm_model = value;
  } else if (name == "--llm-cache") {
    inv.llm_cache = value;
  } else if (name == "--picture") {
    auto n = parse_int(value);
    if (!n || *n < 1) return "--picture expects a number from 1, got '" + value + "'";
    inv.picture = static_cast<std::size_t>(*n);
  } else if (name == "-o" || name == "--output") {
    inv.output = value;
  } else if (name == "--spec") {
    inv.spec = value;
  } else if (name == "--output-file") {
    if (value.empty()) return "--output-file needs a file name";
    inv.output_file = value;
  } else if (name == "--quiet" || name == "-q") {
    inv.quiet = true;
  } else if (name == "--statistics") {
    inv.statistics = true;
  } else if (name == "--reference") {
    inv.reference = value;
  } else if (name == "--stdin-filename") {
    if (value.empty()) return "--stdin-filename needs a non-empty NAME";
    inv.stdin_filename = value;
  } else if (name == "--config") {
    if (value.empty()) return "--config needs a file name";
    inv.config = value;
  } else if (name == "--isolated") {
    inv.isolated = true;
  } else if (name == "--select" || name == "--ignore") {
    std::vector<std::string> names;
    for (std::size_t start = 0; start <= value.size();) {
      std::size_t comma = std::min(value.find(',', start), value.size());
      std::string n = value.substr(start, comma - start);
      if (auto e = check_selectable(n); !e.empty()) return name + ": " + e;
      names.push_back(std::move(n));
      start = comma + 1;
    }
    if (name == "--ignore") inv.ignore.insert(inv.ignore.end(), names.begin(), names.end());
    else if (inv.select) inv.select->insert(inv.select->end(), names.begin(), names.end());
    else inv.select = std::move(names);
  } else if (name == "--markdown") {
    inv.markdown = true;
  } else if (name == "--list") {
    inv.list = true;
  }
  return "";
}

ParsedArgs fail(std::string message) { return {std::nullopt, std::move(message)}; }

}  // namespace

ParsedArgs parse_args(const std::vector<std::string>& args) {
  Invocation inv;
  if (args.empty()) return fail("no command given");
  const std::string& cmd = args[0];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    inv.command = Command::help;
    return {inv, ""};
  }
  if (cmd == "--version" || cmd == "version") {
    inv.command = Command::version;
    return {inv, ""};
  }
  if (cmd == "check") inv.command = Command::check;
  else if (cmd == "ir") inv.command = Command::ir;
  else if (cmd == "render") inv.command = Command::render;
  else if (cmd == "explain") inv.command = Command::explain;
  else if (cmd == "rank") inv.command = Command::rank;
  else if (cmd == "compare") inv.command = Command::compare;
  else return fail("unknown command '" + cmd + "'");

  bool options_done = false;
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    if (options_done || a.empty() || a[0] != '-' || a == "-") {
      inv.operands.push_back(a);
      continue;
    }
    if (a == "--") {
      options_done = true;
      continue;
    }
    if (a == "--help" || a == "-h") {
      inv.command = Command::help;
      return {inv, ""};
    }
    std::string name = a, value;
    bool inline_value = false;
    if (auto eq = a.find('='); a.rfind("--", 0) == 0 && eq != std::string::npos) {
      name = a.substr(0, eq);
      value = a.substr(eq + 1);
      inline_value = true;
    }
    const FlagSpec* spec = find_flag(name);
    if (!spec) return fail("unknown option '" + name + "'");
    if (spec->takes_value && !inline_value) {
      if (i + 1 >= args.size()) return fail("option '" + name + "' needs a value");
      value = args[++i];
    } else if (!spec->takes_value && inline_value) {
      return fail("option '" + name + "' takes no value");
    }
    if (name == "--reference" && inv.command != Command::rank)
      return fail("option '--reference' only applies to 'tikzlint rank'");
    const bool formatted = name == "--format" && (inv.command == Command::rank || inv.command == Command::compare);
    if (spec->check_only && inv.command != Command::check && !formatted)
      return fail("option '" + name + "' only applies to 'tikzlint check'");
    if (auto err = apply_flag(name, value, inv); !err.empty()) return fail(err);
  }

  switch (inv.command) {
    case Command::check:
      if (inv.operands.empty()) return fail("check: no FILE or DIR given");
      break;
    case Command::ir:
    case Command::render:
      if (inv.operands.size() != 1) return fail(cmd + ": expects exactly one FILE");
      break;
    case Command::rank:
      if (inv.operands.empty()) return fail("rank: no FILE given");
      if (inv.format != Format::text && inv.format != Format::jsonl) return fail("rank: --format expects text or jsonl");
      break;
    case Command::compare:
      if (inv.operands.size() != 2) return fail("compare: expects exactly two FILEs");
      if (inv.format != Format::text && inv.format != Format::json) return fail("compare: --format expects text or json");
      break;
    case Command::explain:
      if (inv.list) {
        if (!inv.operands.empty()) return fail("explain --list takes no RULE");
      } else if (inv.operands.size() != 1) {
        return fail("explain: expects exactly one RULE (or --list)");
      }
      break;
    default: break;
  }
  return {inv, ""};
}

}  // namespace tikzlint::cli
