/*
 * optable.h -- the one description of every PTX opcode lockstep runs.
 *
 * Each row of PTX_OPS says everything about an opcode that is not its
 * semantics:
 *
 *   enum     OP_<enum> (ptx_op)
 *   name     its PTX spelling
 *   unit     the functional-unit class (ir_unit); UNIT_FP and UNIT_INT rows
 *            are refined by the instruction's type (f64 runs on the DP
 *            pipelines, other floats on SP, the rest on INT) unless the
 *            row has OPF_INTALU
 *   lat      the latency class (ptx_latcls): which of GPGPU-Sim's
 *            -ptx_opcode_latency_* entries (ADD, MAX, MUL, MAD, DIV) applies
 *   fam      the lowering family (ptx_family): which lower_* function of
 *            src/ptx/lower.c checks its operands and fills the record
 *   mix      its instruction-mix kind (ptx_mixkind): how ir_classify puts
 *            it in one of the statistics' mix classes
 *   cats     the modifier categories it accepts (ptx_modcat)
 *   mflags   the flag modifiers it accepts (MF() of ptx_modflag)
 *   props    what the timing model, the CFG and the seams need to know
 *            (OPF_*: memory, fence, branch, barrier, ...)
 *   sample   one instruction of it, in a kernel that declares %r<8>,
 *            %rd<9>, %f<8>, %fd<8>, %h<4>, %p<4>, a .shared buffer `sh`,
 *            a label `L1` and a function `fn`, with a texture object (a
 *            2-D texture of floats) in %rd4 and a surface object over the
 *            same texels in %rd8 (tests/unit/test_optable.c
 *            loads and runs every sample in both modes: a row whose
 *            opcode has no handler fails there)
 *
 * Everything else is generated from the table: the ptx_op enum, the names,
 * the lowering dispatch (lower.c), the mix classes (ir.c), the timing
 * model's unit and latency facts (src/timing/engine.c) and the property
 * tests of the SM and the CFG.  Adding an opcode is one row here plus its
 * semantics (a lowering family that fits, and a case in the interpreter).
 */
#ifndef LOCKSTEP_PTX_OPTABLE_H
#define LOCKSTEP_PTX_OPTABLE_H

#include <stdint.h>

/* Functional-unit classes, for the timing model and instruction mixes. */
typedef enum ir_unit {
    UNIT_INT,  /* integer ALU (refined by type, see above) */
    UNIT_FP,   /* floating point (refined by type: f64 -> DP) */
    UNIT_SFU,  /* transcendental / special function (f64: DP) */
    UNIT_MEM,  /* load/store unit */
    UNIT_CTRL, /* branches, calls */
    UNIT_SYNC, /* barriers, fences */
    UNIT_WARP, /* warp-wide exchanges (shfl, vote, match, redux): the SP pipeline */
    UNIT_TENSOR, /* matrix multiply-accumulate (wmma.mma, mma): the tensor cores */
    UNIT_NONE
} ir_unit;

/* Latency classes: the five entries of -ptx_opcode_latency_{int,fp,dp}. */
typedef enum ptx_latcls { LAT_ADD, LAT_MAX, LAT_MUL, LAT_MAD, LAT_DIV, LAT_NONE } ptx_latcls;

/* Lowering families: one lower_<family> function each (lower.c). */
typedef enum ptx_family {
    FAM_ARITH, FAM_SFU, FAM_BITS, FAM_CMP, FAM_CVT, FAM_MOV, FAM_CVTA, FAM_MEM, FAM_ATOM,
    FAM_BAR, FAM_WARP, FAM_CALL, FAM_VOP4, FAM_MISC, FAM_TEX, FAM_WMMA, FAM_ASYNC, FAM_COUNT
} ptx_family;

/* Instruction-mix kinds (ir_classify turns them into ir_mix classes). */
typedef enum ptx_mixkind {
    MK_TYPE,    /* arithmetic: by the instruction's type */
    MK_TYPE2,   /* by the comparison type (set, slct) */
    MK_CVT,     /* a conversion: by its wider float side */
    MK_INT,     /* always integer (mov) */
    MK_SFU,     /* special function (f64: fp64) */
    MK_MEM,     /* by operation and state space */
    MK_BRANCH, MK_CALL, MK_BARRIER, MK_WARP, MK_FENCE, MK_OTHER,
    MK_ASYNC    /* cp.async's copies: a global load; its groups and mbarriers: barrier */
} ptx_mixkind;

