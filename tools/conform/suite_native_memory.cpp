// The memory suite's checks of sub-buffers and host-pointer flags (CL_MEM_COPY_HOST_PTR,
// CL_MEM_USE_HOST_PTR, CL_MEM_ALLOC_HOST_PTR), made through xgpu's OpenCL interop
// (xgpu/opencl.hpp) on xgpu's own context and queue because xgpu's own API offers neither;
// shared plumbing in native.hpp. The parents of sub-buffers are made natively: a buffer from
// xgpu's caching allocator is itself a sub-buffer, and OpenCL refuses a sub-buffer of one.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "native.hpp"

namespace xgpu::conform {
namespace {

using namespace native;

const char* const kMemorySource = R"(
kernel void add_one(global uchar* bytes) { bytes[get_global_id(0)] += 1; }
kernel void twice(global int* data) { data[get_global_id(0)] *= 2; }
)";

// CL_DEVICE_MEM_BASE_ADDR_ALIGN in bytes (the device reports bits).
std::size_t base_alignment(const Native& cl) {
  cl_uint bits = 0;
  const cl_int error =
      clGetDeviceInfo(cl.device, CL_DEVICE_MEM_BASE_ADDR_ALIGN, sizeof bits, &bits, nullptr);
  if (error != CL_SUCCESS)
    throw std::runtime_error("CL_DEVICE_MEM_BASE_ADDR_ALIGN: " + status_name(error));
  return bits / 8;
}

std::vector<std::uint8_t> byte_pattern(std::size_t size) {
  std::vector<std::uint8_t> bytes(size);
  for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::uint8_t>(i * 7 + 3);
  return bytes;
}

// A sub-buffer at the first aligned origin past 0 sees, and changes, exactly its bytes of the
// parent: read, a kernel, and a write through it.
Result sub_buffer_aligned(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  const Native cl = native_of(env);
  const std::size_t align = base_alignment(cl);
  if (align == 0) return fail_expected("CL_DEVICE_MEM_BASE_ADDR_ALIGN", ">= 8 bits", "0");
  const std::size_t size = 4 * align, origin = align, length = 2 * align;
  std::vector<std::uint8_t> expected = byte_pattern(size);
  cl_int error = CL_SUCCESS;
  MemObject parent(clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, size,
                                  expected.data(), &error));
  if (error != CL_SUCCESS)
    return fail_expected("clCreateBuffer of the parent", "CL_SUCCESS", status_name(error));

  const cl_buffer_region region{origin, length};
  MemObject sub(clCreateSubBuffer(parent.get(), CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                  &region, &error));
  const std::string where = "sub-buffer at origin " + std::to_string(origin) +
                            " (CL_DEVICE_MEM_BASE_ADDR_ALIGN), size " + std::to_string(length);
  if (error != CL_SUCCESS)
    return fail_expected("clCreateSubBuffer of a " + where, "CL_SUCCESS", status_name(error));

  std::vector<std::uint8_t> seen(length);
  error = clEnqueueReadBuffer(cl.queue, sub.get(), CL_TRUE, 0, length, seen.data(), 0, nullptr,
                              nullptr);
  if (error != CL_SUCCESS)
    return fail_expected("clEnqueueReadBuffer of the " + where, "CL_SUCCESS", status_name(error));
  for (std::size_t i = 0; i < length; ++i) {
    if (seen[i] != expected[origin + i])
      return fail_expected("byte " + std::to_string(i) + " read through the " + where,
                           int(expected[origin + i]), int(seen[i]));
  }

  std::string problem;
  const ProgramObject program = build_native(cl, kMemorySource, problem);
  if (!program) return fail_expected("building the memory kernels", "CL_SUCCESS", problem);
  const KernelObject add_one = make_kernel(program.get(), "add_one", problem);
  if (!add_one) return fail_expected("the add_one kernel", "CL_SUCCESS", problem);
  problem = run_kernel(cl, add_one.get(), {sub.get()}, length);
  if (!problem.empty()) return fail_expected("add_one over the " + where, "CL_COMPLETE", problem);
  for (std::size_t i = origin; i < origin + length; ++i) ++expected[i];

