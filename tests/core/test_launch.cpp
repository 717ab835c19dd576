// Kernel launches on every device: saxpy, 2-D and 3-D ranges with work-groups and offsets,
// local memory, arguments by value (structs, vectors, converted literals), profiling, events.
#include <algorithm>
#include <array>
#include <cstdint>
#include <set>

#include "test_support.hpp"

using xgpu_test::capture_error;
using xgpu_test::check_error;
using xgpu_test::problem_size;

namespace {

const char* const kSaxpy =
    "kernel void saxpy(float a, global const float* x, global float* y) {\n"
    "  size_t i = get_global_id(0);\n"
    "  y[i] = a * x[i] + y[i];\n"
    "}\n";

// Each work-item records where it is: ids[item] = {global x, y, z, local x, y, z, group x, y, z}.
const char* const kWhere =
    "kernel void where(global uint* ids, uint width, uint height) {\n"
    "  size_t x = get_global_id(0) - get_global_offset(0);\n"
    "  size_t y = get_global_id(1) - get_global_offset(1);\n"
    "  size_t z = get_global_id(2) - get_global_offset(2);\n"
    "  global uint* out = ids + 9 * ((z * height + y) * width + x);\n"
    "  for (uint d = 0; d < 3; ++d) {\n"
    "    out[d] = get_global_id(d);\n"
    "    out[3 + d] = get_local_id(d);\n"
    "    out[6 + d] = get_group_id(d);\n"
    "  }\n"
    "}\n";

// Checks what `where` wrote for a launch of `global` items in groups of `local` from `offset`.
void check_where(const std::vector<std::uint32_t>& ids, const xgpu::Range& global,
                 const xgpu::Range& local, const xgpu::Range& offset) {
  std::size_t wrong = 0;
  for (std::size_t z = 0; z < global.size[2]; ++z) {
    for (std::size_t y = 0; y < global.size[1]; ++y) {
      for (std::size_t x = 0; x < global.size[0]; ++x) {
        const std::size_t at = 9 * ((z * global.size[1] + y) * global.size[0] + x);
        const std::size_t pos[3] = {x, y, z};
        for (int d = 0; d < 3; ++d) {
          const std::size_t off = d < static_cast<int>(offset.dims) ? offset.size[d] : 0;
          wrong += ids[at + d] != pos[d] + off;
          wrong += ids[at + 3 + d] != pos[d] % local.size[d];
          wrong += ids[at + 6 + d] != pos[d] / local.size[d];
        }
      }
    }
  }
  CHECK(wrong == 0);
}

}  // namespace

TEST_CASE("saxpy on every device", "[launch]") {
  xgpu_test::for_each_device(
      [&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
        const std::size_t n = problem_size(device, 1 << 20);
        std::vector<float> x(n), y(n);
        for (std::size_t i = 0; i < n; ++i) {
          x[i] = static_cast<float>(i % 1024);
          y[i] = static_cast<float>(i % 7);
        }
        xgpu::Buffer<float> dx = context.alloc<float>(n), dy = context.alloc<float>(n);
        queue.write(dx, x);
        queue.write(dy, y);
        xgpu::Program program = context.build({"saxpy.cl", kSaxpy});
        CHECK(program.source_name() == "saxpy.cl");
        CHECK(program.kernel_names() == std::vector<std::string>{"saxpy"});
        xgpu::Kernel saxpy = program.kernel("saxpy");
        CHECK(saxpy.name() == "saxpy");
        CHECK(saxpy.arg_count() == 3);
        const std::vector<std::string> names = saxpy.arg_names();
        if (!names.empty()) CHECK(names == std::vector<std::string>{"a", "x", "y"});

        queue.launch(saxpy, xgpu::Range{n}, 2.0f, dx, dy);
        const std::vector<float> result = queue.read(dy);
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < n; ++i) wrong += result[i] != 2.0f * x[i] + y[i];
        CHECK(wrong == 0);
      });
}

