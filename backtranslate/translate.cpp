// backtranslate/translate.cpp: the fallback's entry points: settings from the environment, and
// translate() = cache -> request (concurrency-limited) -> parse -> validate -> lower. Every
// failure becomes a located diagnostic; nothing escapes as an exception.
#include <algorithm>
#include <chrono>
#include <cstdlib>

#include "backtranslate/detail.hpp"

namespace tikzlint::backtranslate {
namespace detail {

void ConcurrencyGate::acquire(int limit) {
  std::unique_lock lock(mu_);
  cv_.wait(lock, [&] { return in_flight_ < std::max(1, limit); });
  ++in_flight_;
}

void ConcurrencyGate::release() {
  {
    std::lock_guard lock(mu_);
    --in_flight_;
  }
  cv_.notify_all();  // waiters may have different limits; let each re-check its own
}

int ConcurrencyGate::in_flight() const {
  std::lock_guard lock(mu_);
  return in_flight_;
}

ConcurrencyGate& process_gate() {
  // The one piece of process-wide state: a limit "across threads" has to be shared by them.
  static ConcurrencyGate gate;
  return gate;
}

}  // namespace detail

namespace {

using nlohmann::json;

// Every string inside `j` with the key removed (structure kept, so nothing can fail to parse).
json redact_json(json j, const std::string& api_key) {
  if (api_key.empty()) return j;
  if (j.is_string()) return detail::redact(j.get<std::string>(), api_key);
  if (j.is_array() || j.is_object())
    for (auto& v : j) v = redact_json(std::move(v), api_key);
  return j;
}

// Located at the start of the file (line 1, col 1): the model's answer has no finer location.
Diagnostic make_diagnostic(const std::string& code, const std::string& message, FileId file,
                           const Settings& s, json evidence = json::object()) {
  Diagnostic d;
  d.rule = code;
  d.severity = Severity::error;
  d.message = detail::redact(message, s.api_key);
  d.range = SourceRange{file, 0, 0, true};
  d.evidence = redact_json(std::move(evidence), s.api_key);
  return d;
}

std::string clip_text(std::string text, std::size_t max_len = 200) {
  for (char& c : text)
    if (c == '\n' || c == '\r' || c == '\t') c = ' ';
  if (text.size() > max_len) text = text.substr(0, max_len) + "...";
  return text;
}

// The human-readable part of an error body ({"error": {"message": ...}} in OpenAI's protocol).
std::string error_body_summary(const std::string& body) {
  auto j = json::parse(body, nullptr, false);
  if (j.is_object() && j.contains("error")) {
    const auto& e = j["error"];
    if (e.is_object() && e.contains("message") && e["message"].is_string())
      return clip_text(e["message"].get<std::string>());
    if (e.is_string()) return clip_text(e.get<std::string>());
  }
  return clip_text(body);
}

// Tolerates a Markdown fence around the JSON (some servers ignore the response format).
std::string strip_fence(const std::string& content) {
  std::size_t b = content.find_first_not_of(" \t\r\n");
  if (b == std::string::npos) return content;
  std::size_t e = content.find_last_not_of(" \t\r\n");
  std::string_view v(content.data() + b, e - b + 1);
  if (v.rfind("```", 0) != 0 || v.size() < 6 || v.substr(v.size() - 3) != "```")
    return std::string(v);
  std::size_t first_newline = v.find('\n');
  if (first_newline == std::string_view::npos) return std::string(v);
  return std::string(v.substr(first_newline + 1, v.size() - 3 - first_newline - 1));
}

class GateSlot {
 public:
  GateSlot(detail::ConcurrencyGate& g, int limit) : gate_(g) { gate_.acquire(limit); }
  ~GateSlot() { gate_.release(); }
  GateSlot(const GateSlot&) = delete;
  GateSlot& operator=(const GateSlot&) = delete;

