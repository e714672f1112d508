// tex/styles.hpp: TikZ styles as pgfkeys defines them (pgfmanual 87 "Key Management").
// A scoped table (push/pop like TeX groups) of `/.style`, `/.append style`, `/.prefix style`,
// `/.default`, `/.style n args`, `/.code` (the setter forms diagrams use), and a function that
// expands an option list into the flat list of effective keys.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace tikzlint::tex {

// One key of an option list, after style expansion. `begin`/`end` are byte offsets in the
// option text given to expand(); keys that came out of a style carry the span of the key
// that used the style, and `via` names that style.
struct FlatKey {
  std::string key;    // normalised: "/tikz/" stripped, whitespace collapsed ("minimum size")
  std::string value;  // outer braces stripped once
  bool has_value = false;
  std::uint32_t begin = 0, end = 0;
  std::string via;  // outermost style it came from, "" when written directly
};

// A key name for dispatch chains (`if (key == "line width") ...`, a hundred names tried per
// key): a std::string (usable wherever one is) whose comparison with a C string compares the
// lengths first and, for a literal, never runs strlen; std::string == const char* runs strlen
// and memcmp for every candidate.
struct KeyName : std::string {
  explicit KeyName(const std::string& s) : std::string(s) {}
  // Always inlined: the chains are long enough that GCC's growth limits stop inlining, and
  // only inlined is a literal's length a constant.
  // The bytes are compared with __builtin_memcmp: with the literal's length a constant, GCC
  // expands it to a few word compares, where string_view's == calls compare() out of line.
  [[gnu::always_inline]] friend inline bool operator==(const KeyName& a, const char* b) {
    const std::size_t n = __builtin_strlen(b);
    return a.size() == n && __builtin_memcmp(a.data(), b, n) == 0;
  }
  [[gnu::always_inline]] friend inline bool operator!=(const KeyName& a, const char* b) { return !(a == b); }
  // A table's entries are string_views, so that a loop over a table compares lengths first too.
  [[gnu::always_inline]] friend inline bool operator==(const KeyName& a, std::string_view b) {
    return a.size() == b.size() && __builtin_memcmp(a.data(), b.data(), b.size()) == 0;
  }
  [[gnu::always_inline]] friend inline bool operator!=(const KeyName& a, std::string_view b) { return !(a == b); }
};

struct StyleDefinition {
  std::string body;     // text of the style, #1..#9 unsubstituted
  int nargs = 1;        // `.style` takes one argument (#1), `.style n args={n}` n
  bool is_code = false;  // `.code`: body is TeX code run with the arguments
  std::optional<std::string> default_value;  // `.default`
  std::string arg_pattern;  // `.style args={#1 and #2}`: delimited parameter text
};

// A problem met while expanding (unknown handler, code that cannot be run, depth exceeded).
struct StyleProblem {
  std::string code;     // "unsupported-key", "expansion-limit"
  std::string message;  // lowercase
  std::uint32_t begin = 0, end = 0;  // span in the option text
};

// Split "a, b=c, d={e,f}" into items (brace- and bracket-aware). Exposed for lowering.
struct RawItem {
  std::string key, value;
  bool has_value = false;
  std::uint32_t begin = 0, end = 0;
};
std::vector<RawItem> split_options(std::string_view text);
std::string normalise_key(std::string_view key);
std::string strip_braces(std::string_view v);  // one outer {...} pair, and surrounding spaces
// Substitute #1..#9 in `body` (## becomes #).
std::string substitute_args(std::string_view body, const std::vector<std::string>& args);
// Split "{a}{b}{c}" (or "a" when nargs == 1) into n brace groups.
std::vector<std::string> split_brace_args(std::string_view value, int n);

class StyleTable {
 public:
  StyleTable();
  // A table that starts with `base`'s definitions and macros without copying them (a batch's
  // class and library styles are built once): lookups fall through to `base` after this
  // table's own scopes, and every definition goes into this table's scopes.
  explicit StyleTable(std::shared_ptr<const StyleTable> base);
  void push();
  void pop();  // the outermost level is never popped

  // Run a \tikzset body (or "\tikzstyle{n}=[...]"): definitions go into the current scope;
  // keys that are not definitions (e.g. `node distance=2cm`, `>=Stealth`) are returned, for
  // the caller to apply to the current scope.
  std::vector<FlatKey> run_tikzset(std::string_view body, std::vector<StyleProblem>* problems);

  // Expand an option list: styles recursively (depth bound), definitions applied to the
  // current scope, `.code` setters run.
  std::vector<FlatKey> expand(std::string_view options, std::vector<StyleProblem>* problems) {
    return *expand_shared(options, problems);
  }
  // The same keys, shared with the memo (not copied): a lowerer applies most key lists as they
  // are. Never null.
  using KeyList = std::shared_ptr<const std::vector<FlatKey>>;
  KeyList expand_shared(std::string_view options, std::vector<StyleProblem>* problems);

  // The keys of a named style with no argument ("every node", "every picture"); empty if none.
  std::vector<FlatKey> expand_style(const std::string& name, std::vector<StyleProblem>* problems) {
    return *expand_style_shared(name, problems);
  }
  KeyList expand_style_shared(const std::string& name, std::vector<StyleProblem>* problems);

