#!/bin/sh
# The test command: installs what the tests need (Debian/Ubuntu), then
#   1. a -Werror optimised build: every default test, the long counts
#      (n = 17, 18), MPI and the install;
#   2. an AddressSanitizer + UndefinedBehaviorSanitizer build: the same
#      tests on smaller boards (tests/helpers/test_sizes.h);
#   3. a cross build for 64-bit Arm (aarch64, -Werror): the default tests
#      under qemu's user-mode emulator, on the smaller boards of step 2;
#      and an x86-64 build whose default tests run twice under qemu, on an
#      emulated CPU with AVX2 and no AVX-512 and on one with neither, so
#      that every CPU class's dispatch and skips run on any test machine;
#   4. the GPU path on an emulated GPU (NQ_CUDA_EMULATOR: the CUDA backend
#      against a stand-in NVIDIA driver that runs the kernels' own text on
#      the CPU), under AddressSanitizer + UndefinedBehaviorSanitizer: the
#      gpu tests, the driver's faults included; then bench/gpu.sh, the
#      device script, rehearsed whole on the emulated GPU;
#   5. libFuzzer on each parser, a fixed time each.
# Every test dependency is required (NQ_REQUIRE_TESTS): a missing one is an
# error, never a skipped step. Each step prints its time. The aarch64 and
# emulated x86-64 builds and the fuzz targets compile in the background while steps 1 and 2 run
# (their MPI test mostly waits for mpirun and leaves cores idle).
#
# --quick, for a change in progress: no installs and no root, one build
# (build/quick: optimised, -Werror) and its default tests, except those of
# MPI and the install (labels mpi, install); no long counts, sanitizers,
# aarch64 or fuzzing. A test whose dependency is missing is left out, with
# one line that names the package to install: with only a compiler and
# CMake (the README's install), the end-to-end tests run and the unit
# tests, which need cmocka, do not. docs/testing.md has the details.
#
# usage: sh tests/run.sh [--quick]   (from anywhere)
# env:   NQ_JOBS=N           build and test jobs (default: all CPUs)
#        NQ_SKIP_INSTALL=1   no apt-get
#        NQ_FUZZ_SECONDS=S   fuzzing time per target (default 20)
set -eu
cd "$(dirname "$0")/.."
jobs=${NQ_JOBS:-$(nproc 2>/dev/null || echo 2)}
# tests at a time in steps 1 and 2: one more than the jobs, since mpi_e2e
# (started first) mostly waits for mpirun's start-ups
test_jobs=$((jobs + 1))
fuzz_seconds=${NQ_FUZZ_SECONDS:-20}
quick=0
case ${1:-} in
  --quick) quick=1 ;;
  "") ;;
  *) echo "usage: sh tests/run.sh [--quick]" >&2; exit 2 ;;
esac
t0=$(date +%s)
t=$t0
step() {  # step NAME: prints the time of the step that ends here, then NAME
  now=$(date +%s)
  [ -z "${name:-}" ] || echo "== $name: $((now - t)) s"
  t=$now name=$1
  echo "== $name"
}
fail() { echo "tests/run.sh: $*" >&2; exit 1; }

if [ "$quick" = 1 ]; then
  step "configure and build: optimised (-Werror), build/quick"
  mkdir -p build
  { cmake -S . -B build/quick -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNQ_WERROR=ON &&
    cmake --build build/quick -j "$jobs"; } >build/quick.log 2>&1 ||
    { grep -E -A5 "error|warning|Error" build/quick.log | head -n 60; fail "build failed"; }
  # Of the tests run here, only the unit tests need a package that a
  # compiler and CMake do not bring (MPI, pkg-config and lintian serve
  # tests that --quick leaves out anyway): say so in one line.
  left_out=""
  if grep -q "cmocka not found" build/quick.log; then
    echo "tests/run.sh: cmocka is missing: the unit tests are left out, the end-to-end" \
         "tests run (apt-get install libcmocka-dev, as root, for all of them)"
    left_out=" (no unit tests: cmocka is missing)"
  fi
  step "default tests, without MPI and the install$left_out"
  ctest --test-dir build/quick --output-on-failure -j "$jobs" -LE "mpi|install|package" \
    --no-tests=error
  step "quick tests passed$left_out; $(( $(date +%s) - t0 )) s in all (the full run: sh tests/run.sh)"
  exit 0
fi

# --- test dependencies -----------------------------------------------------------
pkgs="build-essential cmake pkg-config libcmocka-dev clang libclang-rt-14-dev
      openmpi-bin libopenmpi-dev bsdutils groff-base file lintian
      gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user libcmocka-dev:arm64"
