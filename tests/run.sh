#!/bin/sh
# Installs what the tests need (Debian/Ubuntu), then builds and tests the
# project twice: a -Werror build, and an AddressSanitizer +
# UndefinedBehaviorSanitizer build. Extra steps run when their tools are
# present: the parser fuzzer (clang) and the MPI tests (Open MPI).
#
# usage: sh tests/run.sh            (from the repository root)
# env:   NQ_JOBS=N  build jobs; NQ_SKIP_INSTALL=1 skips apt-get
set -eu
cd "$(dirname "$0")/.."
jobs=${NQ_JOBS:-$(nproc 2>/dev/null || echo 2)}

# --- test dependencies -------------------------------------------------------
pkgs="build-essential cmake pkg-config libcmocka-dev clang libclang-rt-14-dev openmpi-bin libopenmpi-dev bsdutils groff-base"
if [ "${NQ_SKIP_INSTALL:-0}" != 1 ] && command -v apt-get >/dev/null 2>&1; then
  missing=""
  for p in $pkgs; do
    dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
  done
  if [ -n "$missing" ]; then
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    echo "== installing:$missing"
    $sudo apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq $missing >/dev/null
  fi
fi

# --- 1. strict build, all default tests ----------------------------------------
echo "== build (warnings are errors)"
cmake -S . -B build/test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNQ_WERROR=ON >/dev/null
cmake --build build/test -j "$jobs"
echo "== tests"
ctest --test-dir build/test --output-on-failure -j "$jobs"
echo "== long counts (n = 17, 18)"
ctest --test-dir build/test --output-on-failure -C Long -L long

# --- 2. sanitizers ----------------------------------------------------------------
echo "== build (AddressSanitizer + UndefinedBehaviorSanitizer)"
cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DNQ_WERROR=ON \
      -DNQ_SANITIZE=address,undefined >/dev/null
cmake --build build/asan -j "$jobs"
echo "== tests under sanitizers"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/asan --output-on-failure -j "$jobs"

# --- 3. fuzzing the placement parser and verifier (bounded) -------------------------
if command -v clang >/dev/null 2>&1; then
  echo "== fuzz: placement parser and verifier, ${NQ_FUZZ_SECONDS:-60} s"
  mkdir -p build/fuzz build/fuzz-new
  clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Iinclude \
    tests/fuzz/fuzz_placement.c src/parse.c src/verify.c -o build/fuzz/fuzz_placement
  ./build/fuzz/fuzz_placement -max_total_time="${NQ_FUZZ_SECONDS:-60}" -max_len=4096 \
    -timeout=10 -artifact_prefix=build/fuzz/ -print_final_stats=1 \
    build/fuzz-new tests/fuzz/corpus 2>build/fuzz/log || { tail -n 40 build/fuzz/log; exit 1; }
  grep -E "^stat::number_of_executed_units" build/fuzz/log || true
  # the part-line parser with merging, and the checkpoint loader (20 s each)
  clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -D_POSIX_C_SOURCE=200809L -pthread -Iinclude -Isrc tests/fuzz/fuzz_partline.c \
    src/part.c src/merge.c src/method.c src/plain.c src/sym.c src/sym_kernel.c \
    src/sym_scalar.c src/sym_avx2.c src/cpu.c src/known.c src/status.c \
    -o build/fuzz/fuzz_partline
  clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all -Iinclude -Isrc \
    tests/fuzz/fuzz_checkpoint.c src/checkpoint_file.c -o build/fuzz/fuzz_checkpoint
  for t in partline checkpoint; do
    echo "== fuzz: $t, 20 s"
    mkdir -p "build/fuzz-new-$t"
    ./build/fuzz/fuzz_$t -max_total_time=20 -max_len=4096 -timeout=10 \
      -artifact_prefix=build/fuzz/ -print_final_stats=1 "build/fuzz-new-$t" \
      "tests/fuzz/corpus-$t" 2>build/fuzz/log || { tail -n 40 build/fuzz/log; exit 1; }
    grep -E "^stat::number_of_executed_units" build/fuzz/log || true
  done
else
  echo "== fuzz: skipped (no clang)"
fi

echo "== all tests passed"
