#include "unsupported_features.hpp"

#include <utility>

namespace xgpu_cuda {
namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }
bool ends_with(const std::string& s, const char* suffix) {
  const std::string tail(suffix);
  return s.size() >= tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0;
}

}  // namespace

std::string unsupported_feature(const std::string& id) {
  // Images and samplers: CUDA has textures and surfaces, but not OpenCL's image objects.
  if ((starts_with(id, "image") && ends_with(id, "_t")) || id == "sampler_t" ||
      starts_with(id, "read_image") || starts_with(id, "write_image") ||
      starts_with(id, "get_image_") || starts_with(id, "CLK_ADDRESS_") ||
      starts_with(id, "CLK_FILTER_") || starts_with(id, "CLK_NORMALIZED_COORDS_"))
    return "images (" + id + ")";
  if (id == "pipe" || ends_with(id, "_pipe") || starts_with(id, "reserve_read_pipe") ||
      starts_with(id, "reserve_write_pipe"))
    return "pipes (" + id + ")";
  // Sub-groups would be warps, but their size and the cl_khr_subgroups rules differ; not yet.
  if (starts_with(id, "sub_group_") || starts_with(id, "get_sub_group_") ||
      starts_with(id, "get_max_sub_group_") || starts_with(id, "get_num_sub_groups") ||
      starts_with(id, "get_enqueued_num_sub_groups"))
    return "sub-groups (" + id + ")";
  if (starts_with(id, "work_group_reduce") || starts_with(id, "work_group_scan") ||
      id == "work_group_broadcast" || id == "work_group_any" || id == "work_group_all")
    return "work-group collective functions (" + id + ")";
  // OpenCL 2.0 atomics (memory orders and scopes) and device-side enqueue.
  if (starts_with(id, "atomic_fetch_") || id == "atomic_load" || id == "atomic_store" ||
      id == "atomic_init" || starts_with(id, "atomic_compare_exchange") ||
      starts_with(id, "atomic_flag_") || starts_with(id, "atomic_load_explicit") ||
      id == "atomic_int" || id == "atomic_uint" || id == "atomic_float" || id == "memory_order" ||
      id == "memory_scope")
    return "OpenCL 2.0 atomics (" + id + ")";
  if (id == "enqueue_kernel" || id == "queue_t" || id == "clk_event_t" || id == "ndrange_t" ||
      id == "get_default_queue")
    return "device-side enqueue (" + id + ")";
  if (id == "async_work_group_copy" || id == "async_work_group_strided_copy" ||
      id == "wait_group_events" || id == "prefetch")
    return "asynchronous copies (" + id + ")";
  if (id == "to_global" || id == "to_local" || id == "to_private" || id == "get_fence")
    return "generic address space casts (" + id + ")";
  return {};
}

}  // namespace xgpu_cuda
