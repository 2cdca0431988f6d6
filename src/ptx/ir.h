/*
 * ir.h -- lockstep's decoded form of PTX: what every PTX instruction
 * becomes once, at module load, so execution never looks at text again.
 *
 * A module's code is one array of ir_insn; a function is a range of it and
 * a program counter is an index into it.  Each record is fixed-size:
 *
 *   +--------+--------+------+------+-----+------+-------+-----+-----+-----+
 *   | op 16  | xop 16 | type | type2| rnd | mode | bop   |space| vec |ndst |
 *   +--------+--------+------+------+-----+------+-------+-----+-----+-----+
 *   | nsrc | sem | scope | cache | amode | mix | flags 32 | guard (ir_opnd) |
 *   +------------------------------------------------------------------------+
 *   | d[4]: destinations   | s[4]: sources  | addr: address base register    |
 *   +------------------------------------------------------------------------+
 *   | imm 64: address offset / extra immediate | target | reconv | aux       |
 *   +------------------------------------------------------------------------+
 *
 * Operands (ir_opnd) are resolved: a register row index in the function's
 * register window, a predicate index, a row of the module's constant pool
 * (an immediate replicated over the 32 lanes so that every source operand
 * is read the same way), a special register, or a symbol whose address is
 * only known per launch (shared variables) or per call (frame locals).
 *
 * `op` is the PTX base opcode and the fields beside it its decoded
 * modifiers; `xop` is chosen by the interpreter (exec_prepare) as the
 * specialised handler for this exact form.  Timing models read op, type,
 * space and the operands; nothing here depends on the execution mode.
 */
#ifndef LOCKSTEP_PTX_IR_H
#define LOCKSTEP_PTX_IR_H

#include <stdint.h>

#include "ptx/optable.h"
#include "ptx/types.h"

/* The opcodes and everything known about each: optable.h. */
extern const char *const ptx_op_names[OP_COUNT];

/* Instruction-mix classes: what a warp instruction does, for statistics
 * (and the order of lockstep_mix in lockstep.h, which must match).
 * Arithmetic is classed by its type (f64 -> FP64, f16/bf16 -> FP16, other
 * floats -> FP32, the rest INT; mov is INT whatever its type); memory
 * operations by state space.  A generic access is classed when it runs, by
 * the space of its first active lane's address. */
#define IR_MIXES(X)                                                          \
    X(INT,       "int")       /* integer and logic, mov, cvt between ints */ \
    X(FP32,      "fp32")                                                     \
    X(FP64,      "fp64")                                                     \
    X(FP16,      "fp16")      /* f16, bf16 and their x2 forms */             \
    X(SFU,       "sfu")       /* f32 rcp sqrt rsqrt sin cos lg2 ex2 tanh */  \
    X(LD_GLOBAL, "ld_global") /* and cp.async's copies */                     \
    X(ST_GLOBAL, "st_global")                                                \
    X(LD_SHARED, "ld_shared")                                                \
    X(ST_SHARED, "st_shared")                                                \
    X(LD_LOCAL,  "ld_local")                                                 \
    X(ST_LOCAL,  "st_local")                                                 \
    X(LD_CONST,  "ld_const")                                                 \
    X(LD_PARAM,  "ld_param")  /* kernel and function parameters */           \
    X(ST_PARAM,  "st_param")  /* call arguments */                           \
    X(ATOM_GLOBAL, "atom_global") /* atom and red */                         \
    X(ATOM_SHARED, "atom_shared")                                            \
    X(BRANCH,    "branch")                                                   \
    X(CALL,      "call")      /* call, ret from a function */                \
    X(BARRIER,   "barrier")   /* bar, barrier, mbarrier, cp.async groups */  \
    X(WARP,      "warp")      /* shfl, vote, match, redux, activemask */     \
    X(FENCE,     "fence")     /* membar, fence */                            \
    X(OTHER,     "other")     /* exit, a kernel's ret, trap, nanosleep, ... */

typedef enum ir_mix {
#define X(e, s) MIX_##e,
    IR_MIXES(X)
#undef X
    MIX_COUNT
} ir_mix;

extern const char *const ir_mix_names[MIX_COUNT];

