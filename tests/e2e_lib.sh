# Shared by the end-to-end scripts (sourced, not run): a scratch folder
# removed on exit, and a tally of named checks.
#
#   report NAME OK    records one check (OK: 1 passed, 0 failed)
#   finish            prints "N passed, N failed" and exits 0 or 1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
passed=0 failed=0

report() {
  if [ "$2" -eq 1 ]; then passed=$((passed + 1)); echo "ok - $1"
  else failed=$((failed + 1)); echo "not ok - $1"; fi
}

finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
  exit
}
