/*
 * nqueens - count, list, construct and verify N-Queens solutions.
 *
 * One header, one prefix: functions and types are nq_*, macros NQ_*.
 * Every function that can fail returns an int status: NQ_OK (0) or a
 * negative nq_status code; nq_strerror() turns it into a sentence. Each
 * function's comment names the codes it returns, and what a function that
 * returns a value says when it has none to give. Output parameters come
 * first and are named `out`.
 *
 * The library keeps no global mutable state, never prints and never exits:
 * every function is reentrant and may be called from any thread.
 *
 * Structs that grow. Every struct that a program and the library pass to
 * each other begins with `unsigned version`: the layout of the header that
 * whoever made the struct was built with. Within a major version a struct
 * grows only by fields appended at its end, each growth raising its
 * NQ_..._VERSION by one; no field is removed, moved, retyped or given
 * another meaning, and no name is changed (those wait for the next major
 * version, which changes the library's SONAME). So:
 *  - a program starts every struct it hands to the library, options and
 *    results alike, from its NQ_..._INIT (C, and C++20) or, for options,
 *    nq_..._options_init(&s, NQ_..._OPTIONS_VERSION); elsewhere it zeroes
 *    a result struct and sets its version to NQ_..._VERSION. The library
 *    reads and writes only the fields of the version the struct names: a
 *    newer library never writes past an older program's struct, and reads
 *    an older program's options with the later fields at their defaults;
 *  - a struct the library hands to a callback (nq_progress,
 *    nq_recheck_unit) carries the library's version: read a field added
 *    in version V only when `version >= V`;
 *  - in an array of structs (the parts and sums of nq_merge_parts()),
 *    every element has the version of the first;
 *  - a version the library does not know, or 0 (a struct not started from
 *    its INIT), is refused with NQ_EVERSION.
 * A field added later is written at the end of its struct, in its INIT
 * macro too, with a comment that names the version that added it.
 */
#ifndef NQUEENS_H
#define NQUEENS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ------------------------------------------------------------------------
 * Version: the header and the library both carry it, so a program can tell
 * when it was built against one version and runs against another.
 * ------------------------------------------------------------------------ */
#define NQ_VERSION_MAJOR 2
#define NQ_VERSION_MINOR 0
#define NQ_VERSION_PATCH 0
#define NQ_VERSION_NUMBER \
    (NQ_VERSION_MAJOR * 10000 + NQ_VERSION_MINOR * 100 + NQ_VERSION_PATCH)
#define NQ_STRINGIFY_(x) #x
#define NQ_STRINGIFY(x) NQ_STRINGIFY_(x)
#define NQ_VERSION_STRING                                        \
    NQ_STRINGIFY(NQ_VERSION_MAJOR) "." NQ_STRINGIFY(NQ_VERSION_MINOR) \
    "." NQ_STRINGIFY(NQ_VERSION_PATCH)

#if defined(NQ_STATIC)
#  define NQ_API
#elif defined(_WIN32)
#  if defined(NQ_BUILDING_LIBRARY)
#    define NQ_API __declspec(dllexport)
#  else
#    define NQ_API __declspec(dllimport)
#  endif
#elif defined(__GNUC__) && __GNUC__ >= 4
#  define NQ_API __attribute__((visibility("default")))
#else
#  define NQ_API
#endif

/*! nq_version_number() : @return NQ_VERSION_NUMBER of the library at run time. */
NQ_API int nq_version_number(void);
/*! nq_version_string() : @return NQ_VERSION_STRING of the library at run time. */
NQ_API const char *nq_version_string(void);

/* ------------------------------------------------------------------------
 * Status codes
 * ------------------------------------------------------------------------ */
typedef enum nq_status {
    NQ_OK = 0,
    NQ_EINVAL = -1,       /*!< an argument is invalid (NULL pointer, bad option) */
    NQ_ERANGE = -2,       /*!< n is outside the supported range */
    NQ_ENOMEM = -3,       /*!< out of memory */
    NQ_ECANCELED = -4,    /*!< the cancel flag was raised; no result */
    NQ_ETHREAD = -5,      /*!< a worker thread could not be started */
    NQ_EVERSION = -6,     /*!< a struct of an unknown version (0: not
                               started from its INIT) */
    NQ_EUNSUPPORTED = -7, /*!< the SIMD level asked for is not on this CPU
                               or not in this build */
    NQ_ENOSOLUTION = -8,  /*!< the board has no solution (n = 2 or 3) */
    NQ_ELIMIT = -9,       /*!< a step limit was reached before an answer */
    NQ_EIO = -10,         /*!< reading or writing a file failed (see errno) */
    NQ_EFORMAT = -11,     /*!< malformed input or a corrupted file */
    NQ_EMISMATCH = -12,   /*!< a file belongs to another n, method or unit list */
    NQ_ENOTFOUND = -13,   /*!< no such value is known */
    NQ_EBUSY = -14,       /*!< another process (or object) is using the
                               file, or another count the checkpoint object */
    NQ_EOVERFLOW = -15,   /*!< a sum would not fit in 64 bits, or passes the
                               published count: the input cannot be right */
    NQ_EMEMLIMIT = -16,   /*!< the count would need more memory than its
                               max_memory option allows (NQ_ENOMEM: the
                               system ran out) */
    NQ_EMETHOD = -17,     /*!< the method asked for cannot do this: unique
                               counts from a method that counts totals only,
                               or a method the device asked for does not run */
    NQ_ENODRIVER = -18,   /*!< no GPU driver that this build can use (none
                               installed, or older than the build needs) */
    NQ_ENODEVICE = -19,   /*!< the driver shows no such GPU */
    NQ_EDEVICE = -20,     /*!< the GPU or its driver failed */
    NQ_EDEVICEMEM = -21,  /*!< the GPU ran out of memory */
    NQ_ELOCK = -22,       /*!< a checkpoint's lock file (its path + ".lock")
                               cannot be made or locked (see errno: ELOOP a
                               symbolic link, EISDIR a folder, EINVAL another
                               file that is not a regular one) */
    NQ_EPUBLISHED = -23   /*!< a finished count (every unit of the list)
                               differs from the published value of n: a
                               fault of the hardware, of the program or of
                               a checkpoint's records (nq_count() sets *out
                               even so) */
    /* A new code goes here, with its message in nq_strerror(). */
} nq_status;

/*! nq_strerror() : @return a static, human-readable sentence for a status
 *  code (never NULL; unknown codes get a generic sentence). */
NQ_API const char *nq_strerror(int status);

/* ------------------------------------------------------------------------
 * Board sizes
 * ------------------------------------------------------------------------ */
/*! The largest n the counters accept: rows are 32-bit masks and Q(29)
 *  would not fit in 64 bits. */
#define NQ_MAX_N 28

/* ------------------------------------------------------------------------
 * Counting
 * ------------------------------------------------------------------------ */
typedef enum nq_method {
    NQ_METHOD_DEFAULT = 0,  /*!< the fastest for the job, by n and by
                                 whether unique counts are wanted:
                                 nq_method_default() says which */
    NQ_METHOD_PLAIN = 1,    /*!< reference walk: first-row halving only */
    NQ_METHOD_SYMMETRY = 2, /*!< all eight board symmetries; also counts unique */
    NQ_METHOD_JOIN = 3      /*!< half-boards joined by their diagonals; totals only */
} nq_method;

typedef enum nq_simd {
    NQ_SIMD_AUTO = 0,   /*!< the widest level this CPU supports */
    NQ_SIMD_NONE = 1,   /*!< scalar code only */
    NQ_SIMD_AVX2 = 2,   /*!< x86-64 AVX2 lanes; NQ_EUNSUPPORTED if absent */
    NQ_SIMD_AVX512 = 3  /*!< x86-64 AVX-512 lanes; NQ_EUNSUPPORTED if absent */
} nq_simd;

/*! Where a count runs. */
typedef enum nq_device {
    NQ_DEVICE_CPU = 0,  /*!< the CPU's threads */
    NQ_DEVICE_GPU = 1,  /*!< one GPU (nq_count_options.gpu): NQ_EUNSUPPORTED
                             when this build has no GPU support, NQ_ENODRIVER
                             or NQ_ENODEVICE when no usable GPU is there,
                             NQ_EDEVICEMEM when its memory is too small for
                             a count's buffers; a count never moves to the
                             CPU instead */
    NQ_DEVICE_AUTO = 2  /*!< the GPU when one is usable (its memory holds a
                             count's buffers: nq_count_fallback()), the
                             method can run there and the board is large
                             enough to gain from it; else the CPU
                             (nq_count_result.device says which ran) */
} nq_device;

/*! The layout of nq_progress in this header. */
#define NQ_PROGRESS_VERSION 1

/*! Progress of a running count, passed to nq_progress_fn (the library
 *  fills it: version is the library's). */
