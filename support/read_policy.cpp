// support/read_policy.cpp: see read_policy.hpp.
#include "support/read_policy.hpp"

namespace tikzlint {

namespace fs = std::filesystem;

const char* describe(ReadRefusal r) {
  switch (r) {
    case ReadRefusal::none: return "allowed";
    case ReadRefusal::absolute: return "an absolute path";
    case ReadRefusal::above_root: return "a '..' above the folder it is looked up in";
    case ReadRefusal::hidden: return "a hidden file or folder";
    case ReadRefusal::symlink_out: return "a symbolic link to a file outside the allowed folders";
  }
  return "";
}

const char* code_of(ReadRefusal r) {
  switch (r) {
    case ReadRefusal::none: return "none";
    case ReadRefusal::absolute: return "absolute";
    case ReadRefusal::above_root: return "above-root";
    case ReadRefusal::hidden: return "hidden";
    case ReadRefusal::symlink_out: return "symlink-out";
  }
  return "";
}

const char* ReadGate::summary() {
  return "tikzlint reads only files inside the input file's folder, --include-dir and --allow-read "
         "folders: no absolute path, no '..' above them, no symbolic link out of them, no hidden file";
}

ReadGate::ReadGate(std::string input_dir, std::vector<std::string> explicit_roots)
    : input_dir_(std::move(input_dir)), explicit_roots_(std::move(explicit_roots)) {}

namespace {

bool is_hidden_component(std::string_view c) { return c.size() > 1 && c[0] == '.' && c != ".."; }

// `p` lies in `root` (both canonical): root's components are a prefix of p's.
bool inside(const fs::path& p, const fs::path& root) {
  auto r = root.begin(), q = p.begin();
  for (; r != root.end(); ++r, ++q) {
    if (r->empty()) continue;  // a trailing separator
    if (q == p.end() || *q != *r) return false;
  }
  return true;
}

}  // namespace

const std::vector<fs::path>& ReadGate::real_roots() const {
  std::call_once(once_, [&] {
    std::error_code ec;
    auto real = [&](const std::string& d) {
      fs::path p = fs::weakly_canonical(d.empty() ? fs::path(".") : fs::path(d), ec);
      if (ec) p = fs::absolute(d.empty() ? fs::path(".") : fs::path(d), ec).lexically_normal();
      return p;
    };
    real_roots_.push_back(real(input_dir_));
    for (const auto& d : explicit_roots_) {
      real_explicit_.push_back(real(d));
      real_roots_.push_back(real_explicit_.back());
    }
  });
  return real_roots_;
}

ReadRefusal ReadGate::check_name(std::string_view name) const {
  if (!name.empty() && name.front() == '/') {
    real_roots();
    std::error_code ec;
    fs::path p = fs::weakly_canonical(fs::path(name), ec);
    if (ec) return ReadRefusal::absolute;
    for (const auto& root : real_explicit_)
      if (inside(p, root)) return ReadRefusal::none;  // then check_found judges the real path
    return ReadRefusal::absolute;
  }
  long depth = 0;
  bool hidden = false;
  std::size_t i = 0;
  while (i <= name.size()) {
    std::size_t j = name.find('/', i);
    if (j == std::string_view::npos) j = name.size();
    std::string_view c = name.substr(i, j - i);
    if (c == "..") {
      if (--depth < 0) return ReadRefusal::above_root;
    } else if (!c.empty() && c != ".") {
      ++depth;
      hidden |= is_hidden_component(c);
    }
    i = j + 1;
  }
  return hidden ? ReadRefusal::hidden : ReadRefusal::none;
}

ReadRefusal ReadGate::check_found(const fs::path& candidate) const {
  std::error_code ec;
  fs::path real = fs::canonical(candidate, ec);
  if (ec) return ReadRefusal::symlink_out;  // vanished or a broken link: not read
  for (const auto& root : real_roots()) {
    if (!inside(real, root)) continue;
    fs::path rel = real.lexically_relative(root);
    for (const auto& c : rel)
      if (is_hidden_component(c.native())) return ReadRefusal::hidden;
    return ReadRefusal::none;
  }
  return ReadRefusal::symlink_out;
}

}  // namespace tikzlint
