// tikzlint: the command-line entry point. Parses the arguments (cli/args.hpp), runs the
// driver (cli/driver.hpp) and writes one output format (cli/output.hpp).
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "cli/args.hpp"
#include "cli/config.hpp"
#include "cli/driver.hpp"
#include "checks/scene.hpp"
#include "cli/output.hpp"
#include "cli/progress.hpp"
#include "ir/ir.hpp"
#include "cli/rank_candidate.hpp"
#include "rank/rank.hpp"

#ifndef TIKZLINT_VERSION
#define TIKZLINT_VERSION "0.0.0"
#endif

namespace {

using namespace tikzlint;
using namespace tikzlint::cli;

int usage_error(const std::string& message) {
  std::cerr << "tikzlint: error: " << message << "\nrun 'tikzlint --help' for usage\n";
  return 2;
}

CheckOptions options_from(const Invocation& inv) {
  CheckOptions o;
  o.frontend.include_dirs = inv.include_dirs;
  o.frontend.allow_read = inv.allow_read;
  for (const auto& [key, value] : inv.thresholds) o.config.set(key, value);
  o.selection.add({inv.select, inv.ignore});
  o.llm.mode = inv.fallback;
  o.llm.base_url = inv.llm_base_url;
  o.llm.model = inv.llm_model;
  o.llm.cache_dir = inv.llm_cache;
  backtranslate::apply_environment(o.llm);
  // The operand "-" is standard input, read once whatever number of times it is named.
  for (const auto& op : inv.operands)
    if (op == "-") {
      auto in = std::make_shared<StandardInput>();
      if (!inv.stdin_filename.empty()) in->name = inv.stdin_filename;
      in->text = read_descriptor(0, o.frontend.limits.max_input_bytes);
      o.standard_input = std::move(in);
      break;
    }
  return o;
}

// The options of each input: the command line's, over the settings of the input's config file
// (cli/config.hpp) and its matching [[overrides]]. Inputs that share a config and the same
// overrides share one CheckOptions. Empty (errors printed) on a config or spec error: exit 2.
std::optional<std::vector<std::shared_ptr<const CheckOptions>>> per_file_options(
    const Invocation& inv, const std::vector<std::string>& inputs, const CheckOptions& base) {
  ConfigResolver resolver(inv.config, inv.isolated);
  std::vector<std::string> errors;
  std::map<std::string, std::shared_ptr<const spec::Spec>> specs;  // by path, loaded once
  auto spec_at = [&](const std::string& path, const std::string& what) -> std::shared_ptr<const spec::Spec> {
    if (auto it = specs.find(path); it != specs.end()) return it->second;
    std::vector<std::string> spec_errors;
    auto s = spec::load(path, spec_errors);
    for (const auto& e : spec_errors) errors.push_back(what + " " + e);
    auto loaded = s ? std::make_shared<const spec::Spec>(std::move(*s)) : nullptr;
    specs[path] = loaded;
    return loaded;
  };
  std::shared_ptr<const spec::Spec> cli_spec;
  if (!inv.spec.empty()) cli_spec = spec_at(inv.spec, "--spec");
  std::map<std::vector<const Settings*>, std::shared_ptr<const CheckOptions>> shared;
  std::vector<std::shared_ptr<const CheckOptions>> out;
  for (const auto& input : inputs) {
    const std::string& path = input == "-" && !inv.stdin_filename.empty() ? inv.stdin_filename : input;
    auto config = resolver.for_input(path, errors);
    std::vector<const Settings*> layers = settings_for(config.get(), path);
    auto& opts = shared[layers];
    if (!opts) {
      auto o = std::make_shared<CheckOptions>(base);
      o->selection = Selection{};  // the config's layers first, then the command line's again
      if (auto spec_path = apply_config(*o, layers); spec_path && !cli_spec)
        o->spec = spec_at(*spec_path, config->path + ": spec");
      o->selection.add({inv.select, inv.ignore});
      for (const auto& [key, value] : inv.thresholds) o->config.set(key, value);  // --set wins
      if (cli_spec) o->spec = cli_spec;
      opts = std::move(o);
    }
    out.push_back(opts);
  }
  if (!errors.empty()) {
    for (const auto& e : errors) std::cerr << "tikzlint: error: " << e << "\n";
    return std::nullopt;
  }
  return out;
}

int run_check(const Invocation& inv) {
  std::vector<std::string> warnings;
  std::vector<std::string> inputs = collect_inputs(inv.operands, warnings);
  for (const auto& w : warnings) std::cerr << "tikzlint: warning: " << w << "\n";
  if (inputs.empty()) return usage_error("no input files");
  auto per_file = per_file_options(inv, inputs, options_from(inv));
  if (!per_file) return 2;
  ToolInfo info;
  info.version = TIKZLINT_VERSION;
  std::ofstream file_out;
  if (!inv.output_file.empty()) {
    file_out.open(inv.output_file, std::ios::binary | std::ios::trunc);
    if (!file_out) {
      std::cerr << "tikzlint: error: cannot write '" << inv.output_file << "'\n";
      return 2;
    }
  }
  std::ostream& out = inv.output_file.empty() ? std::cout : file_out;
  OutputOptions output;
  output.quiet = inv.quiet;
  output.statistics = inv.statistics;
  auto reporter = make_reporter(inv.format, out, info, output);
  // Progress only on a terminal (never in a pipe or a CI log); erased before each report is written.
  const bool tty = ::isatty(STDERR_FILENO) == 1;
  Progress progress(std::cerr, inputs.size(), tty && !inv.quiet, progress_delay());
  ExitTally tally;
  check_files(inputs, *per_file, inv.jobs, [&](FileReport&& r) {
    tally.add(r);
    if (progress.shown()) progress.finish();  // the report's lines go above the progress line
    reporter->file(r);
    progress.file_done();
  });
  progress.finish();
  reporter->finish();
  out.flush();
  if (!inv.output_file.empty() && !file_out) {
    std::cerr << "tikzlint: error: cannot write '" << inv.output_file << "'\n";
    return 2;
  }
  return tally.code();
}

// The report of the one FILE of `ir` / `render`, or the exit code when it cannot be read.
std::optional<FileReport> load_single(const Invocation& inv, int& code) {
  CheckOptions base = options_from(inv);
  base.keep_ir = true;
  auto per_file = per_file_options(inv, {inv.operands[0]}, base);
  if (!per_file) {
    code = 2;
    return std::nullopt;
  }
  FileReport r = check_file(inv.operands[0], *per_file->front());
  if (r.status != FileStatus::checked) {
    for (const auto& d : r.diagnostics) std::cerr << text_diagnostic(r, d);
    code = r.status == FileStatus::unreadable ? 2 : 1;
    return std::nullopt;
  }
  if (!r.diagrams.empty() && inv.picture > r.diagrams.size()) {
    code = usage_error("--picture " + std::to_string(inv.picture) + ": the file has " +
                       std::to_string(r.diagrams.size()) + " picture(s)");
    return std::nullopt;
  }
  return r;
}

int run_ir(const Invocation& inv) {
  int code = 0;
  auto r = load_single(inv, code);
  if (!r) return code;
  std::cout << ir_json(*r, inv.picture).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
  return 0;
}

std::shared_ptr<const FileReport> check_kept(const std::string& path, const CheckOptions& opts) {
  return std::make_shared<const FileReport>(check_file(path, opts));
}

int run_rank(const Invocation& inv) {
  std::vector<std::string> warnings;
  std::vector<std::string> inputs = collect_inputs(inv.operands, warnings);
  for (const auto& w : warnings) std::cerr << "tikzlint: warning: " << w << "\n";
  if (inputs.empty()) return usage_error("no input files");
  CheckOptions base = options_from(inv);
  base.keep_ir = true;
  // One configuration for every candidate, so that they are judged alike: the first file's.
  auto configured = per_file_options(inv, {inputs.front()}, base);
  if (!configured) return 2;
  const CheckOptions& opts = *configured->front();
  std::shared_ptr<const FileReport> reference;
  if (!inv.reference.empty()) {
    reference = check_kept(inv.reference, opts);
    if (reference->status == FileStatus::unreadable) {
      for (const auto& d : reference->diagnostics) std::cerr << text_diagnostic(*reference, d);
      return 2;
    }
  }
  std::vector<FileReport> reports;
  check_files(inputs, opts, 1, [&](FileReport&& r) { reports.push_back(std::move(r)); });
  std::vector<rank::Candidate> candidates;
  for (const auto& r : reports) candidates.push_back(rank_candidate(r));
  std::optional<rank::Candidate> ref;
  if (reference) ref = rank_candidate(*reference);
  auto ranked = rank::rank(candidates, ref ? &*ref : nullptr, opts.config);
  for (std::size_t i = 0; i < ranked.size(); ++i) {
    const auto& k = ranked[i];
    const FileReport& r = reports[k.index];
    if (inv.format == Format::jsonl) {
      nlohmann::ordered_json j;
      j["file"] = r.path;
      j["rank"] = i + 1;
      j["score"] = k.score;
      j["reasons"] = k.reasons;
      nlohmann::ordered_json verdicts = nlohmann::ordered_json::object();
      for (const auto& [name, v] : r.verdicts) verdicts[name] = checks::to_string(v);
      j["verdicts"] = std::move(verdicts);
      std::cout << j.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    } else {
      char score[32];
      std::snprintf(score, sizeof score, "%.4f", k.score);
      std::cout << i + 1 << ". " << r.path << "  score " << score << "\n";
      for (const auto& reason : k.reasons) std::cout << "   - " << reason << "\n";
    }
  }
  return 0;
}

int run_compare(const Invocation& inv) {
  CheckOptions base = options_from(inv);
  base.keep_ir = true;
  auto configured = per_file_options(inv, {inv.operands[0]}, base);  // A's configuration for both
  if (!configured) return 2;
  const CheckOptions& opts = *configured->front();
  auto a = check_kept(inv.operands[0], opts);
  auto b = check_kept(inv.operands[1], opts);
  for (const auto& r : {a, b})
    if (r->status == FileStatus::unreadable) {
      for (const auto& d : r->diagnostics) std::cerr << text_diagnostic(*r, d);
      return 2;
    }
  rank::Similarity s = rank::compare(a->diagrams, b->diagrams, opts.config);
  if (inv.format == Format::json) {
    nlohmann::json j = s.to_json();
    j["a"] = a->path;
    j["b"] = b->path;
    std::cout << j.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
    return 0;
  }
  char buf[128];
  std::snprintf(buf, sizeof buf, "%.4f", s.score);
  std::cout << "similarity " << buf << " (A: " << a->path << ", B: " << b->path << ")\n";
  for (const auto& p : s.parts) {
    if (!p.applies) {
      std::snprintf(buf, sizeof buf, "  %-16s   n/a", p.name.c_str());
      std::cout << buf << "\n";
      continue;
    }
    std::snprintf(buf, sizeof buf, "  %-16s %.4f  weight %.2f", p.name.c_str(), p.score, p.weight);
    std::cout << buf << "\n";
    for (const auto& c : p.changes) std::cout << "    - " << c << "\n";
  }
  return 0;
}

int run_render(const Invocation& inv) {
  int code = 0;
  auto r = load_single(inv, code);
  if (!r) return code;
  if (r->diagrams.empty()) {
    std::cerr << "tikzlint: error: " << r->path << ": no tikzpicture to render\n";
    return 1;
  }
  std::vector<Diagnostic> findings;
  for (const auto& d : r->diagnostics)
    if (d.severity != Severity::note) findings.push_back(d);
  std::string svg = ir::to_svg(r->diagrams[inv.picture - 1], findings);
  if (inv.output.empty() || inv.output == "-") {
    std::cout << svg;
    return 0;
  }
  std::ofstream out(inv.output, std::ios::binary);
  out << svg;
  out.close();
  if (!out) {
    std::cerr << "tikzlint: error: cannot write '" << inv.output << "'\n";
    return 2;
  }
  return 0;
}

int run_explain(const Invocation& inv) {
  if (inv.list) {
    for (const auto& rule : checks::registry()) std::cout << rule.doc->name << "\t" << rule.doc->summary << "\n";
    std::cout << compile::doc().name << "\t" << compile::doc().summary << "\n";
    return 0;
  }
  const std::string& name = inv.operands[0];
  if (const checks::Rule* rule = checks::find_rule(name)) {
    std::cout << checks::explain(*rule->doc, inv.markdown);
    return 0;
  }
  if (name == compile::doc().name) {  // a file-level rule: it reads the text, not a diagram
    std::cout << checks::explain(compile::doc(), inv.markdown);
    return 0;
  }
  if (name == spec::doc().name) {  // not a registry rule: it runs only with --spec
    std::cout << checks::explain(spec::doc(), inv.markdown);
    return 0;
  }
  if (name == rank::doc().name) {  // the thresholds of compare and rank --reference
    std::cout << checks::explain(rank::doc(), inv.markdown);
    return 0;
  }
  for (const auto& c : frontend_codes())
    if (name == c.code) {
      std::cout << c.code << ": " << c.summary << " (a front-end diagnostic, not a rule)\n";
      return 0;
    }
  std::string names;
  for (const auto& rule : checks::registry()) names += (names.empty() ? "" : ", ") + rule.doc->name;
  return usage_error("unknown rule '" + name + "' (rules: " + names + ")");
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  ParsedArgs parsed = parse_args(args);
  if (!parsed.invocation) return usage_error(parsed.error);
  const Invocation& inv = *parsed.invocation;
  try {
    switch (inv.command) {
      case Command::help: std::cout << usage_text(); return 0;
      case Command::version: std::cout << "tikzlint " << TIKZLINT_VERSION << "\n"; return 0;
      case Command::check: return run_check(inv);
      case Command::ir: return run_ir(inv);
      case Command::render: return run_render(inv);
      case Command::rank: return run_rank(inv);
      case Command::compare: return run_compare(inv);
      case Command::explain: return run_explain(inv);
    }
  } catch (const std::exception& e) {
    std::cerr << "tikzlint: internal error: " << e.what() << "\n";
    return 2;  // the contract has no other code; per-file errors never get here
  }
  return 0;
}
