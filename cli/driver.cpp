#include "cli/driver.hpp"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <condition_variable>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

#include "checks/compile/compiles.hpp"
#include "checks/scene.hpp"
#include "grammar/grammar.hpp"
#include "ir/ir.hpp"
#include "packages/registry.hpp"
#include "support/read_file.hpp"

namespace tikzlint::cli {

namespace fs = std::filesystem;
using checks::Verdict;

// A statement nested deeper than the parser accepts never gets past the expander (one error).
static_assert(tex::Limits{}.max_nesting_depth == grammar::kMaxGroupNesting);

const char* to_string(FileStatus s) { return s == FileStatus::checked ? "checked" : "error"; }

const std::vector<CodeDoc>& frontend_codes() {
  static const std::vector<CodeDoc> codes = {
      {"syntax-error", "a TikZ statement could not be parsed; the parser resumed at the next ';'"},
      {"unsupported-key", "an option key the lowering does not model; affected rules are indeterminate"},
      {"unsupported-path-operation", "a path operation the lowering does not model"},
      {"unsupported-coordinate", "a coordinate form the lowering does not model"},
      {"unsupported-construct", "a TeX or TikZ construct the front end does not model"},
      {"expansion-limit", "a named budget was exceeded (recursion, loops, size, elements and path points drawn)"},
      {"unterminated", "an environment, group, brace or option list is not closed"},
      {"resource-limit", "a library construct past one of its bounds (a calendar's days, a tree's depth, data points)"},
      {"approximate-axis", "a pgfplots axis with keys or text that are not modelled, so its frame is known only roughly"},
      {"missing-file", "a class or package was not found in the file's folder or the include dirs"},
      {"refused-read", "a file the document names is outside the read policy (absolute, '..', symlink out, "
                       "hidden) and was not read"},
      {"undefined-macro", "a macro used in a picture is not defined by the document or its packages"},
      {"math-error", "a pgfmath expression could not be evaluated (syntax, division by zero, overflow)"},
      {"unreadable-file", "the input file is missing, unreadable or larger than the input limit"},
      {"unused-suppression", "a tikzlint suppression comment names an unknown rule or suppresses nothing"},
      {"internal-error", "tikzlint itself failed on this file; please report it with the input"},
      {"no-picture", "the file contains no tikzpicture, so every rule is n/a"},
      {"llm-fallback", "the geometry was produced by the LLM fallback instead of the parser"},
      {"llm-http", "the LLM fallback's endpoint could not be reached or answered with an HTTP error"},
      {"llm-timeout", "the LLM fallback did not answer in time"},
      {"llm-invalid-json", "the LLM fallback's answer is not valid JSON"},
      {"llm-schema", "the LLM fallback's answer does not follow the IR schema (docs/llm-ir-schema.json)"},
      {"llm-truncated", "the LLM fallback's answer was cut off at its length limit"},
  };
  return codes;
}

namespace {

int severity_rank(Verdict v) {
  switch (v) {
    case Verdict::na: return 0;
    case Verdict::pass: return 1;
    case Verdict::indeterminate: return 2;
    case Verdict::fail: return 3;
  }
  return 0;
}

Verdict worse(Verdict a, Verdict b) { return severity_rank(a) >= severity_rank(b) ? a : b; }

Diagnostic make_diag(std::string rule, Severity sev, std::string message, SourceRange range = {}) {
  Diagnostic d;
  d.rule = std::move(rule);
  d.severity = sev;
  d.message = std::move(message);
  d.range = range;
  return d;
}

// The whole file, or why it cannot be read. Reads at most limit+1 bytes, so a device or a
// huge file never exhausts memory.
struct ReadResult {
  std::optional<std::string> text;
  Diagnostic problem;
};

ReadResult read_result(const std::string& path, FileText in, std::size_t limit);

ReadResult read_input(const std::string& path, std::size_t limit) {
  return read_result(path, read_file(path, limit), limit);
}

// One name of one suppression comment.
struct Suppression {
  const tex::Directive* directive;
  std::string rule;
  std::uint32_t line = 0;  // line of the directive in its file
  bool used = false;
};

bool known_code(const std::string& name) {
  if (name == "all" || checks::find_rule(name) || name == spec::doc().name || name == compile::doc().name) return true;
  if (name.rfind("unsupported", 0) == 0 || name.rfind("llm-", 0) == 0) return true;
  for (const auto& c : frontend_codes())
    if (name == c.code) return true;
  return false;
}

class Suppressions {
 public:
  Suppressions(const tex::ExpandedDocument& doc, const SourceManager& sm) : sm_(sm) {
    for (const auto& d : doc.directives) {
      std::uint32_t line = d.range.valid ? sm.get(d.range.file).line_col(d.range.begin).line : 0;
      for (const auto& rule : d.rules) entries_.push_back({&d, rule, line, false});
    }
  }

