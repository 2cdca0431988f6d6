/*
 * litmus.h -- a GPU litmus test, as every part of src/litmus sees it.
 *
 * The three input formats (the thesis's "GPU_PTX" .litmus, herd's 2015
 * GPU_PTX dialect, and the scoped PTX memory-model syntax "PTX NAME") are
 * read by parse.c into one lit_test.  The test's code is a small decoded
 * instruction set (lit_insn), not PTX text: the SC explorer (sc.c)
 * interprets it, the harness (harness.c) prints it as PTX inside a kernel
 * for the timing model, and the CUDA generator (emit_cuda.c) prints the
 * same PTX inside inline asm for a real GPU.
 *
 *   lit_test
 *   ├── threads[]   lit_thread: name T0/P0, placement (cta, warp), registers[], code[]
 *   ├── locs[]      lit_loc: name, region (global/shared), initial value
 *   ├── cond        lit_cond: exists | ~exists | forall, over a lit_expr tree
 *   └── observed[]  the final-state items the histogram shows (lit_item)
 *
 * Values are 64-bit; a location's address is symbolic: a register initialised
 * to location k holds lit_loc_addr(k) in the SC explorer and the location's
 * real address in the harness, so address arithmetic (dependencies through
 * "xor r9,r0,r0; add r3,r1,r9") works the same in both.
 */
#ifndef LOCKSTEP_LITMUS_H
#define LOCKSTEP_LITMUS_H

#include <stdint.h>

#include "util/strbuf.h"

#define LIT_MAX_THREADS 8
#define LIT_MAX_REGS 32   /* per thread, predicates included */
#define LIT_MAX_LOCS 16
#define LIT_MAX_INSNS 64  /* per thread */
#define LIT_MAX_NAME 32

/* Symbolic address of location k in the SC explorer: never 0, 16-byte
 * apart, so "address + 0" names it and an address-dependency register that
 * holds 0 leaves it unchanged. */
#define LIT_LOC_BASE 0x1000u
#define LIT_LOC_STRIDE 16u
static inline uint64_t lit_loc_addr(int k) { return LIT_LOC_BASE + (uint64_t)k * LIT_LOC_STRIDE; }

typedef enum lit_format {
    LIT_FMT_THESIS,  /* "GPU_PTX NAME", T0 | T1, ScopeTree, memory map "x: global" */
    LIT_FMT_HERD,    /* herd 2015: "GPU_PTX NAME", P0 | P1, scopeTree, r0/p0 registers */
    LIT_FMT_PTXMM,   /* "PTX NAME", "P0@cta 0,gpu 0 | ...", scoped .relaxed/.acquire/... */
} lit_format;

typedef enum lit_region { LIT_GLOBAL, LIT_SHARED } lit_region;

/* Register types: the PTX type of a declared register. */
typedef enum lit_rtype {
    LIT_S32, LIT_U32, LIT_B32, LIT_S64, LIT_U64, LIT_B64, LIT_PRED,
} lit_rtype;

typedef struct lit_reg {
    char name[LIT_MAX_NAME]; /* as written: "r0", "p1" */
    lit_rtype type;
    int init_loc;            /* >= 0: initialised to that location's address */
    int64_t init;            /* else its initial value (default 0) */
} lit_reg;

/* Instructions ------------------------------------------------------------ */

typedef enum lit_op {
    LIT_LD,     /* ld[.sem.scope][.space][.cop|.volatile].type   dst, [addr] */
    LIT_ST,     /* st[...].type                                  [addr], src0 */
    LIT_ATOM,   /* atom[.sem.scope][.space].aop.type             dst, [addr], src0[, src1] */
    LIT_RED,    /* red[...].aop.type                             [addr], src0 */
    LIT_FENCE,  /* membar.{cta,gl,sys} | fence.{sc,acq_rel}.{cta,gpu,sys} */
    LIT_MOV,    /* mov.type dst, src0 (src0 may be a location: its address) */
    LIT_ALU,    /* add/sub/mul/and/or/xor/shl/shr.type dst, src0, src1 */
    LIT_SETP,   /* setp.cmp.type dst(pred), src0, src1 */
    LIT_BRA,    /* bra LABEL (target = insn index) */
    LIT_LABEL,  /* a label's position (no effect) */
} lit_op;

