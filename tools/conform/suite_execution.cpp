// The execution suite: a copy kernel over 1D/2D/3D ranges with offsets, the work-item
// functions, every kind of kernel argument, a local-memory reduction with barriers, and a
// global size rounded up past the data with a guard.
#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "check.hpp"

namespace xgpu::conform {
namespace {

const char* const kSource = R"(
typedef struct { int a; float b; } Pair;
kernel void copy3(global const int* src, global int* dst, uint w, uint h) {
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t z = get_global_id(2) - get_global_offset(2);
  size_t at = (z * h + y) * w + x;
  dst[at] = src[at];
}
kernel void where(global uint* out) {
  size_t x = get_global_id(0) - get_global_offset(0), y = get_global_id(1) - get_global_offset(1);
  global uint* o = out + 8 * (y * get_global_size(0) + x);
  for (uint d = 0; d < 2; ++d) {
    o[4 * d + 0] = get_global_id(d);
    o[4 * d + 1] = get_local_id(d);
    o[4 * d + 2] = get_group_id(d);
    o[4 * d + 3] = get_num_groups(d) * get_local_size(d) == get_global_size(d);
  }
}
kernel void args(int s, float4 v, Pair p, global float* out, local float* scratch,
                 global int* maybe_null) {
  scratch[get_local_id(0)] = 1.5f;
  barrier(CLK_LOCAL_MEM_FENCE);
  out[0] = s; out[1] = v.x; out[2] = v.y; out[3] = v.z; out[4] = v.w;
  out[5] = p.a; out[6] = p.b; out[7] = maybe_null == 0; out[8] = scratch[0];
}
kernel void reduce(global const int* in, global int* sums, local int* part) {
  size_t l = get_local_id(0), n = get_local_size(0);
  part[l] = in[get_global_id(0)];
  for (size_t step = n / 2; step > 0; step /= 2) {
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < step) part[l] += part[l + step];
  }
  if (l == 0) sums[get_group_id(0)] = part[0];
}
kernel void twice(global const int* in, global int* out, uint n) {
  size_t i = get_global_id(0);
  if (i < n) out[i] = 2 * in[i];
}
)";

Kernel kernel(Env& env, const char* name) {
  return env.program("conform_execution.cl", kSource).kernel(name);
}

std::size_t group_size(Env& env) {
  return std::min<std::size_t>(
      {64, env.info().max_work_group_size, env.info().max_work_item_sizes[0]});
}

Result copy_ranges(Env& env) {
  const std::vector<std::pair<Range, Range>> shapes = {
      {Range{env.size(1000, 100)}, Range{7}},
      {Range{33, env.size(20, 5)}, Range{3, 2}},
      {Range{9, 5, env.size(7, 3)}, Range{1, 2, 3}}};
  for (const auto& [global, offset] : shapes) {
    const std::size_t n = global.total();
    std::vector<int> source(n);
    for (std::size_t i = 0; i < n; ++i) source[i] = static_cast<int>(i * 7 + 3);
    Buffer<int> src = env.context().alloc<int>(n), dst = env.context().alloc<int>(n);
    env.queue().write(src, source);
    env.queue().fill(dst, -1);
    env.queue().launch(kernel(env, "copy3"), Launch(global).offset(offset), src, dst,
                       static_cast<unsigned>(global.size[0]),
                       static_cast<unsigned>(global.size[1]));
    const std::vector<int> got = env.queue().read(dst);
    for (std::size_t i = 0; i < n; ++i) {
      if (got[i] != source[i])
        return fail_expected(std::to_string(global.dims) + "D copy, element " + std::to_string(i),
                             source[i], got[i]);
    }
  }
  return pass();
}

