#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "cli/driver.hpp"
#include "cli/output.hpp"

using namespace tikzlint;
using namespace tikzlint::cli;

namespace {

// A report on a two-line file with one finding on "é" .. "B" of line 2.
FileReport sample_report() {
  auto sm = std::make_shared<SourceManager>();
  FileReport r;
  r.path = "dir/a,b:c.tex";
  r.file = sm->add(r.path, "\\begin{tikzpicture}\n\t\\node {\xC3\xA9" "AB};\n");
  r.sources = sm;
  for (const auto& rule : checks::registry()) r.verdicts.emplace_back(rule.doc->name, checks::Verdict::pass);
  Diagnostic d;
  d.rule = "in_frame";
  d.severity = Severity::warning;
  d.message = "label 'A' is 50% outside: see x,y";
  d.range = {r.file, 28, 31, true};  // bytes of "éA" (é is two bytes) on line 2
  d.evidence = {{"measured", 41.25}, {"limit", 12}, {"unit", "pt"}};
  d.notes.push_back({"the frame is the clip", {}});
  r.diagnostics.push_back(d);
  return r;
}

}  // namespace

TEST_CASE("locations are 1-based lines and code-point columns, end exclusive") {
  auto r = sample_report();
  Location loc = locate(r, r.diagnostics[0].range);
  REQUIRE(loc.valid);
  CHECK(loc.line == 2);
  CHECK(loc.col == 9);      // tab, \node, space, { = 8 code points before é
  CHECK(loc.end_col == 11); // é and A
  CHECK_FALSE(locate(r, SourceRange{}).valid);
}

TEST_CASE("text: clang-style header, source line, caret and tilde under the range, notes") {
  auto r = sample_report();
  std::string t = text_diagnostic(r, r.diagnostics[0]);
  std::istringstream in(t);
  std::string header, source, caret, evidence, note;
  std::getline(in, header);
  std::getline(in, source);
  std::getline(in, caret);
  std::getline(in, evidence);
  std::getline(in, note);
  CHECK(header == "dir/a,b:c.tex:2:9: warning: label 'A' is 50% outside: see x,y [in_frame]");
  CHECK(source == "\t\\node {\xC3\xA9" "AB};");
  CHECK(caret == "\t       ^~");  // the tab is kept so the caret lines up
  CHECK(evidence == "dir/a,b:c.tex:2:9: note: evidence: limit=12, measured=41.25, unit=pt");
  CHECK(note == "dir/a,b:c.tex: note: the frame is the clip");
}

TEST_CASE("text: the verdict line names failing and indeterminate rules") {
  auto r = sample_report();
  CHECK(text_verdict_line(r) == "dir/a,b:c.tex: verdict pass\n");
  r.verdicts[0].second = checks::Verdict::fail;
  r.verdicts[1].second = checks::Verdict::indeterminate;
  CHECK(text_verdict_line(r) == "dir/a,b:c.tex: verdict fail: " + r.verdicts[0].first +
                                    "; indeterminate: " + r.verdicts[1].first + "\n");
}

TEST_CASE("jsonl record has exactly the contract's keys, in order") {
  auto r = sample_report();
  auto j = report_json(r);
  std::vector<std::string> keys;
  for (auto it = j.begin(); it != j.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"file", "status", "verdicts", "diagnostics", "elapsed_us", "ir_source"});
  CHECK(j["status"] == "checked");
  CHECK(j["verdicts"].size() == checks::registry().size());
  auto d = j["diagnostics"][0];
  keys.clear();
  for (auto it = d.begin(); it != d.end(); ++it) keys.push_back(it.key());
  CHECK(keys == std::vector<std::string>{"rule", "severity", "message", "line", "col", "end_line", "end_col", "evidence"});
  CHECK(d["line"] == 2);
  CHECK(d["col"] == 9);
  CHECK(d["end_col"] == 11);
  CHECK(d["evidence"]["measured"] == 41.25);
  CHECK(d["evidence"]["notes"][0]["message"] == "the frame is the clip");
}