typedef struct nq_progress {
    unsigned version;       /*!< NQ_PROGRESS_VERSION of the library */
    uint64_t units_done;    /*!< units finished, a checkpoint's included */
    uint64_t units_total;   /*!< units of this run, a checkpoint's included */
    uint64_t units_resumed; /*!< of units_done, those a checkpoint already held */
    double elapsed;         /*!< seconds since the count started */
} nq_progress;

/*! Called from the thread that called nq_count(), a few times a second at
 *  most and once at the end. It must not call back into the same count. */
typedef void (*nq_progress_fn)(const nq_progress *progress, void *data);

/*! Called once per finished unit, never concurrently with itself (calls are
 *  serialised by the library), from a worker thread. */
typedef void (*nq_unit_fn)(uint64_t unit, uint64_t total, uint64_t unique,
                           void *data);

typedef struct nq_checkpoint nq_checkpoint;

/*! A flag that asks a running count or listing to stop, safe to raise from
 *  a signal handler and from any thread (a lock-free atomic inside). */
typedef struct nq_cancel nq_cancel;

/*! nq_cancel_new() : a new flag, not raised.
 *  @return NQ_OK, NQ_EINVAL (NULL out), NQ_ENOMEM. */
NQ_API int nq_cancel_new(nq_cancel **out);
/*! nq_cancel_free() : frees a flag that no count uses any more; NULL is fine. */
NQ_API void nq_cancel_free(nq_cancel *flag);
/*! nq_cancel_raise() : raises the flag. Async-signal-safe: it only stores
 *  to a lock-free atomic, so a SIGINT handler may call it. */
NQ_API void nq_cancel_raise(nq_cancel *flag);
/*! nq_cancel_clear() : lowers the flag, for reuse by another count. */
NQ_API void nq_cancel_clear(nq_cancel *flag);
/*! nq_cancel_raised() : @return nonzero once the flag is raised (0 for NULL). */
NQ_API int nq_cancel_raised(const nq_cancel *flag);

/*! The layout of nq_count_options in this header. A struct is read as the
 *  version it names: the library accepts NQ_COUNT_OPTIONS_VERSION_MIN to
 *  the version it was built with, so a program built against an older
 *  header of the same major version keeps working, and refuses any other
 *  with NQ_EVERSION. A new option is a field appended at the end, with a
 *  new version (see "Structs that grow" above). */
#define NQ_COUNT_OPTIONS_VERSION 4
#define NQ_COUNT_OPTIONS_VERSION_MIN 3

/*! Options of nq_count(), nq_estimate() and nq_memory(). Start from the
 *  defaults, then change the fields you need: in C, from
 *  NQ_COUNT_OPTIONS_INIT; in any language, with nq_count_options_init()
 *  (C++ before C++20 has no designated initialisers, so no macro there).
 *  Every field defaults to 0 or NULL but checkpoint_interval (10). */
typedef struct nq_count_options {
    unsigned version;       /*!< NQ_COUNT_OPTIONS_VERSION */
    unsigned threads;       /*!< worker threads; 0 = nq_cpus_usable() */
    nq_method method;       /*!< NQ_METHOD_DEFAULT, _PLAIN, _SYMMETRY or _JOIN */
    int unique;             /*!< nonzero: count the unique solutions too, so
                                 NQ_METHOD_DEFAULT means the symmetry method;
                                 a method that cannot count them gives
                                 NQ_EMETHOD. Zero: the default is the fastest
                                 method for totals (has_unique in the result
                                 says what ran) */
    nq_simd simd;           /*!< NQ_SIMD_AUTO unless testing or measuring */
    uint64_t max_memory;    /*!< bytes the count may take at most; 0 = half of
                                 the physical memory. A method that has a
                                 slower way in less memory takes it; a count
                                 that cannot fit returns NQ_EMEMLIMIT before
                                 counting anything (see nq_memory()) */
    uint32_t part_k;        /*!< count only part k (1-based) of part_m ... */
    uint32_t part_m;        /*!< ... ; 0 and 0 count everything; part_m is
                                 at most the number of units (nq_units()) */
    uint64_t unit_first;    /*!< count only units [unit_first, unit_first + unit_count);
                                 at most the number of units (nq_units()) */
    uint64_t unit_count;    /*!< 0 = to the end of the list (a range past
                                 the end stops there) */
    nq_cancel *stop;        /*!< optional: raising it stops the count within
                                 a fraction of a second (NQ_ECANCELED) */
    nq_progress_fn progress;   /*!< optional progress callback */
    void *progress_data;       /*!< passed to progress */
    nq_unit_fn on_unit;        /*!< optional per-unit result callback */
    void *unit_data;           /*!< passed to on_unit */
    nq_checkpoint *checkpoint; /*!< optional: skip its done units, record new ones */
    double checkpoint_interval; /*!< seconds between checkpoint saves
                                     (default 10); 0 = after every unit */
    /* version 4 */
    nq_device device;       /*!< NQ_DEVICE_CPU (default), _GPU or _AUTO; the
                                 GPU runs the symmetry method, so there
                                 NQ_METHOD_DEFAULT means that method */
    unsigned gpu;           /*!< which GPU (0 = the first; see nq_gpu_count()) */
} nq_count_options;

#if !defined(__cplusplus) || __cplusplus >= 202002L
/*! The defaults of nq_count_options, as an initialiser:
 *  nq_count_options opts = NQ_COUNT_OPTIONS_INIT;
 *  Every field is named (in their order, as C++20 wants), so that no
 *  compiler warns of one left out. */
#define NQ_COUNT_OPTIONS_INIT                                              \
    { .version = NQ_COUNT_OPTIONS_VERSION, .threads = 0,                   \
      .method = NQ_METHOD_DEFAULT, .unique = 0, .simd = NQ_SIMD_AUTO,      \
      .max_memory = 0, .part_k = 0, .part_m = 0, .unit_first = 0,          \
      .unit_count = 0, .stop = NULL, .progress = NULL,                     \
      .progress_data = NULL, .on_unit = NULL, .unit_data = NULL,           \
      .checkpoint = NULL, .checkpoint_interval = 10.0,                   \
      .device = NQ_DEVICE_CPU, .gpu = 0 }
#endif

/*! nq_count_options_init() : set *opts to the defaults of `version`
 *  (NQ_COUNT_OPTIONS_VERSION: the layout of the caller's header), writing
 *  only the fields of that version.
 *  @return NQ_OK, NQ_EINVAL (NULL opts), NQ_EVERSION (a version this
 *          library does not accept; *opts untouched). */
NQ_API int nq_count_options_init(nq_count_options *opts, unsigned version);

/*! The layout of nq_count_result in this header. */
#define NQ_COUNT_RESULT_VERSION 2

/*! Result of nq_count(); start from NQ_COUNT_RESULT_INIT. */
typedef struct nq_count_result {
    unsigned version;     /*!< NQ_COUNT_RESULT_VERSION */
    uint64_t total;       /*!< solutions (OEIS A000170), or the part's share */
    uint64_t unique;      /*!< solutions up to rotation and reflection (A002562) */
    int has_unique;       /*!< nonzero when `unique` was counted (symmetry method) */
    nq_method method;     /*!< the method that ran (never NQ_METHOD_DEFAULT) */
    nq_simd simd;         /*!< the SIMD level that ran (never NQ_SIMD_AUTO) */
    uint64_t units_total; /*!< units in the whole list for this n and method */
    uint64_t units_done;  /*!< units counted by this run (resumed ones included) */
    /* version 2 */
    nq_device device;     /*!< where the count ran (never NQ_DEVICE_AUTO) */
} nq_count_result;

#if !defined(__cplusplus) || __cplusplus >= 202002L
/*! An empty nq_count_result of this header's version (every field named,
 *  in order, so that no compiler warns of one left out). */
#define NQ_COUNT_RESULT_INIT                                               \
    { .version = NQ_COUNT_RESULT_VERSION, .total = 0, .unique = 0,         \
      .has_unique = 0, .method = NQ_METHOD_DEFAULT, .simd = NQ_SIMD_AUTO,  \
      .units_total = 0, .units_done = 0, .device = NQ_DEVICE_CPU }
#endif

