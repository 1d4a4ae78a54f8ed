#!/bin/sh
# --recheck: finished units of a checkpoint counted again and compared. A
# true checkpoint is clean in every format, at every way; the sample is
# fixed by its seed and drawn from finished units only; the file is only
# read; a damaged or foreign file, and every bad option, is one line on
# stderr with nothing on stdout. (A valid file with a wrong record, its
# checksum mended, is made through the library by test_cli_recheck.)
bin=$1
. "$(dirname "$0")/../helpers/e2e_lib.sh"

mkdir "$work/ck"
ck=$work/ck/run.ckpt
"$bin" --method=join --checkpoint "$ck" 11 >"$work/out" 2>"$work/err"
[ "$(cat "$work/out")" = 2680 ]; report "a checkpoint of n = 11 by the join" $((! $?))
sum_before=$(cksum <"$ck")
ls -a "$work/ck" >"$work/files_before"

# --- clean, in every format and way ------------------------------------------
"$bin" --recheck "$ck" --sample 5 --seed 7 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 0 ] && [ ! -s "$work/err" ] && [ "$(wc -l <"$work/out")" -eq 6 ] &&
  [ "$(grep -c '^unit [0-9]*: recorded [0-9]*, recounted [0-9]*: ok$' "$work/out")" -eq 5 ] &&
  tail -n 1 "$work/out" | grep -q '^n = 11, join: 5 of [0-9]* finished units re-checked by walk without SIMD, seed 7: all match$'
report "a sample of 5, bare: five ok lines and the verdict" $((! $?))
"$bin" --recheck "$ck" --sample 5 --seed 7 >"$work/again" 2>&1
cmp -s "$work/out" "$work/again"; report "the same seed draws the same units" $((! $?))
"$bin" --recheck "$ck" --sample 5 --seed 8 >"$work/other" 2>&1
! cmp -s "$work/out" "$work/other"; report "another seed draws others" $((! $?))
"$bin" --recheck "$ck" --sample 5 >"$work/out" 2>&1
tail -n 1 "$work/out" | grep -q ', seed [0-9]*: all match$'
report "without --seed, the seed drawn is printed" $((! $?))
for way in auto kernel walk independent; do
  "$bin" --recheck "$ck" --by "$way" --labels >"$work/out" 2>"$work/err"; status=$?
  [ $status -eq 0 ] && [ ! -s "$work/err" ] &&
    [ "$(head -n 1 "$work/out")" = "$(printf 'unit\trecorded\trecounted\tverdict')" ] &&
    [ "$(tail -n 1 "$work/out")" = "$(printf 'total\t2680\t2680\tok')" ] &&
    ! grep -q MISMATCH "$work/out"
  report "every unit, --by $way, labels: the total re-counted" $((! $?))
done
for level in none avx2 avx512; do
  if "$bin" --simd "$level" 8 >/dev/null 2>&1; then
    "$bin" --recheck "$ck" --by kernel --simd "$level" --json --sample 20 --seed 1 >"$work/out" 2>"$work/err"
    status=$?
    [ $status -eq 0 ] && [ "$(grep -c '"match":true' "$work/out")" -eq 21 ] &&
      tail -n 1 "$work/out" | grep -q "^{\"n\":11,\"method\":\"join\",\"units\":[0-9]*,\"finished\":[0-9]*,\"checked\":20,\"by\":\"kernel\",\"simd\":\"$level\",\"seed\":1,\"mismatched\":0,\"recorded\":[0-9]*,\"recounted\":[0-9]*,\"seconds\":[0-9.]*,\"match\":true}$"
    report "--simd $level, JSON: a line per unit and the verdict" $((! $?))
  else
    echo "# --simd $level: this CPU lacks it, skipped"
  fi
done
"$bin" --recheck "$ck" --pick 9,4 >"$work/out" 2>&1
[ "$(sed -n '1s/:.*//p;2s/:.*//p' "$work/out" | tr '\n' ' ')" = "unit 4 unit 9 " ]
report "--pick: those, in order" $((! $?))
"$bin" --recheck "$ck" --sample 999999 --seed 3 >"$work/out" 2>&1; status=$?
[ $status -eq 0 ] && tail -n 1 "$work/out" | grep -q "^n = 11, join: \([0-9]*\) of \1 finished units re-checked by walk without SIMD: all match$"
report "a sample larger than the finished units: every one" $((! $?))

# --- only read ------------------------------------------------------------------
ls -a "$work/ck" >"$work/files_after"
[ "$(cksum <"$ck")" = "$sum_before" ] && cmp -s "$work/files_before" "$work/files_after"
report "the checkpoint is only read: same bytes, no file added" $((! $?))

# --- finished units only: a part's checkpoint -------------------------------------
part=$work/part.ckpt
"$bin" --method=symmetry --part 2/50 --json --checkpoint "$part" 12 >/dev/null 2>&1
"$bin" --recheck "$part" --json >"$work/out" 2>"$work/err"; status=$?
done_units=$(tail -n 1 "$work/out" | sed 's/.*"finished":\([0-9]*\),.*/\1/')
[ $status -eq 0 ] && [ "$done_units" -gt 0 ] &&
  [ "$(grep -c '"recorded_unique":' "$work/out")" -eq "$done_units" ] &&
  tail -n 1 "$work/out" | grep -q "\"checked\":$done_units,\"by\":\"kernel\""
