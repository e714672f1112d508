// ir/chains.hpp: the chains library's keys (ir/chains.cpp; \chainin is packages/chains/), applied by
// the key applier (library_keys.cpp) on nodes, scopes and pictures and by \chainin.
#pragma once
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "ir/lowering.hpp"

namespace tikzlint::ir {

struct ChainKeyContext {
  // apply an option text (through the style table) to the settings, e.g. "right=of chain-1"
  std::function<void(Settings&, const std::string&)> apply;
  std::function<void(const std::string& code, const std::string& message)> problem;
};

inline bool is_chain_key(std::string_view key) {  // string_views: lengths are compared first
  static constexpr std::string_view kKeys[] = {"start chain",    "start branch", "continue chain",
                                               "continue branch", "chain default direction", "on chain",
                                               "join",            "alias"};
  for (std::string_view k : kKeys)
    if (key == k) return true;
  return false;
}

// start chain, start branch, continue chain, continue branch, chain default direction, on chain,
// join, alias; false for any other key.
bool apply_chain_key(const ChainKeyContext& cx, Settings& s, const std::string& key, const std::string& value,
                     bool has_value);

// The edges of a node's `join`s, as statements that name the node `node`.
std::vector<std::string> join_statements(const Settings& ns, const std::string& node);

}  // namespace tikzlint::ir
