/* The backend module ABI: the one C boundary between the xgpu core and a module.
 *
 * A module is a shared library named libxgpu-backend-<name>.so that exports one symbol,
 * XGPU_BACKEND_ENTRY_SYMBOL, returning a table of function pointers. Rules:
 *   - The table starts with its own size and ABI version; the core checks both before
 *     anything else and refuses the module with a reason when they do not fit.
 *   - Members are only ever appended. Members marked "optional" may be NULL.
 *   - Enums crossing the boundary are plain int32_t/uint32_t; no C++ type and no exception
 *     crosses it. Strings come back through caller buffers (capacity, size_ret), the
 *     OpenCL idiom: size_ret receives the size needed, including the terminating NUL.
 *   - Every function returns an xgpu_status: 0 on success, the backend's native status
 *     (for OpenCL, CL_* codes) or one of the XGPU_STATUS_* values below on failure.
 *     last_error() gives the text of the last failure on the calling thread.
 */
#ifndef XGPU_BACKEND_H
#define XGPU_BACKEND_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define XGPU_BACKEND_ABI_VERSION 1u
#define XGPU_BACKEND_ENTRY_SYMBOL "xgpu_backend_entry"

typedef int32_t xgpu_status;

/* Statuses the ABI reserves for itself, far from any OpenCL, CUDA or Level Zero code.
 * xgpu/backend_status.def lists the failures among them with the xgpu::Errc each becomes. */
#define XGPU_STATUS_SUCCESS 0
#define XGPU_STATUS_MODULE_EXCEPTION (-0x7F000001) /* a C++ exception was caught inside */
#define XGPU_STATUS_UNSUPPORTED (-0x7F000002)      /* the module does not offer this   */
#define XGPU_STATUS_INVALID_VALUE (-0x7F000003)    /* a bad argument reached the module */
#define XGPU_STATUS_NOT_AVAILABLE (-0x7F000004)    /* the property is not reported     */

/* Opaque handles; each module defines what they point to. */
typedef struct xgpu_device_s* xgpu_device;
typedef struct xgpu_context_s* xgpu_context;
typedef struct xgpu_queue_s* xgpu_queue;
typedef struct xgpu_buffer_s* xgpu_buffer;
typedef struct xgpu_program_s* xgpu_program;
typedef struct xgpu_kernel_s* xgpu_kernel;
typedef struct xgpu_event_s* xgpu_event;

/* The kind of a handle given to retain(), release() and native_handle(). */
enum {
  XGPU_OBJECT_DEVICE = 1,
  XGPU_OBJECT_CONTEXT = 2,
  XGPU_OBJECT_QUEUE = 3,
  XGPU_OBJECT_BUFFER = 4,
  XGPU_OBJECT_PROGRAM = 5,
  XGPU_OBJECT_KERNEL = 6,
  XGPU_OBJECT_EVENT = 7
};

/* Device properties for device_info(). The comment gives the value's C type:
 * string = NUL-terminated char[], u64 = uint64_t, bool = uint32_t 0/1. */