/* Operand kinds. */
typedef enum ir_opnd_kind {
    IRO_NONE = 0,
    IRO_REG,    /* idx: register row in the function's window */
    IRO_PRED,   /* idx: predicate register; neg: '!' */
    IRO_CONST,  /* idx: row of the module constant pool */
    IRO_SREG,   /* idx: ir_sreg */
    IRO_SHSYM,  /* idx: ir_shref; value = the variable's offset in this launch's layout + off */
    IRO_FRAME,  /* idx: offset in the current frame; value = local address frame_base + idx */
    IRO_IMM     /* never loaded: an immediate held by a replacement instruction rather than
                 * the module's pool (exec.h, exec_subst: a corrupted instruction buffer) */
} ir_opnd_kind;

typedef struct ir_opnd {
    uint32_t idx;
    uint8_t kind;
    uint8_t neg;
    uint16_t aux;
} ir_opnd;

/* Special registers; the component (x/y/z) is folded into the id. */
#define IR_SREGS(X)                                                                         \
    X(TID_X, "%tid.x") X(TID_Y, "%tid.y") X(TID_Z, "%tid.z")                 \
    X(NTID_X, "%ntid.x") X(NTID_Y, "%ntid.y") X(NTID_Z, "%ntid.z")           \
    X(CTAID_X, "%ctaid.x") X(CTAID_Y, "%ctaid.y") X(CTAID_Z, "%ctaid.z")     \
    X(NCTAID_X, "%nctaid.x") X(NCTAID_Y, "%nctaid.y") X(NCTAID_Z, "%nctaid.z") \
    X(LANEID, "%laneid") X(WARPID, "%warpid") X(NWARPID, "%nwarpid")         \
    X(SMID, "%smid") X(NSMID, "%nsmid") X(GRIDID, "%gridid")                 \
    X(LANEMASK_EQ, "%lanemask_eq") X(LANEMASK_LE, "%lanemask_le")            \
    X(LANEMASK_LT, "%lanemask_lt") X(LANEMASK_GE, "%lanemask_ge")            \
    X(LANEMASK_GT, "%lanemask_gt")                                           \
    X(CLOCK, "%clock") X(CLOCK_HI, "%clock_hi") X(CLOCK64, "%clock64")       \
    X(GLOBALTIMER, "%globaltimer") X(GLOBALTIMER_LO, "%globaltimer_lo")      \
    X(GLOBALTIMER_HI, "%globaltimer_hi")                                     \
    X(TOTAL_SMEM, "%total_smem_size") X(DYNAMIC_SMEM, "%dynamic_smem_size")  \
    X(ENVREG, "%envreg") X(PM, "%pm")                                        \
    X(RSMEM_BEGIN, "%reserved_smem_offset_begin")                            \
    X(RSMEM_END, "%reserved_smem_offset_end")                                \
    X(RSMEM_CAP, "%reserved_smem_offset_cap")                                \
    X(RSMEM_0, "%reserved_smem_offset_0") X(RSMEM_1, "%reserved_smem_offset_1")

typedef enum ir_sreg {
#define X(e, s) SREG_##e,
    IR_SREGS(X)
#undef X
    SREG_COUNT
} ir_sreg;
#define IR_SREG_IS_RSMEM(id) ((id) >= SREG_RSMEM_BEGIN && (id) <= SREG_RSMEM_1)

/*
 * The shared memory the %reserved_smem_offset_* registers describe (the PTX
 * ISA's region "reserved for NVIDIA system software", which cooperative
 * groups' multi-warp tiles use as scratch on sm_80 and later: they need at
 * least 288 bytes at %reserved_smem_offset_1).  lockstep gives a kernel that
 * reads one of them (itself or through a function it can call) a region of
 * IR_RSMEM_BYTES at the end of its static shared memory, 16-aligned, before
 * the dynamic part: CTA-private, zero at the CTA's start like the rest of its
 * shared memory, overlapping no variable.  It counts as the kernel's static
 * shared memory (lockstep reports no per-block reservation).  The region's
 * two halves are %reserved_smem_offset_0 and _1.
 */
#define IR_RSMEM_BYTES 1024u
extern const char *const ir_sreg_names[SREG_COUNT];

/* Comparison operators (setp, set, slct). */
typedef enum ir_cmp {
    CMP_EQ, CMP_NE, CMP_LT, CMP_LE, CMP_GT, CMP_GE, /* signed/ordered */
    CMP_LO, CMP_LS, CMP_HI, CMP_HS,                 /* unsigned */
    CMP_EQU, CMP_NEU, CMP_LTU, CMP_LEU, CMP_GTU, CMP_GEU, CMP_NUM, CMP_NAN /* float */
} ir_cmp;

