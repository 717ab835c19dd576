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

/* The module's table. Its members, the functions a module implements, are listed once, each
 * with what it does, in xgpu/backend_members.def (included here), in table order: the entry
 * points from init() to event_profile() are required, the ones after are optional (may be
 * NULL) and were appended one by one. Every function returns an xgpu_status except
 * status_name(). */
typedef struct xgpu_backend_v1 {
  uint32_t struct_size; /* sizeof(xgpu_backend_v1) as the module was built */
  uint32_t abi_version; /* XGPU_BACKEND_ABI_VERSION as the module was built */
  const char* name;     /* short name used in selectors: "opencl" */

#define XGPU_BACKEND_MEMBER(presence, result, member, parameters) result(*member) parameters;
#include "backend_members.def"
#undef XGPU_BACKEND_MEMBER
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
