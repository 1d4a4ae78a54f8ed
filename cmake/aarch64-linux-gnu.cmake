# Cross build for 64-bit Arm Linux with Debian's cross compiler; ctest runs
# the test programs under qemu's user-mode emulator. tests/run.sh uses it:
#   cmake -S . -B build/aarch64 -DCMAKE_TOOLCHAIN_FILE=cmake/aarch64-linux-gnu.cmake \
#         -DNQ_BUILD_MPI=OFF
# Packages: gcc-aarch64-linux-gnu libc6-dev-arm64-cross qemu-user, and for
# the tests libcmocka-dev:arm64 (after `dpkg --add-architecture arm64`),
# which also brings the Arm C library that the programs run with.
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)

# -L /: the Arm libraries come from this machine's multiarch folders
# (/usr/lib/aarch64-linux-gnu), as on an Arm Debian. (The cross
# toolchain's own /usr/aarch64-linux-gnu is for linking only: programs
# started with it as -L hang in pthread_create.)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /)

# C++ only compiles the header test. Without a cross C++ compiler that test
# is left out, rather than built by this machine's c++.
find_program(NQ_CROSS_CXX aarch64-linux-gnu-g++)
set(CMAKE_CXX_COMPILER ${NQ_CROSS_CXX})

# pkg-config reads the target's .pc files, never this machine's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
