#!/bin/sh
# The GPU path on a machine with an NVIDIA GPU, in one go (under 8 minutes
# on one H100), most wanted first: builds nqueens with CUDA, runs the GPU
# tests, builds the fastest published GPU counter (ygch/n_queens) beside
# it, and prints them side by side for each size (nqueens by the symmetry
# method, its default on a GPU, and by the join); then the join's kernels
# on every split of each size (nq_gpu_join), with each of its two pairs
# kernels (a thread a job, a warp a job); the kernels' achieved occupancy
# and the share of a count's wall time spent in kernels, and where the
# join's kernels wait (Nsight Compute); the GPU's estimates of record
# counts; every kernel under compute-sanitizer; and the GPU's two walks
# (the step walk, which counts use, and the byte-stack walk) side by side
# on the same batches (nq_gpu_tune).
#
# usage: sh bench/gpu.sh [SIZES [ROUNDS]]   (default: "18 19 20 21", 3)
#   sizes above 20 are timed once, whatever ROUNDS says
# env:   NQ_GPU_BUILD=dir   build tree (default build/gpu)
#        NQ_YGCH=dir        where build-ygch is (default: .stage/peers, then
#                           ../shared/peers); NQ_YGCH=none times nqueens alone
#        NQ_GPU_ARCH=list   CUDA architectures (default 90: H100, H200)
#        NQ_GPU_TIMEOUT=s   longest single count (default 150)
#        NQ_NCU_N=n         the size profiled by ncu (default 18; none: skip)
#        NQ_TUNE=list       sizes of the cut's and walks' timing (default 20;
#                           none: skip),
#        NQ_TUNE_LEVELS=l   at these levels a task (default 11,13,15; at most 15), by
#        NQ_TUNE_WALKS=l    these walks (default step,stack)
#        NQ_JOIN=list       sizes whose every row split the join's kernels count
#                           (nq_gpu_join; default 16,17,18,19,20; none: skip)
#        NQ_JOIN_MAX=n      the largest size the side-by-side table counts by
#                           the join too (default 20; 0: none)
#        NQ_CMOCKA_DEBS=dir Debian packages of cmocka (libcmocka0, libcmocka-dev)
#                           to unpack where the machine has none, for the GPU
#                           tests (default .stage/debs: on this machine,
#                           `apt-get download libcmocka0 libcmocka-dev` there)
#        NQ_GPU_ESTIMATE=l  sizes whose GPU estimate is printed last (default
#                           "24 26 27 28"; none: skip)
#        NQ_GPU_CHECK=0     skip the memory and race checks of the kernels
#                           (compute-sanitizer, where it is installed)
#        NQ_GPU_BUDGET=s    seconds the script may take (default 480; no limit
#                           in a rehearsal): a step
#                           that would likely pass it (the checks, the
#                           timings of the kernels, the profiles, the
#                           estimates) is skipped, and says so; the table
#                           of times never is
#        NQ_GPU_KEEP=dir    where the script leaves gpu-files.tar.gz at its end:
#                           the build's log and Nsight Compute's CSV files
#        NQ_GPU_REHEARSE=1  the whole script on the emulated GPU of the tests
#                           (tests/gpu/emulator), on a machine without one:
#                           it checks the script, not the GPU, and its times
#                           mean nothing (e.g. NQ_GPU_REHEARSE=1 NQ_YGCH=none
#                           NQ_TUNE=16 NQ_NCU_N=none NQ_GPU_ESTIMATE=20
#                           sh bench/gpu.sh "16 17" 1)
# Every count is compared with the published total: a difference stops
# the script. Times are wall seconds of the whole process (start-up, the
# driver's and module's load included), median of the rounds.
set -eu
cd "$(dirname "$0")/.."
sizes=${1:-18 19 20 21}
rounds=${2:-3}
b=${NQ_GPU_BUILD:-build/gpu}
arch=${NQ_GPU_ARCH:-90}
limit=${NQ_GPU_TIMEOUT:-150}
ncu_n=${NQ_NCU_N:-18}
jobs=$(nproc 2>/dev/null || echo 4)
tmp=$(mktemp -d)
start=$(date +%s.%N)
keep=${NQ_GPU_KEEP:-}
case $keep in ''|/*) ;; *) keep=$PWD/$keep ;; esac
# keep_files: the build's log and the profiles, packed into $NQ_GPU_KEEP
keep_files() {
  [ -n "$keep" ] || return 0
  # shellcheck disable=SC2046 # names without blanks
  set -- $(cd "$tmp" && ls build.log ncu*.csv ncu*.err sanitizer*.log 2>/dev/null)
  if [ $# -gt 0 ] && mkdir -p "$keep"; then
    tar -czf "$keep/gpu-files.tar.gz" -C "$tmp" "$@" || true
  fi
}
trap 'keep_files; rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM

known() {  # known N: the published total (OEIS A000170)
  case $1 in
    16) echo 14772512 ;; 17) echo 95815104 ;; 18) echo 666090624 ;;
    19) echo 4968057848 ;; 20) echo 39029188884 ;; 21) echo 314666222712 ;;
    22) echo 2691008701644 ;; 23) echo 24233937684440 ;; *) echo "" ;;
  esac
}
now() { date +%s.%N; }
minus() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.3f\n", a - b}'; }
budget=${NQ_GPU_BUDGET:-480}
# room S WHAT: true when S seconds are left of the script's budget, else
# says that WHAT is skipped
room() {
  left=$(awk -v b="$budget" -v u="$(minus "$(now)" "$start")" 'BEGIN {printf "%d\n", b - u}')
  [ "$left" -ge "$1" ] && return 0
  echo "== $2: skipped, ${left} s left of the script's ${budget} s (NQ_GPU_BUDGET)"
  return 1
}
median() { sort -g | awk '{v[NR]=$1} END {print (NR % 2) ? v[(NR+1)/2] : (v[NR/2]+v[NR/2+1])/2}'; }

echo "== GPU: $(nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader 2>/dev/null || echo '?')"
echo "== CPU: $(grep -m1 'model name' /proc/cpuinfo | sed 's/.*: //') ($jobs online)"

# --- the peer, built in the background -----------------------------------
ygch_dir=${NQ_YGCH:-}
if [ -z "$ygch_dir" ]; then
  for d in .stage/peers ../shared/peers; do
    [ -f "$d/build-ygch" ] && { ygch_dir=$d; break; }
  done
fi
ygch_pid=""
if [ -n "$ygch_dir" ] && [ "$ygch_dir" != none ]; then
  bash "$ygch_dir/build-ygch" "$tmp/ygch" >"$tmp/ygch.log" 2>&1 &
  ygch_pid=$!
fi

# --- nqueens with CUDA ---------------------------------------------------
# cmocka, for the tests, from Debian packages carried here where the
# machine has none (they need only libc)
cmocka_dir=""
debs=${NQ_CMOCKA_DEBS:-.stage/debs}
if [ -d "$debs" ] && ls "$debs"/*.deb >/dev/null 2>&1; then
  for d in "$debs"/*.deb; do dpkg -x "$d" "$tmp/cmocka"; done
  cfg=$(find "$tmp/cmocka" -name cmocka-config.cmake | head -n 1)
  [ -n "$cfg" ] && cmocka_dir="-Dcmocka_DIR=$(dirname "$cfg")"
fi
t0=$(now)
cuda="-DNQ_CUDA=ON -DNQ_CUDA_ARCHITECTURES=$arch" emulator=""
if [ "${NQ_GPU_REHEARSE:-0}" = 1 ]; then
  echo "== a rehearsal on the emulated GPU: the script is checked, the times mean nothing"
  cuda="-DNQ_CUDA_EMULATOR=ON" emulator=nq_emu_cuda
  budget=${NQ_GPU_BUDGET:-1000000} # every step rehearsed, however slow the machine
  LD_LIBRARY_PATH=$PWD/$b/tests/emulator${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
  export LD_LIBRARY_PATH
fi
# shellcheck disable=SC2086 # lists of arguments, or none
cmake -S . -B "$b" -DCMAKE_BUILD_TYPE=Release $cuda -DNQ_BUILD_MPI=OFF $cmocka_dir \
      >"$tmp/build.log" 2>&1 &&
  cmake --build "$b" -j "$jobs" --target nqueens_exe nq_gpu_tune nq_gpu_join nq_warp_model \
      $emulator \
      >>"$tmp/build.log" 2>&1 ||
  { tail -n 40 "$tmp/build.log"; exit 1; }
tests=0
if cmake --build "$b" --target help | grep -q ' test_gpu$'; then
  cmake --build "$b" -j "$jobs" --target test_gpu test_gpu_walks test_gpu_join test_gpu_join_memory \
    test_sym_gpu test_join_gpu test_device \
    >>"$tmp/build.log" 2>&1 || { tail -n 40 "$tmp/build.log"; exit 1; }
  tests=1
fi
echo "== built in $(minus "$(now)" "$t0") s"
# registers, shared and local memory (spills) of each kernel, as nvcc built it
if command -v cuobjdump >/dev/null 2>&1; then
  for fatbin in "$b/cuda/nq_kernels.fatbin" "$b/cuda/nq_join_kernels.fatbin"; do
    [ -f "$fatbin" ] || continue
    echo "== kernel resources (cuobjdump -res-usage $(basename "$fatbin"))"
    cuobjdump -res-usage "$fatbin" 2>&1 | grep -E "arch|Function|REG" | head -n 24
  done
fi
nq=$b/nqueens
"$nq" --devices
echo "== the command on the GPU (nqueens --device=gpu --json 12)"
"$nq" --device=gpu --json 12 | tee "$tmp/j12"
if ! grep -q '"total":14200,.*"device":"gpu"' "$tmp/j12"; then
  echo "gpu.sh: not counted on the GPU"
  # which driver call failed, and how (the library says only that one did)
  if command -v compute-sanitizer >/dev/null 2>&1; then
    echo "== the same under compute-sanitizer (its API errors name the call)"
    timeout 120 compute-sanitizer "$nq" --device=gpu 12 2>&1 | tail -n 30
  fi
  exit 1
fi

# a failed test is reported and the timings still run (a GPU machine's
# time is short); the script's status says it at the end
tests_failed=0
gpu_tests='^(test_(gpu|gpu_walks|gpu_join|gpu_join_memory|sym_gpu|join_gpu|device)|gpu_e2e)$'
if [ $tests = 0 ]; then
  echo "== GPU unit tests not built: no cmocka here (see NQ_CMOCKA_DEBS)"
  gpu_tests='^gpu_e2e$'
fi
echo "== GPU tests"
ctest --test-dir "$b" -R "$gpu_tests" --output-on-failure -V 2>&1 |
  grep -E '^[0-9]+: (n = |stopped|gpu: |cpu: |ok - |not ok - |\[  (PASSED|FAILED|SKIPPED) |skipped)|tests passed|tests failed' || true
ctest --test-dir "$b" -R "$gpu_tests" >/dev/null 2>&1 ||
  { echo "gpu.sh: a GPU test failed (the timings follow)"; tests_failed=1; }

if [ -n "$ygch_pid" ]; then
  wait "$ygch_pid" || { cat "$tmp/ygch.log"; echo "gpu.sh: ygch did not build"; ygch_pid=""; }
fi

# run NAME N COMMAND...: one timed run; its wall seconds go to $tmp/NAME-N,
# its total is checked
run() {
  name=$1 n=$2
  shift 2
  s=$(now)
  timeout "$limit" "$@" >"$tmp/out" 2>"$tmp/err" || {
    echo "gpu.sh: '$*' failed or ran past ${limit} s"; cat "$tmp/err"; return 1; }
  e=$(now)
  got=$(grep -o '[0-9][0-9]*' "$tmp/out" | awk -v k="$(known "$n")" '$1 == k {print; exit}')
  [ -n "$got" ] || { echo "gpu.sh: '$*' printed $(head -c 200 "$tmp/out"), not $(known "$n")"; exit 1; }
  minus "$e" "$s" >>"$tmp/$name-$n"
}

join_max=${NQ_JOIN_MAX:-20}
echo "== side by side (wall seconds, median of $rounds; n > 20: one run)"
for n in $sizes; do
  r=$rounds
  [ "$n" -gt 20 ] && r=1
  i=0
  while [ $i -lt "$r" ]; do
    run nq "$n" "$nq" --device=gpu "$n" || break
    if [ "$n" -le "$join_max" ]; then
      run nqj "$n" "$nq" --device=gpu --method=join "$n" || true
    fi
    if [ -n "$ygch_pid" ]; then
      run y3 "$n" "$tmp/ygch/ygch3" "$n" 5 || true
      run y2 "$n" "$tmp/ygch/ygch2" "$n" 6 || true
    fi
    i=$((i + 1))
  done
done
# best/ours: the peer's better setting over our better method
printf '%4s %12s %12s %12s %12s %12s\n' n "nq symmetry" "nq join" "ygch3 N 5" "ygch2 N 6" "best/ours"
for n in $sizes; do
  ours=$( [ -f "$tmp/nq-$n" ] && median <"$tmp/nq-$n" || echo -)
  jn=$( [ -f "$tmp/nqj-$n" ] && median <"$tmp/nqj-$n" || echo -)
  y3=$( [ -f "$tmp/y3-$n" ] && median <"$tmp/y3-$n" || echo -)
  y2=$( [ -f "$tmp/y2-$n" ] && median <"$tmp/y2-$n" || echo -)
  ratio=$(echo "$ours $jn $y3 $y2" | awk '{o=$1; if ($2 != "-" && (o == "-" || $2 < o)) o=$2;
          b=""; if ($3 != "-") b=$3; if ($4 != "-" && (b == "" || $4 < b)) b=$4;
          if (b == "" || o == "-" || o == 0) print "-"; else printf "%.2fx", b / o}')
  printf '%4s %12s %12s %12s %12s %12s\n' "$n" "$ours" "$jn" "$y3" "$y2" "$ratio"
done

# the join's kernels: every split of each size, described on the host and
# counted on the GPU, in batches of 4,096 splits
join=${NQ_JOIN:-16,17,18,19,20}
if [ "$join" != none ] && room 120 "nq_gpu_join"; then
  echo "== the join's kernels (nq_gpu_join $join; seconds: describing on one host thread, counting on the GPU; the pairs a thread or a warp a job)"
  timeout 240 "$b/nq_gpu_join" "$join" || echo "gpu.sh: nq_gpu_join failed or ran past 240 s"
fi

# --- occupancy, SIMT efficiency and time in kernels ----------------------
# ncu_report CSV [WALL]: per kernel, from ncu's CSV (columns found by their
# header): launches, kernel seconds (and their share of WALL), achieved and
# theoretical occupancy, threads at work a warp instruction (of 32: what
# bench/nq_warp_model calls lane efficiency) and warp instructions issued
ncu_report() {
  awk -F'","' -v wall="${2:-}" '
    NR == 1 || !name_col {
      for (i = 1; i <= NF; i++) { h = $i; gsub(/"/, "", h); col[h] = i }
      name_col = col["Kernel Name"]; metric_col = col["Metric Name"];
      unit_col = col["Metric Unit"]; value_col = col["Metric Value"]; next }
    {
      k = $name_col; sub(/\(.*/, "", k); m = $metric_col; v = $value_col;
      gsub(/"/, "", v); gsub(/,/, "", v); kernels[k] = 1
      if (m == "gpu__time_duration.sum") {
        u = $unit_col; f = (u ~ /^us/ || u ~ /usecond/) ? 1e-6 : (u ~ /^ms/ || u ~ /msecond/) ? 1e-3 : 1e-9
        t[k] += v * f; n[k]++ }
      if (m == "sm__warps_active.avg.pct_of_peak_sustained_active") { o[k] += v; on[k]++ }
      if (m == "sm__maximum_warps_per_active_cycle_pct") th[k] = v
      if (m == "smsp__thread_inst_executed_per_inst_executed.ratio") { r[k] += v; rn[k]++ }
      if (m == "smsp__inst_executed.sum") ins[k] += v
    }
    END {
      for (k in kernels) {
        share = (wall != "" && wall > 0) ? sprintf(" (%.0f%% of %.3f s wall)", 100 * t[k] / wall, wall) : ""
        printf "%s: launches %d, kernel time %.3f s%s, achieved occupancy %.1f%% (theoretical %s%%), threads a warp instruction %.1f of 32, warp instructions %.4g\n",
               k, n[k], t[k], share, on[k] ? o[k] / on[k] : 0, th[k], rn[k] ? r[k] / rn[k] : 0, ins[k] }
    }' "$1"
}
ncu_metrics=gpu__time_duration.sum,sm__warps_active.avg.pct_of_peak_sustained_active,sm__maximum_warps_per_active_cycle_pct,smsp__thread_inst_executed_per_inst_executed.ratio,smsp__inst_executed.sum
if [ "$ncu_n" != none ] && command -v ncu >/dev/null 2>&1 && room 60 "Nsight Compute"; then
  echo "== ncu, n = $ncu_n: the count's kernels (nqueens --device=gpu $ncu_n)"
  s=$(now)
  "$nq" --device=gpu "$ncu_n" >/dev/null
  wall=$(minus "$(now)" "$s")
  if timeout 240 ncu --csv --clock-control none --metrics "$ncu_metrics" "$nq" --device=gpu "$ncu_n" \
       >"$tmp/ncu.csv" 2>"$tmp/ncu.err"; then
    ncu_report "$tmp/ncu.csv" "$wall"
  else
    echo "ncu failed:"; tail -n 5 "$tmp/ncu.err"
  fi
  echo "== ncu, n = $ncu_n: both walks on the same batches (nq_gpu_tune $ncu_n 15 65536 step,stack)"
  if timeout 240 ncu --csv --clock-control none --metrics "$ncu_metrics" "$b/nq_gpu_tune" "$ncu_n" 15 65536 step,stack \
       >"$tmp/ncu2.csv" 2>"$tmp/ncu2.err"; then
    ncu_report "$tmp/ncu2.csv"
    echo "(the model of the same, no GPU: $b/nq_warp_model $ncu_n)"
  else
    echo "ncu failed:"; tail -n 5 "$tmp/ncu2.err"
  fi
  if [ "$join" != none ]; then
    echo "== ncu, n = $ncu_n: the join's count's kernels (nqueens --device=gpu --method=join $ncu_n; its model: nq_join_gpu_model $ncu_n)"
    s=$(now)
    "$nq" --device=gpu --method=join "$ncu_n" >/dev/null
    wall=$(minus "$(now)" "$s")
    if timeout 240 ncu --csv --clock-control none --metrics "$ncu_metrics" "$nq" --device=gpu --method=join "$ncu_n" \
         >"$tmp/ncu4.csv" 2>"$tmp/ncu4.err"; then
      ncu_report "$tmp/ncu4.csv" "$wall"
    else
      echo "ncu failed:"; tail -n 5 "$tmp/ncu4.err"
    fi
    # where the listing and the pairs wait: their first launches, by
    # Nsight Compute's sections (throughputs, cache hits, stalls,
    # occupancy and what limits it), each metric of the first launch
    for k in nq_join_list_kernel nq_join_pairs_kernel; do
      room 60 "the sections of $k" || break
      echo "== ncu, n = $ncu_n: $k, its first launch by sections"
      if timeout 180 ncu --csv --clock-control none -k "$k" -c 2 --section SpeedOfLight \
           --section MemoryWorkloadAnalysis --section WarpStateStats --section Occupancy \
           "$nq" --device=gpu --method=join "$ncu_n" >"$tmp/ncu-$k.csv" 2>"$tmp/ncu-$k.err"; then
        awk -F'","' '!c["ID"] { if (index($0, "Metric Name")) for (i = 1; i <= NF; i++) { h = $i; gsub(/"/, "", h); c[h] = i }; next }
          first == "" { first = $c["ID"] }
          $c["ID"] == first { v = $c["Metric Value"]; gsub(/"/, "", v)
            printf "  %-24s %-44s %s %s\n", $c["Section Name"], $c["Metric Name"], v, $c["Metric Unit"] }' \
          "$tmp/ncu-$k.csv"
      else
        echo "ncu failed:"; tail -n 5 "$tmp/ncu-$k.err"
      fi
    done
  fi
  if [ -n "$ygch_pid" ]; then
    # the peer's kernel by the same measures: its instructions against the
    # model's 29 a node and the nodes nq_warp_model counts for its method
    echo "== ncu, n = $ncu_n: the published counter's kernel (ygch3 $ncu_n 5; its model: nq_warp_model $ncu_n 65536 118272 64 5)"
    if timeout 240 ncu --csv --clock-control none --metrics "$ncu_metrics" "$tmp/ygch/ygch3" "$ncu_n" 5 \
         >"$tmp/ncu3.csv" 2>"$tmp/ncu3.err"; then
      ncu_report "$tmp/ncu3.csv"
    else
      echo "ncu failed:"; tail -n 5 "$tmp/ncu3.err"
    fi
  fi
fi

# --- record counts: estimates on this GPU (timed samples to n = 24, the
# --- symmetry method's cost model priced on this GPU from n = 25) --------
if [ "${NQ_GPU_ESTIMATE:-24 26 27 28}" != none ] && room 30 "the estimates"; then
  echo "== estimates on this GPU (nqueens --device=gpu --estimate --labels ${NQ_GPU_ESTIMATE:-24 26 27 28})"
  # shellcheck disable=SC2086 # a list of sizes
  timeout 150 "$nq" --device=gpu --estimate --labels ${NQ_GPU_ESTIMATE:-24 26 27 28} ||
    echo "gpu.sh: the estimates failed or ran past 150 s"
fi

# memory and race checks of every kernel on small counts: out-of-bounds
# and misaligned accesses (memcheck), hazards in shared memory between a
# block's threads (racecheck), the warp kernels' barriers (synccheck)
if [ "${NQ_GPU_CHECK:-1}" != 0 ] && [ -z "$emulator" ] &&
   command -v compute-sanitizer >/dev/null 2>&1 && room 90 "compute-sanitizer"; then
  echo "== kernels under compute-sanitizer (memcheck, racecheck, synccheck)"
  for tool in memcheck racecheck synccheck; do
    i=0
    for cmd in "$nq --device=gpu 11" "$b/nq_gpu_tune 12 9,11 65536 step,stack" \
               "$b/nq_gpu_join 11 4096 thread,warp"; do
      i=$((i + 1))
      log=$tmp/sanitizer-$tool-$i.log
      # shellcheck disable=SC2086 # the command's words
      if timeout 120 compute-sanitizer --tool "$tool" --error-exitcode 9 $cmd >"$log" 2>&1; then
        echo "$tool: ok: $cmd"
      else
        echo "$tool: FAILED ($?): $cmd"; tests_failed=1
        grep -m 12 -E 'Error|ERROR|Hazard|Invalid|Program hit|at 0x|by thread' "$log" || true
      fi
    done
  done
fi

# the cut of units into tasks and the two walks: host and GPU time by
# levels a task walks, each walk on the same batches
tune=${NQ_TUNE:-20} tune_levels=${NQ_TUNE_LEVELS:-11,13,15} tune_walks=${NQ_TUNE_WALKS:-step,stack}
if [ "$tune" != none ] && room 60 "nq_gpu_tune"; then
  echo "== the cut into tasks and the walks (nq_gpu_tune $tune $tune_levels 65536 $tune_walks)"
  timeout 180 "$b/nq_gpu_tune" "$tune" "$tune_levels" 65536 "$tune_walks" ||
    echo "gpu.sh: nq_gpu_tune failed or ran past 180 s"
fi

echo "== gpu.sh: $(minus "$(now)" "$start") s in all"
[ $tests_failed = 0 ] || { echo "gpu.sh: a GPU test failed (see above)"; exit 1; }
