# Shared by the end-to-end scripts (sourced, not run): a scratch folder
# removed on exit, and a tally of named checks.
#
#   report NAME OK    records one check (OK: 1 passed, 0 failed)
#   finish            prints "N passed, N failed" and exits 0 or 1
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

report() {
  if [ "$2" -eq 1 ]; then passed=$((passed + 1)); echo "ok - $1"
  else failed=$((failed + 1)); echo "not ok - $1"; fi
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}
