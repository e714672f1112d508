// bench/stress/compile_times.cpp: the compile-readiness rule alone (compile::evaluate), per file, best of
// ROUNDS rounds, in thread CPU time; --pollute MB touches a buffer of that size between files, as
// the rest of the pipeline evicts the rule's code and data from the caches. Prints p50 and mean.
// Built by bench/stress/ab --build (linked like tikzlint). Use with callgrind:
//   valgrind --tool=callgrind --toggle-collect='tikzlint::compile::evaluate*' compile_times --rounds 2 FILE...
//   usage: compile_times [--rounds N] [--pollute MB] [--include-dir DIR]... FILE...
#include <time.h>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>
#include "checks/check.hpp"
#include "checks/compile/compiles.hpp"
#include "checks/compile/catalog.hpp"
#include "support/read_file.hpp"
#include "support/source.hpp"
using namespace tikzlint;
static double now() { timespec ts{}; clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts); return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3; }
int main(int argc, char** argv) {
  std::vector<std::string> paths, inc; int rounds = 5; std::size_t pollute = 0;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--include-dir") inc.push_back(argv[++i]);
    else if (a == "--rounds") rounds = std::stoi(argv[++i]);
    else if (a == "--pollute") pollute = std::stoul(argv[++i]) << 20;
    else paths.push_back(a);
  }
  compile::Catalog::get();  // built once per process: not timed
  std::vector<char> junk(pollute ? pollute : 1, 1);
  std::vector<double> best(paths.size(), 1e18);
  std::size_t sink = 0;
  for (int r = 0; r < rounds; ++r)
    for (std::size_t fi = 0; fi < paths.size(); ++fi) {
      if (pollute) for (std::size_t k = 0; k < junk.size(); k += 64) junk[k] += (char)k, sink += junk[k];
      SourceManager sm;
      FileText in = read_file(paths[fi], 1 << 24);
      FileId id = sm.add(paths[fi], std::move(in.text));
      std::vector<std::string> dirs{std::filesystem::path(paths[fi]).parent_path().string()};
      dirs.insert(dirs.end(), inc.begin(), inc.end());
      double t = now();
      auto o = compile::evaluate(sm, id, dirs, checks::Config{});
      best[fi] = std::min(best[fi], now() - t);
      sink += o.findings.size();
    }
  std::vector<double> s = best; std::sort(s.begin(), s.end());
  double mean = 0; for (double v : s) mean += v; mean /= s.size();
  std::printf("compile p50 %.1f us mean %.1f us (%zu files, %d rounds, pollute %zu MB) %zu\n", s[s.size() / 2], mean, s.size(), rounds, pollute >> 20, sink % 2);
}
