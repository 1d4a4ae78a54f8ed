#!/bin/sh
# A finished count is the published one or an error: a checkpoint with a
# record lowered (its checksum mended, by checkpoint_tamper) resumes into a
# count that is not the published one, and one with a record raised passes
# the published count with the units still to do. Each ends with one line
# on stderr that names the file and 'nqueens --recheck FILE', nothing on
# stdout, status 2, and never "run the same command again"; so does
# nqueens-mpi when it is given. A part 1/1 is a whole count; a part of two
# is not compared alone.
# usage: published_e2e.sh PATH/TO/nqueens PATH/TO/checkpoint_tamper [MPIEXEC PATH/TO/nqueens-mpi]
bin=$1 tamper=$2 mpiexec=${3:-} mpibin=${4:-}
. "$(dirname "$0")/../helpers/e2e_lib.sh"

# refused: status 2, nothing on stdout, one line with the file's name,
# both numbers where given and the way out
refused() { # status out err what file [numbers]
  sed 's/^/  | /' "$3"  # shown with the check, to say why one fails
  [ "$1" -eq 2 ] && [ ! -s "$2" ] && [ "$(wc -l <"$3")" -eq 1 ] &&
    grep -q "'nqueens --recheck $5' finds the bad units (or start afresh with a new checkpoint file)\$" "$3" &&
    ! grep -q "run the same" "$3" && { [ -z "${6:-}" ] || grep -q "$6" "$3"; }
}

cd "$work" || exit 1
${NQ_EMULATOR:-} "$tamper" low.ckpt 12 -8 >/dev/null || echo "  checkpoint_tamper failed"
"$bin" -m join --checkpoint low.ckpt 12 >out 2>err; status=$?
refused $status out err "" low.ckpt "^nqueens: n = 12: the count gives 14192 solutions, not the published 14200: a record of low.ckpt is wrong"
report "a record lowered: the finished count is refused, the file named (status $status)" $((! $?))
"$bin" -m join --checkpoint low.ckpt --part 1/1 --json 12 >out 2>err; status=$?
refused $status out err "" low.ckpt "14192 solutions, not the published 14200"
report "a part 1/1 is a whole count: refused too (status $status)" $((! $?))
"$bin" -m join --checkpoint low.ckpt --labels 12 >out 2>err; status=$?
refused $status out err "" low.ckpt "14192 solutions, not the published 14200"
report "with --labels: no header left on stdout (status $status)" $((! $?))
"$bin" -m join --checkpoint low.ckpt --part 1/2 --json 12 >out 2>err; status=$?
[ $status -eq 0 ] && grep -q '"part":1,"parts":2' out
report "a part of two is not compared alone (status $status)" $((! $?))

${NQ_EMULATOR:-} "$tamper" high.ckpt 12 5 1 >/dev/null || echo "  checkpoint_tamper failed"
for run in 1 2; do
  "$bin" -m join --checkpoint high.ckpt 12 >out 2>err; status=$?
  refused $status out err "" high.ckpt "^nqueens: n = 12: the records of high.ckpt and the units counted now add up to more than the published 14200"
  report "records that pass the published count: the file blamed, run $run (status $status)" $((! $?))
done

"$bin" -m join --checkpoint good.ckpt 12 >out 2>err; status=$?
sed 's/^/  | /' err
[ $status -eq 0 ] && [ "$(cat out)" = 14200 ] && [ ! -s err ]
report "a true count with a new checkpoint: printed" $((! $?))

if [ -n "$mpibin" ]; then
  export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 HWLOC_HIDE_ERRORS=2
  export OMPI_MCA_rmaps_base_oversubscribe=1
  # (and a path of 400 bytes, named three times: the line keeps its end)
  long=$(printf 'd%.0s' $(seq 200))/$(printf 'e%.0s' $(seq 200))
  mkdir -p "$long" && cp low.ckpt "$long/low.ckpt"
  for f in low high "$long/low"; do
    timeout -k 10 300 "$mpiexec" --oversubscribe -np 2 "$mpibin" -j 1 -m join \
      --checkpoint="$f.ckpt" 12 >out 2>err; status=$?
    sed 's/^/  | /' err | cut -c1-300
    [ $status -eq 2 ] && [ ! -s out ] &&
      grep -q "^nqueens-mpi: n = 12: .*published 14200: a record of $f.ckpt is wrong.*'nqueens --recheck $f.ckpt' finds the bad units" err &&
      ! grep -q "run the same" err
    ok=$((! $?))
    [ ${#f} -gt 4 ] && f="low, by a path of 400 bytes"
    report "nqueens-mpi, a record $f: the file blamed (status $status)" $ok
  done
fi
finish
