#!/bin/sh
# The CUDA kernels (src/device/cuda/*.cu) compile for the GPU, here and on
# any machine with clang, without nvcc or a CUDA toolkit: clang's CUDA
# front end turns each into PTX for sm_80 (tests/gpu/clang_cuda.h gives
# the few CUDA declarations they use). Then the PTX shows what the kernels
# promise: each __global__ function is an entry, the per-thread stacks are
# in shared memory, nothing spills to local memory, and no call is left
# (every step is inlined).
# usage: kernel_ptx.sh CLANG SOURCE_DIR
set -u
clang=$1 src=$2
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
failures=0
check() {  # check WHAT STATUS
  if [ "$2" -eq 0 ]; then echo "ok: $1"; else echo "FAILED: $1"; failures=$((failures + 1)); fi
}
for cu in "$src"/src/device/cuda/*.cu; do
  name=$(basename "$cu" .cu)
  ptx=$work/$name.ptx
  "$clang" -x cuda --cuda-device-only --cuda-gpu-arch=sm_80 -nocudainc -nocudalib \
    -Wno-unknown-cuda-version -Xclang -target-feature -Xclang +ptx70 -std=c++17 -O3 -Wall -Wextra -Werror \
    -include "$src/tests/gpu/clang_cuda.h" -I"$src/src" -S "$cu" -o "$ptx"
  check "$name.cu compiles to PTX for sm_80" $?
  [ -s "$ptx" ] || continue
  # the name after each __global__ ... void, on its line or the next
  kernels=$(awk '/__global__/ { g = 1; sub(/.*__global__[^(]*void/, "") }
                 g && /[A-Za-z_]/ { sub(/^[ \t]*/, ""); sub(/[ \t(].*/, ""); print; g = 0 }' "$cu")
  [ -n "$kernels" ]
  check "$name: has kernels" $?
  for kernel in $kernels; do
    grep -q "^\.visible \.entry $kernel(" "$ptx"
    check "$name: $kernel is a kernel entry" $?
  done
  grep -q "\.shared" "$ptx"
  check "$name: the stacks are in shared memory" $?
  ! grep -q "\.local" "$ptx"
  check "$name: nothing in local memory" $?
  ! grep -q "^[[:space:]]*call" "$ptx"
  check "$name: no calls (every step inlined)" $?
done
[ "$failures" -eq 0 ]