/*! nq_count() : count the solutions of the n-queens problem.
 *  A finished count, one that covers every unit of the list (no part_m
 *  above 1, no unit range short of the end; a checkpoint's units
 *  included), is compared with the published value of n (nq_known(),
 *  n <= 27): total, and unique when counted. One that differs is not
 *  answered with NQ_OK but with NQ_EPUBLISHED: a GPU that miscounted, a
 *  fault of the program, or a checkpoint whose records are wrong
 *  (nq_recheck() finds its bad units). A part of M > 1 cannot be compared
 *  alone: nq_merge_parts() compares the parts' sum.
 *  @param out  receives the counts (the fields of its version); untouched
 *              unless NQ_OK or NQ_EPUBLISHED (then: the wrong counts, for
 *              the caller to report) is returned.
 *  @param n    board size, 0 <= n <= NQ_MAX_N. Q(0) = 1.
 *  @param opts options, or NULL for the defaults.
 *  @return NQ_OK, NQ_EINVAL (NULL out, bad option, bad part: part_m above
 *          the number of units, or unit_first past it), NQ_ERANGE,
 *          NQ_EVERSION, NQ_EMETHOD (unique with a method that counts
 *          totals only), NQ_EUNSUPPORTED (SIMD level), NQ_EMEMLIMIT,
 *          NQ_ENOMEM, NQ_ETHREAD, NQ_ECANCELED, NQ_EMISMATCH (the
 *          checkpoint is of another n, method or unit list), NQ_EBUSY
 *          (the checkpoint object is in use by another count at the same
 *          time), NQ_EPUBLISHED (see above), or an error of saving the
 *          checkpoint (NQ_EIO) or of recording in it (NQ_EMISMATCH,
 *          NQ_EOVERFLOW: the checkpoint's records and this run's units
 *          add up past the published count). */
NQ_API int nq_count(nq_count_result *out, unsigned n,
                    const nq_count_options *opts);

/*! nq_count_choice() : the method and the device that nq_count(n, opts)
 *  would count with, worked out as it does (the default method, the
 *  method of a checkpoint, NQ_DEVICE_AUTO) without counting, building
 *  tables or starting a GPU. Since the default may differ between
 *  machines, give every part of a split count the method this says.
 *  NQ_DEVICE_AUTO takes the CPU, with the method the CPU takes, where the
 *  GPU's memory is too small for a count's buffers (nq_count_fallback()).
 *  @return NQ_OK (*method never NQ_METHOD_DEFAULT, *device never
 *          NQ_DEVICE_AUTO), NQ_EINVAL (NULL out, bad option), NQ_ERANGE,
 *          NQ_EVERSION, NQ_EMETHOD, NQ_EUNSUPPORTED (no GPU support in
 *          this build, for NQ_DEVICE_GPU), NQ_ENODRIVER, NQ_ENODEVICE,
 *          NQ_EDEVICEMEM (NQ_DEVICE_GPU: the GPU's memory is too small
 *          for a count's buffers, whatever the count). */
NQ_API int nq_count_choice(nq_method *method, nq_device *device, unsigned n,
                           const nq_count_options *opts);

/*! nq_count_fallback() : why nq_count(n, opts) with NQ_DEVICE_AUTO counts
 *  on the CPU where it would otherwise take the GPU, so that a program can
 *  say so: *out is NQ_EDEVICEMEM when the GPU's memory is too small for a
 *  count's buffers, else NQ_OK (the count takes the device that
 *  nq_count_choice() says for its usual reasons: a small board, no usable
 *  GPU, a method without a GPU path, or another device asked for).
 *  @return as nq_count_choice() (NQ_EINVAL also for a NULL out); *out is
 *          untouched unless NQ_OK. */
NQ_API int nq_count_fallback(int *out, unsigned n, const nq_count_options *opts);

/*! How nq_estimate() reached its figure. */
typedef enum nq_estimate_kind {
    NQ_ESTIMATE_SAMPLED = 0,     /*!< a sample of units was timed, and the
                                      whole count worked out from it */
    NQ_ESTIMATE_EXACT = 1,       /*!< the sample was the whole count: the
                                      interval is the point */
    NQ_ESTIMATE_LOWER_BOUND = 2, /*!< a sample outran the budget: seconds
                                      is what it showed at least, and no
                                      upper limit is known (high is 0) */
    NQ_ESTIMATE_MODELLED = 3     /*!< the method's cost model priced a
                                      sample of the count's work (nothing
                                      of the count was timed: units_sampled
                                      is 0, samples says how many pieces of
                                      work were priced) */
} nq_estimate_kind;

/*! The layout of nq_estimate_result in this header. */
#define NQ_ESTIMATE_RESULT_VERSION 2

/*! Result of nq_estimate(); start from NQ_ESTIMATE_RESULT_INIT. */
typedef struct nq_estimate_result {
    unsigned version;        /*!< NQ_ESTIMATE_RESULT_VERSION */
    nq_estimate_kind kind;   /*!< how the figure was reached */
    double seconds;          /*!< estimated wall time of the count, in seconds */
    double low, high;        /*!< the interval that holds the wall time
                                  (about 95%); equal to seconds when EXACT;
                                  when LOWER_BOUND, low = seconds and high
                                  is 0 */
    double cpu_seconds;      /*!< core-seconds of the count: its CPU time
                                  summed over the threads (at least, when
                                  LOWER_BOUND); on a GPU, the GPU's
                                  seconds (device NQ_DEVICE_GPU) */
    double sample_seconds;   /*!< time nq_estimate() spent on its samples */
    uint64_t units_total;    /*!< units in the list of (n, method) */
    uint64_t units_sampled;  /*!< units counted by the largest sample */
    uint64_t samples;        /*!< pieces of work the cost model priced
                                  (MODELLED; else 0) */
    uint64_t memory;         /*!< bytes the count would take at most, as
                                  nq_memory() says */
    unsigned threads;        /*!< worker threads the count would use (on a
                                  GPU: 1, the GPU) */
    nq_method method;        /*!< the method that ran (never NQ_METHOD_DEFAULT) */
    /* version 2 */
    nq_device device;        /*!< where the count would run (never
                                  NQ_DEVICE_AUTO) */
} nq_estimate_result;

#if !defined(__cplusplus) || __cplusplus >= 202002L
/*! An empty nq_estimate_result of this header's version. */
#define NQ_ESTIMATE_RESULT_INIT                                            \
    { .version = NQ_ESTIMATE_RESULT_VERSION, .kind = NQ_ESTIMATE_SAMPLED,  \
      .seconds = 0.0, .low = 0.0, .high = 0.0, .cpu_seconds = 0.0,         \
      .sample_seconds = 0.0, .units_total = 0, .units_sampled = 0,         \
      .samples = 0, .memory = 0, .threads = 0,                             \
      .method = NQ_METHOD_DEFAULT, .device = NQ_DEVICE_CPU }
#endif

/*! nq_estimate() : estimate how long nq_count(n, opts) would take on this
 *  machine, by counting a sample of its units (every m-th unit from a
 *  random start, m shrinking until the budget is spent) with the same
 *  threads, method and SIMD level. Where a method has a cost model and its
 *  units are too long to time, the model prices a seeded sample of the
 *  count's work instead, with prices measured on a smaller board, in about
 *  `budget` seconds of CPU time and little memory (docs/long-runs.md says
 *  from which n, and how close it comes).
 *  Of opts, the fields that choose the method and its memory (version,
 *  threads, method, unique, simd, max_memory) and stop are used; the
 *  estimate is of the whole count (the part and unit range, the callbacks
 *  and the checkpoint are not read, except that a checkpoint of another n
 *  or method is refused).
 *  @param out     receives the estimate (the fields of its version);
 *                 untouched unless NQ_OK is returned
 *  @param budget  seconds to spend sampling (a sample still running at
 *                 the budget is stopped within a fraction of a second)
 *  @param seed    picks the sample; any value
 *  @return NQ_OK, or an error of nq_count() (NQ_ERANGE, NQ_EUNSUPPORTED,
 *          NQ_EMEMLIMIT, NQ_ECANCELED, ...; NQ_EPUBLISHED where the sample
 *          grew to the whole count and that count is not the published
 *          one); NQ_EINVAL for a NULL out or budget < 0; NQ_EVERSION for
 *          out of an unknown version. */
NQ_API int nq_estimate(nq_estimate_result *out, unsigned n,
                       const nq_count_options *opts, double budget,
                       uint64_t seed);

/*! nq_memory() : the most memory, in bytes, that nq_count(n, opts) would
 *  take (the work-unit lists, the method's tables, each thread's scratch
 *  and the process itself), worked out without counting: a prediction of
 *  the process's peak resident memory. A method's shared tables are sized
 *  exactly (for the join's quarter-board table that takes a walk over its
 *  cells), per-thread scratch by measured bounds (docs/long-runs.md). A
 *  method with a leaner, slower way (the join: walking the half-boards
 *  instead of its table) takes it when the fast way does not fit in
 *  opts->max_memory, and this is then the memory of that way. On a GPU
 *  (opts->device), the GPU's buffers take what the limit leaves, up to
 *  half the card's memory or 512 MiB, whichever is more (each taken as
 *  the count's batches need it, and never more than the card has free).
 *  @return NQ_OK, NQ_EMEMLIMIT (even the leanest way would not fit; *out
 *          is still set, to what that way needs), or an error of
 *          nq_count()'s option checks (NQ_EINVAL, NQ_ERANGE, NQ_EVERSION,
 *          NQ_EMETHOD, NQ_EUNSUPPORTED, NQ_EMISMATCH). */
