// support/read_file.cpp: see read_file.hpp.
#include "support/read_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>

namespace tikzlint {

namespace {

struct Fd {
  int fd;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Bytes read into out[at..], until end of file or `want` bytes; -1 on a read error. A regular
// file gives fewer bytes than asked only at its end: with `regular`, a short read ends the
// reading without one more read to see the end.
long read_some(int fd, std::string& out, std::size_t at, std::size_t want, bool regular) {
  std::size_t got = 0;
  while (got < want) {
    const ssize_t n = ::read(fd, out.data() + at + got, want - got);
    if (n < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
    if (regular && got < want) break;
  }
  return static_cast<long>(got);
}

}  // namespace

FileText read_file(const std::string& path, std::size_t limit) {
  Fd f{::open(path.c_str(), O_RDONLY | O_CLOEXEC)};
  if (f.fd < 0) {
    FileText r;
    r.error = errno;
    r.status =
        r.error == ENOENT || r.error == ENOTDIR ? FileText::Status::missing : FileText::Status::unreadable;
    return r;
  }
  return read_descriptor(f.fd, limit);
}

FileText read_descriptor(int fd, std::size_t limit) {
  FileText r;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    r.error = errno;
    r.status = FileText::Status::unreadable;
    return r;
  }
  if (S_ISDIR(st.st_mode)) {
    r.status = FileText::Status::directory;
    return r;
  }
  const bool regular = S_ISREG(st.st_mode);
  if (regular) r.size = static_cast<std::uint64_t>(st.st_size);
  const std::size_t cap = limit + 1;  // one byte more than allowed tells a file that is too large
  // A regular file is read into a buffer of its size (plus the byte that finds the end); any
  // other file (a pipe, a device) in growing chunks.
  std::size_t chunk =
      regular ? std::min<std::size_t>(static_cast<std::size_t>(st.st_size) + 1, cap) : 1 << 14;
  std::size_t used = 0;
  while (used < cap) {
    const std::size_t want = std::min(chunk, cap - used);
    r.text.resize(used + want);
    const long n = read_some(fd, r.text, used, want, regular);
    if (n < 0) {
      r.text.clear();
      r.status = FileText::Status::read_error;
      return r;
    }
    used += static_cast<std::size_t>(n);
    if (static_cast<std::size_t>(n) < want) break;  // end of file
    chunk = std::min<std::size_t>(chunk * 2, 1 << 24);
  }
  r.text.resize(used);
  if (used > limit) {
    r.text.clear();
    r.text.shrink_to_fit();
    r.status = FileText::Status::too_large;
  }
  return r;
}

}  // namespace tikzlint
