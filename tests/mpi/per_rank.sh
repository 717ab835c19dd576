#!/bin/sh
# Runs one rank of an MPI test: "$@" with a PoCL kernel cache of the rank's own
# ($XGPU_TEST_POCL_CACHE/rank<N>), since ranks starting together would otherwise build into one
# folder at once. The rank comes from Open MPI's, MPICH's (PMI) or Slurm's variable.
rank="${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-${SLURM_PROCID:-0}}}"
POCL_CACHE_DIR="${XGPU_TEST_POCL_CACHE:?set by the CTest entry}/rank${rank}"
export POCL_CACHE_DIR
mkdir -p "${POCL_CACHE_DIR}"
exec "$@"
