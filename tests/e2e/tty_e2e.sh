#!/bin/sh
# Progress on a terminal whose width changes during the run: every line
# drawn after the change fits the new width, lines before it used the old
# one, and the count is right.
# usage: tty_e2e.sh PATH/TO/nqueens PATH/TO/pty_resize
set -u
bin=$1 pty=$2
. "$(dirname "$0")/../helpers/e2e_lib.sh"

# a count of two seconds or more with one thread: the symmetry method,
# 5 s at n = 18 here, 4.5 s at n = 17 under the sanitizers; the width
# changes 0.8 s after the first line of progress (pty_resize waits for the
# command's first output, however long a busy machine takes to start it),
# and what is drawn from half a second after the change must fit the new
# one
# (progress is redrawn every 0.25 s, and at the end; no forecast sample
# delays the start: --no-notice --max-time=none)
n=18 total=666090624
[ "${NQ_TEST_SANITIZED:-0}" = 1 ] && n=17 total=95815104

# the lines of a terminal log, one per redraw: "\r" and "\n" end a line,
# and the erase-to-end sequence takes no room
lines() { sed 's/\x1b\[K//g' "$1" | tr '\r' '\n' | grep -v '^$'; }
widest() { awk '{ if (length($0) > w) w = length($0) } END { print w + 0 }'; }

"$pty" "$work/log" 100 30 0.8 env TERM=xterm "$bin" --progress --no-notice --max-time=none -m symmetry -j 1 $n; status=$?
sed '/^@@RESIZE@@$/,$d' "$work/log" >"$work/before"
sed -n '/^@@RESIZED@@$/,$p' "$work/log" | sed 1d >"$work/after"
before=$(lines "$work/before" | grep -c 'ETA')
after=$(lines "$work/after" | grep -c 'ETA')
wide=$(lines "$work/before" | widest)
narrow=$(lines "$work/after" | grep -v "^$total\$" | widest)
[ $status -eq 0 ]; report "--progress on a terminal that shrinks: status $status" $((! $?))
# before the change, the long form (it would not fit in 30 columns)
[ "$before" -ge 1 ] && [ "$wide" -gt 29 ] && [ "$wide" -le 99 ]
report "  $before lines before it, up to $wide columns of 100" $((! $?))
[ "$after" -ge 1 ] && [ "$narrow" -le 29 ]
report "  $after lines after it, up to $narrow columns of 30" $((! $?))
[ "$(lines "$work/after" | grep -c "^$total\$")" -eq 1 ]; report "  the count: $total" $((! $?))

# and the other way: a terminal that grows gets the long form back
"$pty" "$work/log" 30 120 0.8 env TERM=xterm "$bin" --progress --no-notice --max-time=none -m symmetry -j 1 $n; status=$?
sed '/^@@RESIZE@@$/,$d' "$work/log" >"$work/before"
sed -n '/^@@RESIZED@@$/,$p' "$work/log" | sed 1d >"$work/after"
narrow=$(lines "$work/before" | widest)
wide=$(lines "$work/after" | grep -v "^$total\$" | widest)
[ $status -eq 0 ] && [ "$narrow" -le 29 ] && [ "$wide" -gt 29 ] && [ "$wide" -le 119 ] &&
  lines "$work/after" | grep -q 'units.*elapsed' && [ "$(lines "$work/after" | grep -c "^$total\$")" -eq 1 ]
report "a terminal that grows: $narrow columns, then $wide" $((! $?))

# a dumb terminal (TERM=dumb) gets plain lines: no escape sequence, no
# carriage return; progress is still on by default there
"$pty" "$work/log" 80 80 0.1 env TERM=dumb "$bin" -m symmetry -j 1 $n; status=$?
esc=$(printf '\033') cr=$(printf '\r')
# (the terminal ends each line with "\r\n": any other "\r" is a redraw)
[ $status -eq 0 ] && ! grep -q "$esc" "$work/log" && grep -q "^$total" "$work/log" &&
  grep -q "^nqueens: n = $n: .*units.*ETA" "$work/log" && ! sed "s/$cr\$//" "$work/log" | grep -q "$cr"
report "TERM=dumb: progress in plain lines, no escape sequence" $((! $?))

# -q: the count alone, where a terminal would show progress by default
# (the count is its first output: it ends before the resize, status 3)
"$pty" "$work/log" 80 80 0.1 env TERM=xterm "$bin" -q -m symmetry -j 1 $n; status=$?
{ [ $status -eq 0 ] || [ $status -eq 3 ]; } && [ "$(lines "$work/log" | grep -v '^@@RESIZE')" = "$total" ]
report "-q on a terminal: no progress, the count" $((! $?))

# a terminal whose TERM is empty or unset may take no escape sequence
# either: the same plain lines (--progress draws from the start, so a
# short count shows it; the command may end before the resize is tried)
for how in "TERM=" "-u TERM"; do
  "$pty" "$work/log" 80 80 0.1 env $how "$bin" --progress -m symmetry -j 1 16; status=$?
  { [ $status -eq 0 ] || [ $status -eq 3 ]; } && ! grep -q "$esc" "$work/log" &&
    grep -q "^14772512" "$work/log" && grep -q "^nqueens: n = 16: .*units" "$work/log" &&
    ! sed "s/$cr\$//" "$work/log" | grep -q "$cr"
  report "env $how: progress in plain lines, no escape sequence" $((! $?))
done

# --part without --json on a terminal: a note says what --merge reads; with
# --json, none
"$pty" "$work/log" 80 80 0.1 "$bin" --part 1/3 8; status=$?
{ [ $status -eq 0 ] || [ $status -eq 3 ]; } &&
  grep -q "^nqueens: note: --merge reads only parts printed with --json" "$work/log" &&
  grep -q "^24" "$work/log"
report "--part 1/3 8 on a terminal: the note, then the part" $((! $?))
"$pty" "$work/log" 80 80 0.1 "$bin" --part 1/3 --json 8; status=$?
{ [ $status -eq 0 ] || [ $status -eq 3 ]; } && ! grep -q "note" "$work/log" &&
  grep -q '^{"n":8,' "$work/log"
report "--part 1/3 --json 8 on a terminal: no note" $((! $?))

finish
