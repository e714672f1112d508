// packages/spy/spy.cpp: `\spy [options] on (x) in node <node spec>;` of the spy library (pgfmanual 71,
// tikzlibraryspy.code.tex \tikz@lib@spy@do), inside a scope with `spy using outlines`,
// `spy using overlays` or `spy scope`. In a scope of the spy scope's options and the \spy's:
//
//  - the spy-on node: `\node[alias=tikzspyonnode,inner sep=0pt,outer sep=0pt,every spy on node]{}`
//    shifted to (x) and transformed by the inverse of the lens (magnification=m is lens={scale=m}),
//    so it is the spy-in node's shape shrunk by the magnification around the spied point;
//  - the spy-in node: `\node[alias=tikzspyinnode,inner sep=0pt,outer sep=0pt,at={(x)},every spy in
//    node] <node spec> {};` (`size=`, `width=`, `height=` are its minimum size/width/height);
//  - `connect spies`: `\draw[thin] (tikzspyonnode) -- (tikzspyinnode);`.
//
// The magnified copy of the picture that pgf paints inside the spy-in node (a path picture: the
// scope's box scaled by the lens about (x), clipped to the node) is not copied into the IR: the
// node is there with its outline and fill, the copy inside it is not, and that is reported
// (unsupported-construct), so that the rules say indeterminate rather than pass on what they cannot see.
#include <cctype>
#include <cmath>
#include <cstdio>
#include <string>
#include <string_view>

#include "ir/library.hpp"
#include "packages/support.hpp"
#include "support/ascii.hpp"

