#!/bin/sh
# End to end: --estimate in its three formats says the same thing: an
# interval around the number; every method, totals and unique counts, up
# to n = 28, gives one (no "at least"). No time is asserted.
# usage: estimate_e2e.sh PATH/TO/nqueens
set -u
bin=$1
. "$(dirname "$0")/../helpers/e2e_lib.sh"

# formats N ARGS...: the estimate of n = N in the three formats, into
# $work/bare, $work/labels and $work/json; 1 when all three ran
formats() {
  n=$1
  shift
  "$bin" --estimate "$@" "$n" >"$work/bare" 2>"$work/err" &&
    "$bin" --estimate --labels "$@" "$n" >"$work/labels" 2>>"$work/err" &&
    "$bin" --estimate --json "$@" "$n" >"$work/json" 2>>"$work/err" &&
    [ ! -s "$work/err" ]
}

# bound_everywhere: 1 when the three formats agree on "at least"
bound_everywhere() {
  b=0 l=0 j=0
  grep -Eq '^n = [0-9]+: at least [0-9.]+ (seconds|minutes|hours|days|years) ' "$work/bare" && b=1
  tail -n 1 "$work/labels" | grep -Eq '^[0-9]+	at least [0-9]+\.[0-9]{3}	.*	-	.*	at least ' && l=1
  grep -q '"lower_bound":true,' "$work/json" && grep -q '"high":null' "$work/json" &&
    grep -q '"text":"at least ' "$work/json" && j=1
  echo "$b$l$j"
}

# a unit of the plain walk at n = 20 takes far longer than the budget,
# the symmetry method's at 24 seconds and at 28 hours (--unique counts by
# it): their cost models price them
for args in "20 -m plain" "24 -m symmetry" "28 -u"; do
  # shellcheck disable=SC2086 # the words of args are arguments
  formats $args -j1
  report "$args: estimated in every format" $((! $?))
  report "$args: no format says at least" "$([ "$(bound_everywhere)" = 000 ] && echo 1 || echo 0)"
  grep -q '"modelled":true,' "$work/json"
  report "$args: modelled" $((! $?))
done

# the join beyond n = 20 is priced by its model: no format says at least
formats 21 -j1
report "the join at 21 is estimated in every format" $((! $?))
report "no format says at least" "$([ "$(bound_everywhere)" = 000 ] && echo 1 || echo 0)"
u='(seconds|minutes|hours|days|years)'
grep -Eqx "n = 21: about [0-9.]+ $u \([0-9.]+ to [0-9.]+ $u\) with 1 thread, [0-9.]+ [KMG]iB of memory(, [0-9.e+]+ core-hours)?" "$work/bare"
report "bare: in words, in a unit that suits it, with the interval" $((! $?))
[ "$(head -n 1 "$work/labels")" = "n	seconds	threads	method	low	high	core_hours	estimate" ]
report "labels: the header names the interval" $((! $?))
tail -n 1 "$work/labels" | awk -F '\t' '{ exit !($1 == 21 && $5 + 0 <= $2 + 0 && $2 + 0 <= $6 + 0 && $5 > 0) }'
report "labels: low <= seconds <= high" $((! $?))
tail -n 1 "$work/labels" | grep -Eq '	about [0-9.]+ [a-z]+ \([0-9.]+ to [0-9.]+ [a-z]+\) with 1 thread, [0-9.]+ [KMG]iB of memory'
report "labels: the sentence gives the interval" $((! $?))
sed -E 's/.*"seconds":([0-9.]+).*"low":([0-9.]+),"high":([0-9.]+).*/\2 \1 \3/' "$work/json" |
  awk '{ exit !($1 <= $2 && $2 <= $3 && $1 > 0) }'
report "json: low <= seconds <= high" $((! $?))
grep -q '"modelled":true,"samples":[1-9][0-9]*,' "$work/json" && grep -q '"units_sampled":0,' "$work/json"
report "json: modelled, with the samples it priced" $((! $?))

# an exact sample: the interval is the point
"$bin" --estimate --json 8 >"$work/json"
sed -E 's/.*"seconds":([0-9.]+).*"low":([0-9.]+),"high":([0-9.]+).*/\2 \1 \3/' "$work/json" |
  awk '{ exit !($1 == $2 && $2 == $3) }' && grep -q '"exact":true,"lower_bound":false' "$work/json"
report "json: an exact sample's interval is its point" $((! $?))

# a count quicker than a tenth of a second is said to be so, in words;
# no estimate says "0.0"
# (n = 5: microseconds of work, even under the sanitizers on a busy machine)
"$bin" --estimate --labels -j 1 5 >"$work/labels" && "$bin" --estimate --json -j 1 5 >"$work/json" &&
  "$bin" --estimate -j 1 5 >"$work/bare" && grep -q '^n = 5: under 0\.1 seconds with 1 thread, ' "$work/bare" &&
  tail -n 1 "$work/labels" | grep -q '	under 0\.1 seconds with 1 thread, ' &&
  grep -q '"text":"under 0\.1 seconds with ' "$work/json"
report "n = 5: under 0.1 seconds, in the bare line and the sentence of --labels and --json" $((! $?))
! grep -q ' 0\.0 ' "$work/bare" "$work/labels" "$work/json"
report "  and no 0.0 anywhere" $((! $?))

# an estimate refused (here by --max-memory) leaves standard output
# empty in every format: the --labels header comes with the first line
for how in "" --labels --json; do
  "$bin" --estimate $how --max-memory=1K 20 >"$work/out" 2>"$work/err"; status=$?
  [ $status -eq 2 ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
    grep -q '^nqueens: n = 20 needs at least .* more than --max-memory allows' "$work/err"
  report "--estimate $how refused by --max-memory: status 2, one line, nothing on stdout (status $status)" $((! $?))
done

finish
