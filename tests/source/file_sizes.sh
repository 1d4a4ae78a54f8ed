#!/bin/sh
# file_sizes.sh SRCDIR - no source file of src/ is longer than 600 lines,
# the generated tables (*_tables.h, made by tools/) excepted: a longer file
# holds more than one concern and should be split (docs/conventions.md).
set -eu
max=600
cd "$1"
bad=0
for f in $(find src -name '*.c' -o -name '*.h' | sort); do
  case $f in *_tables.h) continue ;; esac
  lines=$(wc -l <"$f")
  if [ "$lines" -gt "$max" ]; then
    echo "file_sizes: $f has $lines lines (at most $max)"
    bad=1
  fi
done
[ "$bad" = 0 ] && echo "file_sizes: every file of src/ has at most $max lines"
exit "$bad"
