// Size-then-fetch queries, written once for every caller.
#include "cl_query.hpp"

#include <sstream>

#include "errors.hpp"

namespace xgpu::backend_opencl {

void check_device_info(cl_int status) { check(status, "clGetDeviceInfo"); }

std::vector<unsigned char> device_bytes(cl_device_id device, cl_device_info param) {
  size_t size = 0;
  check_device_info(clGetDeviceInfo(device, param, 0, nullptr, &size));
  std::vector<unsigned char> bytes(size);
  if (size != 0) check_device_info(clGetDeviceInfo(device, param, size, bytes.data(), nullptr));
  return bytes;
}

std::string device_string(cl_device_id device, cl_device_info param) {
  std::vector<unsigned char> bytes = device_bytes(device, param);
  // Up to the first NUL: some drivers count it, some pad after it.
  std::string text(bytes.begin(), bytes.end());
  return text.substr(0, text.find('\0'));
}

std::string platform_string(cl_platform_id platform, cl_platform_info param) {
  size_t size = 0;
  check(clGetPlatformInfo(platform, param, 0, nullptr, &size), "clGetPlatformInfo");
  std::string text(size, '\0');
  if (size != 0) {
    check(clGetPlatformInfo(platform, param, size, text.data(), nullptr), "clGetPlatformInfo");
  }
  return text.substr(0, text.find('\0'));
}

bool has_extension(const std::string& extensions, const char* name) {
  std::istringstream words(extensions);
  std::string word;
  while (words >> word) {
    if (word == name) return true;
  }
  return false;
}

}  // namespace xgpu::backend_opencl
