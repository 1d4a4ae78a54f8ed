#!/bin/sh
# Installs the built project into a scratch prefix, then builds and runs a
# small consumer against it, once through find_package() and once through
# pkg-config.
# usage: install_consumer.sh BUILD_DIR CONSUMER_SRC WORK_DIR CMAKE
set -eu
build=$1 src=$2 work=$3 cmake=$4
rm -rf "$work"
mkdir -p "$work"
prefix=$work/prefix
"$cmake" --install "$build" --prefix "$prefix" >/dev/null

# find_package(nqueens)
"$cmake" -S "$src" -B "$work/build" -DCMAKE_PREFIX_PATH="$prefix" >/dev/null
"$cmake" --build "$work/build" >/dev/null
out=$(LD_LIBRARY_PATH="$prefix/lib:$prefix/lib64:${LD_LIBRARY_PATH:-}" "$work/build/consumer")
[ "$out" = 92 ] || { echo "find_package consumer printed '$out'"; exit 1; }

# pkg-config
pc=$(find "$prefix" -name nqueens.pc | head -n 1)
[ -n "$pc" ] || { echo "nqueens.pc was not installed"; exit 1; }
export PKG_CONFIG_PATH=$(dirname "$pc")
if command -v pkg-config >/dev/null 2>&1; then
  ${CC:-cc} -o "$work/consumer-pc" "$src/consumer.c" $(pkg-config --define-variable=prefix="$prefix" --cflags --libs nqueens)
  out=$(LD_LIBRARY_PATH="$prefix/lib:$prefix/lib64:${LD_LIBRARY_PATH:-}" "$work/consumer-pc")
  [ "$out" = 92 ] || { echo "pkg-config consumer printed '$out'"; exit 1; }
else
  echo "pkg-config not found: skipped that half"
fi

# the installed command
out=$(LD_LIBRARY_PATH="$prefix/lib:$prefix/lib64:${LD_LIBRARY_PATH:-}" "$prefix/bin/nqueens" 8)
[ "$out" = 92 ] || { echo "installed nqueens printed '$out'"; exit 1; }
echo "install consumer: ok"
