// The program's allocator (cli/main/alloc.cpp): a per-thread cache of small blocks in front of
// malloc, linked into the tikzlint executable (and the benchmarks linked like it).
#pragma once

#include <cstddef>

namespace tikzlint::alloc {

// Blocks of up to this many bytes are cached when freed; larger ones go straight back to malloc.
inline constexpr std::size_t kLargestClass = 8192;
// The most a thread keeps cached (block sizes summed); beyond it, freed blocks go back to malloc.
// It bounds the memory a thread holds after a large diagram is freed.
inline constexpr std::size_t kMaxCachedBytes = std::size_t{8} << 20;

// False when the build uses malloc's operator new (sanitizers, -DTIKZLINT_SYSTEM_MALLOC=ON).
bool enabled();
// Bytes cached by the calling thread.
std::size_t cached_bytes();
// Bytes that ended threads gave back to malloc from their caches, since the program started.
std::size_t released_bytes();

}  // namespace tikzlint::alloc
