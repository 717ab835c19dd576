// The workgroups suite: non-uniform work-groups (a global size that is not a multiple of the
// work-group size, OpenCL C 2.0 and later; optional in 3.0) with get_local_size,
// get_enqueued_local_size, get_group_id and get_num_groups in the last group, and sub-groups
// where the device has them (cl_khr_subgroups, or OpenCL 3.0 with sub-groups): sizes, ids and
// sub_group_reduce_add/broadcast/any/all against a host reduction. (CTS: non_uniform_work_group,
// subgroups.)
#include <map>
#include <string>
#include <vector>
#include <xgpu/opencl.hpp>

#include "check.hpp"
#include "language_version.hpp"
#include "profile_backing.hpp"
#include "workgroups.hpp"

namespace xgpu::conform {
namespace {

const char* const kNonUniform = R"(
kernel void ids(global uint* out) {
  global uint* o = out + 12 * (get_global_id(1) * get_global_size(0) + get_global_id(0));
  for (uint d = 0; d < 2; ++d) {
    o[6 * d + 0] = get_global_id(d);
    o[6 * d + 1] = get_local_id(d);
    o[6 * d + 2] = get_group_id(d);
    o[6 * d + 3] = get_local_size(d);
    o[6 * d + 4] = get_enqueued_local_size(d);
    o[6 * d + 5] = get_num_groups(d);
  }
}
)";

const char* const kSubGroups = R"(
kernel void sub_groups(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int x = in[i];
  global int* o = out + 8 * i;
  o[0] = get_sub_group_size();
  o[1] = get_max_sub_group_size();
  o[2] = get_num_sub_groups();
  o[3] = get_sub_group_id();
  o[4] = get_sub_group_local_id();
  o[5] = sub_group_reduce_add(x);
  o[6] = sub_group_broadcast(x, 0);
  o[7] = sub_group_any(x > 100) | (sub_group_all(x >= 0) << 1);
}
)";

bool on_opencl(const Env& env) { return interop::backend(env.device()) == "opencl"; }

// Why the device has no non-uniform work-groups, or empty.
std::string no_non_uniform(Env& env) {
  const Version language = opencl_c_version(env.info());
  if (language < Version{2, 0})
    return "non-uniform work-groups are OpenCL C 2.0; the device compiles OpenCL C " +
           language.text();
  // Another backend (a profile's): what the device reports, and what its backing can run.
  if (!on_opencl(env) && !env.info().non_uniform_work_groups)
    return "the device reports no non-uniform work-groups";
  const std::string backing = backing_lacks(env.info(), "non_uniform_work_groups");
  if (!backing.empty()) return backing;
  if (opencl_version(env.info()) >= Version{3, 0} && on_opencl(env)) {
    cl_bool supported = CL_FALSE;
    clGetDeviceInfo(opencl::device(env.device()), CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT,
                    sizeof supported, &supported, nullptr);
    if (!supported) return "the OpenCL 3.0 device has no non-uniform work-groups";
  }
  return {};
}

Result non_uniform(Env& env) {
  const std::string missing = no_non_uniform(env);
  // xgpu lets such a launch through only where DeviceInfo says the device has them: it must
  // agree with what the driver says here.
  if (on_opencl(env) && missing.empty() != env.info().non_uniform_work_groups)
    return fail_expected("DeviceInfo::non_uniform_work_groups against the driver's answer",
                         missing.empty(), env.info().non_uniform_work_groups);
  if (!missing.empty()) return skip(missing);
  const Range global{37, env.size(10, 6)}, local{8, 4};
  Buffer<std::uint32_t> out = env.context().alloc<std::uint32_t>(12 * global.total());
  const Program program = env.program("conform_non_uniform.cl", kNonUniform,
                                      cl_std_option(opencl_c_version(env.info())));
  env.queue().launch(program.kernel("ids"), Launch(global).local(local), out);
  return compare_non_uniform(global, local, env.queue().read(out));
}