typedef enum ir_boolop { BOP_NONE, BOP_AND, BOP_OR, BOP_XOR, BOP_POPC } ir_boolop;

typedef enum ir_atomop {
    ATOM_ADD, ATOM_MIN, ATOM_MAX, ATOM_INC, ATOM_DEC, ATOM_EXCH, ATOM_CAS,
    ATOM_AND, ATOM_OR, ATOM_XOR
} ir_atomop;

typedef enum ir_shflmode { SHFL_UP, SHFL_DOWN, SHFL_BFLY, SHFL_IDX } ir_shflmode;
typedef enum ir_votemode { VOTE_ALL, VOTE_ANY, VOTE_UNI, VOTE_BALLOT } ir_votemode;
typedef enum ir_prmtmode { PRMT_DEFAULT, PRMT_F4E, PRMT_B4E, PRMT_RC8, PRMT_ECL, PRMT_ECR, PRMT_RC16 } ir_prmtmode;
typedef enum ir_barmode { BARM_SYNC, BARM_ARRIVE, BARM_RED, BARM_WARPSYNC } ir_barmode;
typedef enum ir_matchmode { MATCH_ANY, MATCH_ALL } ir_matchmode;

/* Texture and surface instructions (tex, tld4, txq, suld, sust, suq):
 * mode is the geometry (ir_texgeom) or, for txq and suq, the query
 * (ir_texquery); type the result (tex, tld4: u32/s32/f32) or element type
 * (suld, sust: u8..u64); type2 the coordinates' type (s32/f32); addr the
 * register holding the texture object; s[0..nsrc-1] the coordinates, the
 * layer first for the array geometries; d[] the destinations, or for sust
 * the values stored (IRF_DSRC); bop the surface clamp mode (ir_surfclamp)
 * or tld4's channel (0..3). */
typedef enum ir_texgeom {
    TEXG_NONE, TEXG_1D, TEXG_2D, TEXG_3D, TEXG_A1D, TEXG_A2D, TEXG_CUBE, TEXG_ACUBE,
    TEXG_2DMS, TEXG_A2DMS
} ir_texgeom;
typedef enum ir_texquery {
    TXQ_NONE, TXQ_WIDTH, TXQ_HEIGHT, TXQ_DEPTH, TXQ_CHANNEL_DATA_TYPE, TXQ_CHANNEL_ORDER,
    TXQ_NORMALIZED_COORDS, TXQ_FILTER_MODE, TXQ_ADDR_MODE_0, TXQ_ADDR_MODE_1, TXQ_ADDR_MODE_2,
    TXQ_ARRAY_SIZE, TXQ_NUM_MIPMAP_LEVELS, TXQ_NUM_SAMPLES, TXQ_MEMORY_LAYOUT
} ir_texquery;
typedef enum ir_surfclamp { SURF_TRAP, SURF_CLAMP, SURF_ZERO } ir_surfclamp;

/* Warp matrix operations.
 *
 * wmma fragments have lockstep's own layout (PTX leaves it to the
 * implementation): lane l holds P = (elements of the matrix) / 32 elements,
 * numbers l*P .. l*P+P-1 of the matrix taken in its memory order, so every
 * lane's share of a load is one contiguous access.  For A and B the order
 * is that of the layout the fragment is loaded with (.row: row by row, .col:
 * column by column); for C and D it is always row by row, whatever layout
 * memory has (a column-major C is one access per element).  Elements are
 * packed into registers low to high: two per register for f16 and bf16, four
 * for s8 and u8, one for tf32, f32, s32 and f64.  An f16 A or B fragment has
 * 8 registers in PTX whatever the shape; its data is in the first P/2, and
 * loads repeat it in the others.
 *
 * mma.sync fragments are those the PTX ISA defines ("Matrix Fragments for
 * mma.m16n8k16" and the others), which programs build by hand; ldmatrix
 * and movmatrix fill and transpose them.
 *
 * wmma.load, wmma.store and ldmatrix become ld/st parts (IRF_WMMA) whose
 * lanes' addresses exec_wmma_addr() computes: from the base and the stride
 * (s[0], in elements) for wmma, from other lanes' row addresses for
 * ldmatrix.  A part's target says how (WMP_*):
 *   bits 0-7    byte offset in the lane's chunk (WMP_LINE), element j of the
 *               lane's row (WMP_CCOL) or the matrix (WMP_LDM, WMP_LDMT)
 *   bits 8-9    the kind
 *   bits 10-12  log2 P (elements per lane)
 *   bits 13-16  log2 of the line length (A/B: the layout's line; C: N)
 *   bits 17-18  log2 of the element size in bytes
 *   bit 19      a 16-bit part that fills the high half of its register
 * A 16-bit part (type u16: a column-major f16 C, ldmatrix .trans) writes
 * one half of its register and keeps the other, or stores one half. */
