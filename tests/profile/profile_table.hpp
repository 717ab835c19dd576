// The profile module's own table, opened by the test itself (the same library the core
// loaded, so the same profile devices): what a real driver's caller would see, status and
// text, before any check of the core could step in.
#pragma once

#include <dlfcn.h>

#include <string>
#include <vector>

#include "test_support.hpp"
#include "xgpu/backend.h"

namespace xgpu_test {

class ProfileTable {
 public:
  ProfileTable() {
    REQUIRE(xgpu::select("profile:0"));  // the core has loaded and initialised the module
    const std::string path = std::string(XGPU_TEST_MODULE_DIR) + "/libxgpu-backend-profile.so";
    void* library = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    REQUIRE(library != nullptr);
    auto entry = reinterpret_cast<xgpu_backend_entry_fn>(dlsym(library, XGPU_BACKEND_ENTRY_SYMBOL));
    REQUIRE(entry != nullptr);
    t = entry(XGPU_BACKEND_ABI_VERSION);
    REQUIRE(t != nullptr);
    REQUIRE(t->init(nullptr) == XGPU_STATUS_SUCCESS);  // once per process: the core's answer
    REQUIRE(t->device_get(0, &device) == XGPU_STATUS_SUCCESS);
    REQUIRE(t->context_create(device, &context) == XGPU_STATUS_SUCCESS);
    REQUIRE(t->queue_create(context, device, 0, &queue) == XGPU_STATUS_SUCCESS);
  }
  ProfileTable(const ProfileTable&) = delete;
  ProfileTable& operator=(const ProfileTable&) = delete;
  ~ProfileTable() {
    for (xgpu_kernel kernel : kernels_) t->release(XGPU_OBJECT_KERNEL, kernel);
    for (xgpu_program program : programs_) t->release(XGPU_OBJECT_PROGRAM, program);
    t->release(XGPU_OBJECT_QUEUE, queue);
    t->release(XGPU_OBJECT_CONTEXT, context);
  }

  xgpu_kernel kernel(const std::string& source, const char* name) {
    xgpu_program program = nullptr;
    REQUIRE(t->program_create(context, source.c_str(), source.size(), &program) == 0);
    programs_.push_back(program);
    INFO(log(program));
    REQUIRE(t->program_build(program, device, "") == XGPU_STATUS_SUCCESS);
    xgpu_kernel made = nullptr;
    REQUIRE(t->kernel_create(program, name, &made) == XGPU_STATUS_SUCCESS);
    kernels_.push_back(made);
    return made;
  }

  std::string log(xgpu_program program) {
    std::vector<char> text(1 << 16);
    std::size_t size = 0;
    t->program_build_log(program, device, text.data(), text.size(), &size);
    return text.data();
  }

  std::string last_error() const {
    std::vector<char> text(4096);
    std::size_t size = 0;
    t->last_error(text.data(), text.size(), &size);
    return text.data();
  }

  xgpu_status launch(xgpu_kernel kernel, std::vector<xgpu_kernel_arg_v1> args,
                     std::vector<std::size_t> global, std::vector<std::size_t> local) {
    xgpu_event event = nullptr;
    std::uint32_t failed = 0;
    const xgpu_status status = t->kernel_launch_with_args(
        queue, kernel, static_cast<std::uint32_t>(args.size()), args.data(),
        static_cast<std::uint32_t>(global.size()), nullptr, global.data(),
        local.empty() ? nullptr : local.data(), 0, nullptr, &event, &failed);
    if (event) {
      t->event_wait(&event, 1);
      t->release(XGPU_OBJECT_EVENT, event);
    }
    return status;
  }

  const xgpu_backend_v1* t = nullptr;
  xgpu_device device = nullptr;
  xgpu_context context = nullptr;
  xgpu_queue queue = nullptr;

 private:
  std::vector<xgpu_program> programs_;
  std::vector<xgpu_kernel> kernels_;
};

inline xgpu_kernel_arg_v1 buffer_arg(xgpu_buffer buffer) {
  return {XGPU_KERNEL_ARG_BUFFER, sizeof(void*), nullptr, buffer};
}
inline xgpu_kernel_arg_v1 local_arg(std::size_t bytes) {
  return {XGPU_KERNEL_ARG_LOCAL, bytes, nullptr, nullptr};
}
template <class T>
xgpu_kernel_arg_v1 value_arg(const T& value) {
  return {XGPU_KERNEL_ARG_VALUE, sizeof(T), &value, nullptr};
}

}  // namespace xgpu_test
