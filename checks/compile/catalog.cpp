// checks/compile/catalog.cpp: lookups over the generated tables of catalog.inc.
#include "checks/compile/catalog.hpp"

#include <algorithm>
#include <cstring>
#include <span>
#include <string>
#include <unordered_map>

namespace tikzlint::compile {

namespace {

struct CatalogUnit {
  std::string_view id;       // "package:tikz"
  std::string_view version;  // its \Provides... line
  int files;                 // files read for it
  std::string_view dynamic;  // kinds defined through macros (see catalog.inc)
};
struct CatalogEntry {
  std::string_view name;
  std::uint16_t unit;
  std::string_view flags;
};
struct CatalogChar {
  std::uint32_t code;
  std::uint16_t unit;
};

using namespace std::string_view_literals;  // catalog.inc spells its strings as "..."sv
#include "checks/compile/catalog.inc"

std::span<const CatalogEntry> table(Kind k) {
  switch (k) {
    case Kind::command: return kCommands;
    case Kind::math_command: return kMathCommands;
    case Kind::key: return kKeys;
    case Kind::shape: return kShapes;
    case Kind::arrow: return kArrows;
    case Kind::decoration: return kDecorations;
    case Kind::pattern: return kPatterns;
    case Kind::coordinate_system: return kCoordinateSystems;
    case Kind::math_function: return kMathFunctions;
    case Kind::color: return kColors;
  }
  return {};
}

char dynamic_letter(Kind k) {
  switch (k) {
    case Kind::shape: return 's';
    case Kind::arrow: return 'a';
    case Kind::decoration: return 'd';
    case Kind::pattern: return 'p';
    case Kind::key: return 'k';
    case Kind::coordinate_system: return 'c';
    case Kind::math_function: return 'f';
    default: return 0;
  }
}

std::span<const std::string_view> existing(std::string_view kind) {
  if (kind == "package") return kExistingPackages;
  if (kind == "class") return kExistingClasses;
  if (kind == "tikzlib") return kExistingTikzLibraries;
  if (kind == "pgflib") return kExistingPgfLibraries;
  if (kind == "pgfplotslib") return kExistingPgfplotsLibraries;
  return {};
}

// '*' matches any run of characters (including none).
bool glob(std::string_view pat, std::string_view s) {
  std::size_t p = 0, i = 0, star = std::string_view::npos, mark = 0;
  while (i < s.size()) {
    if (p < pat.size() && pat[p] == '*') {
      star = p++;
      mark = i;
    } else if (p < pat.size() && pat[p] == s[i]) {
      ++p;
      ++i;
    } else if (star != std::string_view::npos) {
      p = star + 1;
      i = ++mark;
    } else {
      return false;
    }
  }
  while (p < pat.size() && pat[p] == '*') ++p;
  return p == pat.size();
}

// Eight bytes per step: FNV-1a's byte loop was half of building the index (80,000 names of ~30
// bytes, once per process: 6.5 M of a one-diagram check's 34 M instructions). The multiply and
// the shifts spread every byte over the low bits (the slot) and the high bits (the tag).
std::size_t name_hash(std::string_view s) {
  constexpr std::uint64_t kMul = 0x9E3779B97F4A7C15ull;
  std::uint64_t h = s.size() * kMul;
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    h = (h ^ w) * kMul;
    h ^= h >> 29;
  }
  std::uint64_t w = 0;
  for (; i < s.size(); ++i) w = w << 8 | static_cast<unsigned char>(s[i]);  // the last 0-7 bytes
  h = (h ^ w) * kMul;
  h ^= h >> 32;
  h *= 0xD6E8FEB86659FD93ull;
  return static_cast<std::size_t>(h ^ (h >> 29));
}

std::string_view name_of(const CatalogEntry& e) { return e.name; }
std::string_view name_of(std::string_view s) { return s; }

// A hash index over a sorted table: each distinct name -> its entries (open addressing). A
// binary search over the 64,000 commands touches some thirty cold cache lines when the expander
// has just run. A slot holds the first entry, how many entries share the name and 16 bits of the
// name's hash (a tag): a probe that meets another name's slot, and a lookup of a name the table
// does not have, mostly end without reading an entry or its text (issue 19: the rule runs right
// after the rest of the check, with the catalog out of cache).
template <class Entry>
class HashIndex {
 public:
  explicit HashIndex(std::span<const Entry> t) : t_(t) {
    std::size_t n = 1;
    while (n < 2 * t.size() + 2) n <<= 1;
    slots_.assign(n, 0);
    mask_ = n - 1;
    for (std::size_t i = 0; i < t.size();) {
      std::size_t last = i + 1;
      while (last < t.size() && name_of(t[last]) == name_of(t[i])) ++last;
      const std::size_t h = name_hash(name_of(t[i]));
      std::size_t s = h & mask_;
      while (slots_[s]) s = (s + 1) & mask_;
      slots_[s] = pack(i, last - i, h);
      i = last;
    }
  }
  std::span<const Entry> find(std::string_view name) const {
    const std::size_t h = name_hash(name);
    const std::uint64_t tag = tag_of(h);
    for (std::size_t s = h & mask_; slots_[s]; s = (s + 1) & mask_) {
      const std::uint64_t slot = slots_[s];
      if ((slot & kTagMask) != tag) continue;
      const std::size_t first = static_cast<std::uint32_t>(slot) - 1;
      if (name_of(t_[first]) != name) continue;
      std::size_t count = (slot >> 32) & 0xFFFF;
      if (count == 0xFFFF)  // more entries than the field holds: counted here
        while (first + count < t_.size() && name_of(t_[first + count]) == name) ++count;
      return t_.subspan(first, count);
    }
    return {};
  }

