#!/bin/sh
# End to end: the built binary's exact stdout, stderr and exit status.
# usage: cli_e2e.sh PATH/TO/nqueens
set -u
bin=$1
. "$(dirname "$0")/../helpers/e2e_lib.sh"

# check NAME EXPECTED_STATUS EXPECTED_STDOUT STDERR_PATTERN -- ARGS...
# STDERR_PATTERN: '' means stderr must be empty; otherwise a grep -E pattern
# that the first stderr line must match; a second line may only be the
# "Try 'nqueens --help'" hint.
check() {
  name=$1 want_status=$2 want_out=$3 err_pat=$4
  shift 5
  "$bin" "$@" >"$work/out" 2>"$work/err" </dev/null
  status=$?
  printf '%s' "$want_out" >"$work/want"
  ok=1
  [ "$status" -eq "$want_status" ] || { echo "  status $status, want $want_status"; ok=0; }
  cmp -s "$work/out" "$work/want" || { echo "  stdout differs:"; cat "$work/out"; ok=0; }
  if [ -z "$err_pat" ]; then
    [ -s "$work/err" ] && { echo "  unexpected stderr:"; cat "$work/err"; ok=0; }
  else
    lines=$(wc -l <"$work/err")
    { [ "$lines" -eq 1 ] || { [ "$lines" -eq 2 ] && tail -n 1 "$work/err" | grep -qx "Try 'nqueens --help' for more information."; }; } ||
      { echo "  stderr is not one line (and the hint):"; cat "$work/err"; ok=0; }
    grep -Eq "$err_pat" "$work/err" || { echo "  stderr does not match '$err_pat':"; cat "$work/err"; ok=0; }
  fi
  report "$name" $ok
}


nl='
'
check "main job" 0 "73712$nl" '' -- 13
check "several values" 0 "92${nl}724${nl}2680${nl}14200$nl" '' -- 8 10-12
check "labels" 0 "n	total	unique${nl}8	92	12$nl" '' -- --labels --unique 8
out=$("$bin" --json -u 13 2>"$work/err")
echo "$out" | grep -Eqx '\{"n":13,"total":73712,"unique":9233,"method":"symmetry","seconds":[0-9]+\.[0-9]{3},"device":"cpu"\}' && [ ! -s "$work/err" ]
report "json" $((! $?))
check "plain method" 0 "14200$nl" '' -- --method=plain 12
check "bad operand" 2 "" "^nqueens: 'abc' is not a board size" -- abc
check "negative" 2 "" "^nqueens: '-1' " -- -1
check "trailing junk" 2 "" "^nqueens: '13x' " -- 13x
check "exponent" 2 "" "^nqueens: '1e3' " -- 1e3
check "empty" 2 "" "^nqueens: empty operand" -- ""
check "huge" 2 "" "^nqueens: .*out of range" -- 99999999999999999999
check "above maximum" 2 "" "^nqueens: board size 29 is out of range" -- 29
check "reversed range" 2 "" "^nqueens: range '12-8' is reversed" -- 12-8
check "late bad operand" 2 "" "^nqueens: 'x'" -- 8 9 x
check "help" 0 "$("$bin" --help)$nl" '' -- --help
check "version" 0 "$("$bin" --version)$nl" '' -- --version

# stdin: a pipe of sizes
out=$(seq 1 12 | "$bin" 2>"$work/err"); status=$?
want=$(printf '1\n0\n0\n2\n10\n4\n40\n92\n352\n724\n2680\n14200')
[ "$status" -eq 0 ] && [ "$out" = "$want" ] && [ ! -s "$work/err" ]; report "seq 1 12 | nqueens" $((! $?))

# unknown option: an error line plus the --help hint, status 2
"$bin" --nope >"$work/out" 2>"$work/err"; status=$?
[ "$status" -eq 2 ] && [ ! -s "$work/out" ] && grep -q "^nqueens: unrecognized option '--nope'" "$work/err"
report "unknown option" $((! $?))