  const StyleDefinition* find(const std::string& name) const;
  bool is_style(const std::string& name) const { return find(name) != nullptr; }
  // Macros set by `.code` setters (`\def\rightanglelength{#1}`), innermost scope first.
  std::optional<std::string> macro(const std::string& name) const;
  // Replace the macros set by `.code` setters in `text` (\name followed by a non-letter).
  std::string substitute_macros(std::string_view text) const;

  void define(const std::string& name, StyleDefinition def);
  // Styles looked up after this table's scopes and its base (the TikZ libraries' definitions,
  // loaded before the document's own, so that a document's definition wins). Only styles: the
  // fallback's macros are not visible. Shared, never copied.
  void set_fallback(std::shared_ptr<const StyleTable> fallback) {
    fallback_ = std::move(fallback);
    ++generation_;
  }

  // Entries in the memo this table keeps for the tables layered on it (for tests).
  std::size_t shared_memo_size() const {
    std::lock_guard lock(shared_.memo->mutex);
    return shared_.memo->options.size() + shared_.memo->styles.size();
  }

  static constexpr int kMaxDepth = 64;
  // The most keys one option list expands into: styles that use two styles that use two... (30
  // levels made 2^30 keys, 15 GB) stop here with an expansion-limit problem. Real option lists
  // expand into tens of keys.
  static constexpr std::size_t kMaxKeys = 10000;
  // The most option items one top-level expansion processes, counting every style's body at
  // every level. kMaxKeys bounds what is emitted, not the work: a cycle of styles that each use
  // the next twice emits a key only every few levels while the calls between double, and ran
  // for seconds (and, with one depth problem per leaf, gigabytes) under kMaxKeys. pgfkeys does
  // the same work in TeX, where such a cycle never ends ("TeX capacity exceeded"). Real option
  // lists take tens to a few hundred steps (the IM class' deepest styles: about 200).
  static constexpr std::size_t kMaxSteps = 100000;
  // Memoised expansions kept at most (the memo is dropped whole when full): a bound on the
  // memory a file with millions of distinct option lists can take.
  static constexpr std::size_t kMemoLimit = 4096;

 private:
  struct Scope {
    std::unordered_map<std::string, StyleDefinition> styles;
    std::unordered_map<std::string, std::string> macros;
  };
  // expand() and expand_style() of the same text give the same keys until a definition, a
  // macro written by a setter, or the end of a scope that held either changes what a lookup
  // finds: each of those bumps `generation_`, and a memo entry counts only for the generation
  // it was made in. An expansion that itself defines something is never memoised.
  struct Memo {
    std::uint64_t generation = 0;
    KeyList keys;
    std::vector<StyleProblem> problems;
  };
  KeyList memoised(std::unordered_map<std::string, Memo>& memo, std::string key,
                   std::vector<StyleProblem>* problems,
                   const std::function<void(std::vector<FlatKey>&, std::vector<StyleProblem>*)>& run);
  std::uint64_t generation_ = 0;
  // The current top-level expansion's budget: items processed so far, and whether it stopped
  // (kMaxKeys or kMaxSteps reached) or went past kMaxDepth; each of these is reported once.
  std::size_t steps_ = 0;
  bool stopped_ = false;
  bool too_deep_ = false;
  void start_expansion() {
    steps_ = 0;
    stopped_ = too_deep_ = false;
  }
  std::unordered_map<std::string, Memo> memo_;        // expand(): by option text
  std::unordered_map<std::string, Memo> style_memo_;  // expand_style(): by style name
  // The memo of the tables layered on this one (a batch's diagrams of one class): while such a
  // table defines nothing of its own, what it expands is what this table holds, which never
  // changes once shared (const), so its expansions are kept here, for all of them. Diagrams of
  // one class use the same option lists ("below", "thick", "every path"), and expanding one
  // costs thousands of instructions. Locked: the jobs of a batch share the table.
  struct SharedMemo {
    std::mutex mutex;
    std::unordered_map<std::string, Memo> options, styles;  // as memo_ and style_memo_
  };
  struct SharedMemoSlot {  // a copy of a table starts a memo of its own
    std::unique_ptr<SharedMemo> memo = std::make_unique<SharedMemo>();
    SharedMemoSlot() = default;
    SharedMemoSlot(const SharedMemoSlot&) : memo(std::make_unique<SharedMemo>()) {}
    SharedMemoSlot& operator=(const SharedMemoSlot&) {
      memo = std::make_unique<SharedMemo>();
      return *this;
    }
    SharedMemoSlot(SharedMemoSlot&&) = default;
    SharedMemoSlot& operator=(SharedMemoSlot&&) = default;
  };
  SharedMemoSlot shared_;
  // Nothing defined in this table's own scopes, and no fallback of its own: every lookup ends
  // in `base_`.
  bool defines_nothing() const;
  void expand_into(std::string_view options, std::uint32_t base_begin, std::uint32_t base_end, bool use_spans,
                   const std::string& via, int depth, std::vector<FlatKey>& out,
                   std::vector<StyleProblem>* problems);
  bool handle_definition(const RawItem& item, const std::string& key, std::uint32_t b, std::uint32_t e,
                         std::vector<StyleProblem>* problems);
  void run_code(const std::string& code, std::uint32_t b, std::uint32_t e, const std::string& via, int depth,
                std::vector<FlatKey>& out, std::vector<StyleProblem>* problems);
  std::vector<Scope> scopes_;
  std::shared_ptr<const StyleTable> base_;
  std::shared_ptr<const StyleTable> fallback_;
};

}  // namespace tikzlint::tex
