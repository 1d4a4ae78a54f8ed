#!/bin/sh
# What a first user meets: every mistake on the command line gives one
# "nqueens: " line, the "Try 'nqueens --help'" line, status 2 and nothing on
# stdout; every mode that reads standard input takes '-' for it, an empty
# input asks for nothing, and an error about a line of the input names it.
# usage: usage_e2e.sh PATH/TO/nqueens
set -u
bin=$1
. "$(dirname "$0")/../helpers/e2e_lib.sh"
hint="Try 'nqueens --help' for more information."

# --- every usage error prints the hint ----------------------------------------------
# one invocation per line (words split on blanks; none takes standard input)
cat >"$work/bad" <<'TABLE'
abc
-1
29
12-8
8-
--frobnicate 8
-x 8
--threads
-j many 8
--jobs
--jobs=x 8
-q=1 8
--threads=1025 8
--method=fast 8
--format=xml 8
--simd=sse9 8
--unique=yes 8
--uni -m plain 8
--max-memory=lots 8
--part 0/3 8
--part 1-3 8
--part 1/999 8
--part 1/2 -m plain 2
--checkpoint-interval=5 8
--checkpoint x.ckpt 8 9
--list --part 1/2 8
--board --compact --list 4
--compact --list 10
--limit 3 8
--seed 1 --one 8
--one
--one 8 9
--one x
--one --compact 10
--random
--random 4 5
--verify 4 5
--check 28
--check 20-29
--check -u -m join 12
--merge --part 1/2
--estimate --checkpoint x.ckpt 8
--max-time=soon 8
--max-time=0 8
--max-time=5x 8
--list --max-time=1h 8
--estimate --no-notice 8
TABLE
while IFS= read -r args; do
  # shellcheck disable=SC2086 # the words are meant to split
  "$bin" $args </dev/null >"$work/out" 2>"$work/err"; status=$?
  lines=$(wc -l <"$work/err")
  [ $status -eq 2 ] && [ ! -s "$work/out" ] && [ "$lines" -eq 2 ] &&
    head -1 "$work/err" | grep -q '^nqueens: ' && [ "$(sed -n 2p "$work/err")" = "$hint" ]
  ok=$((! $?))
  report "nqueens $args: status 2, one message and the hint" $ok
  [ $ok -eq 1 ] || { echo "  status $status, stderr:"; sed 's/^/  | /' "$work/err"; }
  [ ! -e "$work/x.ckpt" ] && [ ! -e x.ckpt ]
  report "  ... and no file written" $((! $?))
done <"$work/bad"

# --- '-' is standard input in every mode that reads it ------------------------------
[ "$(echo 8 | "$bin" -)" = 92 ]; report "nqueens - reads sizes" $((! $?))
[ "$(echo 8 | "$bin" --check - | tail -1)" = "$(printf '8\t92\t12\t92\t12\tok')" ]
report "nqueens --check - reads sizes" $((! $?))
[ "$(echo 8 | "$bin" --list --limit 1 -)" = "1 5 8 6 3 7 2 4" ]; report "nqueens --list - reads sizes" $((! $?))
[ "$(echo 2 4 1 3 | "$bin" --verify -)" = "1 valid, 0 invalid, 0 malformed" ]
report "nqueens --verify - reads placements" $((! $?))
[ "$(echo 2 4 1 3 | "$bin" --verify 4 -)" = "1 valid, 0 invalid, 0 malformed" ]
report "nqueens --verify 4 - reads placements" $((! $?))
"$bin" --part 1/1 --json 8 | "$bin" --merge - >"$work/out"
[ "$(cat "$work/out")" = 92 ]; report "nqueens --merge - reads parts" $((! $?))

# --- an empty input asks for nothing -------------------------------------------------
for args in "" "-" "--labels" "--json -" "--check" "--estimate" "--list" "-u --labels"; do
  # shellcheck disable=SC2086
  seq 1 0 | "$bin" $args >"$work/out" 2>"$work/err"; status=$?
  [ $status -eq 0 ] && [ ! -s "$work/out" ] && [ ! -s "$work/err" ]
  report "seq 1 0 | nqueens $args: nothing, status 0" $((! $?))
