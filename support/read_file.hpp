// support/read_file.hpp: a whole input file, read with a bound, or why it cannot be.
// One open, one fstat and the reads: the open tells a missing or unreadable file, the fstat a
// directory and the size to read into, so a diagram costs three or four system calls (a stat
// before the open and a stream library around it cost as much again as reading a small file).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace tikzlint {

struct FileText {
  enum class Status { ok, missing, directory, unreadable, too_large, read_error };
  Status status = Status::ok;
  std::string text;        // the bytes, when ok
  int error = 0;           // errno of the failed open (unreadable)
  std::uint64_t size = 0;  // the size of a regular file (too_large: what the limit refused)
};

// At most `limit` bytes; a file that has more is too_large (a device or a huge file is never
// read whole: reading stops at limit + 1 bytes).
FileText read_file(const std::string& path, std::size_t limit);
// The same from an open descriptor (standard input for `tikzlint check -`), read to its end
// with the same bound; the descriptor is not closed.
FileText read_descriptor(int fd, std::size_t limit);

}  // namespace tikzlint
