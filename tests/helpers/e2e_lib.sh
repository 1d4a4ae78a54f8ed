# Shared by the end-to-end scripts (sourced, not run): a scratch folder
# removed on exit, and a tally of named checks.
#
#   report NAME OK    records one check (OK: 1 passed, 0 failed)
#   finish            prints "N passed, N failed" and exits 0 or 1
#   ckpt_records FILE the number of finished units checkpoint FILE records
#   wait_saved FILE [PID]  waits until FILE records a finished unit
#
# In a cross build ctest sets NQ_EMULATOR (e.g. "qemu-aarch64 -L /"):
# $bin then becomes a script that runs the program under it.
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

if [ -n "${NQ_EMULATOR:-}" ]; then
  printf '#!/bin/sh\nexec %s "%s" "$@"\n' "$NQ_EMULATOR" "$bin" >"$work/nqueens"
  chmod +x "$work/nqueens"
  bin=$work/nqueens
fi

# need_gpu: exits 77 (skipped, saying why) where `nqueens --devices` lists
# no GPU; else sets emulated to 1 on the emulated GPU of a build with
# NQ_CUDA_EMULATOR, 0 on a real one.
need_gpu() {
  "$bin" --devices >"$work/devices" 2>&1
  if ! grep -q "^gpu 0" "$work/devices"; then
    echo "skipped: no GPU to count on ($(grep -v '^cpu' "$work/devices" | head -n 1))"
    exit 77
  fi
  emulated=0
  grep -q "^gpu 0.*nqueens emulated GPU" "$work/devices" && emulated=1
}

report() {
  if [ "$2" -eq 1 ]; then passed=$((passed + 1)); echo "ok - $1"
  else failed=$((failed + 1)); echo "not ok - $1"; fi
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}

# ckpt_records FILE: R, the number of records of checkpoint FILE (the
# 8 little-endian bytes at offset 32, docs/checkpoint-format.md); 0 while
# FILE is missing or shorter than a header. A save renames a whole new
# file over FILE, so a read sees one save or the next, never half of one.
ckpt_records() {
  r=$(od -An -tu8 -j32 -N8 "$1" 2>/dev/null | tr -d ' ')
  echo "${r:-0}"
}

# wait_saved FILE [PID]: until checkpoint FILE records at least one
# finished unit (however slow or busy the machine: the limit, five
# minutes, only ends a hang), or until process PID has ended. Status 0
# once FILE holds a unit.
wait_saved() {
  ws_i=0
  while [ $ws_i -lt 6000 ]; do
    [ "$(ckpt_records "$1")" -gt 0 ] && return 0
    if [ -n "${2:-}" ] && ! kill -0 "$2" 2>/dev/null; then
      [ "$(ckpt_records "$1")" -gt 0 ]
      return
    fi
    sleep 0.05; ws_i=$((ws_i + 1))
  done
  return 1
}
