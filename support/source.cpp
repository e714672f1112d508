#include "support/source.hpp"

#include <algorithm>

#include "support/diagnostic.hpp"

namespace tikzlint {

SourceFile::SourceFile(std::string path, std::string text) : path_(std::move(path)), text_(std::move(text)) {
  line_starts_.push_back(0);
  for (std::uint32_t i = 0; i < text_.size(); ++i)
    if (text_[i] == '\n') line_starts_.push_back(i + 1);
}

LineCol SourceFile::line_col(std::uint32_t offset) const {
  offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(text_.size()));
  auto it = std::upper_bound(line_starts_.begin(), line_starts_.end(), offset);
  std::uint32_t line = static_cast<std::uint32_t>(it - line_starts_.begin());
  std::uint32_t start = line_starts_[line - 1];
  std::uint32_t col = 1;
  for (std::uint32_t i = start; i < offset; ++i)
    if ((static_cast<unsigned char>(text_[i]) & 0xC0) != 0x80) ++col;  // count code points
  return {line, col};
}

std::string_view SourceFile::line_text(std::uint32_t line) const {
  if (line == 0 || line > line_starts_.size()) return {};
  std::uint32_t b = line_starts_[line - 1];
  std::uint32_t e = line < line_starts_.size() ? line_starts_[line] : static_cast<std::uint32_t>(text_.size());
  std::string_view v(text_.data() + b, e - b);
  while (!v.empty() && (v.back() == '\n' || v.back() == '\r')) v.remove_suffix(1);
  return v;
}

FileId SourceManager::add(std::string path, std::string text) {
  files_.emplace_back(std::move(path), std::move(text));
  return static_cast<FileId>(files_.size() - 1);
}

const char* to_string(Severity s) {
  switch (s) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "error";
}

}  // namespace tikzlint