TEST_CASE("github: % CR LF escaped in data, also : and , in properties") {
  CHECK(github_escape_data("50% a:b,c\r\nd") == "50%25 a:b,c%0D%0Ad");
  CHECK(github_escape_property("50% a:b,c\r\nd") == "50%25 a%3Ab%2Cc%0D%0Ad");
  auto r = sample_report();
  CHECK(github_annotation(r, r.diagnostics[0]) ==
        "::warning file=dir/a%2Cb%3Ac.tex,line=2,col=9,endLine=2,endColumn=11,title=in_frame::"
        "label 'A' is 50%25 outside: see x,y%0Aevidence: limit=12, measured=41.25, unit=pt%0Anote: the frame is the clip\n");
}

TEST_CASE("sarif: uris are percent-encoded, absolute paths become file uris") {
  CHECK(sarif_uri("./dir/a b.tex") == "dir/a%20b.tex");
  CHECK(sarif_uri("/tmp/x%.tex") == "file:///tmp/x%25.tex");
}

TEST_CASE("sarif: one run, driver rules from the registry, every result located") {
  auto r = sample_report();
  r.diagnostics.push_back({"no-picture", Severity::note, "no tikzpicture", {}, nlohmann::json::object(), {}});
  std::ostringstream out;
  auto rep = make_reporter(Format::sarif, out, ToolInfo{"tikzlint", "1.2.3", "https://example.org"});
  rep->file(r);
  rep->finish();
  auto log = nlohmann::json::parse(out.str());
  CHECK(log["version"] == "2.1.0");
  CHECK(log["$schema"].get<std::string>().find("sarif") != std::string::npos);
  auto driver = log["runs"][0]["tool"]["driver"];
  CHECK(driver["name"] == "tikzlint");
  CHECK(driver["version"] == "1.2.3");
  std::set<std::string> ids;
  for (const auto& rule : driver["rules"]) {
    ids.insert(rule["id"]);
    CHECK(rule["shortDescription"]["text"].is_string());
    CHECK(rule["fullDescription"]["text"].is_string());
    CHECK(rule["help"]["text"].is_string());
  }
  for (const auto& rule : checks::registry()) CHECK(ids.count(rule.doc->name) == 1);
  auto results = log["runs"][0]["results"];
  REQUIRE(results.size() == 2);
  for (const auto& res : results) {
    CHECK(driver["rules"][res["ruleIndex"].get<std::size_t>()]["id"] == res["ruleId"]);
    auto pl = res["locations"][0]["physicalLocation"];
    CHECK(pl["artifactLocation"]["uri"] == "dir/a%2Cb%3Ac.tex");
    CHECK(pl["region"]["startLine"].get<int>() >= 1);
    CHECK(pl["region"]["startColumn"].get<int>() >= 1);
  }
  CHECK(results[0]["level"] == "warning");
  CHECK(results[0]["locations"][0]["physicalLocation"]["region"]["endColumn"] == 11);
  CHECK(results[1]["level"] == "note");
}

TEST_CASE("json: an array of the jsonl records, empty batches are []") {
  std::ostringstream out;
  auto rep = make_reporter(Format::json, out, ToolInfo{});
  rep->finish();
  CHECK(out.str() == "[]\n");
  std::ostringstream out2;
  auto rep2 = make_reporter(Format::json, out2, ToolInfo{});
  auto r = sample_report();
  rep2->file(r);
  rep2->file(r);
  rep2->finish();
  auto arr = nlohmann::json::parse(out2.str());
  REQUIRE(arr.size() == 2);
  CHECK(arr[1]["file"] == r.path);
}

TEST_CASE("exit codes: unreadable beats failing beats passing") {
  auto pass = sample_report();
  auto fail = sample_report();
  fail.verdicts[0].second = checks::Verdict::fail;
  FileReport unreadable;
  unreadable.status = FileStatus::unreadable;
  ExitTally t;
  t.add(pass);
  CHECK(t.code() == 0);
  t.add(fail);
  CHECK(t.code() == 1);
  t.add(unreadable);
  CHECK(t.code() == 2);
  auto err = sample_report();
  err.diagnostics[0].severity = Severity::error;
  CHECK(err.fails());
}