TEST_CASE("2-D and 3-D ranges with work-groups and offsets", "[launch]") {
  xgpu_test::for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    xgpu::Kernel where = context.build({"where.cl", kWhere}).kernel("where");
    {
      const xgpu::Range global{16, 8}, local{4, 2}, offset{3, 5};
      xgpu::Buffer<std::uint32_t> ids = context.alloc<std::uint32_t>(9 * global.total());
      queue.launch(where, xgpu::Launch(global).local(local).offset(offset), ids, 16u, 8u);
      check_where(queue.read(ids), global, local, offset);
    }
    {
      const xgpu::Range global{4, 6, 8}, local{2, 3, 2}, offset{1, 2, 3};
      xgpu::Buffer<std::uint32_t> ids = context.alloc<std::uint32_t>(9 * global.total());
      queue.launch(where, xgpu::Launch(global).local(local).offset(offset), ids, 4u, 6u);
      check_where(queue.read(ids), global, local, offset);
    }
    {
      // The (global, local) overload, without an offset.
      const xgpu::Range global{8, 4}, local{8, 1};
      xgpu::Buffer<std::uint32_t> ids = context.alloc<std::uint32_t>(9 * global.total());
      queue.launch(where, global, local, ids, 8u, 4u);
      check_where(queue.read(ids), global, local, xgpu::Range{0, 0});
    }
  });
}

// A kernel launched with a global size that changes every time and no work-group size: what it
// sees of the global range is the caller's, every item runs once, and on PoCL the work-group
// sizes stay few (quirk choose_local_size: PoCL compiles a work-group function per size, so a
// size picked per global size compiled at nearly every launch).
TEST_CASE("launches of varying sizes without a work-group size keep the shapes few", "[launch]") {
  const char* const source = R"(
kernel void shape(global uint* seen, global uint* out) {
  const size_t i = get_global_id(0);
  out[i] += 1;
  if (i == 0) {
    seen[0] = (uint)get_global_size(0);
    seen[1] = (uint)get_local_size(0);
    seen[2] = (uint)get_num_groups(0);
  }
}
)";
  xgpu_test::for_each_device(
      [&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
        xgpu::Kernel shape = context.build({"shape.cl", source}).kernel("shape");
        const std::size_t launches = xgpu_test::is_oclgrind(device) ? 8 : 40;
        std::set<std::uint32_t> local_sizes;
        for (std::size_t i = 0; i < launches; ++i) {
          // Odd, even, prime, powers of two and their multiples: 1037 = 17 x 61, 1536 = 3 x 2^9.
          const std::size_t n = 1000 + 37 * i + (i % 3 == 0 ? 3 * i : 0);
          xgpu::Buffer<std::uint32_t> seen = context.alloc<std::uint32_t>(3);
          xgpu::Buffer<std::uint32_t> out = context.alloc<std::uint32_t>(n);
          queue.fill(out, 0u);
          queue.launch(shape, xgpu::Range{n}, seen, out);
          const std::vector<std::uint32_t> got = queue.read(seen);
          INFO("global size " << n);
          CHECK(got[0] == n);
          CHECK(got[1] * got[2] == n);  // whole groups over exactly the caller's range
          CHECK(queue.read(out) == std::vector<std::uint32_t>(n, 1));
          local_sizes.insert(got[1]);
          if (xgpu_test::is_pocl(device)) {
            // The largest power of two dividing n, within the kernel's maximum.
            std::size_t expected = 1;
            while (n % (expected * 2) == 0 && expected * 2 <= shape.limits().max_work_group_size)
              expected *= 2;
            CHECK(got[1] == expected);
          }
        }
        INFO(local_sizes.size() << " work-group sizes over " << launches << " global sizes");
        if (xgpu_test::is_pocl(device)) CHECK(local_sizes.size() <= 13);  // 1, 2, ... 4096
      });
}