done
out=$(printf '' | "$bin" --verify); status=$?
[ $status -eq 0 ] && [ "$out" = "0 valid, 0 invalid, 0 malformed" ]
report "an empty input to --verify: 0 valid, status 0" $((! $?))

# --- errors about a line of standard input name it -----------------------------------
printf '8\n9 10\n\n11 x12\n' | "$bin" >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && [ ! -s "$work/out" ] &&
  [ "$(cat "$work/err")" = "nqueens: line 4: 'x12' is not a board size (expected 0..28 or a range A-B)" ]
report "a bad size on line 4 of standard input: named, status 2" $((! $?))
printf '2 4 1 3\n1 x\n' | "$bin" --verify >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && grep -q '^nqueens: line 2: not a placement' "$work/err"
report "a bad placement on line 2: named" $((! $?))
# --verify FILE: a file that is not there is named, not taken for a size
"$bin" --list 8 >"$work/l8.txt"
"$bin" --verify "$work/l8.txt" "$work/p.txt" >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && [ ! -s "$work/out" ] &&
  [ "$(cat "$work/err")" = "nqueens: $work/p.txt: No such file or directory" ]
report "--verify FILE, FILE missing: named, status 2, nothing on stdout" $((! $?))
printf '2 4 1 3\n1 x\n' >"$work/p.txt"
"$bin" --verify 8 "$work/l8.txt" "$work/p.txt" >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] &&
  [ "$(cat "$work/out")" = "$work/p.txt:1: invalid: wrong length: 4 queens, expected 8
92 valid, 1 invalid, 1 malformed" ] &&
  grep -q "^nqueens: $work/p.txt:2: not a placement" "$work/err"
report "--verify 8 FILE FILE: lines named FILE:K" $((! $?))
mkfifo "$work/fifo"
"$bin" --list 6 >"$work/fifo" &
out=$("$bin" --verify "$work/fifo" 2>&1); status=$?
wait
[ $status -eq 0 ] && [ "$out" = "4 valid, 0 invalid, 0 malformed" ]
report "--verify of a named pipe reads what its writer sends" $((! $?))
printf '{"n":8}\n' | "$bin" --merge >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && grep -q '^nqueens: standard input:1: ' "$work/err"
report "a bad part line on line 1 of standard input: named" $((! $?))

# --- a value out of range says so, not that it is of the wrong kind ------------------
while IFS='|' read -r args msg; do
  # shellcheck disable=SC2086
  "$bin" $args 8 >"$work/out" 2>"$work/err"; status=$?
  [ $status -eq 2 ] && [ ! -s "$work/out" ] && [ "$(head -1 "$work/err")" = "nqueens: $msg" ]
  report "nqueens $args 8: status 2, '$msg'" $((! $?))
  [ $status -eq 2 ] || sed 's/^/# /' "$work/err"
done <<'VALUES'
--max-time=0|--max-time: '0' is no time at all: give a positive duration (e.g. 90s, 12h), or none for no limit
--max-time=0h|--max-time: '0h' is no time at all: give a positive duration (e.g. 90s, 12h), or none for no limit
--max-time=4294967296s|--max-time: '4294967296s' is out of range: the number before the unit is 1 to 4294967295
--max-time=99999999999999999999|--max-time: '99999999999999999999' is out of range: the number before the unit is 1 to 4294967295
--max-time=5x|--max-time: '5x' is not a duration (e.g. 90s, 12h, 10y, or none)
--part 1/4294967296|--part: '1/4294967296' is out of range: M is at most 4294967295
--part 1/99999999999999999999|--part: '1/99999999999999999999' is out of range: M is at most 4294967295
--part 5/3|--part: '5/3' is not K/M with 1 <= K <= M (e.g. 3/8)
--max-memory=0|--max-memory: the size must be at least 1 byte (leave the option out for half of this machine's memory)
VALUES

# --- counts that cannot finish ---------------------------------------------------------
# (these samples take a fraction of a second: the forecast samples for 0.2 s)
"$bin" --check 28 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && [ ! -s "$work/out" ] &&
  grep -q "^nqueens: --check 28: n = 28 has no published count" "$work/err"
report "--check 28: no published value, a usage error" $((! $?))
"$bin" --max-time=1h -j 1 -m symmetry 12 22 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
  grep -Eq "^nqueens: n = 22: (about|at least) .* with 1 thread, more than --max-time allows \([^)]*\); --max-time=none counts anyway$" "$work/err"
report "a count estimated above --max-time is refused before any count, status 2 (status $status)" $((! $?))
"$bin" --check --max-time=1h -j 1 -m symmetry 22 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 2 ] && [ ! -s "$work/out" ] && grep -q "more than --max-time allows" "$work/err"
report "--check too (status $status)" $((! $?))
[ "$("$bin" --max-time=none 8)" = 92 ] && [ "$("$bin" --max-time=1s 8 --no-notice)" = 92 ]
report "--max-time=none, --no-notice: counts as usual" $((! $?))

# a count of days off a terminal: one notice line on stderr before it starts;
# none with --no-notice. The count of 8 ends first; a SIGTERM sent once its
# line is out stops the count of 24 before any work, and the notice, which
# is printed before each count, is out by then or never. The join of 24 is
# priced by its cost model, weeks on one thread however busy the machine
# (a lower bound from a timed sample shrinks with the CPU time it gets);
# in 512 MiB its table does not fit, so the count would walk the halves
# and its memory is worked out quickly
long_count() { # ARGS...: counts 8 and 24, stopped once 8 is printed
  rm -f "$work/out" # the last call's output would answer the loop at once
  "$bin" "$@" --labels -j 1 -m join --max-memory=512M 8 24 >"$work/out" 2>"$work/err" &
  pid=$!
  i=0
  while ! grep -q "^8	92$" "$work/out" && [ $i -lt 600 ]; do sleep 0.1; i=$((i + 1)); done
  kill -TERM $pid
  wait $pid
}
long_count; status=$?
[ $status -eq 143 ] && [ "$(wc -l <"$work/err")" -eq 2 ] &&
  head -1 "$work/err" | grep -Eq '^nqueens: n = 24: (about|at least) [0-9.]+ (hours|days|years)( \([0-9.]+ to [0-9.]+ (hours|days|years)\))? with 1 thread, .* of memory(, [0-9.e+]+ core-hours)?$' &&
  sed -n 2p "$work/err" | grep -q "^nqueens: interrupted"
report "a count of days in a script: one notice line first" $((! $?))
[ $status -eq 143 ] && [ "$(wc -l <"$work/err")" -eq 2 ] || { echo "  status $status"; cat "$work/err"; }
long_count --no-notice; status=$?
[ $status -eq 143 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^nqueens: interrupted" "$work/err"
report "--no-notice: no notice" $((! $?))
long_count -q; status=$?
[ $status -eq 143 ] && [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "^nqueens: interrupted" "$work/err"
report "-q: no notice, and the error still shows" $((! $?))

# --- no escape sequence off a terminal ------------------------------------------------
"$bin" --progress -j 1 14 >"$work/out" 2>"$work/err"
! grep -q "$(printf '\033')" "$work/err" && ! grep -q "$(printf '\r')" "$work/err" && grep -q 'units' "$work/err"
report "--progress into a file: plain lines" $((! $?))
"$bin" --progress --quiet -j 1 14 >"$work/out" 2>"$work/err"
[ ! -s "$work/err" ] && [ "$(cat "$work/out")" = 365596 ]
report "--progress --quiet: the count alone" $((! $?))
"$bin" --quiet --progress -j 1 14 >"$work/out" 2>"$work/err"
grep -q 'units' "$work/err" && [ "$(cat "$work/out")" = 365596 ]
report "--quiet --progress: the last wins" $((! $?))

finish