TEST_CASE("driver: a missing file and a file over the input limit are unreadable, never a throw") {
  CheckOptions opts;
  auto r = check_file("/nonexistent/x.tex", opts);
  CHECK(r.status == FileStatus::unreadable);
  REQUIRE(r.diagnostics.size() == 1);
  CHECK(r.diagnostics[0].rule == "unreadable-file");
  CHECK(r.verdicts.size() == checks::registry().size() + 2);  // every rule, then spec and compiles (driver.cpp)
  for (const auto& [name, v] : r.verdicts) CHECK(v == checks::Verdict::indeterminate);

  auto path = std::filesystem::temp_directory_path() / "tikzlint_test_big.tex";
  { std::ofstream(path) << std::string(100, '%'); }
  opts.frontend.limits.max_input_bytes = 50;
  auto big = check_file(path.string(), opts);
  CHECK(big.status == FileStatus::unreadable);
  REQUIRE(big.diagnostics.size() == 1);
  CHECK(big.diagnostics[0].evidence["limit_bytes"] == 50);
  CHECK(big.diagnostics[0].evidence["measured_bytes"] == 100);
  std::filesystem::remove(path);
}

TEST_CASE("driver: directories expand to their .tex files, sorted, empty ones warn") {
  namespace fs = std::filesystem;
  auto dir = fs::temp_directory_path() / "tikzlint_test_collect";
  fs::remove_all(dir);
  fs::create_directories(dir / "sub");
  fs::create_directories(dir / "empty");
  std::ofstream(dir / "b.tex") << "";
  std::ofstream(dir / "sub" / "a.tex") << "";
  std::ofstream(dir / "notes.txt") << "";
  std::vector<std::string> warnings;
  auto in = collect_inputs({(dir / "").string(), "missing.tex", (dir / "empty").string()}, warnings);
  REQUIRE(in.size() == 3);
  CHECK(in[0] == (dir / "b.tex").string());
  CHECK(in[1] == (dir / "sub" / "a.tex").string());
  CHECK(in[2] == "missing.tex");
  REQUIRE(warnings.size() == 1);
  CHECK(warnings[0].find("no .tex file") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("driver: --jobs keeps input order") {
  std::vector<std::string> paths;
  for (int i = 0; i < 12; ++i) paths.push_back("/nonexistent/" + std::to_string(i) + ".tex");
  std::vector<std::string> seen;
  check_files(paths, CheckOptions{}, 4, [&](FileReport&& r) { seen.push_back(r.path); });
  CHECK(seen == paths);
}

TEST_CASE("report_jsonl writes report_json's compact dump byte for byte") {
  auto compact = [](const FileReport& r) {
    return report_json(r).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  };
  auto r = sample_report();
  CHECK(report_jsonl(r) == compact(r));
  // A second file, unlocated diagnostics, notes in other files, non-object evidence, evidence
  // that already has "file" and "notes", strings needing escapes and invalid UTF-8.
  auto sm = std::const_pointer_cast<SourceManager>(r.sources);
  FileId cls = sm->add("styles/x.cls", "line one\nline \"two\"\n");
  Diagnostic d;
  d.rule = "missing-file";
  d.severity = Severity::note;
  d.message = "'x.sty' \"was\" not found\\\t\x01 \xC3\xA9 \xFF";
  d.range = {cls, 10, 14, true};
  d.evidence = {{"file", "ignored"}, {"notes", 3}, {"z", {1.5, 2e-7, 1e21, -0.0}}, {"a", nullptr}};
  d.notes.push_back({"in the class", {cls, 0, 4, true}});
  d.notes.push_back({"in the input \xE2\x82", {r.file, 0, 1, true}});
  d.notes.push_back({"nowhere", {}});
  r.diagnostics.push_back(d);
  d.evidence = 42.5;
  d.range = {};
  d.notes.clear();
  r.diagnostics.push_back(d);
  d.evidence = "text";
  r.diagnostics.push_back(d);
  d.evidence = nlohmann::json::array({1, "two"});
  r.diagnostics.push_back(d);
  d.evidence = nullptr;
  r.diagnostics.push_back(d);
  r.path = "odd \"path\"\\x.tex";
  r.elapsed_us = 123456789;
  r.ir_source = "llm";
  r.verdicts.emplace_back(r.verdicts[0].first, checks::Verdict::fail);  // a repeated name
  CHECK(report_jsonl(r) == compact(r));
  r.sources = nullptr;  // an unreadable file
  r.status = FileStatus::unreadable;
  CHECK(report_jsonl(r) == compact(r));
}
