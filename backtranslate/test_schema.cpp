// Unit tests of the pieces under translate(): the schema validator, hashing, dimensions,
// Retry-After parsing and key redaction.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>

#include "backtranslate/detail.hpp"

using namespace tikzlint::backtranslate;
using nlohmann::json;

namespace {

std::string read_testdata(const std::string& name) {
  std::ifstream in(std::string(TIKZLINT_SOURCE_DIR) + "/backtranslate/testdata/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

bool has_error_at(const std::vector<detail::SchemaError>& errors, const std::string& pointer) {
  for (const auto& e : errors)
    if (e.pointer == pointer) return true;
  return false;
}

}  // namespace

TEST_CASE("sha256 matches the FIPS 180-4 test vectors") {
  CHECK(detail::sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  CHECK(detail::sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  CHECK(detail::sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
        "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // Lengths around the padding boundary (55/56/64 bytes) take the two-block tail path.
  CHECK(detail::sha256_hex(std::string(56, 'a')) ==
        "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a");
  CHECK(detail::sha256_hex(std::string(55, 'a')) ==
        "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318");
  CHECK(detail::sha256_hex(std::string(64, 'a')) ==
        "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb");
  CHECK(detail::sha256_hex(std::string(1000000, 'a')) ==
        "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST_CASE("the published schema parses and accepts the hand-written valid IR") {
  const json& schema = detail::llm_ir_schema();
  REQUIRE(schema.is_object());
  CHECK(schema["type"] == "object");
  json ir = json::parse(read_testdata("valid_ir.json"));
  auto errors = detail::validate(ir, schema);
  for (const auto& e : errors) INFO(e.pointer << ": " << e.message);
  CHECK(errors.empty());
}

TEST_CASE("the compiled-in schema is the text of docs/llm-ir-schema.json") {
  std::ifstream in(std::string(TIKZLINT_SOURCE_DIR) + "/docs/llm-ir-schema.json");
  std::stringstream ss;
  ss << in.rdbuf();
  CHECK(json::parse(ss.str()) == detail::llm_ir_schema());
}

TEST_CASE("validator: each keyword of the subset reports its violation with a pointer") {
  json schema = json::parse(R"({
    "type": "object", "additionalProperties": false, "required": ["a", "b", "c", "d", "e"],
    "properties": {
      "a": {"type": "integer", "minimum": 1},
      "b": {"enum": ["x", "y", null]},
      "c": {"type": "array", "items": {"$ref": "#/$defs/pair"}},
      "d": {"type": ["string", "null"]},
      "e": {"type": "boolean"}
    },
    "$defs": {"pair": {"type": "array", "items": {"type": "number"}, "minItems": 2, "maxItems": 2}}
  })");
  json good = json::parse(R"({"a": 3, "b": null, "c": [[1, 2.5]], "d": null, "e": true})");
  CHECK(detail::validate(good, schema).empty());

  SUBCASE("type") {
    json bad = good;
    bad["e"] = "true";
    auto errors = detail::validate(bad, schema);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].pointer == "/e");
    CHECK(errors[0].message.find("expected boolean") != std::string::npos);
  }
  SUBCASE("type list and integer") {
    json bad = good;
    bad["d"] = 4;
    bad["a"] = 2.5;
    auto errors = detail::validate(bad, schema);
    CHECK(has_error_at(errors, "/d"));
    CHECK(has_error_at(errors, "/a"));
    bad["a"] = 2.0;  // integral floats are integers in JSON Schema
    CHECK_FALSE(has_error_at(detail::validate(bad, schema), "/a"));
  }
  SUBCASE("minimum") {
    json bad = good;
    bad["a"] = 0;
    auto errors = detail::validate(bad, schema);
    REQUIRE(errors.size() == 1);
    CHECK(errors[0].message.find("minimum") != std::string::npos);
  }
  SUBCASE("enum") {
    json bad = good;
    bad["b"] = "z";
    CHECK(has_error_at(detail::validate(bad, schema), "/b"));
  }
  SUBCASE("required and additionalProperties") {
    json bad = good;
    bad.erase("c");
    bad["zzz"] = 1;
    auto errors = detail::validate(bad, schema);
    REQUIRE(errors.size() == 2);
    CHECK(has_error_at(errors, ""));
    CHECK(has_error_at(errors, "/zzz"));
  }
  SUBCASE("items, minItems, maxItems through $ref") {
    json bad = good;
    bad["c"] = json::parse(R"([[1], [1, 2, 3], [1, "2"]])");
    auto errors = detail::validate(bad, schema);
    CHECK(has_error_at(errors, "/c/0"));
    CHECK(has_error_at(errors, "/c/1"));
    CHECK(has_error_at(errors, "/c/2/1"));
  }
  SUBCASE("an unresolvable $ref is an error, not a pass") {
    json s2 = {{"$ref", "#/$defs/missing"}};
    CHECK_FALSE(detail::validate(1, s2).empty());
  }
}

TEST_CASE("validator: error count is capped") {
  json schema = {{"type", "array"}, {"items", {{"type", "string"}}}};
  json many = json::array();
  for (int i = 0; i < 100; ++i) many.push_back(i);
  CHECK(detail::validate(many, schema, 5).size() == 5);
}

TEST_CASE("dimensions as written become pt, a bare number is pt") {
  CHECK(*detail::parse_length_pt("3pt") == doctest::Approx(3));
  CHECK(*detail::parse_length_pt("-2in") == doctest::Approx(-144.54));
  CHECK(*detail::parse_length_pt("1.5cm") == doctest::Approx(1.5 * 72.27 / 2.54));
  CHECK(*detail::parse_length_pt(" 5 mm ") == doctest::Approx(72.27 / 2.54 / 2));
  CHECK(*detail::parse_length_pt("72bp") == doctest::Approx(72.27));
  CHECK(*detail::parse_length_pt("4") == doctest::Approx(4));
  CHECK_FALSE(detail::parse_length_pt("3furlongs"));
  CHECK_FALSE(detail::parse_length_pt(""));
  CHECK_FALSE(detail::parse_length_pt("pt"));
}

TEST_CASE("Retry-After: delta-seconds parse, anything else falls back") {
  CHECK(*detail::parse_retry_after_ms(" 2 \r\n") == 2000);
  CHECK(*detail::parse_retry_after_ms("0.5") == 500);
  CHECK_FALSE(detail::parse_retry_after_ms("Wed, 21 Oct 2015 07:28:00 GMT"));
  CHECK_FALSE(detail::parse_retry_after_ms("-1"));
}

TEST_CASE("redact removes every occurrence of the key and nothing else") {
  CHECK(detail::redact("a sk-1 b sk-1", "sk-1") == "a [redacted] b [redacted]");
  CHECK(detail::redact("nothing here", "") == "nothing here");
}

TEST_CASE("the request speaks chat-completions with a strict json_schema response format") {
  Settings s;
  s.model = "some-model";
  json req = detail::chat_request("\\draw (0,0) -- (1,0);\n\\node {A};\n", s);
  CHECK(req["model"] == "some-model");
  CHECK(req["temperature"] == 0);
  CHECK_FALSE(req.contains("max_tokens"));
  REQUIRE(req["messages"].size() == 2);
  CHECK(req["messages"][0]["role"] == "system");
  CHECK(req["messages"][1]["role"] == "user");
  std::string user = req["messages"][1]["content"];
  CHECK(user.find("   1| \\draw (0,0) -- (1,0);\n   2| \\node {A};\n") != std::string::npos);
  const json& rf = req["response_format"];
  CHECK(rf["type"] == "json_schema");
  CHECK(rf["json_schema"]["strict"] == true);
  CHECK(rf["json_schema"]["name"] == "tikzlint_ir");
  CHECK(rf["json_schema"]["schema"]["required"] == detail::llm_ir_schema()["required"]);
  CHECK_FALSE(rf["json_schema"]["schema"].contains("$schema"));
  s.max_tokens = 4096;
  CHECK(detail::chat_request("x", s)["max_tokens"] == 4096);
}
