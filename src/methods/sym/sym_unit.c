/*
 * sym_unit.c - the symmetry method's unit list and the count of one unit
 * (sym_unit.h): the plan, the brute force of n <= 5, the start of each unit's
 * walk, its kernel, and the weights of the symmetry bookkeeping. The
 * design note is at the top of sym.c.
 */
#include "sym_unit.h"

#include <stdlib.h>

#include "platform/cpu.h"
#include "sym_border.h"
#include "sym_fixed.h"
#include "sym_kernel.h"

/* Boards from this size on split constellations by their first interior
 * queen (see the design note). */
#define NQ_SYM_SPLIT_N 20u
/* Boards up to this size are a single brute-force unit. */
#define NQ_SYM_SMALL_N 5u
/* Marks a unit that is a whole constellation. */
#define NQ_SYM_NO_SPLIT 0xffu

/* The eight symmetries, as maps of square (r, c): 0 identity, 1-3 quarter,
 * half and three-quarter turns, 4-7 the reflections. */
#define NQ_SYM_ROTATIONS 0x0eu

typedef struct nq_sym_unit {
    uint32_t constellation; /* index into plan->cons */
    uint8_t first;          /* column of the queen of level 0, or NQ_SYM_NO_SPLIT */
    uint8_t second;         /* column of the queen of level 1, or NQ_SYM_NO_SPLIT */
} nq_sym_unit;

struct nq_sym_plan {
    unsigned n;
    /* nq_cpu_simd_best(), asked once: CPUID is slow where a hypervisor
     * traps it (some 0.2 ms a call), far too slow to ask per unit. */
    nq_simd cpu_best;
    size_t ncons;
    nq_sym_constellation *cons;
    uint64_t nunits;
    nq_sym_unit *units;
};

/* ========================================================================
 * Plan
 * ======================================================================== */

/* How many levels of a unit's walk its unit fixes: 0, 1 or 2 (see the
 * design note). Only entries with a trivial stabiliser are split. */
static unsigned nq_sym_split_depth(unsigned n, const nq_sym_constellation *cn)
{
    if (n < NQ_SYM_SPLIT_N || cn->stab != 1)
        return 0;
    return cn->bottom ? 2 : 1;
}

/* Lists the units of constellation i from index k on (when units is not
 * NULL). @return how many there are. */
static uint64_t nq_sym_list_units(unsigned n, const nq_sym_constellation *cn,
                                  uint32_t i, nq_sym_unit *units, uint64_t k)
{
    unsigned depth = nq_sym_split_depth(n, cn);
    if (depth == 0) {
        if (units)
            units[k] = (nq_sym_unit){ i, NQ_SYM_NO_SPLIT, NQ_SYM_NO_SPLIT };
        return 1;
    }
    nq_sym_board bd;
    nq_sym_make_board(&bd, NULL, n, cn);
    uint64_t m = 0;
    for (uint32_t f = bd.allowed[0]; f; f &= f - 1) {
        uint32_t bit = f & (0u - f);
        if (depth == 1) {
            if (units)
                units[k + m] = (nq_sym_unit){ i, (uint8_t)__builtin_ctz(bit),
                                              NQ_SYM_NO_SPLIT };
            m++;
            continue;
        }
        const unsigned s = bd.shift[0];
        uint32_t g = bd.allowed[1] & ~(bit | (bit << s) | (bit >> s));
        for (; g; g &= g - 1) {
            if (units)
                units[k + m] = (nq_sym_unit){ i, (uint8_t)__builtin_ctz(bit),
                                              (uint8_t)__builtin_ctz(g) };
            m++;
        }
    }
    return m;
}

