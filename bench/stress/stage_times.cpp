// bench/stress/stage_times.cpp: time each pipeline stage per file (the CLI reports only the
// total elapsed_us). Built by bench/stress/run against a Release build's libraries.
// Prints one JSON line per file: read, expand, lower, each rule (summed over the file's pictures),
// all in microseconds of this thread's CPU time (robust on a loaded machine), best of REPEAT
// runs, plus element counts. The files of one run share the class cache, like a CLI batch.
// "total_us" is the whole check (read, compile readiness, expand, lower, every rule: what the CLI
// does) timed as one interval, in REPEAT runs of their own, and "total_without_compile_us" the
// same without the compile-readiness rule (issue 19: what that rule costs), in REPEAT more: the thread CPU clock is a system call (~0.5 us), and the thirteen intervals of a
// staged run count about that much each, which the time to check a diagram does not include.
//   usage: stage_times FILE... [--include-dir DIR]... [--repeat N]
#include <time.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <limits>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "checks/check.hpp"
#include "checks/compile/compiles.hpp"
#include "checks/scene.hpp"
#include "ir/ir.hpp"
#include "packages/registry.hpp"
#include "support/read_file.hpp"
#include "support/source.hpp"
#include "tex/tex.hpp"

using namespace tikzlint;

namespace {

// CPU time of the calling thread: a busy machine stretches wall time, not this.
struct Clock {
  using time_point = double;
  static double now() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) / 1e3;
  }
};

double us_since(Clock::time_point t) { return Clock::now() - t; }

// The folders the compile-readiness rule looks in for the file's own packages, as the CLI's
// (cli/driver.cpp): the file's folder, then the include dirs.
std::vector<std::string> package_dirs(const std::string& path, const tex::FrontendOptions& opts) {
  std::string folder = std::filesystem::path(path).parent_path().string();
  std::vector<std::string> dirs;
  dirs.push_back(folder.empty() ? std::string(".") : folder);
  dirs.insert(dirs.end(), opts.include_dirs.begin(), opts.include_dirs.end());
  return dirs;
}