enum { WMP_LINE, WMP_CCOL, WMP_LDM, WMP_LDMT };
#define WMP_MAKE(kind, idx, lp, le, les, hi)                                                  \
    ((uint32_t)(idx) | (uint32_t)(kind) << 8 | (uint32_t)(lp) << 10 | (uint32_t)(le) << 13 |  \
     (uint32_t)(les) << 17 | (uint32_t)(hi) << 19)
#define WMP_IDX(t) ((t) & 0xffu)
#define WMP_KIND(t) (((t) >> 8) & 3u)
#define WMP_LP(t) (((t) >> 10) & 7u)
#define WMP_LE(t) (((t) >> 13) & 15u)
#define WMP_LES(t) (((t) >> 17) & 3u)
#define WMP_HI(t) (((t) >> 19) & 1u)

/* A matrix multiply-accumulate (wmma.mma or mma): D = A x B + C. */
enum { MMA_WMMA, MMA_SYNC };
typedef struct ir_mma {
    uint8_t form;                 /* MMA_WMMA (lockstep's fragments) or MMA_SYNC (PTX's) */
    uint8_t m, n, k;              /* the shape */
    uint8_t atype, btype, ctype, dtype; /* ptx_type: A's and B's elements, C, D */
    uint8_t acol, bcol;           /* A, B column-major */
    uint8_t satfinite;
    uint8_t rnd;                  /* fp_rnd of an f64 multiply-add */
    uint8_t na, nb, nc, nd;       /* registers of A, B, C, D the operation reads or writes */
    uint32_t a[8], b[8], c[8], d[8];
} ir_mma;
/* Whether op is a matrix multiply-accumulate (its operands in ir_module.mmas). */
#define IR_IS_MMA(op) ((op) == OP_WMMA || (op) == OP_MMA)

/*
 * Asynchronous copies and mbarrier objects (cp, mbarrier; exec/async.c).
 * mode is the operation (ir_asyncop), bop its modifiers (IRA_*).  Operands:
 *
 *   mbarrier.init        addr: the object; s[0] the count
 *   mbarrier.inval       addr
 *   mbarrier.arrive      d[0] the state (a sink for '_'), addr, s[0] the count
 *   .arrive_drop         (IRF_HAS_C; 1 without)
 *   mbarrier.test_wait   d[0] waitComplete (a predicate), addr, s[0] the
 *   .try_wait            state, or with IRA_PARITY the phase parity; s[1]
 *                        try_wait's suspend-time hint (IRF_HAS_C; a hint
 *                        lockstep does not need: try_wait answers at once)
 *   mbarrier.pending_count  d[0], s[0] the state (no memory access)
 *   cp.async.ca/.cg      addr: the source (.global); type B32, B64 or B128 for
 *                        cp-size 4, 8 or 16; cache CACHE_CA or CACHE_CG; s[0]
 *                        the destination's base (a register, a shared
 *                        variable or a constant) and `target` a constant
 *                        added to it (the destination is a 32-bit .shared
 *                        offset); s[1] src-size (IRA_SRC_SIZE) or ignore-src
 *                        (IRA_IGNORE_SRC, a predicate)
 *   cp.async.commit_group, .wait_all   no operands
 *   cp.async.wait_group  imm: N
 *   cp.async.mbarrier.arrive  addr: the mbarrier (IRA_NOINC)
 *
 * An mbarrier's address is in addr, imm, amode and aux as any memory
 * operand's, with space SP_SHARED or SP_GENERIC.
 */
typedef enum ir_asyncop {
    MBAR_INIT, MBAR_INVAL, MBAR_ARRIVE, MBAR_ARRIVE_DROP, MBAR_TEST_WAIT, MBAR_TRY_WAIT,
    MBAR_PENDING_COUNT,
    CPA_COPY, CPA_COMMIT, CPA_WAIT_GROUP, CPA_WAIT_ALL, CPA_MBAR_ARRIVE,
    ASYNC_OP_COUNT
} ir_asyncop;
enum {
    IRA_PARITY = 1u << 0,     /* test_wait, try_wait: s[0] is a phase parity */
    IRA_NOCOMPLETE = 1u << 1, /* arrive.noComplete: must not complete the phase */
    IRA_NOINC = 1u << 3,      /* cp.async.mbarrier.arrive.noinc */
    IRA_SRC_SIZE = 1u << 4,   /* cp.async: s[1] is src-size */
    IRA_IGNORE_SRC = 1u << 5  /* cp.async: s[1] is ignore-src */
};

