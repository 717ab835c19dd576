/* A fake libcuda.so.1 whose "GPU" is host memory (FAKE_CUDA_DEVICES=N, 1 to 4, gives N
 * of them, each with its own primary context; device 0's UUID and PCI address do not change): every entry point the cuda module
 * resolves, with copies done at once (a stream is always idle), events as host timestamps,
 * and no way to run a kernel (cuModuleLoadDataEx says CUDA_ERROR_NO_BINARY_FOR_GPU). It lets
 * the module's device properties, buffers, sub-buffers, copies, fills, maps, events, barriers
 * and profiling run on a machine without NVIDIA's driver; it proves nothing about the real
 * driver's semantics beyond the documented ones it imitates. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int CUresult;
typedef unsigned long long CUdeviceptr;
enum { OK = 0, INVALID_VALUE = 1, OUT_OF_MEMORY = 2, NOT_FOUND = 500, NO_BINARY_FOR_GPU = 209 };

enum { MAX_DEVICES = 4 };
static int g_contexts[MAX_DEVICES]; /* the primary contexts: any non-NULL pointers */
static int g_context_refs[MAX_DEVICES];

static int device_count(void) {
  const char* text = getenv("FAKE_CUDA_DEVICES");
  int count = text != NULL && *text != '\0' ? atoi(text) : 1;
  return count < 1 ? 1 : count > MAX_DEVICES ? MAX_DEVICES : count;
}
static int is_context(const void* context) {
  for (int i = 0; i < MAX_DEVICES; ++i)
    if (context == &g_contexts[i]) return 1;
  return 0;
}

