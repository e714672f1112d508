// fuzz/fuzz_pipeline.cpp: libFuzzer entry point for the whole pipeline on arbitrary bytes.
// The input goes through cli::check_file, the function the CLI runs per file (read, expand,
// lower, every rule), then through the jsonl, text and SARIF reporters and the IR's JSON/SVG.
// Beyond "no crash, no sanitizer report", it aborts when a documented contract breaks:
// check_file never reports an internal error, and every report serialises.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "cli/driver.hpp"
#include "cli/output.hpp"
#include "ir/ir.hpp"

using namespace tikzlint;

namespace {

// One scratch file per fuzzing process: check_file reads paths, exactly like the CLI.
const std::string& scratch_path() {
  static const std::string path = [] {
    const char* dir = std::getenv("TMPDIR");
    std::string p = std::string(dir && *dir ? dir : "/tmp") + "/tikzlint-fuzz-" + std::to_string(getpid()) + ".tex";
    std::atexit([] { std::remove(scratch_path().c_str()); });
    return p;
  }();
  return path;
}

void render(cli::Format f, const cli::FileReport& r) {
  std::ostringstream out;
  auto reporter = cli::make_reporter(f, out, cli::ToolInfo{});
  reporter->file(r);
  reporter->finish();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  {
    std::ofstream f(scratch_path(), std::ios::binary | std::ios::trunc);
    f.write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  }
  cli::CheckOptions opts;
  opts.keep_ir = true;
  opts.frontend.cache = tex::make_expansion_cache();  // no state carried between inputs
  // Budgets a fiftieth of the defaults (2,000 iterations per \foreach, 4,000 per file...): an
  // input that runs into one (the hostile fixtures among the seeds run 200,000 iterations, or
  // 5,000 dense labelled arcs) must end well within libFuzzer's timeout under ASan. The default
  // values themselves are exercised by fixtures/hostile/.
  tex::Limits& lim = opts.frontend.limits;
  lim.max_expansion_steps /= 50;
  lim.max_token_count /= 50;
  lim.max_loop_iterations /= 50;
  lim.max_loop_work /= 50;
  cli::FileReport r = cli::check_file(scratch_path(), opts);

  for (const auto& d : r.diagnostics)
    if (d.rule == "internal-error") {
      std::fprintf(stderr, "internal error: %s\n", d.message.c_str());
      std::abort();  // an exception escaped a stage: a bug, reported as a crash
    }
  if (r.status != cli::FileStatus::checked) std::abort();  // the bytes were readable
  if (r.verdicts.empty()) std::abort();

  render(cli::Format::jsonl, r);
  render(cli::Format::text, r);
  render(cli::Format::sarif, r);
  for (const auto& d : r.diagrams) {
    // As `tikzlint ir` prints it: node texts may hold invalid UTF-8, replaced on output.
    (void)ir::to_json(d, *r.sources).dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
    (void)ir::to_svg(d, r.diagnostics);
  }
  return 0;
}