/* Memory semantics and scope (kept for timing models and litmus). */
typedef enum ir_sem { SEM_NONE, SEM_WEAK, SEM_VOLATILE, SEM_RELAXED, SEM_ACQUIRE, SEM_RELEASE, SEM_ACQ_REL, SEM_SC } ir_sem;
typedef enum ir_scope { SCOPE_NONE, SCOPE_CTA, SCOPE_CLUSTER, SCOPE_GPU, SCOPE_SYS } ir_scope;
typedef enum ir_cache { CACHE_NONE, CACHE_CA, CACHE_CG, CACHE_CS, CACHE_LU, CACHE_CV, CACHE_WB, CACHE_WT, CACHE_NC } ir_cache;

/* Address modes: how the effective address of a memory operand is formed
 * from the base register (addr, optional) and imm. */
typedef enum ir_amode {
    AM_ABS,   /* [reg] + imm, or imm alone */
    AM_FRAME, /* frame_base + [reg] + imm (function locals and parameters) */
    AM_SHSYM  /* shref value (aux: ir_shref index) + [reg] + imm */
} ir_amode;

/* Flags. */
enum {
    IRF_FTZ = 1u << 0,
    IRF_SAT = 1u << 1,
    IRF_APPROX = 1u << 2,
    IRF_FULL = 1u << 3,
    IRF_CC = 1u << 4,      /* writes the carry flag (.cc) */
    IRF_CI = 1u << 5,      /* reads the carry flag (addc, subc, madc) */
    IRF_HI = 1u << 6,
    IRF_LO = 1u << 7,
    IRF_WIDE = 1u << 8,
    IRF_SHIFTAMT = 1u << 9,
    IRF_CLAMP = 1u << 10,  /* shf/bmsk/szext .clamp (else .wrap) */
    IRF_NAN = 1u << 11,
    IRF_IRND = 1u << 12,   /* cvt rounds to an integral value (.rni ...) */
    IRF_UNI = 1u << 13,
    IRF_VOLATILE = 1u << 14,
    IRF_SYNC = 1u << 15,   /* the .sync form of a warp intrinsic */
    IRF_XORSIGN_ABS = 1u << 16,
    IRF_RELU = 1u << 17,
    IRF_LEFT = 1u << 18,   /* shf.l */
    IRF_TO = 1u << 19,     /* cvta.to */
    IRF_PACK = 1u << 20,   /* mov d, {a, b, ...} */
    IRF_UNPACK = 1u << 21, /* mov {a, b, ...}, s */
    IRF_HAS_C = 1u << 22,  /* optional operand present (setp's c, bar's b, ...) */
    IRF_ALIGNED = 1u << 23,
    IRF_BUILTIN = 1u << 24,/* call of a built-in (vprintf, malloc, ...) */
    IRF_INDIRECT = 1u << 25,/* call through a register */
    IRF_IMPLICIT = 1u << 26,/* added by lockstep (the ret/exit closing a body) */
    IRF_ACCUM = 1u << 27,   /* video SIMD .add: accumulate the lanes into c */
    IRF_FPARAM = 1u << 28,  /* a function's .param access, lowered to its local frame */
    IRF_DSRC = 1u << 29,    /* d[] are read, not written (sust's values, wmma.store's) */
    IRF_WMMA = 1u << 30     /* a part of wmma.load/store or ldmatrix: lane addresses (WMP_*) */
};

#define IR_NO_PC 0xffffffffu

