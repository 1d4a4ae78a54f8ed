# cmake -DIN=FILE -DOUT=FILE.c -DNAME=symbol -P embed.cmake
# Writes FILE as a C array `const unsigned char NAME[]` (aligned for the
# loader that reads it, with its size as NAME_size), so that a build can
# carry a binary (the CUDA kernels) in the library as data.
file(READ "${IN}" _hex HEX)
string(LENGTH "${_hex}" _len)
math(EXPR _size "${_len} / 2")
string(REGEX REPLACE "([0-9a-f][0-9a-f])" "0x\\1," _bytes "${_hex}")
string(REGEX REPLACE "(0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,0x..,)"
       "\\1\n  " _bytes "${_bytes}")
file(WRITE "${OUT}.tmp"
"/* Generated from ${IN} by cmake/embed.cmake: do not edit. */
#include <stddef.h>
extern const unsigned char ${NAME}[];
extern const size_t ${NAME}_size;
_Alignas(64) const unsigned char ${NAME}[] = {
  ${_bytes}
};
const size_t ${NAME}_size = ${_size};
")
file(RENAME "${OUT}.tmp" "${OUT}")
