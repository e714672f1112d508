// bench/llm/bench_llm.cpp: runs the LLM fallback over a folder of .tex files and prints latency
// and token use per diagram, then p50/p90 and totals. Driven by bench/llm/run.
// Usage: tikzlint_llm_bench [--cache DIR] [--jobs N] [--timeout-ms N] FOLDER_OR_FILE...
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <future>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include "backtranslate/backtranslate.hpp"

namespace fs = std::filesystem;
namespace bt = tikzlint::backtranslate;

namespace {

struct Row {
  std::string file;
  double latency_ms = 0;
  long long prompt_tokens = 0, completion_tokens = 0;
  int retries = 0;
  bool cached = false;
  std::string result;  // "ok" or the diagnostic code
  std::size_t elements = 0, nodes = 0;
};

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  // Nearest rank: the smallest value with at least p of the data at or below it.
  std::size_t rank = static_cast<std::size_t>(std::ceil(p * v.size()));
  return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

std::string read_file(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

}  // namespace

int main(int argc, char** argv) {
  bt::Settings settings;
  settings.mode = bt::Mode::always;
  int jobs = 1;
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--cache" && i + 1 < argc) settings.cache_dir = argv[++i];
    else if (a == "--jobs" && i + 1 < argc) jobs = std::max(1, std::atoi(argv[++i]));
    else if (a == "--timeout-ms" && i + 1 < argc) settings.timeout_ms = std::atoi(argv[++i]);
    else inputs.emplace_back(a);
  }
  bt::apply_environment(settings);
  if (settings.base_url.empty() || settings.model.empty()) {
    std::cout << "no LLM endpoint configured (set TIKZLINT_LLM_BASE_URL and TIKZLINT_LLM_MODEL); "
                 "nothing to measure\n";
    return 0;
  }
  settings.max_concurrency = jobs;

  std::vector<fs::path> files;
  for (const auto& in : inputs) {
    std::error_code ec;
    if (fs::is_directory(in, ec)) {
      for (const auto& e : fs::recursive_directory_iterator(in, ec))
        if (e.is_regular_file() && e.path().extension() == ".tex") files.push_back(e.path());
    } else if (fs::is_regular_file(in, ec)) {
      files.push_back(in);
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) {
    std::cout << "no .tex files found\n";
    return 0;
  }

  std::vector<Row> rows(files.size());
  auto run_one = [&](std::size_t i) {
    Row& r = rows[i];
    r.file = files[i].string();
    bt::Outcome out = bt::translate(read_file(files[i]), 0, settings);
    r.latency_ms = out.stats.value("latency_ms", 0.0);
    r.prompt_tokens = out.stats.value("prompt_tokens", 0LL);
    r.completion_tokens = out.stats.value("completion_tokens", 0LL);
    r.retries = out.stats.value("retries", 0);
    r.cached = out.stats.value("cached", false);
    r.result = out.diagnostics.empty() ? "ok" : out.diagnostics.front().rule;
    if (out.diagram) {
      r.elements = out.diagram->elements.size();
      r.nodes = out.diagram->nodes.size();
    }
  };
  // Workers pull indices in order; translate() itself enforces the concurrency limit.
  std::atomic<std::size_t> next{0};
  std::vector<std::future<void>> workers;
  for (int w = 0; w < jobs; ++w)
    workers.push_back(std::async(std::launch::async, [&] {
      for (std::size_t i = next++; i < files.size(); i = next++) run_one(i);
    }));
  for (auto& w : workers) w.get();

  std::printf("%-48s %10s %8s %8s %7s %6s %s\n", "file", "latency_ms", "prompt", "complet.",
              "retries", "cached", "result");
  std::vector<double> lat;
  long long total_prompt = 0, total_completion = 0;
  double total_ms = 0;
  int ok = 0;
  for (const auto& r : rows) {
    std::printf("%-48s %10.1f %8lld %8lld %7d %6s %s (%zu elements, %zu nodes)\n", r.file.c_str(),
                r.latency_ms, r.prompt_tokens, r.completion_tokens, r.retries,
                r.cached ? "yes" : "no", r.result.c_str(), r.elements, r.nodes);
    if (!r.cached) lat.push_back(r.latency_ms);
    total_prompt += r.prompt_tokens;
    total_completion += r.completion_tokens;
    total_ms += r.latency_ms;
    ok += r.result == "ok";
  }
  std::printf("\ndiagrams %zu, usable %d, model %s\n", rows.size(), ok, settings.model.c_str());
  std::printf("latency (uncached requests) p50 %.1f ms, p90 %.1f ms, sum %.1f ms\n",
              percentile(lat, 0.5), percentile(lat, 0.9), total_ms);
  std::printf("tokens prompt %lld, completion %lld, total %lld\n", total_prompt, total_completion,
              total_prompt + total_completion);
  return 0;
}
