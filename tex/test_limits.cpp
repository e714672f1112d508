// tex/test_limits.cpp: every budget of tex::Limits ends in a located error and a graceful
// stop, never a hang (issue 8's hostile inputs).
#include <doctest/doctest.h>

#include <chrono>
#include <random>

#include "tex/test_support.hpp"

using namespace tikzlint;
using namespace tikzlint::tex;
using testing::expand;
using testing::picture;

namespace {
// The diagnostic for `rule`, checked to be a located error.
const Diagnostic& located_error(const testing::Run& r, const std::string& rule) {
  const Diagnostic* d = r.find(rule);
  REQUIRE_MESSAGE(d != nullptr, "no " << rule << " diagnostic");
  CHECK(d->severity == Severity::error);
  CHECK(d->range.valid);
  return *d;
}
}  // namespace

// Not a speed measurement (bench/ measures speed): a ceiling that the unbounded work these limits
// prevent (10^10 loop iterations, exponential macros) would pass by orders of magnitude, loose
// enough that a loaded CI machine or a sanitizer build never trips it. What "refused at once"
// means is checked by what ran: no statement of a refused loop is emitted.
constexpr double kHangGuardMs = 20000;

TEST_CASE("max_input_bytes: a larger input is refused before reading") {
  FrontendOptions opts;
  opts.limits.max_input_bytes = 64;
  auto r = expand(std::string(200, 'x'), opts);
  const Diagnostic& d = located_error(r, "expansion-limit");
  CHECK(d.evidence["name"] == "max_input_bytes");
  CHECK(r.doc.pictures.empty());
}

TEST_CASE("max_macro_depth: \\def\\a{\\a}\\a and \\def\\a{\\a\\a}\\a stop at once") {
  for (std::string src : {"\\def\\a{\\a}\\a", "\\def\\a{\\a\\a}\\a", "\\def\\a#1{\\a{#1}}\\a{x}"}) {
    auto start = std::chrono::steady_clock::now();
    auto r = expand(src);
    auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    const Diagnostic& d = located_error(r, "expansion-limit");
    CHECK(d.evidence["name"] == "max_macro_depth");
    CHECK(d.range.begin == src.rfind("\\a"));
    CHECK(ms < kHangGuardMs);
  }
}

TEST_CASE("max_expansion_steps: many expansions in a row") {
  FrontendOptions opts;
  opts.limits.max_expansion_steps = 50;
  auto r = picture("\\def\\b{1}\\foreach \\i in {1,...,100} {\\draw (\\b,0);}", opts);
  const Diagnostic& d = located_error(r, "expansion-limit");
  CHECK(d.evidence["name"] == "max_expansion_steps");
}

TEST_CASE("max_token_count: an argument that doubles at every step") {
  FrontendOptions opts;
  opts.limits.max_token_count = 10000;
  opts.limits.max_macro_depth = 100000;
  auto r = expand("\\def\\a#1{\\a{#1#1}}\\a{x}", opts);
  const Diagnostic& d = located_error(r, "expansion-limit");
  CHECK(d.evidence["name"] == "max_token_count");
}

TEST_CASE("max_loop_iterations: \\foreach over 10^9 items is refused up front") {
  auto start = std::chrono::steady_clock::now();
  auto r = picture("\\foreach \\i in {1,...,1000000000} {\\draw (\\i,0) -- (0,0);}");
  auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  const Diagnostic& d = located_error(r, "expansion-limit");
  CHECK(d.evidence["name"] == "max_loop_iterations");
  CHECK(d.range.begin == r.input.find("\\foreach"));
  CHECK(r.texts().empty());
  CHECK(ms < kHangGuardMs);
  FrontendOptions opts;
  opts.limits.max_loop_iterations = 3;
  auto listed = picture("\\foreach \\i in {1,2,3,4} {\\draw (\\i,0);}", opts);
  CHECK(located_error(listed, "expansion-limit").evidence["name"] == "max_loop_iterations");
  auto zero_step = picture("\\foreach \\i in {1,1,...,5} {\\draw (\\i,0);}");
  CHECK(zero_step.has("expansion-limit"));
}

TEST_CASE("max_loop_work: nested loops are refused by their product before they run") {
  FrontendOptions opts;
  opts.limits.max_loop_work = 50;
  auto r = picture("\\foreach \\i in {1,...,10} {\\foreach \\j in {1,...,10} {\\draw (\\i,\\j);}}", opts);
  const Diagnostic& d = located_error(r, "expansion-limit");
  CHECK(d.evidence["name"] == "max_loop_work");
  CHECK(d.evidence["work"] == 100);
  CHECK(r.texts().empty());  // refused before the first inner iteration
  // iterations x statements: 10 iterations of 6 statements
  auto wide = picture("\\foreach \\i in {1,...,10} {\\draw (0,0);\\draw (1,0);\\draw (2,0);\\draw (3,0);"
                      "\\draw (4,0);\\draw (5,0);}",
                      opts);
  CHECK(located_error(wide, "expansion-limit").evidence["work"] == 60);
  // within the budget: 7 x 7 runs
  auto fits = picture("\\foreach \\i in {1,...,7} {\\foreach \\j in {1,...,7} {\\draw (\\i,\\j);}}", opts);
  CHECK(!fits.has("expansion-limit"));
  CHECK(fits.texts().size() == 49);
  // loops one after another, each within it, share it
  auto serial = picture("\\foreach \\i in {1,...,40} {\\draw (\\i,0);}\\foreach \\i in {1,...,40} {\\draw (\\i,1);}", opts);
  CHECK(located_error(serial, "expansion-limit").evidence["name"] == "max_loop_work");
}

