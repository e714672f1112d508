// The program's operator new and delete: a per-thread cache of small blocks in front of malloc.
//
// Checking a diagram makes a few thousand short-lived allocations (tokens, option strings, key
// lists, coordinates), in bursts: a statement's tokens are made, then freed together. glibc's
// per-thread cache holds seven blocks of a size, so most of a burst went through its slower
// paths (_int_malloc, _int_free, malloc_consolidate: 16% of the time of a dev-set run). Here a
// freed block of up to kLargestClass bytes goes on a free list of its size class, owned by the
// freeing thread, and the next allocation of that class takes it back: no lock, a few
// instructions. Blocks come from malloc, with a 16-byte header that holds the class; a thread
// keeps at most kMaxCachedBytes cached and frees the rest, and gives its cache back to malloc when
// it ends. A block freed on another thread than the one that made it joins the freeing thread's
// cache (glibc's free of it later is fine from any thread).
//
// The C++ standard makes these functions replaceable program-wide (new.delete.single); the array
// and nothrow forms of libstdc++ call these. They are left out (glibc's are used) when building
// with AddressSanitizer, whose own operator new finds overflows and use after free, and with
// -DTIKZLINT_SYSTEM_MALLOC=ON.
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <new>

#include "cli/alloc.hpp"

#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(__SANITIZE_MEMORY__)
#define TIKZLINT_ALLOC_OFF 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define TIKZLINT_ALLOC_OFF 1
#endif
#endif
#if defined(TIKZLINT_SYSTEM_MALLOC)
#define TIKZLINT_ALLOC_OFF 1
#endif

#ifndef TIKZLINT_ALLOC_OFF

namespace {

using tikzlint::alloc::kLargestClass;
using tikzlint::alloc::kMaxCachedBytes;

// Header before each block: 16 bytes keep the block at malloc's 16-byte alignment
// (__STDCPP_DEFAULT_NEW_ALIGNMENT__).
constexpr std::size_t kHeader = 16;
// Classes 1..32: 16, 32, ... 512 bytes; 33..36: 1, 2, 4, 8 KiB. Class 0: not cached.
constexpr unsigned kSmallClasses = 32;
constexpr unsigned kClasses = kSmallClasses + 5;
static_assert(kLargestClass == 8192, "class table below");

struct FreeBlock {
  FreeBlock* next;
};

struct Cache {
  FreeBlock* head[kClasses];
  std::size_t bytes;  // cached, in block sizes
  bool registered;    // the reaper of this thread is set up
  bool dead;          // this thread's cache was given back: free directly from now on
};
thread_local Cache cache;  // zero-initialised and trivially destructible: no TLS guard on access

inline unsigned class_of(std::size_t n) {
  if (n <= 512) return n == 0 ? 1 : static_cast<unsigned>((n + 15) / 16);
  if (n <= 1024) return kSmallClasses + 1;
  if (n <= 2048) return kSmallClasses + 2;
  if (n <= 4096) return kSmallClasses + 3;
  if (n <= 8192) return kSmallClasses + 4;
  return 0;
}

inline std::size_t class_size(unsigned c) {
  return c <= kSmallClasses ? std::size_t{c} * 16 : std::size_t{512} << (c - kSmallClasses);
}

std::atomic<std::size_t> released{0};  // what ended threads gave back (alloc::released_bytes)

void release_all() {
  released.fetch_add(cache.bytes, std::memory_order_relaxed);
  for (unsigned c = 1; c < kClasses; ++c) {
    FreeBlock* b = cache.head[c];
    while (b) {
      FreeBlock* next = b->next;
      std::free(reinterpret_cast<char*>(b) - kHeader);
      b = next;
    }
    cache.head[c] = nullptr;
  }
  cache.bytes = 0;
}

// Gives the thread's cache back when the thread ends (thread_local destructors run at thread
// exit, and for the main thread at exit()).
struct Reaper {
  void touch() {}
  ~Reaper() {
    release_all();
    cache.dead = true;
  }
};
thread_local Reaper reaper;

void* allocate(std::size_t n) {
  const unsigned c = class_of(n);
  if (c) {
    if (FreeBlock* b = cache.head[c]) {
      cache.head[c] = b->next;
      cache.bytes -= class_size(c);
      return b;
    }
  }
  const std::size_t body = c ? class_size(c) : n;
  if (body > SIZE_MAX - kHeader) throw std::bad_alloc();
  void* raw;
  while (!(raw = std::malloc(body + kHeader))) {
    std::new_handler h = std::get_new_handler();
    if (!h) throw std::bad_alloc();
    h();
  }
  *static_cast<std::uint32_t*>(raw) = c;
  return static_cast<char*>(raw) + kHeader;
}

void deallocate(void* p) noexcept {
  if (!p) return;
  char* raw = static_cast<char*>(p) - kHeader;
  const unsigned c = *reinterpret_cast<const std::uint32_t*>(raw);
  if (c && !cache.dead) {
    const std::size_t size = class_size(c);
    if (cache.bytes + size <= kMaxCachedBytes) {
      if (!cache.registered) {
        cache.registered = true;
        reaper.touch();  // first use on this thread: registers its destructor
      }
      auto* b = static_cast<FreeBlock*>(p);
      b->next = cache.head[c];
      cache.head[c] = b;
      cache.bytes += size;
      return;
    }
  }
  std::free(raw);
}

}  // namespace

void* operator new(std::size_t n) { return allocate(n); }
void operator delete(void* p) noexcept { deallocate(p); }
void operator delete(void* p, std::size_t) noexcept { deallocate(p); }

namespace tikzlint::alloc {
bool enabled() { return true; }
std::size_t cached_bytes() { return cache.bytes; }
std::size_t released_bytes() { return released.load(std::memory_order_relaxed); }
}  // namespace tikzlint::alloc

#else

namespace tikzlint::alloc {
bool enabled() { return false; }
std::size_t cached_bytes() { return 0; }
std::size_t released_bytes() { return 0; }
}  // namespace tikzlint::alloc

#endif