 private:
  static constexpr std::uint64_t kTagMask = 0xFFFFull << 48;
  static std::uint64_t tag_of(std::size_t h) { return static_cast<std::uint64_t>(h >> 40) << 48 & kTagMask; }
  static std::uint64_t pack(std::size_t first, std::size_t count, std::size_t h) {
    return static_cast<std::uint64_t>(first + 1) | static_cast<std::uint64_t>(std::min<std::size_t>(count, 0xFFFF)) << 32 |
           tag_of(h);
  }
  std::span<const Entry> t_;
  std::vector<std::uint64_t> slots_;  // 0: empty; else first + 1 (32 bits), count (16), tag (16)
  std::size_t mask_ = 0;
};

constexpr Kind kKinds[] = {Kind::command, Kind::math_command, Kind::key, Kind::shape, Kind::arrow,
                           Kind::decoration, Kind::pattern, Kind::coordinate_system, Kind::math_function, Kind::color};

// A key with '*': what a name must start and end with to match it (the text before its first
// '*' and after its last), tested before the glob.
struct KeyPattern {
  const CatalogEntry* entry;
  std::string_view prefix, suffix;
  bool may_match(std::string_view key) const {
    return key.size() >= prefix.size() + suffix.size() && key.substr(0, prefix.size()) == prefix &&
           key.substr(key.size() - suffix.size()) == suffix;
  }
};

struct Index {
  // unit -> every unit it loads, directly or not, itself included: closure_units[closure_at[u]
  // .. closure_at[u + 1]). One short run per root, where a walk of the load graph read a vector
  // per unit it met.
  std::vector<std::uint32_t> closure_at;
  std::vector<UnitId> closure_units;
  std::vector<KeyPattern> key_patterns;  // keys with '*'
  std::unordered_map<std::string_view, UnitId> unit_by_id;  // "package:tikz" -> its index
  std::vector<HashIndex<CatalogEntry>> by_name;  // per Kind (kKinds order)
  HashIndex<std::string_view> primitives{kPrimitives};
  Index() {
    for (Kind k : kKinds) by_name.emplace_back(table(k));
    for (std::size_t i = 0; i < std::size(kUnits); ++i) unit_by_id.emplace(kUnits[i].id, static_cast<UnitId>(i));
    std::vector<std::vector<UnitId>> loads(std::size(kUnits));  // unit -> units it loads
    for (const auto& r : kRequires) loads[r[0]].push_back(r[1]);
    std::vector<bool> seen;
    std::vector<UnitId> todo;
    for (std::size_t u = 0; u < std::size(kUnits); ++u) {
      closure_at.push_back(static_cast<std::uint32_t>(closure_units.size()));
      seen.assign(std::size(kUnits), false);
      todo.assign(1, static_cast<UnitId>(u));
      while (!todo.empty()) {
        UnitId v = todo.back();
        todo.pop_back();
        if (seen[v]) continue;
        seen[v] = true;
        closure_units.push_back(v);
        for (UnitId r : loads[v])
          if (!seen[r]) todo.push_back(r);
      }
    }
    closure_at.push_back(static_cast<std::uint32_t>(closure_units.size()));
    for (const auto& e : kKeys)
      if (auto star = e.name.find('*'); star != std::string_view::npos)
        key_patterns.push_back({&e, e.name.substr(0, star), e.name.substr(e.name.rfind('*') + 1)});
  }
};

const Index& index() {
  static const Index idx;
  return idx;
}

// A file asks for the same few hundred names the last files asked for (`/tikz/draw`, `\node`,
// `/pgf/thick`...), each a walk through cold lines of the index (its slot, the entry, the name's
// text). A small per-thread memo of the last answers, one cache line per name, keeps those warm:
// the answer for a name never changes, so a hit returns what the index would.
struct NamedMemo {
  static constexpr std::size_t kSlots = 1024, kMaxName = 46;
  struct alignas(64) Slot {
    const CatalogEntry* first;
    std::uint32_t count;
    std::uint8_t kind, len;  // len 0: empty slot (a name of length 0 is never memoised)
    char name[kMaxName];
  };
  Slot slots[kSlots];
};
static_assert(sizeof(NamedMemo::Slot) == 64);
thread_local NamedMemo named_memo;  // zero-initialised: no constructor runs per thread

std::span<const CatalogEntry> named(Kind kind, std::string_view name) {
  const auto& idx = index().by_name[static_cast<std::size_t>(kind)];
  if (name.empty() || name.size() > NamedMemo::kMaxName) return idx.find(name);
  const std::size_t h = name_hash(name) + static_cast<std::size_t>(kind) * 0x9E3779B97F4A7C15ull;
  NamedMemo::Slot& s = named_memo.slots[(h ^ (h >> 32)) & (NamedMemo::kSlots - 1)];
  if (s.len == name.size() && s.kind == static_cast<std::uint8_t>(kind) && std::memcmp(s.name, name.data(), name.size()) == 0)
    return {s.first, s.count};
  const std::span<const CatalogEntry> found = idx.find(name);
  s.first = found.data();
  s.count = static_cast<std::uint32_t>(found.size());
  s.kind = static_cast<std::uint8_t>(kind);
  s.len = static_cast<std::uint8_t>(name.size());
  std::memcpy(s.name, name.data(), name.size());
  return found;
}

}  // namespace

