#!/bin/sh
# Each fact checked once, after all it depends on is known, and each
# message true to the number: bounds of the mode that is run, a --part
# bound against the method a checkpoint holds, sizes with every unit the
# manual names, and grammar by count.
bin=$1
. "$(dirname "$0")/../helpers/e2e_lib.sh"

# refused ARGS...: status 2, nothing on stdout, one message line, kept in $msg
refused() {
  "$bin" "$@" >"$work/out" 2>"$work/err"; status=$?
  msg=$(head -n 1 "$work/err")
  [ $status -eq 2 ] && [ ! -s "$work/out" ]
}

# --- the bound of the mode's own function ---------------------------------------
refused --random 4294967295 &&
  [ "$msg" = "nqueens: '4294967295' is not a board size for --random (expected 0..4294967294)" ]
report "--random 4294967295: refused with the bound of --random" $((! $?))
refused --one 4294967296 &&
  [ "$msg" = "nqueens: '4294967296' is not a board size for --one (expected 0..4294967295)" ]
report "--one 4294967296: refused with the bound of --one" $((! $?))

# --- sizes: B, K, M, G, T alike; zero refused -------------------------------------
# (the process itself takes about 2 MiB: the smallest sizes are 4 MiB)
for size in 4194304 4194304B 4096K 4096KB 4096KiB 4M 4MB 4MiB 1G 1T; do
  out=$("$bin" -m symmetry --max-memory=$size 8 2>"$work/err")
  [ "$out" = 92 ] && [ ! -s "$work/err" ]; report "--max-memory=$size is a size" $((! $?))
done
for size in 0 0B 0K 5b 5k 1.5M 1iB -1 1MB2 B K; do
  refused --max-memory="$size" 8 && case $msg in "nqueens: --max-memory: "*) true ;; *) false ;; esac
  report "--max-memory='$size' is refused: $msg" $((! $?))
done
refused --max-memory=0 8 &&
  [ "$msg" = "nqueens: --max-memory: the size must be at least 1 byte (leave the option out for half of this machine's memory)" ]
report "--max-memory=0 says what the default is" $((! $?))
"$bin" -m symmetry --max-memory=512B 8 >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 1 ] && [ ! -s "$work/out" ] &&
  grep -q "^nqueens: n = 8 needs at least .*, more than --max-memory allows (512 bytes)" "$work/err"
report "--max-memory=512B is 512 bytes, and the refusal says so" $((! $?))

"$bin" -m symmetry --max-memory=1 8 >"$work/out" 2>"$work/err"
grep -q "more than --max-memory allows (1 byte)$" "$work/err"
report "--max-memory=1: one byte, singular" $((! $?))

# --- --part against the method of the checkpoint that is resumed ------------------
# (a symmetry checkpoint of n = 18 has 771 units; the default at 18 has many
# more: the bound is the checkpoint's method's)
ck=$work/s18.ckpt
"$bin" -j 1 -m symmetry --no-progress --checkpoint "$ck" 18 >/dev/null 2>&1 &
pid=$!
i=0
while [ ! -e "$ck.lock" ] && [ $i -lt 6000 ]; do sleep 0.01; i=$((i + 1)); done
kill -TERM "$pid"; wait "$pid"
[ -s "$ck" ]; report "a stopped symmetry count left its checkpoint" $((! $?))
refused -j 1 --checkpoint "$ck" --part 1/1000 --json 18 &&
  [ "$msg" = "nqueens: --part 1/1000: n = 18 has 771 work units, so M can be at most 771" ]
report "--part 1/1000 with a symmetry checkpoint: the bound of its 771 units" $((! $?))

# --- grammar by count ----------------------------------------------------------------
for k in 1 2 3; do "$bin" --part $k/3 --json 12; done >"$work/parts"
# lines without "check" (accepted with a warning), one without its unique count
sed 's/,"check":"[0-9a-f]*"//' "$work/parts" >"$work/unchecked"
sed '2s/,"unique":[0-9]*//' "$work/unchecked" >"$work/two_of_three"
"$bin" --merge --unique "$work/two_of_three" >"$work/out" 2>"$work/err"; status=$?
[ $status -eq 1 ] && [ ! -s "$work/out" ] &&
  grep -q "^nqueens: n = 12: only 2 of the 3 parts carry a unique count" "$work/err"
report "2 of 3 parts with unique counts: the message says 2 of 3" $((! $?))
head -n 1 "$work/unchecked" >"$work/one"
tail -n 2 "$work/parts" >>"$work/one"
out=$("$bin" --merge "$work/one" 2>"$work/err")
[ "$out" = 14200 ] && grep -q '^nqueens: warning: 1 part line carries no "check" field .* damage to it cannot' "$work/err"
report "one unchecked line: singular noun, verb and pronoun" $((! $?))
out=$("$bin" --merge "$work/unchecked" 2>"$work/err")
[ "$out" = 14200 ] && grep -q '^nqueens: warning: 3 part lines carry no "check" field .* damage to them cannot' "$work/err"
report "three unchecked lines: plural noun, verb and pronoun" $((! $?))
"$bin" -m join --part 1/1 --json 12 | "$bin" --merge --unique >"$work/out" 2>"$work/err"
[ ! -s "$work/out" ] && [ "$(cat "$work/err")" = "nqueens: n = 12: its one part carries no unique count" ]
report "one part of the join with --unique: singular" $((! $?))

finish
