// backtranslate/http.cpp: one chat-completions POST over libcurl, with bounded retries.
// Retried: HTTP 5xx, 429 (honouring Retry-After, capped), timeouts and broken connections.
// Not retried: other 4xx (a bad key or request stays bad). The key is only ever placed in the
// Authorization header; every text we keep is passed through redact() anyway.
#include <curl/curl.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <thread>

#include "backtranslate/detail.hpp"
#include "support/ascii.hpp"

namespace tikzlint::backtranslate::detail {
namespace {

constexpr std::size_t kMaxBodyBytes = 32u << 20;  // a runaway server cannot exhaust memory

struct Exchange {
  std::string body;
  std::optional<int> retry_after_ms;
};

std::size_t on_body(char* data, std::size_t size, std::size_t count, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  std::size_t n = size * count;
  if (ex->body.size() + n > kMaxBodyBytes) return 0;  // makes curl fail with a write error
  ex->body.append(data, n);
  return n;
}

std::size_t on_header(char* data, std::size_t size, std::size_t count, void* user) {
  auto* ex = static_cast<Exchange*>(user);
  std::size_t n = size * count;
  std::string_view line(data, n);
  constexpr std::string_view kName = "retry-after:";
  if (line.size() > kName.size()) {
    bool match = true;
    for (std::size_t i = 0; i < kName.size() && match; ++i)
      match = std::tolower(static_cast<unsigned char>(line[i])) == kName[i];
    if (match) ex->retry_after_ms = parse_retry_after_ms(line.substr(kName.size()));
  }
  return n;
}

void global_init_once() {
  // curl_global_init is not thread-safe on every libcurl version; translate() is called from
  // many threads, so guard it.
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

// Loopback endpoints (local servers, the tests' replay server) never go through a proxy.
std::string no_proxy_list() {
  std::string list = "localhost,127.0.0.1,::1";
  for (const char* name : {"no_proxy", "NO_PROXY"}) {
    if (const char* v = std::getenv(name); v && *v) {
      list += ",";
      list += v;
      break;
    }
  }
  return list;
}

bool retryable_transport_error(CURLcode code) {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_OPERATION_TIMEDOUT:
    case CURLE_SEND_ERROR:
    case CURLE_RECV_ERROR:
    case CURLE_GOT_NOTHING:
    case CURLE_PARTIAL_FILE:
      return true;
    default:
      return false;
  }
}

struct Attempt {
  CURLcode code = CURLE_OK;
  long status = 0;
  std::string error;
  Exchange exchange;
};

Attempt post_once(const std::string& url, const std::string& payload, const Settings& s,
                  const std::string& no_proxy) {
  Attempt at;
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> h(curl_easy_init(), &curl_easy_cleanup);
  if (!h) {
    at.code = CURLE_FAILED_INIT;
    at.error = "cannot initialise the HTTP client";
    return at;
  }
  struct curl_slist* raw_headers = nullptr;
  raw_headers = curl_slist_append(raw_headers, "Content-Type: application/json");
  raw_headers = curl_slist_append(raw_headers, "Accept: application/json");
  if (!s.api_key.empty())
    raw_headers = curl_slist_append(raw_headers, ("Authorization: Bearer " + s.api_key).c_str());
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(raw_headers,
                                                                      &curl_slist_free_all);
  char errbuf[CURL_ERROR_SIZE] = {0};
  CURL* c = h.get();
  curl_easy_setopt(c, CURLOPT_URL, url.c_str());
  curl_easy_setopt(c, CURLOPT_POST, 1L);
  curl_easy_setopt(c, CURLOPT_POSTFIELDS, payload.c_str());
  curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(payload.size()));
  curl_easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(std::max(1, s.timeout_ms)));
  curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(std::clamp(s.timeout_ms, 1, 10'000)));
  curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // signals and threads do not mix
  curl_easy_setopt(c, CURLOPT_NOPROXY, no_proxy.c_str());
  curl_easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
  curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(c, CURLOPT_WRITEDATA, &at.exchange);
  curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(c, CURLOPT_HEADERDATA, &at.exchange);
  curl_easy_setopt(c, CURLOPT_USERAGENT, "tikzlint-backtranslate");

  at.code = curl_easy_perform(c);
  if (at.code == CURLE_OK) {
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &at.status);
  } else {
    at.error = errbuf[0] ? std::string(errbuf) : std::string(curl_easy_strerror(at.code));
  }
  return at;
}

std::string join_url(const std::string& base, const std::string& path) {
  std::string b = base;
  while (!b.empty() && b.back() == '/') b.pop_back();
  return b + path;
}

}  // namespace

std::optional<int> parse_retry_after_ms(std::string_view value) {
  while (!value.empty() && is_ascii_space(value.front())) value.remove_prefix(1);
  while (!value.empty() && is_ascii_space(value.back())) value.remove_suffix(1);
  // Only delta-seconds (what rate limiters send); an HTTP date falls back to our backoff.
  double seconds = 0;
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), seconds);
  if (ec != std::errc() || end != value.data() + value.size() || seconds < 0) return std::nullopt;
  return static_cast<int>(std::min(seconds * 1000.0, 24.0 * 3600 * 1000));
}

std::string redact(std::string text, const std::string& api_key) {
  if (api_key.empty()) return text;
  for (std::size_t pos = text.find(api_key); pos != std::string::npos;
       pos = text.find(api_key, pos))
    text.replace(pos, api_key.size(), "[redacted]");
  return text;
}

HttpResult post_chat_completions(const nlohmann::json& body, const Settings& s) {
  global_init_once();
  const std::string url = join_url(s.base_url, "/chat/completions");
  const std::string payload = body.dump();
  const std::string no_proxy = no_proxy_list();
  const int max_retries = std::max(0, s.max_retries);
  auto started = std::chrono::steady_clock::now();

  HttpResult r;
  for (int attempt = 0;; ++attempt) {
    Attempt at = post_once(url, payload, s, no_proxy);
    r.attempts = attempt + 1;
    r.transport_ok = at.code == CURLE_OK;
    r.timed_out = at.code == CURLE_OPERATION_TIMEDOUT;
    r.status = at.status;
    r.body = redact(std::move(at.exchange.body), s.api_key);
    r.error = redact(at.error, s.api_key);

    bool success = r.transport_ok && r.status >= 200 && r.status < 300;
    bool retryable = r.transport_ok ? (r.status == 429 || r.status >= 500)
                                    : retryable_transport_error(at.code);
    if (success || !retryable || attempt >= max_retries) break;

    long long wait = std::min<long long>(
        static_cast<long long>(std::max(0, s.initial_backoff_ms)) << std::min(attempt, 20),
        std::max(0, s.max_backoff_ms));
    if (r.status == 429 && at.exchange.retry_after_ms)
      wait = std::min<long long>(*at.exchange.retry_after_ms, std::max(0, s.max_backoff_ms));
    std::this_thread::sleep_for(std::chrono::milliseconds(wait));
  }
  r.latency_ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started)
                     .count();
  return r;
}

}  // namespace tikzlint::backtranslate::detail