// Why the device has no sub-groups, or empty; `option` gets the -cl-std and `pragma` the
// extension line the kernel needs.
std::string no_sub_groups(Env& env, std::string& option, std::string& pragma) {
  const Version language = opencl_c_version(env.info());
  option = cl_std_option(language);
  if (language < Version{2, 0}) return "sub-groups need OpenCL C 2.0 or later";
  const std::string backing = backing_lacks(env.info(), "cl_khr_subgroups");
  if (!backing.empty()) return backing;
  if (env.info().has_extension("cl_khr_subgroups")) {
    pragma = "#pragma OPENCL EXTENSION cl_khr_subgroups : enable\n";
    return {};
  }
  if (opencl_version(env.info()) >= Version{3, 0} && on_opencl(env)) {
    cl_uint most = 0;
    clGetDeviceInfo(opencl::device(env.device()), CL_DEVICE_MAX_NUM_SUB_GROUPS, sizeof most, &most,
                    nullptr);
    if (most > 0) return {};
  }
  return "the device reports no sub-groups (no cl_khr_subgroups, no OpenCL 3.0 sub-groups)";
}

Result sub_groups(Env& env) {
  std::string option, pragma;
  const std::string missing = no_sub_groups(env, option, pragma);
  if (!missing.empty()) return skip(missing);
  const std::size_t local = std::min<std::size_t>(
      {64, env.info().max_work_group_size, env.info().max_work_item_sizes[0]});
  const std::size_t n = local * env.size(8, 2);
  std::vector<std::int32_t> x(n);
  for (std::size_t i = 0; i < n; ++i)
    x[i] = static_cast<std::int32_t>((i * 7919) % 211) - (i % 37 == 5 ? 300 : 0);
  Buffer<std::int32_t> in = env.context().alloc<std::int32_t>(n),
                       out = env.context().alloc<std::int32_t>(8 * n);
  env.queue().write(in, x);
  const Program program = env.program("conform_sub_groups.cl", pragma + kSubGroups, option);
  env.queue().launch(program.kernel("sub_groups"), Range{n}, Range{local}, in, out);
  return compare_sub_groups(local, x, env.queue().read(out));
}

}  // namespace

Result compare_non_uniform(const Range& global, const Range& local,
                           const std::vector<std::uint32_t>& observed) {
  const char* names[kWorkItemValues] = {
      "get_global_id",           "get_local_id",  "get_group_id", "get_local_size",
      "get_enqueued_local_size", "get_num_groups"};
  if (observed.size() != 2 * kWorkItemValues * global.total())
    return fail_expected("values recorded", 2 * kWorkItemValues * global.total(), observed.size());
  for (std::size_t y = 0; y < global.size[1]; ++y) {
    for (std::size_t x = 0; x < global.size[0]; ++x) {
      const std::size_t position[2] = {x, y};
      for (int d = 0; d < 2; ++d) {
        const std::size_t g = global.size[d], l = local.size[d], p = position[d];
        const std::size_t groups = (g + l - 1) / l, group = p / l;
        const std::size_t expected[kWorkItemValues] = {
            p, p % l, group, group == groups - 1 && g % l ? g % l : l, l, groups};
        const std::uint32_t* o =
            &observed[(y * global.size[0] + x) * 2 * kWorkItemValues + d * kWorkItemValues];
        for (int v = 0; v < kWorkItemValues; ++v) {
          if (o[v] != expected[v])
            return fail_expected(std::string(names[v]) + "(" + std::to_string(d) + ") of item (" +
                                     std::to_string(x) + ", " + std::to_string(y) + ") in a " +
                                     std::to_string(global.size[0]) + "x" +
                                     std::to_string(global.size[1]) + " launch of " +
                                     std::to_string(local.size[0]) + "x" +
                                     std::to_string(local.size[1]) + " work-groups",
                                 expected[v], o[v]);
        }
      }
    }
  }
  return pass();
}

