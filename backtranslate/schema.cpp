// backtranslate/schema.cpp: a validator for the subset of JSON Schema that
// docs/llm-ir-schema.json uses. The server may or may not enforce the schema (strict mode is a
// request, not a guarantee across OpenAI, vLLM, llama.cpp, Ollama), so we check it ourselves.
#include <cmath>

#include "backtranslate/detail.hpp"

namespace tikzlint::backtranslate::detail {
namespace {

using nlohmann::json;

bool has_type(const json& v, const std::string& type) {
  if (type == "object") return v.is_object();
  if (type == "array") return v.is_array();
  if (type == "string") return v.is_string();
  if (type == "boolean") return v.is_boolean();
  if (type == "null") return v.is_null();
  if (type == "number") return v.is_number();
  if (type == "integer") {
    if (v.is_number_integer()) return true;
    if (v.is_number_float()) {
      double d = v.get<double>();
      return std::isfinite(d) && d == std::floor(d);
    }
    return false;
  }
  return false;
}

std::string escape_pointer_token(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '~') out += "~0";
    else if (c == '/') out += "~1";
    else out += c;
  }
  return out;
}

class Validator {
 public:
  Validator(const json& root, std::size_t max_errors) : root_(root), max_errors_(max_errors) {}
  std::vector<SchemaError> errors;

  void check(const json& v, const json& schema, const std::string& ptr, int depth = 0) {
    if (errors.size() >= max_errors_) return;
    if (depth > 64) {
      fail(ptr, "schema nesting too deep");
      return;
    }
    if (schema.is_boolean()) {
      if (!schema.get<bool>()) fail(ptr, "no value allowed here");
      return;
    }
    if (!schema.is_object()) return;
    if (auto it = schema.find("$ref"); it != schema.end()) {
      const json* target = resolve(it->get<std::string>());
      if (!target) {
        fail(ptr, "schema reference " + it->get<std::string>() + " cannot be resolved");
        return;
      }
      check(v, *target, ptr, depth + 1);
    }
    if (auto it = schema.find("type"); it != schema.end()) {
      bool ok = false;
      std::string expected;
      if (it->is_string()) {
        ok = has_type(v, it->get<std::string>());
        expected = it->get<std::string>();
      } else if (it->is_array()) {
        for (const auto& t : *it) {
          ok = ok || has_type(v, t.get<std::string>());
          expected += (expected.empty() ? "" : " or ") + t.get<std::string>();
        }
      }
      if (!ok) {
        fail(ptr, "expected " + expected + ", got " + std::string(v.type_name()));
        return;  // the keywords below would only repeat the same problem
      }
    }
    if (auto it = schema.find("enum"); it != schema.end()) {
      bool found = false;
      for (const auto& allowed : *it) found = found || allowed == v;
      if (!found) fail(ptr, "value " + v.dump() + " is not one of " + it->dump());
    }
    if (auto it = schema.find("minimum"); it != schema.end() && v.is_number()) {
      if (v.get<double>() < it->get<double>())
        fail(ptr, "value " + v.dump() + " is below the minimum " + it->dump());
    }
    if (v.is_object()) check_object(v, schema, ptr, depth);
    if (v.is_array()) check_array(v, schema, ptr, depth);
  }

 private:
  const json& root_;
  std::size_t max_errors_;

  void fail(const std::string& ptr, std::string message) {
    if (errors.size() < max_errors_) errors.push_back({ptr, std::move(message)});
  }

  const json* resolve(const std::string& ref) const {
    if (ref.rfind("#/", 0) != 0) return ref == "#" ? &root_ : nullptr;
    try {
      json::json_pointer p(ref.substr(1));
      return root_.contains(p) ? &root_.at(p) : nullptr;
    } catch (const json::exception&) {
      return nullptr;
    }
  }

  void check_object(const json& v, const json& schema, const std::string& ptr, int depth) {
    if (auto it = schema.find("required"); it != schema.end()) {
      for (const auto& name : *it)
        if (!v.contains(name.get<std::string>()))
          fail(ptr, "missing required property \"" + name.get<std::string>() + "\"");
    }
    const json* props = nullptr;
    if (auto it = schema.find("properties"); it != schema.end()) props = &*it;
    auto extra = schema.find("additionalProperties");
    for (const auto& [key, value] : v.items()) {
      std::string child = ptr + "/" + escape_pointer_token(key);
      if (props && props->contains(key)) {
        check(value, (*props)[key], child, depth + 1);
      } else if (extra != schema.end()) {
        if (extra->is_boolean() && !extra->get<bool>())
          fail(child, "property \"" + key + "\" is not allowed");
        else
          check(value, *extra, child, depth + 1);
      }
    }
  }

  void check_array(const json& v, const json& schema, const std::string& ptr, int depth) {
    if (auto it = schema.find("minItems"); it != schema.end() && v.size() < it->get<std::size_t>())
      fail(ptr, "expected at least " + it->dump() + " items, got " + std::to_string(v.size()));
    if (auto it = schema.find("maxItems"); it != schema.end() && v.size() > it->get<std::size_t>())
      fail(ptr, "expected at most " + it->dump() + " items, got " + std::to_string(v.size()));
    if (auto it = schema.find("items"); it != schema.end()) {
      for (std::size_t i = 0; i < v.size(); ++i)
        check(v[i], *it, ptr + "/" + std::to_string(i), depth + 1);
    }
  }
};

}  // namespace

const nlohmann::json& llm_ir_schema() {
  // Immutable after first use; parsing once is a cache, not shared mutable state.
  static const nlohmann::json schema = nlohmann::json::parse(llm_ir_schema_text());
  return schema;
}

std::vector<SchemaError> validate(const nlohmann::json& instance, const nlohmann::json& schema,
                                  std::size_t max_errors) {
  Validator v(schema, max_errors);
  v.check(instance, schema, "");
  return std::move(v.errors);
}

}  // namespace tikzlint::backtranslate::detail
