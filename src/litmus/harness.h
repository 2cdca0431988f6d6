/*
 * harness.h -- running a litmus test on the simulator, and the kernel it
 * runs.
 *
 * One launch holds many instances of the test.  The host decides each
 * iteration which hardware thread plays which litmus thread of which
 * instance (the role table), where each instance's locations live (the
 * address table, permuted between instances), and, with the bank
 * incantation, how the other lanes of a testing warp address memory.  The
 * kernel (kernel.c) is the same PTX for every iteration: it reads those
 * tables.  The CUDA generator (cuda.c) wraps the same kernel body in inline
 * asm, with the same host logic (place.c), so a chip runs what lockstep runs.
 *
 * Role word of one hardware thread (u32):
 *   bits 0-3   litmus thread k, LIT_ROLE_NONE if the thread tests nothing
 *   bit  4     the testing lane (0: a bank-conflict companion lane)
 *   bit  5     a memory-stress warp (with LIT_ROLE_NONE)
 *   bits 8-31  instance index
 */
#ifndef LOCKSTEP_LITMUS_HARNESS_H
#define LOCKSTEP_LITMUS_HARNESS_H

#include <stdint.h>

#include "litmus/litmus.h"
#include "lockstep.h"
#include "util/strbuf.h"

#define LIT_ROLE_NONE 15u
#define LIT_ROLE_TEST 16u
#define LIT_ROLE_STRESS 32u

/* Incantations (thesis chapter 3). */
enum {
    LIT_INC_BANK = 1,   /* general bank conflicts: companion lanes with dummy addresses */
    LIT_INC_STRESS = 2, /* memory stress: non-testing warps hammer scratch lines */
    LIT_INC_RANDOM = 4, /* random thread placement (CTAs, warps, lanes) */
    LIT_INC_SYNC = 8,   /* testing threads of an instance meet at a barrier first */
};
/* Parse "bank,stress" / "all" / "none"; 0 on success, -1 with err. */
int lit_parse_incantations(const char *s, unsigned *out, strbuf *err);
void lit_incantations_name(strbuf *sb, unsigned inc);

/* Bank-incantation access types, per memory instruction and iteration. */
enum { LIT_ACC_PARALLEL = 0, LIT_ACC_BROADCAST = 1, LIT_ACC_CONFLICT = 2 };

/* What the kernel is built for (fixed over a run). */
typedef struct lit_shape {
    unsigned incant;
    uint32_t stress_iters;   /* stress loop trips */
    uint32_t stress_lines;   /* scratch lines the stress warps hammer */
    uint32_t stress_stride;  /* bytes between them */
    uint32_t smem_bytes;     /* the kernel's shared array (locations + dummy area) */
    uint32_t smem_dummy;     /* byte offset of the 4 KiB dummy area in it */
    int src_lines;           /* tie each test instruction to its line in the test's
                              * file (.file/.loc), so run-time errors name it;
                              * not in --emit-cuda programs, whose kernel is inline asm */
} lit_shape;

/* The kernel's parameters, in order (all .u64 device pointers). */
#define LIT_KPARAMS(X) X(roles) X(addrs) X(results) X(sync) X(acc) X(scratch)

/* The body of the harness kernel: PTX statements in a { } block that reads
 * the parameters from registers %lit_<name> (LIT_KPARAMS) and the shared
 * array's generic address from %lit_smem, all declared by the wrapper. */
int lit_kernel_body(const lit_test *t, const lit_shape *s, strbuf *out, strbuf *err);
/* A whole PTX module with the entry "litmus_test". */
int lit_kernel_module(const lit_test *t, const lit_shape *s, strbuf *out, strbuf *err);

/* Static facts the host and kernel share. */
int lit_loc_used_by(const lit_test *t, int loc, int thread);
int lit_recorder(const lit_test *t, int loc); /* thread that initialises/records a shared location */
int lit_has_backward_branch(const lit_test *t);

/* Running ----------------------------------------------------------------- */

typedef struct lit_opts {
    uint64_t iterations;   /* launches (-n) */
    uint64_t seed;         /* the device's nondeterminism seed (--seed) */
    uint64_t place_seed;   /* the placement stream (--place-seed; default: seed) */
    unsigned incant;
    uint32_t ctas, warps;  /* grid: CTAs and warps per CTA (0: SMs, 8) */
    uint32_t stride;       /* bytes between two instances' copies of a location */
    uint32_t stress_iters, stress_lines, stress_stride;
    uint32_t max_instances;/* per launch, 0: as many as fit */
    int sc_check;          /* classify outcomes with the SC explorer */
} lit_opts;

/* The simulated cycles a harness launch may take by default
 * (-lockstep_max_cycles for litmus runs): far more than a terminating test
 * needs with these options, little enough that a test that spins forever
 * stops within seconds. */
uint64_t lit_max_cycles(const lit_opts *o);
void lit_opts_default(lit_opts *o);

typedef struct lit_histo {
    int width;             /* = t->nobserved */
    int n, cap;
    int64_t *vals;         /* n rows of width values */
    uint64_t *count;
    uint64_t instances, positive, negative;
    uint64_t digest;       /* hash of every instance's outcome, in instance order */
    uint64_t per_launch;   /* instances per launch (the last one) */
    uint64_t cycles, warp_insts; /* summed over launches */
    uint64_t icnt_stalls, l2_misses; /* summed over launches */
    double seconds;        /* host time of the runs */
    int sc_known;          /* the SC explorer ran */
    lit_outcomes sc;       /* its outcomes */
} lit_histo;
void lit_histo_free(lit_histo *h);
/* Sort states lexicographically (deterministic output). */
void lit_histo_sort(lit_histo *h);
int lit_histo_is_sc(const lit_histo *h, int i);

/* The stress lines' stride: `requested`, or if 0 the configuration's
 * partitions x interleave.  The address map hashes each such group of
 * chunks, so the lines still spread over the partitions. */
uint32_t lit_stress_stride(const lockstep_config *cfg, uint32_t requested);

/* Run t on a device made from cfg (NULL: defaults).  Returns 0, or -1 with a
 * message in err (bad placement, a kernel fault, host out of memory). */
int lit_run(const lit_test *t, const lockstep_config *cfg, const lit_opts *o, lit_histo *h,
            strbuf *err);

/* litmus7-style text, and JSON. */
void lit_histo_print(strbuf *sb, const lit_test *t, const lit_histo *h);
void lit_histo_json(strbuf *sb, const lit_test *t, const lit_histo *h, const lit_opts *o,
                    const char *config_name);
/* Did the observed histogram satisfy the condition (litmus7's "Ok")? */
int lit_histo_validated(const lit_test *t, const lit_histo *h);

#endif
