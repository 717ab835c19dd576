// CLBlast's process-wide caches and the lifetime of the OpenCL objects in them.
//
// CLBlast keeps every program it compiles (and through it the program's cl_context) in
// caches that belong to the process, not to a context; its own static destructors empty
// them at exit. By then the drivers may be half torn down: static objects that LLVM (under
// PoCL and Oclgrind) created while compiling CLBlast's kernels were registered for
// destruction after CLBlast's caches, so they are destroyed first, and the context that
// CLBlast's last program reference then destroys reaches freed memory ("corrupted
// double-linked list", PoCL's "pocl_release_dlhandle_cache: Assertion ref_count > 0").
//
// So the module empties CLBlast's caches itself, while the drivers are whole, at two points:
// 1. when the caller drops its last reference to a context CLBlast has used (before the
//    module's clReleaseContext): the context then dies at once, in the caller's thread,
//    instead of at exit. CLBlastClearCache() empties the caches of every context; other
//    contexts' programs are rebuilt at their next call (CLBlast has no per-context clear).
// 2. at exit, for contexts still alive then: a handler registered right after CLBlast's
//    first call on each device, so it runs (atexit order is last-in, first-out) before the
//    destructors of anything that call brought to life, and before CLBlast's own caches,
//    which existed before the call. It empties them on a thread of its own, as the exiting
//    thread's thread-locals, where a driver may keep state, are gone. After it has run, CLBlast is
//    never called again: its caches may be destroyed by the time the core releases its last
//    objects.
// CLBlast itself is never dlclose()d (blas_gemm.cpp keeps it open for the process), so its
// code outlives every program it holds.
#pragma once

#include "cl.hpp"

namespace xgpu::backend_opencl {

/// CLBlastClearCache's type (CLBlast's C API); its status is ignored, as there is nothing to
/// do about a failure to empty a cache.
using ClblastClearCache = int (*)();

/// blas_gemm: CLBlast has just run a routine on a queue of `context` and `device`. `clear` may
/// be NULL (a CLBlast without the function): then nothing can be done; a warning says so once.
void clblast_used(cl_context context, cl_device_id device, ClblastClearCache clear);

/// context_create and retain: the caller holds one more reference to `context`.
void context_referenced(cl_context context);

/// release, before clReleaseContext: the caller drops one reference to `context`; on the
/// last one, when CLBlast has used the context, CLBlast's caches are emptied first.
void context_unreferencing(cl_context context);

}  // namespace xgpu::backend_opencl
