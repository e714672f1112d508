// translate() against a local replay server (testdata/replay_server.py) that this test starts
// itself on 127.0.0.1 and that stops by itself: valid, malformed, schema-violating, slow,
// HTTP 500 then success, 429 with Retry-After, truncated; cache hits; the concurrency limit;
// the key never appearing in a diagnostic.
#include <curl/curl.h>
#include <doctest/doctest.h>
#include <stdlib.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include "backtranslate/detail.hpp"

using namespace tikzlint;
using namespace tikzlint::backtranslate;
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

std::size_t collect(char* data, std::size_t size, std::size_t count, void* user) {
  static_cast<std::string*>(user)->append(data, size * count);
  return size * count;
}

std::string http_get(const std::string& url) {
  std::string body;
  CURL* h = curl_easy_init();
  curl_easy_setopt(h, CURLOPT_URL, url.c_str());
  curl_easy_setopt(h, CURLOPT_NOPROXY, "*");
  curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, 5000L);
  curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
  curl_easy_setopt(h, CURLOPT_WRITEDATA, &body);
  curl_easy_perform(h);
  curl_easy_cleanup(h);
  return body;
}

fs::path make_temp_dir() {
  std::string tmpl = (fs::temp_directory_path() / "tikzlint-bt-XXXXXX").string();
  REQUIRE(::mkdtemp(tmpl.data()) != nullptr);
  return tmpl;
}

// One replay server per test process (doctest runs each test case in its own process under
// ctest); it exits on /shutdown at the end, or by itself after 30 s without requests.
class ReplayServer {
 public:
  ReplayServer() : dir_(make_temp_dir()) {
    fs::path port_file = dir_ / "port";
    std::string cmd = "python3 '" + std::string(TIKZLINT_SOURCE_DIR) +
                      "/backtranslate/testdata/replay_server.py' --port-file '" +
                      port_file.string() + "' --idle 30 >/dev/null 2>&1 &";
    REQUIRE(std::system(cmd.c_str()) == 0);
    for (int i = 0; i < 200 && !fs::exists(port_file); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    std::ifstream in(port_file);
    in >> port_;
    REQUIRE(port_ > 0);
  }
  ~ReplayServer() {
    http_get(root() + "/shutdown");
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string root() const { return "http://127.0.0.1:" + std::to_string(port_); }
  std::string base_url(const std::string& tag) const { return root() + "/" + tag + "/v1"; }
  json stats(const std::string& tag) const { return json::parse(http_get(root() + "/stats/" + tag)); }

 private:
  fs::path dir_;
  int port_ = 0;
};

ReplayServer& server() {
  static ReplayServer s;
  return s;
}

// A unique scenario tag per call, so request counters never mix.
std::string tag(const std::string& scenario) {
  static std::atomic<int> n{0};
  return scenario + "-" + std::to_string(::getpid()) + "x" + std::to_string(n++);
}

Settings settings_for(const std::string& t) {
  Settings s;
  s.mode = Mode::always;
  s.base_url = server().base_url(t);
  s.model = "replay-model";
  s.timeout_ms = 5000;
  s.max_retries = 2;
  s.initial_backoff_ms = 10;
  s.max_backoff_ms = 5000;
  return s;
}

const std::string kSource = "\\begin{tikzpicture}\n\\draw (0,0) -- (1,0);\n\\end{tikzpicture}\n";

void check_failure(const Outcome& out, const std::string& code, FileId file) {
  CHECK_FALSE(out.diagram.has_value());
  REQUIRE(out.diagnostics.size() == 1);
  const Diagnostic& d = out.diagnostics[0];
  CHECK(d.rule == code);
  CHECK(d.severity == Severity::error);
  // Located at the start of the file: line 1, column 1.
  CHECK(d.range.valid);
  CHECK(d.range.file == file);
  CHECK(d.range.begin == 0);
}

double elapsed_ms(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - since).count();
}

}  // namespace