/* Modifier categories (lower.c's modifier words each belong to some). */
enum ptx_modcat {
    MC_TYPE = 1u << 0,
    MC_RND = 1u << 1,
    MC_IRND = 1u << 2,
    MC_CMP = 1u << 3,
    MC_BOOL = 1u << 4,
    MC_ATOM = 1u << 5,
    MC_SPACE = 1u << 6,
    MC_SEM = 1u << 7,
    MC_SCOPE = 1u << 8,
    MC_CACHE = 1u << 9,
    MC_VEC = 1u << 10,
    MC_SHFL = 1u << 11,
    MC_VOTE = 1u << 12,
    MC_PRMT = 1u << 13,
    MC_TESTP = 1u << 14,
    MC_FLAG = 1u << 15,
    MC_HINT = 1u << 16, /* accepted and ignored: cache eviction hints, prefetch sizes */
    MC_BAR = 1u << 17,
    MC_MATCH = 1u << 18,
    MC_TEX = 1u << 19,  /* geometry, query, clamp mode, tld4 channel, .level/.grad */
    MC_WMMA = 1u << 20, /* wmma, mma, ldmatrix, movmatrix: .load/.store/.mma, .a/.b/.c/.d,
                         * .row/.col, shape, .satfinite, .x1/.x2/.x4, .trans, and the
                         * words of forms lockstep does not run (.sp, sub-byte types) */
    MC_ASYNC = 1u << 21 /* cp.async and mbarrier: the operation (.init, .arrive, .test_wait,
                         * .commit_group, ...), .async, .mbarrier, .parity, .noComplete,
                         * .noinc, and their state spaces (.shared, .shared::cta,
                         * .shared::cluster, .global: a copy names two) */
};
#define MC_ALLT MC_TYPE
#define MC_MEMC (MC_TYPE | MC_SPACE | MC_SEM | MC_SCOPE | MC_CACHE | MC_VEC | MC_HINT)

/* Flag modifiers (MC_FLAG words; values are bit numbers). */
enum ptx_modflag {
    MF_FTZ, MF_SAT, MF_APPROX, MF_FULL, MF_UNI, MF_CC, MF_WIDE, MF_LO, MF_HI, MF_SHIFTAMT,
    MF_CLAMP, MF_WRAP, MF_NAN, MF_SYNC, MF_ALIGNED, MF_L, MF_R, MF_TO, MF_XORSIGN, MF_ABS,
    MF_RELU, MF_NOFTZ, MF_PROXY, MF_WARP, MF_WAIT, MF_LAUNCHDEP, MF_COUNT
};
#define MF(x) (1ull << MF_##x)

/* Properties. */
enum ptx_opprop {
    OPF_LOAD = 1u << 0,     /* reads memory into registers (ld, ldu) */
    OPF_STORE = 1u << 1,    /* writes memory from registers (st) */
    OPF_ATOMIC = 1u << 2,   /* read-modify-write (atom, red) */
    OPF_MEM = 1u << 3,      /* goes through the LD/ST unit */
    OPF_FENCE = 1u << 4,    /* orders memory (membar, fence) */
    OPF_BRANCH = 1u << 5,   /* bra */
    OPF_CALL = 1u << 6,     /* call */
    OPF_RET = 1u << 7,      /* ret */
    OPF_EXIT = 1u << 8,     /* exit: lanes leave */
    OPF_BARRIER = 1u << 9,  /* a CTA barrier (bar, barrier) */
    OPF_WARPX = 1u << 10,   /* exchanges values between the warp's lanes */
    OPF_STOP = 1u << 11,    /* ends the thread abnormally (trap, brkpt) */
    OPF_INTALU = 1u << 12,  /* the integer ALU whatever the type (mov, activemask) */
    OPF_TEX = 1u << 13,     /* a texture or surface instruction (exec_texop) */
    OPF_SAMPLE = 1u << 14,  /* samples a texture: values at issue, timing through the texture cache */
    OPF_ASYNC = 1u << 15,   /* an asynchronous copy or mbarrier operation (exec/async.c) */
};
#define OPF_ENDS (OPF_RET | OPF_EXIT | OPF_STOP) /* no fall-through to the next pc */

