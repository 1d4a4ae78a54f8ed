#!/bin/sh
# Files and numbers that cannot be trusted, end to end: checkpoints shared
# by two runs or planted with links, places that cannot be written,
# damaged or impossible part lines for --merge, and the empty board.
# usage: trust_e2e.sh PATH/TO/nqueens
set -u
bin=$1
. "$(dirname "$0")/e2e_lib.sh"
ck=$work/run.ckpt

# one line on stderr starting "nqueens: ", nothing on stdout, status $1.
# With --progress, a run that had counted anything would have drawn more
# lines: refusals below use it to show that no work was done. (The time
# bounds are far above the few milliseconds a refusal takes, and far below
# the seconds to minutes the counts would.)
refused() {
  [ "$status" -eq "$1" ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
    grep -q "^nqueens: " "$work/err"
}

# --- checkpoints: one run per file ------------------------------------------------
"$bin" --no-progress --checkpoint "$ck" -j 1 18 >"$work/out1" 2>"$work/err1" &
pid=$!
i=0
while [ ! -e "$ck.lock" ] && [ $i -lt 100 ]; do sleep 0.05; i=$((i + 1)); done
start=$(date +%s)
"$bin" --progress --checkpoint "$ck" -j 1 18 >"$work/out" 2>"$work/err"; status=$?
took=$(( $(date +%s) - start ))
refused 2 && [ "$took" -le 10 ] && grep -q "run.ckpt: another process is using this file" "$work/err"
report "second run on one checkpoint refused at once" $((! $?))
kill -INT "$pid"; wait "$pid"; status=$?
[ $status -eq 130 ] && grep -q "saved in" "$work/err1" && [ ! -e "$ck.lock" ]
report "first run unharmed: interrupted, saved, lock file removed" $((! $?))
# the checkpoint it saved is whole: a part of it resumes
out=$("$bin" --checkpoint "$ck" --part 1/128 --json 18 2>"$work/err")
echo "$out" | grep -q '"part":1,"parts":128'; report "its checkpoint resumes" $((! $?))

# --- checkpoints: links and temporary files ------------------------------------------
rm -f "$ck"
echo precious >"$work/victim"
ln -s victim "$ck.tmp"
out=$("$bin" --checkpoint "$ck" --checkpoint-interval 0 10 2>"$work/err")
[ "$out" = 724 ] && [ "$(cat "$work/victim")" = precious ] && [ -f "$ck" ] && [ ! -L "$ck" ]
report "a link at FILE.tmp is left alone; the victim is untouched" $((! $?))
[ "$(ls "$work" | grep -c 'tmp-')" -eq 0 ]; report "no temporary file left behind" $((! $?))
rm -f "$ck" "$ck.tmp"
ln -s victim "$ck"
"$bin" --checkpoint "$ck" 10 >"$work/out" 2>"$work/err"; status=$?
refused 2 && [ "$(cat "$work/victim")" = precious ] && [ -L "$ck" ]
report "a checkpoint name that is a link is refused" $((! $?))
rm -f "$ck"

# --- checkpoints that cannot be written are refused before counting ----------------
for where in /nonexistent/x /proc/self/nq.ckpt; do
  start=$(date +%s)
  "$bin" --progress --checkpoint "$where" -j 1 19 >"$work/out" 2>"$work/err"; status=$?
  took=$(( $(date +%s) - start ))
  refused 2 && [ "$took" -le 10 ] && grep -q "^nqueens: $where: " "$work/err"
  [ $? -eq 0 ] || { echo "# status $status, $took s:"; sed "s/^/# /" "$work/err"; false; }
  report "--checkpoint $where refused at once" $((! $?))
done
if [ "$(id -u)" -ne 0 ]; then
  mkdir "$work/ro" && chmod 555 "$work/ro"
  "$bin" --progress --checkpoint "$work/ro/x" -j 1 19 >"$work/out" 2>"$work/err"; status=$?
  refused 2 && grep -q "Permission denied" "$work/err"
  report "--checkpoint in a read-only directory refused at once" $((! $?))
  chmod 755 "$work/ro"
else
  echo "# read-only directory: not tried (root writes anywhere)"
fi

# --- the empty board round-trips --------------------------------------------------
for mode in --list --one; do
  for n in 0 ""; do
    out=$("$bin" $mode 0 | "$bin" --verify $n 2>"$work/err"); status=$?
    [ $status -eq 0 ] && [ "$out" = "1 valid, 0 invalid, 0 malformed" ] && [ ! -s "$work/err" ]
    report "nqueens $mode 0 | nqueens --verify $n" $((! $?))
  done
done
out=$(printf '2 4 1 3\n\n' | "$bin" --verify 4 2>"$work/err"); status=$?
[ $status -eq 1 ] && echo "$out" | grep -q "^line 2: invalid: wrong length: 0 queens, expected 4$"
report "an empty line among 4-queen placements is of the wrong length" $((! $?))

finish
