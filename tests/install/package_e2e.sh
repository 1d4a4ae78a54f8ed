#!/bin/sh
# The Debian packages and the source tarball of a build (cmake/packaging.cmake):
#   1. `cpack -G DEB` writes libnqueens2, libnqueens-dev, nqueens (and
#      nqueens-mpi where the build has it), and lintian finds no error and
#      no warning in them;
#   2. their control data: the library's shlibs and ldconfig trigger and no
#      maintainer scripts, the Depends of the others on the exact library;
#   3. their files, unpacked into a scratch root with dpkg-deb -x: each
#      package's copyright (machine-readable) and changelogs, stripped
#      binaries, man pages compressed with gzip -9n; nqueens 13 runs from
#      there, and a program builds with pkg-config against the unpacked
#      development package and runs;
#   4. the source tarball nqueens-VERSION.tar.gz: its .sha256 matches, and it
#      holds the sources without .git or build folders.
# (Installing them with dpkg -i needs root and a machine to spare:
# docs/packaging.md shows that check on a brand-new Debian.)
# usage: package_e2e.sh SOURCE_DIR BUILD_DIR
# env:   CPACK, LINTIAN, PKG_CONFIG, CC (defaults: cpack, lintian, pkg-config, cc)
set -u
src=$1 build=$2
cpack=${CPACK:-cpack} lintian=${LINTIAN:-lintian} pkgconfig=${PKG_CONFIG:-pkg-config}
cc=${CC:-cc}
. "$src/tests/helpers/e2e_lib.sh"   # $work: a scratch folder
ok() { if [ "$1" -eq 0 ]; then echo 1; else echo 0; fi; }

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")
[ -n "$version" ] || version=$("$build/nqueens" --version | sed -n '1s/.* //p')
major=${version%%.*}
lib=libnqueens$major
pkgs="$lib libnqueens-dev nqueens"
[ -x "$build/nqueens-mpi" ] && pkgs="$pkgs nqueens-mpi"

# --- 1. build the packages, lintian -----------------------------------------------
"$cpack" -G DEB --config "$build/CPackConfig.cmake" -B "$work/deb" >"$work/cpack.log" 2>&1
report "cpack -G DEB succeeds" "$(ok $?)"
debs=""
for p in $pkgs; do
  f=$(ls "$work/deb/${p}_${version}-"*.deb 2>/dev/null | head -n 1)
  [ -n "$f" ]; report "package $p is built" "$(ok $?)"
  debs="$debs $f"
done
# shellcheck disable=SC2086 # a list of files
"$lintian" --fail-on error,warning $debs >"$work/lintian.log" 2>&1
status=$?
! grep -E '^[EW]: ' "$work/lintian.log"
report "lintian: no error, no warning (status $status)" "$(ok $((status + $?)))"

# --- 2. control data -------------------------------------------------------------------
field() { dpkg-deb -f "$work/deb/${1}_"*.deb "$2"; }
dpkg-deb -e "$work/deb/${lib}_"*.deb "$work/ctl"
grep -qx "libnqueens $major $lib (>= $version-[0-9]*)" "$work/ctl/shlibs"
report "$lib has shlibs ($(cat "$work/ctl/shlibs" 2>/dev/null))" "$(ok $?)"
grep -qx "activate-noawait ldconfig" "$work/ctl/triggers"
report "$lib activates the ldconfig trigger" "$(ok $?)"
[ ! -e "$work/ctl/postinst" ] && [ ! -e "$work/ctl/postrm" ]
report "$lib has no maintainer scripts" "$(ok $?)"
for p in $pkgs; do
  [ "$p" = "$lib" ] && continue
  field "$p" Depends | grep -q "$lib (= $version-"
  report "$p depends on exactly this $lib" "$(ok $?)"
done
for p in $pkgs; do
  [ -n "$(field "$p" Section)" ] && [ -n "$(field "$p" Homepage)" ] &&
    [ -n "$(field "$p" Maintainer)" ] && [ "$(field "$p" Description | wc -l)" -ge 3 ]
  report "$p has a section, a homepage, a maintainer and a description" "$(ok $?)"
done

