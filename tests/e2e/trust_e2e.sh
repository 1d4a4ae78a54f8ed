#!/bin/sh
# Files and numbers that cannot be trusted, end to end: checkpoints shared
# by two runs or planted with links, places that cannot be written,
# damaged or impossible part lines for --merge, and the empty board.
# usage: trust_e2e.sh PATH/TO/nqueens
set -u
bin=$1
. "$(dirname "$0")/../helpers/e2e_lib.sh"
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
# n = 19 lasts about twenty seconds on one thread: still counting when
# the second run is refused and it is interrupted
"$bin" --no-progress --checkpoint "$ck" -j 1 19 >"$work/out1" 2>"$work/err1" &
pid=$!
i=0
while [ ! -e "$ck.lock" ] && [ $i -lt 1200 ]; do sleep 0.05; i=$((i + 1)); done
start=$(date +%s)
"$bin" --progress --checkpoint "$ck" -j 1 19 >"$work/out" 2>"$work/err"; status=$?
took=$(( $(date +%s) - start ))
refused 2 && [ "$took" -le 10 ] && grep -q "run.ckpt: another process is using this file" "$work/err"
report "second run on one checkpoint refused at once" $((! $?))
kill -INT "$pid"; wait "$pid"; status=$?
[ $status -eq 130 ] && grep -q "saved in" "$work/err1" && [ ! -e "$ck.lock" ]
report "first run unharmed: interrupted, saved, lock file removed" $((! $?))
# the checkpoint it saved is whole: a part of it resumes
out=$("$bin" --checkpoint "$ck" --part 1/128 --json 19 2>"$work/err")
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

# --- --merge trusts nothing in a part line ------------------------------------------
for k in 1 2 3; do "$bin" --part $k/3 --json 12 >"$work/p$k.json"; done
out=$("$bin" --merge "$work"/p*.json 2>"$work/err")
[ "$out" = 14200 ] && [ ! -s "$work/err" ]; report "checked parts merge silently" $((! $?))
# a part line as an older version wrote it: no "check"
strip() { sed 's/,"check":"[0-9a-f]*"//' "$@"; }
strip "$work/p2.json" >"$work/old2.json"
out=$("$bin" --merge "$work/p1.json" "$work/old2.json" "$work/p3.json" 2>"$work/err")
[ "$out" = 14200 ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
  grep -q '^nqueens: warning: 1 part line carries no "check" field (the first: .*old2.json:1)' "$work/err"
report "an unchecked line: merged, with one warning" $((! $?))

# merge_refused STATUS PATTERN NAME: the parts in $work/bad.json and p1..p3 refused
merge_refused() {
  "$bin" --merge "$work/bad.json" >"$work/out" 2>"$work/err"; status=$?
  refused "$1" && grep -q "$2" "$work/err"
  report "$3" $((! $?))
}
line() { # an unchecked n = 12 line with one field replaced: line KEY VALUE
  strip "$work/p1.json" | sed "s/\"$1\":[^,}]*/\"$1\":$2/"
}
sed 's/"total":\([0-9]*\)7/"total":\18/; s/"total":\([0-9]*\)[0-68-9],/"total":\17,/' \
  "$work/p1.json" >"$work/bad.json"
merge_refused 2 "bad.json:1: not a part result: damaged" "a damaged line is refused"
line n 99999 >"$work/bad.json"
merge_refused 2 "board size out of range" "n = 99999 is refused"
line method '"magic"' >"$work/bad.json"
merge_refused 2 "unknown method" "an unknown method is refused"
line unit_list_version 77 >"$work/bad.json"
merge_refused 2 "a unit list this version of nqueens does not have" "an unknown unit list is refused"
strip "$work/p1.json" | sed 's/{"n":12,/{"n":12,"n":12,/' >"$work/bad.json"
merge_refused 2 'key given twice: "n"' "a key given twice is refused"
line parts 18446744073709551615 >"$work/bad.json"
merge_refused 2 "part out of range" "parts = 2^64 - 1 is refused"
line parts 18446744073709551616 >"$work/bad.json"
merge_refused 2 'bad value for "parts"' "parts = 2^64 is refused"
{ line parts 4294967295; } >"$work/bad.json"
start=$(date +%s)
merge_refused 2 "no split into 4294967295 parts exists" "parts = 2^32 - 1: no such split (at once), a bad line: status 2"
[ $(( $(date +%s) - start )) -le 10 ] || echo "# (that took long)"
line parts 99999 >"$work/bad.json"
merge_refused 2 "no split into 99999 parts exists" "parts above the units of n = 12: a bad line, status 2"
{ line total 6000; strip "$work/p2.json" "$work/p3.json"; } >"$work/bad.json"
merge_refused 1 "the parts add up to [0-9]* solutions, but the published count is 14200" \
  "a sum that is not the published count is refused"
# n = 28 has no published count: a sum past 2^64 must not wrap
{
  echo '{"n":28,"total":18446744073709551610,"method":"plain","part":1,"parts":2,"unit_list_version":1}'
  echo '{"n":28,"total":10,"method":"plain","part":2,"parts":2,"unit_list_version":1}'
} >"$work/bad.json"
merge_refused 1 "the sum passes 2^64 - 1 at" "a sum past 2^64 is refused, not wrapped"
"$bin" --merge "$work/no
such" >"$work/out" 2>"$work/err"; status=$?
refused 2 && grep -q 'no\\x0asuch' "$work/err"
report "a file name is escaped in the message" $((! $?))

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

# --- endless inputs are refused, not read until memory runs out ---------------------
timeout 60 "$bin" --merge /dev/zero >"$work/out" 2>"$work/err"; status=$?
refused 2 && grep -q "longer than 4096 bytes" "$work/err"
report "--merge /dev/zero: refused at the first overlong line" $((! $?))
yes 8 | timeout 60 "$bin" >"$work/out" 2>"$work/err"; status=$?
refused 2 && grep -q "more than 16 MiB of sizes" "$work/err"
report "endless sizes on standard input: refused, nothing counted" $((! $?))
head -c 200000000 /dev/zero >"$work/huge.ckpt" 2>/dev/null || :
"$bin" --checkpoint "$work/huge.ckpt" 12 >"$work/out" 2>"$work/err"; status=$?
refused 2
report "a 200 MB file that is no checkpoint: refused" $((! $?))

# --- counts that cannot fit in --max-memory ------------------------------------------
# Every size is checked before anything is printed: n = 3 fits (no table),
# 14 does not, and the labels' header must not come out either.
for mode in "--no-progress" "--labels" "--json" "--estimate" "--estimate --labels" \
            "--estimate --json" "--check" "--checkpoint $work/mem.ckpt"; do
  sizes="3 14"
  case $mode in --checkpoint*) sizes=14 ;; esac
  # shellcheck disable=SC2086
  # 2100 KiB holds the process and n = 3, not the join's table of 14
  "$bin" $mode --max-memory=2100K -m join $sizes >"$work/out" 2>"$work/err"; status=$?
  refused 2 && grep -q "^nqueens: n = 14 needs at least .* more than --max-memory allows (2.1 MiB)$" "$work/err" &&
    [ ! -e "$work/mem.ckpt" ] && [ ! -e "$work/mem.ckpt.lock" ]
  report "nqueens $mode --max-memory=2100K -m join $sizes: refused before any output or file, the least it needs named" $((! $?))
done

finish
