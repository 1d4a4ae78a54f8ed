#!/bin/sh
# file_sizes.sh SRCDIR - no C, C++ or CUDA source file (.c, .h, .cc,
# .cpp, .cu) of src/, include/, tests/, bench/ or tools/ is longer than
# 600 lines: a longer file holds more than one concern and should be
# split (docs/conventions.md). Excepted:
#   *_tables.h                 generated tables, made by tools/ (and checked
#                              against their generator's output);
#   include/nqueens.h          the public API is one header by design: a
#                              user includes one file and finds all of it;
#   tests/abi/nqueens-2.0.0.h  the released 2.0.0 header, frozen byte for
#                              byte: the ABI test compiles against it.
set -eu
max=600
cd "$1"
bad=0
for f in $(find src include tests bench tools \
             -name '*.c' -o -name '*.h' -o -name '*.cc' -o -name '*.cpp' -o -name '*.cu' |
             sort); do
  case $f in
    *_tables.h | include/nqueens.h | tests/abi/nqueens-2.0.0.h) continue ;;
  esac
  lines=$(wc -l <"$f")
  if [ "$lines" -gt "$max" ]; then
    echo "file_sizes: $f has $lines lines (at most $max)"
    bad=1
  fi
done
[ "$bad" = 0 ] &&
  echo "file_sizes: every C, C++ and CUDA file of src/, include/, tests/, bench/ and tools/" \
       "has at most $max lines"
exit "$bad"
