// The block cache behind operator new (alloc.cpp). This executable links alloc.cpp itself, so
// every allocation of the test framework goes through it too.
#include <doctest/doctest.h>

#include <atomic>
#include <cstdint>
#include <cstring>
#include <new>
#include <random>
#include <thread>
#include <vector>

#include "cli/alloc.hpp"

using tikzlint::alloc::cached_bytes;
using tikzlint::alloc::enabled;

namespace {
void* grab(std::size_t n) { return ::operator new(n); }
void drop(void* p) { ::operator delete(p); }
}  // namespace

// The same detection as alloc.cpp (gcc defines __SANITIZE_ADDRESS__, clang has __has_feature).
#if defined(__SANITIZE_ADDRESS__) || defined(__SANITIZE_THREAD__) || defined(TIKZLINT_SYSTEM_MALLOC)
#define EXPECT_SYSTEM_MALLOC 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer) || __has_feature(thread_sanitizer) || __has_feature(memory_sanitizer)
#define EXPECT_SYSTEM_MALLOC 1
#endif
#endif

TEST_CASE("the cache is on in a normal build, off under the sanitizers") {
#ifdef EXPECT_SYSTEM_MALLOC
  CHECK_FALSE(enabled());
  CHECK(cached_bytes() == 0);
#else
  CHECK(enabled());
#endif
}

TEST_CASE("a freed small block is cached, and the next allocation of its class takes it back") {
  if (!enabled()) return;
  void* a = grab(40);  // class of 48 bytes
  const std::size_t before = cached_bytes();
  drop(a);
  CHECK(cached_bytes() == before + 48);
  void* b = grab(33);  // same class
  CHECK(b == a);
  CHECK(cached_bytes() == before);
  drop(b);
}

TEST_CASE("blocks larger than the largest class go back to malloc") {
  if (!enabled()) return;
  void* a = grab(tikzlint::alloc::kLargestClass + 1);
  const std::size_t before = cached_bytes();
  drop(a);
  CHECK(cached_bytes() == before);
}

TEST_CASE("every block is aligned for any fundamental type and holds its bytes") {
  std::mt19937 rng(7);
  std::vector<std::pair<unsigned char*, std::size_t>> live;
  for (int round = 0; round < 4000; ++round) {
    std::size_t n = rng() % 3 == 0 ? rng() % 10000 : rng() % 600;
    auto* p = static_cast<unsigned char*>(grab(n));
    CHECK(reinterpret_cast<std::uintptr_t>(p) % alignof(std::max_align_t) == 0);
    std::memset(p, static_cast<int>(round & 0xFF), n);
    live.emplace_back(p, n);
    if (rng() % 2 && !live.empty()) {  // free a random live block after checking its bytes
      std::size_t k = rng() % live.size();
      auto [q, m] = live[k];
      bool intact = true;
      for (std::size_t i = 1; i < m; ++i) intact = intact && q[i] == q[0];
      CHECK(intact);
      drop(q);
      live[k] = live.back();
      live.pop_back();
    }
  }
  for (auto [q, m] : live) {
    bool intact = true;
    for (std::size_t i = 1; i < m; ++i) intact = intact && q[i] == q[0];
    CHECK(intact);
    drop(q);
  }
}

TEST_CASE("a thread caches at most kMaxCachedBytes") {
  if (!enabled()) return;
  constexpr std::size_t n = tikzlint::alloc::kMaxCachedBytes / 8192 + 64;
  std::vector<void*> blocks;
  blocks.reserve(n);
  for (std::size_t i = 0; i < n; ++i) blocks.push_back(grab(8000));
  for (void* p : blocks) drop(p);
  CHECK(cached_bytes() <= tikzlint::alloc::kMaxCachedBytes);
  CHECK(cached_bytes() >= tikzlint::alloc::kMaxCachedBytes - 8192);
}

TEST_CASE("a block freed on another thread joins that thread's cache") {
  if (!enabled()) return;
  void* a = grab(100);  // class of 112 bytes
  std::atomic<bool> go{false};
  std::size_t theirs_before = 0, theirs_after = 0;
  std::thread t([&] {
    while (!go.load()) std::this_thread::yield();
    theirs_before = cached_bytes();
    drop(a);
    theirs_after = cached_bytes();
    // the thread ends here: its cache goes back to malloc
  });
  const std::size_t mine = cached_bytes();  // after the thread's own allocations
  go.store(true);
  t.join();
  CHECK(theirs_after == theirs_before + 112);
  CHECK(cached_bytes() == mine);
}

TEST_CASE("a thread's cache goes back to malloc when the thread ends") {
  if (!enabled()) return;
  const std::size_t before = tikzlint::alloc::released_bytes();
  std::size_t cached = 0;
  std::thread t([&] {
    void* a = grab(300);  // class of 304 bytes
    drop(a);
    cached = cached_bytes();
  });
  t.join();
  CHECK(cached >= 304);
  CHECK(tikzlint::alloc::released_bytes() >= before + cached);
}

TEST_CASE("new[] and nothrow new go through the same cache") {
  if (!enabled()) return;
  auto* a = new int[10];  // 40 bytes: class of 48
  const auto where = reinterpret_cast<std::uintptr_t>(a);
  const std::size_t before = cached_bytes();
  delete[] a;
  CHECK(cached_bytes() == before + 48);
  auto* b = new (std::nothrow) char[45];
  CHECK(reinterpret_cast<std::uintptr_t>(b) == where);
  delete[] b;
}