NQ_API int nq_memory(uint64_t *out, unsigned n, const nq_count_options *opts);

/*! nq_method_default() : the method NQ_METHOD_DEFAULT stands for in a
 *  count of n with `unique` (nonzero: unique counts wanted) at SIMD level
 *  `simd` (NQ_SIMD_AUTO: the widest this CPU supports), when no checkpoint
 *  names one: the fastest for the job, as measured (docs/performance.md).
 *  Since the choice may differ by level and between versions, give every
 *  part of a split count the same method.
 *  @return a method that counts (never NQ_METHOD_DEFAULT, and one with
 *          unique counts when `unique`); NQ_METHOD_DEFAULT when simd is
 *          not a level. */
NQ_API nq_method nq_method_default(unsigned n, int unique, nq_simd simd);
/*! nq_method_name() : @return "plain", "symmetry", "join", "default", or
 *  NULL for an unknown method. */
NQ_API const char *nq_method_name(nq_method method);
/*! nq_simd_name() : @return "none", "avx2", "avx512", "auto", or NULL. */
NQ_API const char *nq_simd_name(nq_simd simd);
/*! nq_simd_best() : @return the widest SIMD level usable on this CPU. */
NQ_API nq_simd nq_simd_best(void);
/*! nq_simd_supported() : @return nonzero when a count may ask for level
 *  `simd` on this CPU with this build: NQ_SIMD_AUTO and NQ_SIMD_NONE
 *  always, a wider level up to nq_simd_best(); 0 for a wider level and
 *  for a value that is not a level. */
NQ_API int nq_simd_supported(nq_simd simd);
/*! nq_cpus_usable() : the number of worker threads a count starts when
 *  opts.threads is 0. @return the CPUs this process may run on: those of
 *  its affinity mask (all online CPUs where there is no such mask), fewer
 *  when a cgroup CPU quota (cgroup v2 cpu.max, or v1 cpu.cfs_quota_us)
 *  allows less CPU time, rounded up; at least 1, at most 1024. */
NQ_API unsigned nq_cpus_usable(void);

/*! The layout of nq_gpu_info in this header. */
#define NQ_GPU_INFO_VERSION 1

/*! A GPU, as nq_gpu_info_get() describes it; start from NQ_GPU_INFO_INIT. */
typedef struct nq_gpu_info {
    unsigned version;        /*!< NQ_GPU_INFO_VERSION */
    unsigned index;          /*!< its number for nq_count_options.gpu */
    char name[96];           /*!< as the driver names it, NUL-terminated */
    uint64_t memory;         /*!< bytes of memory on the card */
    unsigned multiprocessors;
    unsigned compute_major;  /*!< compute capability, e.g. 9 and 0 */
    unsigned compute_minor;
} nq_gpu_info;

#if !defined(__cplusplus) || __cplusplus >= 202002L
/*! An empty nq_gpu_info of this header's version. */
#define NQ_GPU_INFO_INIT                                                   \
    { .version = NQ_GPU_INFO_VERSION, .index = 0, .name = {0}, .memory = 0, \
      .multiprocessors = 0, .compute_major = 0, .compute_minor = 0 }
#endif

/*! nq_gpu_support() : @return nonzero when this build can count on GPUs
 *  (whether one is there is nq_gpu_count()'s answer); starts nothing. */
NQ_API int nq_gpu_support(void);

/*! nq_gpu_count() : how many GPUs a count could use (NVIDIA GPUs through
 *  the CUDA driver, which is loaded when first asked for; the library
 *  needs no GPU library to start).
 *  @return NQ_OK (*out set, at least 1), NQ_EUNSUPPORTED (this build has
 *          no GPU support), NQ_ENODRIVER (no usable driver), NQ_ENODEVICE
 *          (the driver shows no GPU), NQ_EDEVICE, NQ_EINVAL (NULL out).
 *          On every error *out is 0. */
NQ_API int nq_gpu_count(unsigned *out);

/*! nq_gpu_info_get() : describes GPU `index` (0 .. nq_gpu_count() - 1).
 *  @return NQ_OK, NQ_EINVAL (NULL out), NQ_EVERSION (out->version),
 *          NQ_ENODEVICE (no such GPU), or an error of nq_gpu_count().
 *          *out is untouched on error. */
NQ_API int nq_gpu_info_get(nq_gpu_info *out, unsigned index);

/*! nq_device_name() : @return "cpu", "gpu", "auto", or NULL. */
NQ_API const char *nq_device_name(nq_device device);

/*! nq_units() : number of work units in the ordered unit list of (n, method).
 *  The same n and method always give the same list; NQ_METHOD_DEFAULT is
 *  the default for totals of n.
 *  @return NQ_OK, NQ_ERANGE (n > NQ_MAX_N), NQ_EINVAL (NULL out, unknown
 *          method), NQ_ENOMEM. */
NQ_API int nq_units(uint64_t *out, unsigned n, nq_method method);

/*! nq_unit_list_version() : version of the unit list of a method; a change
 *  of the list (and so of unit indices) changes this number.
 *  @return the version, at least 1 (for NQ_METHOD_DEFAULT, that of the
 *          method it stands for at n = NQ_MAX_N); 0 for a value that is
 *          not a method. */
NQ_API uint32_t nq_unit_list_version(nq_method method);

/*! nq_part_of_unit() : the part (1..m) that unit `unit` belongs to when
 *  the list is split into m parts. Units are dealt round-robin.
 *  @return 1 + unit mod m; 0 when m is 0 (no split into parts). */
NQ_API uint32_t nq_part_of_unit(uint64_t unit, uint32_t m);

/*! nq_known() : the published totals and unique counts, n = 0..27.
 *  @param total, unique receive the values (either may be NULL).
 *  @return NQ_OK, or NQ_ENOTFOUND when n has no known value. */
NQ_API int nq_known(uint64_t *total, uint64_t *unique, unsigned n);


/* ------------------------------------------------------------------------
 * Checkpoints: the finished units of a long count, kept in a file so that
 * a stopped run resumes where it stopped. The file format is documented in
 * docs/checkpoint-format.md: saves write format 2, and files of format 1
 * (from older releases) are read as well. A checkpoint object is not
 * thread-safe: use it from one thread at a time (nq_count() serialises
 * its own use). One object serves one count at a time: nq_count(),
 * nq_memory() and nq_estimate() take it for their whole call, and a
 * second one that names it meanwhile (from another thread) gets NQ_EBUSY
 * and leaves it alone.
 * ------------------------------------------------------------------------ */

/*! The layout of nq_checkpoint_info in this header. */
#define NQ_CHECKPOINT_INFO_VERSION 1

/*! What a checkpoint holds; start from NQ_CHECKPOINT_INFO_INIT. */
typedef struct nq_checkpoint_info {
    unsigned version;        /*!< NQ_CHECKPOINT_INFO_VERSION */
    unsigned n;
    nq_method method;        /*!< never NQ_METHOD_DEFAULT */
    uint32_t unit_list_version;
    uint64_t units_total;    /*!< units in the whole list */
    uint64_t units_done;     /*!< units recorded */
    uint64_t total;          /*!< sum of the recorded units' totals */
    uint64_t unique;         /*!< sum of the recorded units' unique counts */
} nq_checkpoint_info;

#if !defined(__cplusplus) || __cplusplus >= 202002L
/*! An empty nq_checkpoint_info of this header's version. */
#define NQ_CHECKPOINT_INFO_INIT                                            \
    { .version = NQ_CHECKPOINT_INFO_VERSION, .n = 0,                       \
      .method = NQ_METHOD_DEFAULT, .unit_list_version = 0,                 \
      .units_total = 0, .units_done = 0, .total = 0, .unique = 0 }
#endif

/*! nq_checkpoint_open() : load the checkpoint at `path` for counting n with
 *  `method`, or start an empty one if the file does not exist (it is
 *  written by the first save). A NULL path gives a checkpoint held in
 *  memory only, which saves do not write anywhere.
 *  NQ_METHOD_DEFAULT is resolved as nq_count() resolves it: a file of n is
 *  resumed with the method that made it; a new (or memory-only) one takes
 *  the method of the first count that uses it (the default for totals and
 *  for unique counts may differ), and reports the default for totals until
 *  then; a count with NQ_METHOD_DEFAULT and a checkpoint runs the
 *  checkpoint's method when that gives what is asked.
 *  A file checkpoint holds a lock on `path`.lock until nq_checkpoint_close(),
 *  so that two runs never share one file; and opening creates and removes a
 *  temporary file beside `path`, so that a place where saves would fail is
 *  refused now, before any counting. Once it holds the lock, it removes the
 *  temporary files that killed saves left (regular files of this user
 *  named `path`.tmp- and eight characters of 0-9 and a-v): no other run
 *  can be writing one then. `path` itself must be a regular file
 *  or absent (a symbolic link is refused).
 *  @return NQ_OK; NQ_EBUSY (another process or object holds the lock);
 *          NQ_ELOCK (the lock file cannot be made or locked: see errno);
 *          NQ_EFORMAT (not a checkpoint, truncated, corrupted, impossible
 *          counts, not a regular file: errno EINVAL); NQ_EMISMATCH (made
 *          for another n, method or unit list); NQ_EIO (`path` is
 *          unreadable, a symbolic link (ELOOP) or a folder (EISDIR), or no
 *          file can be made beside it: see errno); NQ_ERANGE; NQ_EINVAL;
 *          NQ_ENOMEM. A `path` that is not a regular file is refused
 *          before anything is made beside it. */