TEST_CASE("local memory arguments in a work-group reduction", "[launch]") {
  const char* const source =
      "kernel void group_sum(global const int* in, global int* out, local int* scratch) {\n"
      "  size_t lid = get_local_id(0), size = get_local_size(0);\n"
      "  scratch[lid] = in[get_global_id(0)];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  for (size_t step = size / 2; step > 0; step /= 2) {\n"
      "    if (lid < step) scratch[lid] += scratch[lid + step];\n"
      "    barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  }\n"
      "  if (lid == 0) out[get_group_id(0)] = scratch[0];\n"
      "}\n";
  xgpu_test::for_each_device(
      [&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
        const std::size_t group = std::min<std::size_t>(64, device.info().max_work_group_size);
        const std::size_t groups = 8, n = group * groups;
        std::vector<int> in(n);
        for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<int>(i);
        xgpu::Buffer<int> din = context.alloc<int>(n), dout = context.alloc<int>(groups);
        queue.write(din, in);
        xgpu::Kernel sum = context.build({"group_sum.cl", source}).kernel("group_sum");
        queue.launch(sum, xgpu::Range{n}, xgpu::Range{group}, din, dout, xgpu::Local<int>(group));
        const std::vector<int> out = queue.read(dout);
        for (std::size_t g = 0; g < groups; ++g) {
          const int first = static_cast<int>(g * group), last = first + static_cast<int>(group) - 1;
          CHECK(out[g] == (first + last) * static_cast<int>(group) / 2);
        }
      });
}

TEST_CASE("arguments by value: structs and vectors and converted literals", "[launch]") {
  struct Params {
    std::int32_t base;
    float scale;
    std::int32_t pair[2];
  };
  const char* const source =
      "typedef struct { int base; float scale; int pair[2]; } Params;\n"
      "kernel void by_struct(Params p, global float* out) {\n"
      "  out[0] = p.base; out[1] = p.scale; out[2] = p.pair[0] + 10 * p.pair[1];\n"
      "}\n"
      "kernel void by_vector(float4 v, global float* out) {\n"
      "  out[0] = v.x; out[1] = v.y; out[2] = v.z + v.w;\n"
      "}\n"
      "kernel void by_uint(uint u, global float* out) { out[0] = u; out[1] = 0; out[2] = 0; }\n"
      "kernel void by_long(long l, global float* out) { out[0] = l; out[1] = 0; out[2] = 0; }\n"
      "kernel void by_null(global const float* maybe, constant float* table, global float* out) {\n"
      "  out[0] = maybe ? 1.0f : -1.0f; out[1] = table[1]; out[2] = 0;\n"
      "}\n";
  xgpu_test::for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    xgpu::Program program = context.build({"by_value.cl", source});
    xgpu::Buffer<float> out = context.alloc<float>(3);
    const xgpu::Range one{1};

    queue.launch(program.kernel("by_struct"), one, Params{7, 0.5f, {3, 4}}, out);
    CHECK(queue.read(out) == std::vector<float>{7.0f, 0.5f, 43.0f});

    queue.launch(program.kernel("by_vector"), one, std::array<float, 4>{1, 2, 3, 4}, out);
    CHECK(queue.read(out) == std::vector<float>{1.0f, 2.0f, 7.0f});

    queue.launch(program.kernel("by_uint"), one, 41, out);  // int literal fits a uint
    CHECK(queue.read(out) == std::vector<float>{41.0f, 0.0f, 0.0f});
    queue.launch(program.kernel("by_uint"), one, 42u, out);
    CHECK(queue.read(out)[0] == 42.0f);
    queue.launch(program.kernel("by_long"), one, -5, out);  // int widens to long
    CHECK(queue.read(out)[0] == -5.0f);

    // A null global pointer is a valid argument; a constant parameter takes a Buffer.
    xgpu::Buffer<float> table = context.alloc<float>(2);
    queue.write(table, std::vector<float>{5.0f, 6.0f});
    queue.launch(program.kernel("by_null"), one, nullptr, table, out);
    CHECK(queue.read(out) == std::vector<float>{-1.0f, 6.0f, 0.0f});
    queue.launch(program.kernel("by_null"), one, table, table, out);
    CHECK(queue.read(out)[0] == 1.0f);

    queue.fill(out, 9.0f);
    check_error(capture_error([&] { queue.launch(program.kernel("by_uint"), one, -1, out); }),
                xgpu::Errc::argument_type, {"by_uint", "u"});
    CHECK(queue.read(out)[0] == 9.0f);  // nothing was launched
  });
}