std::size_t edit_distance(std::string_view a, std::string_view b, std::size_t limit) {
  if ((a.size() > b.size() ? a.size() - b.size() : b.size() - a.size()) > limit) return limit + 1;
  std::vector<std::size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    std::size_t best = cur[0];
    for (std::size_t j = 1; j <= b.size(); ++j) {
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      best = std::min(best, cur[j]);
    }
    if (best > limit) return limit + 1;
    std::swap(prev, cur);
  }
  return std::min(prev[b.size()], limit + 1);
}

const Catalog& Catalog::get() {
  static const Catalog c;
  index();
  return c;
}

std::string_view Catalog::source() const { return kCatalogSource; }
std::size_t Catalog::unit_count() const { return std::size(kUnits); }

std::optional<UnitId> Catalog::unit(std::string_view kind, std::string_view name) const {
  std::string id;
  id.reserve(kind.size() + 1 + name.size());
  id.append(kind).append(":").append(name);
  const auto& units = index().unit_by_id;
  if (auto it = units.find(id); it != units.end()) return it->second;
  return std::nullopt;
}

std::string_view Catalog::unit_id(UnitId u) const { return u < std::size(kUnits) ? kUnits[u].id : std::string_view{}; }

bool Catalog::dynamic(UnitId u, Kind kind) const {
  char c = dynamic_letter(kind);
  return c && u < std::size(kUnits) && kUnits[u].dynamic.find(c) != std::string_view::npos;
}