NQ_API int nq_checkpoint_open(nq_checkpoint **out, const char *path,
                              unsigned n, nq_method method);

/*! nq_checkpoint_peek() : what the checkpoint file at `path` was made
 *  for, read without opening it for a count (no lock is taken): n, method,
 *  unit_list_version, units_total and units_done are set; total and unique
 *  are 0 (the records are not added up). Useful to say which field differs
 *  after nq_checkpoint_open() answered NQ_EMISMATCH. Read as that reads
 *  it: a symbolic link is refused, and so is anything but a regular file.
 *  @param out  receives the fields of its version; untouched unless NQ_OK
 *              is returned
 *  @return NQ_OK, NQ_EFORMAT (not an intact checkpoint, not a regular
 *          file), NQ_EIO (see errno: ELOOP for a link), NQ_ENOMEM,
 *          NQ_EINVAL (NULL out or path), NQ_EVERSION (out of an unknown
 *          version). */
NQ_API int nq_checkpoint_peek(nq_checkpoint_info *out, const char *path);

/*! nq_checkpoint_record() : record the result of one unit. Only what
 *  nq_checkpoint_open() would read back is recorded: the same rules check
 *  the file when it is loaded.
 *  @return NQ_OK (also when the same result was already there), NQ_EINVAL
 *          (NULL cp, unit out of range, or a result no unit of the method can have:
 *          unique above total, or a unique count from a method that counts
 *          none; nothing is recorded), NQ_EMISMATCH (a different result was),
 *          NQ_EOVERFLOW (the recorded totals would pass the published
 *          count of n, or 64 bits: nothing is recorded). */
NQ_API int nq_checkpoint_record(nq_checkpoint *cp, uint64_t unit,
                                uint64_t total, uint64_t unique);

/*! nq_checkpoint_is_done() : @return 1 if `unit` is recorded, else 0
 *  (also for a NULL cp and a unit out of range). */
NQ_API int nq_checkpoint_is_done(const nq_checkpoint *cp, uint64_t unit);

/*! nq_checkpoint_info_get() : what cp holds, into the fields of out's
 *  version. @return NQ_OK, NQ_EINVAL (NULL out or cp), NQ_EVERSION (out of
 *  an unknown version). */
NQ_API int nq_checkpoint_info_get(nq_checkpoint_info *out,
                                  const nq_checkpoint *cp);

/*! nq_checkpoint_save() : write the checkpoint atomically: a new temporary
 *  file beside it (created exclusively, never through a symbolic link, and
 *  removed on failure), flushed to disk, then renamed over it. Nothing is written
 *  when the file already holds every recorded result, nor for a memory-only
 *  one; the first save of a new checkpoint writes it even with nothing done.
 *  @return NQ_OK, NQ_EIO (see errno), NQ_EINVAL. */
NQ_API int nq_checkpoint_save(nq_checkpoint *cp);

/*! nq_checkpoint_close() : release the lock and free the object (it does
 *  not save). NULL is fine. */
NQ_API void nq_checkpoint_close(nq_checkpoint *cp);

/*! nq_checkpoint_load() : a snapshot of the checkpoint file at `path`,
 *  read only: its n and method are taken from the file, no lock is taken
 *  (so a count may be running on it: saves replace the file whole) and
 *  nothing is ever written (the object is memory-only: a save does
 *  nothing). For reading the results back, as nq_recheck() does. The file
 *  is checked as nq_checkpoint_open() checks it.
 *  @return NQ_OK; NQ_EFORMAT (not an intact checkpoint, impossible counts,
 *          a method this library does not have); NQ_EMISMATCH (made with
 *          another unit list than this library's); NQ_EIO (see errno:
 *          ENOENT, ELOOP for a link); NQ_ENOMEM; NQ_EINVAL. */
NQ_API int nq_checkpoint_load(nq_checkpoint **out, const char *path);

/*! nq_checkpoint_unit() : the recorded result of `unit`.
 *  @return NQ_OK, NQ_ENOTFOUND (not recorded), NQ_EINVAL (NULL cp, unit
 *          out of range). *total and *unique (either may be NULL) are set
 *          only on NQ_OK. */
NQ_API int nq_checkpoint_unit(const nq_checkpoint *cp, uint64_t unit,
                              uint64_t *total, uint64_t *unique);

/* ------------------------------------------------------------------------
 * Re-checks: finished units of a checkpoint counted again by another path,
 * and compared with what was recorded. A record total is believed when
 * parts of it, counted another way, agree: see docs/long-runs.md for how
 * many units to sample and what a clean re-check proves.
 * ------------------------------------------------------------------------ */

/*! How a re-check counts a unit again. */
typedef enum nq_recheck_path {
    NQ_RECHECK_AUTO = 0,        /*!< NQ_RECHECK_WALK where the method has
                                     it, else NQ_RECHECK_KERNEL */
    NQ_RECHECK_KERNEL = 1,      /*!< the method's own units, at the SIMD
                                     level of the options (another level
                                     than the count's runs other code) */
    NQ_RECHECK_WALK = 2,        /*!< the same units reached another way:
                                     the join walks both half-boards instead
                                     of reading its quarter-board table; at
                                     the options' SIMD level. NQ_EMETHOD
                                     for a method that has no other way */
    NQ_RECHECK_INDEPENDENT = 3  /*!< a slow backtracking walk of whole
                                     boards restricted to what the unit
                                     covers (the join: its row splits), with
                                     the unit's symmetry weights worked out
                                     apart from the method (no keys, tables
                                     or kernels; the SIMD level is not
                                     used). NQ_EMETHOD for a method that has
                                     none */
} nq_recheck_path;

/*! The layout of nq_recheck_unit in this header. */
#define NQ_RECHECK_UNIT_VERSION 1

/*! One re-checked unit, as passed to nq_recheck_fn (the library fills it:
 *  version is the library's). */
typedef struct nq_recheck_unit {
    unsigned version;           /*!< NQ_RECHECK_UNIT_VERSION of the library */
    uint64_t unit;              /*!< its index in the unit list */
    uint64_t recorded_total;    /*!< what the checkpoint holds */
    uint64_t recorded_unique;
    uint64_t total;             /*!< what the re-count found */
    uint64_t unique;            /*!< (when has_unique) */
    int has_unique;             /*!< the path counts unique solutions too
                                     (the symmetry method's units) */
    int match;                  /*!< nonzero: the counts agree */
    double seconds;             /*!< wall time of the re-count */
} nq_recheck_unit;

/*! Called once per re-checked unit, in increasing order of unit, on the
 *  caller's thread; return nonzero to stop the re-check (NQ_ECANCELED). */
typedef int (*nq_recheck_fn)(const nq_recheck_unit *unit, void *data);

/*! The layout of nq_recheck_options in this header; accepted as
 *  NQ_COUNT_OPTIONS_VERSION is (from NQ_RECHECK_OPTIONS_VERSION_MIN on). */
#define NQ_RECHECK_OPTIONS_VERSION 1
#define NQ_RECHECK_OPTIONS_VERSION_MIN 1

/*! Options of nq_recheck(); start from NQ_RECHECK_OPTIONS_INIT (C, C++20)
 *  or nq_recheck_options_init(). Every field defaults to 0 or NULL but
 *  simd (NQ_SIMD_NONE). */
typedef struct nq_recheck_options {
    unsigned version;        /*!< NQ_RECHECK_OPTIONS_VERSION */
    nq_recheck_path path;    /*!< how to count again; NQ_RECHECK_AUTO */
    nq_simd simd;            /*!< level of the KERNEL and WALK paths;
                                  default NQ_SIMD_NONE (the scalar code,
                                  which a count on a CPU with SIMD does not
                                  run); NQ_SIMD_AUTO is the widest */
    uint64_t sample;         /*!< re-check this many finished units, drawn
                                  at random (uniformly, without
                                  replacement); 0 or more than there are:
                                  every finished unit */
    uint64_t seed;           /*!< picks the sample: the same seed and
                                  checkpoint give the same units */
    const uint64_t *units;   /*!< optional: re-check exactly these units
                                  (each must be finished; any order, each
                                  once) instead of a sample */
    size_t units_count;      /*!< entries of units */
    nq_cancel *stop;         /*!< optional: raising it stops the re-check
                                  within a fraction of a second
                                  (NQ_ECANCELED) */
    nq_recheck_fn on_unit;   /*!< optional: each unit's verdict */
    void *unit_data;         /*!< passed to on_unit */
    uint64_t max_memory;     /*!< bytes the re-count may take at most, as
                                  nq_count_options.max_memory (0 = half of
                                  the physical memory): where the join's
                                  table would not fit, the KERNEL path
                                  walks the half-boards as WALK does */
} nq_recheck_options;