  // True (and the suppression is marked used) when a directive covers `diag`.
  bool suppresses(const Diagnostic& diag) {
    if (diag.rule == "unused-suppression" || diag.rule == "unreadable-file") return false;
    bool hit = false;
    for (auto& s : entries_) {
      if (s.rule != diag.rule && s.rule != "all") continue;
      if (covers(s, diag)) {
        s.used = true;
        hit = true;
      }
    }
    return hit;
  }

  // A suppression of a rule that is not selected suppresses nothing in this run, by choice.
  std::vector<Diagnostic> report(const Selection& selection) const {
    std::vector<Diagnostic> out;
    for (const auto& s : entries_) {
      if (known_code(s.rule) && s.rule != "all" && !selection.enabled(s.rule)) continue;
      if (!known_code(s.rule)) {
        auto d = make_diag("unused-suppression", Severity::warning,
                           "suppression names unknown rule '" + s.rule + "'", s.directive->range);
        d.evidence = {{"rule", s.rule}, {"directive", s.directive->kind}};
        d.notes.push_back({"run 'tikzlint explain --list' for the rule names", {}});
        out.push_back(std::move(d));
      } else if (!s.used) {
        auto d = make_diag("unused-suppression", Severity::warning,
                           "suppression of '" + s.rule + "' is unused", s.directive->range);
        d.evidence = {{"rule", s.rule}, {"directive", s.directive->kind}};
        out.push_back(std::move(d));
      }
    }
    return out;
  }

 private:
  bool covers(const Suppression& s, const Diagnostic& diag) const {
    const auto& kind = s.directive->kind;
    if (kind == "disable-file") return true;
    if (!diag.range.valid || !s.directive->range.valid || diag.range.file != s.directive->range.file)
      return false;
    std::uint32_t line = sm_.get(diag.range.file).line_col(diag.range.begin).line;
    if (kind == "disable") return line >= s.line;
    if (kind == "disable-next-line") {
      std::uint32_t target = s.directive->applies_to_line ? s.directive->applies_to_line : s.line + 1;
      return line == target;
    }
    return false;
  }

