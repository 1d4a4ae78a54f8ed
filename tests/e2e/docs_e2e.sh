#!/bin/sh
# The man page and the shell completions: committed files equal to what
# nqueens_gendoc writes from the option table, every option in the user
# documentation (README.md and docs/*.md) and --help, and the installed
# files at work (groff renders the man page without a warning; bash
# completes --uni to --unique and the values of --method, --simd and
# --format; zsh and fish read their files).
# usage: docs_e2e.sh NQUEENS GENDOC SOURCE_DIR BUILD_DIR CMAKE
set -u
bin=$1 gendoc=$2 src=$3 build=$4 cmake=$5
. "$(dirname "$0")/../helpers/e2e_lib.sh"

# --- generated files match their generator -------------------------------------
"$gendoc" man "$src/man/nqueens.1.in" >"$work/nqueens.1"
cmp -s "$work/nqueens.1" "$src/man/nqueens.1"
report "man/nqueens.1 matches the option table (else: cmake --build build --target nqueens_docs)" $((! $?))
for f in bash:nqueens.bash zsh:_nqueens fish:nqueens.fish; do
  "$gendoc" "${f%%:*}" >"$work/gen"
  cmp -s "$work/gen" "$src/completions/${f#*:}"
  report "completions/${f#*:} matches the option table" $((! $?))
done

# --- every option is documented ---------------------------------------------------
"$bin" --help >"$work/help"
missing=""
for opt in $("$gendoc" names); do
  # the README names the main ones; docs/command.md is the full reference
  cat "$src/README.md" "$src"/docs/*.md | grep -q -- "$opt" || missing="$missing docs:$opt"
  grep -q -- "$opt" "$work/help" || missing="$missing help:$opt"
done
[ -z "$missing" ] || echo "  undocumented:$missing"
[ -z "$missing" ]; report "README.md or docs/*.md, and --help, name every option" $((! $?))

# --- the installed files -----------------------------------------------------------
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >/dev/null
man=$prefix/share/man/man1/nqueens.1
comp=$prefix/share/bash-completion/completions/nqueens
[ -f "$man" ] && [ -f "$comp" ] && [ -f "$prefix/share/zsh/site-functions/_nqueens" ] &&
  [ -f "$prefix/share/fish/vendor_completions.d/nqueens.fish" ]
report "man page and completions installed in their standard places" $((! $?))

if command -v groff >/dev/null 2>&1; then
  groff -man -ww -Tutf8 -P-cbou "$man" >"$work/man.txt" 2>"$work/groff.err"
  [ ! -s "$work/groff.err" ] && grep -q "nqueens-mpi" "$work/man.txt" &&
    grep -q -- "--threads=N" "$work/man.txt"
  report "groff -man -ww renders the man page without a warning" $((! $?))
  [ -s "$work/groff.err" ] && cat "$work/groff.err"
else
  echo "skip - man page rendering (no groff: apt-get install groff-base)"
fi

# bash: drive the completion function as readline would
complete_bash() { # WORDS... : prints the candidates for the last word
  bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _nqueens; echo "${COMPREPLY[*]}"' \
    sh "$comp" "$@"
}
[ "$(complete_bash nqueens --uni)" = "--unique" ]; report "bash completes --uni to --unique" $((! $?))
[ "$(complete_bash nqueens 8 --method '')" = "$("$bin" --help | sed -n 's/^ *M: //p' | sed 's/, / /g')" ]
report "bash completes the values of --method" $((! $?))
[ "$(complete_bash nqueens --simd = av)" = "avx2 avx512" ]; report "bash completes --simd=av" $((! $?))
[ "$(complete_bash nqueens -f j)" = "json" ]; report "bash completes -f j" $((! $?))
: >"$work/placements.txt"
for mode in --verify --merge --recheck; do
  [ "$(complete_bash nqueens $mode "$work/placem")" = "$work/placements.txt" ]
  report "bash completes the file names of $mode" $((! $?))
done

if command -v zsh >/dev/null 2>&1; then
  zsh -n "$prefix/share/zsh/site-functions/_nqueens"; report "zsh reads _nqueens" $((! $?))
else
  echo "skip - zsh completion (no zsh)"
fi
if command -v fish >/dev/null 2>&1; then
  out=$(fish -c "source '$prefix/share/fish/vendor_completions.d/nqueens.fish'; complete -C 'nqueens --uni'" 2>&1)
  case $out in --unique*) ok=1 ;; *) ok=0; echo "  fish: $out" ;; esac
  report "fish completes --uni to --unique" $ok
else
  echo "skip - fish completion (no fish)"
fi

finish