typedef enum lit_alu { LIT_ADD, LIT_SUB, LIT_MUL, LIT_AND, LIT_OR, LIT_XOR, LIT_SHL, LIT_SHR } lit_alu;
typedef enum lit_aop {
    LIT_A_ADD, LIT_A_EXCH, LIT_A_CAS, LIT_A_INC, LIT_A_DEC, LIT_A_AND, LIT_A_OR, LIT_A_XOR,
    LIT_A_MIN, LIT_A_MAX,
} lit_aop;
typedef enum lit_cmp { LIT_EQ, LIT_NE, LIT_LT, LIT_LE, LIT_GT, LIT_GE } lit_cmp;

typedef enum lit_space { LIT_SP_GENERIC, LIT_SP_GLOBAL, LIT_SP_SHARED } lit_space;
/* Cache operators of ld/st, plus .volatile. */
typedef enum lit_cop { LIT_COP_NONE, LIT_COP_CA, LIT_COP_CG, LIT_COP_CS, LIT_COP_CV,
                       LIT_COP_LU, LIT_COP_WB, LIT_COP_WT, LIT_COP_VOLATILE } lit_cop;
/* Memory-model semantics (PTX ISA 6.0+): NONE is a "weak" access. */
typedef enum lit_sem { LIT_SEM_NONE, LIT_SEM_RELAXED, LIT_SEM_ACQUIRE, LIT_SEM_RELEASE,
                       LIT_SEM_ACQ_REL, LIT_SEM_SC } lit_sem;
/* Scopes: membar.cta / .gl / .sys map to CTA / GPU / SYS. */
typedef enum lit_scope { LIT_SCOPE_NONE, LIT_SCOPE_CTA, LIT_SCOPE_GPU, LIT_SCOPE_SYS } lit_scope;

typedef enum lit_okind { LIT_O_NONE, LIT_O_REG, LIT_O_IMM, LIT_O_LOC } lit_okind;
typedef struct lit_operand {
    lit_okind kind;
    int reg;       /* LIT_O_REG: index into the thread's regs[] */
    int loc;       /* LIT_O_LOC: location index (its address) */
    int64_t imm;   /* LIT_O_IMM; for an address operand, the byte offset added */
} lit_operand;

typedef struct lit_insn {
    lit_op op;
    int sub;            /* lit_alu, lit_aop or lit_cmp */
    lit_rtype type;     /* the instruction's type (.s32, .u64, .b32...) */
    lit_space space;
    lit_cop cop;
    lit_sem sem;
    lit_scope scope;
    int membar;         /* LIT_FENCE: 1 for membar.*, 0 for fence.* */
    int guard;          /* -1: unguarded; else predicate register index */
    int guard_neg;      /* @!p */
    lit_operand dst;    /* a register (LD, ATOM, MOV, ALU, SETP) */
    lit_operand addr;   /* LD/ST/ATOM/RED: a register or location, offset in imm */
    lit_operand src[2]; /* ST value; ATOM/RED operands (CAS: compare, new) */
    int target;         /* LIT_BRA: index of the LIT_LABEL insn */
    char label[LIT_MAX_NAME]; /* LIT_LABEL/LIT_BRA: the label's name */
    int line, col;      /* where it was written */
} lit_insn;

typedef struct lit_thread {
    char name[LIT_MAX_NAME]; /* "T0" or "P0" */
    int cta;                 /* placement from the scope tree: CTA group (0-based) */
    int warp;                /* warp group, unique over the whole test */
    int nregs;
    lit_reg regs[LIT_MAX_REGS];
    int ninsns;
    lit_insn code[LIT_MAX_INSNS];
} lit_thread;

typedef struct lit_loc {
    char name[LIT_MAX_NAME];
    lit_region region;
    int64_t init;
    lit_rtype type;          /* width of its accesses (default .s32) */
} lit_loc;

/* Final-state items and the condition ------------------------------------ */

typedef struct lit_item {
    int thread;   /* -1: a location */
    int index;    /* register index in that thread, or location index */
} lit_item;

typedef enum lit_ekind { LIT_E_TRUE, LIT_E_FALSE, LIT_E_EQ, LIT_E_NOT, LIT_E_AND, LIT_E_OR } lit_ekind;
typedef struct lit_expr {
    lit_ekind kind;
    lit_item item;   /* LIT_E_EQ: item = value */
    int64_t value;
    int value_loc;   /* LIT_E_EQ: >= 0 if the value was written as a location
                      * name (then value = lit_loc_addr(value_loc)) */
    int a, b;        /* children: indices into lit_test.exprs (NOT: a only) */
} lit_expr;