if [ "${NQ_SKIP_INSTALL:-0}" != 1 ] && command -v apt-get >/dev/null 2>&1; then
  missing=""
  # (by name and architecture: once the Arm cmocka is in, a bare
  # `dpkg -s libcmocka-dev` is ambiguous and would install again)
  native=$(dpkg --print-architecture)
  for p in $pkgs; do
    case $p in *:*) name=${p%%:*} arch=${p#*:} ;; *) name=$p arch=$native ;; esac
    dpkg-query -W -f='${db:Status-Status} ${Architecture}\n' "$name" 2>/dev/null |
      grep -Eq "^installed ($arch|all)\$" || missing="$missing $p"
  done
  if [ -n "$missing" ]; then
    step "installing:$missing"
    sudo=""
    [ "$(id -u)" -eq 0 ] || sudo="sudo"
    # the Arm tests link Debian's own Arm cmocka (multiarch)
    case $missing in *:arm64*) $sudo dpkg --add-architecture arm64 ;; esac
    $sudo apt-get update -qq
    # (unsafe-io: no fsync per file; a crash mid-install is not a concern here)
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends \
      -o Dpkg::Options::=--force-unsafe-io $missing >/dev/null
  fi
fi
for tool in cmake cc clang mpirun pkg-config script aarch64-linux-gnu-gcc \
            qemu-aarch64 qemu-x86_64 lintian file; do
  command -v $tool >/dev/null 2>&1 || fail "$tool is missing; the tests need it"
done

# --- build both variants ------------------------------------------------------------
# The two builds are configured and compiled side by side: each alone leaves
# cores idle while it configures and links.
step "configure and build: optimised (-Werror) and sanitizers"
mkdir -p build
# (the prefix /usr: the build the Debian packages are made from, and tested)
cmake -S . -B build/test -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNQ_WERROR=ON \
      -DNQ_REQUIRE_TESTS=ON -DCMAKE_INSTALL_PREFIX=/usr >build/test.log 2>&1 &
pid=$!
# -O1: AddressSanitizer's advice; -O0 runs the tests three times slower
cmake -S . -B build/asan -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" \
      -DNQ_WERROR=ON -DNQ_SANITIZE=address,undefined -DNQ_REQUIRE_TESTS=ON \
      >build/asan.log 2>&1 || { cat build/asan.log; fail "configure failed (asan)"; }
wait $pid || { cat build/test.log; fail "configure failed (optimised)"; }
cmake --build build/test -j "$jobs" >>build/test.log 2>&1 &
pid=$!
cmake --build build/asan -j "$jobs" >>build/asan.log 2>&1 ||
  { grep -E -A5 "error|warning" build/asan.log | head -n 60; fail "build failed (asan)"; }
wait $pid || { grep -E -A5 "error|warning" build/test.log | head -n 60; fail "build failed"; }

