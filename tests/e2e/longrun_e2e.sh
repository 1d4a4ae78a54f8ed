#!/bin/sh
# Long runs, end to end: kill -9 and resume, SIGINT/SIGTERM, corrupted
# checkpoints, progress on stderr only, and parts merged back together.
# usage: longrun_e2e.sh PATH/TO/nqueens
set -u
bin=$1
. "$(dirname "$0")/../helpers/e2e_lib.sh"
ck=$work/run.ckpt

# --- kill -9 at random moments, then resume ------------------------------------
# Each try is killed somewhere in its first second; the checkpoint is saved
# continuously (--checkpoint-interval 0), so work accumulates across tries.
# The last try waits for a saved unit first (on a busy machine the others
# may all end before their first save), then for its random moment.
sizes=""
for try in 1 2 3 4 5 6; do
  delay=$(awk -v s="$$$try" 'BEGIN { srand(s); printf "%.2f", 0.15 + rand() * 0.6 }')
  "$bin" --no-progress --checkpoint "$ck" --checkpoint-interval 0 -j 2 16 >"$work/out" 2>"$work/err" &
  pid=$!
  [ $try -eq 6 ] && wait_saved "$ck" "$pid"
  sleep "$delay"
  kill -9 "$pid" 2>/dev/null
  wait "$pid" 2>/dev/null
  sizes="$sizes $(wc -c <"$ck" 2>/dev/null || echo 0)"