#if !defined(__cplusplus) || __cplusplus >= 202002L
#define NQ_RECHECK_OPTIONS_INIT                                            \
    { .version = NQ_RECHECK_OPTIONS_VERSION, .path = NQ_RECHECK_AUTO,      \
      .simd = NQ_SIMD_NONE, .sample = 0, .seed = 0, .units = NULL,         \
      .units_count = 0, .stop = NULL, .on_unit = NULL, .unit_data = NULL,  \
      .max_memory = 0 }
#endif

/*! nq_recheck_options_init() : as nq_count_options_init(), for
 *  nq_recheck(). @return NQ_OK, NQ_EINVAL, NQ_EVERSION. */
NQ_API int nq_recheck_options_init(nq_recheck_options *opts, unsigned version);

/*! The layout of nq_recheck_result in this header. */
#define NQ_RECHECK_RESULT_VERSION 1

/*! What a re-check found; start from NQ_RECHECK_RESULT_INIT. */
typedef struct nq_recheck_result {
    unsigned version;        /*!< NQ_RECHECK_RESULT_VERSION */
    unsigned n;
    nq_method method;        /*!< the checkpoint's */
    nq_recheck_path path;    /*!< the path that ran (never AUTO) */
    nq_simd simd;            /*!< the level it ran at (NQ_SIMD_NONE for
                                  NQ_RECHECK_INDEPENDENT and scalar-only
                                  methods) */
    uint64_t units_total;    /*!< units of the whole list */
    uint64_t units_done;     /*!< finished units in the checkpoint */
    uint64_t checked;        /*!< units counted again */
    uint64_t mismatched;     /*!< of which, those whose counts differ */
    uint64_t first_mismatch; /*!< the smallest such unit (when mismatched) */
    uint64_t recorded_total; /*!< the checked units' recorded totals, summed */
    uint64_t total;          /*!< and what the re-counts found, summed */
    double seconds;          /*!< wall time of the re-counts */
} nq_recheck_result;

#if !defined(__cplusplus) || __cplusplus >= 202002L
/*! An empty nq_recheck_result of this header's version. */
#define NQ_RECHECK_RESULT_INIT                                             \
    { .version = NQ_RECHECK_RESULT_VERSION, .n = 0,                        \
      .method = NQ_METHOD_DEFAULT, .path = NQ_RECHECK_AUTO,                \
      .simd = NQ_SIMD_AUTO, .units_total = 0, .units_done = 0,             \
      .checked = 0, .mismatched = 0, .first_mismatch = 0,                  \
      .recorded_total = 0, .total = 0, .seconds = 0.0 }
#endif

/*! nq_recheck() : count finished units of `cp` again by another path and
 *  compare each with its record, on the caller's thread (no threads are
 *  started; run several re-checks of disjoint lists for more cores). The
 *  sample is drawn from the finished units with a generator seeded by
 *  opts->seed, identically on every platform, and checked in increasing
 *  order of unit. The checkpoint is only read.
 *  A mismatch is not an error of the call: NQ_OK is returned, with
 *  out->mismatched counting them and on_unit told which.
 *  @param out  receives the findings (the fields of its version); untouched
 *              unless NQ_OK is returned
 *  @return NQ_OK, NQ_EINVAL (NULL out or cp, a bad option, a listed unit
 *          out of range, unfinished or given twice), NQ_EVERSION (options
 *          or out of an unknown version),
 *          NQ_EMETHOD (a path the checkpoint's method does not have),
 *          NQ_EUNSUPPORTED (a level this CPU or build lacks),
 *          NQ_EMEMLIMIT (even the leanest way would not fit in
 *          max_memory), NQ_ECANCELED (the flag was raised, or on_unit
 *          asked to stop), NQ_ENOMEM. */
NQ_API int nq_recheck(nq_recheck_result *out, const nq_checkpoint *cp,
                      const nq_recheck_options *opts);

/*! nq_recheck_path_name() : @return "auto", "kernel", "walk",
 *  "independent", or NULL. */
NQ_API const char *nq_recheck_path_name(nq_recheck_path path);

/* ------------------------------------------------------------------------
 * Part results and merging. A count split with part_k/part_m into M runs
 * (on M machines, say) gives M part results, written as one JSON line each
 * by `nqueens --part K/M --json`:
 *   {"n":16,"total":3692888,"unique":461680,"method":"symmetry","part":1,
 *    "parts":4,"unit_list_version":2,"seconds":0.4,"check":"8c3e5f02a1b4d697"}
 * Merging adds them up after checking that they are exactly the M parts of
 * one count. Nothing in a line is trusted: see nq_part_parse().
 * ------------------------------------------------------------------------ */

/*! The layout of nq_part in this header. */
#define NQ_PART_VERSION 1

/*! One part result; start from NQ_PART_INIT (nq_part_parse() fills it). */
typedef struct nq_part {
    unsigned version;            /*!< NQ_PART_VERSION */
    unsigned n;
    nq_method method;            /*!< never NQ_METHOD_DEFAULT */
    uint32_t unit_list_version;
    uint32_t part, parts;        /*!< 1 <= part <= parts */
    uint64_t total;              /*!< the part's share of the count */
    uint64_t unique;             /*!< its share of the unique count, if has_unique */
    int has_unique;
    int has_check;               /*!< the line carried a "check" (which matched) */
} nq_part;

#if !defined(__cplusplus) || __cplusplus >= 202002L
/*! An empty nq_part of this header's version. */
#define NQ_PART_INIT                                                       \
    { .version = NQ_PART_VERSION, .n = 0, .method = NQ_METHOD_DEFAULT,     \
      .unit_list_version = 0, .part = 0, .parts = 0, .total = 0,           \
      .unique = 0, .has_unique = 0, .has_check = 0 }
#endif

/*! Why a line is not a part result; see nq_part_parse(). */
typedef enum nq_partline_fault {
    NQ_PARTLINE_OK = 0,
    NQ_PARTLINE_BLANK = 1,     /*!< empty, or only blanks: no part at all */
    NQ_PARTLINE_SYNTAX = 2,    /*!< not a one-line JSON object of keys and values */
    NQ_PARTLINE_KEY = 3,       /*!< an unknown key */
    NQ_PARTLINE_TWICE = 4,     /*!< a key given twice */
    NQ_PARTLINE_MISSING = 5,   /*!< a required key is absent */
    NQ_PARTLINE_VALUE = 6,     /*!< a value of the wrong kind, or a whole
                                    number with a sign, a fraction, a
                                    leading zero or above 2^64 - 1 */
    NQ_PARTLINE_DAMAGED = 7,   /*!< "check" does not match the content */
    NQ_PARTLINE_N = 8,         /*!< n above NQ_MAX_N */
    NQ_PARTLINE_METHOD = 9,    /*!< not the name of a method of this library */
    NQ_PARTLINE_VERSION = 10,  /*!< a unit-list version this library does not have */
    NQ_PARTLINE_RANGE = 11,    /*!< part is 0 or above parts, or parts above 2^32 - 1 */
    NQ_PARTLINE_UNIQUE = 12    /*!< a unique count above the total, or one from a
                                    method that counts none */
} nq_partline_fault;

/*! The layout of nq_partline_error in this header. */
#define NQ_PARTLINE_ERROR_VERSION 1

/*! Where and why a part line was refused; start from
 *  NQ_PARTLINE_ERROR_INIT. */
typedef struct nq_partline_error {
    unsigned version;         /*!< NQ_PARTLINE_ERROR_VERSION */
    nq_partline_fault fault;
    size_t offset;            /*!< 0-based byte where the fault was seen */
    char key[24];             /*!< the key concerned, if any (cut short,
                                   NUL-terminated) */
} nq_partline_error;

#if !defined(__cplusplus) || __cplusplus >= 202002L
/*! An empty nq_partline_error of this header's version. */
#define NQ_PARTLINE_ERROR_INIT                                             \
    { .version = NQ_PARTLINE_ERROR_VERSION, .fault = NQ_PARTLINE_OK,       \
      .offset = 0, .key = { 0 } }
#endif