Result work_item_functions(Env& env) {
  const Range global{12, 6}, local{4, 3}, offset{5, 2};
  Buffer<std::uint32_t> out = env.context().alloc<std::uint32_t>(8 * global.total());
  env.queue().launch(kernel(env, "where"), Launch(global).local(local).offset(offset), out);
  const std::vector<std::uint32_t> ids = env.queue().read(out);
  for (std::size_t y = 0; y < global.size[1]; ++y) {
    for (std::size_t x = 0; x < global.size[0]; ++x) {
      const std::uint32_t* o = &ids[8 * (y * global.size[0] + x)];
      const std::size_t pos[2] = {x, y};
      for (int d = 0; d < 2; ++d) {
        const std::string at =
            "item (" + std::to_string(x) + "," + std::to_string(y) + ") dim " + std::to_string(d);
        if (o[4 * d] != pos[d] + offset.size[d])
          return fail_expected(at + " get_global_id", pos[d] + offset.size[d], o[4 * d]);
        if (o[4 * d + 1] != pos[d] % local.size[d])
          return fail_expected(at + " get_local_id", pos[d] % local.size[d], o[4 * d + 1]);
        if (o[4 * d + 2] != pos[d] / local.size[d])
          return fail_expected(at + " get_group_id", pos[d] / local.size[d], o[4 * d + 2]);
        if (o[4 * d + 3] != 1)
          return fail(at + ": get_num_groups * get_local_size != get_global_size");
      }
    }
  }
  return pass();
}

struct Pair {
  std::int32_t a;
  float b;
};

Result argument_kinds(Env& env) {
  Buffer<float> out = env.context().alloc<float>(9);
  const std::array<float, 4> vector{0.5f, -1.0f, 2.25f, 8.0f};
  env.queue().launch(kernel(env, "args"), Range{1}, Range{1}, -42, vector, Pair{17, 3.5f}, out,
                     Local<float>(1), nullptr);
  const std::vector<float> got = env.queue().read(out);
  const float expected[9] = {-42, 0.5f, -1.0f, 2.25f, 8.0f, 17, 3.5f, 1, 1.5f};
  const char* names[9] = {"int",      "float4.x", "float4.y",         "float4.z",    "float4.w",
                          "struct.a", "struct.b", "null buffer == 0", "local memory"};
  for (int i = 0; i < 9; ++i) {
    if (got[i] != expected[i]) return fail_expected(names[i], expected[i], got[i]);
  }
  return pass();
}

Result local_reduction(Env& env) {
  std::size_t wg = group_size(env);
  while (wg & (wg - 1)) wg &= wg - 1;  // a power of two for the tree
  const std::size_t groups = env.size(32, 4), n = groups * wg;
  std::vector<int> in(n);
  for (std::size_t i = 0; i < n; ++i) in[i] = static_cast<int>((i * 37) % 101) - 50;
  Buffer<int> input = env.context().alloc<int>(n), sums = env.context().alloc<int>(groups);
  env.queue().write(input, in);
  env.queue().launch(kernel(env, "reduce"), Range{n}, Range{wg}, input, sums, Local<int>(wg));
  const std::vector<int> got = env.queue().read(sums);
  for (std::size_t g = 0; g < groups; ++g) {
    int expected = 0;
    for (std::size_t i = 0; i < wg; ++i) expected += in[g * wg + i];
    if (got[g] != expected)
      return fail_expected("group " + std::to_string(g) + " sum", expected, got[g]);
  }
  return pass();
}

Result rounded_up_size(Env& env) {
  const std::size_t wg = group_size(env), n = env.size(1000, 100) + 3;
  const std::size_t padded = (n + wg - 1) / wg * wg;
  std::vector<int> in(padded);
  for (std::size_t i = 0; i < padded; ++i) in[i] = static_cast<int>(i);
  Buffer<int> input = env.context().alloc<int>(padded), out = env.context().alloc<int>(padded);
  env.queue().write(input, in);
  env.queue().fill(out, -7);
  env.queue().launch(kernel(env, "twice"), Range{padded}, Range{wg}, input, out,
                     static_cast<unsigned>(n));
  const std::vector<int> got = env.queue().read(out);
  for (std::size_t i = 0; i < padded; ++i) {
    const int expected = i < n ? 2 * in[i] : -7;
    if (got[i] != expected)
      return fail_expected("element " + std::to_string(i) + " of " + std::to_string(n), expected,
                           got[i]);
  }
  return pass();
}

}  // namespace

void register_execution(Registry& registry) {
  registry.add("execution", "copy_1d_2d_3d_offsets", "", copy_ranges);
  registry.add("execution", "work_item_functions", "", work_item_functions);
  registry.add("execution", "argument_kinds", "", argument_kinds);
  registry.add("execution", "local_reduction", "", local_reduction);
  registry.add("execution", "rounded_up_global_size", "", rounded_up_size);
}

}  // namespace xgpu::conform
