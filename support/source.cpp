#include "support/source.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>

#include "support/diagnostic.hpp"

namespace tikzlint {

SourceFile::SourceFile(std::string path, std::string text) {
  auto d = std::make_shared<Data>();
  d->path = std::move(path);
  d->text = std::move(text);
  d->line_starts.push_back(0);
  const char* begin = d->text.data();
  const char* end = begin + d->text.size();
  for (const char* p = begin; p < end;) {
    const void* nl = std::memchr(p, '\n', static_cast<std::size_t>(end - p));
    if (!nl) break;
    p = static_cast<const char*>(nl) + 1;
    d->line_starts.push_back(static_cast<std::uint32_t>(p - begin));
  }
  d_ = std::move(d);
}

const void* SourceFile::derived_impl(
    const void* tag, const std::function<std::shared_ptr<const void>(const std::string&)>& compute) const {
  {
    std::lock_guard lock(d_->mutex);
    for (const auto& [t, v] : d_->derived)
      if (t == tag) return v.get();
  }
  std::shared_ptr<const void> v = compute(d_->text);  // outside the lock: may be slow
  std::lock_guard lock(d_->mutex);
  for (const auto& [t, old] : d_->derived)
    if (t == tag) return old.get();  // another thread was first
  d_->derived.emplace_back(tag, std::move(v));
  return d_->derived.back().second.get();
}

LineCol SourceFile::line_col(std::uint32_t offset) const {
  offset = std::min<std::uint32_t>(offset, static_cast<std::uint32_t>(d_->text.size()));
  auto it = std::upper_bound(d_->line_starts.begin(), d_->line_starts.end(), offset);
  std::uint32_t line = static_cast<std::uint32_t>(it - d_->line_starts.begin());
  std::uint32_t start = d_->line_starts[line - 1];
  std::uint32_t col = 1;
  for (std::uint32_t i = start; i < offset; ++i)
    if ((static_cast<unsigned char>(d_->text[i]) & 0xC0) != 0x80) ++col;  // count code points
  return {line, col};
}

std::string_view SourceFile::line_text(std::uint32_t line) const {
  if (line == 0 || line > d_->line_starts.size()) return {};
  std::uint32_t b = d_->line_starts[line - 1];
  std::uint32_t e = line < d_->line_starts.size() ? d_->line_starts[line] : static_cast<std::uint32_t>(d_->text.size());
  std::string_view v(d_->text.data() + b, e - b);
  while (!v.empty() && (v.back() == '\n' || v.back() == '\r')) v.remove_suffix(1);
  return v;
}

FileId SourceManager::add(std::string path, std::string text) {
  files_.emplace_back(std::move(path), std::move(text));
  return static_cast<FileId>(files_.size() - 1);
}

FileId SourceManager::add(SourceFile file) {
  files_.push_back(std::move(file));
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