// KernelArgs: the same launch with arguments chosen at run time, and the parameters a caller
// converts them by. A run-time list has no type token: after a launch with one pattern, a
// list of another pattern must still be checked in full.
TEST_CASE("arguments chosen at run time (KernelArgs) and the kernel's parameters", "[launch]") {
  const char* const source =
      "kernel void mixed(float a, global const float* x, global float* y, uint n,\n"
      "                  float4 v, local float* scratch) {\n"
      "  size_t i = get_global_id(0);\n"
      "  scratch[get_local_id(0)] = a * x[i];\n"
      "  barrier(CLK_LOCAL_MEM_FENCE);\n"
      "  if (i < n) y[i] = scratch[get_local_id(0)] + y[i] + v.x + v.w;\n"
      "}\n";
  xgpu_test::for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    xgpu::Kernel kernel = context.build({"mixed.cl", source}).kernel("mixed");
    const std::vector<xgpu::KernelParameter> parameters = kernel.parameters();
    REQUIRE(parameters.size() == 6);
    CHECK(parameters[0].name == "a");
    CHECK(parameters[0].space == xgpu::KernelParameter::Space::value);
    CHECK(parameters[0].element == "float");
    CHECK(parameters[1].space == xgpu::KernelParameter::Space::global);
    CHECK(parameters[1].pointer);
    CHECK(parameters[1].element == "float");
    CHECK(parameters[3].element == "uint");
    CHECK(parameters[4].lanes == 4);
    CHECK(parameters[5].space == xgpu::KernelParameter::Space::local);

    const std::size_t n = 64;
    xgpu::Buffer<float> x = context.alloc<float>(n), y = context.alloc<float>(n);
    queue.fill(x, 1.0f);
    queue.fill(y, 10.0f);
    xgpu::KernelArgs args;
    // n as a 64-bit integer: converted to the uint parameter, as a C++ launch converts it.
    args.add(2.0f).add(x).add(y).add(std::int64_t{n}).add(std::array<float, 4>{1, 0, 0, 3});
    args.add(xgpu::Local<float>(16));
    queue.launch(kernel, xgpu::Launch(xgpu::Range{n}).local(xgpu::Range{16}), args).wait();
    CHECK(queue.read(y) == std::vector<float>(n, 16.0f));

    // Reused: cleared and filled again, submitted without an Event.
    args.clear();
    args.add(3.0f).add(x).add(y).add(std::int64_t{n}).add(std::array<float, 4>{0, 0, 0, 0});
    args.add(xgpu::Local<float>(16));
    queue.submit(kernel, xgpu::Launch(xgpu::Range{n}).local(xgpu::Range{16}), args);
    CHECK(queue.read(y) == std::vector<float>(n, 19.0f));

    // Another pattern under the same (absent) token: a double for the float is refused.
    args.clear();
    args.add(3.0).add(x).add(y).add(std::int64_t{n}).add(std::array<float, 4>{});
    args.add(xgpu::Local<float>(16));
    check_error(capture_error([&] {
                  queue.launch(kernel, xgpu::Launch(xgpu::Range{n}).local(xgpu::Range{16}), args);
                }),
                xgpu::Errc::argument_type, {"mixed", "argument 0 (a)", "double"});
    args.clear();
    args.add(3.0f).add(x).add(y).add(std::int64_t{-1}).add(std::array<float, 4>{});
    args.add(xgpu::Local<float>(16));
    check_error(capture_error([&] {
                  queue.launch(kernel, xgpu::Launch(xgpu::Range{n}).local(xgpu::Range{16}), args);
                }),
                xgpu::Errc::argument_type, {"argument 3 (n)", "-1"});
    args.clear();
    args.add(3.0f).add(x);
    check_error(capture_error([&] { queue.launch(kernel, xgpu::Launch(xgpu::Range{n}), args); }),
                xgpu::Errc::argument_count, {"mixed", "takes 6", "got 2"});
    CHECK(queue.read(y) == std::vector<float>(n, 19.0f));  // nothing ran
  });
}