report "a part's checkpoint: its finished units, unique counts compared" $((! $?))

# --- the one unit of a small board ------------------------------------------------
"$bin" --method=join --checkpoint "$work/empty.ckpt" --part 1/1 --json 3 >/dev/null 2>&1
"$bin" --recheck "$work/empty.ckpt" >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 0 ] && grep -q "^n = 3, join: 1 of 1 finished unit re-checked" "$work/out"
report "a checkpoint of one unit" $((! $?))

# --- bad files: one line on stderr, nothing on stdout ------------------------------
expect_refusal() { # NAME STATUS PATTERN ARGS...
  name=$1 want=$2 pattern=$3
  shift 3
  "$bin" "$@" >"$work/out" 2>"$work/err"; status=$?
  [ $status -eq "$want" ] && [ ! -s "$work/out" ] && head -n 1 "$work/err" | grep -q "^nqueens: $pattern"
  report "$name" $((! $?))
}
expect_refusal "a missing file" 2 ".*missing.ckpt: No such file or directory$" --recheck "$work/missing.ckpt"
printf 'not a checkpoint\n' >"$work/garbage"
expect_refusal "a garbage file" 2 ".*garbage: not a checkpoint, or truncated or corrupted$" --recheck "$work/garbage"
: >"$work/empty"
expect_refusal "an empty file" 2 ".*empty: not a checkpoint" --recheck "$work/empty"
size=$(wc -c <"$ck")
head -c $((size - 3)) "$ck" >"$work/cut"
expect_refusal "a truncated checkpoint" 2 ".*cut: not a checkpoint, or truncated or corrupted$" --recheck "$work/cut"
{ head -c 70 "$ck"; printf 'X'; tail -c +72 "$ck"; } >"$work/flipped"
expect_refusal "a flipped byte" 2 ".*flipped: not a checkpoint, or truncated or corrupted$" --recheck "$work/flipped"
expect_refusal "a folder" 2 "" --recheck "$work"
ln -s "$ck" "$work/link"
expect_refusal "a symbolic link" 2 ".*link: " --recheck "$work/link"
rm -f "$work/link"

# --- bad options ---------------------------------------------------------------------
expect_refusal "no FILE" 2 "--recheck needs a checkpoint FILE$" --recheck
expect_refusal "two FILEs" 2 "--recheck takes one checkpoint FILE, not 2$" --recheck "$ck" "$ck"
expect_refusal "stdin" 2 "--recheck reads a checkpoint from a file" --recheck -
expect_refusal "--sample 0" 2 "sample size '0' for --sample is out of range" --recheck "$ck" --sample 0
expect_refusal "--sample -1" 2 "sample size '-1' for --sample is not a whole number" --recheck "$ck" --sample -1
expect_refusal "--sample huge" 2 "sample size '18446744073709551616' for --sample is out of range" --recheck "$ck" --sample 18446744073709551616
expect_refusal "--sample x" 2 "sample size 'x' for --sample is not a whole number" --recheck "$ck" --sample x
expect_refusal "--seed -1" 2 "seed '-1' for --seed is not a whole number" --recheck "$ck" --seed -1
expect_refusal "an unknown way" 2 "unknown way 'fast' for --by (expected auto, kernel, walk or independent)$" --recheck "$ck" --by fast
expect_refusal "an unknown level" 2 "unknown SIMD level 'sse9' for --simd" --recheck "$ck" --simd sse9
expect_refusal "a way the method lacks" 2 "--by=walk: the symmetry method's units cannot be counted that way" --recheck "$part" --by walk
expect_refusal "no independent walk of the symmetry method" 2 "--by=independent: the symmetry method" --recheck "$part" --by independent
expect_refusal "--pick out of range" 2 "--pick: unit 99999 is out of range" --recheck "$ck" --pick 99999
expect_refusal "--pick twice" 2 "--pick: unit 3 is given twice$" --recheck "$ck" --pick 3,3
expect_refusal "--pick not a number" 2 "--pick: '3x' is not a unit index$" --recheck "$ck" --pick 1,3x
expect_refusal "--pick empty item" 2 "--pick: '' is not a unit index$" --recheck "$ck" --pick 1,
expect_refusal "--pick unfinished" 2 "--pick: unit 0 is not finished in" --recheck "$part" --pick 0
expect_refusal "--sample with --pick" 2 "--sample cannot be used with --pick$" --recheck "$ck" --sample 2 --pick 1
expect_refusal "--sample without --recheck" 2 "--sample needs --recheck$" --sample 2 8
expect_refusal "--by without --recheck" 2 "--by needs --recheck$" --by walk 8
expect_refusal "--recheck with --merge" 2 "--recheck cannot be used with --merge$" --merge --recheck "$ck"
expect_refusal "--recheck with a count option" 2 "--threads cannot be used with --recheck$" --recheck -j 2 "$ck"
finish
