/* An LD_PRELOAD library for unit.profile.unmeasured: the first CL_KERNEL_LOCAL_MEM_SIZE query of
 * each kernel fails (CL_OUT_OF_RESOURCES), later ones reach the driver. The profile module
 * measures a kernel's own local memory at its creation, with that first query: so the
 * measurement fails, and what the module answers afterwards is seen when it did. */
#define _GNU_SOURCE
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>

enum { kMaxKernels = 4096 };
static cl_kernel asked[kMaxKernels];
static int asked_count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Whether this is the first local-memory query of `kernel` (then it is recorded). */
static int first_query(cl_kernel kernel) {
  int first = 1;
  pthread_mutex_lock(&lock);
  for (int i = 0; i < asked_count && first; ++i) first = asked[i] != kernel;
  if (first && asked_count < kMaxKernels) asked[asked_count++] = kernel;
  pthread_mutex_unlock(&lock);
  return first;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                                         cl_kernel_work_group_info name,
                                                         size_t size, void* value,
                                                         size_t* size_ret) {
  typedef cl_int(CL_API_CALL * Real)(cl_kernel, cl_device_id, cl_kernel_work_group_info, size_t,
                                     void*, size_t*);
  static Real real;
  if (real == NULL) real = (Real)dlsym(RTLD_NEXT, "clGetKernelWorkGroupInfo");
  if (name == CL_KERNEL_LOCAL_MEM_SIZE && first_query(kernel)) return CL_OUT_OF_RESOURCES;
  return real(kernel, device, name, size, value, size_ret);
}