typedef struct ir_insn {
    uint16_t op;     /* ptx_op */
    uint16_t xop;    /* interpreter's handler, set by exec_prepare */
    uint8_t type;    /* operation type (destination type for cvt, set) */
    uint8_t type2;   /* cvt/set/slct source type; mul.wide's result type */
    uint8_t rnd;     /* fp_rnd */
    uint8_t mode;    /* ir_cmp, ir_atomop, ir_shflmode, ir_votemode, ir_prmtmode, fp_test, ir_barmode, ir_matchmode, ir_asyncop */
    uint8_t bop;     /* ir_boolop of setp/set/bar.red/redux; IRA_* of cp and mbarrier */
    uint8_t space;   /* ptx_space of memory operations and cvta/isspacep */
    uint8_t vec;     /* vector width of ld/st, element count of pack/unpack */
    uint8_t ndst;
    uint8_t nsrc;
    uint8_t sem;     /* ir_sem */
    uint8_t scope;   /* ir_scope */
    uint8_t cache;   /* ir_cache */
    uint8_t amode;   /* ir_amode */
    uint8_t mix;     /* ir_mix, set by ir_classify */
    uint32_t flags;
    ir_opnd guard;   /* IRO_PRED or IRO_NONE */
    ir_opnd d[4];
    ir_opnd s[4];
    ir_opnd addr;    /* base register of the address, or IRO_NONE */
    int64_t imm;     /* address offset; lop3 immLut; vop4 asel | bsel << 16 | mask << 32 */
    uint32_t target; /* bra: target pc; call: callee function; builtin id; cp: offset */
    uint32_t reconv; /* bra: reconvergence pc (immediate post-dominator) */
    uint32_t aux;    /* call: call-site index; AM_SHSYM: ir_shref index */
} ir_insn;

_Static_assert(sizeof(ir_insn) == 128, "ir_insn layout changed: update the picture above");

/* Where an instruction came from. */
typedef struct ir_srcpos {
    uint32_t ptx_line;
    uint32_t ptx_col;
    uint32_t src_line;  /* CUDA source line from .loc, 0 if none */
    uint16_t src_file;  /* index into ir_module.files + 1, 0 if none */
    uint16_t ptx_file;  /* linked modules: index into ir_module.ptx_files + 1; 0: filename */
} ir_srcpos;

typedef struct ir_param {
    const char *name;
    uint32_t offset;    /* kernel: in the parameter buffer; func: in the frame */
    uint32_t size;
    uint32_t align;
} ir_param;

/*
 * Built-in functions a call can reach: declared .extern .func in PTX,
 * defined by no text, provided by lockstep.  X(id, name, params, ret):
 * lockstep's own (printf, the device heap, assert: params NULL, any
 * shape), then CUDA's device runtime (cudadevrt: dynamic parallelism,
 * exec/devrt.c), whose declarations must have the shape CUDA gives them:
 * params one character per parameter, its bytes ('4', '8', 'd' for a
 * 12-byte dim3), ret the result's bytes.  A device-runtime function also
 * answers to the names nvcc 12 and later call, __cudaCDP2NAME without
 * "cuda" (__cudaCDP2LaunchDeviceV2), and to NAME_ptsz (the per-thread
 * default stream).  cudaGraphSetConditional, which a kernel of a CUDA
 * graph calls to set a conditional node's value, is one of them too: nvcc
 * emits it as a call of this extern function, with or without -rdc.
 * BI_DR_MISSING is any other device-runtime function
 * (ir_devrt_name): it loads, and its call stops the kernel with a message
 * naming it.
 */