/*! nq_part_parse() : read one part line, trusting nothing in it, in time
 *  linear in its length. The line is one JSON object whose keys are n,
 *  total, method, part, parts, unit_list_version (required), unique,
 *  seconds and check (optional), each exactly once, in any order, with
 *  blanks (space, tab, '\r') anywhere between tokens. Whole numbers are
 *  plain JSON integers (no sign, fraction, exponent or leading zero) up to
 *  2^64 - 1; seconds is any JSON number that is not negative; method is a
 *  name of nq_method_name(); check is 16 lowercase hex digits (see
 *  nq_part_checksum()): a line whose check does not match is damaged.
 *  Strings hold no escapes. Then n must be 0..NQ_MAX_N, the unit-list
 *  version that of the method in this library, 1 <= part <= parts <=
 *  2^32 - 1, and unique (only from a method that counts it) <= total.
 *  Faults are reported in the order of nq_partline_fault, syntax first.
 *  @param out  receives the part (the fields of its version); untouched
 *              unless NQ_OK is returned
 *  @param err  optional: the fault and where (the fields of its version)
 *  @param line,len  the text, without its newline (need not be
 *              NUL-terminated; line may be NULL when len = 0)
 *  @return NQ_OK, NQ_EFORMAT (err says why; NQ_PARTLINE_BLANK for a blank
 *          line), NQ_EINVAL (NULL out, NULL line with len > 0),
 *          NQ_EVERSION (out or err of an unknown version). */
NQ_API int nq_part_parse(nq_part *out, nq_partline_error *err, const char *line,
                         size_t len);

/*! nq_partline_error_format() : describe a part-line fault in one line of
 *  English, e.g. "key \"parts\" given twice (byte 61)".
 *  @param out  receives the text, truncated to size bytes, NUL-terminated
 *  @return NQ_OK, NQ_EINVAL (out NULL with size > 0, err NULL),
 *          NQ_EVERSION (err of an unknown version). */
NQ_API int nq_partline_error_format(char *out, size_t size,
                                    const nq_partline_error *err);

/*! nq_part_checksum() : the value of a part line's "check" field: the
 *  64-bit FNV-1a hash of the part's canonical line, which is the line
 *  without seconds and check, keys in the order of the example above and
 *  no blanks ("unique" only when has_unique). It finds accidental damage
 *  (a changed digit, a cut or joined line), not deliberate forgery.
 *  @return the hash; 0 for a NULL part or one of an unknown version. */
NQ_API uint64_t nq_part_checksum(const nq_part *part);

/*! The layout of nq_merge_summary in this header. */
#define NQ_MERGE_SUMMARY_VERSION 1

/*! The sum of the parts of one n, as nq_merge_parts() adds them up; start
 *  from NQ_MERGE_SUMMARY_INIT. */
typedef struct nq_merge_summary {
    unsigned version;     /*!< NQ_MERGE_SUMMARY_VERSION */
    unsigned n;
    nq_method method;
    uint32_t unit_list_version;
    uint32_t parts;
    uint64_t total;
    uint64_t unique;      /*!< when has_unique */
    int has_unique;       /*!< every part carried its unique count */
} nq_merge_summary;

#if !defined(__cplusplus) || __cplusplus >= 202002L
/*! An empty nq_merge_summary of this header's version. */
#define NQ_MERGE_SUMMARY_INIT                                              \
    { .version = NQ_MERGE_SUMMARY_VERSION, .n = 0,                         \
      .method = NQ_METHOD_DEFAULT, .unit_list_version = 0, .parts = 0,     \
      .total = 0, .unique = 0, .has_unique = 0 }
#endif

/*! Why parts do not add up to counts; see nq_merge_parts(). */
typedef enum nq_merge_fault {
    NQ_MERGE_OK = 0,
    NQ_MERGE_SPLIT = 1,     /*!< parts a and b of one n come from different
                                 splits (parts, method or unit list) */
    NQ_MERGE_TWICE = 2,     /*!< parts a and b are the same part */
    NQ_MERGE_UNITS = 3,     /*!< part a's parts is above the `expected` units
                                 of its n and method: no such split exists */
    NQ_MERGE_MISSING = 4,   /*!< `missing` parts of n are absent */
    NQ_MERGE_OVERFLOW = 5,  /*!< the sum passes 2^64 - 1 at part a */
    NQ_MERGE_KNOWN = 6      /*!< the sum `got` is not the published count
                                 `expected` (unique counts: unique_known) */
} nq_merge_fault;

/*! The layout of nq_merge_error in this header. */
#define NQ_MERGE_ERROR_VERSION 1

/*! Why and where a merge was refused; start from NQ_MERGE_ERROR_INIT. */
typedef struct nq_merge_error {
    unsigned version;          /*!< NQ_MERGE_ERROR_VERSION */
    nq_merge_fault fault;
    unsigned n;
    size_t a, b;               /*!< indices into the parts array */
    uint64_t missing;          /*!< MISSING: how many */
    uint32_t first_missing[8]; /*!< MISSING: the smallest min(missing, 8) */
    uint64_t expected, got;    /*!< UNITS, KNOWN */
    int unique_known;          /*!< KNOWN: the unique counts disagree */
} nq_merge_error;

#if !defined(__cplusplus) || __cplusplus >= 202002L
/*! An empty nq_merge_error of this header's version. */
#define NQ_MERGE_ERROR_INIT                                                \
    { .version = NQ_MERGE_ERROR_VERSION, .fault = NQ_MERGE_OK, .n = 0,     \
      .a = 0, .b = 0, .missing = 0, .first_missing = { 0 },                \
      .expected = 0, .got = 0, .unique_known = 0 }
#endif

/*! nq_merge_parts() : add up part results, one sum per board size. The
 *  parts of each n must share parts, method and unit list, appear once
 *  each, all of them, with parts no larger than the number of units; sums
 *  are checked (never wrapped) and compared with the published counts
 *  where they are known (nq_known()). Time O(count log count) plus one
 *  nq_units() per board size; memory O(count): neither depends on the
 *  numbers in the parts.
 *  @param out      room for `count` sums, out[0] started from
 *                  NQ_MERGE_SUMMARY_INIT; receives them by increasing n,
 *                  each at out[0]'s version
 *  @param out_len  receives how many
 *  @param err      optional: the fault, and the parts it concerns (the
 *                  fields of its version; all 0 but version when NQ_OK)
 *  @param parts    `count` parts, each of the version of parts[0]
 *  @return NQ_OK, NQ_EMISMATCH (the parts are not whole counts: see err),
 *          NQ_EOVERFLOW (err->a), NQ_EINVAL (NULL pointers, count 0, a
 *          part that nq_part_parse() would refuse), NQ_EVERSION (out[0],
 *          a part or err of an unknown version, or parts of two
 *          versions), NQ_ENOMEM. */
NQ_API int nq_merge_parts(nq_merge_summary *out, size_t *out_len,
                          nq_merge_error *err, const nq_part *parts,
                          size_t count);

/* ------------------------------------------------------------------------
 * Solutions: listing, construction, random search, verification.
 * A placement is an array of n column indices, 0-based, one per row:
 * cols[r] is the column of the queen in row r.
 * ------------------------------------------------------------------------ */

/*! Receives each listed solution; return nonzero to stop the listing. */
typedef int (*nq_solution_fn)(const uint32_t *cols, unsigned n, void *data);

/*! The layout of nq_list_options in this header; accepted as
 *  NQ_COUNT_OPTIONS_VERSION is (from NQ_LIST_OPTIONS_VERSION_MIN on). */
#define NQ_LIST_OPTIONS_VERSION 3
#define NQ_LIST_OPTIONS_VERSION_MIN 3

/*! Options of nq_list(); start from NQ_LIST_OPTIONS_INIT (C, C++20) or
 *  nq_list_options_init(). Every field defaults to 0 or NULL. */
typedef struct nq_list_options {
    unsigned version;          /*!< NQ_LIST_OPTIONS_VERSION */
    int canonical;             /*!< nonzero: only the canonical representative
                                    (lexicographically smallest of its eight
                                    images) of each symmetry class */
    uint64_t limit;            /*!< stop after this many; 0 = no limit */
    nq_cancel *stop;           /*!< optional: raising it stops the listing
                                    (NQ_ECANCELED) */
} nq_list_options;

#if !defined(__cplusplus) || __cplusplus >= 202002L
#define NQ_LIST_OPTIONS_INIT                                               \
    { .version = NQ_LIST_OPTIONS_VERSION, .canonical = 0, .limit = 0,     \
      .stop = NULL }
#endif

/*! nq_list_options_init() : as nq_count_options_init(), for nq_list().
 *  @return NQ_OK, NQ_EINVAL, NQ_EVERSION. */
NQ_API int nq_list_options_init(nq_list_options *opts, unsigned version);