typedef enum lit_quant { LIT_EXISTS, LIT_NOT_EXISTS, LIT_FORALL } lit_quant;

#define LIT_MAX_EXPRS 128
#define LIT_MAX_OBSERVED 48

typedef struct lit_test {
    char name[64];
    lit_format format;
    char filename[256];
    int nthreads;
    lit_thread threads[LIT_MAX_THREADS];
    int nlocs;
    lit_loc locs[LIT_MAX_LOCS];
    int nctas;               /* CTA groups in the scope tree */
    int nwarps;              /* warp groups */
    lit_quant quant;
    int cond;                /* root index into exprs */
    int nexprs;
    lit_expr exprs[LIT_MAX_EXPRS];
    /* What a final state shows, in order: the "locations [...]" clause, then
     * every item the condition names (each once). */
    int nobserved;
    lit_item observed[LIT_MAX_OBSERVED];
} lit_test;

/* Parsing (parse.c) ------------------------------------------------------- */

/* Parse one test from text.  Detects the format from its first word
 * ("GPU_PTX": thesis or herd, told apart by T/P thread names; "PTX": the
 * scoped syntax).  Returns 0, or -1 with every error as
 * "file:line:col: error: ..." lines in err.  Never crashes or hangs on any
 * input. */
int lit_parse(const char *text, size_t len, const char *filename, lit_test *out, strbuf *err);
int lit_parse_file(const char *path, lit_test *out, strbuf *err);

/* Print the test in its own format, so that parse(print(t)) == t. */
void lit_print(strbuf *sb, const lit_test *t);

/* The condition's formula (without its quantifier), as lit_print writes it. */
void lit_cond_print(strbuf *sb, const lit_test *t);

/* Name of an item: "1:r0" or "x". */
void lit_item_name(strbuf *sb, const lit_test *t, lit_item it);
/* The type of a final-state item: its register's or its location's. */
lit_rtype lit_item_type(const lit_test *t, lit_item it);
/* Does a value of this type print as unsigned (u64, b64: past 2^63)? */
#define LIT_PRINTS_UNSIGNED(ty) ((ty) == LIT_U64 || (ty) == LIT_B64)

/* Evaluate the condition's formula (without its quantifier) on a final
 * state: vals[i] is the value of observed[i], with location addresses in
 * their symbolic form lit_loc_addr(k) (the harness maps real addresses back
 * before it asks). */
int lit_cond_eval(const lit_test *t, const int64_t *vals);

/* Truncate/extend v to the width and signedness of type. */
int64_t lit_norm(lit_rtype type, int64_t v);

/* Type inference shared by the parser and the printer (litmus.c).  The type
 * an undeclared register gets: that of the first instruction writing it
 * (.pred for a setp destination), else of its first read (.pred as a guard,
 * .b64 as an address), else .b64 if initialised to a location, else .s32. */
lit_rtype lit_reg_infer_type(const lit_thread *th, int r);
/* The type of the first access (ld/st/atom/red, threads in order) to
 * location k, directly or through a register initialised to its address:
 * 1 with *type set, or 0 if nothing accesses it. */
int lit_loc_access_type(const lit_test *t, int k, lit_rtype *type);

/* SC exploration (sc.c) -------------------------------------------------- */

/* Every final state an interleaving of the threads' instructions can reach
 * (each instruction atomic, program order kept), as observed[] vectors.
 * Exhaustive with state hashing, so loops terminate when their states repeat.
 * Returns the number of distinct outcomes (>= 0); -1 with a message in err
 * when the search is too large (state space over max_states, host out of
 * memory); -2 when the test itself is wrong (an access to an address that is
 * no location, with file:line:col; a malformed lit_test). */
typedef struct lit_outcomes {
    int n, cap;
    int width;         /* = nobserved */
    int64_t *vals;     /* n * width, sorted lexicographically */
} lit_outcomes;

int lit_sc_outcomes(const lit_test *t, uint64_t max_states, lit_outcomes *out, strbuf *err);
void lit_outcomes_free(lit_outcomes *o);
/* Is this observed vector among the outcomes? (binary search) */
int lit_outcomes_has(const lit_outcomes *o, const int64_t *vals);

#endif
