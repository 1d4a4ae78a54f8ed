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
[ $status -eq 2 ] && [ ! -s "$work/out" ] &&
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

# --- the file at fault: the checkpoint, its lock file or its folder ---------------
# refused_as ARGS... MESSAGE: refused with exactly that one line, and
# nothing made in the scratch folder (the files made for the case aside)
cd "$work" || exit 1
mkdir at && cd at || exit 1
refused_as() {
  want=$1; shift
  before=$(ls -A)
  refused "$@" && [ "$(cat "$work/err")" = "$want" ] && [ "$(ls -A)" = "$before" ]
}
echo precious >victim
ln -s victim lk.ckpt.lock
refused_as "nqueens: lk.ckpt.lock: the checkpoint's lock file is a symbolic link (never followed)" \
  --checkpoint lk.ckpt 8
report "a lock file that is a link: the lock file is named" $((! $?))
mkdir d2.ckpt.lock
refused_as "nqueens: d2.ckpt.lock: the checkpoint's lock file is a folder" --checkpoint d2.ckpt 8
report "a lock file that is a folder: the lock file is named" $((! $?))
mkfifo ff.ckpt.lock
refused_as "nqueens: ff.ckpt.lock: the checkpoint's lock file is not a regular file" \
  --checkpoint ff.ckpt 8
report "a lock file that is a FIFO: the lock file is named" $((! $?))
refused_as "nqueens: /proc/self/mem.lock: cannot make the checkpoint's lock file: its folder takes no new files" \
  --checkpoint /proc/self/mem 8
report "--checkpoint /proc/self/mem: no file can be made beside it" $((! $?))
refused_as "nqueens: missing/x.ckpt: No such file or directory" --checkpoint missing/x.ckpt 8
report "a folder that does not exist: the checkpoint is named" $((! $?))
refused_as "nqueens: /dev/null: not a regular file; refusing to use it" --checkpoint /dev/null 8 &&
  [ ! -e /dev/null.lock ]
report "--checkpoint /dev/null: not a regular file, and no /dev/null.lock" $((! $?))
mkdir d
refused_as "nqueens: d: Is a directory" --checkpoint d 8
report "--checkpoint on a folder: no lock file beside it" $((! $?))
ln -s victim l.ckpt
refused_as "nqueens: l.ckpt: a symbolic link, which a checkpoint never follows (name the file itself)" \
  --checkpoint l.ckpt 8 &&
  refused_as "nqueens: l.ckpt: a symbolic link, which a checkpoint never follows (name the file itself)" \
    --recheck l.ckpt && [ "$(cat victim)" = precious ]
report "a checkpoint that is a link: refused, the link named" $((! $?))
# the hint works: the file itself is used
"$bin" -m symmetry --checkpoint real.ckpt 8 >/dev/null 2>&1 && ln -s real.ckpt link.ckpt &&
  refused --checkpoint link.ckpt 8 && out=$("$bin" --checkpoint real.ckpt 8 2>&1) && [ "$out" = 92 ]
report "  naming the file itself, as the message says, resumes it" $((! $?))
refused_as "nqueens: /dev/null: not a regular file" --recheck /dev/null
report "--recheck /dev/null: not a regular file" $((! $?))

# --- after "--", a word that starts with '-' is an operand, not an option ------------
refused -- -m 8 &&
  [ "$msg" = "nqueens: '-m' is not a board size (expected 0..28 or a range A-B)" ]
report "nqueens -- -m 8: '-m' is not a board size" $((! $?))
refused -- -5 8 && [ "$msg" = "nqueens: '-5' is not a board size: sizes are not negative" ]
report "nqueens -- -5 8: sizes are not negative" $((! $?))
printf '8\n-x\n' | "$bin" >"$work/out" 2>"$work/err"
[ "$(cat "$work/err")" = "nqueens: line 2: '-x' is not a board size (expected 0..28 or a range A-B)" ] &&
  [ ! -s "$work/out" ]
report "'-x' on standard input: not a board size" $((! $?))

# off a terminal, --part without --json prints its share alone, no note
out=$("$bin" --part 1/3 8 2>"$work/err")
[ "$out" = 24 ] && [ ! -s "$work/err" ]
report "--part 1/3 8 off a terminal: 24, and no note" $((! $?))

# --- every line on stderr is a message that starts with "nqueens: " (or the line
# that points to --help after a usage error): errors, warnings, notes, the
# resuming line, progress written as plain lines --------------------------------
all=$work/all_stderr
: >"$all"
say() { "$bin" "$@" >/dev/null 2>>"$all"; }
say --progress -m symmetry 13
say -m symmetry --checkpoint done.ckpt 10
say --progress -m symmetry --checkpoint done.ckpt 10
say -- -m 8
say --bogus
say --merge /dev/null
say --merge "$work/unchecked"
say --merge bare-missing.json
say --checkpoint d2.ckpt 8
say --recheck done.ckpt --by=independent
say --random 100 --seed 1 --max-steps 1
say -m symmetry -j 2 --max-memory=1 12
say --part 1/47 -m symmetry 8
[ -s "$all" ] && grep -q '^nqueens: resuming: ' "$all" && grep -q '^nqueens: n = 13: .*units' "$all" &&
  ! grep -v -e '^nqueens: ' -e "^Try 'nqueens --help' for more information\.\$" "$all"
report "every line on stderr starts with 'nqueens: '" $((! $?))
cd "$work" || exit 1

finish
