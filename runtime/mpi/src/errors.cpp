// MPI error codes become xgpu::Error: the class's text and the code's own (which names what
// failed in Open MPI's and MPICH's words).
#include "errors.hpp"

#include <mpi.h>

namespace xgpu::mpi::detail {
namespace {

// The error classes of the MPI standard that xgpu's calls can meet, by name.
const char* class_name(int error_class) {
  switch (error_class) {
#define XGPU_MPI_CLASS(name) \
  case name:                 \
    return #name;
    XGPU_MPI_CLASS(MPI_ERR_BUFFER)
    XGPU_MPI_CLASS(MPI_ERR_COUNT)
    XGPU_MPI_CLASS(MPI_ERR_TYPE)
    XGPU_MPI_CLASS(MPI_ERR_TAG)
    XGPU_MPI_CLASS(MPI_ERR_COMM)
    XGPU_MPI_CLASS(MPI_ERR_RANK)
    XGPU_MPI_CLASS(MPI_ERR_REQUEST)
    XGPU_MPI_CLASS(MPI_ERR_ROOT)
    XGPU_MPI_CLASS(MPI_ERR_OP)
    XGPU_MPI_CLASS(MPI_ERR_ARG)
    XGPU_MPI_CLASS(MPI_ERR_TRUNCATE)
    XGPU_MPI_CLASS(MPI_ERR_OTHER)
    XGPU_MPI_CLASS(MPI_ERR_INTERN)
    XGPU_MPI_CLASS(MPI_ERR_IN_STATUS)
    XGPU_MPI_CLASS(MPI_ERR_NO_MEM)
#undef XGPU_MPI_CLASS
  }
  return "MPI_ERR_UNKNOWN";
}

}  // namespace

void check_mpi(int code, const char* call) {
  if (code == MPI_SUCCESS) return;
  char text[MPI_MAX_ERROR_STRING] = {};
  int length = 0;
  if (MPI_Error_string(code, text, &length) != MPI_SUCCESS) length = 0;
  int error_class = 0;
  if (MPI_Error_class(code, &error_class) != MPI_SUCCESS) error_class = code;
  Error::Details details;
  details.code = Errc::backend;
  details.call = call;
  details.native_status = code;
  details.native_name = class_name(error_class);
  details.message = std::string(call) + " failed: " +
                    (length > 0 ? std::string(text, length) : "MPI error " + std::to_string(code));
  throw Error(std::move(details));
}

void fail(Errc code, const std::string& message, const char* call) {
  throw Error(code, std::string(call) + ": " + message, call);
}

}  // namespace xgpu::mpi::detail
