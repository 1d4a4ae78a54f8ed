#!/bin/sh
# The command line on a GPU (label gpu): skipped, with the reason, where
# `nqueens --devices` lists none. Counts against the known values, the JSON
# device field, --device=auto, a checkpoint interrupted on the GPU and
# finished on the CPU (and the other way round), parts of both devices
# merged, and a stop within a second of Ctrl-C.
#
# On the emulated GPU of a build with NQ_CUDA_EMULATOR (tests/gpu/emulator)
# the driver's faults are played too (NQ_EMU_*): no GPU, too little GPU
# memory, a failed allocation or launch, and a GPU lost in the middle of a
# count with a checkpoint. Each is one line on stderr, a non-zero status,
# nothing on stdout, and no finished unit lost.
bin=$1
. "$(dirname "$0")/../helpers/e2e_lib.sh"

need_gpu

totals="1 0 0 2 10 4 40 92 352 724 2680 14200 73712"
n=1 ok=1
for want in $totals; do
  got=$("$bin" --device=gpu "$n" 2>"$work/err")
  [ "$got" = "$want" ] && [ ! -s "$work/err" ] || { ok=0; echo "n = $n: '$got', wanted $want"; }
  n=$((n + 1))
done
report "--device=gpu counts n = 1 to 13 as known" $ok

out=$("$bin" --device=gpu --json -u 11)
printf '%s\n' "$out" | grep -q '^{"n":11,"total":2680,"unique":341,"method":"symmetry",.*"device":"gpu"}$'
report "--device=gpu --json: total, unique count, method and device" $((! $?))

# an estimate says where it would run: in JSON, and in words
out=$("$bin" --device=gpu --estimate --json 12)
printf '%s\n' "$out" | grep -q '^{"n":12,.*"threads":1,"method":"symmetry","device":"gpu",.*"text":"[^"]* on one GPU, [^"]*"}$' &&
  "$bin" --device=gpu --estimate --labels 12 | tail -n 1 | grep -q '	symmetry	.* on one GPU, ' &&
  "$bin" --device=cpu --estimate --json 12 | grep -q '"device":"cpu",.*"text":"[^"]* with [0-9]* threads*, '
report "--device=gpu --estimate: the device in JSON, 'on one GPU' in words" $((! $?))
"$bin" --device=gpu --method=join --estimate --json 13 |
  grep -q '^{"n":13,.*"threads":1,"method":"join","device":"gpu",.*"text":"[^"]* on one GPU, [^"]*"}$'
report "--device=gpu --method=join --estimate: the join's units timed on the GPU" $((! $?))

out=$("$bin" --device=auto --json 8)
printf '%s\n' "$out" | grep -q '"total":92,.*"device":"cpu"}$'
report "--device=auto keeps a small board on the CPU" $((! $?))

out=$("$bin" --device=gpu --method=join --json 13)
printf '%s\n' "$out" | grep -q '^{"n":13,"total":73712,"method":"join",.*"device":"gpu"}$'
report "--device=gpu --method=join: the join's units on the GPU" $((! $?))

"$bin" --device=gpu --method=plain 10 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && [ ! -s "$work/out" ] &&
  head -n 1 "$work/err" | grep -q "^nqueens: --device=gpu counts with the symmetry and join methods, not --method=plain$"
report "--device=gpu with the plain walk: a usage error" $((! $?))

# parts counted on either device merge into the exact count, by either
# method the GPU runs
for m in symmetry join; do
  "$bin" --device=gpu -m $m --part 1/3 --json 14 >"$work/p1" &&
    "$bin" --device=cpu -m $m --part 2/3 --json 14 >"$work/p2" &&
    "$bin" --device=gpu -m $m --part 3/3 --json 14 >"$work/p3" &&
    [ "$("$bin" --merge "$work/p1" "$work/p2" "$work/p3")" = 365596 ]
  report "parts of the GPU and the CPU merge into the exact count ($m)" $((! $?))
done

# interrupt FIRST SECOND N TOTAL [METHOD]: a checkpointed count on device
# FIRST (by METHOD, default symmetry), stopped by SIGINT once it has
# saved, stops within a second with status 130 and the units saved;
# device SECOND resumes the file to the exact total. On the emulated GPU,
# which the full test command runs beside other jobs, the host's threads
# may wait seconds for a core: there the limit (30 s) only ends a hang,
# and the status and the message show that it stopped.
stop_ms=1000
[ "$emulated" = 1 ] && stop_ms=30000
interrupt() {
  ck=$work/$1.ckpt method=${5:-symmetry}
  rm -f "$ck"
  "$bin" --device="$1" -m "$method" -j 1 --checkpoint-interval=0 --checkpoint "$ck" "$3" \
    >"$work/out" 2>"$work/err" &
  pid=$!
  wait_saved "$ck" $pid
  t0=$(date +%s%N)
  kill -INT $pid 2>/dev/null
  wait $pid; status=$?
  ms=$((($(date +%s%N) - t0) / 1000000))
  echo "$1: stopped $ms ms after SIGINT"
  saved=$(sed -n 's/^nqueens: interrupted by SIGINT; \([0-9]*\) of [0-9]* units are saved in .*/\1/p' "$work/err")
  [ $status -eq 130 ] && [ ! -s "$work/out" ] && [ -n "$saved" ] && [ "$saved" -gt 0 ] &&
    [ $ms -lt $stop_ms ] || { cat "$work/err"; return 1; }
  out=$("$bin" --device="$2" -m "$method" --progress --checkpoint "$ck" "$3" 2>"$work/err") &&
    [ "$out" = "$4" ] && grep -q "^nqueens: resuming: $saved of " "$work/err" ||
    { cat "$work/err"; return 1; }
}
# (a GPU counts n = 17 in a fraction of a second: it is given 19)
for m in symmetry join; do
  if [ "$emulated" = 1 ]; then
    interrupt gpu cpu 17 95815104 $m
  else
    interrupt gpu cpu 19 4968057848 $m
  fi
  report "a checkpoint interrupted on the GPU within a second, finished on the CPU ($m)" $((! $?))
  interrupt cpu gpu 17 95815104 $m
  report "a checkpoint interrupted on the CPU, finished on the GPU ($m)" $((! $?))
