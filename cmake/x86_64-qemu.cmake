# An x86-64 build whose tests run on other x86-64 CPUs than this one: ctest
# starts every test program under qemu's user-mode emulator, which plays
# the CPU that the environment variable QEMU_CPU names (qemu reads it at
# each start). tests/run.sh runs the tests twice, on a CPU with AVX2 and
# no AVX-512 and on one with neither, so that the SIMD dispatch, the
# default method picked by the CPU, and the tests that skip a level the
# CPU lacks all run as on such machines, whatever CPU the tests run on:
#   cmake -S . -B build/x86-qemu -DCMAKE_TOOLCHAIN_FILE=cmake/x86_64-qemu.cmake \
#         -DNQ_BUILD_MPI=OFF
#   QEMU_CPU=max,-avx512f ctest --test-dir build/x86-qemu
# (qemu 7.2's "max" CPU has AVX2 and no AVX-512: "-avx512f" keeps it so on
# a qemu that emulates more). Timings under an emulator mean nothing: only
# the counts and the messages are tested. Package: qemu-user.
#
# Naming the system makes CMake treat the build as a cross build (it
# honours the emulator only then): the tests that need programs of this
# machine, or counts sized for a native run, are left out, as in the
# aarch64 build, and the rest count the smaller boards of the sanitizer
# build (tests/helpers/test_sizes.h).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER cc)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-x86_64)
