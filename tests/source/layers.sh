#!/bin/sh
# layers.sh SRCDIR OBJECTS... - the calls between the source files of src/,
# read from the symbols of their object files (nm): a file's calls are the
# symbols it uses that another file defines (functions and tables alike).
# Two rules (docs/conventions.md, "Layout"):
#   1. no circles: no file calls, directly or through others, a file that
#      calls it back, anywhere in src/, inside a folder or across folders;
#   2. the join's files call downwards only, in the order of the list at
#      the top of src/methods/join/join_internal.h (every .c file of the
#      folder must be in that list).
# OBJECTS are object files, or ';'-separated lists of them (as CMake's
# $<TARGET_OBJECTS:...> gives). Files are named by their base names, which
# are unique across src/. NM names the nm to use (default nm).
set -eu
src=$1
shift
nm=${NM:-nm}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# one object per argument (a ';'-list split), then one nm for them all
for list in "$@"; do
  old_ifs=$IFS
  IFS=';'
  # shellcheck disable=SC2086 # split at ';' on purpose
  set -- "$@" $list
  IFS=$old_ifs
  shift
done
[ $# -gt 0 ] || { echo "layers.sh: no object files given" >&2; exit 1; }

# "FILE SYMBOL D" for each symbol FILE defines, "FILE SYMBOL U" for each it
# uses (nm -P -A: "PATH: SYMBOL TYPE ...", PATH ending in .c.o)
"$nm" -P -A "$@" | awk '
  {
    i = match($0, /\.o: /)
    if (!i) next
    f = substr($0, 1, i - 1); sub(/.*\//, "", f)
    split(substr($0, i + 4), w, " ")
    if (w[2] == "U") print f, w[1], "U"
    else if (w[2] ~ /^[TDRBCVWG]$/) print f, w[1], "D"
  }' >"$work/symbols"
[ -s "$work/symbols" ] || { echo "layers.sh: nm read no symbols" >&2; exit 1; }

# the join's order, from the list at the top of join_internal.h
sed -n '1,/\*\//p' "$src/src/methods/join/join_internal.h" |
  sed -n 's/^ \*   \(join[a-z0-9_]*\.c\).*/\1/p' >"$work/join_order"
[ -s "$work/join_order" ] ||
  { echo "layers.sh: no list of files at the top of join_internal.h" >&2; exit 1; }

awk -v order="$work/join_order" '
  BEGIN { while ((getline f < order) > 0) rank[f] = ++nranks }
  $3 == "D" { if (!($2 in def)) def[$2] = $1; files[$1] = 1; next }
  { files[$1] = 1; use[++nuse] = $1 SUBSEP $2 }
  END {
    bad = 0
    for (i = 1; i <= nuse; i++) {
      split(use[i], p, SUBSEP)
      if (!(p[2] in def) || def[p[2]] == p[1]) continue
      e = p[1] SUBSEP def[p[2]]
      if (!(e in why)) { why[e] = p[2]; out[p[1]] = out[p[1]] " " def[p[2]] }
    }
    # rule 2: the join
    for (f in files)
      if (f ~ /^join.*\.c$/ && !(f in rank)) {
        print "layers: " f " is not in the list of files of join_internal.h"
        bad = 1
      }
    for (e in why) {
      split(e, p, SUBSEP)
      if ((p[1] in rank) && (p[2] in rank) && rank[p[2]] <= rank[p[1]]) {
        print "layers: " p[1] " calls " p[2] " (" why[e] "), which join_internal.h lists above it"
        bad = 1
      }
    }
    # rule 1: a call u -> v closes a circle when v reaches u
    for (e in why) {
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
      path = u
      for (y = u; y != v; y = from[y]) path = from[y] " -> " path
      print "layers: a circle: " u " -> " path " (" u " uses " why[e] ")"
      bad = 1
    }
    exit bad
  }' "$work/symbols" || exit 1
echo "layers: $(cut -d' ' -f1 "$work/symbols" | sort -u | wc -l) files, no circle, the join in order"