# --- 3. the files, unpacked ---------------------------------------------------------
root=$work/root
for f in $debs; do dpkg-deb -x "$f" "$root"; done
for p in $pkgs; do
  d=$root/usr/share/doc/$p
  head -n 1 "$d/copyright" 2>/dev/null |
    grep -q '^Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/$' &&
    grep -q '^License: Expat$' "$d/copyright" &&
    gzip -t "$d/changelog.gz" && gzip -t "$d/changelog.Debian.gz" &&
    zcat "$d/changelog.Debian.gz" | head -n 1 | grep -q "^nqueens ($version-[0-9]*) "
  report "$p: copyright (DEP-5), changelog.gz, changelog.Debian.gz" "$(ok $?)"
done
libfile=$(find "$root/usr/lib" -name "libnqueens.so.$major.*" -type f | head -n 1)
libdir=$(dirname "$libfile")
bins="$root/usr/bin/nqueens $libfile"
[ -x "$build/nqueens-mpi" ] && bins="$bins $root/usr/bin/nqueens-mpi"
for b in $bins; do
  [ -f "$b" ] && ! readelf -S "$b" | grep -q -e '\.symtab' -e '\.debug_'
  report "${b#"$root"} is there and stripped" "$(ok $?)"
done
for m in nqueens $( [ -x "$build/nqueens-mpi" ] && echo nqueens-mpi); do
  f=$root/usr/share/man/man1/$m.1.gz
  # gzip -n: no file name (FLG bit 3) and no time stamp (MTIME) in the header
  head=$(od -An -tx1 -N8 "$f" 2>/dev/null | tr -d ' \n')
  gzip -t "$f" && [ ! -e "${f%.gz}" ] && [ "${head%????????}" = 1f8b0800 ] &&
    [ "${head#????????}" = 00000000 ]
  report "man page $m.1 compressed with gzip -9n (header $head)" "$(ok $?)"
done
for f in usr/include/nqueens.h usr/share/bash-completion/completions/nqueens \
         usr/share/zsh/site-functions/_nqueens usr/share/fish/vendor_completions.d/nqueens.fish \
         usr/share/doc/nqueens/README.md; do
  [ -s "$root/$f" ]; report "$f is packaged" "$(ok $?)"
done
[ "$(readlink "$libdir/libnqueens.so")" = "libnqueens.so.$major" ] &&
  [ -f "$libdir/cmake/nqueens/nqueensConfig.cmake" ]
report "libnqueens-dev: the .so link and the CMake package" "$(ok $?)"
out=$(LD_LIBRARY_PATH=$libdir "$root/usr/bin/nqueens" 13 2>&1)
[ "$out" = 73712 ]; report "the unpacked nqueens 13 prints 73712 ($out)" "$(ok $?)"
pcdir=$libdir/pkgconfig
# shellcheck disable=SC2046 # pkg-config's flags are words
"$cc" -o "$work/app" "$src/tests/install/consumer/consumer.c" \
  $(PKG_CONFIG_PATH=$pcdir "$pkgconfig" --cflags --libs nqueens) 2>"$work/cc.log" &&
  out=$(LD_LIBRARY_PATH=$libdir "$work/app" 2>&1) && [ "$out" = 92 ]
report "a program built with pkg-config against libnqueens-dev runs" "$(ok $?)"

# --- 4. the source tarball --------------------------------------------------------------
"$cpack" --config "$build/CPackSourceConfig.cmake" -B "$work/dist" >"$work/dist.log" 2>&1
report "cpack --config CPackSourceConfig.cmake succeeds" "$(ok $?)"
tarball=nqueens-$version.tar.gz
(cd "$work/dist" && sha256sum -c "$tarball.sha256" >/dev/null 2>&1)
report "$tarball.sha256 matches" "$(ok $?)"
tar -tzf "$work/dist/$tarball" >"$work/list" 2>/dev/null
grep -qx "nqueens-$version/CMakeLists.txt" "$work/list" &&
  grep -qx "nqueens-$version/CHANGELOG.md" "$work/list" &&
  grep -qx "nqueens-$version/include/nqueens.h" "$work/list" &&
  ! grep -q -e '/\.git/' -e '/\.git$' -e "^nqueens-$version/build/" "$work/list"
report "$tarball holds the sources, no .git and no build folder" "$(ok $?)"

[ "$failed" -eq 0 ] || { tail -n 20 "$work/cpack.log" "$work/lintian.log" "$work/dist.log"; }
finish