  const std::size_t written_at = align / 2, written = std::min<std::size_t>(16, align);
  const std::vector<std::uint8_t> marks(written, 0xA5);
  error = clEnqueueWriteBuffer(cl.queue, sub.get(), CL_TRUE, written_at, written, marks.data(), 0,
                               nullptr, nullptr);
  if (error != CL_SUCCESS)
    return fail_expected("clEnqueueWriteBuffer into the " + where, "CL_SUCCESS",
                         status_name(error));
  std::fill_n(expected.begin() + origin + written_at, written, std::uint8_t{0xA5});

  std::vector<std::uint8_t> got(size);
  error = clEnqueueReadBuffer(cl.queue, parent.get(), CL_TRUE, 0, size, got.data(), 0, nullptr,
                              nullptr);
  if (error != CL_SUCCESS)
    return fail_expected("clEnqueueReadBuffer of the parent", "CL_SUCCESS", status_name(error));
  for (std::size_t i = 0; i < size; ++i) {
    if (got[i] != expected[i]) {
      const bool inside = i >= origin && i < origin + length;
      return fail_expected("parent byte " + std::to_string(i) +
                               (inside ? " (inside" : " (outside") +
                               " the sub-buffer) after add_one and a write through it",
                           int(expected[i]), int(got[i]));
    }
  }
  return pass();
}

struct RegionCase {
  std::size_t origin, length;
  cl_int expected;
  const char* what;
};

// clCreateSubBuffer of each region of a parent of `size` bytes, each expecting its status.
// On the first mismatch, `wrong` (when given) receives the status that came back.
Result sub_buffer_cases(Env& env, std::size_t size, std::size_t align,
                        const std::vector<RegionCase>& cases, cl_int* wrong = nullptr) {
  cl_int error = CL_SUCCESS;
  MemObject parent(
      clCreateBuffer(native_of(env).context, CL_MEM_READ_WRITE, size, nullptr, &error));
  if (error != CL_SUCCESS)
    return fail_expected("clCreateBuffer of the parent", "CL_SUCCESS", status_name(error));
  for (const RegionCase& c : cases) {
    const cl_buffer_region region{c.origin, c.length};
    MemObject sub(clCreateSubBuffer(parent.get(), CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION,
                                    &region, &error));
    if (error != c.expected) {
      if (wrong) *wrong = error;
      return fail_expected(std::string("clCreateSubBuffer with a ") + c.what + " (origin " +
                               std::to_string(c.origin) + ", size " + std::to_string(c.length) +
                               " of " + std::to_string(size) + ", alignment " +
                               std::to_string(align) + ")",
                           status_name(c.expected), status_name(error));
    }
    if ((c.expected == CL_SUCCESS) != static_cast<bool>(sub))
      return fail_expected(std::string("the object clCreateSubBuffer returned for a ") + c.what,
                           c.expected == CL_SUCCESS ? "a sub-buffer" : "NULL",
                           sub ? "a sub-buffer" : "NULL");
  }
  return pass();
}

// Origins that are not multiples of CL_DEVICE_MEM_BASE_ADDR_ALIGN are refused with
// CL_MISALIGNED_SUB_BUFFER_OFFSET (the context has one device).
Result sub_buffer_misaligned(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  const std::size_t align = base_alignment(native_of(env));
  if (align == 0) return fail_expected("CL_DEVICE_MEM_BASE_ADDR_ALIGN", ">= 8 bits", "0");
  if (align == 1) return skip("the device aligns sub-buffers to single bytes");
  std::vector<RegionCase> cases = {{1, 16, CL_MISALIGNED_SUB_BUFFER_OFFSET, "misaligned origin"}};
  if (align > 2)
    cases.push_back({align / 2, 16, CL_MISALIGNED_SUB_BUFFER_OFFSET, "misaligned origin"});
  cl_int wrong = CL_MISALIGNED_SUB_BUFFER_OFFSET;
  const Result result = sub_buffer_cases(env, 4 * align, align, cases, &wrong);
  if (wrong == CL_SUCCESS) {
    const std::string reason = known_deviation(env);
    if (!reason.empty()) return skip(reason);
  }
  return result;
}