done

if [ "$emulated" = 0 ]; then
  finish
fi

# --- the emulated driver's faults ------------------------------------------------
# fault NAME STATUS PATTERN ENV...: `nqueens --device=gpu -m $method 12`
# with ENV ends with STATUS and one line on stderr that matches PATTERN,
# nothing on stdout
fault() {
  name="$1 ($method)" want=$2 pattern=$3
  shift 3
  env "$@" "$bin" --device=gpu -m "$method" 12 >"$work/out" 2>"$work/err"; status=$?
  [ $status -eq "$want" ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
    grep -q "$pattern" "$work/err"
  ok=$?
  [ $ok -eq 0 ] || { echo "status $status:"; cat "$work/err"; }
  report "$name" $((! ok))
}
# one fault a line: NAME|STATUS|PATTERN|ENV (read on fd 3: the command
# run by fault keeps its own stdin)
for method in symmetry join; do
  while IFS='|' read -r case_name case_status case_pattern case_env <&3; do
    fault "$case_name" "$case_status" "$case_pattern" "$case_env"
  done 3<<'EOF'
a driver without GPUs: status 2, says so|2|^nqueens: --device=gpu: the NVIDIA driver shows no GPU$|NQ_EMU_GPUS=0
a driver that does not start: status 2, says so|2|^nqueens: --device=gpu: the GPU or its driver failed$|NQ_EMU_FAIL=cuInit
no GPU memory for the buffers: says so|1|^nqueens: n = 12: the GPU ran out of memory$|NQ_EMU_FAIL=cuMemAlloc_v2
a GPU with too little memory: status 2, says so|2|^nqueens: --device=gpu: the GPU's memory (4.0 KiB) is too small for a count's buffers; --device=cpu counts on the CPU$|NQ_EMU_GPU_MEMORY=4096
a failed launch: says so|1|^nqueens: n = 12: the GPU or its driver failed$|NQ_EMU_FAIL=cuLaunchKernel
a kernel that fails while it runs: says so|1|^nqueens: n = 12: the GPU or its driver failed$|NQ_EMU_FAIL=cuStreamQuery
EOF
done

# a GPU that miscounts the join's keys (one atomic add of its listing
# kernel, or of the kernel that sorts the listed keys into buckets,
# dropped, early to late): every count is either the exact total or a
# failure of one line with nothing on stdout, never a wrong total; and
# the drops that change what a listing found or where a key goes (a key's
# place or count, a part's sum, a task fetched twice) are caught: some
# fail. (A dropped add can also be harmless: an empty task fetched twice.)
for kernel in list sort; do
  ok=1 caught=0 tries=0
  for k in 1 7 50 300 1000 3000 10000; do
    NQ_EMU_DROP=nq_join_${kernel}_kernel:$k "$bin" --device=gpu -m join 12 >"$work/out" 2>"$work/err"
    status=$?
    tries=$((tries + 1))
    if [ $status -eq 0 ]; then
      [ "$(cat "$work/out")" = 14200 ] && [ ! -s "$work/err" ] ||
        { ok=0; echo "add $k of the $kernel kernel dropped: '$(cat "$work/out")'"; }
    elif [ $status -eq 1 ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
         grep -q "^nqueens: n = 12: the GPU or its driver failed$" "$work/err"; then
      caught=$((caught + 1))
    else
      ok=0; echo "add $k of the $kernel kernel dropped: status $status"; cat "$work/err"
    fi
  done
  [ $ok -eq 1 ] && [ $caught -gt 0 ]
  report "a GPU whose join $kernel kernel drops an add: the exact total or a failure ($caught of $tries failed)" $((! $?))
done

# a GPU whose pairs kernel drops an add miscounts with no check of its own
# to see it: the finished total is compared with the published one, so
# the count fails (status 1, one line with both numbers and the way to
# find the bad units, nothing on stdout) and is never printed, whether
# plain, in JSON, as part 1/1 or with a checkpoint (which it then names)
ok=1 tries=0
for k in 1 5 20; do
  for how in "" --json "--part 1/1" "--checkpoint $work/drop$k.ckpt"; do
    NQ_EMU_DROP=nq_join_pairs_kernel:$k "$bin" --device=gpu -m join $how 12 >"$work/out" 2>"$work/err"
    status=$?
    tries=$((tries + 1))
    file=${how#--checkpoint }
    [ "$file" = "$how" ] && file=FILE
    [ $status -eq 1 ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
      grep -q "^nqueens: n = 12: the count gives [0-9]* solutions, not the published 14200: .*'nqueens --recheck $file' finds the" "$work/err" ||
      { ok=0; echo "add $k of the pairs kernel dropped ($how): status $status, '$(cat "$work/out")'"; cat "$work/err"; }
  done
done
[ $ok -eq 1 ]
report "a GPU whose pairs kernel drops an add: the count fails, never a wrong total ($tries tries)" $((! $?))
NQ_EMU_DROP=nq_join_pairs_kernel:5 "$bin" --check --device=gpu -m join 12 >"$work/out" 2>"$work/err"
status=$?
[ $status -eq 1 ] && grep -q "^12	[0-9]*	-	14200	1787	MISMATCH\$" "$work/out" &&
  ! grep -q "^12	14200	" "$work/out" && grep -q "^nqueens: 1 count differs from the known values\$" "$work/err"
report "--check of that GPU: the line says MISMATCH, status 1 (status $status)" $((! $?))
# an estimate of so small a count counts it whole in the end, when the
# machine is quick enough to reach that within its budget (its samples
# grow as the time allows): that count is compared too, and the estimate
# fails, saying so; an estimate that ran out of time first counted only
# samples, which have nothing to compare, and says "exact":false (every
# 50th add of the pairs kernel dropped, so that the whole count meets the
# fault wherever the samples end)
NQ_EMU_DROP=nq_join_pairs_kernel:50+ "$bin" --estimate --json --device=gpu -m join 12 \
  >"$work/out" 2>"$work/err"
status=$?
if [ $status -eq 1 ]; then
  [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
    grep -q "^nqueens: n = 12: the estimate counted every unit, and the count is not the published one: .*--check" "$work/err"
else
  [ $status -eq 0 ] && grep -q '"exact":false' "$work/out" && [ ! -s "$work/err" ]
fi
report "--estimate of that GPU: the whole count's miscount said, or only samples counted (status $status)" $((! $?))

# a card with less free memory than a count's share (320 MiB: 32 MiB
# for each worker past the driver's margin) counts in what it has, in
# smaller pieces; with 280 MiB (12 MiB each), less than a GPU opens with,
# it is refused before counting, as no rerun fits (above: 4 KiB)
for method in symmetry join; do
  out=$(NQ_EMU_GPU_MEMORY=335544320 "$bin" --device=gpu -m "$method" 14 2>"$work/err")
  [ "$out" = 365596 ] && [ ! -s "$work/err" ]
  report "a card smaller than a count's share: counted within it ($method)" $((! $?))
  fault "a card too small for a worker's least: status 2, says so" 2 \
    "^nqueens: --device=gpu: the GPU's memory (280 MiB) is too small for a count's buffers; --device=cpu counts on the CPU$" \
    NQ_EMU_GPU_MEMORY=293601280
done

# a GPU lost in the middle of a checkpointed count keeps what was finished:
# the file holds the units done before, and the rerun finishes the count
# (lost LAUNCH METHOD UNITS: the launch that fails, of the method's count
# of n = 16 and its units)
lost() {
  ck=$work/lost-$2.ckpt
  NQ_EMU_FAIL=cuLaunchKernel:$1 "$bin" --device=gpu -m "$2" -j 1 --checkpoint-interval=0 \
    --checkpoint "$ck" 16 >"$work/out" 2>"$work/err"; status=$?
  saved=$(sed -n "s/^nqueens: n = 16: the GPU or its driver failed; \([0-9]*\) of $3 units are saved in .*lost-$2.ckpt.*: run the same command again to resume\$/\1/p" "$work/err")
  [ $status -ne 0 ] && [ ! -s "$work/out" ] && [ -n "$saved" ] && [ "$saved" -gt 0 ] &&
    out=$("$bin" --device=gpu -m "$2" --progress --checkpoint "$ck" 16 2>"$work/err2") &&
    [ "$out" = 14772512 ] && grep -q "^nqueens: resuming: $saved of " "$work/err2"
  ok=$?
  [ $ok -eq 0 ] || { echo "status $status:"; cat "$work/err" "$work/err2" 2>/dev/null; }
  report "a GPU lost mid-count: the finished units kept, the rerun exact ($2)" $((! ok))
}
# (a unit's count is kept once its worker has gone on to its next call:
# the symmetry method launches one kernel a call, so of the 3 launches
# before the 4th one worker made 2 at least; the join at most six (two
# listings, the layout, the sort, the check, the pairs: one piece a call
# at n = 16), so of the 23 before the 24th one worker made 12 at least)
lost 4 symmetry 524
lost 24 join 12870

finish
