// ir/chains.cpp: the chains library's keys (pgfmanual 46, tikzlibrarychains.code.tex); \chainin is
// packages/chains/.
//
//  - `start chain=<name> going <dir>` / `placed <dir>` makes a chain (count 0) and the current one;
//    `continue chain` makes an existing chain current and may change its direction;
//  - `on chain=<name>` on a node: \tikzchainprevious is <name>-<count>, the count grows, the node
//    is also <name>-<n>, <name>-end and (first) <name>-begin, and it is placed `<dir>=of previous`
//    (`going`: not the first node) or by the `placed` keys; then `every on chain`;
//  - `join=with <x> by <opts>` adds `(<x>) edge[every join,<opts>] (<node>)` after the node
//    (without `with`: from \tikzchainprevious, when there is one);
//  - `start branch=<b> going <dir>`: the chain <current>/<b> whose first member is <current>-end;
//  - `\chainin (x) [opts]` puts the existing node x on the current chain (it is not moved).
//
// Counts and directions are global in pgf (\gdef): they live in one ChainState per picture that
// every Settings copy shares; the current chain and the default direction follow TeX groups.
#include <cctype>
#include <string>
#include <string_view>

#include "ir/chains.hpp"
#include "support/ascii.hpp"

namespace tikzlint::ir {
namespace {

std::string trim_copy(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

std::string replace_all(std::string s, const std::string& from, const std::string& to) {
  for (std::size_t at = s.find(from); at != std::string::npos; at = s.find(from, at + to.size())) {
    const std::size_t end = at + from.size();
    if (end < s.size() && std::isalpha(static_cast<unsigned char>(s[end]))) {  // \x must not match \xa
      at += 1;
      continue;
    }
    s.replace(at, from.size(), to);
  }
  return s;
}

// \tikz@lib@chain@parse: `<name> going <dir>`, `<name> placed <dir>` or just `<name>`.
struct ChainSpec {
  std::string name;
  bool has_direction = false, going = true;
  std::string direction;
};
ChainSpec parse_spec(std::string_view v) {
  ChainSpec out;
  const std::string t(v);
  for (const char* word : {"going ", "placed "}) {
    const std::size_t at = t.find(word);
    if (at == std::string::npos) continue;
    out.name = trim_copy(std::string_view(t).substr(0, at));
    out.direction = trim_copy(std::string_view(t).substr(at + std::char_traits<char>::length(word)));
    out.has_direction = true;
    out.going = word[0] == 'g';
    return out;
  }
  out.name = trim_copy(t);
  return out;
}

// \tikz@lib@chain@parse@join: `with <x> by <opts>`, `with <x>`, `by <opts>` or nothing.
std::pair<std::string, std::string> parse_join(const std::string& v) {
  std::string t = trim_copy(v);
  std::string with, by;
  if (t.rfind("with ", 0) == 0) {
    const std::size_t b = t.find(" by ");
    with = trim_copy(std::string_view(t).substr(5, b == std::string::npos ? std::string::npos : b - 5));
    if (b != std::string::npos) by = trim_copy(std::string_view(t).substr(b + 4));
  } else if (t.rfind("by ", 0) == 0 || t == "by") {
    by = trim_copy(std::string_view(t).substr(2));
  } else {
    by = t;  // pgf reads `join=<opts>` without `by` as nothing it knows; keep the options
  }
  if (with.size() >= 2 && with.front() == '(' && with.back() == ')') with = trim_copy(with.substr(1, with.size() - 2));
  return {tex::strip_braces(with), tex::strip_braces(by)};
}

}  // namespace

bool apply_chain_key(const ChainKeyContext& cx, Settings& s, const std::string& key, const std::string& value,
                     bool has_value) {
  ChainState& state = *s.lib->chains;
  auto place = [&](const std::string& direction, bool going, const std::string& previous, int count) {
    // \tikz@lib@chain@place: `<dir>=of <previous>`, or the keys themselves when they hold a '='
    if (going && previous.empty()) return;
    std::string text = replace_all(direction, "\\tikzchainprevious", previous);
    text = replace_all(text, "\\tikzchaincount", std::to_string(count));
    if (text.size() >= 2 && text.front() == '{' && text.back() == '}') text = text.substr(1, text.size() - 2);
    if (text.find('=') == std::string::npos) text += "=of " + previous;
    cx.apply(s, text);
  };
  if (key == "chain default direction") {
    ChainSpec sp = parse_spec(value);
    if (sp.has_direction) {
      s.lib.mut().chain_default_direction = sp.direction;
      s.lib.mut().chain_default_going = sp.going;
    }
    return true;
  }
  if (key == "start chain" || key == "start branch") {
    std::string spec = value;
    std::string trunk_end;
    if (key == "start branch") {
      // start chain=<current>/<spec>, then the current chain's end node opens the branch
      const std::string trunk = s.lib->current_chain;
      auto t = state.chains.find(trunk);
      if (t != state.chains.end() && !t->second.members.empty()) trunk_end = t->second.members.back();
      spec = trunk + "/" + trim_copy(spec);
    }
    ChainSpec sp = parse_spec(spec);
    if (sp.name.empty()) sp.name = "chain";
    ChainState::Chain c;
    c.direction = sp.has_direction ? sp.direction : s.lib->chain_default_direction;
    c.going = sp.has_direction ? sp.going : s.lib->chain_default_going;
    if (!trunk_end.empty()) {
      // \path[late options={name=<trunk>-end,on chain}]: the branch's first member, not moved
      c.members.push_back(trunk_end);
      for (const char* suffix : {"-begin", "-end", "-1"})
        state.pending_aliases.emplace_back(sp.name + suffix, trunk_end);
    }
    state.chains[sp.name] = std::move(c);
    s.lib.mut().current_chain = sp.name;
    return true;
  }
  if (key == "continue chain" || key == "continue branch") {
    ChainSpec sp = parse_spec(key == "continue branch" ? s.lib->current_chain + "/" + trim_copy(value) : value);
    if (sp.name.empty()) sp.name = s.lib->current_chain;
    auto it = state.chains.find(sp.name);
    if (it == state.chains.end()) {
      cx.problem("unsupported-key", "unknown chain '" + sp.name + "': it was not started");
      return true;
    }
    s.lib.mut().current_chain = sp.name;
    if (sp.has_direction) {
      it->second.direction = sp.direction;
      it->second.going = sp.going;
    }
    return true;
  }
  if (key == "on chain") {
    ChainSpec sp = parse_spec(has_value ? value : "");
    if (sp.name.empty()) sp.name = s.lib->current_chain;
    auto it = state.chains.find(sp.name);
    if (it == state.chains.end()) {
      cx.problem("unsupported-key", "unknown chain '" + sp.name + "': it was not started");
      return true;
    }
    ChainState::Chain& c = it->second;
    const std::string previous = c.members.empty() ? "" : c.members.back();
    const int count = static_cast<int>(c.members.size()) + 1;  // \tikzchaincount
    state.previous = previous;
    const std::string current = sp.name + "-" + std::to_string(count);
    c.members.push_back(current);
    s.lib.mut().on_chain = true;
    s.lib.mut().chain_previous = previous;
    if (count == 1) s.lib.mut().aliases.push_back(sp.name + "-begin");
    s.lib.mut().aliases.push_back(sp.name + "-end");
    s.lib.mut().aliases.push_back(current);
    if (sp.has_direction) place(sp.direction, sp.going, previous, count);
    else place(c.direction, c.going, previous, count);
    cx.apply(s, "every on chain");
    return true;
  }
  if (key == "join") {
    s.lib.mut().joins.push_back(parse_join(has_value ? value : ""));
    return true;
  }
  if (key == "alias") {
    s.lib.mut().aliases.push_back(trim_copy(value));
    return true;
  }
  return false;
}

void reset_node_library_keys(Settings& ns) {
  const LibrarySettings& l = *ns.lib;
  if (l.aliases.empty() && l.joins.empty() && !l.on_chain && l.chain_previous.empty()) return;  // no copy
  LibrarySettings& m = ns.lib.mut();
  m.aliases.clear();
  m.joins.clear();
  m.on_chain = false;
  m.chain_previous.clear();
}

std::vector<std::string> node_aliases(const Settings& ns) { return ns.lib->aliases; }

std::vector<std::pair<std::string, std::string>> take_pending_aliases(const Settings& ns) {
  if (!ns.lib->chains) return {};
  std::vector<std::pair<std::string, std::string>> out;
  out.swap(ns.lib->chains->pending_aliases);
  return out;
}

std::vector<std::string> join_statements(const Settings& ns, const std::string& node) {
  std::vector<std::string> out;
  for (const auto& [with, by] : ns.lib->joins) {
    // \tikz@lib@parse@join@by: from \tikzchainprevious (the node's own when it is on a chain)
    const std::string from =
        !with.empty() ? with : ns.lib->on_chain ? ns.lib->chain_previous : ns.lib->chains ? ns.lib->chains->previous : "";
    if (from.empty()) continue;
    out.push_back("\\path (" + from + ") edge[every join" + (by.empty() ? "" : "," + by) + "] (" + node + ");");
  }
  return out;
}

}  // namespace tikzlint::ir