# --- in the background: the aarch64 and x86-64 builds and the fuzz targets ----------
# Compiled (niced) while the tests of steps 1 and 2 run, waited for by steps
# 3 and 4. The aarch64 and emulated x86-64 builds: see step 3. The fuzz targets: one line each,
# its source in tests/fuzz, its seed corpus (never written to), and the
# library sources it needs.
fuzz_targets="
fuzz_placement   tests/fuzz/corpus             src/solutions/parse.c src/solutions/verify.c src/results.c
fuzz_partline    tests/fuzz/corpus-partline    src/*.c src/engine/*.c src/methods/*.c src/*/*/*.c src/platform/*.c src/checkpoint/*.c src/parts/*.c src/solutions/*.c src/device/*.c
fuzz_checkpoint  tests/fuzz/corpus-checkpoint  src/checkpoint/checkpoint_file.c
fuzz_ckptload    tests/fuzz/corpus-checkpoint  src/*.c src/engine/*.c src/methods/*.c src/*/*/*.c src/platform/*.c src/checkpoint/*.c src/parts/*.c src/solutions/*.c src/device/*.c
"
build_aarch64() {
  cmake -S . -B build/aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNQ_WERROR=ON -DNQ_REQUIRE_TESTS=ON \
        -DNQ_BUILD_MPI=OFF && nice cmake --build build/aarch64 -j "$jobs"
}
build_x86_qemu() {
  cmake -S . -B build/x86-qemu -DCMAKE_TOOLCHAIN_FILE=cmake/x86_64-qemu.cmake \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo -DNQ_WERROR=ON -DNQ_REQUIRE_TESTS=ON \
        -DNQ_BUILD_MPI=OFF && nice cmake --build build/x86-qemu -j "$jobs"
}
build_gpu_emu() {
  cmake -S . -B build/gpu-emu -DCMAKE_BUILD_TYPE=Debug -DCMAKE_C_FLAGS_DEBUG="-g -O1" \
        -DCMAKE_CXX_FLAGS_DEBUG="-g -O1" -DNQ_WERROR=ON -DNQ_SANITIZE=address,undefined \
        -DNQ_CUDA_EMULATOR=ON -DNQ_REQUIRE_TESTS=ON &&
    nice cmake --build build/gpu-emu -j "$jobs" --target nqueens_exe nqueens_mpi test_gpu test_gpu_walks test_gpu_join \
      test_gpu_join_memory test_device
}
build_fuzzers() {  # one at a time: the tests have the other cores
  mkdir -p build/fuzz
  while read -r target corpus sources; do
    [ -n "$target" ] || continue
    # shellcheck disable=SC2086 # the sources are a list
    nice clang -g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
      -D_POSIX_C_SOURCE=200809L -pthread -Iinclude -Isrc -Isrc/common -Isrc/apps \
      "tests/fuzz/$target.c" $sources -o "build/fuzz/$target" || return 1
  done <<EOF
$fuzz_targets
EOF
}
(build_gpu_emu >build/gpu-emu.log 2>&1 && build_aarch64 >build/aarch64.log 2>&1 &&
  build_x86_qemu >build/x86-qemu.log 2>&1 && build_fuzzers >build/fuzz-build.log 2>&1) &
background=$!

# --- 1. optimised build: default tests and long counts in one run ----------------------
step "tests, with the long counts (n = 17, 18)"
ctest --test-dir build/test --output-on-failure -j "$test_jobs" -C Long

# --- 2. sanitizers -------------------------------------------------------------------
step "tests under AddressSanitizer + UndefinedBehaviorSanitizer"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/asan --output-on-failure -j "$test_jobs"

# --- 3. another architecture: aarch64 under qemu ------------------------------------
# The SIMD kernels are x86 only and compiled out there, so this proves the
# portable path: every target builds with -Werror, and the default tests
# pass with the scalar kernels, on another instruction set, where plain
# char is unsigned. Left out there: nqueens-mpi (not built), the tests
# that are the same on every architecture and need programs of this
# machine (docs_e2e, install_consumer, package_e2e, tty_e2e and its
# terminal driver), and the kills of counts sized for a native build
# (longrun_e2e). cmake/aarch64-linux-gnu.cmake names the compiler and qemu.
step "the rest of the emulated-GPU, aarch64 and x86-64 builds (-Werror) and of the fuzz targets"
wait $background || {
  for log in build/gpu-emu.log build/aarch64.log build/x86-qemu.log; do
    grep -E -A5 "error|warning|Error" "$log" 2>/dev/null | head -n 60
  done
  tail -n 30 build/fuzz-build.log 2>/dev/null
  fail "the emulated-GPU, aarch64 or x86-64 build or a fuzz target failed" \
       "(build/gpu-emu.log, build/aarch64.log, build/x86-qemu.log, build/fuzz-build.log)"
}

step "tests on aarch64, under qemu"
ctest --test-dir build/aarch64 --output-on-failure -j "$jobs"

# The same x86-64 program on CPUs that this machine may not be: qemu plays
# the CPU that QEMU_CPU names (cmake/x86_64-qemu.cmake). Its "max" CPU has
# AVX2 and no AVX-512 (qemu 7.2); the features named off keep it so.
# Each run first checks that the CPU played is the one meant. Left out: the
# tests whose work is the same on every x86-64 CPU (files, options, the
# usage text, the examples, construction, the cost model's unit tests,
# the shape of the source).
same_on_every_cpu="^(test_(estimate|checkpoint|checkpoint_format|checkpoint_safety|verify|construct|random|merge|part|options|list)|(usage|examples|trust|json_doc)_e2e|.*_tables_generated|layers|file_sizes|kernel_ptx)\$"
runs_at() {  # runs_at CPU LEVEL: does nqueens --simd=LEVEL start on CPU?
  QEMU_CPU=$1 qemu-x86_64 build/x86-qemu/nqueens --simd="$2" 4 >/dev/null 2>&1
}
step "tests on x86-64 with AVX2 and no AVX-512, under qemu"
cpu=max,-avx512f
{ runs_at $cpu avx2 && ! runs_at $cpu avx512; } || fail "qemu's CPU $cpu is not AVX2 without AVX-512"
QEMU_CPU=$cpu ctest --test-dir build/x86-qemu --output-on-failure -j "$jobs" -E "$same_on_every_cpu"
step "tests on x86-64 without AVX2 or AVX-512, under qemu"
cpu=max,-avx2,-avx512f
{ runs_at $cpu none && ! runs_at $cpu avx2; } || fail "qemu's CPU $cpu has AVX2, or does not start"
QEMU_CPU=$cpu ctest --test-dir build/x86-qemu --output-on-failure -j "$jobs" -E "$same_on_every_cpu"

# --- 4. the GPU path on an emulated GPU ------------------------------------------------
# The library built with the CUDA backend, whose driver (libcuda.so.1) is
# tests/gpu/emulator's: the kernels' own text runs on the CPU, device
# memory is host memory that the sanitizers watch, and NQ_EMU_* plays a
# machine without a GPU, too little GPU memory and failing driver calls.
# What only a real GPU shows (speed, nvcc's build) is bench/gpu.sh's.
# Every gpu test must run here: a skip is a failure. One test at a time:
# they time stops (within a second) and estimates, and the emulated GPU's
# kernels take every core they are given.
step "the GPU path on an emulated GPU, under AddressSanitizer + UndefinedBehaviorSanitizer"
ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
  ctest --test-dir build/gpu-emu --output-on-failure -j 1 -L gpu --no-tests=error \
  >build/gpu-emu-tests.log 2>&1 || { cat build/gpu-emu-tests.log; fail "a gpu test failed (emulated)"; }
if grep -q "Not Run\|Skipped" build/gpu-emu-tests.log; then
  cat build/gpu-emu-tests.log; fail "a gpu test was skipped on the emulated GPU"
fi
tail -n 3 build/gpu-emu-tests.log
# The device script, whole, on the emulated GPU: a GPU machine's time is
# short, so a fault of the script must show here first (its own build, the
# GPU tests, the walks' timing, the table, the estimates; every count it
# prints is checked against the known totals).
step "bench/gpu.sh rehearsed on the emulated GPU"
NQ_GPU_REHEARSE=1 NQ_GPU_BUILD=build/gpu-rehearse NQ_YGCH=none NQ_TUNE=16 NQ_NCU_N=none \
  NQ_GPU_ESTIMATE=18 NQ_JOIN=12,14 sh bench/gpu.sh 16 1 >build/gpu-rehearse.log 2>&1 ||
  { tail -n 40 build/gpu-rehearse.log; fail "bench/gpu.sh failed on the emulated GPU"; }
# the table's row: counted by the symmetry method and by the join
grep -E '^  16 +[0-9.]+ +[0-9.]+ ' build/gpu-rehearse.log ||
  { tail -n 40 build/gpu-rehearse.log; fail "bench/gpu.sh: no row of n = 16 by both methods"; }
grep -E '^14	1716	.*	365596	ok$' build/gpu-rehearse.log ||
  { tail -n 40 build/gpu-rehearse.log; fail "bench/gpu.sh: the join's kernels did not count n = 14"; }

# --- 5. fuzzing --------------------------------------------------------------------------
step "fuzzing, $fuzz_seconds s per target, $jobs at a time"
run_fuzz() {  # run_fuzz TARGET CORPUS: new inputs go to build/fuzz/TARGET.new
  rm -rf "build/fuzz/$1.new" && mkdir -p "build/fuzz/$1.new" &&
    "./build/fuzz/$1" -max_total_time="$fuzz_seconds" -max_len=4096 -timeout=10 \
      -artifact_prefix="build/fuzz/$1-" -print_final_stats=1 \
      "build/fuzz/$1.new" "$2" >"build/fuzz/$1.log" 2>&1 </dev/null
}
batch="" running=0 failed=""
wait_batch() {
  for p in $batch; do wait "${p%%:*}" || failed="$failed ${p#*:}"; done
  batch="" running=0
}
while read -r target corpus sources; do
  [ -n "$target" ] || continue
  run_fuzz "$target" "$corpus" &
  batch="$batch $!:$target" running=$((running + 1))
  [ "$running" -lt "$jobs" ] || wait_batch
done <<EOF
$fuzz_targets
EOF
wait_batch
for log in build/fuzz/*.log; do
  echo "$(basename "$log" .log): $(grep -E '^stat::number_of_executed_units' "$log" || echo '?')"
done
for target in $failed; do tail -n 40 "build/fuzz/$target.log"; done
[ -z "$failed" ] || fail "fuzzing found a fault in:$failed"

step "all tests passed; $(( $(date +%s) - t0 )) s in all"