int nq_sym_plan_build(nq_sym_plan **out, unsigned n)
{
    if (!out)
        return NQ_EINVAL;
    if (n > NQ_MAX_N)
        return NQ_ERANGE;
    nq_sym_plan *p = calloc(1, sizeof *p);
    if (!p)
        return NQ_ENOMEM;
    p->n = n;
    p->cpu_best = nq_cpu_simd_best();
    if (n <= NQ_SYM_SMALL_N) {
        /* One brute-force unit; it needs no list. */
        p->nunits = 1;
        *out = p;
        return NQ_OK;
    }
    p->ncons = nq_sym_enumerate(n, NULL);
    p->cons = malloc(p->ncons * sizeof *p->cons);
    if (!p->cons) {
        nq_sym_plan_free(p);
        return NQ_ENOMEM;
    }
    nq_sym_enumerate(n, p->cons);

    /* Two passes over the constellations: count the units, then list them. */
    uint64_t k = 0;
    for (size_t i = 0; i < p->ncons; i++)
        k += nq_sym_list_units(n, &p->cons[i], (uint32_t)i, NULL, 0);
    p->nunits = k;
    p->units = malloc((size_t)k * sizeof *p->units);
    if (!p->units) {
        nq_sym_plan_free(p);
        return NQ_ENOMEM;
    }
    k = 0;
    for (size_t i = 0; i < p->ncons; i++)
        k += nq_sym_list_units(n, &p->cons[i], (uint32_t)i, p->units, k);
    *out = p;
    return NQ_OK;
}

uint64_t nq_sym_plan_size(const nq_sym_plan *plan)
{
    return plan ? plan->nunits : 0;
}

unsigned nq_sym_plan_n(const nq_sym_plan *plan)
{
    return plan ? plan->n : 0;
}

void nq_sym_plan_free(nq_sym_plan *plan)
{
    if (!plan)
        return;
    free(plan->cons);
    free(plan->units);
    free(plan);
}

/* ========================================================================
 * n <= 5: brute force with an explicit symmetry test
 * ======================================================================== */

/* Adds to *total the solutions completing rows 0..r-1 of col, and to *fixed
 * the sum of their stabiliser orders (Burnside: unique = fixed / 8). */
static void nq_sym_small_walk(unsigned n, unsigned r, unsigned col[],
                              uint64_t *total, uint64_t *fixed)
{
    if (r == n) {
        for (unsigned g = 0; g < 8; g++) {
            unsigned img[NQ_SYM_SMALL_N];
            for (unsigned i = 0; i < n; i++) {
                unsigned ir, ic;
                nq_sym_map(g, n, i, col[i], &ir, &ic);
                img[ir] = ic;
            }
            unsigned same = 1;
            for (unsigned i = 0; i < n; i++)
                same &= img[i] == col[i];
            *fixed += same;
        }
        ++*total;
        return;
    }
    for (unsigned c = 0; c < n; c++) {
        unsigned ok = 1;
        for (unsigned i = 0; i < r; i++)
            ok &= !nq_sym_attack(i, col[i], r, c);
        if (ok) {
            col[r] = c;
            nq_sym_small_walk(n, r + 1, col, total, fixed);
        }
    }
}

/* ========================================================================
 * Units
 * ======================================================================== */

/* The start node of unit u on its board bd: the queens it fixes placed. */
static void nq_sym_start(nq_sym_node *start, const nq_sym_board *bd,
                         const nq_sym_unit *u)
{
    *start = (nq_sym_node){ 0, 0, 0, 0 };
    if (u->first != NQ_SYM_NO_SPLIT) {
        uint32_t bit = 1u << u->first;
        start->level = 1;
        start->cols = bit;
        start->ld = bit << bd->shift[0];
        start->rd = bit >> bd->shift[0];
    }
    if (u->second != NQ_SYM_NO_SPLIT) {
        uint32_t bit = 1u << u->second;
        start->level = 2;
        start->cols |= bit;
        start->ld = (start->ld | bit) << bd->shift[1];
        start->rd = (start->rd | bit) >> bd->shift[1];
    }
}

int nq_sym_unit_walk(const nq_sym_plan *plan, uint64_t unit,
                     nq_sym_board *board, nq_sym_node *start)
{
    if (!plan || !board || !start || unit >= plan->nunits ||
        plan->n <= NQ_SYM_SMALL_N)
        return NQ_EINVAL;
    const nq_sym_unit *u = &plan->units[unit];
    nq_sym_make_board(board, NULL, plan->n, &plan->cons[u->constellation]);
    nq_sym_start(start, board, u);
    return NQ_OK;
}