#define IR_BUILTINS(X)                                                                     \
    X(BI_VPRINTF, "vprintf", NULL, 0)                                                      \
    X(BI_MALLOC, "malloc", NULL, 0)                                                        \
    X(BI_FREE, "free", NULL, 0)                                                            \
    X(BI_ASSERTFAIL, "__assertfail", NULL, 0)                                              \
    X(BI_DR_GET_PARAMETER_BUFFER, "cudaGetParameterBuffer", "88", 8)                       \
    X(BI_DR_GET_PARAMETER_BUFFER_V2, "cudaGetParameterBufferV2", "8dd4", 8)                \
    X(BI_DR_LAUNCH_DEVICE, "cudaLaunchDevice", "88dd48", 4)                                \
    X(BI_DR_LAUNCH_DEVICE_V2, "cudaLaunchDeviceV2", "88", 4)                               \
    X(BI_DR_GET_LAST_ERROR, "cudaGetLastError", "", 4)                                     \
    X(BI_DR_PEEK_AT_LAST_ERROR, "cudaPeekAtLastError", "", 4)                              \
    X(BI_DR_GET_ERROR_STRING, "cudaGetErrorString", "4", 8)                                \
    X(BI_DR_GET_ERROR_NAME, "cudaGetErrorName", "4", 8)                                    \
    X(BI_DR_GET_DEVICE, "cudaGetDevice", "8", 4)                                           \
    X(BI_DR_GET_DEVICE_COUNT, "cudaGetDeviceCount", "8", 4)                                \
    X(BI_DR_DEVICE_GET_ATTRIBUTE, "cudaDeviceGetAttribute", "844", 4)                      \
    X(BI_DR_DEVICE_GET_LIMIT, "cudaDeviceGetLimit", "84", 4)                               \
    X(BI_DR_DEVICE_GET_CACHE_CONFIG, "cudaDeviceGetCacheConfig", "8", 4)                   \
    X(BI_DR_DEVICE_GET_SHARED_MEM_CONFIG, "cudaDeviceGetSharedMemConfig", "8", 4)          \
    X(BI_DR_RUNTIME_GET_VERSION, "cudaRuntimeGetVersion", "8", 4)                          \
    X(BI_DR_STREAM_CREATE_WITH_FLAGS, "cudaStreamCreateWithFlags", "84", 4)                \
    X(BI_DR_STREAM_DESTROY, "cudaStreamDestroy", "8", 4)                                   \
    X(BI_DR_STREAM_WAIT_EVENT, "cudaStreamWaitEvent", "884", 4)                            \
    X(BI_DR_EVENT_CREATE_WITH_FLAGS, "cudaEventCreateWithFlags", "84", 4)                  \
    X(BI_DR_EVENT_RECORD, "cudaEventRecord", "88", 4)                                      \
    X(BI_DR_EVENT_DESTROY, "cudaEventDestroy", "8", 4)                                     \
    X(BI_DR_MALLOC, "cudaMalloc", "88", 4)                                                 \
    X(BI_DR_FREE, "cudaFree", "8", 4)                                                      \
    X(BI_DR_MEMCPY_ASYNC, "cudaMemcpyAsync", "88848", 4)                                   \
    X(BI_DR_MEMCPY_2D_ASYNC, "cudaMemcpy2DAsync", "88888848", 4)                           \
    X(BI_DR_MEMSET_ASYNC, "cudaMemsetAsync", "8488", 4)                                    \
    X(BI_DR_MEMSET_2D_ASYNC, "cudaMemset2DAsync", "884888", 4)                             \
    X(BI_DR_FUNC_GET_ATTRIBUTES, "cudaFuncGetAttributes", "88", 4)                         \
    X(BI_DR_OCCUPANCY, "cudaOccupancyMaxActiveBlocksPerMultiprocessor", "8848", 4)         \
    X(BI_DR_OCCUPANCY_FLAGS, "cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags",     \
      "88484", 4)                                                                          \
    X(BI_DR_GRAPH_SET_CONDITIONAL, "cudaGraphSetConditional", "84", 0)                     \
    X(BI_DR_MISSING, "", "", 0)

typedef enum ir_builtin {
#define X(id, name, params, ret) id,
    IR_BUILTINS(X)
#undef X
    BI_COUNT
} ir_builtin;
#define BI_FIRST_DEVRT BI_DR_GET_PARAMETER_BUFFER
/* Their PTX names, by ir_builtin. */
extern const char *const ir_builtin_names[BI_COUNT];
/* Their parameters and result as X's params and ret (NULL: not checked). */
extern const char *const ir_builtin_params[BI_COUNT];
extern const uint8_t ir_builtin_ret[BI_COUNT];
/* The built-in a body-less function of this name is (the device runtime's
 * other spellings included; BI_DR_MISSING for another device-runtime
 * function), or -1: none. */
int ir_builtin_lookup(const char *name);
/* The name belongs to CUDA's device runtime or the driver functions it
 * calls (cuda..., __cuda..., cnp...): what nvcc's device code and
 * libcudadevrt's declare. */
int ir_devrt_name(const char *name);

typedef struct ir_call {
    uint32_t callee;        /* function index (direct), or builtin id */
    uint32_t decl;          /* built-ins: the function index of the declaration (its name) */
    uint32_t nargs, nrets;
    uint32_t *arg_off;      /* caller-frame offsets of the argument param variables */
    uint32_t *arg_size;
    uint32_t *ret_off;      /* caller-frame offsets of the return param variables */
    uint32_t *ret_size;
    ir_opnd target_reg;     /* indirect calls: register holding the function address */
} ir_call;

