#!/bin/sh
# Every hint that a message gives is one that works: each case below makes
# the command give its hint, checks the hint's words, then does what the
# hint says and checks that it succeeds. A hint that does not work is not
# given (a join checkpoint resumed with --unique is not told to use
# --method=join alone).
# usage: hints_e2e.sh PATH/TO/nqueens
set -u
bin=$1
. "$(dirname "$0")/../helpers/e2e_lib.sh"
cd "$work" || exit 1

# refused STATUS ARGS...: that status, nothing on stdout; the message in $msg
refused() {
  want=$1; shift
  "$bin" "$@" >out 2>err; status=$?
  msg=$(head -n 1 err)
  [ $status -eq "$want" ] && [ ! -s out ]
}
# works WANT ARGS...: status 0 and WANT on stdout
works() {
  want=$1; shift
  got=$("$bin" "$@" 2>err) && [ "$got" = "$want" ]
}

# --- a checkpoint of another method: --method=M resumes it ------------------------
"$bin" -m plain --checkpoint p.ckpt 10 >/dev/null 2>&1
refused 2 -m symmetry --checkpoint p.ckpt 10 &&
  [ "$msg" = "nqueens: p.ckpt holds method plain, not symmetry (--method=plain resumes it); refusing to use it" ] &&
  works 724 -m symmetry --method=plain --checkpoint p.ckpt 10
report "a plain checkpoint, -m symmetry: --method=plain resumes it, and does" $((! $?))

# a join checkpoint with --unique: the join counts totals only, so the way
# out drops --unique (--method=join alone would be refused)
"$bin" -m join --checkpoint j.ckpt 12 >/dev/null 2>&1
hint="nqueens: j.ckpt holds method join, not symmetry (the join method counts totals only: --method=join without --unique resumes it); refusing to use it"
refused 2 -u --checkpoint j.ckpt 12 && [ "$msg" = "$hint" ] &&
  refused 2 -u -m symmetry --checkpoint j.ckpt 12 && [ "$msg" = "$hint" ] &&
  refused 2 -u --method=join --checkpoint j.ckpt 12 &&
  works 14200 --method=join --checkpoint j.ckpt 12
report "a join checkpoint with -u: --method=join without --unique resumes it, and does" $((! $?))

# --- a link in place of the checkpoint: name the file itself ----------------------
ln -s p.ckpt link.ckpt
refused 2 -m plain --checkpoint link.ckpt 10 &&
  [ "$msg" = "nqueens: link.ckpt: a symbolic link, which a checkpoint never follows (name the file itself)" ] &&
  works 724 -m plain --checkpoint "$(readlink link.ckpt)" 10
report "a link: naming the file itself resumes it" $((! $?))

# --- --part with more parts than units: at most that many ---------------------------
refused 2 --part 1/47 -m symmetry 8 &&
  [ "$msg" = "nqueens: --part 1/47: n = 8 has 46 work units, so M can be at most 46" ] &&
  "$bin" --part 46/46 -m symmetry --json 8 >out 2>err && grep -q '^{"n":8,.*"part":46,"parts":46,' out
report "--part 1/47 of 46 units: M = 46 is taken" $((! $?))

# --- a part printed without --json: --merge says how parts are printed --------------
"$bin" --part 1/1 8 >bare.txt 2>err
refused 2 --merge bare.txt &&
  [ "$msg" = "nqueens: bare.txt:1: not a part result: not a JSON object of part fields (byte 1); --merge reads the lines of 'nqueens --part K/M --json N'" ] &&
  "$bin" --part 1/1 --json 8 >part.json && works 92 --merge part.json
report "--merge of a bare part: it says to add --json, and that merges" $((! $?))
# a count's JSON line is not a part either, and gets the same words
"$bin" --json 8 >count.json
refused 2 --merge count.json && case $msg in
  *"missing key"*"; --merge reads the lines of 'nqueens --part K/M --json N'") true ;;
  *) false ;; esac