enum {
  XGPU_DEVICE_NAME = 1,                 /* string */
  XGPU_DEVICE_VENDOR = 2,               /* string, as the driver reports it */
  XGPU_DEVICE_VENDOR_ID = 3,            /* u64 (PCI vendor id; PoCL reports 0x8086 for any CPU) */
  XGPU_DEVICE_TYPE = 4,                 /* u64, XGPU_TYPE_* bits */
  XGPU_DEVICE_VERSION = 5,              /* string */
  XGPU_DEVICE_DRIVER_VERSION = 6,       /* string */
  XGPU_DEVICE_LANGUAGE_VERSION = 7,     /* string, e.g. "OpenCL C 1.2" */
  XGPU_DEVICE_GLOBAL_MEM = 8,           /* u64 bytes */
  XGPU_DEVICE_MAX_ALLOC = 9,            /* u64 bytes */
  XGPU_DEVICE_LOCAL_MEM = 10,           /* u64 bytes */
  XGPU_DEVICE_COMPUTE_UNITS = 11,       /* u64 */
  XGPU_DEVICE_CLOCK_MHZ = 12,           /* u64 */
  XGPU_DEVICE_MAX_WORK_GROUP = 13,      /* u64 */
  XGPU_DEVICE_MAX_WORK_ITEMS = 14,      /* u64[3] */
  XGPU_DEVICE_WORK_GROUP_MULTIPLE = 15, /* u64, preferred work-group size multiple */
  XGPU_DEVICE_FP16 = 16,                /* bool */
  XGPU_DEVICE_FP64 = 17,                /* bool */
  XGPU_DEVICE_ECC = 18,                 /* bool */
  XGPU_DEVICE_HOST_UNIFIED = 19,        /* bool */
  XGPU_DEVICE_IMAGES = 20,              /* bool */
  XGPU_DEVICE_EXTENSIONS = 21,          /* string, space-separated */
  XGPU_DEVICE_UUID = 22,                /* string, 32 hex digits; NOT_AVAILABLE when unknown */
  XGPU_DEVICE_PCI_BUS_ID = 23,          /* string "dddd:bb:dd.f"; NOT_AVAILABLE when unknown */
  XGPU_DEVICE_PLATFORM_NAME = 24,       /* string */
  XGPU_DEVICE_PLATFORM_VENDOR = 25,     /* string */
  XGPU_DEVICE_PLATFORM_VERSION = 26,    /* string */
  XGPU_DEVICE_HARDWARE_VENDOR = 27,     /* string: nvidia, amd, intel, arm, apple, ..., unknown */
  XGPU_DEVICE_IMPLEMENTATION =
      28, /* string: the driver's maker: nvidia, amd, intel, pocl, oclgrind, ... */
  XGPU_DEVICE_VENDOR_EXTRAS = 29,      /* string, "key=value" lines (compute_capability=9.0, ...) */
  XGPU_DEVICE_MAX_PARAMETER_SIZE = 30, /* u64 bytes */
  /* bool: a global size need not be a multiple of the work-group size (OpenCL 2.x, or 3.0's
     CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT). Added after 30: a module that predates it
     answers INVALID_VALUE, which the core reads as false. */
  XGPU_DEVICE_NON_UNIFORM_WORK_GROUPS = 31,
  /* u64 bytes of global memory free now, where the driver reports it (AMD's
     CL_DEVICE_GLOBAL_FREE_MEMORY_AMD); NOT_AVAILABLE elsewhere, never an estimate. Added
     after 31: a module that predates it answers INVALID_VALUE, read as "not reported". */
  XGPU_DEVICE_FREE_MEM = 32,
  /* u64 bytes: a sub-buffer's offset must be a multiple of it (CL_DEVICE_MEM_BASE_ADDR_ALIGN,
     which OpenCL gives in bits). Added after 32: a module that predates it answers
     INVALID_VALUE, which the core reads as unknown. */
  XGPU_DEVICE_BASE_ADDRESS_ALIGN = 33,
  /* u64 bytes: the largest __constant buffer a kernel argument may be
     (CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE). Added after 33: a module that predates it answers
     INVALID_VALUE, which the core reads as unknown (0). */
  XGPU_DEVICE_MAX_CONSTANT_BUFFER = 34
};

/* Bits of XGPU_DEVICE_TYPE. */
#define XGPU_TYPE_CPU 1u
#define XGPU_TYPE_GPU 2u
#define XGPU_TYPE_ACCELERATOR 4u

/* Flags of buffer_create(). */
#define XGPU_MEM_READ_WRITE 0u
#define XGPU_MEM_READ_ONLY 1u
#define XGPU_MEM_WRITE_ONLY 2u
#define XGPU_MEM_HOST_VISIBLE 4u /* allocate where the host can map it without a copy */

/* Flags of buffer_map(). */
#define XGPU_MAP_READ 1u
#define XGPU_MAP_WRITE 2u
#define XGPU_MAP_WRITE_INVALIDATE 4u

/* Flags of queue_create(). */
#define XGPU_QUEUE_PROFILING 1u

/* Kernel argument properties for kernel_arg_info(). */
enum {
  XGPU_ARG_NAME = 1,         /* string */
  XGPU_ARG_TYPE_NAME = 2,    /* string, e.g. "float*", "uint", "float4" */
  XGPU_ARG_ADDRESS_SPACE = 3 /* u64, XGPU_ADDRESS_* */
};
#define XGPU_ADDRESS_PRIVATE 0u
#define XGPU_ADDRESS_GLOBAL 1u
#define XGPU_ADDRESS_CONSTANT 2u
#define XGPU_ADDRESS_LOCAL 3u

/* Event profiling points for event_profile(), in nanoseconds. */
enum {
  XGPU_PROFILE_QUEUED = 1,
  XGPU_PROFILE_SUBMIT = 2,
  XGPU_PROFILE_START = 3,
  XGPU_PROFILE_END = 4
};