  const SourceManager& sm_;
  std::vector<Suppression> entries_;
};

bool has_unsupported(const std::vector<ir::Diagram>& diagrams) {
  for (const auto& d : diagrams) {
    if (!d.unsupported.empty()) return true;
    for (const auto& e : d.elements)
      if (e.incomplete) return true;
    for (const auto& n : d.nodes)
      if (n.incomplete) return true;
  }
  return false;
}

Diagnostic internal_error(const char* stage, const char* what) {
  auto d = make_diag("internal-error", Severity::error, std::string("internal error while ") + stage + ": " + what);
  d.notes.push_back({"this is a bug in tikzlint; the other files of the batch are unaffected", {}});
  return d;
}

void all_verdicts(FileReport& r, Verdict v) {
  r.verdicts.clear();
  for (const auto& rule : checks::registry()) r.verdicts.emplace_back(rule.doc->name, v);
  r.verdicts.emplace_back(spec::doc().name, v == Verdict::indeterminate ? v : Verdict::na);
  r.verdicts.emplace_back(compile::doc().name, v == Verdict::indeterminate ? v : Verdict::na);
}

// Located diagnostics of the input first, by position; then other files; then unlocated.
void sort_diagnostics(FileReport& r) {
  auto key = [&](const Diagnostic& d) {
    int group = !d.range.valid ? 2 : d.range.file == r.file ? 0 : 1;
    return std::tuple(group, d.range.file, d.range.begin);
  };
  std::stable_sort(r.diagnostics.begin(), r.diagnostics.end(),
                   [&](const Diagnostic& a, const Diagnostic& b) { return key(a) < key(b); });
}

// "83,617": counts in messages, grouped by thousands.
std::string with_thousands(std::size_t n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

// A message with its numbers blanked: the iterations of a loop report the same problem with
// their own values ("value 16384.0 exceeds ...", "value 16385.0 exceeds ...").
std::string without_numbers(const std::string& message) {
  std::string out;
  out.reserve(message.size());
  for (std::size_t i = 0; i < message.size();) {
    if ((message[i] >= '0' && message[i] <= '9')) {
      while (i < message.size() && ((message[i] >= '0' && message[i] <= '9') || message[i] == '.')) ++i;
      out += '#';
    } else {
      out += message[i++];
    }
  }
  return out;
}

// One front-end or lowering diagnostic per cause: the same code and message (up to numbers) at
// the same place, as when an expression is read once per use (`circle (\\r)` evaluates \\r for
// both radii) or one statement runs in every iteration of a loop. The first is kept, with a note
// "and N more like it" and the count as evidence `repeats`, instead of thousands of copies.
// (Rule findings are left as they are: each names its own element.)
void group_repeats(std::vector<Diagnostic>& diags) {
  struct Cause {
    std::size_t kept;   // index in `kept`
    std::size_t count;  // occurrences after the first
  };
  std::vector<Diagnostic> kept;
  kept.reserve(diags.size());
  std::vector<std::size_t> repeats;
  std::unordered_map<std::string, std::size_t> cause_of;  // code, severity, place -> kept index
  for (auto& d : diags) {
    std::string key = d.rule + '\x1f' + static_cast<char>('0' + static_cast<int>(d.severity)) + '\x1f';
    if (d.range.valid)
      key += std::to_string(d.range.file) + ':' + std::to_string(d.range.begin) + '-' + std::to_string(d.range.end);
    key += '\x1f' + without_numbers(d.message);
    auto [it, fresh] = cause_of.try_emplace(std::move(key), kept.size());
    if (!fresh) {
      ++repeats[it->second];
      continue;
    }
    kept.push_back(std::move(d));
    repeats.push_back(0);
  }
  for (std::size_t i = 0; i < kept.size(); ++i) {
    if (repeats[i] == 0) continue;
    kept[i].evidence["repeats"] = repeats[i];
    kept[i].notes.push_back({"and " + with_thousands(repeats[i]) + " more like it here (not shown)", {}});
  }
  diags = std::move(kept);
}

// The stages after reading. Exceptions escape to check_file, which confines them to this file.
void run_pipeline(FileReport& r, SourceManager& sm, const CheckOptions& opts, const char*& stage) {
  stage = "checking compile readiness";
  compile::Outcome compiled;
  {
    std::vector<std::string> dirs;
    dirs.push_back(fs::path(sm.get(r.file).path()).parent_path().string());
    if (dirs.back().empty()) dirs.back() = ".";
    dirs.insert(dirs.end(), opts.frontend.include_dirs.begin(), opts.frontend.include_dirs.end());
    if (opts.selection.enabled(compile::doc().name)) compiled = compile::evaluate(sm, r.file, dirs, opts.config);
  }
  stage = "expanding TeX";
  tex::ExpandedDocument doc = tex::expand_file(sm, r.file, opts.frontend);
  Suppressions suppressions(doc, sm);
  std::vector<Diagnostic> diags = std::move(doc.diagnostics);

  stage = "lowering to the ir";
  std::vector<ir::Diagram> diagrams = ir::lower(doc, sm, packages::all());

  using backtranslate::Mode;
  bool llm_unusable = false;  // --fallback=always and the model's answer could not be used
  if (opts.llm.mode == Mode::always || (opts.llm.mode == Mode::automatic && has_unsupported(diagrams))) {
    stage = "running the llm fallback";
    backtranslate::Outcome o = backtranslate::translate(sm.get(r.file).text(), r.file, opts.llm);
    for (auto& d : o.diagnostics) diags.push_back(std::move(d));
    if (o.diagram) {
      // The parser's lowering problems describe an IR that is no longer used: keep them as notes.
      for (auto& d : diagrams)
        for (auto& dd : d.diagnostics) {
          if (dd.severity != Severity::note) dd.message += " (superseded by the llm fallback)";
          dd.severity = Severity::note;
        }
      for (auto& d : diagrams)
        for (auto& dd : d.diagnostics) diags.push_back(std::move(dd));
      diagrams.clear();
      diagrams.push_back(std::move(*o.diagram));
      r.ir_source = "llm";
      auto note = make_diag("llm-fallback", Severity::note, "geometry from the llm fallback, not the parser");
      note.evidence = o.stats;
      diags.push_back(std::move(note));
    } else if (opts.llm.mode == Mode::always) {
      // `always` judges the model's IR alone: without it there is nothing to judge.
      llm_unusable = true;
      for (auto& d : diagrams)
        for (auto& dd : d.diagnostics) diags.push_back(std::move(dd));
      diagrams.clear();
    }
  }

  for (auto& d : diagrams)
    for (const auto& dd : d.diagnostics) diags.push_back(dd);

  const auto& rules = checks::registry();
  all_verdicts(r, llm_unusable ? Verdict::indeterminate : Verdict::na);
  if (diagrams.empty() && !llm_unusable)
    diags.push_back(make_diag("no-picture", Severity::note, "no tikzpicture in this file; every rule is n/a"));

  for (const auto& diagram : diagrams) {
    checks::SceneCache scene(diagram);  // one Scene build shared by the rules of this diagram
    for (std::size_t i = 0; i < rules.size(); ++i) {
      const auto& rule = rules[i];
      if (!opts.selection.enabled(rule.doc->name)) continue;  // not selected: n/a, never run
      checks::RuleResult res;
      try {
        res = rule.run(diagram, opts.config);
      } catch (const std::exception& e) {
        res.verdict = Verdict::indeterminate;
        diags.push_back(internal_error(("running rule " + rule.doc->name).c_str(), e.what()));
      }
      bool had_findings = false, kept_findings = false;
      for (auto& f : res.findings) {
        bool finding = f.severity != Severity::note;
        had_findings |= finding;
        if (f.rule.empty()) f.rule = rule.doc->name;
        if (suppressions.suppresses(f)) continue;
        kept_findings |= finding;
        r.diagnostics.push_back(std::move(f));
      }
      // A rule whose every finding is suppressed passes (its reason was stated in the comment).
      if (res.verdict == Verdict::fail && had_findings && !kept_findings) res.verdict = Verdict::pass;
      r.verdicts[i].second = worse(r.verdicts[i].second, res.verdict);
    }
  }

  if (opts.spec && opts.selection.enabled(spec::doc().name)) {
    stage = "checking the spec";
    // rule verdicts only: the spec's own slot follows them
    std::vector<std::pair<std::string, Verdict>> rule_verdicts(r.verdicts.begin(), r.verdicts.begin() + rules.size());
    SourceRange first_picture = doc.pictures.empty() ? SourceRange{} : doc.pictures.front().range;
    spec::Outcome o = spec::evaluate(*opts.spec, diagrams, rule_verdicts, opts.config, &sm, first_picture);
    bool had = false, kept = false;
    for (auto& f : o.findings) {
      bool finding = f.severity != Severity::note;
      had |= finding;
      if (suppressions.suppresses(f)) continue;
      kept |= finding;
      r.diagnostics.push_back(std::move(f));
    }
    if (o.verdict == Verdict::fail && had && !kept) o.verdict = Verdict::pass;
    r.verdicts[rules.size()].second = o.verdict;
  }

  if (opts.selection.enabled(compile::doc().name)) {
    bool had = false, kept = false;
    for (auto& f : compiled.findings) {
      bool finding = f.severity != Severity::note;
      had |= finding;
      if (suppressions.suppresses(f)) continue;
      kept |= finding;
      r.diagnostics.push_back(std::move(f));
    }
    if (compiled.verdict == Verdict::fail && had && !kept) compiled.verdict = Verdict::pass;
    r.verdicts[rules.size() + 1].second = compiled.verdict;
  }

  group_repeats(diags);
  for (auto& d : diags)
    if (!suppressions.suppresses(d)) r.diagnostics.push_back(std::move(d));
  for (auto& d : suppressions.report(opts.selection)) r.diagnostics.push_back(std::move(d));
  // --select / --ignore: what is not selected is not reported (rules were not even run).
  if (!opts.selection.everything())
    std::erase_if(r.diagnostics, [&](const Diagnostic& d) { return !opts.selection.enabled(d.rule); });
  if (opts.keep_ir) r.diagrams = std::move(diagrams);
}

}  // namespace

std::optional<std::string> apply_config(CheckOptions& opts, const std::vector<const Settings*>& layers) {
  std::optional<std::string> spec_path;
  for (const Settings* s : layers) {
    opts.selection.add(s->selection);
    for (const auto& [key, value] : s->thresholds) opts.config.set(key, value);
    opts.frontend.include_dirs.insert(opts.frontend.include_dirs.end(), s->include_dirs.begin(), s->include_dirs.end());
    if (s->spec) spec_path = s->spec;
  }
  return spec_path;
}

bool FileReport::fails() const {
  if (status != FileStatus::checked) return true;
  for (const auto& [name, v] : verdicts)
    if (v == Verdict::fail) return true;
  for (const auto& d : diagnostics)
    if (d.severity == Severity::error) return true;
  return false;
}

namespace {

ReadResult read_result(const std::string& path, FileText in, std::size_t limit) {
  ReadResult r;
  auto cannot = [&](const std::string& why) {
    r.problem = make_diag("unreadable-file", Severity::error, "cannot read '" + path + "': " + why);
  };
  switch (in.status) {
    case FileText::Status::ok:
      r.text = std::move(in.text);
      break;
    case FileText::Status::missing:
      cannot("no such file or directory");
      break;
    case FileText::Status::directory:
      cannot("is a directory");
      break;
    case FileText::Status::unreadable:
      cannot(in.error ? std::strerror(in.error) : "open failed");
      break;
    case FileText::Status::read_error:
      cannot("read error");
      break;
    case FileText::Status::too_large:
      cannot("larger than the input limit");
      r.problem.evidence = {{"limit_bytes", limit}, {"unit", "bytes"}};
      if (in.size > 0) r.problem.evidence["measured_bytes"] = in.size;
      r.problem.notes.push_back({"the limit is tex::Limits::max_input_bytes", {}});
      break;
  }
  return r;
}

// Everything after reading: `read` is the text of `path`, or why it could not be read.
FileReport check_read(const std::string& path, const CheckOptions& opts,
                      const std::function<ReadResult()>& read) {
  auto start = std::chrono::steady_clock::now();
  FileReport r;
  r.path = path;
  const char* stage = "reading the file";
  try {
    ReadResult in = read();
    if (!in.text) {
      r.status = FileStatus::unreadable;
      all_verdicts(r, Verdict::indeterminate);
      r.diagnostics.push_back(std::move(in.problem));
    } else {
      auto sm = std::make_shared<SourceManager>();
      r.file = sm->add(path, std::move(*in.text));
      r.sources = sm;
      try {
        run_pipeline(r, *sm, opts, stage);
      } catch (const std::exception& e) {
        r.status = FileStatus::failed;
        r.diagnostics.push_back(internal_error(stage, e.what()));
      } catch (...) {
        r.status = FileStatus::failed;
        r.diagnostics.push_back(internal_error(stage, "unknown exception"));
      }
      if (r.status == FileStatus::failed) all_verdicts(r, Verdict::indeterminate);
      sort_diagnostics(r);
    }
  } catch (const std::exception& e) {  // e.g. bad_alloc while reading
    r.status = FileStatus::failed;
    all_verdicts(r, Verdict::indeterminate);
    r.diagnostics.push_back(internal_error(stage, e.what()));
  }
  r.elapsed_us = std::chrono::duration_cast<std::chrono::microseconds>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace

FileReport check_file(const std::string& path, const CheckOptions& opts) {
  const std::size_t limit = opts.frontend.limits.max_input_bytes;
  if (path == "-" && opts.standard_input) {
    const StandardInput& in = *opts.standard_input;
    return check_read(in.name, opts, [&] { return read_result(in.name, in.text, limit); });
  }
  return check_read(path, opts, [&] { return read_input(path, limit); });
}

FileReport check_source(const std::string& name, std::string text, const CheckOptions& opts) {
  const std::size_t limit = opts.frontend.limits.max_input_bytes;
  return check_read(name, opts, [&] {
    FileText t;
    if (text.size() > limit) {
      t.status = FileText::Status::too_large;
      t.size = text.size();
    } else {
      t.text = std::move(text);
    }
    return read_result(name, std::move(t), limit);
  });
}

void check_files(const std::vector<std::string>& paths, const CheckOptions& opts, unsigned jobs,
                 const std::function<void(FileReport&&)>& emit) {
  auto shared = std::shared_ptr<const CheckOptions>(&opts, [](const CheckOptions*) {});  // not owned
  check_files(paths, std::vector<std::shared_ptr<const CheckOptions>>(paths.size(), shared), jobs, emit);
}

void check_files(const std::vector<std::string>& paths, const std::vector<std::shared_ptr<const CheckOptions>>& opts,
                 unsigned jobs, const std::function<void(FileReport&&)>& emit) {
  if (jobs == 0) jobs = std::max(1u, std::thread::hardware_concurrency());
  jobs = static_cast<unsigned>(std::min<std::size_t>(jobs, paths.size()));
  if (jobs <= 1) {
    for (std::size_t i = 0; i < paths.size(); ++i) emit(check_file(paths[i], *opts[i]));
    return;
  }
  // Reports wait in `slots` until every earlier one is written. A worker starts a file only
  // while it is less than `window` files ahead of the writer, so behind one slow file at most
  // `window` finished reports (with their sources) are held, however long the batch.
  const std::size_t window = kReorderWindowPerJob * jobs;
  std::vector<std::optional<FileReport>> slots(paths.size());
  std::mutex m;
  std::condition_variable ready;    // a slot was filled
  std::condition_variable advanced;  // the writer moved on
  std::size_t written = 0;          // guarded by m
  std::atomic<std::size_t> next{0};
  {
    std::vector<std::jthread> workers;
    for (unsigned t = 0; t < jobs; ++t)
      workers.emplace_back([&] {
        for (std::size_t i = next++; i < paths.size(); i = next++) {
          {
            std::unique_lock lock(m);
            advanced.wait(lock, [&] { return i < written + window; });
          }
          FileReport rep = check_file(paths[i], *opts[i]);
          std::lock_guard lock(m);
          slots[i] = std::move(rep);
          ready.notify_all();
        }
      });
    // Print in input order while later files are still being checked.
    for (std::size_t i = 0; i < paths.size(); ++i) {
      FileReport rep;
      {
        std::unique_lock lock(m);
        ready.wait(lock, [&] { return slots[i].has_value(); });
        rep = std::move(*slots[i]);
        slots[i].reset();
        written = i + 1;
      }
      advanced.notify_all();
      emit(std::move(rep));
    }
  }
}

std::vector<std::string> collect_inputs(const std::vector<std::string>& operands,
                                        std::vector<std::string>& warnings) {
  std::vector<std::string> out;
  for (const auto& op : operands) {
    std::error_code ec;
    if (!fs::is_directory(op, ec)) {
      out.push_back(op);  // a missing file is reported when it is read
      continue;
    }
    std::vector<std::string> found;
    try {
      for (auto it = fs::recursive_directory_iterator(op, fs::directory_options::skip_permission_denied, ec);
           !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        std::error_code ec2;
        if (it->path().extension() == ".tex" && !it->is_directory(ec2)) found.push_back(it->path().string());
      }
    } catch (const fs::filesystem_error& e) {
      warnings.push_back("while listing '" + op + "': " + e.what());
    }
    if (ec) warnings.push_back("while listing '" + op + "': " + ec.message());
    std::sort(found.begin(), found.end());
    if (found.empty()) warnings.push_back("no .tex file under '" + op + "'");
    out.insert(out.end(), found.begin(), found.end());
  }
  return out;
}

void ExitTally::add(const FileReport& r) {
  if (r.status == FileStatus::unreadable) any_unreadable = true;
  if (r.fails()) any_failing = true;
}

}  // namespace tikzlint::cli