TEST_CASE("profiling timestamps and events", "[launch]") {
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      xgpu::Queue queue = context.queue(xgpu::QueueOptions{true});
      CHECK(queue.profiling());
      const std::size_t n = problem_size(device, 1 << 16);
      xgpu::Buffer<float> x = context.alloc<float>(n), y = context.alloc<float>(n);
      xgpu::Event filled = queue.fill(x, 1.0f);
      xgpu::Event zeroed = queue.fill(y, 1.0f);
      xgpu::Kernel saxpy = context.build({"saxpy.cl", kSaxpy}).kernel("saxpy");
      xgpu::Event ran =
          queue.launch(saxpy, xgpu::Launch(xgpu::Range{n}).after({filled, zeroed}), 3.0f, x, y);
      REQUIRE(ran);
      ran.wait();
      CHECK(ran.status() == xgpu::EventStatus::complete);
      const xgpu::EventTimes profile = ran.profile();
      CHECK(profile.queued <= profile.submit);
      CHECK(profile.submit <= profile.start);
      CHECK(profile.start <= profile.end);
      CHECK(profile.end > 0);
      CHECK(profile.duration().count() >= 0);
      CHECK(filled.profile().end <= profile.start);  // in-order queue
      CHECK(queue.read(y) == std::vector<float>(n, 4.0f));
      queue.finish();
      queue.flush();

      // Without profiling, asking for timestamps is an error (event.hpp), not garbage.
      xgpu::Queue plain = context.queue();
      CHECK_FALSE(plain.profiling());
      xgpu::Event event = plain.fill(x, 2.0f);
      event.wait();
      INFO("Event::profile() on an event of a queue made without profiling");
      CHECK_THROWS_AS(event.profile(), xgpu::Error);
    }
  }
}

TEST_CASE("embedded kernels build on every device", "[launch][kernels]") {
  const std::vector<std::string> names = xgpu::kernels::names();
  REQUIRE_FALSE(names.empty());
  for (const std::string& name : names) {
    const xgpu::Source source = xgpu::kernels::source(name);
    CHECK(source.name == name);
    CHECK_FALSE(source.text.empty());
    REQUIRE(xgpu::kernels::find(name) != nullptr);
    CHECK(*xgpu::kernels::find(name) == source.text);
  }
  CHECK(xgpu::kernels::find("no_such_file.cl") == nullptr);
  for (const xgpu::Device& device : xgpu::devices()) {
    DYNAMIC_SECTION(device.describe()) {
      xgpu::Context context(device);
      for (const std::string& name : names) {
        INFO("embedded file " << name);
        xgpu::Program program = context.build(xgpu::kernels::source(name));
        // Including an embedded file gives the same kernels as building it.
        xgpu::Program wrapped = context.build({"wrap.cl", "#include \"" + name + "\"\n"});
        CHECK(wrapped.kernel_names() == program.kernel_names());
      }
    }
  }
}

TEST_CASE("#include between sources", "[launch][kernels]") {
  const xgpu::Source main{"main.cl",
                          "#include \"helpers.h\"\n"
                          "kernel void use(global int* out) { out[get_global_id(0)] = "
                          "triple((int)get_global_id(0)) + OFFSET; }\n"};
  const std::vector<xgpu::Source> headers{
      {"helpers.h", "#include \"offset.h\"\nint triple(int v) { return 3 * v; }\n"},
      {"offset.h", "#define OFFSET 100\n"}};
  xgpu_test::for_each_device([&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device&) {
    xgpu::Program program = context.build(main, "", headers);
    xgpu::Buffer<int> out = context.alloc<int>(16);
    queue.launch(program.kernel("use"), xgpu::Range{16}, out);
    const std::vector<int> result = queue.read(out);
    for (int i = 0; i < 16; ++i) CHECK(result[i] == 3 * i + 100);

    // Build options reach the compiler.
    xgpu::Program defined = context.build(
        {"defined.cl", "kernel void k(global int* o) { o[0] = VALUE; }\n"}, "-DVALUE=17");
    queue.launch(defined.kernel("k"), xgpu::Range{1}, out);
    CHECK(queue.read(out)[0] == 17);
  });
}