// Regions past the parent's end are refused with CL_INVALID_VALUE; one ending exactly at the
// end is fine.
Result sub_buffer_bounds(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  const std::size_t align = base_alignment(native_of(env));
  if (align == 0) return fail_expected("CL_DEVICE_MEM_BASE_ADDR_ALIGN", ">= 8 bits", "0");
  const std::size_t size = 4 * align;
  const std::vector<RegionCase> cases = {
      {align, size - align + 1, CL_INVALID_VALUE, "region one byte past the end"},
      {0, size + align, CL_INVALID_VALUE, "region longer than the parent"},
      {size, 16, CL_INVALID_VALUE, "region starting at the end"},
      {align, size - align, CL_SUCCESS, "region ending exactly at the end"}};
  return sub_buffer_cases(env, size, align, cases);
}

// The last steps of the host-pointer checks: the kernel twice over `buffer` (a `what` that
// holds `values`), then a map for reading, which must show every value doubled.
Result twice_then_mapped(const Native& cl, cl_mem buffer, const std::vector<int>& values,
                         const std::string& what) {
  std::string problem;
  const ProgramObject program = build_native(cl, kMemorySource, problem);
  if (!program) return fail_expected("building the memory kernels", "CL_SUCCESS", problem);
  const KernelObject twice = make_kernel(program.get(), "twice", problem);
  if (!twice) return fail_expected("the twice kernel", "CL_SUCCESS", problem);
  problem = run_kernel(cl, twice.get(), {buffer}, values.size());
  if (!problem.empty()) return fail_expected("twice over a " + what, "CL_COMPLETE", problem);
  std::vector<int> doubled = values;
  for (int& value : doubled) value *= 2;
  Mapped mapped(cl.queue, buffer, CL_MAP_READ, values.size() * sizeof(int));
  if (mapped.error() != CL_SUCCESS)
    return fail_expected("clEnqueueMapBuffer for reading after a kernel", "CL_SUCCESS",
                         status_name(mapped.error()));
  return compare_ints(what + " mapped after the kernel twice", doubled,
                      static_cast<const int*>(mapped.get()));
}

// CL_MEM_COPY_HOST_PTR: the buffer holds a copy made at creation; later host writes do not
// reach it.
Result host_ptr_copy(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  const Native cl = native_of(env);
  const std::vector<int> values = int_pattern(env.size(4096, 256), 5, -7);
  std::vector<int> host = values;
  cl_int error = CL_SUCCESS;
  MemObject buffer(clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR,
                                  host.size() * sizeof(int), host.data(), &error));
  if (error != CL_SUCCESS)
    return fail_expected("clCreateBuffer with CL_MEM_COPY_HOST_PTR", "CL_SUCCESS",
                         status_name(error));
  std::fill(host.begin(), host.end(), -1);  // the buffer must not see this
  return read_and_compare(cl, buffer.get(), "CL_MEM_COPY_HOST_PTR buffer read back", values);
}

