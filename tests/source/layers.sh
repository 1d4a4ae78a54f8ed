#!/bin/sh
# layers.sh SRCDIR OBJECTS... - the layers of the source, read two ways:
# from the `#include "..."` lines of every file of include/, src/ and
# bench/ (headers are nodes of their own), and from the symbols of the
# object files (nm: a file calls another when it uses a symbol, function
# or table, that the other defines). A header stands for the file that
# implements it (X.h -> X.c, X.cu): who includes it leans on that file.
# Two rules (docs/conventions.md, "Layout"):
#   1. no circle: no file reaches itself again, through includes or calls
#      or both, anywhere, inside a folder or across folders;
#   2. no arrow running up: no file includes or calls a file on a higher
#      floor than its own (the floors are listed below, ground first).
# OBJECTS are object files, or ';'-separated lists of them (as CMake's
# $<TARGET_OBJECTS:...> gives). Files are named by their base names, which
# are unique across include/, src/ and bench/. NM names the nm to use
# (default nm). With no OBJECTS (--includes-only), only the includes are
# read.
set -eu
src=$1
shift
nm=${NM:-nm}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# floor PATH: the floor of a file, from the ground (1) up
floor() {
  case $1 in
    include/*|src/stop.h|src/common/*|src/steps/*) echo 1 ;;
    src/status.c|src/options.[ch]|src/results.[ch]|src/known.c|src/platform/*) echo 2 ;;
    src/method.h|src/solutions/*|src/device/*) echo 3 ;;
    src/methods/*|src/checkpoint/*|src/parts/*) echo 4 ;;
    src/engine/*) echo 5 ;;
    src/apps/*) echo 6 ;;
    src/cli/*|src/mpi/*|bench/*) echo 7 ;;
    *) echo 0 ;;
  esac
}

# "NAME PATH FLOOR" for every file
cd "$src"
find include src bench -type f \( -name '*.c' -o -name '*.h' -o -name '*.cu' \) | sort |
  while read -r path; do
    f=$(floor "$path")
    [ "$f" != 0 ] || { echo "layers: $path is on no floor (add it to tests/source/layers.sh)" >&2; exit 1; }
    echo "${path##*/} $path $f"
  done >"$work/files"
cd - >/dev/null
[ -s "$work/files" ] || { echo "layers: no source files under $src" >&2; exit 1; }
dups=$(cut -d' ' -f1 "$work/files" | sort | uniq -d)
[ -z "$dups" ] || { echo "layers: base names used twice: $dups" >&2; exit 1; }

# "FROM TO include" for every #include "..." of a file of the list
while read -r name path fl; do
  sed -n 's/^[ 	]*#[ 	]*include[ 	]*"\([^"]*\)".*/\1/p' "$src/$path" |
    while read -r inc; do echo "$name ${inc##*/} include"; done
done <"$work/files" >"$work/edges"

# "FROM TO call" from the symbols of the objects
if [ $# -gt 0 ]; then
  for list in "$@"; do
    old_ifs=$IFS
    IFS=';'
    # shellcheck disable=SC2086 # split at ';' on purpose
    set -- "$@" $list
    IFS=$old_ifs
    shift
  done
  "$nm" -P -A "$@" | awk '
    {
      i = match($0, /\.o: /)
      if (!i) next
      f = substr($0, 1, i - 1); sub(/.*\//, "", f); sub(/\.o$/, "", f)
      split(substr($0, i + 4), w, " ")
      if (w[2] == "U") use[++nuse] = f SUBSEP w[1]
      else if (w[2] ~ /^[TDRBCVWG]$/ && !(w[1] in def)) def[w[1]] = f
    }
    END {
      for (i = 1; i <= nuse; i++) {
        split(use[i], p, SUBSEP)
        if ((p[2] in def) && def[p[2]] != p[1]) print p[1], def[p[2]], "call:" p[2]
      }
    }' | sort -u >>"$work/edges"
  grep -q ' call:' "$work/edges" || { echo "layers: nm read no calls between files" >&2; exit 1; }
fi

awk -v files="$work/files" '
  BEGIN {
    while ((getline line < files) > 0) {
      split(line, w, " ")
      path[w[1]] = w[2]; fl[w[1]] = w[3]; nfiles++
      if (w[1] ~ /\.(c|cu)$/) impl[w[2]] = w[1]
    }
    # a header leans on the file that implements it, in its own folder
    for (f in path)
      if (f ~ /\.h$/) {
        hp = path[f]; sub(/\.h$/, ".c", hp)
        hq = path[f]; sub(/\.h$/, ".cu", hq)
        if (hp in impl) add(f, impl[hp], "implemented by")
        if (hq in impl) add(f, impl[hq], "implemented by")
      }
  }
  function add(u, v, why,   e) {
    if (u == v) return
    e = u SUBSEP v
    if (e in how) return
    how[e] = why; out[u] = out[u] " " v; nedges++
  }
  # (a file including its own header draws no arrow: the two are one)
  {
    if (!($1 in path) || !($2 in path)) next
    own = path[$1]; sub(/\.(c|cu)$/, ".h", own)
    if ($3 == "include" && own == path[$2]) next
    add($1, $2, $3 == "include" ? "includes" : "calls " substr($3, 6))
  }
  END {
    bad = 0
    # rule 2: every arrow points down or across a floor
    for (e in how) {
      split(e, p, SUBSEP)
      if (fl[p[2]] > fl[p[1]]) {
        print "layers: an arrow running up: " path[p[1]] " (floor " fl[p[1]] ") " how[e] \
              " " path[p[2]] " (floor " fl[p[2]] ")"
        bad = 1
      }
    }
    # rule 1: an arrow u -> v closes a circle when v reaches u; each
    # circle is told once, from its first arrow in this order
    for (e in how) {
      split(e, p, SUBSEP)
      u = p[1]; v = p[2]
      delete seen; delete from
      head = 1; tail = 1; queue[1] = v; seen[v] = 1; found = 0
      while (head <= tail && !found) {
        x = queue[head++]
        n = split(out[x], next_, " ")
        for (j = 1; j <= n; j++) {
          y = next_[j]
          if (y in seen) continue
          seen[y] = 1; from[y] = x; queue[++tail] = y
          if (y == u) { found = 1; break }
        }
      }
      if (!found) continue
      path_ = u
      for (y = u; y != v; y = from[y]) path_ = from[y] " -> " path_
      key = path_
      n = split(path_, ring, " -> ")
      least = ring[1]
      for (j = 2; j < n; j++) if (ring[j] < least) least = ring[j]
      if (least in told) continue
      told[least] = 1
      print "layers: a circle: " u " -> " path_ " (" u " " how[e] " " v ")"
      bad = 1
    }
    if (!bad)
      print "layers: " nfiles " files, " nedges " arrows (includes, calls, headers to their" \
            " files): no circle, none running up"
    exit bad
  }' "$work/edges"