TEST_CASE("max_loop_work: 10^5 x 10^5 nested loops are refused at once, with one diagnostic") {
  auto start = std::chrono::steady_clock::now();
  auto r = picture("\\foreach \\i in {1,...,100000} {\\foreach \\j in {1,...,100000} {\\draw (\\i,\\j) -- (0,0);}}");
  auto ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  CHECK(located_error(r, "expansion-limit").evidence["name"] == "max_loop_work");
  CHECK(r.doc.diagnostics.size() <= 3);
  CHECK(r.texts().empty());
  CHECK(ms < kHangGuardMs);
}

TEST_CASE("max_nesting_depth: 10,000 nested braces in a statement, a group, an argument") {
  std::string deep = std::string(10000, '{') + std::string(10000, '}');
  auto in_node = picture("\\node {" + deep + "};");
  CHECK(located_error(in_node, "expansion-limit").evidence["name"] == "max_nesting_depth");
  auto groups = picture(std::string(10000, '{') + "\\draw (0,0);" + std::string(10000, '}'));
  CHECK(located_error(groups, "expansion-limit").evidence["name"] == "max_nesting_depth");
  auto arg = picture("\\def\\a#1{#1}\\a" + deep);
  CHECK(located_error(arg, "expansion-limit").evidence["name"] == "max_nesting_depth");
}

TEST_CASE("max_statement_bytes: one huge statement") {
  FrontendOptions opts;
  opts.limits.max_statement_bytes = 200;
  std::string path = "\\draw (0,0)";
  for (int i = 0; i < 100; ++i) path += " -- (1,1)";
  auto r = picture(path + ";", opts);
  CHECK(located_error(r, "expansion-limit").evidence["name"] == "max_statement_bytes");
}

TEST_CASE("unterminated environment, brace, option list, statement, definition") {
  auto env = expand("\\begin{tikzpicture}\\draw (0,0) -- (1,1);\n");
  CHECK(located_error(env, "unterminated").range.begin == 0);
  CHECK(env.texts().size() == 1);  // what was read is kept
  auto brace = expand("\\begin{tikzpicture}\\node {abc;\n\\end{tikzpicture}\n");
  CHECK(brace.has("unterminated"));
  auto options = expand("\\begin{tikzpicture}[scale=2\n\\draw (0,0);\n\\end{tikzpicture}\n");
  CHECK(located_error(options, "unterminated").range.begin == std::string("\\begin{tikzpicture}").size());
  auto statement = expand("\\begin{tikzpicture}\\draw (0,0) -- (1,1)\n\\end{tikzpicture}\n");
  CHECK(statement.has("syntax-error"));
  CHECK(statement.texts().size() == 1);
  auto def = expand("\\def\\a#1");
  CHECK(def.has("unterminated"));
  auto arg = expand("\\def\\a#1{#1}\\begin{tikzpicture}\\draw \\a");
  CHECK(arg.has("unterminated"));
  auto tikz = expand("\\tikz{\\draw (0,0);");
  CHECK(tikz.has("unterminated"));
}

TEST_CASE("binary junk and invalid UTF-8 are reported, never a crash") {
  std::mt19937 rng(42);
  std::string junk;
  for (int i = 0; i < 20000; ++i) junk += static_cast<char>(rng() & 0xFF);
  auto r = expand(junk);
  CHECK(r.has("syntax-error"));
  auto bad = picture("\\node {\xFF\xFE caf\xC3\xA9};");
  const Diagnostic& d = located_error(bad, "syntax-error");
  CHECK(d.range.begin == bad.input.find('\xFF'));
  REQUIRE(bad.texts().size() == 1);
  CHECK(bad.texts()[0].find("caf\xC3\xA9") != std::string::npos);
  // Random junk wrapped in a picture, with TeX specials sprinkled in.
  std::string specials = "{}[]();\\#%$&~^_";
  for (int round = 0; round < 50; ++round) {
    std::string s = "\\begin{tikzpicture}";
    for (int i = 0; i < 300; ++i) {
      auto c = rng() % 3;
      s += c == 0 ? specials[rng() % specials.size()] : c == 1 ? static_cast<char>('a' + rng() % 26) : ' ';
    }
    auto fuzz = expand(s + "\\def\\x#1#2{#2#1}\\foreach \\i in {1,2} \\x;");
    (void)fuzz;
  }
}

TEST_CASE("a file that \\input's itself stops at a nesting limit") {
  auto dir = testing::make_dir("self", {{"self.tex", "\\input{self}\n"}});
  SourceManager sm;
  FileId id = sm.add((dir / "main.tex").string(), "\\input{self}\\begin{tikzpicture}\\draw (0,0);\\end{tikzpicture}");
  auto doc = expand_file(sm, id, {});
  bool limit = false;
  for (const auto& d : doc.diagnostics) limit = limit || (d.rule == "expansion-limit" && d.severity == Severity::error);
  CHECK(limit);
  CHECK(sm.size() < 64);
}