done
echo "# checkpoint sizes after each kill:$sizes"
out=$("$bin" --checkpoint "$ck" 16 2>"$work/err")
[ "$out" = 14772512 ] && [ ! -s "$work/err" ]; report "kill -9 six times, resume: exact count" $((! $?))
# the kills saved work: the last file holds more than a header
last=${sizes##* }
[ "$last" -gt 48 ]; report "killed runs left finished units behind" $((! $?))
# a finished checkpoint answers at once, again
out=$("$bin" --checkpoint "$ck" 16 2>/dev/null)
[ "$out" = 14772512 ]; report "finished checkpoint gives the count again" $((! $?))

# --- corrupted, truncated and foreign checkpoints are refused --------------------
cp "$ck" "$work/good"
size=$(wc -c <"$ck")
head -c $((size - 5)) "$work/good" >"$ck"
"$bin" --checkpoint "$ck" 16 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && [ ! -s "$work/out" ] && grep -q "^nqueens: .*corrupted.*refusing" "$work/err"
report "truncated checkpoint refused" $((! $?))
{ head -c 60 "$work/good"; printf 'X'; tail -c +62 "$work/good"; } >"$ck"
[ "$(wc -c <"$ck")" -eq "$size" ] || echo "# (flip changed the size)"
"$bin" --checkpoint "$ck" 16 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && [ ! -s "$work/out" ] && grep -q "refusing" "$work/err"
report "flipped byte refused" $((! $?))
cp "$work/good" "$ck"
"$bin" --checkpoint "$ck" 15 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && grep -q "^nqueens: .* holds n = 16, not 15; refusing" "$work/err"
report "checkpoint of another n refused, naming both" $((! $?))
"$bin" --checkpoint "$ck" --method=plain 16 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && grep -q "^nqueens: .* holds method join, not plain (--method=join resumes it); refusing" "$work/err"
report "checkpoint of another method refused, naming both" $((! $?))
# a run of the default method resumes a file that another method began
# (the default of an older version, or a named method)
rm -f "$ck"
"$bin" --checkpoint "$ck" --method=plain 14 >/dev/null 2>&1
out=$("$bin" --checkpoint "$ck" 14 2>"$work/err"); status=$?
[ $status -eq 0 ] && [ "$out" = 365596 ] && [ ! -s "$work/err" ]
report "default method resumes a checkpoint of another method" $((! $?))

# --- SIGINT and SIGTERM: stop, save, say how to resume, exit 128+signal ----------
# n = 19 lasts about ten seconds on two threads, so a signal soon after its
# first unit finds it counting.
for sig in INT TERM; do
  rm -f "$ck"
  want=130; [ $sig = TERM ] && want=143
  "$bin" --no-progress --checkpoint "$ck" --checkpoint-interval=0 -j 2 19 \
    >"$work/out" 2>"$work/err" &
  pid=$!
  # signalled once a unit is saved, however slow the machine is today
  wait_saved "$ck" "$pid"
  start=$(date +%s)
  kill -$sig "$pid"
  wait "$pid"; status=$?
  took=$(( $(date +%s) - start ))
  echo "# SIG$sig: stopped in about $took s"
  # (the status and the message show that it stopped, not finished: the
  # limit of the wait only ends a hang, on a machine however busy)
  [ $status -eq $want ] && [ ! -s "$work/out" ] && [ "$took" -le 60 ] &&
    grep -q "^nqueens: interrupted by SIG$sig; [1-9][0-9]* of [0-9]* units are saved in .*resume" "$work/err" &&
    [ "$(wc -l <"$work/err")" -eq 1 ] && [ -s "$ck" ]
  report "SIG$sig: exit $want, units saved" $((! $?))
done
# resume the interrupted n = 19 for one part only, to keep this short
out=$("$bin" --checkpoint "$ck" --part 1/64 --json --progress 19 2>"$work/err")
echo "$out" | grep -q '"part":1,"parts":64'; report "resumed run with --part" $((! $?))
k=$(sed -n 's/^nqueens: resuming: \([0-9]*\) of \([0-9]*\) units already done$/\1 \2/p' "$work/err")
[ -n "$k" ] && [ "${k% *}" -gt 0 ] && [ "${k% *}" -lt "${k#* }" ]
report "resuming says how many units were already done ($k)" $((! $?))

# --- progress goes to stderr only ---------------------------------------------------
out=$("$bin" --progress 16 2>"$work/err")
[ "$out" = 14772512 ] && grep -q "units" "$work/err"; report "--progress: stdout untouched, stderr has progress" $((! $?))
out=$("$bin" --no-progress 16 2>"$work/err")
[ "$out" = 14772512 ] && [ ! -s "$work/err" ]; report "--no-progress: silent" $((! $?))

# on a terminal, the line is redrawn with carriage returns and cleared at
# the end (on a terminal that names its type: one with TERM empty or unset
# gets plain lines, which tty_e2e checks)
if command -v script >/dev/null 2>&1; then
  script -qec "TERM=xterm $bin --progress -j 1 16" "$work/tty" >/dev/null 2>&1 </dev/null
  grep -q "14772512" "$work/tty" && grep -q "$(printf '\r')n = 16: .*units" "$work/tty" &&
    grep -q "$(printf '\033')\[K" "$work/tty"
  report "--progress on a terminal: redrawn line, count on stdout" $((! $?))
  # a 40-column terminal: no drawn line reaches the last column
  script -qec "stty cols 40; TERM=xterm $bin --progress -j 1 16" "$work/tty" >/dev/null 2>&1 </dev/null
  tr '\r' '\n' <"$work/tty" | sed "s/$(printf '\033')\[K//g" | grep "n = 16\|%" >"$work/lines"
  [ -s "$work/lines" ] && awk 'length > 39 { bad = 1 } END { exit bad }' "$work/lines"
  report "--progress on a 40-column terminal: every line fits in 39 columns" $((! $?))
  # a count that will clearly take long says how long first (stopped by
  # SIGINT once the notice is out, however long that took), with each
  # method: n = 20 takes the symmetry method about 15 minutes on one
  # thread, but the join little more than one, so the join counts 21 (over
  # 10 minutes), whose table takes a few seconds to build under the
  # sanitizers before the notice
  for m in join:21 symmetry:20; do
    n=${m#*:} m=${m%%:*}
    rm -f "$work/tty" "$work/pid"
    script -qfec "sh -c 'echo \$\$ >$work/pid; exec $bin -m $m -j 1 $n'" "$work/tty" \
      >/dev/null 2>&1 </dev/null &
    spid=$!
    i=0
    while [ $i -lt 6000 ] && kill -0 $spid 2>/dev/null &&
      ! grep -q "^nqueens: n = $n: .* of memory" "$work/tty" 2>/dev/null; do
      sleep 0.05; i=$((i + 1))
    done
    [ -s "$work/pid" ] && kill -INT "$(cat "$work/pid")" 2>/dev/null
    wait $spid
    grep -Eq "^nqueens: n = $n: (about [0-9.]+ (minutes|hours|days|years) \([0-9.]+ to [0-9.]+ (minutes|hours|days|years)\)|at least [0-9.]+ (minutes|hours|days|years)) with 1 thread, [0-9.]+ [KMG]iB of memory(, [0-9.e+]+ core-hours)?" "$work/tty"
    report "a long count on a terminal says how long it will take ($m, n = $n)" $((! $?))
  done
fi

# --- parts and merge ------------------------------------------------------------------
for m in 1 2 3 7; do
  k=1
  : >"$work/parts"
  while [ $k -le $m ]; do
    "$bin" --part $k/$m --json 12 >"$work/part$k.json" || break
    k=$((k + 1))
  done
  total=$("$bin" --merge "$work"/part*.json)
  unique=$(cat "$work"/part*.json | "$bin" --merge --unique)
  [ "$total" = 14200 ] && [ "$unique" = 1787 ]; report "n = 12 in $m parts merges to 14200 / 1787" $((! $?))
  rm -f "$work"/part*.json
done
for k in 1 2 4; do "$bin" --part $k/4 --json 11 >"$work/p$k.json"; done
"$bin" --merge "$work"/p*.json >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 1 ] && [ ! -s "$work/out" ] && grep -q "1 of 4 parts missing: 3" "$work/err"
report "merge names a missing part" $((! $?))
"$bin" --merge "$work/p1.json" "$work/p1.json" "$work/p2.json" >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 1 ] && grep -q "part 1/4 appears twice" "$work/err"
report "merge names a duplicated part" $((! $?))
"$bin" --part 3/4 --json --method=plain 11 >"$work/p3.json"
"$bin" --merge "$work"/p*.json >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 1 ] && grep -q "different splits" "$work/err"
report "merge refuses parts of another method" $((! $?))
# Parts made by different methods (here the default and --method=symmetry
# at n = 17, one part each) name them, and their merge is refused with the
# way out, never summed.
"$bin" --part 1/300 --json --method=symmetry 17 >"$work/l1.json"
"$bin" --part 2/300 --json 17 >"$work/l2.json"
"$bin" --merge "$work"/l*.json >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 1 ] && [ ! -s "$work/out" ] && grep -q '"method":"symmetry"' "$work/l1.json" &&
  grep -q '"method":"join"' "$work/l2.json" &&
  grep -q "method symmetry/join, .*count every part with the same --method" "$work/err"
report "merge refuses parts of two methods, with the way out" $((! $?))
# Parts of one method made at two levels add up exactly.
if "$bin" --simd=avx2 4 >/dev/null 2>&1; then
  "$bin" --part 1/2 --json --simd=avx2 16 >"$work/m1.json"
  "$bin" --part 2/2 --json --simd=none 16 >"$work/m2.json"
  [ "$("$bin" --merge "$work"/m*.json)" = 14772512 ]
  report "parts of n = 16 counted at avx2 and none merge to the exact count" $((! $?))
else
  echo "# skipped: no avx2 on this CPU (parts of one method at two levels)"
fi
echo "not json" | "$bin" --merge >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && grep -q "^nqueens: standard input:1: not a part result: not a JSON object" "$work/err"
report "merge refuses malformed input" $((! $?))

finish