/*  enum        name          unit       lat      fam        mix         cats                       mflags                                        props                         sample */
#define PTX_OPS(X)                                                                                                                                                           \
    X(ABS,        "abs",        UNIT_INT,  LAT_ADD, FAM_ARITH, MK_TYPE,    MC_ALLT,                    MF(FTZ) | MF(RELU), 0,                                                  "abs.s32 %r1, %r2;")  \
    X(ACTIVEMASK, "activemask", UNIT_INT,  LAT_ADD, FAM_WARP,  MK_WARP,    MC_ALLT,                    0, OPF_INTALU,                                                          "activemask.b32 %r1;") \
    X(ADD,        "add",        UNIT_INT,  LAT_ADD, FAM_ARITH, MK_TYPE,    MC_ALLT | MC_RND,           MF(FTZ) | MF(SAT) | MF(CC) | MF(RELU), 0,                               "add.s32 %r1, %r2, %r3;") \
    X(ADDC,       "addc",       UNIT_INT,  LAT_ADD, FAM_ARITH, MK_TYPE,    MC_ALLT,                    MF(CC), 0,                                                              "addc.u32 %r1, %r2, %r3;") \
    X(AND,        "and",        UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "and.b32 %r1, %r2, %r3;") \
    X(ATOM,       "atom",       UNIT_MEM,  LAT_NONE,FAM_ATOM,  MK_MEM,     MC_MEMC | MC_ATOM,          MF(NOFTZ), OPF_ATOMIC | OPF_MEM,                                        "atom.shared.add.u32 %r1, [sh], %r2;") \
    X(BAR,        "bar",        UNIT_SYNC, LAT_NONE,FAM_BAR,   MK_BARRIER, MC_BAR | MC_BOOL | MC_SCOPE | MC_TYPE, MF(ALIGNED) | MF(WARP), OPF_BARRIER,                          "bar.sync 0;") \
    X(BARRIER,    "barrier",    UNIT_SYNC, LAT_NONE,FAM_BAR,   MK_BARRIER, MC_BAR | MC_BOOL | MC_SCOPE | MC_TYPE, MF(ALIGNED), OPF_BARRIER,                                     "barrier.sync 0;") \
    X(BFE,        "bfe",        UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "bfe.u32 %r1, %r2, 4, 8;") \
    X(BFI,        "bfi",        UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "bfi.b32 %r1, %r2, %r3, 4, 8;") \
    X(BFIND,      "bfind",      UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    MF(SHIFTAMT), 0,                                                        "bfind.u32 %r1, %r2;") \
    X(BMSK,       "bmsk",       UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    MF(CLAMP) | MF(WRAP), 0,                                                "bmsk.clamp.b32 %r1, %r2, %r3;") \
    X(BRA,        "bra",        UNIT_CTRL, LAT_NONE,FAM_MISC,  MK_BRANCH,  0,                          MF(UNI), OPF_BRANCH,                                                    "bra.uni L1;") \
    X(BREV,       "brev",       UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "brev.b32 %r1, %r2;") \
    X(BRKPT,      "brkpt",      UNIT_CTRL, LAT_NONE,FAM_MISC,  MK_OTHER,   0,                          0, OPF_STOP,                                                            "brkpt;") \
    X(CALL,       "call",       UNIT_CTRL, LAT_NONE,FAM_CALL,  MK_CALL,    0,                          MF(UNI), OPF_CALL,                                                      "call.uni fn, ();") \
    X(CLZ,        "clz",        UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "clz.b32 %r1, %r2;") \
    X(CNOT,       "cnot",       UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "cnot.b32 %r1, %r2;") \
    X(COPYSIGN,   "copysign",   UNIT_FP,   LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "copysign.f32 %f1, %f2, %f3;") \
    X(COS,        "cos",        UNIT_SFU,  LAT_DIV, FAM_SFU,   MK_SFU,     MC_ALLT,                    MF(APPROX) | MF(FTZ), 0,                                                "cos.approx.f32 %f1, %f2;") \
    X(CP,         "cp",         UNIT_MEM,  LAT_NONE,FAM_ASYNC, MK_ASYNC,   MC_ASYNC | MC_CACHE | MC_TYPE, 0, OPF_MEM | OPF_ASYNC,                                   "cp.async.ca.shared.global [sh+16], [%rd1], 4;") \
    X(CVT,        "cvt",        UNIT_INT,  LAT_ADD, FAM_CVT,   MK_CVT,     MC_ALLT | MC_RND | MC_IRND, MF(FTZ) | MF(SAT) | MF(RELU), 0,                                        "cvt.rn.f32.s32 %f1, %r2;") \
    X(CVTA,       "cvta",       UNIT_INT,  LAT_ADD, FAM_CVTA,  MK_TYPE,    MC_ALLT | MC_SPACE,         MF(TO), 0,                                                              "cvta.shared.u64 %rd1, %rd2;") \
    X(DIV,        "div",        UNIT_INT,  LAT_DIV, FAM_ARITH, MK_TYPE,    MC_ALLT | MC_RND,           MF(FTZ) | MF(APPROX) | MF(FULL), 0,                                     "div.u32 %r1, %r2, %r3;") \
    X(DP2A,       "dp2a",       UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    MF(LO) | MF(HI), 0,                                                     "dp2a.lo.u32.u32 %r1, %r2, %r3, %r4;") \
    X(DP4A,       "dp4a",       UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "dp4a.u32.u32 %r1, %r2, %r3, %r4;") \
    X(EX2,        "ex2",        UNIT_SFU,  LAT_DIV, FAM_SFU,   MK_SFU,     MC_ALLT,                    MF(APPROX) | MF(FTZ), 0,                                                "ex2.approx.f32 %f1, %f2;") \
    X(EXIT,       "exit",       UNIT_CTRL, LAT_NONE,FAM_MISC,  MK_OTHER,   0,                          0, OPF_EXIT,                                                            "exit;") \
    X(FENCE,      "fence",      UNIT_SYNC, LAT_NONE,FAM_MISC,  MK_FENCE,   MC_SEM | MC_SCOPE | MC_HINT, MF(PROXY), OPF_FENCE,                                                  "fence.acq_rel.gpu;") \
    X(FMA,        "fma",        UNIT_FP,   LAT_MAD, FAM_ARITH, MK_TYPE,    MC_ALLT | MC_RND,           MF(FTZ) | MF(SAT) | MF(RELU), 0,                                        "fma.rn.f32 %f1, %f2, %f3, %f4;") \
    X(ISSPACEP,   "isspacep",   UNIT_INT,  LAT_ADD, FAM_MISC,  MK_TYPE,    MC_SPACE,                   0, 0,                                                                   "isspacep.global %p1, %rd1;") \
    X(LD,         "ld",         UNIT_MEM,  LAT_NONE,FAM_MEM,   MK_MEM,     MC_MEMC,                    0, OPF_LOAD | OPF_MEM,                                                  "ld.shared.u32 %r1, [sh];") \
    X(LDMATRIX,   "ldmatrix",   UNIT_MEM,  LAT_NONE,FAM_WMMA,  MK_MEM,     MC_WMMA | MC_TYPE | MC_SPACE, MF(SYNC) | MF(ALIGNED), OPF_LOAD | OPF_MEM,                         "ldmatrix.sync.aligned.m8n8.x1.shared.b16 {%r1}, [sh];") \
    X(LDU,        "ldu",        UNIT_MEM,  LAT_NONE,FAM_MEM,   MK_MEM,     MC_MEMC,                    0, OPF_LOAD | OPF_MEM,                                                  "ldu.global.u32 %r1, [%rd1];") \
    X(LG2,        "lg2",        UNIT_SFU,  LAT_DIV, FAM_SFU,   MK_SFU,     MC_ALLT,                    MF(APPROX) | MF(FTZ), 0,                                                "lg2.approx.f32 %f1, %f2;") \
    X(LOP3,       "lop3",       UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "lop3.b32 %r1, %r2, %r3, %r4, 0x96;") \
    X(MAD,        "mad",        UNIT_INT,  LAT_MAD, FAM_ARITH, MK_TYPE,    MC_ALLT | MC_RND,           MF(FTZ) | MF(SAT) | MF(CC) | MF(LO) | MF(HI) | MF(WIDE), 0,             "mad.lo.s32 %r1, %r2, %r3, %r4;") \
    X(MAD24,      "mad24",      UNIT_INT,  LAT_MAD, FAM_ARITH, MK_TYPE,    MC_ALLT,                    MF(LO) | MF(HI) | MF(SAT), 0,                                           "mad24.lo.s32 %r1, %r2, %r3, %r4;") \
    X(MADC,       "madc",       UNIT_INT,  LAT_MAD, FAM_ARITH, MK_TYPE,    MC_ALLT,                    MF(CC) | MF(LO) | MF(HI), 0,                                            "madc.lo.u32 %r1, %r2, %r3, %r4;") \
    X(MATCH,      "match",      UNIT_WARP, LAT_ADD, FAM_WARP,  MK_WARP,    MC_ALLT | MC_MATCH,         MF(SYNC), OPF_WARPX,                                                    "match.any.sync.b32 %r1, %r2, 0xffffffff;") \
    X(MAX,        "max",        UNIT_INT,  LAT_MAX, FAM_ARITH, MK_TYPE,    MC_ALLT,                    MF(FTZ) | MF(NAN) | MF(XORSIGN) | MF(ABS) | MF(RELU), 0,                "max.s32 %r1, %r2, %r3;") \
    X(MBARRIER,   "mbarrier",   UNIT_MEM,  LAT_NONE,FAM_ASYNC, MK_ASYNC,   MC_ASYNC | MC_TYPE | MC_SEM | MC_SCOPE, 0, OPF_MEM | OPF_ASYNC,                          "mbarrier.init.shared.b64 [sh+8], %r3;") \
    X(MEMBAR,     "membar",     UNIT_SYNC, LAT_NONE,FAM_MISC,  MK_FENCE,   MC_SCOPE | MC_HINT,         MF(PROXY), OPF_FENCE,                                                   "membar.gl;") \
    X(MIN,        "min",        UNIT_INT,  LAT_MAX, FAM_ARITH, MK_TYPE,    MC_ALLT,                    MF(FTZ) | MF(NAN) | MF(XORSIGN) | MF(ABS) | MF(RELU), 0,                "min.u32 %r1, %r2, %r3;") \
    X(MMA,        "mma",        UNIT_TENSOR,LAT_NONE,FAM_WMMA, MK_TYPE,    MC_WMMA | MC_TYPE | MC_RND, MF(SYNC) | MF(ALIGNED), 0,                                       "mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%f1, %f5, %f6, %f7}, {%r1, %r2}, {%r3}, {%f2, %f3, %f4, %f5};") \
    X(MOV,        "mov",        UNIT_INT,  LAT_ADD, FAM_MOV,   MK_INT,     MC_ALLT,                    0, OPF_INTALU,                                                          "mov.u32 %r1, %tid.x;") \
    X(MOVMATRIX,  "movmatrix",  UNIT_WARP, LAT_ADD, FAM_WMMA,  MK_WARP,    MC_WMMA | MC_TYPE,          MF(SYNC) | MF(ALIGNED), OPF_WARPX,                                      "movmatrix.sync.aligned.m8n8.trans.b16 %r1, %r4;") \
    X(MUL,        "mul",        UNIT_INT,  LAT_MUL, FAM_ARITH, MK_TYPE,    MC_ALLT | MC_RND,           MF(FTZ) | MF(SAT) | MF(LO) | MF(HI) | MF(WIDE), 0,                      "mul.wide.u32 %rd1, %r2, %r3;") \
    X(MUL24,      "mul24",      UNIT_INT,  LAT_MUL, FAM_ARITH, MK_TYPE,    MC_ALLT,                    MF(LO) | MF(HI), 0,                                                     "mul24.lo.u32 %r1, %r2, %r3;") \
    X(NANOSLEEP,  "nanosleep",  UNIT_SYNC, LAT_NONE,FAM_MISC,  MK_OTHER,   MC_ALLT,                    0, 0,                                                                   "nanosleep.u32 100;") \
    X(NEG,        "neg",        UNIT_INT,  LAT_ADD, FAM_ARITH, MK_TYPE,    MC_ALLT,                    MF(FTZ), 0,                                                             "neg.f32 %f1, %f2;") \
    X(NOT,        "not",        UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "not.b32 %r1, %r2;") \
    X(OR,         "or",         UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "or.pred %p1, %p2, %p3;") \
    X(PMEVENT,    "pmevent",    UNIT_NONE, LAT_NONE,FAM_MISC,  MK_OTHER,   MC_HINT,                    0, 0,                                                                   "pmevent 1;") \
    X(GRIDDEPCONTROL, "griddepcontrol", UNIT_NONE, LAT_NONE, FAM_MISC, MK_OTHER, 0,                MF(WAIT) | MF(LAUNCHDEP), 0,                                            "griddepcontrol.wait;") \
    X(POPC,       "popc",       UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "popc.b32 %r1, %r2;") \
    X(PREFETCH,   "prefetch",   UNIT_MEM,  LAT_NONE,FAM_MISC,  MK_OTHER,   MC_SPACE | MC_HINT,         0, OPF_MEM,                                                             "prefetch.global.L2 [%rd1];") \
    X(PREFETCHU,  "prefetchu",  UNIT_MEM,  LAT_NONE,FAM_MISC,  MK_OTHER,   MC_HINT,                    0, OPF_MEM,                                                             "prefetchu.L1 [%rd1];") \
    X(PRMT,       "prmt",       UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT | MC_PRMT,          0, 0,                                                                   "prmt.b32 %r1, %r2, %r3, 0x3210;") \
    X(RCP,        "rcp",        UNIT_SFU,  LAT_DIV, FAM_SFU,   MK_SFU,     MC_ALLT | MC_RND,           MF(APPROX) | MF(FTZ), 0,                                                "rcp.rn.f32 %f1, %f2;") \
    X(RED,        "red",        UNIT_MEM,  LAT_NONE,FAM_ATOM,  MK_MEM,     MC_MEMC | MC_ATOM,          MF(NOFTZ), OPF_ATOMIC | OPF_MEM,                                        "red.shared.add.u32 [sh], %r2;") \
    X(REDUX,      "redux",      UNIT_WARP, LAT_ADD, FAM_WARP,  MK_WARP,    MC_ALLT | MC_ATOM,          MF(SYNC), OPF_WARPX,                                                    "redux.sync.add.u32 %r1, %r2, 0xffffffff;") \
    X(REM,        "rem",        UNIT_INT,  LAT_DIV, FAM_ARITH, MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "rem.s32 %r1, %r2, %r3;") \
    X(RET,        "ret",        UNIT_CTRL, LAT_NONE,FAM_MISC,  MK_CALL,    0,                          MF(UNI), OPF_RET,                                                       "ret;") \
    X(RSQRT,      "rsqrt",      UNIT_SFU,  LAT_DIV, FAM_SFU,   MK_SFU,     MC_ALLT,                    MF(APPROX) | MF(FTZ), 0,                                                "rsqrt.approx.f32 %f1, %f2;") \
    X(SAD,        "sad",        UNIT_INT,  LAT_ADD, FAM_ARITH, MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "sad.u32 %r1, %r2, %r3, %r4;") \
    X(SELP,       "selp",       UNIT_INT,  LAT_ADD, FAM_CMP,   MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "selp.b32 %r1, %r2, %r3, %p1;") \
    X(SET,        "set",        UNIT_INT,  LAT_ADD, FAM_CMP,   MK_TYPE2,   MC_ALLT | MC_CMP | MC_BOOL, MF(FTZ), 0,                                                             "set.lt.u32.s32 %r1, %r2, %r3;") \
    X(SETP,       "setp",       UNIT_INT,  LAT_ADD, FAM_CMP,   MK_TYPE,    MC_ALLT | MC_CMP | MC_BOOL, MF(FTZ), 0,                                                             "setp.lt.s32 %p1, %r2, %r3;") \
    X(SHF,        "shf",        UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    MF(L) | MF(R) | MF(CLAMP) | MF(WRAP), 0,                                "shf.l.wrap.b32 %r1, %r2, %r3, %r4;") \
    X(SHFL,       "shfl",       UNIT_WARP, LAT_ADD, FAM_WARP,  MK_WARP,    MC_ALLT | MC_SHFL,          MF(SYNC), OPF_WARPX,                                                    "shfl.sync.bfly.b32 %r1, %r2, 1, 31, 0xffffffff;") \
    X(SHL,        "shl",        UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "shl.b32 %r1, %r2, 3;") \
    X(SHR,        "shr",        UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "shr.s32 %r1, %r2, 3;") \
    X(SIN,        "sin",        UNIT_SFU,  LAT_DIV, FAM_SFU,   MK_SFU,     MC_ALLT,                    MF(APPROX) | MF(FTZ), 0,                                                "sin.approx.f32 %f1, %f2;") \
    X(SLCT,       "slct",       UNIT_INT,  LAT_ADD, FAM_CMP,   MK_TYPE2,   MC_ALLT,                    MF(FTZ), 0,                                                             "slct.u32.s32 %r1, %r2, %r3, %r4;") \
    X(SQRT,       "sqrt",       UNIT_SFU,  LAT_DIV, FAM_SFU,   MK_SFU,     MC_ALLT | MC_RND,           MF(APPROX) | MF(FTZ), 0,                                                "sqrt.rn.f32 %f1, %f2;") \
    X(ST,         "st",         UNIT_MEM,  LAT_NONE,FAM_MEM,   MK_MEM,     MC_MEMC,                    0, OPF_STORE | OPF_MEM,                                                 "st.shared.u32 [sh], %r2;") \
    X(SUB,        "sub",        UNIT_INT,  LAT_ADD, FAM_ARITH, MK_TYPE,    MC_ALLT | MC_RND,           MF(FTZ) | MF(SAT) | MF(CC) | MF(RELU), 0,                               "sub.f64 %fd1, %fd2, %fd3;") \
    X(SUBC,       "subc",       UNIT_INT,  LAT_ADD, FAM_ARITH, MK_TYPE,    MC_ALLT,                    MF(CC), 0,                                                              "subc.u32 %r1, %r2, %r3;") \
    X(SULD,       "suld",       UNIT_MEM,  LAT_NONE,FAM_TEX,   MK_MEM,     MC_TEX | MC_TYPE | MC_VEC | MC_CACHE, 0, OPF_LOAD | OPF_MEM | OPF_TEX,                    "suld.b.2d.b32.trap {%r1}, [%rd8, {%r1, %r3}];") \
    X(SUQ,        "suq",        UNIT_INT,  LAT_ADD, FAM_TEX,   MK_INT,     MC_TEX | MC_TYPE,           0, OPF_TEX | OPF_INTALU,                                                "suq.width.b32 %r1, [%rd8];") \
    X(SUST,       "sust",       UNIT_MEM,  LAT_NONE,FAM_TEX,   MK_MEM,     MC_TEX | MC_TYPE | MC_VEC | MC_CACHE, 0, OPF_STORE | OPF_MEM | OPF_TEX,                   "sust.b.2d.b32.trap [%rd8, {%r1, %r3}], {%r4};") \
    X(SZEXT,      "szext",      UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    MF(CLAMP) | MF(WRAP), 0,                                                "szext.clamp.s32 %r1, %r2, %r3;") \
    X(TANH,       "tanh",       UNIT_SFU,  LAT_DIV, FAM_SFU,   MK_SFU,     MC_ALLT,                    MF(APPROX), 0,                                                          "tanh.approx.f32 %f1, %f2;") \
    X(TEX,        "tex",        UNIT_MEM,  LAT_NONE,FAM_TEX,   MK_MEM,     MC_TEX | MC_TYPE | MC_VEC,  0, OPF_MEM | OPF_TEX | OPF_SAMPLE,                                   "tex.2d.v4.f32.f32 {%f1, %f5, %f6, %f7}, [%rd4, {%f2, %f3}];") \
    X(TESTP,      "testp",      UNIT_FP,   LAT_ADD, FAM_CMP,   MK_TYPE,    MC_ALLT | MC_TESTP,         0, 0,                                                                   "testp.finite.f32 %p1, %f2;") \
    X(TLD4,       "tld4",       UNIT_MEM,  LAT_NONE,FAM_TEX,   MK_MEM,     MC_TEX | MC_TYPE | MC_VEC,  0, OPF_MEM | OPF_TEX | OPF_SAMPLE,                                   "tld4.r.2d.v4.f32.f32 {%f1, %f5, %f6, %f7}, [%rd4, {%f2, %f3}];") \
    X(TRAP,       "trap",       UNIT_CTRL, LAT_NONE,FAM_MISC,  MK_OTHER,   0,                          0, OPF_STOP,                                                            "trap;") \
    X(VABSDIFF4,  "vabsdiff4",  UNIT_INT,  LAT_ADD, FAM_VOP4,  MK_TYPE,    MC_ALLT | MC_ATOM,          MF(SAT), 0,                                                             "vabsdiff4.u32.u32.u32.add %r1, %r2, %r3, %r4;") \
    X(VADD4,      "vadd4",      UNIT_INT,  LAT_ADD, FAM_VOP4,  MK_TYPE,    MC_ALLT | MC_ATOM,          MF(SAT), 0,                                                             "vadd4.u32.u32.u32.sat %r1, %r2, %r3, %r4;") \
    X(VAVRG4,     "vavrg4",     UNIT_INT,  LAT_ADD, FAM_VOP4,  MK_TYPE,    MC_ALLT | MC_ATOM,          MF(SAT), 0,                                                             "vavrg4.u32.u32.u32 %r1, %r2, %r3, %r4;") \
    X(VMAX4,      "vmax4",      UNIT_INT,  LAT_ADD, FAM_VOP4,  MK_TYPE,    MC_ALLT | MC_ATOM,          MF(SAT), 0,                                                             "vmax4.s32.s32.s32 %r1, %r2, %r3, %r4;") \
    X(VMIN4,      "vmin4",      UNIT_INT,  LAT_ADD, FAM_VOP4,  MK_TYPE,    MC_ALLT | MC_ATOM,          MF(SAT), 0,                                                             "vmin4.u32.u32.u32 %r1, %r2, %r3, %r4;") \
    X(VSUB4,      "vsub4",      UNIT_INT,  LAT_ADD, FAM_VOP4,  MK_TYPE,    MC_ALLT | MC_ATOM,          MF(SAT), 0,                                                             "vsub4.s32.s32.s32.sat %r1, %r2, %r3, %r4;") \
    X(TXQ,        "txq",        UNIT_INT,  LAT_ADD, FAM_TEX,   MK_INT,     MC_TEX | MC_TYPE,           0, OPF_TEX | OPF_INTALU,                                                "txq.width.b32 %r1, [%rd4];") \
    X(VOTE,       "vote",       UNIT_WARP, LAT_ADD, FAM_WARP,  MK_WARP,    MC_ALLT | MC_VOTE,          MF(SYNC), OPF_WARPX,                                                    "vote.sync.ballot.b32 %r1, %p1, 0xffffffff;") \
    X(WMMA,       "wmma",       UNIT_TENSOR,LAT_NONE,FAM_WMMA, MK_TYPE,    MC_WMMA | MC_TYPE | MC_SPACE | MC_RND, MF(SYNC) | MF(ALIGNED), 0,                                     "wmma.mma.sync.aligned.row.col.m16n16k16.f16.f16 {%r1, %r5, %r6, %r7}, {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r0, %r1, %r2, %r3, %r4, %r5, %r6, %r7}, {%r0, %r2, %r3, %r4};") \
    X(XOR,        "xor",        UNIT_INT,  LAT_ADD, FAM_BITS,  MK_TYPE,    MC_ALLT,                    0, 0,                                                                   "xor.b64 %rd1, %rd2, %rd3;")

typedef enum ptx_op {
#define X(e, name, unit, lat, fam, mix, cats, mflags, props, sample) OP_##e,
    PTX_OPS(X)
#undef X
    OP_COUNT
} ptx_op;

/* One row of the table, as data. */
typedef struct ptx_opinfo {
    const char *name;
    uint8_t unit;       /* ir_unit */
    uint8_t lat;        /* ptx_latcls */
    uint8_t fam;        /* ptx_family */
    uint8_t mix;        /* ptx_mixkind */
    uint32_t cats;      /* ptx_modcat */
    uint64_t mflags;    /* MF() bits */
    uint32_t props;     /* OPF_* */
    const char *sample;
} ptx_opinfo;

extern const ptx_opinfo ptx_ops[OP_COUNT];

/* Convenience: the row of op. */
static inline const ptx_opinfo *ptx_op_info(int op) { return &ptx_ops[op]; }
static inline uint32_t ptx_op_props(int op) { return ptx_ops[op].props; }

#endif