 private:
  detail::ConcurrencyGate& gate_;
};

void record_usage(Outcome& out, const json& usage) {
  if (!usage.is_object()) return;
  for (const char* key : {"prompt_tokens", "completion_tokens"})
    if (usage.contains(key) && usage[key].is_number_integer()) out.stats[key] = usage[key];
}

void translate_impl(const std::string& source_text, FileId file, const Settings& s, Outcome& out) {
  if (s.base_url.empty() || s.model.empty()) {
    out.diagnostics.push_back(make_diagnostic(
        "llm-http",
        "no llm endpoint configured (set --llm-base-url and --llm-model, or "
        "TIKZLINT_LLM_BASE_URL and TIKZLINT_LLM_MODEL)",
        file, s));
    return;
  }

  std::string content;
  bool cached = false;
  if (auto hit = detail::cache_load(s.cache_dir, s.model, source_text)) {
    content = std::move(hit->content);
    record_usage(out, hit->usage);
    cached = true;
  }
  out.stats["cached"] = cached;

  json usage = json::object();
  if (!cached) {
    detail::HttpResult http;
    {
      GateSlot slot(detail::process_gate(), s.max_concurrency);
      http = detail::post_chat_completions(detail::chat_request(source_text, s), s);
    }
    out.stats["retries"] = std::max(0, http.attempts - 1);
    out.stats["http_status"] = http.status;
    const json attempts_evidence = {{"attempts", http.attempts}, {"status", http.status}};
    if (!http.transport_ok) {
      if (http.timed_out) {
        out.diagnostics.push_back(make_diagnostic(
            "llm-timeout",
            "the llm endpoint did not answer within " + std::to_string(s.timeout_ms) + " ms (" +
                std::to_string(http.attempts) + " attempts)",
            file, s, attempts_evidence));
      } else {
        out.diagnostics.push_back(make_diagnostic(
            "llm-http",
            "cannot reach the llm endpoint: " + clip_text(http.error) + " (" +
                std::to_string(http.attempts) + " attempts)",
            file, s, attempts_evidence));
      }
      return;
    }
    if (http.status < 200 || http.status >= 300) {
      out.diagnostics.push_back(make_diagnostic(
          "llm-http",
          "the llm endpoint answered http " + std::to_string(http.status) + " after " +
              std::to_string(http.attempts) + " attempts: " + error_body_summary(http.body),
          file, s, attempts_evidence));
      return;
    }
    json response = json::parse(http.body, nullptr, false);
    if (response.is_discarded() || !response.is_object()) {
      out.diagnostics.push_back(make_diagnostic(
          "llm-invalid-json",
          "the llm endpoint's response is not a json object: " + clip_text(http.body, 80), file,
          s));
      return;
    }
    if (response.contains("usage")) {
      usage = response["usage"];
      record_usage(out, usage);
    }
    const json* choice = nullptr;
    if (response.contains("choices") && response["choices"].is_array() &&
        !response["choices"].empty() && response["choices"][0].is_object())
      choice = &response["choices"][0];
    if (choice && choice->value("finish_reason", json()).is_string() &&
        (*choice)["finish_reason"] == "length") {
      out.diagnostics.push_back(make_diagnostic(
          "llm-truncated",
          "the model's answer was cut off at the token limit (finish_reason \"length\")", file, s,
          {{"completion_tokens", out.stats.value("completion_tokens", 0)}}));
      return;
    }
    const json* message = choice && choice->contains("message") ? &(*choice)["message"] : nullptr;
    if (!message || !message->is_object() || !message->contains("content") ||
        !(*message)["content"].is_string()) {
      std::string why = "the llm response has no choices[0].message.content";
      if (message && message->is_object() && message->contains("refusal") &&
          (*message)["refusal"].is_string())
        why += "; the model refused: " + clip_text((*message)["refusal"].get<std::string>());
      out.diagnostics.push_back(make_diagnostic("llm-invalid-json", why, file, s));
      return;
    }
    content = (*message)["content"].get<std::string>();
  }

  json ir_json;
  try {
    ir_json = json::parse(strip_fence(content));
  } catch (const json::parse_error& e) {
    out.diagnostics.push_back(make_diagnostic(
        "llm-invalid-json",
        "the model's answer is not valid json (at byte " + std::to_string(e.byte) + ")", file, s,
        {{"content_start", clip_text(content, 80)}}));
    return;
  }
  auto errors = detail::validate(ir_json, detail::llm_ir_schema());
  if (!errors.empty()) {
    json list = json::array();
    for (const auto& e : errors)
      list.push_back({{"pointer", e.pointer.empty() ? "/" : e.pointer}, {"message", e.message}});
    std::string first = (errors[0].pointer.empty() ? "/" : errors[0].pointer) + ": " + errors[0].message;
    std::string more = errors.size() > 1 ? " (and " + std::to_string(errors.size() - 1) + " more)" : "";
    out.diagnostics.push_back(make_diagnostic(
        "llm-schema", "the model's answer does not follow the ir schema: " + first + more, file, s,
        {{"errors", list}}));
    return;
  }
  try {
    out.diagram = detail::lower_llm_ir(ir_json, source_text, file);
  } catch (const std::exception& e) {
    out.diagnostics.push_back(make_diagnostic(
        "llm-schema", std::string("the model's answer cannot be lowered: ") + e.what(), file, s));
    return;
  }
  if (!cached) detail::cache_store(s.cache_dir, s.model, source_text, {content, usage});
}

}  // namespace

void apply_environment(Settings& s) {
  auto fill = [](std::string& field, const char* name) {
    if (!field.empty()) return;
    if (const char* v = std::getenv(name); v && *v) field = v;
  };
  fill(s.base_url, "TIKZLINT_LLM_BASE_URL");
  fill(s.model, "TIKZLINT_LLM_MODEL");
  fill(s.api_key, "TIKZLINT_LLM_API_KEY");
  fill(s.cache_dir, "TIKZLINT_LLM_CACHE");
}

Outcome translate(const std::string& source_text, FileId file, const Settings& s) {
  Outcome out;
  out.stats = {{"latency_ms", 0.0}, {"prompt_tokens", 0}, {"completion_tokens", 0},
               {"cached", false},   {"retries", 0},       {"model", s.model}};
  auto started = std::chrono::steady_clock::now();
  try {
    translate_impl(source_text, file, s, out);
  } catch (const std::exception& e) {
    out.diagram.reset();
    out.diagnostics.push_back(
        make_diagnostic("llm-http", std::string("llm fallback failed: ") + e.what(), file, s));
  } catch (...) {
    out.diagram.reset();
    out.diagnostics.push_back(make_diagnostic("llm-http", "llm fallback failed", file, s));
  }
  if (out.diagram.has_value() && !out.diagnostics.empty()) out.diagram.reset();
  out.stats["latency_ms"] =
      std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - started).count();
  return out;
}

}  // namespace tikzlint::backtranslate
