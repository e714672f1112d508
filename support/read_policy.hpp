// support/read_policy.hpp: which files a checked document may make tikzlint read (docs/cli.md,
// "Read policy"). tikzlint runs on files written by strangers (pull requests, generated
// figures), often in CI whose logs are public; like TeX's paranoid mode (openin_any=p) a name
// written in the document is read only when it resolves inside a *root*: the input file's own
// folder, an --include-dir or an --allow-read folder. Refused: an absolute name (unless it lies in
// an --include-dir or --allow-read folder), a `..` that climbs above the folder it is looked up
// in, a hidden file or folder (a component starting with '.'), and a file whose real path (after
// symbolic links) is outside every root. A refused file is never opened.
#pragma once
#include <filesystem>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace tikzlint {

enum class ReadRefusal { none, absolute, above_root, hidden, symlink_out };

// "absolute path", "'..' above its folder", ... for messages; "absolute", ... for evidence.
const char* describe(ReadRefusal r);
const char* code_of(ReadRefusal r);

class ReadGate {
 public:
  // `input_dir`: the checked file's folder ("" is the current directory). `explicit_roots`: the
  // --include-dir and --allow-read folders (absolute names inside them are allowed).
  ReadGate(std::string input_dir, std::vector<std::string> explicit_roots);

  // The name as written in the document, judged alone: absolute, climbing, hidden.
  ReadRefusal check_name(std::string_view name) const;
  // A file found on disk for an accepted name: its real path must lie inside a root and must not
  // pass through a hidden component below that root (a symlink to `.secrets/` is refused too).
  ReadRefusal check_found(const std::filesystem::path& candidate) const;

  // The one line of policy quoted in every refusal.
  static const char* summary();

 private:
  const std::vector<std::filesystem::path>& real_roots() const;  // canonical, computed once
  std::string input_dir_;
  std::vector<std::string> explicit_roots_;
  mutable std::once_flag once_;
  mutable std::vector<std::filesystem::path> real_roots_;
  mutable std::vector<std::filesystem::path> real_explicit_;
};

}  // namespace tikzlint