// Launch validation before anything is enqueued: each bad launch is a named error, and the
// buffer the kernel would have written is unchanged after finish().
namespace {

const char* const kValidation =
    "typedef struct { int base; float scale; int pair[2]; } Params;\n"
    "kernel void own_and_argument(global int* out, local int* scratch) {\n"
    "  local int own[256];\n"
    "  own[get_local_id(0)] = 1; scratch[get_local_id(0)] = 2;\n"
    "  barrier(CLK_LOCAL_MEM_FENCE);\n"
    "  out[get_global_id(0)] = own[0] + scratch[0];\n"
    "}\n"
    "kernel void by_float3(float3 v, global int* out) { out[0] = (int)(v.x + v.y + v.z); }\n"
    "kernel void by_struct(Params p, global int* out) { out[0] = p.base; }\n"
    "kernel void plain(global int* out) { out[get_global_id(0)] = 3; }\n";

struct WrongParams {  // 12 bytes where the kernel's Params has 16
  std::int32_t base;
  float scale;
  std::int32_t pair0;
};

// Nothing ran: `out` still holds the 7s it was filled with.
void check_untouched(xgpu::Queue& queue, xgpu::Buffer<int>& out) {
  queue.finish();
  const std::vector<int> now = queue.read(out);
  CHECK(std::count(now.begin(), now.end(), 7) == static_cast<long>(now.size()));
}

}  // namespace

TEST_CASE("launch validation: local memory over the device's, before enqueue", "[launch]") {
  xgpu_test::for_each_device([&](xgpu::Context& context, xgpu::Queue& queue,
                                 const xgpu::Device& device) {
    xgpu::Buffer<int> out = context.alloc<int>(64);
    queue.fill(out, 7);
    xgpu::Kernel kernel = context.build({"validation.cl", kValidation}).kernel("own_and_argument");
    const std::uint64_t device_local = device.info().local_memory;
    const std::uint64_t own = kernel.limits().local_memory;
    INFO("device local memory " << device_local << ", the kernel's own " << own);
    REQUIRE(device_local > 0);
    const xgpu::Range global{64}, group{16};

    // Local<T> arguments alone larger than the device's local memory.
    const std::size_t too_many = static_cast<std::size_t>(device_local / sizeof(int)) + 1;
    check_error(capture_error(
                    [&] { queue.launch(kernel, global, group, out, xgpu::Local<int>(too_many)); }),
                xgpu::Errc::allocation_too_large,
                {"own_and_argument", std::to_string(device_local),
                 std::to_string(too_many * sizeof(int)), "Local<T>"});
    check_untouched(queue, out);

    // The kernel's own 1 KiB counts too: an argument that fits alone does not fit beside it.
    if (own >= 256 * sizeof(int)) {
      const std::size_t fits_alone = static_cast<std::size_t>(device_local / sizeof(int));
      check_error(capture_error([&] {
                    queue.launch(kernel, global, group, out, xgpu::Local<int>(fits_alone));
                  }),
                  xgpu::Errc::allocation_too_large,
                  {std::to_string(own) + " of its own", std::to_string(device_local)});
      check_untouched(queue, out);
    } else {
      WARN(device.describe() << " reports " << own
                             << " bytes of the kernel's own local memory: that case is not "
                                "checked here");
    }
    // And one that fits beside it runs.
    queue.launch(kernel, global, group, out, xgpu::Local<int>(16));
    CHECK(queue.read(out) == std::vector<int>(64, 3));
  });
}

