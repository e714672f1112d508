// backtranslate/cache.cpp: answers on disk, keyed by (model, prompt version, SHA-256 of the
// source), so that re-running a batch costs no requests. One JSON file per key; written to a
// temporary file in the same folder and renamed, so a reader never sees half a file.
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

#include "backtranslate/detail.hpp"

namespace tikzlint::backtranslate::detail {
namespace fs = std::filesystem;

std::string cache_key(const std::string& model, const std::string& source_text) {
  // Length-prefixed fields: no choice of model name can collide with another key's fields.
  std::string version = kPromptVersion;
  std::string material = std::to_string(model.size()) + ":" + model + "|" +
                         std::to_string(version.size()) + ":" + version + "|" +
                         sha256_hex(source_text);
  return sha256_hex(material);
}

std::optional<CacheEntry> cache_load(const std::string& dir, const std::string& model,
                                     const std::string& source_text) {
  if (dir.empty()) return std::nullopt;
  fs::path file = fs::path(dir) / (cache_key(model, source_text) + ".json");
  std::ifstream in(file, std::ios::binary);
  if (!in) return std::nullopt;
  std::stringstream ss;
  ss << in.rdbuf();
  auto j = nlohmann::json::parse(ss.str(), nullptr, /*allow_exceptions=*/false);
  // The key fields are stored too; a mismatch (hand-edited or foreign file) is a miss.
  if (!j.is_object() || j.value("model", "") != model ||
      j.value("prompt_version", "") != kPromptVersion ||
      j.value("source_sha256", "") != sha256_hex(source_text) || !j.contains("content") ||
      !j["content"].is_string())
    return std::nullopt;
  CacheEntry e;
  e.content = j["content"].get<std::string>();
  if (j.contains("usage") && j["usage"].is_object()) e.usage = j["usage"];
  return e;
}

bool cache_store(const std::string& dir, const std::string& model, const std::string& source_text,
                 const CacheEntry& entry) {
  if (dir.empty()) return false;
  std::error_code ec;
  fs::create_directories(dir, ec);
  const std::string key = cache_key(model, source_text);
  fs::path final_path = fs::path(dir) / (key + ".json");
  // Unique per process and thread, so concurrent writers of one key never share a temp file.
  static std::atomic<unsigned> counter{0};
  std::ostringstream tmp_name;
  tmp_name << "." << key << ".tmp." << ::getpid() << "." << std::this_thread::get_id() << "."
           << counter.fetch_add(1);
  fs::path tmp_path = fs::path(dir) / tmp_name.str();
  nlohmann::json j = {{"model", model},
                      {"prompt_version", kPromptVersion},
                      {"source_sha256", sha256_hex(source_text)},
                      {"content", entry.content},
                      {"usage", entry.usage}};
  {
    std::ofstream out(tmp_path, std::ios::binary | std::ios::trunc);
    if (!out) return false;
    out << j.dump(1) << '\n';
    out.flush();
    if (!out) {
      out.close();
      fs::remove(tmp_path, ec);
      return false;
    }
  }
  fs::rename(tmp_path, final_path, ec);
  if (ec) {
    fs::remove(tmp_path, ec);
    return false;
  }
  return true;
}

}  // namespace tikzlint::backtranslate::detail