# a closed pipe is no error to report: nothing on stderr, no hang, and the
# status of SIGPIPE (141) in every mode
for args in "1-20" "--list 12" "--one 3000000" "--check 4-20"; do
  { "$bin" $args 2>"$work/err"; echo $? >"$work/status"; } | head -c 1 >/dev/null
  [ ! -s "$work/err" ] && [ "$(cat "$work/status")" = 141 ]
  report "closed pipe: nqueens $args | head -c 1 gives 141" $((! $?))
done

# GNU option handling: combined short options, abbreviations, permutation
check "combined -uj2" 0 "12$nl" '' -- -uj2 8
check "abbreviated --uni" 0 "12$nl" '' -- --uni 8
check "options after operands" 0 "n	total	unique${nl}8	92	12$nl" '' -- 8 -ul
check "-j0: all CPUs" 0 "92$nl" '' -- -j0 8
check "conflict" 2 "" "^nqueens: --part cannot be used with --list$" -- --list --part 1/2 8
check "--limit 0" 0 "" '' -- --list --limit 0 8
# a file name with a newline stays one line
check "file name escaped" 2 "" "^nqueens: no.x0afile: No such file" -- --merge "no
file"

# solutions: a listing cut short by head ends at once and quietly
out=$("$bin" --list 16 2>"$work/err" | head -n 3)
[ "$out" = "$(printf '1 3 5 2 13 9 14 12 15 6 16 7 4 11 8 10\n1 3 5 2 13 10 12 15 6 16 14 8 4 7 9 11\n1 3 5 7 9 12 14 16 4 15 8 11 2 6 13 10')" ] && [ ! -s "$work/err" ]
report "--list 16 | head -n 3" $((! $?))
# a big construction and a big random solution verify
out=$("$bin" --one 1000000 | "$bin" --verify 1000000 2>"$work/err")
[ "$out" = "1 valid, 0 invalid, 0 malformed" ] && [ ! -s "$work/err" ]; report "--one 1000000 | --verify" $((! $?))
out=$("$bin" --random 100000 --seed 5 | "$bin" --verify 2>"$work/err")
[ "$out" = "1 valid, 0 invalid, 0 malformed" ]; report "--random 100000 | --verify" $((! $?))
out=$("$bin" --list 10 | "$bin" --verify 10 2>"$work/err")
[ "$out" = "724 valid, 0 invalid, 0 malformed" ]; report "--list 10 | --verify 10" $((! $?))
check "no solution" 1 "" "^nqueens: n = 3 has no solution" -- --one 3
check "check" 0 "n	total	unique	known_total	known_unique	status${nl}13	73712	9233	73712	9233	ok$nl" '' -- --check 13

# --device=gpu where no GPU is usable (this build has no GPU support, or
# the machine no driver or GPU): status 2, one line that says which is
# missing (no hint to read --help: the command is right), nothing counted;
# --device=auto counts on the CPU
if "$bin" --devices 2>/dev/null | grep -q "^gpu	none: "; then
  "$bin" --device=gpu 8 >"$work/out" 2>"$work/err"; status=$?
  [ $status -eq 2 ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
    grep -Eq "^nqueens: --device=gpu: (this build has no GPU support|no NVIDIA driver|the NVIDIA driver shows no GPU)" "$work/err"
  report "--device=gpu without a GPU: one line, status 2" $((! $?))
  check "--device=auto without a GPU" 0 "14200$nl" '' -- --device=auto 12
fi

# with no operand and a terminal on stdin: usage on stderr, status 2
if command -v script >/dev/null 2>&1; then
  script -qec "$bin >$work/out 2>$work/err; echo \$? >$work/status" /dev/null >/dev/null 2>&1 </dev/null
  [ "$(cat "$work/status" 2>/dev/null)" = 2 ] && [ ! -s "$work/out" ] && grep -q "Usage: nqueens" "$work/err"
  report "terminal stdin" $((! $?))
else
  echo "skip - terminal stdin (no 'script' command)"
fi

finish
