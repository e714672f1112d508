// backtranslate/backtranslate.hpp: the optional LLM fallback. Asks an OpenAI-compatible
// chat-completions endpoint to translate TikZ into IR JSON (schema in docs/), validates it,
// and lowers it into the same ir::Diagram (transforms applied by our code, origin "llm").
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "ir/diagram.hpp"
#include "support/diagnostic.hpp"

namespace tikzlint::backtranslate {

enum class Mode { never, automatic, always };  // --fallback=never|auto|always

struct Settings {
  Mode mode = Mode::never;
  std::string base_url;   // TIKZLINT_LLM_BASE_URL, e.g. http://127.0.0.1:8080/v1
  std::string model;      // TIKZLINT_LLM_MODEL
  std::string api_key;    // TIKZLINT_LLM_API_KEY; never printed or logged
  int timeout_ms = 60'000;
  int max_retries = 3;
  int max_concurrency = 4;
  std::string cache_dir;  // empty: no on-disk cache
  // Backoff between retries: initial * 2^attempt, and a 429's Retry-After, both capped.
  int initial_backoff_ms = 500;
  int max_backoff_ms = 30'000;
  int max_tokens = 0;     // 0: let the server decide (no max_tokens in the request)
};

// Version of our prompt + schema; part of the cache key, so a change invalidates old answers.
extern const char* const kPromptVersion;

// Fill empty fields of `s` from the environment variables above (also TIKZLINT_LLM_CACHE for
// cache_dir).
void apply_environment(Settings& s);

struct Outcome {
  std::optional<ir::Diagram> diagram;     // set when the model's answer was usable
  std::vector<Diagnostic> diagnostics;    // located; e.g. "llm-invalid-json", "llm-schema"
  nlohmann::json stats = nlohmann::json::object();  // latency_ms, prompt_tokens, completion_tokens, cached, retries
};

// Translate one file's TikZ source. Thread-safe; honours max_concurrency across threads.
Outcome translate(const std::string& source_text, FileId file, const Settings& s);

}  // namespace tikzlint::backtranslate
