// backtranslate/http.cpp: one chat-completions POST over libcurl, with bounded retries.
// Retried: HTTP 5xx, 429 (honouring Retry-After, capped), timeouts and broken connections.
// Not retried: other 4xx (a bad key or request stays bad). The key is only ever placed in the
// Authorization header; every text we keep is passed through redact() anyway.
#include <curl/curl.h>
#include <dlfcn.h>

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

// libcurl is opened when the first request is made, not linked: linked, it and the thirty
// libraries it needs (TLS, Kerberos, LDAP...) were relocated at every start of tikzlint,
// 16 M instructions (about 5 ms) of a process's 17 M before its first diagram, for a fallback
// most runs never use.
struct CurlApi {
  decltype(&curl_global_init) global_init = nullptr;
  decltype(&curl_easy_init) easy_init = nullptr;
  decltype(&curl_easy_cleanup) easy_cleanup = nullptr;
  CURLcode (*easy_setopt)(CURL*, CURLoption, ...) = nullptr;
  CURLcode (*easy_getinfo)(CURL*, CURLINFO, ...) = nullptr;
  decltype(&curl_easy_perform) easy_perform = nullptr;
  decltype(&curl_easy_strerror) easy_strerror = nullptr;
  decltype(&curl_slist_append) slist_append = nullptr;
  decltype(&curl_slist_free_all) slist_free_all = nullptr;
  std::string error;  // why it could not be loaded (empty: loaded)
};

template <class F>
bool bind(void* lib, const char* name, F& out) {
  out = reinterpret_cast<F>(dlsym(lib, name));
  return out != nullptr;
}

// Loaded and curl_global_init'ed once per process (curl_global_init is not thread-safe on
// every libcurl version, and translate() is called from many threads); never unloaded.
const CurlApi& curl_api() {
  static const CurlApi api = [] {
    CurlApi a;
    void* lib = nullptr;
    for (const char* name : {"libcurl.so.4", "libcurl.so", "libcurl-gnutls.so.4"})
      if ((lib = dlopen(name, RTLD_NOW | RTLD_LOCAL))) break;
    if (!lib) {
      const char* why = dlerror();
      a.error = std::string("cannot load libcurl: ") + (why ? why : "not found");
      return a;
    }
    bool ok = bind(lib, "curl_global_init", a.global_init) && bind(lib, "curl_easy_init", a.easy_init) &&
              bind(lib, "curl_easy_cleanup", a.easy_cleanup) && bind(lib, "curl_easy_setopt", a.easy_setopt) &&
              bind(lib, "curl_easy_getinfo", a.easy_getinfo) && bind(lib, "curl_easy_perform", a.easy_perform) &&
              bind(lib, "curl_easy_strerror", a.easy_strerror) && bind(lib, "curl_slist_append", a.slist_append) &&
              bind(lib, "curl_slist_free_all", a.slist_free_all);
    if (!ok) {
      a.error = "cannot load libcurl: a function is missing";
      return a;
    }
    a.global_init(CURL_GLOBAL_DEFAULT);
    return a;
  }();
  return api;
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
  const CurlApi& api = curl_api();
  if (!api.error.empty()) {
    at.code = CURLE_FAILED_INIT;
    at.error = api.error;
    return at;
  }
  std::unique_ptr<CURL, decltype(&curl_easy_cleanup)> h(api.easy_init(), api.easy_cleanup);
  if (!h) {
    at.code = CURLE_FAILED_INIT;
    at.error = "cannot initialise the HTTP client";
    return at;
  }
  struct curl_slist* raw_headers = nullptr;
  raw_headers = api.slist_append(raw_headers, "Content-Type: application/json");
  raw_headers = api.slist_append(raw_headers, "Accept: application/json");
  if (!s.api_key.empty())
    raw_headers = api.slist_append(raw_headers, ("Authorization: Bearer " + s.api_key).c_str());
  std::unique_ptr<curl_slist, decltype(&curl_slist_free_all)> headers(raw_headers, api.slist_free_all);
  char errbuf[CURL_ERROR_SIZE] = {0};
  CURL* c = h.get();
  api.easy_setopt(c, CURLOPT_URL, url.c_str());
  api.easy_setopt(c, CURLOPT_POST, 1L);
  api.easy_setopt(c, CURLOPT_POSTFIELDS, payload.c_str());
  api.easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(payload.size()));
  api.easy_setopt(c, CURLOPT_HTTPHEADER, headers.get());
  api.easy_setopt(c, CURLOPT_TIMEOUT_MS, static_cast<long>(std::max(1, s.timeout_ms)));
  api.easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS,
                   static_cast<long>(std::clamp(s.timeout_ms, 1, 10'000)));
  api.easy_setopt(c, CURLOPT_NOSIGNAL, 1L);  // signals and threads do not mix
  api.easy_setopt(c, CURLOPT_NOPROXY, no_proxy.c_str());
  api.easy_setopt(c, CURLOPT_ERRORBUFFER, errbuf);
  api.easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
  api.easy_setopt(c, CURLOPT_WRITEDATA, &at.exchange);
  api.easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
  api.easy_setopt(c, CURLOPT_HEADERDATA, &at.exchange);
  api.easy_setopt(c, CURLOPT_USERAGENT, "tikzlint-backtranslate");

  at.code = api.easy_perform(c);
  if (at.code == CURLE_OK) {
    api.easy_getinfo(c, CURLINFO_RESPONSE_CODE, &at.status);
  } else {
    at.error = errbuf[0] ? std::string(errbuf) : std::string(api.easy_strerror(at.code));
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
