#!/bin/sh
# nqueens-mpi --device=gpu on the emulated GPUs of a build with
# NQ_CUDA_EMULATOR (label gpu): each worker counts on one GPU of its node,
# by the symmetry method or the join, and a worker whose node has none
# ends the job, named, before any count
# is printed. Skipped, with the reason, where the build's nqueens lists no
# emulated GPU.
# usage: mpi_gpu_e2e.sh MPIEXEC PATH/TO/nqueens-mpi PATH/TO/nqueens
set -u
mpiexec=$1 bin=$2 nqueens=$3
. "$(dirname "$0")/../helpers/e2e_lib.sh"
if ! "$nqueens" --devices 2>/dev/null | grep -q "^gpu 0.*nqueens emulated GPU"; then
  echo "skipped: no emulated GPU (a build with -DNQ_CUDA_EMULATOR=ON runs this)"
  exit 77
fi
if [ -n "${ASAN_OPTIONS:-}" ]; then
  export ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$work/sanitizer"
  export UBSAN_OPTIONS="${UBSAN_OPTIONS:-}:log_path=$work/sanitizer"
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 HWLOC_HIDE_ERRORS=2
export OMPI_MCA_rmaps_base_oversubscribe=1
# run GPUS NP ARGS...: a job of NP ranks whose nodes have GPUS emulated GPUs
run() { gpus=$1 np=$2; shift 2
  NQ_EMU_GPUS=$gpus timeout -k 10 120 "$mpiexec" --oversubscribe -np "$np" \
    -x LD_LIBRARY_PATH -x NQ_EMU_GPUS -x ASAN_OPTIONS -x UBSAN_OPTIONS -x LSAN_OPTIONS \
    "$bin" "$@"
}

for case in "2 3 12 14200 1787" "1 3 13 73712 9233" "2 2 14 365596 45752"; do
  set -- $case
  out=$(run "$1" "$2" -j 1 --device=gpu --json "$3" 2>"$work/err")
  [ "$out" = "{\"n\":$3,\"total\":$4,\"unique\":$5,\"method\":\"symmetry\",\"ranks\":$2,\"device\":\"gpu\"}" ] &&
    [ ! -s "$work/err" ] || { echo "$out"; cat "$work/err"; false; }
  report "$2 ranks on $1 GPU(s) a node: n = $3" $((! $?))
done

# the join's units, each rank on its GPU
out=$(run 2 3 -j 1 --device=gpu -m join --json 14 2>"$work/err")
[ "$out" = '{"n":14,"total":365596,"method":"join","ranks":3,"device":"gpu"}' ] &&
  [ ! -s "$work/err" ] || { echo "$out"; cat "$work/err"; false; }
report "3 ranks on 2 GPU(s) a node, the join: n = 14" $((! $?))

out=$(run 0 2 -j 1 --device=gpu 10 2>"$work/err"); status=$?
[ $status -ne 0 ] && [ -z "$out" ] &&
  grep -q "^nqueens-mpi: rank 1 failed: --device=gpu: the NVIDIA driver shows no GPU$" "$work/err"
report "a node without a GPU: the job ends, the rank named" $((! $?))

# the sanitizers' reports of every rank (none may be there)
if ls "$work"/sanitizer* >/dev/null 2>&1; then
  cat "$work"/sanitizer*; report "no sanitizer report" 0
fi
finish
