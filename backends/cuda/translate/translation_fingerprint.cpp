// What decides the PTX a source becomes, besides the source, its options, the GPU and the
// driver (which the kernel cache keys on already): the prelude and the NVRTC that compiled it.
#include <cstdint>
#include <cstdio>

#include "nvrtc_library.hpp"
#include "prelude_text.hpp"

namespace xgpu_cuda {

std::string translation_fingerprint(const NvrtcLibrary& nvrtc) {
  // FNV-1a: stable across runs and builds, unlike std::hash's promise.
  std::uint64_t hash = 0xcbf29ce484222325ull;
  for (const char* c = prelude_text(); *c != '\0'; ++c)
    hash = (hash ^ static_cast<unsigned char>(*c)) * 0x100000001b3ull;
  char text[17];
  std::snprintf(text, sizeof(text), "%016llx", static_cast<unsigned long long>(hash));
  const std::string version = nvrtc.version_text();
  return std::string("prelude ") + text + ", " +
         (nvrtc.loaded ? "NVRTC " + (version.empty() ? std::string("of unknown version") : version)
                       : std::string("no NVRTC"));
}

}  // namespace xgpu_cuda