typedef struct ir_func {
    const char *name;
    uint8_t is_entry;
    uint8_t has_body;
    uint8_t addr_taken;     /* may be called indirectly */
    uint8_t pad_;
    uint32_t start, end;    /* code range [start, end) */
    uint32_t nregs;         /* register rows (64-bit each) */
    uint32_t npreds;
    uint32_t reg32_count;   /* declared registers in 32-bit units (reporting) */
    uint32_t nparams, nrets;
    ir_param *params;       /* entry: parameter buffer layout; func: frame offsets */
    ir_param *rets;
    uint32_t param_bytes;   /* entry: parameter buffer size */
    uint32_t frame_bytes;   /* func/entry: bytes of its frame in local memory */
    uint32_t local_bytes;   /* the .local variables part of the frame */
    uint32_t maxntid[3], reqntid[3], minnctapersm;
    uint32_t ptx_line;
    uint32_t ptx_file;      /* as ir_srcpos.ptx_file */
    /* Entries only: the launch layout of shared memory. */
    uint32_t *shared_off;   /* per module shared variable; UINT32_MAX if unreachable */
    uint32_t shared_bytes;  /* static shared memory (dynamic shared starts here, aligned) */
    uint32_t dyn_shared_off;/* offset of .extern .shared arrays */
    uint8_t uses_dyn_shared;
    uint32_t rsmem_off;     /* the reserved shared region: its start and size (IR_RSMEM_BYTES, */
    uint32_t rsmem_bytes;   /* or 0: the kernel reads no %reserved_smem_offset_*) */
    uint32_t total_regs;    /* registers of the kernel and everything it can call (32-bit units) */
    uint32_t total_insts;
    uint32_t max_frame_depth_bytes; /* frames of the deepest acyclic call chain, 0 if recursive */
    uint8_t recursive;
    /* The register rows a thread may read before it has written them (and
     * the sources of cross-lane reads): the only rows that must start at
     * zero for a run not to depend on what the rows held before (cfg.c). */
    uint32_t *zero_rows;
    uint32_t nzero_rows;
} ir_func;

/* A shared-variable address operand: variable + constant offset.  Its value
 * depends on the kernel's shared layout, so it is resolved per launch. */
typedef struct ir_shref {
    uint32_t var;
    int64_t off;
} ir_shref;

typedef struct ir_var {
    const char *name;
    uint8_t space;          /* SP_GLOBAL, SP_CONST, SP_SHARED, SP_LOCAL */
    uint8_t is_extern;      /* .extern .shared (dynamic) */
    uint32_t align;
    uint64_t size;
    uint64_t addr;          /* global/const: device address; local: per-thread offset */
    uint8_t *init;          /* global/const with an initializer: its size bytes, as loaded
                             * (a device reset writes them again); else NULL (zeros) */
} ir_var;

typedef struct ir_module {
    const char *filename;
    ir_insn *code;
    ir_srcpos *pos;         /* per instruction */
    uint32_t ncode;
    ir_func *funcs;
    uint32_t nfuncs;
    ir_var *vars;
    uint32_t nvars;
    ir_call *calls;
    uint32_t ncalls;
    ir_shref *shrefs;
    uint32_t nshrefs;
    struct ir_mma *mmas;    /* wmma.mma and mma operands (ir_insn.target, IR_IS_MMA) */
    uint32_t nmmas;
    uint64_t *kpool;        /* constant rows, 32 lanes each */
    uint32_t nkrows;
    const char **files;     /* CUDA source files named by .file */
    uint32_t nfiles;
    const char **ptx_files; /* a linked module's PTX texts (link.c), in the strings arena */
    uint32_t nptx_files;
    uint32_t module_local_bytes; /* module-scope .local variables, per thread */
    uint32_t version_major, version_minor;
    const char *target;
    void *strings;          /* arena holding names (opaque) */
} ir_module;

void ir_module_free(ir_module *m);
/* The PTX text instruction pc / function f came from: a linked module's
 * unit, else the module's file ("<ptx>" when it has no name). */
const char *ir_pc_ptx_file(const ir_module *m, uint32_t pc);
const char *ir_func_ptx_file(const ir_module *m, const ir_func *f);
/* Index of the function holding pc (binary search over the ranges). */
uint32_t ir_func_of_pc(const ir_module *m, uint32_t pc);
/* Set the mix class of every instruction of m (generic accesses get the
 * global class; the interpreter refines them per execution). */
void ir_classify(ir_module *m);
/* The class of a memory operation `in` whose address falls in `space`. */
ir_mix ir_mem_mix(const ir_insn *in, int space);

#endif