namespace tikzlint::ir {
namespace {

std::string trim_copy(std::string_view s) {
  while (!s.empty() && is_ascii_space(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_ascii_space(s.back())) s.remove_suffix(1);
  return std::string(s);
}

std::string fmt(double v) {
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.6f", v);
  return buf;
}

bool word_at(const std::string& t, std::size_t i, std::string_view w) {
  return t.compare(i, w.size(), w) == 0 &&
         (i + w.size() >= t.size() || !std::isalpha(static_cast<unsigned char>(t[i + w.size()])));
}

class SpyLowerer {
 public:
  SpyLowerer(const tex::Statement& st, LibraryHost& host)
      : st_(st), host_(host), end_(static_cast<std::uint32_t>(st.text.size())) {}

  bool run();

 private:
  const tex::Statement& st_;
  LibraryHost& host_;
  std::uint32_t end_;

  void problem(const std::string& code, const std::string& msg) { host_.problem(code, msg, 0, end_); }
  // The spy keys of an option text: `size`, `width`, `height` become the node's minimum sizes,
  // `magnification` and `lens` the lens, `connect spies` the connection; the rest passes on.
  bool translate(const std::string& options, std::string& out, double& xscale, double& yscale, double& rotate,
                 bool& connect);
};

bool SpyLowerer::translate(const std::string& options, std::string& out, double& xscale, double& yscale,
                           double& rotate, bool& connect) {
  for (const auto& item : tex::split_options(options)) {
    const std::string key = tex::normalise_key(item.key);
    const std::string v = tex::strip_braces(trim_copy(item.value));
    auto number = [&](const std::string& text) -> std::optional<double> {
      std::string err;
      auto r = host_.eval(text, &err);
      if (!r) problem("math-error", "cannot evaluate '" + text + "'" + (err.empty() ? "" : ": " + err));
      return r ? std::optional<double>(r->value) : std::nullopt;
    };
    if (key == "size" || key == "width" || key == "height") {
      out += std::string(",minimum ") + key + "={" + v + "}";
    } else if (key == "magnification") {
      auto m = number(v);
      if (!m) return false;
      xscale = yscale = *m;
      rotate = 0;
    } else if (key == "lens") {
      // lens={...}: the transformations of the magnified copy; those a lens is made of
      xscale = yscale = 1;
      rotate = 0;
      for (const auto& lk : tex::split_options(v)) {
        const std::string lkey = tex::normalise_key(lk.key);
        auto d = number(tex::strip_braces(trim_copy(lk.value)));
        if (!d) return false;
        if (lkey == "scale") xscale = yscale = *d;
        else if (lkey == "xscale") xscale = *d;
        else if (lkey == "yscale") yscale = *d;
        else if (lkey == "rotate") rotate = *d;
        else {
          problem("unsupported-key", "spy lens key '" + lkey + "' is not lowered");
          return false;
        }
      }
    } else if (key == "connect spies") {
      connect = true;
    } else if (key == "spy connection path") {
      if (!v.empty()) {
        problem("unsupported-key", "a custom 'spy connection path' is not lowered");
        return false;
      }
      connect = false;
    } else {
      out += "," + (item.has_value ? item.key + "={" + item.value + "}" : item.key);
    }
  }
  return true;
}

bool SpyLowerer::run() {
  const std::string& t = st_.text;
  std::size_t i = t.find("\\spy");
  if (i == std::string::npos) return false;
  i = text_skip_space(t, i + 4);
  std::string opts;
  if (i < t.size() && t[i] == '[') {
    const std::size_t e = text_skip_group(t, i);
    if (e == std::string::npos) return false;
    opts = t.substr(i + 1, e - i - 2);
    i = text_skip_space(t, e);
  }
  if (!word_at(t, i, "on")) return false;
  // \tikz@lib@spy@parse@opta[#1]on#2in node#3;
  const std::size_t in = t.find("in node", i + 2);
  if (in == std::string::npos) return false;
  const std::string on = trim_copy(std::string_view(t).substr(i + 2, in - i - 2));
  std::string spec = trim_copy(std::string_view(t).substr(in + 7));
  if (!spec.empty() && spec.back() == ';') spec.pop_back();
  if (on.size() < 2 || on.front() != '(' || on.back() != ')') {
    problem("unsupported-coordinate", "\\spy on '" + on + "' is not a coordinate in parentheses");
    return true;
  }
  const std::string scope = host_.settings().lib->spy_scope;
  if (scope.empty()) {
    problem("unsupported-construct", "\\spy outside a scope with 'spy using outlines', 'spy using overlays' or "
                                     "'spy scope' (pgf does not define \\spy there)");
    return true;
  }
  std::string keys;
  double xs = 1, ys = 1, rot = 0;
  bool connect = false;
  if (!translate(scope, keys, xs, ys, rot, connect) || !translate(opts, keys, xs, ys, rot, connect)) return true;
  if (std::abs(xs) < 1e-9 || std::abs(ys) < 1e-9) {
    problem("math-error", "a spy lens that scales by 0 has no inverse");
    return true;
  }
  if (!keys.empty()) keys.erase(0, 1);
  // \scope[tikz@lib@spy@style,#1] ... \endscope
  host_.emit("\\begin{scope}[" + keys + "]", 0, end_);
  // the inverse lens: rotate back, then scale by the reciprocals (\pgftransforminvert)
  std::string inverse = "shift={" + on + "},xscale=" + fmt(1 / xs) + ",yscale=" + fmt(1 / ys);
  if (std::abs(rot) > 1e-12) inverse += ",rotate=" + fmt(-rot);
  host_.emit("\\node[alias=tikzspyonnode,inner sep=0pt,outer sep=0pt,every spy on node," + inverse + "] {};", 0,
             end_);
  host_.emit("\\node[alias=tikzspyinnode,inner sep=0pt,outer sep=0pt,at={" + on + "},every spy in node] " + spec +
                 " {};",
             0, end_);
  if (connect) host_.emit("\\draw[thin] (tikzspyonnode) -- (tikzspyinnode);", 0, end_);
  host_.emit("\\end{scope}", 0, end_);
  // what pgf paints inside the spy-in node is not in the IR: the rules cannot judge it
  problem("unsupported-construct", "the magnified copy inside the \\spy node is not lowered (only its outline)");
  return true;
}

}  // namespace

bool lower_spy(const tex::Statement& st, LibraryHost& host) {
  SpyLowerer s(st, host);
  return s.run();
}

}  // namespace tikzlint::ir

namespace tikzlint::packages {

std::unique_ptr<ir::Package> spy() {
  return statement_package("spy", [](const ir::PackageStatement& s, ir::LibraryHost& host) {
    if (!s.path || s.command != "\\spy") return ir::Offer::pass;
    return ir::lower_spy(s.st, host) ? ir::Offer::lowered : ir::Offer::declined;
  });
}

}  // namespace tikzlint::packages