/*! nq_list() : call fn for every solution of the n x n board, in
 *  lexicographic order of (cols[0], cols[1], ...). Memory use does not grow
 *  with the number of solutions. n = 0 has one solution, the empty board
 *  (fn gets n = 0).
 *  @param out  receives how many solutions were passed to fn, also when the
 *              listing was cancelled (may be NULL).
 *  @param opts options, or NULL for the defaults.
 *  @return NQ_OK (also when fn stopped the listing or the limit was hit),
 *          NQ_EINVAL (fn NULL), NQ_ERANGE (n > NQ_MAX_N), NQ_EVERSION,
 *          NQ_ECANCELED. */
NQ_API int nq_list(uint64_t *out, unsigned n, const nq_list_options *opts,
                   nq_solution_fn fn, void *data);

/*! nq_construct() : one solution for any n, by an explicit O(n) formula
 *  (the classical evens-then-odds pattern, adjusted for n mod 6 = 2, 3).
 *  @param out  n entries, receives the placement (nothing for n = 0).
 *  @return NQ_OK, NQ_EINVAL (out NULL with n > 0; n above UINT32_MAX, so
 *          that every column fits a uint32_t), NQ_ENOSOLUTION (n = 2, 3). */
NQ_API int nq_construct(uint32_t *out, size_t n);

/*! nq_random() : a random solution by min-conflicts local search.
 *  The same seed and n always give the same placement, on every platform.
 *  On large boards each move picks the best of a bounded sample of columns
 *  (random ones and empty ones), so a move costs O(1); time and memory
 *  grow linearly with n (docs/library.md gives figures).
 *  @param out  n entries, receives the placement (unspecified on failure).
 *  @param max_steps  bound on queen moves; 0 = a default of 100 n + 10^6.
 *  @return NQ_OK, NQ_EINVAL (out NULL with n > 0; n above UINT32_MAX - 1,
 *          since the search keeps UINT32_MAX as a mark of its own),
 *          NQ_ENOSOLUTION (n = 2, 3), NQ_ENOMEM,
 *          NQ_ELIMIT (the bound was reached without a solution). */
NQ_API int nq_random(uint32_t *out, size_t n, uint64_t seed, uint64_t max_steps);

/*! What nq_verify() found wrong with a placement. */
typedef enum nq_verify_fault {
    NQ_VERIFY_OK = 0,         /*!< a valid solution */
    NQ_VERIFY_RANGE = 1,      /*!< cols[row_a] >= n */
    NQ_VERIFY_COLUMN = 2,     /*!< rows row_a < row_b share a column */
    NQ_VERIFY_DIAGONAL = 3    /*!< rows row_a < row_b share a diagonal */
} nq_verify_fault;

/*! The layout of nq_violation in this header. */
#define NQ_VIOLATION_VERSION 1

/*! The first fault of a placement; start from NQ_VIOLATION_INIT. */
typedef struct nq_violation {
    unsigned version;       /*!< NQ_VIOLATION_VERSION */
    nq_verify_fault fault;
    size_t row_a;           /*!< 0-based rows involved */
    size_t row_b;
} nq_violation;

#if !defined(__cplusplus) || __cplusplus >= 202002L
/*! An empty nq_violation of this header's version. */
#define NQ_VIOLATION_INIT                                                  \
    { .version = NQ_VIOLATION_VERSION, .fault = NQ_VERIFY_OK, .row_a = 0,  \
      .row_b = 0 }
#endif

/*! nq_verify() : check a placement in O(n) time and O(n) bits of memory.
 *  The first fault is chosen by kind, then by row: an out-of-range column
 *  (the first such row, row_b = row_a), else a repeated column (row_b is
 *  the first row whose column an earlier row holds, row_a that row), else a
 *  shared diagonal (row_b is the first row on a diagonal that an earlier row
 *  holds, row_a the earlier row; if row_b shares both of its diagonals, the
 *  smaller of the two rows).
 *  @param out  receives the first fault found (fault = NQ_VERIFY_OK if
 *              valid), in the fields of its version.
 *  @param cols n columns, 0-based (may be NULL when n = 0).
 *  @return NQ_OK (whether or not the placement is valid), NQ_EINVAL (NULL
 *          out, NULL cols with n > 0), NQ_EVERSION (out of an unknown
 *          version), NQ_ENOMEM. */
NQ_API int nq_verify(nq_violation *out, const uint32_t *cols, size_t n);

/*! nq_violation_format() : describe a fault in one line of English with
 *  1-based rows and columns, e.g. "rows 2 and 5 share column 4".
 *  @param out   receives the text, truncated to size bytes, NUL-terminated.
 *  @param v     a result of nq_verify().
 *  @param cols, n  the placement that was verified (cols may be NULL: the
 *               text then names rows only).
 *  @return NQ_OK, NQ_EINVAL (out NULL with size > 0, v NULL), NQ_EVERSION
 *          (v of an unknown version). */
NQ_API int nq_violation_format(char *out, size_t size, const nq_violation *v,
                               const uint32_t *cols, size_t n);

/*! Why a line is not a placement; see nq_parse_placement(). */
typedef enum nq_placement_fault {
    NQ_PLACEMENT_OK = 0,        /*!< the line is a placement */
    NQ_PLACEMENT_CHAR = 1,      /*!< a byte that is not a digit, space or tab
                                     (a sign, a letter, a NUL byte, ...) */
    NQ_PLACEMENT_ZERO = 2,      /*!< a column 0 (columns start at 1) */
    NQ_PLACEMENT_OVERFLOW = 3   /*!< a column above 4294967295 */
} nq_placement_fault;

/*! The layout of nq_placement_error in this header. */
#define NQ_PLACEMENT_ERROR_VERSION 1

/*! Where and why a placement line was refused; start from
 *  NQ_PLACEMENT_ERROR_INIT. */
typedef struct nq_placement_error {
    unsigned version;   /*!< NQ_PLACEMENT_ERROR_VERSION */
    nq_placement_fault fault;
    size_t offset;      /*!< 0-based byte offset: the bad byte (CHAR), the
                             bad number's first digit (ZERO, OVERFLOW) */
    size_t row;         /*!< 0-based row of the bad number (ZERO, OVERFLOW) */
    unsigned char byte; /*!< the bad byte (CHAR) */
} nq_placement_error;

#if !defined(__cplusplus) || __cplusplus >= 202002L
/*! An empty nq_placement_error of this header's version. */
#define NQ_PLACEMENT_ERROR_INIT                                            \
    { .version = NQ_PLACEMENT_ERROR_VERSION, .fault = NQ_PLACEMENT_OK,     \
      .offset = 0, .row = 0, .byte = 0 }
#endif

/*! nq_parse_placement() : parse one line of 1-based columns separated by
 *  spaces or tabs ("1 5 8 6 3 7 2 4") into 0-based cols, in linear time.
 *  Compact form: a line that holds one token only is read one digit per
 *  row, so "15863724" is the eight-queen placement above and "12" is two
 *  rows; a placement of one queen is "1". Spaces and tabs may lead and
 *  trail; one '\r' may end the line. A line with no column at all (empty,
 *  or blanks only) is the placement of the empty board: NQ_OK, n = 0,
 *  *out = NULL. Leading zeros are allowed ("08" in a
 *  spaced line is column 8), a column of value 0 is not.
 *  Faults, when there are several, are reported in this order: the first
 *  byte that is not a digit, space or tab (the final '\r' excepted); the
 *  first number that is 0 or above UINT32_MAX
 *  (in compact form, the first digit 0).
 *  @param out      receives a malloc'ed array (free() it); NULL on failure
 *                  and for the empty board
 *  @param n_out    receives the number of rows (0 on failure)
 *  @param err      optional (may be NULL): why and where parsing failed,
 *                  in the fields of its version; fault = NQ_PLACEMENT_OK
 *                  on success
 *  @param line,len the text (need not be NUL-terminated; no newline;
 *                  line may be NULL when len = 0)
 *  @return NQ_OK, NQ_EFORMAT (not a placement: letters, signs, a zero,
 *          overflow), NQ_ENOMEM, NQ_EINVAL (NULL out or n_out, NULL line
 *          with len > 0), NQ_EVERSION (err of an unknown version). */
NQ_API int nq_parse_placement(uint32_t **out, size_t *n_out,
                              nq_placement_error *err,
                              const char *line, size_t len);

/*! nq_placement_error_format() : describe a placement-line fault in one
 *  line of English, with 1-based rows and byte positions, e.g.
 *  "row 3: column 0 is out of range (columns start at 1)".
 *  @param out  receives the text, truncated to size bytes, NUL-terminated.
 *  @return NQ_OK, NQ_EINVAL (out NULL with size > 0, err NULL),
 *          NQ_EVERSION (err of an unknown version). */
NQ_API int nq_placement_error_format(char *out, size_t size,
                                     const nq_placement_error *err);

#ifdef __cplusplus
}
#endif

#endif /* NQUEENS_H */
