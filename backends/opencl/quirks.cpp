// The quirk entries and the driver version comparison documented in quirks.hpp.
#include "quirks.hpp"

#include <cctype>
#include <vector>

namespace xgpu::backend_opencl {
namespace {

constexpr Quirk kQuirks[] = {
    {QuirkId::kSerializeAllCalls, "serialize_all_calls", "oclgrind", "", "", "21.10",
     "Oclgrind's runtime is not thread-safe: its command queues keep their bookkeeping in "
     "unlocked process-wide maps, reference counts are plain integers, and one simulator "
     "context runs one kernel at a time (two threads launching abort in "
     "oclgrind::Context::notifyKernelBegin, assertion m_kernelInvocation == NULL, or read "
     "zeros), even with separate contexts. Every call into it holds one process-wide lock."},
    {QuirkId::kRetainQueueForEvents, "retain_queue_for_events", "oclgrind", "", "", "21.10",
     "Oclgrind's events do not keep their queue alive: clReleaseCommandQueue deletes the queue "
     "while its events live on, and CL_EVENT_COMMAND_QUEUE then returns a dangling pointer "
     "that event_profile would query (a crash). The module holds a queue reference for every "
     "event it hands out, until the caller's last release of that event."},
    {QuirkId::kSerializeCompiles, "serialize_compiles", "pocl", "", "", "3.1",
     "PoCL compiles at more moments than clBuildProgram: at a kernel's first launch for each "
     "work-group size, and when a program's binary is fetched (pocl_driver_build_poclbinary). "
     "A binary fetched on one thread while another thread's first launch compiles corrupts "
     "the heap inside LLVM (abort in malloc_consolidate under llvm::GVNPass, seen when the "
     "kernel cache saved an SGEMM program during its first launch). Building, fetching or "
     "loading a binary, and launching hold one process-wide lock. Measured with PoCL 3.1: its "
     "pthread device compiles a new shape on its own worker thread when the command runs (the "
     "enqueue takes 0.01 ms, the finish 100-120 ms), out of this lock's reach; its basic "
     "device compiles inside clEnqueueNDRangeKernel (70-95 ms), under it. Taking it costs a "
     "launch about 27 of PoCL's ~2,900 instructions (CompileLock: a compare-and-swap and an "
     "exchange; std::mutex cost about 100), so every launch takes it."},
    {QuirkId::kFinishQueuesBeforeBinary, "finish_queues_before_binary", "pocl", "", "", "3.1",
     "PoCL keeps one process-wide list of loaded work-group functions, with counts: a launch "
     "counts its entry up when it starts, and when it ends counts down the first entry that "
     "matches its kernel hash and work-group size, whichever entry that is. Fetching a "
     "program's binary (pocl_driver_build_poclbinary, for the sizes as for the bytes) puts a "
     "generic entry of each kernel at the front of that list with a count of 0; a launch of a "
     "kernel with reqd_work_group_size that was running then counts that entry down and "
     "aborts (common.c:909, assertion found->ref_count > 0; seen in CI when the kernel cache "
     "saved the GEMM program while later launches of it ran, and every time in the test of "
     "this case with the workaround off). The module records the caller's queues of the "
     "platform; a binary fetch, holding the compile lock that launches take "
     "(serialize_compiles), first waits for a marker on each of them, so no launch runs "
     "during it. It holds the lock 100 ms at most for that, then waits without it and tries "
     "again (10 s in all per query): a command held behind a user event must not hold every "
     "launch."},
    {QuirkId::kChooseLocalSize, "choose_local_size", "pocl", "", "", "3.1",
     "PoCL compiles a work-group function for each work-group size a kernel runs with, and "
     "keeps each one. Given no size, it picks a divisor of the global size: a kernel launched "
     "with a global size that changes every time (Range{n}, n varying) compiled at nearly every "
     "launch, and the process grew with each function (475 launches in 10 s against about "
     "6,000 a second with n fixed; about 22 MB a minute). When the caller gives no size, the "
     "module chooses one from a small set instead: in each dimension the largest power of two "
     "that divides the global size, within the kernel's maximum; a kernel with "
     "reqd_work_group_size keeps it. The global size, offsets and ids the kernel sees are the "
     "caller's; only the split into groups, which the caller left open, is the module's. Not "
     "where POCL_WORK_GROUP_SPECIALIZATION=0 makes PoCL compile one generic function per "
     "kernel, for every size."},
};

static_assert(sizeof(kQuirks) / sizeof(kQuirks[0]) == static_cast<std::size_t>(QuirkId::kCount),
              "one entry per QuirkId");

// The first run of digits and dots: "Oclgrind 21.10" -> {21, 10}; "3.1+debian" -> {3, 1}.
std::vector<unsigned long> version_numbers(const std::string& text) {
  std::vector<unsigned long> numbers;
  size_t at = 0;
  while (at < text.size() && !std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
  while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) {
    unsigned long number = 0;
    for (; at < text.size() && std::isdigit(static_cast<unsigned char>(text[at])); ++at) {
      number = number * 10 + static_cast<unsigned long>(text[at] - '0');
    }
    numbers.push_back(number);
    if (at + 1 < text.size() && text[at] == '.') ++at;  // only a dot followed by more digits
  }
  return numbers;
}

// <0, 0, >0 as a is older, equal, newer than b; missing trailing numbers count as 0.
int compare_versions(const std::vector<unsigned long>& a, const std::vector<unsigned long>& b) {
  for (size_t i = 0; i < a.size() || i < b.size(); ++i) {
    unsigned long x = i < a.size() ? a[i] : 0;
    unsigned long y = i < b.size() ? b[i] : 0;
    if (x != y) return x < y ? -1 : 1;
  }
  return 0;
}

}  // namespace

const Quirk& quirk(QuirkId id) { return kQuirks[static_cast<std::size_t>(id)]; }

bool quirk_applies(const Quirk& quirk, const std::string& implementation,
                   const std::string& driver_version) {
  if (implementation != quirk.implementation) return false;
  bool open_first = quirk.first_version[0] == '\0';
  bool open_last = quirk.last_version[0] == '\0';
  if (open_first && open_last) return true;
  std::vector<unsigned long> version = version_numbers(driver_version);
  if (version.empty()) return false;
  if (!open_first && compare_versions(version, version_numbers(quirk.first_version)) < 0) {
    return false;
  }
  return open_last || compare_versions(version, version_numbers(quirk.last_version)) <= 0;
}

}  // namespace xgpu::backend_opencl