static double now_ms(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

CUresult cuInit(unsigned int flags) { return flags == 0 ? OK : INVALID_VALUE; }
CUresult cuGetErrorName(CUresult error, const char** name) {
  *name = error == OK              ? "CUDA_SUCCESS"
          : error == INVALID_VALUE ? "CUDA_ERROR_INVALID_VALUE"
          : error == OUT_OF_MEMORY ? "CUDA_ERROR_OUT_OF_MEMORY"
                                   : "CUDA_ERROR_FAKE";
  return OK;
}
CUresult cuGetErrorString(CUresult error, const char** text) {
  *text = error == OK ? "no error" : "fake driver error";
  return OK;
}
CUresult cuDriverGetVersion(int* version) { *version = 12040; return OK; }
CUresult cuDeviceGetCount(int* count) { *count = device_count(); return OK; }
CUresult cuDeviceGet(int* device, int ordinal) {
  if (ordinal < 0 || ordinal >= device_count()) return INVALID_VALUE;
  *device = ordinal;
  return OK;
}
CUresult cuDeviceGetName(char* name, int length, int device) {
  (void)device;
  strncpy(name, "Fake CUDA device (host memory)", (size_t)length);
  return OK;
}
CUresult cuDeviceGetUuid(unsigned char* uuid, int device) {
  for (int i = 0; i < 16; ++i) uuid[i] = (unsigned char)(0xA0 + i);
  uuid[15] ^= (unsigned char)device;
  return OK;
}
CUresult cuDeviceGetAttribute(int* value, int attribute, int device) {
  switch (attribute) {
    case 1: *value = 1024; break;                 /* max threads per block */
    case 2: case 3: *value = 1024; break;         /* block dims x, y */
    case 4: *value = 64; break;                   /* block dim z */
    case 8: *value = 48 * 1024; break;            /* shared memory per block */
    case 10: *value = 32; break;                  /* warp size */
    case 12: *value = 65536; break;               /* registers per block */
    case 13: *value = 1980000; break;             /* clock, kHz */
    case 16: *value = 132; break;                 /* SMs */
    case 18: *value = 0; break;                   /* integrated */
    case 32: *value = 1; break;                   /* ECC */
    case 33: *value = 0x65 + device; break;       /* PCI bus */
    case 34: *value = 0; break;                   /* PCI device */
    case 36: *value = 3201000; break;             /* memory clock */
    case 37: *value = 6144; break;                /* bus width */
    case 38: *value = 60 * 1024 * 1024; break;    /* L2 */
    case 50: *value = 0; break;                   /* PCI domain */
    case 75: *value = 9; break;                   /* cc major */
    case 76: *value = 0; break;                   /* cc minor */
    case 81: *value = 228 * 1024; break;          /* shared memory per SM */
    case 82: *value = 65536; break;               /* registers per SM */
    default: return INVALID_VALUE;
  }
  return OK;
}
CUresult cuDeviceTotalMem_v2(size_t* bytes, int device) {
  (void)device;
  *bytes = (size_t)1 << 30;
  return OK;
}
CUresult cuDevicePrimaryCtxRetain(void** context, int device) {
  ++g_context_refs[device];
  *context = &g_contexts[device];
  return OK;
}
CUresult cuDevicePrimaryCtxRelease_v2(int device) {
  return g_context_refs[device]-- > 0 ? OK : INVALID_VALUE;
}
static __thread void* t_current; /* one level: the module pushes and pops in pairs */
CUresult cuCtxPushCurrent_v2(void* context) {
  if (!is_context(context)) return INVALID_VALUE;
  t_current = context;
  return OK;
}
CUresult cuCtxPopCurrent_v2(void** context) {
  if (context) *context = t_current;
  return OK;
}
CUresult cuMemGetInfo_v2(size_t* free_bytes, size_t* total) {
  *free_bytes = (size_t)1 << 29;
  *total = (size_t)1 << 30;
  return OK;
}
/* The fake's own control, for a test to call (found with dlsym on this library): after
 * fake_cuda_set_max_alloc(N), cuMemAlloc of more than N bytes fails with
 * CUDA_ERROR_OUT_OF_MEMORY, as a full GPU's does; 0 lifts the limit. Not an environment
 * variable: setenv() while other threads read the environment can crash them. */
static _Atomic size_t max_alloc = 0;
void fake_cuda_set_max_alloc(size_t bytes) { max_alloc = bytes; }
CUresult cuMemAlloc_v2(CUdeviceptr* pointer, size_t bytes) {
  const size_t limit = max_alloc;
  if (limit != 0 && bytes > limit) return OUT_OF_MEMORY;
  /* 256-byte aligned, as cuMemAlloc promises. */
  void* memory = NULL;
  if (posix_memalign(&memory, 256, bytes) != 0) return OUT_OF_MEMORY;
  *pointer = (CUdeviceptr)(uintptr_t)memory;
  return OK;
}
CUresult cuMemFree_v2(CUdeviceptr pointer) { free((void*)(uintptr_t)pointer); return OK; }
CUresult cuMemHostAlloc(void** pointer, size_t bytes, unsigned int flags) {
  (void)flags;
  *pointer = malloc(bytes);
  return *pointer ? OK : 2;
}
CUresult cuMemFreeHost(void* pointer) { free(pointer); return OK; }
CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr to, const void* from, size_t bytes, void* stream) {
  (void)stream;
  memcpy((void*)(uintptr_t)to, from, bytes);
  return OK;
}
CUresult cuMemcpyDtoHAsync_v2(void* to, CUdeviceptr from, size_t bytes, void* stream) {
  (void)stream;
  memcpy(to, (const void*)(uintptr_t)from, bytes);
  return OK;
}
CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr to, CUdeviceptr from, size_t bytes, void* stream) {
  (void)stream;
  memmove((void*)(uintptr_t)to, (const void*)(uintptr_t)from, bytes);
  return OK;
}
/* Both contexts must be primary contexts; the memory is all host memory anyway. The tests
 * count the calls (fake_cuda_peer_copies) to know a copy went this way. */
