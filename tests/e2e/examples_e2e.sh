#!/bin/sh
# Every shell example of the README, docs/json.md, docs/record-runs.md and
# the man pages is run, and what it prints is compared with what the page
# shows, so that the documentation cannot drift from the program.
#
# The convention, in Markdown: a ```console block; each line that starts
# with "$ " is a command, and the lines after it, up to the next "$ " or
# the end of the block, are what it prints (stdout and stderr together, as
# on a terminal). In a man page: the same inside .EX/.EE, with roff escapes
# (\- \e \(aq \&) read as what they print. A line "..." in the shown output
# stands for any number of lines. A command that ends in "# not run: WHY"
# (needs MPI, takes too long) is skipped, and WHY is printed.
#
# A ```c block is a whole program, written to the page's scratch folder
# under the name its first line gives ("/* count.c: ... */"), for the
# commands after it to build and run. A command that starts with "cc "
# builds against the library as an install leaves it (the header and
# libnqueens in the compiler's and loader's default places): here the
# source's include/ and the built library stand in for /usr/local, through
# C_INCLUDE_PATH, LIBRARY_PATH and LD_LIBRARY_PATH. Without a library to
# link (LIBDIR empty: a sanitizer or cross build) such commands are
# skipped, and say why.
#
# The commands of one page run in order, in one scratch folder of their
# own, with the built nqueens first on PATH.
# usage: examples_e2e.sh PATH/TO/nqueens SOURCE_DIR [LIBDIR]
set -u
bin=$1 src=$2 libdir=${3:-}
. "$(dirname "$0")/../helpers/e2e_lib.sh"

mkdir "$work/bin"
ln -s "$bin" "$work/bin/nqueens"
case $bin in /*) ;; *) ln -sf "$PWD/$bin" "$work/bin/nqueens" ;; esac

# extract FILE DIR: writes DIR/K.cmd, DIR/K.want and DIR/K.where for the
# K-th example of FILE (K = 1, 2, ...)
extract() {
  awk -v dir="$2" -v file="$1" '
    function roff(s) {
      gsub(/\\-/, "-", s); gsub(/\\\(aq/, "\047", s); gsub(/\\\(dq/, "\"", s)
      gsub(/\\&/, "", s); gsub(/\\e/, "\\", s)
      return s
    }
    function line(s) {
      if (substr(s, 1, 2) == "$ ") {
        k++
        printf "%s\n", substr(s, 3) > (dir "/" k ".cmd")
        printf "%s:%d\n", file, NR > (dir "/" k ".where")
        printf "" > (dir "/" k ".want")
      } else if (k > 0 && open) {
        printf "%s\n", s > (dir "/" k ".want")
      }
    }
    /^```console[ \t]*$/ { inblock = 1; open = 0; next }
    inblock && /^```/ { inblock = 0; open = 0; next }
    /^\.EX[ \t]*$/ { inroff = 1; open = 0; next }
    inroff && /^\.EE/ { inroff = 0; open = 0; next }
    inblock { if (substr($0, 1, 2) == "$ ") open = 1; line($0); next }
    inroff { s = roff($0); if (substr(s, 1, 2) == "$ ") open = 1; line(s); next }
  ' "$1"
}

# extract_c FILE DIR: writes each ```c block of FILE to DIR under the name
# its first line gives; prints "NAME" for each, or "unnamed LINE"
extract_c() {
  awk -v dir="$2" '
    /^```c[ \t]*$/ { inc = 1; name = ""; first = NR + 1; next }
    inc && /^```/ {
      inc = 0
      print (name != "" ? name : "unnamed " first)
      next
    }
    inc && NR == first {
      if (match($0, /^\/\* [A-Za-z0-9_.-]+\.c: /)) name = substr($0, 4, RLENGTH - 5)
    }
    inc && name != "" { print > (dir "/" name) }
  ' "$1"
}

# matches WANT GOT: GOT is WANT, a "..." line of WANT matching any lines
matches() {
  awk -v wantf="$1" '
    function m(i, j,   k) {
      if (i > nw) return j > ng
      if (w[i] == "...") {
        for (k = j; k <= ng + 1; k++) if (m(i + 1, k)) return 1
        return 0
      }
      return j <= ng && w[i] == g[j] && m(i + 1, j + 1)
    }
    FNR == NR { w[++nw] = $0; next }
    { g[++ng] = $0 }
    END { exit !m(1, 1) }
  ' "$1" "$2"
}

# compare: reports whether the example's output ($dir/got) is the one
# shown, and counts it in $ran
compare() {
  matches "$dir/ex/$k.want" "$dir/got"; ok=$((! $?))
  report "$where: \$ $cmd" $ok
  if [ $ok -eq 0 ]; then
    echo "  shown:"; sed 's/^/  | /' "$dir/ex/$k.want"
    echo "  printed:"; sed 's/^/  | /' "$dir/got"
  fi
  ran=$((ran + 1))
}

# run_page FILE NAME: runs every example of FILE; sets $ran
run_page() {
  dir=$work/$2
  mkdir -p "$dir/ex" "$dir/run"
  extract "$1" "$dir/ex"
  for c in $(extract_c "$1" "$dir/run" | tr ' ' ':'); do
    case $c in
    unnamed:*) report "$1:${c#unnamed:}: a \`\`\`c block whose first line names its file" 0 ;;
    *) echo "  $1: $c written" ;;
    esac
  done
  ran=0 k=1
  while [ -f "$dir/ex/$k.cmd" ]; do
    cmd=$(cat "$dir/ex/$k.cmd") where=$(cat "$dir/ex/$k.where")
    case $cmd in
    *"# not run:"*)
      echo "skip - $where: $cmd"
      ;;
    "cc "*)
      if [ -z "$libdir" ]; then
        echo "skip - $where: $cmd (no library to link in this build)"
      else
        # the library where an install would leave it
        (cd "$dir/run" && C_INCLUDE_PATH="$src/include" LIBRARY_PATH="$libdir" \
          LD_LIBRARY_PATH="$libdir" sh -c "$cmd") >"$dir/got" 2>&1
        compare
      fi
      ;;
    *)
      (cd "$dir/run" && PATH="$work/bin:$PATH" sh -c "$cmd") >"$dir/got" 2>&1
      compare
      ;;
    esac
    k=$((k + 1))
  done
}

# --- the comparison itself catches a drift -----------------------------------------
printf '```console\n$ nqueens 8\n93\n$ nqueens 4-5\n...\n```\n' >"$work/drift.md"
mkdir "$work/selftest"
extract "$work/drift.md" "$work/selftest"
echo 92 >"$work/got"
! matches "$work/selftest/1.want" "$work/got"; report "a wrong output shown is caught" $((! $?))
printf '2\n10\n' >"$work/got"
matches "$work/selftest/2.want" "$work/got"; report "'...' stands for any lines" $((! $?))

# --- the pages --------------------------------------------------------------------
for page in README.md docs/json.md docs/record-runs.md man/nqueens.1 man/nqueens-mpi.1; do
  name=$(echo "$page" | tr '/.' '__')
  run_page "$src/$page" "$name"
  # the README and nqueens(1) show examples that run: finding none would
  # mean the convention was broken, not that all is well
  case $page in
  README.md | man/nqueens.1) [ "$ran" -ge 3 ]; report "$page: $ran examples run" $((! $?)) ;;
  esac
done
# the README's program is built and run by its page's "cc " command
if [ -n "$libdir" ]; then
  [ -f "$work/README_md/run/count.c" ] && grep -q "^cc count.c" "$work"/README_md/ex/*.cmd
  report "README.md: its C program is built and run as printed" $((! $?))
fi

finish
