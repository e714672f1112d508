// backtranslate/detail.hpp: the parts of the LLM fallback behind translate(), exposed for the
// stage's unit tests and the benchmark driver. Other stages use backtranslate.hpp only.
#pragma once
#include <condition_variable>
#include <mutex>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "backtranslate/backtranslate.hpp"

namespace tikzlint::backtranslate::detail {

// --- hashing (cache keys) ---
std::string sha256_hex(std::string_view data);

// --- schema (docs/llm-ir-schema.json, compiled in) ---
const char* llm_ir_schema_text();
const nlohmann::json& llm_ir_schema();

struct SchemaError {
  std::string pointer;  // JSON pointer into the instance, "" for the root
  std::string message;
};
// Validates against the subset of JSON Schema we use: type (string or list), enum, required,
// properties, additionalProperties (false or a schema), items, minItems, maxItems, minimum and
// local $ref ("#/$defs/..."). Returns every violation found (capped at `max_errors`).
std::vector<SchemaError> validate(const nlohmann::json& instance, const nlohmann::json& schema,
                                  std::size_t max_errors = 20);

// --- prompt and request ---
std::string system_prompt();
nlohmann::json chat_request(const std::string& source_text, const Settings& s);

// --- HTTP ---
struct HttpResult {
  bool transport_ok = false;   // a response arrived
  bool timed_out = false;
  long status = 0;
  std::string body;
  std::string error;           // transport error text (never contains the key)
  int attempts = 0;
  double latency_ms = 0;       // all attempts and waits included
};
// POST `body` to {base_url}/chat/completions with retries (5xx, 429, timeouts, connection
// failures) and exponential backoff; 429's Retry-After is honoured up to max_backoff_ms.
HttpResult post_chat_completions(const nlohmann::json& body, const Settings& s);

// Parses an HTTP `Retry-After` value (delta-seconds only) to ms; nullopt if absent/unparsable.
std::optional<int> parse_retry_after_ms(std::string_view value);

// Replaces every occurrence of the key (if any) with "[redacted]".
std::string redact(std::string text, const std::string& api_key);

// --- concurrency ---
// A counting gate shared by every translate() of the process: at most `limit` requests in
// flight, whatever the number of threads. The limit may differ per call (callers agree in
// practice; each caller waits until fewer than its own limit are in flight).
class ConcurrencyGate {
 public:
  void acquire(int limit);
  void release();
  int in_flight() const;

 private:
  mutable std::mutex mu_;
  std::condition_variable cv_;
  int in_flight_ = 0;
};
ConcurrencyGate& process_gate();

// --- cache ---
struct CacheEntry {
  std::string content;    // the model's message content (validated JSON text)
  nlohmann::json usage = nlohmann::json::object();
};
std::string cache_key(const std::string& model, const std::string& source_text);
std::optional<CacheEntry> cache_load(const std::string& dir, const std::string& model,
                                     const std::string& source_text);
// Writes atomically (temp file in the same folder, then rename); false on I/O failure.
bool cache_store(const std::string& dir, const std::string& model, const std::string& source_text,
                 const CacheEntry& entry);

// --- lowering of the model's IR JSON (already schema-valid) into ir::Diagram ---
// Transforms are applied here (pgf order), units become pt; provenance origin is "llm" and
// points at the statement's line when the model gave one, else at the start of the file.
ir::Diagram lower_llm_ir(const nlohmann::json& ir_json, const std::string& source_text, FileId file);

// A TeX dimension as written ("3pt", "-2in", "1.5cm", "4"), in pt; a bare number is pt.
std::optional<double> parse_length_pt(std::string_view text);

}  // namespace tikzlint::backtranslate::detail