UnitSet Catalog::closure(const std::vector<UnitId>& roots) const {
  UnitSet set(std::size(kUnits));
  const Index& idx = index();
  for (UnitId root : roots)
    for (std::uint32_t k = idx.closure_at.at(root); k < idx.closure_at[root + 1u]; ++k) set.add(idx.closure_units[k]);
  return set;
}

bool Catalog::exists(std::string_view kind, std::string_view name) const {
  auto t = existing(kind);
  return std::binary_search(t.begin(), t.end(), name);
}

std::string Catalog::nearest_existing(std::string_view kind, std::string_view name) const {
  std::string best;
  std::size_t best_d = name.size() <= 4 ? 1 : 2;
  for (std::string_view n : existing(kind)) {
    std::size_t d = edit_distance(name, n, best_d);
    if (d <= best_d && (best.empty() || d < best_d)) {
      best = std::string(n);
      best_d = d;
    }
  }
  return best;
}

bool Catalog::defined(Kind kind, std::string_view name, const UnitSet& loaded) const {
  for (const auto& e : named(kind, name))
    if (loaded.has(e.unit)) return true;
  return false;
}

std::vector<UnitId> Catalog::definers(Kind kind, std::string_view name) const {
  std::vector<UnitId> out;
  for (const auto& e : named(kind, name)) out.push_back(e.unit);
  return out;
}

bool Catalog::defined_anywhere(Kind kind, std::string_view name) const { return !named(kind, name).empty(); }

bool Catalog::key_pattern(std::string_view key, const UnitSet& loaded) const {
  for (const KeyPattern& p : index().key_patterns)
    if (p.may_match(key) && loaded.has(p.entry->unit) && glob(p.entry->name, key)) return true;
  return false;
}

bool Catalog::key_pattern_anywhere(std::string_view key) const {
  for (const KeyPattern& p : index().key_patterns)
    if (p.may_match(key) && glob(p.entry->name, key)) return true;
  return false;
}

std::string Catalog::nearest(Kind kind, std::string_view name, const UnitSet& loaded, std::size_t max_distance,
                             std::string_view prefix) const {
  std::string best;
  std::size_t best_d = max_distance;
  for (const auto& e : table(kind)) {
    if (!loaded.has(e.unit) || e.name.substr(0, prefix.size()) != prefix) continue;
    if (e.name.find('*') != std::string_view::npos || e.name.find('@') != std::string_view::npos) continue;
    std::size_t d = edit_distance(name, e.name, best_d);
    if (d <= best_d && (best.empty() || d < best_d)) {
      best = std::string(e.name);
      best_d = d;
    }
  }
  return best;
}

bool Catalog::primitive(std::string_view name) const {
  return !index().primitives.find(name).empty();
}

bool Catalog::unicode_defined(char32_t c, const UnitSet& loaded) const {
  auto lo = std::lower_bound(std::begin(kUnicode), std::end(kUnicode), static_cast<std::uint32_t>(c),
                             [](const CatalogChar& e, std::uint32_t v) { return e.code < v; });
  for (; lo != std::end(kUnicode) && lo->code == c; ++lo)
    if (loaded.has(lo->unit)) return true;
  return false;
}

std::string_view Catalog::class_option_package(std::string_view cls, std::string_view option) const {
  for (const auto& r : kClassOptionPackages)
    if (r[0] == cls && r[1] == option) return r[2];
  return {};
}

}  // namespace tikzlint::compile