TEST_CASE("valid answer: lowered diagram, token usage, request format") {
  std::string t = tag("valid");
  Outcome out = translate(kSource, 3, settings_for(t));
  CHECK(out.diagnostics.empty());
  REQUIRE(out.diagram.has_value());
  CHECK(out.diagram->file == 3);
  CHECK(out.diagram->elements.size() == 7);
  CHECK(out.diagram->nodes.size() == 2);
  CHECK(out.diagram->elements[0].prov.origin == "llm");
  CHECK(out.stats["prompt_tokens"] == 1234);
  CHECK(out.stats["completion_tokens"] == 321);
  CHECK(out.stats["cached"] == false);
  CHECK(out.stats["retries"] == 0);
  CHECK(out.stats["latency_ms"].get<double>() > 0);

  json st = server().stats(t);
  CHECK(st["count"] == 1);
  CHECK(st["last_authorization"].is_null());  // no key set: no Authorization header
  const json& body = st["last_body"];
  CHECK(body["model"] == "replay-model");
  CHECK(body["temperature"] == 0);
  CHECK(body["response_format"]["type"] == "json_schema");
  CHECK(body["response_format"]["json_schema"]["strict"] == true);
  CHECK(body["response_format"]["json_schema"]["schema"]["type"] == "object");
}

TEST_CASE("the key goes in the Authorization header and never into a diagnostic") {
  const std::string key = "sk-test-SECRET-4711";
  std::string t = tag("denied");
  Settings s = settings_for(t);
  s.api_key = key;
  Outcome out = translate(kSource, 0, s);
  check_failure(out, "llm-http", 0);
  json st = server().stats(t);
  CHECK(st["last_authorization"] == "Bearer " + key);
  CHECK(st["count"] == 1);  // 401 is not retried
  const Diagnostic& d = out.diagnostics[0];
  CHECK(d.message.find("401") != std::string::npos);
  CHECK(d.message.find("invalid api key") != std::string::npos);  // the server's reason is kept
  CHECK(d.message.find(key) == std::string::npos);
  CHECK(d.evidence.dump().find(key) == std::string::npos);
  for (const auto& n : d.notes) CHECK(n.message.find(key) == std::string::npos);
  CHECK(out.stats.dump().find(key) == std::string::npos);
}

TEST_CASE("other 4xx answers are not retried") {
  std::string t = tag("badrequest");
  Outcome out = translate(kSource, 0, settings_for(t));
  check_failure(out, "llm-http", 0);
  CHECK(server().stats(t)["count"] == 1);
}

TEST_CASE("malformed JSON in the answer is llm-invalid-json") {
  std::string t = tag("malformed");
  Outcome out = translate(kSource, 1, settings_for(t));
  check_failure(out, "llm-invalid-json", 1);
}

TEST_CASE("a response body that is not JSON is llm-invalid-json") {
  std::string t = tag("notjson");
  check_failure(translate(kSource, 0, settings_for(t)), "llm-invalid-json", 0);
}

TEST_CASE("a schema-violating answer is llm-schema with every violation as evidence") {
  std::string t = tag("schema");
  Outcome out = translate(kSource, 2, settings_for(t));
  check_failure(out, "llm-schema", 2);
  const json& errors = out.diagnostics[0].evidence["errors"];
  std::vector<std::string> pointers;
  for (const auto& e : errors) pointers.push_back(e["pointer"]);
  auto has = [&](const std::string& p) {
    return std::find(pointers.begin(), pointers.end(), p) != pointers.end();
  };
  CHECK(has("/segments/0/from"));  // minItems
  CHECK(has("/circles/0/radius"));  // minimum
  CHECK(has("/extra"));             // additionalProperties
  CHECK(has("/"));                  // required "clips"
  CHECK(out.diagnostics[0].message.find("does not follow the ir schema") != std::string::npos);
}