// CL_MEM_USE_HOST_PTR: a map returns memory derived from the host pointer (OpenCL 1.2,
// 5.4.2.1) holding the data, and what a kernel writes is there after the next map.
// (Oclgrind's OCLGRIND_UNINITIALIZED=1 reports the kernel's reads here: it does not count the
// host data a CL_MEM_USE_HOST_PTR buffer starts with as written.)
Result host_ptr_use(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  const Native cl = native_of(env);
  const std::size_t n = env.size(4096, 256), bytes = n * sizeof(int);
  // Page-aligned and a whole number of pages: what drivers need to use it without a copy.
  const std::size_t page = 4096, allocated = (bytes + page - 1) / page * page;
  const std::unique_ptr<void, decltype(&std::free)> memory(std::aligned_alloc(page, allocated),
                                                           &std::free);
  if (!memory) throw std::runtime_error("aligned_alloc failed");
  int* host = static_cast<int*>(memory.get());
  const std::vector<int> values = int_pattern(n, 3, 1);
  std::copy(values.begin(), values.end(), host);

  cl_int error = CL_SUCCESS;
  MemObject buffer(
      clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, bytes, host, &error));
  if (error != CL_SUCCESS)
    return fail_expected("clCreateBuffer with CL_MEM_USE_HOST_PTR", "CL_SUCCESS",
                         status_name(error));
  {
    Mapped mapped(cl.queue, buffer.get(), CL_MAP_READ | CL_MAP_WRITE, bytes);
    if (mapped.error() != CL_SUCCESS)
      return fail_expected("clEnqueueMapBuffer of a CL_MEM_USE_HOST_PTR buffer", "CL_SUCCESS",
                           status_name(mapped.error()));
    if (mapped.get() != static_cast<void*>(host))
      return fail_expected(
          "the pointer clEnqueueMapBuffer returned for a CL_MEM_USE_HOST_PTR "
          "buffer",
          static_cast<void*>(host), mapped.get());
    const Result first = compare_ints("CL_MEM_USE_HOST_PTR buffer mapped", values,
                                      static_cast<const int*>(mapped.get()));
    if (first.outcome != Outcome::pass) return first;
    const cl_int unmapped = mapped.unmap();
    if (unmapped != CL_COMPLETE)
      return fail_expected("clEnqueueUnmapMemObject", "CL_COMPLETE", not_done(unmapped));
  }
  return twice_then_mapped(cl, buffer.get(), values, "CL_MEM_USE_HOST_PTR buffer");
}

// CL_MEM_ALLOC_HOST_PTR: mappable; data written through a map reaches reads and kernels, and
// a kernel's results reach the next map.
Result host_ptr_alloc(Env& env) {
  if (!on_opencl(env)) return skip(kNeedsOpenCL);
  const Native cl = native_of(env);
  const std::size_t n = env.size(4096, 256), bytes = n * sizeof(int);
  cl_int error = CL_SUCCESS;
  MemObject buffer(clCreateBuffer(cl.context, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes,
                                  nullptr, &error));
  if (error != CL_SUCCESS)
    return fail_expected("clCreateBuffer with CL_MEM_ALLOC_HOST_PTR", "CL_SUCCESS",
                         status_name(error));
  const std::vector<int> values = int_pattern(n, 9, 2);
  {
    Mapped mapped(cl.queue, buffer.get(), CL_MAP_WRITE, bytes);
    if (mapped.error() != CL_SUCCESS)
      return fail_expected("clEnqueueMapBuffer for writing of a CL_MEM_ALLOC_HOST_PTR buffer",
                           "CL_SUCCESS", status_name(mapped.error()));
    std::copy(values.begin(), values.end(), static_cast<int*>(mapped.get()));
    const cl_int unmapped = mapped.unmap();
    if (unmapped != CL_COMPLETE)
      return fail_expected("clEnqueueUnmapMemObject", "CL_COMPLETE", not_done(unmapped));
  }
  const Result read = read_and_compare(
      cl, buffer.get(), "CL_MEM_ALLOC_HOST_PTR buffer written through a map, read back", values);
  if (read.outcome != Outcome::pass) return read;
  return twice_then_mapped(cl, buffer.get(), values, "CL_MEM_ALLOC_HOST_PTR buffer");
}

}  // namespace

void register_native_memory(Registry& registry) {
  registry.add("memory", "sub_buffer_aligned", "", sub_buffer_aligned);
  registry.add("memory", "sub_buffer_misaligned_rejected", "", sub_buffer_misaligned);
  registry.add("memory", "sub_buffer_past_end_rejected", "", sub_buffer_bounds);
  registry.add("memory", "host_ptr_copy", "", host_ptr_copy);
  registry.add("memory", "host_ptr_use", "", host_ptr_use);
  registry.add("memory", "host_ptr_alloc", "", host_ptr_alloc);
}

}  // namespace xgpu::conform
