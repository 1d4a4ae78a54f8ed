# Packages: Debian packages with `cpack -G DEB`, and the source tarball
# with the target `dist` (docs/packaging.md).
#
# The install rules put every file in a component; the packages are groups
# of components:
#
#   libnqueens2      lib  (+ lib_deb)   the shared library
#   libnqueens-dev   dev  (+ dev_deb)   header, .so link, CMake package, .pc
#   nqueens          cli  (+ cli_deb)   the command, completions, README
#   nqueens-mpi      mpi  (+ mpi_deb)   nqueens-mpi, where MPI was found
#
# The *_deb components hold what Debian wants and `cmake --install` does
# not (EXCLUDE_FROM_ALL): each package's /usr/share/doc/PACKAGE/copyright
# (machine-readable, made from LICENSE), changelog.gz (CHANGELOG.md) and
# changelog.Debian.gz, and the man pages compressed with gzip -9n. A plain
# install gets the man pages as they are (component man) and LICENSE,
# README.md and CHANGELOG.md in share/doc/nqueens (components doc, cli).

set(NQ_PACKAGE_MAINTAINER "The nqueens authors <nqueens@users.noreply.github.com>"
  CACHE STRING "Maintainer named by the Debian packages")
set(NQ_DEB_RELEASE 1 CACHE STRING "Debian revision of the packages")
if(NOT CMAKE_INSTALL_PREFIX STREQUAL "/usr" AND CMAKE_LIBRARY_ARCHITECTURE)
  # (GNUInstallDirs gives the multiarch libdir only for the prefix /usr)
  message(STATUS "Debian packages (cpack -G DEB) want a build configured "
                 "with -DCMAKE_INSTALL_PREFIX=/usr")
endif()

set(_nq_deb ${CMAKE_CURRENT_BINARY_DIR}/debian)
file(MAKE_DIRECTORY ${_nq_deb})
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS
  ${PROJECT_SOURCE_DIR}/LICENSE ${PROJECT_SOURCE_DIR}/CHANGELOG.md
  ${PROJECT_SOURCE_DIR}/man/nqueens.1 ${PROJECT_SOURCE_DIR}/man/nqueens-mpi.1)

# gzip -9n: no name or time stamp in the header, so the same input always
# gives the same bytes (Debian's rule for compressed files).
find_program(NQ_GZIP gzip)
function(nq_gzip in out)
  if(NOT NQ_GZIP)
    message(STATUS "gzip not found: no Debian packages (cpack -G DEB) from this build")
    return()
  endif()
  execute_process(COMMAND ${NQ_GZIP} -9nc INPUT_FILE ${in} OUTPUT_FILE ${out}
    RESULT_VARIABLE _rc)
  if(NOT _rc EQUAL 0)
    message(FATAL_ERROR "gzip failed on ${in}")
  endif()
endfunction()

# --- copyright: the DEP-5 form of LICENSE ------------------------------------------
file(READ ${PROJECT_SOURCE_DIR}/LICENSE _nq_license)
if(NOT _nq_license MATCHES "^MIT License\n\n(Copyright \\(c\\) ([^\n]+))\n\n(.*[^\n])\n*$")
  message(FATAL_ERROR "LICENSE is not the MIT license as cmake/packaging.cmake reads it")