TEST_CASE("launch validation: a work-group over the kernel's maximum, before enqueue", "[launch]") {
  xgpu_test::for_each_device([&](xgpu::Context& context, xgpu::Queue& queue,
                                 const xgpu::Device& device) {
    // Room for a whole group of the device's maximum, should the check let one through.
    xgpu::Buffer<int> out =
        context.alloc<int>(std::max<std::size_t>(64, device.info().max_work_group_size));
    queue.fill(out, 7);
    xgpu::Kernel kernel = context.build({"validation.cl", kValidation}).kernel("plain");
    const std::size_t kernel_max = kernel.limits().max_work_group_size;
    INFO("the kernel's maximum work-group " << kernel_max << ", the device's "
                                            << device.info().max_work_group_size);
    REQUIRE(kernel_max > 0);
    CHECK(kernel_max <= device.info().max_work_group_size);
    // A group over the kernel's maximum but within the device's is refused with the
    // kernel's figure. PoCL 3.1 and Oclgrind report the device's maximum for every kernel;
    // the stub module's kernel (tests/modules) has a lower one and covers the check there.
    const std::size_t device_max = device.info().max_work_group_size;
    if (kernel_max < device_max && device.info().max_work_item_sizes[0] >= device_max) {
      check_error(capture_error([&] {
                    queue.launch(kernel, xgpu::Range{device_max}, xgpu::Range{device_max}, out);
                  }),
                  xgpu::Errc::invalid_range,
                  {"plain", "kernel's maximum of " + std::to_string(kernel_max)});
      check_untouched(queue, out);
    }
    queue.launch(kernel, xgpu::Range{64}, xgpu::Range{std::min<std::size_t>(kernel_max, 64)}, out);
    std::vector<int> first(64);
    queue.read(out, first.data(), 64);
    CHECK(first == std::vector<int>(64, 3));
  });
}

TEST_CASE("launch validation: a partial last work-group only where the device has them",
          "[launch]") {
  xgpu_test::for_each_device(
      [&](xgpu::Context& context, xgpu::Queue& queue, const xgpu::Device& device) {
        xgpu::Buffer<int> out = context.alloc<int>(64);
        queue.fill(out, 7);
        xgpu::Kernel kernel = context.build({"validation.cl", kValidation}).kernel("plain");
        // 10 items in groups of 4: the last group has 2. Without non-uniform work-groups
        // (PoCL 3.1 and Oclgrind here) xgpu refuses it, saying why; with them (OpenCL 2.x, or
        // 3.0 where the driver says so) the driver decides, for programs built for OpenCL C 2.0.
        if (!device.info().non_uniform_work_groups) {
          check_error(
              capture_error([&] { queue.launch(kernel, xgpu::Range{10}, xgpu::Range{4}, out); }),
              xgpu::Errc::invalid_range,
              {"plain", "global size 10", "not a multiple of the work-group size 4",
               "no non-uniform work-groups"});
          check_untouched(queue, out);
        } else {
          SUCCEED("non-uniform work-groups: conform's workgroups/non_uniform_last_group runs them");
        }
      });
}

TEST_CASE("launch validation: by-value arguments of the wrong size, before enqueue", "[launch]") {
  xgpu_test::for_each_device([&](xgpu::Context& context, xgpu::Queue& queue,
                                 const xgpu::Device& device) {
    xgpu::Buffer<int> out = context.alloc<int>(1);
    queue.fill(out, 7);
    xgpu::Program program = context.build({"validation.cl", kValidation});

    // float3 is 16 bytes in OpenCL; std::array<float, 3> is 12.
    check_error(capture_error([&] {
                  queue.launch(program.kernel("by_float3"), xgpu::Range{1},
                               std::array<float, 3>{1, 2, 3}, out);
                }),
                xgpu::Errc::argument_type,
                {"by_float3", "(v)", "float3", "16 bytes", "12 bytes", "std::array<T, 4>"});
    check_untouched(queue, out);
    queue.launch(program.kernel("by_float3"), xgpu::Range{1}, std::array<float, 4>{1, 2, 3, 0},
                 out);
    CHECK(queue.read(out)[0] == 6);

    // A struct of 12 bytes for the kernel's 16-byte Params. OpenCL reports no struct's
    // size, so only a driver that checks (Oclgrind) can refuse it; the refusal is then
    // named like the core's own errors. PoCL 3.1 takes any size (and reads 16 bytes).
    if (xgpu_test::is_oclgrind(device)) {
      queue.fill(out, 7);
      check_error(
          capture_error([&] {
            queue.launch(program.kernel("by_struct"), xgpu::Range{1}, WrongParams{1, 2.0f, 3}, out);
          }),
          xgpu::Errc::argument_type,
          {"by_struct", "(p)", "Params", "12 bytes", "CL_INVALID_ARG_SIZE"});
      check_untouched(queue, out);
    }
  });
}
