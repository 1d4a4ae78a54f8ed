#!/bin/sh
# Where a count goes when the GPU cannot take it (label gpu): skipped, with
# the reason, where `nqueens --devices` lists none.
#
# --device=gpu with a request that no rerun can count there (a checkpoint
# of the plain walk, finished or stopped; on the emulated GPU, a card too
# small for a count's buffers) is refused before counting: status 2, one
# line that names the way out, nothing on stdout. --device=auto on such a
# card counts on the CPU and says so in one line (not with --quiet), for a
# count and for an estimate.
bin=$1
. "$(dirname "$0")/../helpers/e2e_lib.sh"

need_gpu

# refused WANT PATTERN ARGS...: status WANT, nothing on stdout, one line on
# stderr that matches PATTERN
refused() {
  want=$1 pattern=$2
  shift 2
  "$bin" "$@" >"$work/out" 2>"$work/err"; status=$?
  [ $status -eq "$want" ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
    grep -q "$pattern" "$work/err" || { echo "status $status:"; cat "$work/err"; return 1; }
}

# --- a checkpoint of the plain walk: the GPU has no plain walk -----------------------
plain_gpu="^nqueens: --device=gpu counts with the symmetry and join methods; .*p10.ckpt holds units of the plain method (resume it without --device=gpu)$"
"$bin" -m plain --checkpoint "$work/p10.ckpt" 10 >/dev/null &&
  refused 2 "$plain_gpu" --device=gpu --checkpoint "$work/p10.ckpt" 10 &&
  [ "$("$bin" --checkpoint "$work/p10.ckpt" 10 2>/dev/null)" = 724 ]
report "a finished plain checkpoint with --device=gpu: status 2, resumed without it" $((! $?))

# one stopped with units saved (SIGINT once the file holds more than its
# 48-byte header)
ck=$work/p16.ckpt
"$bin" -m plain -j 1 --checkpoint-interval=0 --checkpoint "$ck" 16 >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 6000 ] && kill -0 $pid 2>/dev/null; do
  [ "$(stat -c %s "$ck" 2>/dev/null || echo 0)" -gt 48 ] && break
  sleep 0.05; i=$((i + 1))
done
kill -INT $pid 2>/dev/null; wait $pid
size=$(stat -c %s "$ck")
refused 2 "^nqueens: --device=gpu counts with .*p16.ckpt holds units of the plain method (resume it without --device=gpu)$" \
  --device=gpu --checkpoint "$ck" 16 &&
  ! grep -q "again" "$work/err" && [ "$(stat -c %s "$ck")" = "$size" ] && [ ! -e "$ck.lock" ]
report "a stopped plain checkpoint with --device=gpu: status 2 before counting, the file as it was" $((! $?))
refused 2 "$plain_gpu" --device=gpu --part 1/3 --checkpoint "$work/p10.ckpt" 10
report "... and with --part: the same line" $((! $?))
"$bin" --device=auto --checkpoint "$work/p10.ckpt" 10 >"$work/out" 2>"$work/err" &&
  [ "$(cat "$work/out")" = 724 ] && [ ! -s "$work/err" ]
report "a plain checkpoint with --device=auto: resumed on the CPU" $((! $?))

if [ "$emulated" = 0 ]; then
  finish
fi

# --- a card too small for a count's buffers (the emulated GPU's memory) ------------
small=NQ_EMU_GPU_MEMORY=4096
gpu_small="^nqueens: --device=gpu: the GPU's memory (4.0 KiB) is too small for a count's buffers; --device=cpu counts on the CPU$"
auto_small="^nqueens: --device=auto: the GPU's memory (4.0 KiB) is too small for a count's buffers; counting on the CPU$"
for args in "12" "--estimate 12" "--check 12" "-m join 18" "--part 1/3 18"; do
  # shellcheck disable=SC2086
  env $small "$bin" --device=gpu $args >"$work/out" 2>"$work/err"; status=$?
  [ $status -eq 2 ] && [ ! -s "$work/out" ] && [ "$(wc -l <"$work/err")" -eq 1 ] &&
    grep -q "$gpu_small" "$work/err"
  ok=$?
  [ $ok -eq 0 ] || { echo "status $status:"; cat "$work/err"; }
  report "--device=gpu $args on a card too small: status 2 before counting, one line" $((! ok))
done

# --device=auto: n = 18 would go to the GPU; a part of its count, and its
# estimate, go to the CPU with the CPU's default method, and say so once
out=$(env $small "$bin" --device=auto --part 1/1000 --labels 18 2>"$work/err")
printf '%s\n' "$out" | grep -q "^18	[0-9]*	1/1000	join	" &&
  [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "$auto_small" "$work/err"
report "--device=auto on a card too small: counted on the CPU, one line says so" $((! $?))
out=$(env $small "$bin" --device=auto --estimate --json 18 19 2>"$work/err")
[ "$(printf '%s\n' "$out" | grep -c '"device":"cpu"')" -eq 2 ] &&
  [ "$(wc -l <"$work/err")" -eq 1 ] && grep -q "$auto_small" "$work/err"
report "--device=auto --estimate on a card too small: on the CPU, one line says so" $((! $?))
env $small "$bin" --device=auto --quiet --part 1/1000 18 >"$work/out" 2>"$work/err" &&
  [ -s "$work/out" ] && [ ! -s "$work/err" ]
report "--device=auto --quiet on a card too small: no line" $((! $?))
env $small "$bin" --device=auto 12 >"$work/out" 2>"$work/err" &&
  [ "$(cat "$work/out")" = 14200 ] && [ ! -s "$work/err" ]
report "--device=auto on a card too small, a small board: no line (the CPU anyway)" $((! $?))
# a card that holds a count's buffers: the GPU (its default method, the
# symmetry method), no line
out=$("$bin" --device=auto --part 1/700 --labels 18 2>"$work/err")
printf '%s\n' "$out" | grep -q "^18	[0-9]*	1/700	symmetry	" && [ ! -s "$work/err" ]
report "--device=auto on a card large enough: the GPU, no line" $((! $?))

finish