TEST_CASE("a truncated answer (finish_reason length) is llm-truncated") {
  std::string t = tag("truncated");
  Outcome out = translate(kSource, 0, settings_for(t));
  check_failure(out, "llm-truncated", 0);
  CHECK(out.stats["completion_tokens"] == 321);
}

TEST_CASE("a slow server times out, is retried, and ends as llm-timeout") {
  std::string t = tag("slow");
  Settings s = settings_for(t);
  s.timeout_ms = 300;
  s.max_retries = 1;
  auto start = std::chrono::steady_clock::now();
  Outcome out = translate(kSource, 0, s);
  double ms = elapsed_ms(start);
  check_failure(out, "llm-timeout", 0);
  CHECK(out.stats["retries"] == 1);
  CHECK(ms < 2500);  // the server would have answered after 3 s
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  CHECK(server().stats(t)["count"] == 2);
}

TEST_CASE("HTTP 500 then success: retried with backoff") {
  std::string t = tag("flaky");
  Outcome out = translate(kSource, 0, settings_for(t));
  CHECK(out.diagnostics.empty());
  CHECK(out.diagram.has_value());
  CHECK(out.stats["retries"] == 1);
  CHECK(server().stats(t)["count"] == 2);
}

TEST_CASE("HTTP 500 with no retries left is llm-http") {
  std::string t = tag("flaky");
  Settings s = settings_for(t);
  s.max_retries = 0;
  Outcome out = translate(kSource, 0, s);
  check_failure(out, "llm-http", 0);
  CHECK(out.diagnostics[0].message.find("http 500") != std::string::npos);
}

TEST_CASE("429 with Retry-After: waits as told, then succeeds") {
  std::string t = tag("ratelimit");
  auto start = std::chrono::steady_clock::now();
  Outcome out = translate(kSource, 0, settings_for(t));
  double ms = elapsed_ms(start);
  CHECK(out.diagnostics.empty());
  CHECK(out.diagram.has_value());
  CHECK(out.stats["retries"] == 1);
  CHECK(server().stats(t)["count"] == 2);
  CHECK(ms >= 950);  // Retry-After: 1, much longer than the 10 ms backoff
}

TEST_CASE("429 with Retry-After: the wait is capped by max_backoff_ms") {
  std::string t = tag("ratelimit");
  Settings s = settings_for(t);
  s.max_backoff_ms = 100;
  auto start = std::chrono::steady_clock::now();
  Outcome out = translate(kSource, 0, s);
  double ms = elapsed_ms(start);
  CHECK(out.diagram.has_value());
  CHECK(ms < 900);
}

TEST_CASE("nothing listening: llm-http after the retries") {
  Settings s = settings_for("unused");
  // Port 9 (discard) on loopback: nothing listens there on a test machine.
  s.base_url = "http://127.0.0.1:9/v1";
  s.max_retries = 1;
  Outcome out = translate(kSource, 0, s);
  check_failure(out, "llm-http", 0);
  CHECK(out.diagnostics[0].message.find("cannot reach") != std::string::npos);
}

TEST_CASE("no endpoint configured: a diagnostic, no request") {
  Settings s;
  Outcome out = translate(kSource, 5, s);
  check_failure(out, "llm-http", 5);
  CHECK(out.diagnostics[0].message.find("TIKZLINT_LLM_BASE_URL") != std::string::npos);
}