/* Event states for event_status(); a negative value is the command's failure status. */
#define XGPU_EVENT_COMPLETE 0
#define XGPU_EVENT_RUNNING 1
#define XGPU_EVENT_SUBMITTED 2
#define XGPU_EVENT_QUEUED 3

/* Log levels passed to the host's log callback (spdlog's numbering). */
enum {
  XGPU_LOG_TRACE = 0,
  XGPU_LOG_DEBUG = 1,
  XGPU_LOG_INFO = 2,
  XGPU_LOG_WARN = 3,
  XGPU_LOG_ERROR = 4
};

/* What the core gives a module at init: a way to log without linking spdlog. */
typedef struct xgpu_host_v1 {
  uint32_t struct_size;
  uint32_t abi_version;
  void (*log)(void* user, int32_t level, const char* message);
  void* log_user;
} xgpu_host_v1;

/* A wait list and an optional event to return, shared by every enqueue call. */
typedef struct xgpu_wait_v1 {
  const xgpu_event* events;
  uint32_t count;
} xgpu_wait_v1;

/* One kernel argument for kernel_launch_with_args(), in the argument's position. */
enum {
  XGPU_KERNEL_ARG_VALUE = 1,  /* `size` bytes at `value` */
  XGPU_KERNEL_ARG_BUFFER = 2, /* `buffer` (NULL allowed: a NULL pointer in the kernel) */
  XGPU_KERNEL_ARG_LOCAL = 3   /* `size` bytes of local memory; `value` unused */
};
typedef struct xgpu_kernel_arg_v1 {
  uint32_t kind; /* XGPU_KERNEL_ARG_* */
  size_t size;
  const void* value;
  xgpu_buffer buffer;
} xgpu_kernel_arg_v1;

/* Properties for kernel_limit(). */
enum {
  XGPU_KERNEL_MAX_WORK_GROUP_SIZE = 1, /* items per work-group this kernel allows */
  XGPU_KERNEL_PREFERRED_MULTIPLE = 2,  /* work-group size multiple that runs best */
  XGPU_KERNEL_LOCAL_MEMORY = 3,        /* bytes of local memory the kernel uses itself */
  XGPU_KERNEL_PRIVATE_MEMORY = 4       /* bytes of private memory per work-item */
};

/* Element types of blas_gemm(). */
enum { XGPU_PRECISION_F32 = 1, XGPU_PRECISION_F64 = 2, XGPU_PRECISION_F16 = 3 };

/* C = alpha * op(A) * op(B) + beta * C on row-major matrices: op(A) is m x k, op(B) is
 * k x n, C is m x n. Offsets and leading dimensions are in elements. */
typedef struct xgpu_gemm_v1 {
  uint32_t struct_size;              /* sizeof(xgpu_gemm_v1) as the caller was built */
  uint32_t precision;                /* XGPU_PRECISION_* */
  uint32_t transpose_a, transpose_b; /* 0: as stored, 1: transposed */
  size_t m, n, k;
  double alpha, beta;
  xgpu_buffer a, b, c;
  size_t a_offset, b_offset, c_offset;
  size_t lda, ldb, ldc;
} xgpu_gemm_v1;

