#!/bin/sh
# The install, as docs/library.md describes it, with nothing else set (no
# LD_LIBRARY_PATH, no pkg-config --define-variable):
#   1. `cmake --install BUILD --prefix P`: P/bin/nqueens runs;
#   2. the whole tree moved elsewhere: it still runs, and programs build and
#      run against it through find_package(nqueens) and through
#      PKG_CONFIG_PATH=P/LIBDIR/pkgconfig and `cc app.c $(pkg-config ...)`;
#   3. `DESTDIR=D cmake --install BUILD`: the tree is staged under D;
#   4. a static build (-DBUILD_SHARED_LIBS=OFF, library and command only) in
#      a multiarch libdir: its command, and programs built with
#      find_package() and with pkg-config --static, run.
# usage: install_consumer.sh SOURCE_DIR BUILD_DIR
# env:   CMAKE, PKG_CONFIG, CC (defaults: cmake, pkg-config, cc)
set -u
src=$1 build=$2
cmake=${CMAKE:-cmake} pkgconfig=${PKG_CONFIG:-pkg-config} cc=${CC:-cc}
app=$src/tests/install/consumer
. "$src/tests/helpers/e2e_lib.sh"   # $work: a scratch folder
# the install dirs the build was configured with (bin, lib or lib/ARCH)
libdir=$(sed -n 's/^CMAKE_INSTALL_LIBDIR:[A-Z]*=//p' "$build/CMakeCache.txt")
bindir=$(sed -n 's/^CMAKE_INSTALL_BINDIR:[A-Z]*=//p' "$build/CMakeCache.txt")

# prints the output of the program $1 run with the remaining arguments
try() { "$@" 2>"$work/err" || echo "failed with status $?: $(head -n 3 "$work/err")"; }

# --- 1. install to a prefix and run --------------------------------------------
"$cmake" --install "$build" --prefix "$work/a" >/dev/null
out=$(try "$work/a/$bindir/nqueens" 8)
[ "$out" = 92 ]; report "installed nqueens runs from its prefix ($out)" $((! $?))

# --- 2. move the tree; run, and build programs against it -------------------------
mv "$work/a" "$work/moved"
p=$work/moved
out=$(try "$p/$bindir/nqueens" 8)
[ "$out" = 92 ]; report "moved nqueens still runs ($out)" $((! $?))
if [ -x "$p/$bindir/nqueens-mpi" ]; then
  # resolve its libraries without starting MPI (what ldd does)
  LD_TRACE_LOADED_OBJECTS=1 "$p/$bindir/nqueens-mpi" >"$work/libs" 2>&1
  grep -q "libnqueens.* => $p/" "$work/libs" && ! grep -q "not found" "$work/libs"
  report "moved nqueens-mpi finds its libraries" $((! $?))
fi

"$cmake" -S "$app" -B "$work/app-cmake" -DCMAKE_PREFIX_PATH="$p" >"$work/log" 2>&1 &&
  "$cmake" --build "$work/app-cmake" >>"$work/log" 2>&1
out=$(try "$work/app-cmake/consumer")
[ "$out" = 92 ]; report "find_package(nqueens) program builds and runs ($out)" $((! $?))

export PKG_CONFIG_PATH="$p/$libdir/pkgconfig"
# shellcheck disable=SC2046 # the flags are meant to split
$cc -o "$work/app-pc" "$app/consumer.c" $("$pkgconfig" --cflags --libs nqueens) \
  -Wl,-rpath,"$("$pkgconfig" --variable=libdir nqueens)" 2>"$work/log"
out=$(try "$work/app-pc")
[ "$out" = 92 ]; report "pkg-config program builds and runs ($out)" $((! $?))

# --- 3. a DESTDIR stage -------------------------------------------------------------
DESTDIR=$work/stage "$cmake" --install "$build" --prefix /opt/nq >/dev/null
for f in "$bindir/nqueens" include/nqueens.h "$libdir/pkgconfig/nqueens.pc" \
         "$libdir/cmake/nqueens/nqueensConfig.cmake"; do
  [ -e "$work/stage/opt/nq/$f" ] || { echo "# not staged: /opt/nq/$f"; false; } || break
done
report "DESTDIR stages the tree under the prefix" $((! $?))
out=$(try "$work/stage/opt/nq/$bindir/nqueens" 8)
[ "$out" = 92 ]; report "the staged nqueens runs ($out)" $((! $?))

# --- 4. static library and command, in a multiarch libdir ---------------------------
s=$work/static
"$cmake" -S "$src" -B "$s/build" -DCMAKE_BUILD_TYPE=Release -DBUILD_SHARED_LIBS=OFF \
  -DBUILD_TESTING=OFF -DNQ_BUILD_MPI=OFF -DCMAKE_INSTALL_LIBDIR=lib/x86_64-linux-gnu \
  >"$work/log" 2>&1 &&
  "$cmake" --build "$s/build" -j 2 --target nqueens nqueens_exe >>"$work/log" 2>&1 &&
  "$cmake" --install "$s/build" --prefix "$s/p" >>"$work/log" 2>&1
[ -f "$s/p/lib/x86_64-linux-gnu/libnqueens.a" ]
report "static build installs libnqueens.a" $((! $?))
out=$(try "$s/p/bin/nqueens" 8)
[ "$out" = 92 ]; report "static nqueens runs ($out)" $((! $?))
"$cmake" -S "$app" -B "$s/app-cmake" -DCMAKE_PREFIX_PATH="$s/p" >"$work/log" 2>&1 &&
  "$cmake" --build "$s/app-cmake" >>"$work/log" 2>&1
out=$(try "$s/app-cmake/consumer")
[ "$out" = 92 ]; report "static find_package(nqueens) program builds and runs ($out)" $((! $?))
export PKG_CONFIG_PATH="$s/p/lib/x86_64-linux-gnu/pkgconfig"
# shellcheck disable=SC2046
$cc -o "$work/app-static" "$app/consumer.c" $("$pkgconfig" --static --cflags --libs nqueens) \
  2>"$work/log"
out=$(try "$work/app-static")
[ "$out" = 92 ]; report "static pkg-config program builds and runs ($out)" $((! $?))

finish