endif()
set(_nq_holder "${CMAKE_MATCH_2}")
set(_nq_terms "${CMAKE_MATCH_3}")
string(REGEX REPLACE "\n\n" "\n.\n" _nq_terms "${_nq_terms}")
string(REGEX REPLACE "\n" "\n " _nq_terms "${_nq_terms}")
file(WRITE ${_nq_deb}/copyright
"Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/
Upstream-Name: ${PROJECT_NAME}
Upstream-Contact: ${NQ_PACKAGE_MAINTAINER}
Source: ${NQ_HOMEPAGE_URL}

Files: *
Copyright: ${_nq_holder}
License: Expat

License: Expat
 ${_nq_terms}
")

# --- changelogs ----------------------------------------------------------------------
# The Debian entry is dated by the release's date in CHANGELOG.md, so that
# the packages do not change with the day they are built.
file(STRINGS ${PROJECT_SOURCE_DIR}/CHANGELOG.md _nq_release
  REGEX "^## \\[${PROJECT_VERSION}\\] - [0-9]+-[0-9]+-[0-9]+$")
if(NOT _nq_release MATCHES "([0-9]+)-0*([0-9]+)-0*([0-9]+)$")
  message(FATAL_ERROR "CHANGELOG.md has no entry '## [${PROJECT_VERSION}] - YYYY-MM-DD'")
endif()
# days since 1970-01-01 of a civil date (the proleptic Gregorian calendar;
# March is month 0 of a year that starts then)
set(_y ${CMAKE_MATCH_1})
set(_m ${CMAKE_MATCH_2})
set(_d ${CMAKE_MATCH_3})
if(_m LESS_EQUAL 2)
  math(EXPR _y "${_y} - 1")
  math(EXPR _m "${_m} + 9")
else()
  math(EXPR _m "${_m} - 3")
endif()
math(EXPR _era "${_y} / 400")
math(EXPR _yoe "${_y} - ${_era} * 400")
math(EXPR _doy "(153 * ${_m} + 2) / 5 + ${_d} - 1")
math(EXPR _doe "${_yoe} * 365 + ${_yoe} / 4 - ${_yoe} / 100 + ${_doy}")
math(EXPR _epoch "(${_era} * 146097 + ${_doe} - 719468) * 86400")
set(_nq_saved_epoch "$ENV{SOURCE_DATE_EPOCH}")
set(ENV{SOURCE_DATE_EPOCH} ${_epoch})
string(TIMESTAMP _nq_date "%a, %d %b %Y %H:%M:%S +0000" UTC)
set(ENV{SOURCE_DATE_EPOCH} "${_nq_saved_epoch}")
file(WRITE ${_nq_deb}/changelog.Debian
"${PROJECT_NAME} (${PROJECT_VERSION}-${NQ_DEB_RELEASE}) unstable; urgency=medium

  * Packages of release ${PROJECT_VERSION}, made by CPack (cmake/packaging.cmake).
    The changes of the release are in changelog.gz.

 -- ${NQ_PACKAGE_MAINTAINER}  ${_nq_date}
")
nq_gzip(${_nq_deb}/changelog.Debian ${_nq_deb}/changelog.Debian.gz)
nq_gzip(${PROJECT_SOURCE_DIR}/CHANGELOG.md ${_nq_deb}/changelog.gz)
nq_gzip(${PROJECT_SOURCE_DIR}/man/nqueens.1 ${_nq_deb}/nqueens.1.gz)
nq_gzip(${PROJECT_SOURCE_DIR}/man/nqueens-mpi.1 ${_nq_deb}/nqueens-mpi.1.gz)

set(_nq_packages lib libnqueens${PROJECT_VERSION_MAJOR} dev libnqueens-dev cli nqueens)
if(NQ_HAVE_MPI)
  list(APPEND _nq_packages mpi nqueens-mpi)
endif()
set(CPACK_COMPONENTS_ALL "")
while(_nq_packages)
  list(POP_FRONT _nq_packages _c _pkg)
  install(FILES ${_nq_deb}/copyright ${_nq_deb}/changelog.Debian.gz ${_nq_deb}/changelog.gz
    DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/doc/${_pkg}
    COMPONENT ${_c}_deb EXCLUDE_FROM_ALL)
  # The one lintian tag overridden: these packages are built and installed
  # outside the Debian archive, so their first changelog entry has no
  # "intent to package" bug to close.
  file(WRITE ${_nq_deb}/overrides/${_pkg}
    "# built outside the Debian archive: no ITP bug to close\n"
    "${_pkg}: initial-upload-closes-no-bugs\n")
  install(FILES ${_nq_deb}/overrides/${_pkg}
    DESTINATION ${CMAKE_INSTALL_DATAROOTDIR}/lintian/overrides
    COMPONENT ${_c}_deb EXCLUDE_FROM_ALL)
  list(APPEND CPACK_COMPONENTS_ALL ${_c} ${_c}_deb)
  string(TOUPPER ${_c} _C)
  set(CPACK_DEBIAN_${_C}_PACKAGE_NAME ${_pkg})
endwhile()
install(FILES ${_nq_deb}/nqueens.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
  COMPONENT cli_deb EXCLUDE_FROM_ALL)
if(NQ_HAVE_MPI)
  install(FILES ${_nq_deb}/nqueens-mpi.1.gz DESTINATION ${CMAKE_INSTALL_MANDIR}/man1
    COMPONENT mpi_deb EXCLUDE_FROM_ALL)
endif()

# --- CPack -------------------------------------------------------------------------
set(CPACK_PACKAGE_NAME ${PROJECT_NAME})
set(CPACK_PACKAGE_VENDOR "The nqueens authors")
set(CPACK_PACKAGE_CONTACT "${NQ_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_HOMEPAGE_URL "${NQ_HOMEPAGE_URL}")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)
set(CPACK_RESOURCE_FILE_README ${PROJECT_SOURCE_DIR}/README.md)
set(CPACK_PACKAGE_CHECKSUM SHA256)
set(CPACK_STRIP_FILES ON)
set(CPACK_GENERATOR DEB)
set(CPACK_PROJECT_CONFIG_FILE ${PROJECT_SOURCE_DIR}/cmake/cpack_project.cmake)

set(CPACK_DEB_COMPONENT_INSTALL ON)
set(CPACK_COMPONENTS_GROUPING ONE_PER_GROUP)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE ${NQ_DEB_RELEASE})
set(CPACK_DEBIAN_PACKAGE_SOURCE ${PROJECT_NAME})
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# (dpkg-shlibdeps finds the library of this build here; the packages that
# use it name libnqueens2 themselves)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS_PRIVATE_DIRS ${CMAKE_CURRENT_BINARY_DIR})
set(_nq_exact "${PROJECT_VERSION}-${NQ_DEB_RELEASE}")

set(CPACK_DEBIAN_LIB_PACKAGE_SECTION libs)
# shlibs ("libnqueens 2 libnqueens2 (>= VERSION)"), written for the
# packages that hold a shared library: libnqueens2 alone
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS ON)
set(CPACK_DEBIAN_PACKAGE_GENERATE_SHLIBS_POLICY ">=")
# The loader's cache is refreshed by libc's ldconfig trigger, which
# Debian prefers to the postinst and postrm scripts that CPack would
# write to call ldconfig: naming a postinst and a postrm of our own turns
# those off, and as these two do not exist, none is shipped.
file(WRITE ${_nq_deb}/triggers "activate-noawait ldconfig\n")
set(CPACK_DEBIAN_LIB_PACKAGE_CONTROL_EXTRA ${_nq_deb}/triggers
  ${_nq_deb}/none/postinst ${_nq_deb}/none/postrm)
set(CPACK_DEBIAN_LIB_DESCRIPTION "fast N-Queens solution counter (library)
libnqueens counts the solutions of the n-queens problem, in total and
unique up to rotation and reflection, with threads and SIMD kernels;
lists, constructs, draws and verifies solutions; and keeps checkpoints
and split counts. It uses only the C library and POSIX threads.
This package holds the shared library.")

set(CPACK_DEBIAN_DEV_PACKAGE_SECTION libdevel)
set(CPACK_DEBIAN_DEV_PACKAGE_DEPENDS "libnqueens${PROJECT_VERSION_MAJOR} (= ${_nq_exact})")
set(CPACK_DEBIAN_DEV_DESCRIPTION "fast N-Queens solution counter (development files)
libnqueens counts the solutions of the n-queens problem, in total and
unique up to rotation and reflection, with threads and SIMD kernels.
This package holds the header nqueens.h, the link to the shared library,
a CMake package (find_package(nqueens)) and a pkg-config file.")

set(CPACK_DEBIAN_CLI_PACKAGE_SECTION math)
set(CPACK_DEBIAN_CLI_PACKAGE_DEPENDS "libnqueens${PROJECT_VERSION_MAJOR} (= ${_nq_exact})")
set(CPACK_DEBIAN_CLI_DESCRIPTION "fast N-Queens solution counter
nqueens counts the solutions of the n-queens problem for n = 0 to 28,
in total and unique up to rotation and reflection, on every CPU it may
use. Long counts show progress, survive being stopped (checkpoints),
split into parts for many machines and are estimated before they start.
It also lists, constructs, draws and verifies solutions.")

set(CPACK_DEBIAN_MPI_PACKAGE_SECTION math)
set(CPACK_DEBIAN_MPI_PACKAGE_DEPENDS "libnqueens${PROJECT_VERSION_MAJOR} (= ${_nq_exact})")
set(CPACK_DEBIAN_MPI_DESCRIPTION "fast N-Queens solution counter over MPI
nqueens-mpi runs one count of the n-queens problem over the ranks of an
MPI job: rank 0 hands out batches of work units, the other ranks count
them with all their threads, and a checkpoint on rank 0 lets a stopped
job resume.")

# --- the source tarball: nqueens-VERSION.tar.gz and its .sha256 ----------------------
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_PACKAGE_FILE_NAME ${PROJECT_NAME}-${PROJECT_VERSION})
# (regular expressions, escaped twice: CPack reads them from a generated file)
set(CPACK_SOURCE_IGNORE_FILES
  "/\\\\.git/" "/\\\\.git$" "/build/" "/build-[^/]*/" "/\\\\.cache/" "/\\\\.vscode/"
  "/\\\\.idea/" "~$" "\\\\.swp$" "\\\\.orig$" "\\\\.rej$")

include(CPack)

foreach(_g lib dev cli mpi)
  if(_g IN_LIST CPACK_COMPONENTS_ALL)
    cpack_add_component_group(${_g})
    cpack_add_component(${_g} GROUP ${_g})
    cpack_add_component(${_g}_deb GROUP ${_g})
  endif()
endforeach()

add_custom_target(dist
  COMMAND ${CMAKE_CPACK_COMMAND} --config ${CMAKE_CURRENT_BINARY_DIR}/CPackSourceConfig.cmake
  WORKING_DIRECTORY ${CMAKE_CURRENT_BINARY_DIR}
  COMMENT "Writing ${PROJECT_NAME}-${PROJECT_VERSION}.tar.gz and its .sha256"
  VERBATIM)
