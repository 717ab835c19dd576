// exit_marker: a process whose registry is made on a worker thread must still notice that its
// exit has begun when the main thread exits, before the thread-locals made before xgpu's on the
// main thread are destroyed (handle.cpp: releases are skipped from then on, the driver's
// thread-locals being gone). Exits 0 only then, from the observer that looks (skipping the rest
// of the exit); 1 when the exit went unnoticed or a worker thread's end was taken for it, 3 when
// the observer never ran.
//
// White-box: links the core's objects (as xgpu-core-tests) to ask exit_has_begun().
#include <unistd.h>

#include <cstdio>
#include <thread>
#include <xgpu/xgpu.hpp>

#include "module.hpp"

namespace {

[[noreturn]] void fail(const char* why) {
  std::fprintf(stderr, "FAIL: %s\n", why);
  std::fflush(stderr);
  _exit(1);
}

// Made on the main thread before anything of xgpu's: destroyed after it at exit.
struct Observer {
  ~Observer() {
    if (!xgpu::detail::exit_has_begun()) fail("the main thread's exit went unnoticed");
    std::printf("exit noticed\n");
    std::fflush(stdout);
    _exit(0);
  }
};
thread_local Observer observer;

}  // namespace

int main() {
  (void)&observer;
  std::size_t found = 0;
  std::thread([&] { found = xgpu::devices().size(); }).join();  // the registry, made there
  if (xgpu::detail::exit_has_begun()) fail("a worker thread's end was taken for the exit");
  std::printf("%zu device(s) seen from a worker thread\n", found);
  if (xgpu::devices().size() != found) fail("the main thread sees other devices");
  std::thread([] { (void)xgpu::devices(); }).join();
  if (xgpu::detail::exit_has_begun()) fail("a worker thread's end was taken for the exit");
  return 3;  // the observer's destructor decides
}