report "--merge of a count's JSON line: the same words" $((! $?))
# a damaged part is no case for them
sed 's/"total":92/"total":93/' part.json >damaged.json
refused 2 --merge damaged.json && case $msg in *"--json"*) false ;; *) true ;; esac
report "--merge of a damaged part: no word of --json" $((! $?))

# --- memory: one thread fits, and -j 1 says so ---------------------------------------
m1=$("$bin" --estimate --json -m symmetry -j 1 12 | sed 's/.*"memory":\([0-9]*\).*/\1/')
refused 2 -m symmetry -j 2 --max-memory="${m1}B" 12 &&
  case $msg in *"; with 1 thread it needs "*" (-j 1)") true ;; *) false ;; esac &&
  works 14200 -m symmetry -j 1 --max-memory="${m1}B" 12
report "a count that fits one thread: -j 1 counts it" $((! $?))

# --- --max-time: --max-time=none counts anyway (it starts counting, not refused) ----
refused 2 -m symmetry -j 1 --max-time=1 18 &&
  case $msg in *"more than --max-time allows (1.0 seconds); --max-time=none counts anyway") true ;;
    *) false ;; esac
ok=$?
if [ $ok -eq 0 ]; then
  # stopped once it has counted for a second of CPU time (a refusal takes
  # a fifth of one), however busy the machine, or let finish on one so
  # fast that it ends first: either way it counted
  "$bin" -m symmetry -j 1 --max-time=none 18 >out 2>err &
  pid=$!
  i=0
  while [ $i -lt 6000 ]; do
    t=$(awk '{ print $14 + $15 }' "/proc/$pid/stat" 2>/dev/null) || break
    [ -n "$t" ] && [ "$t" -ge 100 ] && break
    sleep 0.01; i=$((i + 1))
  done
  kill -TERM "$pid" 2>/dev/null; wait "$pid"; status=$?
  { [ $status -eq 143 ] || { [ $status -eq 0 ] && [ "$(cat out)" = 666090624 ]; }; } &&
    ! grep -q "max-time" err || ok=1
fi
report "a count longer than --max-time: --max-time=none counts it" $((! ok))

# --- --random out of steps: raise --max-steps ----------------------------------------
refused 1 --random 100 --seed 1 --max-steps 1 &&
  [ "$msg" = "nqueens: n = 100: no solution found within the step limit (raise --max-steps or try another --seed)" ] &&
  "$bin" --random 100 --seed 1 --max-steps 1000000 >out && [ "$(wc -w <out)" -eq 100 ]
report "--random out of steps: a higher --max-steps finds one" $((! $?))

# --- --unique with a method of totals only: the symmetry method counts it -------------
refused 2 -u -m join 10 &&
  [ "$msg" = "nqueens: --unique needs the symmetry method (the join method counts totals only)" ] &&
  works 92 -u -m symmetry 10
report "--unique -m join: the symmetry method counts it" $((! $?))

# --- --recheck a way the method lacks: --by=kernel ---------------------------------------
"$bin" -m symmetry --checkpoint s.ckpt 10 >/dev/null 2>&1
refused 2 --recheck s.ckpt --by=independent && case $msg in
  "nqueens: --by=independent: the symmetry method's units cannot be counted that way (try --by=kernel"*) true ;;
  *) false ;; esac &&
  "$bin" --recheck s.ckpt --by=kernel >out 2>err && grep -q ': all match$' out
report "--recheck --by=independent of the symmetry method: --by=kernel works" $((! $?))
# "at another --simd" only where this CPU has a level beside none, and then
# that level re-checks it
level=none
for l in avx512 avx2; do
  "$bin" --simd=$l 4 >/dev/null 2>&1 && { level=$l; break; }
done
case $msg in
  *"(try --by=kernel at another --simd)") [ $level != none ] &&
    "$bin" --recheck s.ckpt --by=kernel --simd=$level >out 2>err && grep -q ': all match$' out ;;
  *"(try --by=kernel)") [ $level = none ] ;;
  *) false ;;
esac
report "  another --simd is named only where there is one ($level), and it works" $((! $?))

finish
