// ir/shape_keys.cpp: the library shapes' keys (their pgfkeys values), which the key applier
// records on a node for the shape builders of packages/shapes/.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <unordered_map>

#include "ir/nodes.hpp"
#include "support/ascii.hpp"

namespace tikzlint::ir {
namespace {

enum class Kind { length, number, text, boolean };
struct ParameterKey {
  std::string_view key;
  Kind kind;
  std::string_view stored_as;  // "" = key itself; styles that set another key name it
};
// pgflibraryshapes.*.code.tex and shapes/circuits/ (the /pgf/ keys the shapes read).
constexpr ParameterKey kParameters[] = {
    {"shape aspect", Kind::number, ""},
    {"aspect", Kind::number, "shape aspect"},
    {"shape border rotate", Kind::number, ""},
    {"star rotate", Kind::number, "shape border rotate"},
    {"regular polygon rotate", Kind::number, "shape border rotate"},
    {"shape border uses incircle", Kind::boolean, ""},
    {"regular polygon sides", Kind::number, ""},
    {"star points", Kind::number, ""},
    {"star point ratio", Kind::number, ""},
    {"star point height", Kind::length, ""},
    {"trapezium left angle", Kind::number, ""},
    {"trapezium right angle", Kind::number, ""},
    {"trapezium stretches", Kind::boolean, ""},
    {"trapezium stretches body", Kind::boolean, ""},
    {"isosceles triangle apex angle", Kind::number, ""},
    {"isosceles triangle stretches", Kind::boolean, ""},
    {"kite upper vertex angle", Kind::number, ""},
    {"kite lower vertex angle", Kind::number, ""},
    {"dart tip angle", Kind::number, ""},
    {"dart tail angle", Kind::number, ""},
    {"circular sector angle", Kind::number, ""},
    {"logic gate inputs", Kind::text, ""},
    {"logic gate inverted radius", Kind::length, ""},
    {"logic gate input sep", Kind::length, ""},
    {"logic gate anchors use bounding box", Kind::boolean, ""},
    {"single arrow tip angle", Kind::number, ""},
    {"single arrow head extend", Kind::length, ""},
    {"single arrow head indent", Kind::length, ""},
    {"double arrow tip angle", Kind::number, ""},
    {"double arrow head extend", Kind::length, ""},
    {"double arrow head indent", Kind::length, ""},
    {"chamfered rectangle angle", Kind::number, ""},
    {"chamfered rectangle xsep", Kind::length, ""},
    {"chamfered rectangle ysep", Kind::length, ""},
    {"cylinder uses custom fill", Kind::boolean, ""},
    {"rounded rectangle arc length", Kind::number, ""},
    {"rounded rectangle west arc", Kind::text, ""},
    {"rounded rectangle east arc", Kind::text, ""},
    {"rounded rectangle left arc", Kind::text, "rounded rectangle west arc"},
    {"rounded rectangle right arc", Kind::text, "rounded rectangle east arc"},
};

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return s;
}

std::string unbraced(std::string_view s) {
  s = trimmed(s);
  if (s.size() >= 2 && s.front() == '{' && s.back() == '}') s = trimmed(s.substr(1, s.size() - 2));
  return std::string(s);
}

}  // namespace

bool record_shape_parameter(std::shared_ptr<const ShapeParameters>& params, std::string_view key,
                            const std::string& value, const Evaluate& dim, const Evaluate& num) {
  auto edit = [&]() -> ShapeParameters& {
    auto copy = params ? std::make_shared<ShapeParameters>(*params) : std::make_shared<ShapeParameters>();
    params = copy;
    return *copy;
  };
  // styles over two keys
  if (key == "trapezium angle") {
    if (auto a = num(value)) {
      auto& p = edit();
      p.numbers["trapezium left angle"] = p.numbers["trapezium right angle"] = *a;
    }
    return true;
  }
  if (key == "chamfered rectangle sep") {
    if (auto a = dim(value)) {
      auto& p = edit();
      p.numbers["chamfered rectangle xsep"] = p.numbers["chamfered rectangle ysep"] = *a;
    }
    return true;
  }
  if (key == "kite vertex angles") {
    // "a" or "a and b" (pgflibraryshapes.geometric: upper, lower)
    const std::string v = unbraced(value);
    const std::size_t sep = v.find(" and ");
    auto upper = num(sep == std::string::npos ? v : v.substr(0, sep));
    auto lower = num(sep == std::string::npos ? v : v.substr(sep + 5));
    if (upper && lower) {
      auto& p = edit();
      p.numbers["kite upper vertex angle"] = *upper;
      p.numbers["kite lower vertex angle"] = *lower;
    }
    return true;
  }
  static const std::unordered_map<std::string_view, const ParameterKey*> by_key = [] {
    std::unordered_map<std::string_view, const ParameterKey*> m;
    for (const auto& k : kParameters) m.emplace(k.key, &k);  // the first entry of a key wins, as in a scan
    return m;
  }();
  if (auto f = by_key.find(key); f != by_key.end()) {
    const ParameterKey& k = *f->second;
    const std::string stored(k.stored_as.empty() ? k.key : k.stored_as);
    switch (k.kind) {
      case Kind::length:
        if (auto d = dim(value)) edit().numbers[stored] = *d;
        break;
      case Kind::number:
        if (auto d = num(value)) edit().numbers[stored] = *d;
        break;
      case Kind::boolean:
        edit().numbers[stored] = trimmed(value) == "false" ? 0 : 1;
        break;
      case Kind::text:
        edit().texts[stored] = unbraced(value);
        break;
    }
    // star point height / ratio: the last one set decides how the outer radius is found
    if (key == "star point height") edit().numbers["star uses ratio"] = 0;
    if (key == "star point ratio") edit().numbers["star uses ratio"] = 1;
    return true;
  }
  return false;
}

}  // namespace tikzlint::ir
