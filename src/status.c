/*
 * Status sentences, version numbers and the names of SIMD levels (method
 * names come from the method table, method.c).
 */
#include "nqueens.h"

int nq_version_number(void) { return NQ_VERSION_NUMBER; }

const char *nq_version_string(void) { return NQ_VERSION_STRING; }

const char *nq_strerror(int status)
{
    switch (status) {
    case NQ_OK: return "success";
    case NQ_EINVAL: return "invalid argument";
    case NQ_ERANGE: return "board size out of range";
    case NQ_ENOMEM: return "out of memory";
    case NQ_ECANCELED: return "cancelled";
    case NQ_ETHREAD: return "could not start a worker thread";
    case NQ_EVERSION: return "struct of an unknown version";
    case NQ_EUNSUPPORTED: return "SIMD level not supported on this CPU or in this build";
    case NQ_ENOSOLUTION: return "the board has no solution";
    case NQ_ELIMIT: return "step limit reached without a solution";
    case NQ_EIO: return "input/output error";
    case NQ_EFORMAT: return "malformed input or corrupted file";
    case NQ_EMISMATCH: return "file belongs to another board size, method or unit list";
    case NQ_ENOTFOUND: return "no known value";
    case NQ_EBUSY: return "another process is using this file";
    case NQ_EOVERFLOW: return "a sum does not fit in 64 bits or exceeds the published count";
    case NQ_EMEMLIMIT: return "the count would need more memory than allowed";
    case NQ_EMETHOD: return "the method cannot do this (it counts totals only, or "
                            "does not run on the device asked for)";
    case NQ_ENODRIVER: return "no GPU driver that this build can use";
    case NQ_ENODEVICE: return "no such GPU";
    case NQ_EDEVICE: return "the GPU or its driver failed";
    case NQ_EDEVICEMEM: return "the GPU ran out of memory";
    case NQ_ELOCK: return "the checkpoint's lock file cannot be made or locked";
    case NQ_EPUBLISHED: return "the finished count differs from the published value";
    default: return "unknown error";
    }
}

const char *nq_simd_name(nq_simd simd)
{
    switch (simd) {
    case NQ_SIMD_AUTO: return "auto";
    case NQ_SIMD_NONE: return "none";
    case NQ_SIMD_AVX2: return "avx2";
    case NQ_SIMD_AVX512: return "avx512";
    default: return NULL;
    }
}