// The file into `sm`, as the CLI reads it (support/read_file, with the same limit).
FileId read_into(SourceManager& sm, const std::string& path, std::size_t limit) {
  FileText in = read_file(path, limit);
  return sm.add(path, std::move(in.text));
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> paths;
  tex::FrontendOptions opts;
  int repeat = 3;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--include-dir" && i + 1 < argc) opts.include_dirs.push_back(argv[++i]);
    else if (a == "--repeat" && i + 1 < argc) repeat = std::max(1, std::stoi(argv[++i]));
    else paths.push_back(a);
  }
  if (paths.empty()) {
    std::fprintf(stderr, "usage: stage_times FILE [--include-dir DIR]... [--repeat N]\n");
    return 2;
  }
  std::vector<std::map<std::string, double>> best_of(paths.size());
  std::vector<nlohmann::ordered_json> counts_of(paths.size());
  std::vector<std::map<std::string, std::size_t>> findings_of(paths.size());
  std::vector<double> best_total(paths.size(), std::numeric_limits<double>::infinity());
  std::vector<double> best_without_compile(paths.size(), std::numeric_limits<double>::infinity());
  for (int run = 0; run < 3 * repeat; ++run) {
    // staged runs, whole-check runs and whole-check runs without compile readiness alternate
    const bool staged = run % 3 == 0, with_compile = run % 3 == 1;
    opts.cache = tex::make_expansion_cache();  // shared by this run's files, like one CLI batch
    for (std::size_t fi = 0; fi < paths.size(); ++fi) {
      if (!staged) {  // the same work as below, one interval
        const std::string& path = paths[fi];
        auto t = Clock::now();
        SourceManager sm;
        FileId id = read_into(sm, path, opts.limits.max_input_bytes);
        std::size_t compile_findings = 0;
        if (with_compile) compile_findings = compile::evaluate(sm, id, package_dirs(path, opts), checks::Config{}).findings.size();
        tex::ExpandedDocument doc = tex::expand_file(sm, id, opts);
        std::vector<ir::Diagram> diagrams = ir::lower(doc, sm, packages::all());
        checks::Config config;
        std::vector<std::unique_ptr<checks::SceneCache>> caches;
        for (const auto& d : diagrams) {
          caches.push_back(std::make_unique<checks::SceneCache>(d));
          checks::Scene warm(d);
        }
        std::size_t sink = 0;
        for (const auto& rule : checks::registry())
          for (const auto& d : diagrams) sink += rule.run(d, config).findings.size();
        double us = us_since(t);
        auto& best = with_compile ? best_total[fi] : best_without_compile[fi];
        best = std::min(best, us);
        while (!caches.empty()) caches.pop_back();
        if (sink + compile_findings == static_cast<std::size_t>(-1)) std::printf("\n");  // keeps the results used
        continue;
      }
      const std::string& path = paths[fi];
      auto& best = best_of[fi];
      auto& counts = counts_of[fi];
      auto& findings = findings_of[fi];
      auto keep = [&](const std::string& k, double us) {
        auto [it, fresh] = best.emplace(k, us);
        if (!fresh) it->second = std::min(it->second, us);
      };
      auto t = Clock::now();
      SourceManager sm;
      FileId id = read_into(sm, path, opts.limits.max_input_bytes);
      keep("read", us_since(t));

      t = Clock::now();
      std::size_t compile_findings = compile::evaluate(sm, id, package_dirs(path, opts), checks::Config{}).findings.size();
      keep("compile", us_since(t));
      if (run == 0) findings["compiles"] += compile_findings;

      t = Clock::now();
      tex::ExpandedDocument doc = tex::expand_file(sm, id, opts);
      keep("expand", us_since(t));

      t = Clock::now();
      std::vector<ir::Diagram> diagrams = ir::lower(doc, sm, packages::all());
      keep("lower", us_since(t));

      checks::Config config;
      // Like the CLI: one Scene per diagram, shared by its rules (timed as "scene").
      std::vector<std::unique_ptr<checks::SceneCache>> caches;
      double scene_us = 0;
      for (const auto& d : diagrams) {
        caches.push_back(std::make_unique<checks::SceneCache>(d));
        t = Clock::now();
        checks::Scene warm(d);
        scene_us += us_since(t);
      }
      keep("scene", scene_us);
      double all_rules = scene_us;
      for (const auto& rule : checks::registry()) {
        double sum = 0;
        for (const auto& d : diagrams) {
          t = Clock::now();
          auto res = rule.run(d, config);
          sum += us_since(t);
          if (run == 0) findings[rule.doc->name] += res.findings.size();  // a staged run
        }
        keep("rule_" + rule.doc->name, sum);
        all_rules += sum;
      }
      keep("rules_total", all_rules);
      while (!caches.empty()) caches.pop_back();  // innermost first
      if (run == 0) {
        std::size_t statements = 0, elements = 0, nodes = 0, errors = 0;
        for (const auto& p : doc.pictures) statements += p.statements.size();
        for (const auto& d : diagrams) {
          elements += d.elements.size();
          nodes += d.nodes.size();
          for (const auto& dg : d.diagnostics) errors += dg.severity == Severity::error;
        }
        for (const auto& dg : doc.diagnostics) {
          if (dg.severity != Severity::error) continue;
          if (errors++ == 0) counts["first_error"] = dg.rule + ": " + dg.message;
        }
        counts["bytes"] = sm.get(id).text().size();
        counts["statements"] = statements;
        counts["elements"] = elements;
        counts["nodes"] = nodes;
        counts["errors"] = errors;
      }
    }
  }
  for (std::size_t fi = 0; fi < paths.size(); ++fi) {
    nlohmann::ordered_json out;
    out["file"] = paths[fi];
    out["counts"] = counts_of[fi];
    out["findings"] = findings_of[fi];
    for (const auto& [k, v] : best_of[fi]) out["us"][k] = v;
    out["total_us"] = best_total[fi];
    out["total_without_compile_us"] = best_without_compile[fi];
    std::printf("%s\n", out.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace).c_str());
  }
  return 0;
}
