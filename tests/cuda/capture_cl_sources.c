/* An LD_PRELOAD library for the cuda.nvrtc_kernels test: records every OpenCL C program a
 * process builds, so that the test compiles the conformance suite's kernels exactly as the
 * suite generates them (many are assembled at run time, with their own build options).
 * Intercepts clCreateProgramWithSource (writes N.cl into $XGPU_CAPTURE_DIR) and
 * clBuildProgram / clCompileProgram (writes N.options, then N.status: the OpenCL build's
 * status, so that the test leaves out the programs the suite builds to see them fail). */
#define _GNU_SOURCE
#include <CL/cl.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { kMaxPrograms = 65536 };
static struct {
  cl_program program;
  int number;
} captured[kMaxPrograms];
static int captured_count;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void write_file(int number, const char* suffix, const char* text, size_t length) {
  const char* dir = getenv("XGPU_CAPTURE_DIR");
  if (dir == NULL) return;
  char path[4096];
  snprintf(path, sizeof path, "%s/%05d.%s", dir, number, suffix);
  FILE* file = fopen(path, "wb");
  if (file == NULL) return;
  fwrite(text, 1, length, file);
  fclose(file);
}

static int number_of(cl_program program) {
  for (int i = captured_count; i-- > 0;)
    if (captured[i].program == program) return captured[i].number;
  return -1;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count,
                                                              const char** strings,
                                                              const size_t* lengths,
                                                              cl_int* status) {
  typedef cl_program (*Real)(cl_context, cl_uint, const char**, const size_t*, cl_int*);
  static Real real;
  if (real == NULL) real = (Real)dlsym(RTLD_NEXT, "clCreateProgramWithSource");
  cl_program program = real(context, count, strings, lengths, status);
  if (program == NULL) return program;
  pthread_mutex_lock(&lock);
  if (captured_count < kMaxPrograms) {
    const int number = captured_count;
    captured[captured_count].program = program;
    captured[captured_count++].number = number;
    /* The pieces, joined: one file per program. */
    size_t total = 0;
    for (cl_uint i = 0; i < count; ++i)
      total += lengths != NULL && lengths[i] != 0 ? lengths[i] : strlen(strings[i]);
    char* text = malloc(total + 1);
    size_t at = 0;
    for (cl_uint i = 0; text != NULL && i < count; ++i) {
      const size_t n = lengths != NULL && lengths[i] != 0 ? lengths[i] : strlen(strings[i]);
      memcpy(text + at, strings[i], n);
      at += n;
    }
    if (text != NULL) write_file(number, "cl", text, total);
    free(text);
  }
  pthread_mutex_unlock(&lock);
  return program;
}

static void note_options(cl_program program, const char* options) {
  pthread_mutex_lock(&lock);
  const int number = number_of(program);
  pthread_mutex_unlock(&lock);
  if (number >= 0) write_file(number, "options", options ? options : "", options ? strlen(options) : 0);
}

static void note_status(cl_program program, cl_int status) {
  pthread_mutex_lock(&lock);
  const int number = number_of(program);
  pthread_mutex_unlock(&lock);
  char text[32];
  snprintf(text, sizeof text, "%d", (int)status);
  if (number >= 0) write_file(number, "status", text, strlen(text));
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint count,
                                               const cl_device_id* devices, const char* options,
                                               void(CL_CALLBACK* notify)(cl_program, void*),
                                               void* user_data) {
  typedef cl_int (*Real)(cl_program, cl_uint, const cl_device_id*, const char*,
                         void(CL_CALLBACK*)(cl_program, void*), void*);
  static Real real;
  if (real == NULL) real = (Real)dlsym(RTLD_NEXT, "clBuildProgram");
  note_options(program, options);
  const cl_int status = real(program, count, devices, options, notify, user_data);
  note_status(program, status);
  return status;
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint count,
                                                 const cl_device_id* devices, const char* options,
                                                 cl_uint headers, const cl_program* header_programs,
                                                 const char** header_names,
                                                 void(CL_CALLBACK* notify)(cl_program, void*),
                                                 void* user_data) {
  typedef cl_int (*Real)(cl_program, cl_uint, const cl_device_id*, const char*, cl_uint,
                         const cl_program*, const char**, void(CL_CALLBACK*)(cl_program, void*),
                         void*);
  static Real real;
  if (real == NULL) real = (Real)dlsym(RTLD_NEXT, "clCompileProgram");
  note_options(program, options);
  /* Compiled to be linked with other programs: the test compiles it relocatable. */
  pthread_mutex_lock(&lock);
  const int number = number_of(program);
  pthread_mutex_unlock(&lock);
  if (number >= 0) write_file(number, "mode", "compile", 7);
  const cl_int status = real(program, count, devices, options, headers, header_programs,
                             header_names, notify, user_data);
  /* Headers are programs of their own; the test cannot give them to NVRTC by name. */
  note_status(program, headers > 0 ? -9999 : status);
  return status;
}