TEST_CASE("cache: a hit makes no request, the key includes model and source") {
  fs::path dir = make_temp_dir();
  std::string t = tag("valid");
  Settings s = settings_for(t);
  s.cache_dir = (dir / "cache").string();  // created on first store

  Outcome first = translate(kSource, 0, s);
  REQUIRE(first.diagram.has_value());
  CHECK(first.stats["cached"] == false);
  CHECK(server().stats(t)["count"] == 1);

  Outcome second = translate(kSource, 0, s);
  REQUIRE(second.diagram.has_value());
  CHECK(second.stats["cached"] == true);
  CHECK(second.stats["prompt_tokens"] == 1234);  // usage of the original request is kept
  CHECK(server().stats(t)["count"] == 1);        // no new request
  CHECK(second.diagram->elements.size() == first.diagram->elements.size());

  // Exactly one entry, written atomically (no temporary files left behind).
  int files = 0;
  for (const auto& e : fs::directory_iterator(s.cache_dir)) {
    ++files;
    CHECK(e.path().extension() == ".json");
    CHECK(e.path().filename().string().front() != '.');
  }
  CHECK(files == 1);

  Settings other_model = s;
  other_model.model = "another-model";
  CHECK(translate(kSource, 0, other_model).stats["cached"] == false);
  CHECK(translate(kSource + "% changed\n", 0, s).stats["cached"] == false);
  CHECK(server().stats(t)["count"] == 3);
  fs::remove_all(dir);
}

TEST_CASE("cache: unusable answers are not cached") {
  fs::path dir = make_temp_dir();
  std::string t = tag("schema");
  Settings s = settings_for(t);
  s.cache_dir = dir.string();
  translate(kSource, 0, s);
  translate(kSource, 0, s);
  CHECK(server().stats(t)["count"] == 2);
  CHECK(fs::is_empty(dir));
  fs::remove_all(dir);
}

TEST_CASE("cache: a corrupt or foreign entry is a miss, not a crash") {
  fs::path dir = make_temp_dir();
  std::string t = tag("valid");
  Settings s = settings_for(t);
  s.cache_dir = dir.string();
  std::ofstream(dir / (detail::cache_key(s.model, kSource) + ".json")) << "{not json";
  Outcome out = translate(kSource, 0, s);
  CHECK(out.diagram.has_value());
  CHECK(out.stats["cached"] == false);
  CHECK(server().stats(t)["count"] == 1);
  fs::remove_all(dir);
}

TEST_CASE("concurrency limit: at most max_concurrency requests in flight across threads") {
  auto run = [](int limit, int threads) {
    std::string t = tag("busy");
    Settings s = settings_for(t);
    s.max_concurrency = limit;
    std::vector<std::thread> pool;
    std::atomic<int> usable{0};
    for (int i = 0; i < threads; ++i)
      pool.emplace_back([&] { usable += translate(kSource, 0, s).diagram.has_value(); });
    for (auto& th : pool) th.join();
    CHECK(usable == threads);
    json st = server().stats(t);
    CHECK(st["count"] == threads);
    return st["max_in_flight"].get<int>();
  };
  int limited = run(2, 6);
  CHECK(limited <= 2);
  CHECK(limited >= 1);
  // Without the limit the same load does overlap, so the limit is what held it at 2.
  CHECK(run(6, 6) > 2);
  CHECK(detail::process_gate().in_flight() == 0);
}

TEST_CASE("apply_environment fills only empty fields") {
  ::setenv("TIKZLINT_LLM_BASE_URL", "http://127.0.0.1:1/v1", 1);
  ::setenv("TIKZLINT_LLM_MODEL", "env-model", 1);
  ::setenv("TIKZLINT_LLM_API_KEY", "env-key", 1);
  ::setenv("TIKZLINT_LLM_CACHE", "/tmp/env-cache", 1);
  Settings s;
  s.model = "flag-model";
  apply_environment(s);
  CHECK(s.base_url == "http://127.0.0.1:1/v1");
  CHECK(s.model == "flag-model");
  CHECK(s.api_key == "env-key");
  CHECK(s.cache_dir == "/tmp/env-cache");
  ::unsetenv("TIKZLINT_LLM_BASE_URL");
  ::unsetenv("TIKZLINT_LLM_MODEL");
  ::unsetenv("TIKZLINT_LLM_API_KEY");
  ::unsetenv("TIKZLINT_LLM_CACHE");
}