static int g_peer_copies;
int fake_cuda_peer_copies(void) { return g_peer_copies; }
CUresult cuMemcpyPeerAsync(CUdeviceptr to, void* to_context, CUdeviceptr from, void* from_context,
                           size_t bytes, void* stream) {
  (void)stream;
  if (!is_context(to_context) || !is_context(from_context)) return INVALID_VALUE;
  ++g_peer_copies;
  memmove((void*)(uintptr_t)to, (const void*)(uintptr_t)from, bytes);
  return OK;
}
CUresult cuMemsetD8Async(CUdeviceptr to, unsigned char value, size_t count, void* stream) {
  (void)stream;
  memset((void*)(uintptr_t)to, value, count);
  return OK;
}
CUresult cuMemsetD16Async(CUdeviceptr to, unsigned short value, size_t count, void* stream) {
  (void)stream;
  if (to % 2) return INVALID_VALUE;
  for (size_t i = 0; i < count; ++i) ((unsigned short*)(uintptr_t)to)[i] = value;
  return OK;
}
CUresult cuMemsetD32Async(CUdeviceptr to, unsigned int value, size_t count, void* stream) {
  (void)stream;
  if (to % 4) return INVALID_VALUE;
  for (size_t i = 0; i < count; ++i) ((unsigned int*)(uintptr_t)to)[i] = value;
  return OK;
}
CUresult cuStreamCreate(void** stream, unsigned int flags) {
  (void)flags;
  *stream = malloc(1);
  return OK;
}
CUresult cuStreamDestroy_v2(void* stream) { free(stream); return OK; }
CUresult cuStreamSynchronize(void* stream) { return stream ? OK : INVALID_VALUE; }
CUresult cuStreamWaitEvent(void* stream, void* event, unsigned int flags) {
  (void)stream;
  return event && flags == 0 ? OK : INVALID_VALUE;
}
/* An event is the host time it was recorded at; -1 until recorded. */
CUresult cuEventCreate(void** event, unsigned int flags) {
  (void)flags;
  double* time = malloc(sizeof(double));
  *time = -1;
  *event = time;
  return OK;
}
CUresult cuEventDestroy_v2(void* event) { free(event); return OK; }
CUresult cuEventRecord(void* event, void* stream) {
  (void)stream;
  *(double*)event = now_ms();
  return OK;
}
CUresult cuEventQuery(void* event) { return *(double*)event >= 0 ? OK : 600; }
CUresult cuEventSynchronize(void* event) { return *(double*)event >= 0 ? OK : INVALID_VALUE; }
CUresult cuEventElapsedTime(float* milliseconds, void* start, void* end) {
  double a = *(double*)start, b = *(double*)end;
  if (a < 0 || b < 0) return INVALID_VALUE;
  *milliseconds = (float)(b - a);
  return OK;
}
CUresult cuModuleLoadDataEx(void** module, const void* image, unsigned int count, int* options,
                            void** values) {
  (void)module;
  (void)image;
  for (unsigned int i = 0; i < count; ++i) {
    if (options[i] == 5) strcpy((char*)values[i], "fake driver: no kernel can run here");
  }
  return NO_BINARY_FOR_GPU;
}
CUresult cuModuleUnload(void* module) { (void)module; return OK; }
CUresult cuModuleGetFunction(void** function, void* module, const char* name) {
  (void)function; (void)module; (void)name;
  return NOT_FOUND;
}
CUresult cuFuncGetAttribute(int* value, int attribute, void* function) {
  (void)value; (void)attribute; (void)function;
  return INVALID_VALUE;
}
CUresult cuFuncSetAttribute(void* function, int attribute, int value) {
  (void)function; (void)attribute; (void)value;
  return INVALID_VALUE;
}
CUresult cuLaunchKernel(void* f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned by,
                        unsigned bz, unsigned shared, void* stream, void** params, void** extra) {
  (void)f; (void)gx; (void)gy; (void)gz; (void)bx; (void)by; (void)bz; (void)shared;
  (void)stream; (void)params; (void)extra;
  return INVALID_VALUE;
}