typedef struct xgpu_backend_v1 {
  uint32_t struct_size; /* sizeof(xgpu_backend_v1) as the module was built */
  uint32_t abi_version; /* XGPU_BACKEND_ABI_VERSION as the module was built */
  const char* name;     /* short name used in selectors: "opencl" */

  /* Module life. init() may fail (no vendor library, no platform): the status and
   * last_error() say why, and the module then offers no device. XGPU_STATUS_NOT_AVAILABLE
   * means the vendor's driver is not installed at all (a CUDA module on a machine without
   * NVIDIA's driver): the core then keeps the module out of `xgpu query`'s notes. */
  xgpu_status (*init)(const xgpu_host_v1* host);
  const char* (*status_name)(xgpu_status status); /* never NULL; "UNKNOWN" for unknown */
  xgpu_status (*last_error)(char* buffer, size_t capacity, size_t* size_ret);

  xgpu_status (*retain)(uint32_t object_kind, void* object);
  xgpu_status (*release)(uint32_t object_kind, void* object);

  /* Devices. */
  xgpu_status (*device_count)(uint32_t* count);
  xgpu_status (*device_get)(uint32_t index, xgpu_device* device);
  xgpu_status (*device_info)(xgpu_device device, uint32_t property, void* value, size_t capacity,
                             size_t* size_ret);

  /* Contexts and queues. */
  xgpu_status (*context_create)(xgpu_device device, xgpu_context* context);
  xgpu_status (*queue_create)(xgpu_context context, xgpu_device device, uint32_t flags,
                              xgpu_queue* queue);
  xgpu_status (*queue_flush)(xgpu_queue queue);
  xgpu_status (*queue_finish)(xgpu_queue queue);

  /* Buffers. Sizes are bytes and never 0 (the core handles empty buffers itself). */
  xgpu_status (*buffer_create)(xgpu_context context, uint32_t flags, size_t size,
                               xgpu_buffer* buffer);
  xgpu_status (*buffer_write)(xgpu_queue queue, xgpu_buffer buffer, uint32_t blocking,
                              size_t offset, size_t size, const void* source,
                              const xgpu_wait_v1* wait, xgpu_event* event);
  xgpu_status (*buffer_read)(xgpu_queue queue, xgpu_buffer buffer, uint32_t blocking, size_t offset,
                             size_t size, void* destination, const xgpu_wait_v1* wait,
                             xgpu_event* event);
  xgpu_status (*buffer_copy)(xgpu_queue queue, xgpu_buffer source, xgpu_buffer destination,
                             size_t source_offset, size_t destination_offset, size_t size,
                             const xgpu_wait_v1* wait, xgpu_event* event);
  xgpu_status (*buffer_fill)(xgpu_queue queue, xgpu_buffer buffer, const void* pattern,
                             size_t pattern_size, size_t offset, size_t size,
                             const xgpu_wait_v1* wait, xgpu_event* event);
  xgpu_status (*buffer_map)(xgpu_queue queue, xgpu_buffer buffer, uint32_t map_flags, size_t offset,
                            size_t size, void** host_pointer, const xgpu_wait_v1* wait,
                            xgpu_event* event);
  xgpu_status (*buffer_unmap)(xgpu_queue queue, xgpu_buffer buffer, void* host_pointer,
                              const xgpu_wait_v1* wait, xgpu_event* event);

  /* Programs. program_build() failing still returns the program so that its log can be
   * read with program_build_log(); the caller releases it. */
  xgpu_status (*program_create)(xgpu_context context, const char* source, size_t length,
                                xgpu_program* program);
  xgpu_status (*program_build)(xgpu_program program, xgpu_device device, const char* options);
  xgpu_status (*program_build_log)(xgpu_program program, xgpu_device device, char* buffer,
                                   size_t capacity, size_t* size_ret);
  xgpu_status (*program_kernel_names)(xgpu_program program, char* buffer, size_t capacity,
                                      size_t* size_ret); /* ';'-separated */

  /* Kernels. Argument setting on one kernel is not thread-safe; the core serializes it. */
  xgpu_status (*kernel_create)(xgpu_program program, const char* name, xgpu_kernel* kernel);
  xgpu_status (*kernel_arg_count)(xgpu_kernel kernel, uint32_t* count);
  xgpu_status (*kernel_arg_info)(xgpu_kernel kernel, uint32_t index, uint32_t property, void* value,
                                 size_t capacity, size_t* size_ret);
  xgpu_status (*kernel_set_arg)(xgpu_kernel kernel, uint32_t index, size_t size, const void* value);
  xgpu_status (*kernel_set_arg_buffer)(xgpu_kernel kernel, uint32_t index,
                                       xgpu_buffer buffer); /* NULL buffer allowed */
  xgpu_status (*kernel_set_arg_local)(xgpu_kernel kernel, uint32_t index, size_t size);
  xgpu_status (*kernel_launch)(xgpu_queue queue, xgpu_kernel kernel, uint32_t dimensions,
                               const size_t* global_offset, const size_t* global_size,
                               const size_t* local_size /* NULL: the driver chooses */,
                               const xgpu_wait_v1* wait,
                               xgpu_event* event /* never NULL: the core always asks */);

  /* Events. */
  xgpu_status (*event_wait)(const xgpu_event* events, uint32_t count);
  xgpu_status (*event_status)(xgpu_event event, int32_t* status);
  xgpu_status (*event_profile)(xgpu_event event, uint32_t point, uint64_t* nanoseconds);

  /* --- optional members: may be NULL --- */

  /* Program binaries, for the kernel cache. */
  xgpu_status (*program_binary)(xgpu_program program, xgpu_device device, void* buffer,
                                size_t capacity, size_t* size_ret);
  xgpu_status (*program_create_binary)(xgpu_context context, xgpu_device device, const void* binary,
                                       size_t length, xgpu_program* program);
  /* The vendor API's own handle (cl_mem, cl_command_queue, ...) for interop. */
  xgpu_status (*native_handle)(uint32_t object_kind, void* object, void** native);

  /* A kernel's limits on a device (XGPU_KERNEL_*), for choosing work-group sizes. */
  xgpu_status (*kernel_limit)(xgpu_kernel kernel, xgpu_device device, uint32_t property,
                              uint64_t* value);
  /* A vendor-tuned dense matrix product on the module's queue (CLBlast for OpenCL).
   * XGPU_STATUS_UNSUPPORTED when the module has no such library at run time. */
  xgpu_status (*blas_gemm)(xgpu_queue queue, const xgpu_gemm_v1* gemm, const xgpu_wait_v1* wait,
                           xgpu_event* event);
  /* Sets every argument of `kernel` (args[i] is argument i) and enqueues it, in one call: what
   * kernel_set_arg*() then kernel_launch() do, without a crossing per argument. `event` may be
   * NULL (the caller keeps no event). When an argument is refused, *failed_arg is its index
   * and nothing is enqueued; when the enqueue fails, *failed_arg is arg_count. `flags`: none
   * defined yet, pass 0. Added after blas_gemm: the core falls back to the per-argument calls
   * when a module's table ends before it or leaves it NULL. */
  xgpu_status (*kernel_launch_with_args)(xgpu_queue queue, xgpu_kernel kernel, uint32_t arg_count,
                                         const xgpu_kernel_arg_v1* args, uint32_t dimensions,
                                         const size_t* global_offset, const size_t* global_size,
                                         const size_t* local_size, uint32_t flags,
                                         const xgpu_wait_v1* wait, xgpu_event* event,
                                         uint32_t* failed_arg);
  /* A barrier on `queue`: commands enqueued after it start only once every command enqueued
   * before it and every event of `wait` (NULL or empty: none) have completed; the host is not
   * blocked. `event` (may be NULL) completes at the same point, so an empty wait list gives a
   * marker of everything enqueued so far. The queue of each waited event is flushed first,
   * so a wait cannot hang on a command never submitted. An event of another context than the
   * queue's: XGPU_STATUS_INVALID_VALUE (OpenCL cannot wait across contexts), which the core reports
   * as context_mismatch. Added after kernel_launch_with_args: without it the core's Queue::wait and
   * Queue::marker throw unsupported. */
  xgpu_status (*queue_barrier)(xgpu_queue queue, const xgpu_wait_v1* wait, xgpu_event* event);
  /* A buffer made of `size` bytes of `parent` from `offset` (which is a multiple of
   * XGPU_DEVICE_BASE_ADDRESS_ALIGN): kernels, copies and maps see only those bytes. `flags`
   * are buffer_create()'s access flags (no HOST_VISIBLE). The sub-buffer keeps the parent
   * alive. Added after queue_barrier: the core's caching allocator needs it and
   * allocates directly from a module whose table ends before it or leaves it NULL. */
  xgpu_status (*buffer_create_sub)(xgpu_buffer parent, uint32_t flags, size_t offset, size_t size,
                                   xgpu_buffer* buffer);
  /* Copies `size` bytes of `source`, a buffer of another context of this module (another
   * device, or the same one), to `destination`, a buffer of `queue`'s context, on `queue`,
   * without the core staging it through host memory (CUDA: cuMemcpyPeerAsync). Unlike every
   * other call, `wait` may hold events of the source's context as well: the copy starts once
   * they have completed. XGPU_STATUS_UNSUPPORTED: this pair cannot be copied so; the core then
   * stages the copy through host memory. Added after buffer_create_sub: a module whose table
   * ends before it or leaves it NULL gets staged copies. */
  xgpu_status (*buffer_copy_peer)(xgpu_queue queue, xgpu_buffer source, xgpu_buffer destination,
                                  size_t source_offset, size_t destination_offset, size_t size,
                                  const xgpu_wait_v1* wait, xgpu_event* event);
} xgpu_backend_v1;

/* Size of a table that holds every required member: the core refuses a shorter one. */
#define XGPU_BACKEND_V1_REQUIRED_SIZE (offsetof(xgpu_backend_v1, event_profile) + sizeof(void*))

/* The one symbol a module exports. host_abi_version lets a module that speaks several
 * versions answer with the right table; NULL means it cannot serve this host. */
typedef const xgpu_backend_v1* (*xgpu_backend_entry_fn)(uint32_t host_abi_version);

#ifdef __cplusplus
}
#endif

#endif /* XGPU_BACKEND_H */
