/* A stand-in for NCCL's libnccl.so.2 for the [.nccl_fake] tests, beside the fake libcuda whose
 * "GPU" is host memory (tests/backends/cuda/fake_host_libcuda.c): device pointers are host
 * pointers, so its ncclAllReduce is an MPI_Allreduce over MPI_COMM_WORLD on them. It checks what
 * a real NCCL would need from xgpu: every rank inits with the same unique id (broadcast from
 * rank 0), the rank and rank count of the world. fake_nccl_allreduce_calls() tells a test that
 * the NCCL path ran. It proves nothing about NCCL itself. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
  char internal[128];
} ncclUniqueId;
struct ncclComm {
  MPI_Comm comm;
};
enum { kSuccess = 0, kInternalError = 3, kInvalidArgument = 4 };

static long g_allreduce_calls;

long fake_nccl_allreduce_calls(void) { return g_allreduce_calls; }

int ncclGetUniqueId(ncclUniqueId* id) {
  memset(id, 0, sizeof *id);
  snprintf(id->internal, sizeof id->internal, "fake-nccl-%ld", (long)getpid());
  return kSuccess;
}

int ncclCommInitRank(struct ncclComm** comm, int nranks, ncclUniqueId id, int rank) {
  int world_rank = 0, world_size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &world_rank);
  MPI_Comm_size(MPI_COMM_WORLD, &world_size);
  if (nranks != world_size || rank != world_rank) return kInvalidArgument;
  /* Every rank must have been given rank 0's id. */
  uint64_t hash = 1469598103934665603ull;
  for (size_t i = 0; i < sizeof id.internal; ++i)
    hash = (hash ^ (unsigned char)id.internal[i]) * 1099511628211ull;
  uint64_t low = 0, high = 0;
  MPI_Allreduce(&hash, &low, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce(&hash, &high, 1, MPI_UINT64_T, MPI_MAX, MPI_COMM_WORLD);
  if (low != high || strncmp(id.internal, "fake-nccl-", 10) != 0) return kInternalError;
  *comm = malloc(sizeof **comm);
  if (*comm == NULL) return kInternalError;
  MPI_Comm_dup(MPI_COMM_WORLD, &(*comm)->comm);
  return kSuccess;
}

int ncclCommDestroy(struct ncclComm* comm) {
  int finalised = 0;
  MPI_Finalized(&finalised);
  if (!finalised) MPI_Comm_free(&comm->comm);
  free(comm);
  return kSuccess;
}

int ncclAllReduce(const void* send, void* recv, size_t count, int type, int op,
                  struct ncclComm* comm, void* stream) {
  (void)stream; /* the fake driver's streams finish every command at once */
  MPI_Datatype types[] = {
      [2] = MPI_INT32_T, [3] = MPI_UINT32_T, [4] = MPI_INT64_T, [7] = MPI_FLOAT, [8] = MPI_DOUBLE};
  MPI_Op ops[] = {MPI_SUM, MPI_PROD, MPI_MAX, MPI_MIN};
  if (type < 2 || type > 8 || types[type] == 0 || op < 0 || op > 3) return kInvalidArgument;
  if (MPI_Allreduce(send == recv ? MPI_IN_PLACE : send, recv, (int)count, types[type], ops[op],
                    comm->comm) != MPI_SUCCESS)
    return kInternalError;
  ++g_allreduce_calls;
  return kSuccess;
}

const char* ncclGetErrorString(int result) {
  return result == kSuccess ? "no error" : "fake NCCL error";
}
