// packages/chains/chainin.cpp: `\chainin` of the chains library (pgfmanual 46.3,
// tikzlibrarychains.code.tex). The chain keys themselves (start chain, on chain, join...) are the key
// applier's (ir/chains.cpp): they hold in Settings, which every scope copies.
#include <string>
#include <string_view>

#include "ir/chains.hpp"
#include "ir/library.hpp"
#include "packages/support.hpp"

namespace tikzlint::ir {
namespace {

std::string trim_copy(std::string_view s) { return std::string(text_trim(s)); }

// \chainin (x) [opts]: \path[late options={name=x,on chain,every chain in,opts}] — the node x joins
// the current chain where it stands; the chain's direction does not move it.
bool lower_chainin(const tex::Statement& st, LibraryHost& host) {
  const std::string& t = st.text;
  const std::uint32_t end = static_cast<std::uint32_t>(t.size());
  std::size_t i = t.find("\\chainin");
  if (i == std::string::npos) return false;
  i = text_skip_space(t, i + 8);
  if (i >= t.size() || t[i] != '(') return false;
  const std::size_t close = text_skip_group(t, i);
  if (close == std::string::npos) return false;
  const std::string name = trim_copy(std::string_view(t).substr(i + 1, close - i - 2));
  std::string opts;
  std::size_t j = text_skip_space(t, close);
  if (j < t.size() && t[j] == '[') {
    const std::size_t oe = text_skip_group(t, j);
    if (oe == std::string::npos) return false;
    opts = t.substr(j + 1, oe - j - 2);
    j = oe;
  }
  j = text_skip_space(t, j);
  if (j < t.size() && t[j] != ';') {
    host.problem("unsupported-construct", "text after '\\chainin (" + name + ")' is not lowered", 0, end);
  }
  if (!host.named_center(name)) {
    host.problem("unsupported-coordinate", "\\chainin: no node '" + name + "' is known here", 0, end);
    return true;
  }
  Settings s = host.settings();  // the chain state is shared; the node's own keys are not kept
  reset_node_library_keys(s);
  std::vector<std::string> problems;
  ChainKeyContext cx;
  cx.apply = [&](Settings& target, const std::string& text) {
    for (const auto& k : host.expand_keys(text)) apply_chain_key(cx, target, tex::normalise_key(k.key), k.value, k.has_value);
  };
  cx.problem = [&](const std::string& code, const std::string& message) { host.problem(code, message, 0, end); };
  // the node keeps its place: only the chain's bookkeeping and the joins of `on chain` count
  const std::string chain = s.lib->current_chain;
  auto it = s.lib->chains->chains.find(chain);
  if (it == s.lib->chains->chains.end()) {
    host.problem("unsupported-key", "\\chainin: unknown chain '" + chain + "': it was not started", 0, end);
    return true;
  }
  ChainState::Chain& c = it->second;
  const std::string previous = c.members.empty() ? "" : c.members.back();
  const int count = static_cast<int>(c.members.size()) + 1;
  s.lib->chains->previous = previous;
  c.members.push_back(name);
  s.lib.mut().on_chain = true;
  s.lib.mut().chain_previous = previous;
  if (count == 1) host.alias_node(chain + "-begin", name);
  host.alias_node(chain + "-end", name);
  host.alias_node(chain + "-" + std::to_string(count), name);
  cx.apply(s, "every on chain");
  cx.apply(s, "every chain in");
  if (!trim_copy(opts).empty()) cx.apply(s, opts);
  for (const std::string& statement : join_statements(s, name)) host.emit(statement, 0, end);
  return true;
}


}  // namespace
}  // namespace tikzlint::ir

namespace tikzlint::packages {

std::unique_ptr<ir::Package> chains() {
  return statement_package("chains", [](const ir::PackageStatement& s, ir::LibraryHost& host) {
    if (s.path || s.command != "\\chainin") return ir::Offer::pass;
    return ir::lower_chainin(s.st, host) ? ir::Offer::lowered : ir::Offer::declined;
  });
}

}  // namespace tikzlint::packages
