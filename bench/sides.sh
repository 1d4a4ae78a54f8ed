# Sourced by the bench scripts: times commands side by side, and the
# helpers they share.

# median_of < NUMBERS, median FILE: the median of one number a line.
median_of() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
median() { median_of <"$1"; }

# bench_build DIR: DIR configured as a Release build without tests, and
# the nqueens command built in it.
bench_build() {
  cmake -S . -B "$1" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF >/dev/null &&
    cmake --build "$1" -j 2 --target nqueens_exe >/dev/null
}

# bench_levels NQUEENS: the SIMD levels to time, NQ_LEVELS if set, else
# those of avx512, avx2 and none that this CPU runs.
bench_levels() {
  if [ -n "${NQ_LEVELS:-}" ]; then
    echo "$NQ_LEVELS"
    return
  fi
  _ls=
  for _l in avx512 avx2 none; do
    "$1" --simd=$_l 4 >/dev/null 2>&1 && _ls="${_ls:+$_ls }$_l"
  done
  echo "$_ls"
}
#
# side_by_side ROUNDS REFS [cpu|wall] < LINES
#   LINES: one "label|command" per line. Every round runs each command
#   once, in turn, so that a change in the machine's load touches all of
#   them alike. Prints a Markdown table: each command's first output line,
#   its median CPU time (user + system) and wall time, and the ratios of
#   the medians (CPU, the default, or wall: use wall where threads differ)
#   of the first REFS commands to its own ("ref / this": above 1 means this
#   one is faster). Needs GNU time (/usr/bin/time).
side_by_side() {
  _rounds=$1 _refs=$2 _basis=${3:-cpu}
  _tmp=$(mktemp -d)
  cat >"$_tmp/cmds"
  _r=0
  while [ "$_r" -lt "$_rounds" ]; do
    _i=0
    while IFS='|' read -r _label _cmd; do
      # shellcheck disable=SC2086
      /usr/bin/time -f "%U %S %e" -o "$_tmp/t" $_cmd >"$_tmp/out" </dev/null
      awk '{ printf "%.3f %.3f\n", $1 + $2, $3 }' "$_tmp/t" >>"$_tmp/times.$_i"
      head -c 200 "$_tmp/out" | head -n 1 >"$_tmp/result.$_i"
      _i=$((_i + 1))
    done <"$_tmp/cmds"
    _r=$((_r + 1))
  done
  printf '\n| command | output | CPU s (median) | wall s (median) |'
  _j=0
  while IFS='|' read -r _label _cmd && [ "$_j" -lt "$_refs" ]; do
    printf ' %s / this (%s) |' "$_label" "$_basis"
    _j=$((_j + 1))
  done <"$_tmp/cmds"
  printf '\n|---|---|---:|---:|'
  _j=0
  while [ "$_j" -lt "$_refs" ]; do printf -- '---:|'; _j=$((_j + 1)); done
  printf '\n'
  _i=0
  while IFS='|' read -r _label _cmd; do
    cut -d' ' -f1 "$_tmp/times.$_i" | median_of >"$_tmp/cpu.$_i"
    cut -d' ' -f2 "$_tmp/times.$_i" | median_of >"$_tmp/wall.$_i"
    _i=$((_i + 1))
  done <"$_tmp/cmds"
  _i=0
  while IFS='|' read -r _label _cmd; do
    printf '| `%s` | %s | %.3f | %.3f |' "$_label" "$(cat "$_tmp/result.$_i")" \
      "$(cat "$_tmp/cpu.$_i")" "$(cat "$_tmp/wall.$_i")"
    _j=0
    while [ "$_j" -lt "$_refs" ]; do
      printf ' %.2fx |' "$(awk -v a="$(cat "$_tmp/$_basis.$_j")" -v b="$(cat "$_tmp/$_basis.$_i")" \
        'BEGIN { print (b > 0) ? a / b : 0 }')"
      _j=$((_j + 1))
    done
    printf '\n'
    _i=$((_i + 1))
  done <"$_tmp/cmds"
  rm -rf "$_tmp"
}