Result compare_sub_groups(std::size_t local, const std::vector<std::int32_t>& x,
                          const std::vector<std::int32_t>& observed) {
  if (local == 0 || x.size() % local || observed.size() != kSubGroupValues * x.size())
    return fail("sub-groups: " + std::to_string(observed.size()) + " values recorded for " +
                std::to_string(x.size()) + " work-items in groups of " + std::to_string(local));
  for (std::size_t start = 0; start < x.size(); start += local) {
    const std::string group = "work-group " + std::to_string(start / local);
    const std::int32_t count = observed[start * kSubGroupValues + kNumSubGroups];
    struct Members {
      std::vector<std::size_t> items;
      std::map<std::int32_t, std::size_t> by_local_id;
    };
    std::map<std::int32_t, Members> sub_groups;
    for (std::size_t i = start; i < start + local; ++i) {
      const std::int32_t* o = &observed[i * kSubGroupValues];
      const std::string item = group + " item " + std::to_string(i - start);
      if (o[kNumSubGroups] != count)
        return fail_expected("get_num_sub_groups in " + item + " (as item 0)", count,
                             o[kNumSubGroups]);
      if (o[kSubGroupId] < 0 || o[kSubGroupId] >= count)
        return fail("get_sub_group_id in " + item + ": " + std::to_string(o[kSubGroupId]) +
                    " is not below get_num_sub_groups " + std::to_string(count));
      if (o[kSubGroupSize] < 1 || o[kSubGroupSize] > o[kMaxSubGroupSize])
        return fail("get_sub_group_size in " + item + ": " + std::to_string(o[kSubGroupSize]) +
                    " is not in 1..get_max_sub_group_size " + std::to_string(o[kMaxSubGroupSize]));
      Members& members = sub_groups[o[kSubGroupId]];
      if (!members.by_local_id.emplace(o[kSubGroupLocalId], i).second)
        return fail("get_sub_group_local_id in " + item + ": " +
                    std::to_string(o[kSubGroupLocalId]) + " twice in sub-group " +
                    std::to_string(o[kSubGroupId]));
      members.items.push_back(i);
    }
    if (static_cast<std::int32_t>(sub_groups.size()) != count)
      return fail_expected("sub-groups seen in " + group + " (get_num_sub_groups)", count,
                           sub_groups.size());
    for (const auto& [id, members] : sub_groups) {
      const std::string where = " in " + group + " sub-group " + std::to_string(id);
      const std::size_t size = members.items.size();
      std::uint32_t sum = 0;
      bool any = false, all = true;
      for (std::size_t i : members.items) {
        sum += static_cast<std::uint32_t>(x[i]);
        any = any || x[i] > 100;
        all = all && x[i] >= 0;
      }
      if (members.by_local_id.begin()->first != 0 ||
          members.by_local_id.rbegin()->first != static_cast<std::int32_t>(size) - 1)
        return fail("get_sub_group_local_id" + where + ": not 0.." + std::to_string(size - 1));
      const std::int32_t first = x[members.by_local_id.begin()->second];
      for (std::size_t i : members.items) {
        const std::int32_t* o = &observed[i * kSubGroupValues];
        const std::string item = where + " item " + std::to_string(i - start);
        if (o[kSubGroupSize] != static_cast<std::int32_t>(size))
          return fail_expected("get_sub_group_size" + item + " (members seen)", size,
                               o[kSubGroupSize]);
        if (o[kReduceAdd] != static_cast<std::int32_t>(sum))
          return fail_expected("sub_group_reduce_add" + item, static_cast<std::int32_t>(sum),
                               o[kReduceAdd]);
        if (o[kBroadcastZero] != first)
          return fail_expected("sub_group_broadcast(x, 0)" + item, first, o[kBroadcastZero]);
        if ((o[kAnyAll] & 1) != any)
          return fail_expected("sub_group_any(x > 100)" + item, any, o[kAnyAll] & 1);
        if ((o[kAnyAll] >> 1) != all)
          return fail_expected("sub_group_all(x >= 0)" + item, all, o[kAnyAll] >> 1);
      }
    }
  }
  return pass();
}

void register_workgroups(Registry& registry) {
  registry.add("workgroups", "non_uniform_last_group", "", non_uniform);
  registry.add("workgroups", "sub_groups", "", sub_groups);
}

}  // namespace xgpu::conform
