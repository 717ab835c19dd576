/* A stand-in for NVIDIA's libcuda.so.1 with one entry point, so the cuda module's driver
 * loading runs on a machine without NVIDIA's driver: cuInit returns CUDA_ERROR_NO_DEVICE
 * (100), or the value of FAKE_CUINIT_RESULT when set (0 makes the module go on and find the
 * other entry points missing). */
#include <stdlib.h>

int cuInit(unsigned int flags) {
  (void)flags;
  const char* result = getenv("FAKE_CUINIT_RESULT");
  return result != NULL ? atoi(result) : 100;
}