int nq_sym_solve_unit(const nq_sym_plan *plan, uint64_t unit, nq_simd simd,
                      const nq_stop_flag *stop, nq_unit_result *out)
{
    if (!plan || !out || unit >= plan->nunits)
        return NQ_EINVAL;
    if (simd == NQ_SIMD_AUTO || !nq_simd_name(simd))
        return NQ_EINVAL;
    const nq_sym_kernel_fn kernel = nq_sym_kernel_of(simd);
    if (!kernel || !nq_cpu_runs(plan->cpu_best, simd))
        return NQ_EUNSUPPORTED;
    if (nq_stopped(stop))
        return NQ_ECANCELED;

    const unsigned n = plan->n;
    if (n <= NQ_SYM_SMALL_N) {
        unsigned col[NQ_SYM_SMALL_N];
        uint64_t total = 0, fixed = 0;
        nq_sym_small_walk(n, 0, col, &total, &fixed);
        out->total = total;
        out->unique = fixed / 8;
        return NQ_OK;
    }

    const nq_sym_unit *u = &plan->units[unit];
    const nq_sym_constellation *cn = &plan->cons[u->constellation];
    nq_sym_board bd;
    nq_sym_make_board(&bd, NULL, n, cn);
    const unsigned order = nq_sym_order(cn->stab);

    nq_sym_node start;
    nq_sym_start(&start, &bd, u);
    uint64_t count = 0;
    int rc = kernel(&bd, &start, stop, &count);
    if (rc != NQ_OK)
        return rc;
    if (cn->stab & NQ_SYM_ROTATIONS)
        return nq_sym_turned_result(plan, unit, count, stop, out);
    *out = nq_sym_weigh(count, order);
    return NQ_OK;
}

int nq_sym_turned_result(const nq_sym_plan *plan, uint64_t unit, uint64_t count,
                         const nq_stop_flag *stop, nq_unit_result *out)
{
    if (!plan || !out || unit >= plan->nunits || plan->n <= NQ_SYM_SMALL_N)
        return NQ_EINVAL;
    const nq_sym_constellation *cn = &plan->cons[plan->units[unit].constellation];
    const unsigned order = nq_sym_order(cn->stab);
    uint64_t fix90 = 0, fix180 = 0;
    int rc = NQ_OK;
    if (!(cn->stab & NQ_SYM_ROTATIONS))
        return NQ_EINVAL;
    /* fix(90) = fix(270): a placement fixed by one turn is fixed by its
     * inverse. Reflections fix no solution. */
    if (cn->stab & 0x02u)
        rc = nq_sym_fixed(&fix90, plan->n, cn, 1, stop);
    if (rc == NQ_OK && (cn->stab & 0x04u))
        rc = nq_sym_fixed(&fix180, plan->n, cn, 2, stop);
    if (rc != NQ_OK)
        return rc;
    out->total = count * (8 / order);
    out->unique = (count + 2 * fix90 + fix180) / order;
    return NQ_OK;
}

int nq_sym_unit_kind(const nq_sym_plan *plan, uint64_t unit, nq_sym_kind *kind,
                     nq_sym_board *board, nq_sym_node *start, unsigned *order)
{
    if (!plan || !kind || !board || !start || !order || unit >= plan->nunits)
        return NQ_EINVAL;
    if (plan->n <= NQ_SYM_SMALL_N) {
        *kind = NQ_SYM_KIND_SMALL;
        return NQ_OK;
    }
    const nq_sym_unit *u = &plan->units[unit];
    const nq_sym_constellation *cn = &plan->cons[u->constellation];
    *kind = cn->stab & NQ_SYM_ROTATIONS ? NQ_SYM_KIND_TURNED : NQ_SYM_KIND_WALK;
    nq_sym_make_board(board, NULL, plan->n, cn);
    nq_sym_start(start, board, u);
    *order = nq_sym_order(cn->stab);
    return NQ_OK;
}

/* ========================================================================
 * The functions of the method's row (sym.c) and of its cost model
 * (sym_cost.c), on plans without a type
 * ======================================================================== */

int nq_sym_build_any(void **plan, unsigned n)
{
    return nq_sym_plan_build((nq_sym_plan **)plan, n);
}

uint64_t nq_sym_size_any(const void *plan)
{
    return nq_sym_plan_size(plan);
}

int nq_sym_solve_any(const void *plan, uint64_t unit, nq_simd simd,
                     const nq_stop_flag *stop, nq_unit_result *out)
{
    return nq_sym_solve_unit(plan, unit, simd, stop, out);
}

void nq_sym_free_any(void *plan) { nq_sym_plan_free(plan); }

int nq_sym_has_simd(nq_simd simd) { return nq_sym_kernel_of(simd) != NULL; }
