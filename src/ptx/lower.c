/*
 * lower.c -- AST to IR: the semantic half of the PTX front end.
 *
 * DESIGN
 * The lowering walks the module twice.  The first walk declares every
 * module-scope name (variables, functions) and places .global/.const data
 * in device memory through the lower_env callbacks, so instructions can
 * refer to any symbol by its final address.  The second walk lowers each
 * function body: its parameters and .local/.param variables get frame
 * offsets, its registers get rows in the function's register window, its
 * labels resolve through the lexical scopes, and each instruction becomes
 * exactly one ir_insn (so a label's position in the AST is its pc).  Every
 * body ends in an instruction that leaves it (an implicit ret/exit is
 * appended when the text falls off the end).  Finally cfg.c computes the
 * reconvergence points, and each kernel gets the shared-memory layout of
 * the variables it can reach.
 *
 * Modifiers are checked in two steps: each word (".rn", ".global", ".lo")
 * is looked up in one table that says which categories it can belong to,
 * and each opcode's row in the opcode table says which categories and
 * flags it accepts, so "'.sat' is not valid for 'mul.lo'" needs no code per
 * opcode.  The opcode's own lowering function then checks combinations and
 * operands.  An unknown instruction, an unsupported one (textures, tensor
 * cores) and a bad modifier are all errors at file:line:col.
 */
#include "ptx/lower.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/fpmath.h"
#include "util/addrmap.h"
#include "ptx/cfg.h"
#include "util/strmap.h"

/* ---- modifier words ---------------------------------------------------------- */

/* Modifier categories and flags: the opcode table's (optable.h). */
#define F(x) (1ull << MF_##x)

/* The fields of MC_TEX words (their value's high byte). */
enum { TXF_GEOM, TXF_QUERY, TXF_CLAMP, TXF_COMP, TXF_ACCESS, TXF_LOD,
       WMF_KIND, WMF_MAT, WMF_LAY1, WMF_LAY2, WMF_SHAPE, WMF_SATF, WMF_NUM, WMF_TRANS,
       WMF_NOTRUN,
       /* MC_ASYNC words (cp, mbarrier): the operation (ir_asyncop + 1), .async,
        * .mbarrier, .parity, .noComplete, .noinc, a .shared space (1 .shared,
        * 2 .shared::cta, 3 .shared::cluster), .global */
       AF_OP, AF_ASYNC, AF_MBAR, AF_PARITY, AF_NOCOMPLETE, AF_NOINC, AF_SP, AF_GSP, TXF_COUNT };

typedef struct modword {
    const char *w;
    uint32_t cat;
    uint32_t val;
} modword;

static const modword modwords[] = {
    {".rn", MC_RND, FP_RN}, {".rz", MC_RND, FP_RZ}, {".rm", MC_RND, FP_RM},
    {".rp", MC_RND, FP_RP}, {".rna", MC_RND, FP_RNA},
    {".rni", MC_IRND, FP_RN}, {".rzi", MC_IRND, FP_RZ}, {".rmi", MC_IRND, FP_RM},
    {".rpi", MC_IRND, FP_RP},
    {".eq", MC_CMP, CMP_EQ}, {".ne", MC_CMP, CMP_NE}, {".lt", MC_CMP, CMP_LT},
    {".le", MC_CMP, CMP_LE}, {".gt", MC_CMP, CMP_GT}, {".ge", MC_CMP, CMP_GE},
    {".lo", MC_CMP, CMP_LO}, {".ls", MC_CMP, CMP_LS}, {".hi", MC_CMP, CMP_HI},
    {".hs", MC_CMP, CMP_HS}, {".equ", MC_CMP, CMP_EQU}, {".neu", MC_CMP, CMP_NEU},
    {".ltu", MC_CMP, CMP_LTU}, {".leu", MC_CMP, CMP_LEU}, {".gtu", MC_CMP, CMP_GTU},
    {".geu", MC_CMP, CMP_GEU}, {".num", MC_CMP, CMP_NUM}, {".nan", MC_CMP, CMP_NAN},
    {".and", MC_BOOL, BOP_AND}, {".or", MC_BOOL, BOP_OR}, {".xor", MC_BOOL, BOP_XOR},
    {".popc", MC_BOOL, BOP_POPC},
    {".and", MC_ATOM, ATOM_AND}, {".or", MC_ATOM, ATOM_OR}, {".xor", MC_ATOM, ATOM_XOR},
    {".add", MC_ATOM, ATOM_ADD}, {".min", MC_ATOM, ATOM_MIN}, {".max", MC_ATOM, ATOM_MAX},
    {".inc", MC_ATOM, ATOM_INC}, {".dec", MC_ATOM, ATOM_DEC}, {".exch", MC_ATOM, ATOM_EXCH},
    {".cas", MC_ATOM, ATOM_CAS},
    {".global", MC_SPACE, SP_GLOBAL}, {".shared", MC_SPACE, SP_SHARED},
    {".shared::cta", MC_SPACE, SP_SHARED}, {".local", MC_SPACE, SP_LOCAL},
    {".const", MC_SPACE, SP_CONST}, {".param", MC_SPACE, SP_PARAM},
    {".param::entry", MC_SPACE, SP_PARAM}, {".param::func", MC_SPACE, SP_PARAM},
    {".weak", MC_SEM, SEM_WEAK}, {".volatile", MC_SEM, SEM_VOLATILE},
    {".relaxed", MC_SEM, SEM_RELAXED}, {".acquire", MC_SEM, SEM_ACQUIRE},
    {".release", MC_SEM, SEM_RELEASE}, {".acq_rel", MC_SEM, SEM_ACQ_REL},
    {".sc", MC_SEM, SEM_SC}, {".mmio", MC_SEM, SEM_RELAXED},
    {".cta", MC_SCOPE, SCOPE_CTA}, {".gpu", MC_SCOPE, SCOPE_GPU}, {".gl", MC_SCOPE, SCOPE_GPU},
    {".sys", MC_SCOPE, SCOPE_SYS}, {".cluster", MC_SCOPE, SCOPE_CLUSTER},
    {".ca", MC_CACHE, CACHE_CA}, {".cg", MC_CACHE, CACHE_CG}, {".cs", MC_CACHE, CACHE_CS},
    {".lu", MC_CACHE, CACHE_LU}, {".cv", MC_CACHE, CACHE_CV}, {".wb", MC_CACHE, CACHE_WB},
    {".wt", MC_CACHE, CACHE_WT}, {".nc", MC_CACHE, CACHE_NC},
    {".v2", MC_VEC, 2}, {".v4", MC_VEC, 4}, {".v8", MC_VEC, 8},
    {".up", MC_SHFL, SHFL_UP}, {".down", MC_SHFL, SHFL_DOWN}, {".bfly", MC_SHFL, SHFL_BFLY},
    {".idx", MC_SHFL, SHFL_IDX},
    {".all", MC_VOTE, VOTE_ALL}, {".any", MC_VOTE, VOTE_ANY}, {".uni", MC_VOTE, VOTE_UNI},
    {".ballot", MC_VOTE, VOTE_BALLOT},
    {".any", MC_MATCH, MATCH_ANY}, {".all", MC_MATCH, MATCH_ALL},
    {".f4e", MC_PRMT, PRMT_F4E}, {".b4e", MC_PRMT, PRMT_B4E}, {".rc8", MC_PRMT, PRMT_RC8},
    {".ecl", MC_PRMT, PRMT_ECL}, {".ecr", MC_PRMT, PRMT_ECR}, {".rc16", MC_PRMT, PRMT_RC16},
    {".finite", MC_TESTP, FPT_FINITE}, {".infinite", MC_TESTP, FPT_INFINITE},
    {".number", MC_TESTP, FPT_NUMBER}, {".notanumber", MC_TESTP, FPT_NOTANUMBER},
    {".normal", MC_TESTP, FPT_NORMAL}, {".subnormal", MC_TESTP, FPT_SUBNORMAL},
    {".sync", MC_BAR, BARM_SYNC}, {".arrive", MC_BAR, BARM_ARRIVE}, {".red", MC_BAR, BARM_RED},
    {".warp", MC_FLAG, MF_WARP}, {".wait", MC_FLAG, MF_WAIT},
    {".launch_dependents", MC_FLAG, MF_LAUNCHDEP},
    {".ftz", MC_FLAG, MF_FTZ}, {".sat", MC_FLAG, MF_SAT}, {".approx", MC_FLAG, MF_APPROX},
    {".full", MC_FLAG, MF_FULL}, {".uni", MC_FLAG, MF_UNI}, {".cc", MC_FLAG, MF_CC},
    {".wide", MC_FLAG, MF_WIDE}, {".lo", MC_FLAG, MF_LO}, {".hi", MC_FLAG, MF_HI},
    {".shiftamt", MC_FLAG, MF_SHIFTAMT}, {".clamp", MC_FLAG, MF_CLAMP},
    {".wrap", MC_FLAG, MF_WRAP}, {".NaN", MC_FLAG, MF_NAN}, {".sync", MC_FLAG, MF_SYNC},
    {".aligned", MC_FLAG, MF_ALIGNED}, {".l", MC_FLAG, MF_L}, {".r", MC_FLAG, MF_R},
    {".to", MC_FLAG, MF_TO}, {".xorsign", MC_FLAG, MF_XORSIGN}, {".abs", MC_FLAG, MF_ABS},
    {".relu", MC_FLAG, MF_RELU}, {".noftz", MC_FLAG, MF_NOFTZ}, {".proxy", MC_FLAG, MF_PROXY},
    {".L1", MC_HINT, 0}, {".L2", MC_HINT, 0}, {".alias", MC_HINT, 0}, {".async", MC_HINT, 0},
    {".unified", MC_HINT, 0},
    /* texture and surface words: (field << 8) | value, fields TXF_* */
    {".1d", MC_TEX, TXF_GEOM << 8 | TEXG_1D}, {".2d", MC_TEX, TXF_GEOM << 8 | TEXG_2D},
    {".3d", MC_TEX, TXF_GEOM << 8 | TEXG_3D}, {".a1d", MC_TEX, TXF_GEOM << 8 | TEXG_A1D},
    {".a2d", MC_TEX, TXF_GEOM << 8 | TEXG_A2D}, {".cube", MC_TEX, TXF_GEOM << 8 | TEXG_CUBE},
    {".acube", MC_TEX, TXF_GEOM << 8 | TEXG_ACUBE}, {".2dms", MC_TEX, TXF_GEOM << 8 | TEXG_2DMS},
    {".a2dms", MC_TEX, TXF_GEOM << 8 | TEXG_A2DMS},
    {".width", MC_TEX, TXF_QUERY << 8 | TXQ_WIDTH}, {".height", MC_TEX, TXF_QUERY << 8 | TXQ_HEIGHT},
    {".depth", MC_TEX, TXF_QUERY << 8 | TXQ_DEPTH},
    {".channel_data_type", MC_TEX, TXF_QUERY << 8 | TXQ_CHANNEL_DATA_TYPE},
    {".channel_order", MC_TEX, TXF_QUERY << 8 | TXQ_CHANNEL_ORDER},
    {".normalized_coords", MC_TEX, TXF_QUERY << 8 | TXQ_NORMALIZED_COORDS},
    {".filter_mode", MC_TEX, TXF_QUERY << 8 | TXQ_FILTER_MODE},
    {".addr_mode_0", MC_TEX, TXF_QUERY << 8 | TXQ_ADDR_MODE_0},
    {".addr_mode_1", MC_TEX, TXF_QUERY << 8 | TXQ_ADDR_MODE_1},
    {".addr_mode_2", MC_TEX, TXF_QUERY << 8 | TXQ_ADDR_MODE_2},
    {".array_size", MC_TEX, TXF_QUERY << 8 | TXQ_ARRAY_SIZE},
    {".num_mipmap_levels", MC_TEX, TXF_QUERY << 8 | TXQ_NUM_MIPMAP_LEVELS},
    {".num_samples", MC_TEX, TXF_QUERY << 8 | TXQ_NUM_SAMPLES},
    {".memory_layout", MC_TEX, TXF_QUERY << 8 | TXQ_MEMORY_LAYOUT},
    {".trap", MC_TEX, TXF_CLAMP << 8 | (SURF_TRAP + 1)},
    {".clamp", MC_TEX, TXF_CLAMP << 8 | (SURF_CLAMP + 1)},
    {".zero", MC_TEX, TXF_CLAMP << 8 | (SURF_ZERO + 1)},
    {".r", MC_TEX, TXF_COMP << 8 | 1}, {".g", MC_TEX, TXF_COMP << 8 | 2},
    {".b", MC_TEX, TXF_COMP << 8 | 3}, {".a", MC_TEX, TXF_COMP << 8 | 4},
    {".p", MC_TEX, TXF_ACCESS << 8 | 2},
    {".level", MC_TEX, TXF_LOD << 8 | 1}, {".grad", MC_TEX, TXF_LOD << 8 | 2},
    /* wmma words: (field << 8) | value, fields WMF_* */
    {".load", MC_WMMA, WMF_KIND << 8 | 1}, {".store", MC_WMMA, WMF_KIND << 8 | 2},
    {".mma", MC_WMMA, WMF_KIND << 8 | 3},
    {".a", MC_WMMA, WMF_MAT << 8 | 1}, {".b", MC_WMMA, WMF_MAT << 8 | 2},
    {".c", MC_WMMA, WMF_MAT << 8 | 3}, {".d", MC_WMMA, WMF_MAT << 8 | 4},
    {".row", MC_WMMA, WMF_LAY1 << 8 | 1}, {".col", MC_WMMA, WMF_LAY1 << 8 | 2},
    /* shapes: value = index in mm_shapes[] */
    {".m16n16k16", MC_WMMA, WMF_SHAPE << 8 | 1}, {".m8n32k16", MC_WMMA, WMF_SHAPE << 8 | 2},
    {".m32n8k16", MC_WMMA, WMF_SHAPE << 8 | 3}, {".m16n16k8", MC_WMMA, WMF_SHAPE << 8 | 4},
    {".m8n8k4", MC_WMMA, WMF_SHAPE << 8 | 5}, {".m16n8k8", MC_WMMA, WMF_SHAPE << 8 | 6},
    {".m16n8k16", MC_WMMA, WMF_SHAPE << 8 | 7}, {".m16n8k4", MC_WMMA, WMF_SHAPE << 8 | 8},
    {".m16n8k32", MC_WMMA, WMF_SHAPE << 8 | 9}, {".m8n8k16", MC_WMMA, WMF_SHAPE << 8 | 10},
    {".m8n8k32", MC_WMMA, WMF_SHAPE << 8 | 11}, {".m8n8k128", MC_WMMA, WMF_SHAPE << 8 | 12},
    {".m16n8k64", MC_WMMA, WMF_SHAPE << 8 | 13}, {".m16n8k128", MC_WMMA, WMF_SHAPE << 8 | 14},
    {".m16n8k256", MC_WMMA, WMF_SHAPE << 8 | 15}, {".m8n8", MC_WMMA, WMF_SHAPE << 8 | 16},
    {".m16n16", MC_WMMA, WMF_SHAPE << 8 | 17}, {".m8n16", MC_WMMA, WMF_SHAPE << 8 | 18},
    {".satfinite", MC_WMMA, WMF_SATF << 8 | 1},
    {".x1", MC_WMMA, WMF_NUM << 8 | 1}, {".x2", MC_WMMA, WMF_NUM << 8 | 2},
    {".x4", MC_WMMA, WMF_NUM << 8 | 4}, {".trans", MC_WMMA, WMF_TRANS << 8 | 1},
    /* valid PTX of tensor operations lockstep does not run: value = index in
     * mm_notrun[] (the load error names the word) */
    {".s4", MC_WMMA, WMF_NOTRUN << 8 | 1}, {".u4", MC_WMMA, WMF_NOTRUN << 8 | 2},
    {".b1", MC_WMMA, WMF_NOTRUN << 8 | 3}, {".e4m3", MC_WMMA, WMF_NOTRUN << 8 | 4},
    {".e5m2", MC_WMMA, WMF_NOTRUN << 8 | 5}, {".e3m2", MC_WMMA, WMF_NOTRUN << 8 | 6},
    {".e2m3", MC_WMMA, WMF_NOTRUN << 8 | 7}, {".e2m1", MC_WMMA, WMF_NOTRUN << 8 | 8},
    {".sp", MC_WMMA, WMF_NOTRUN << 8 | 9}, {".sp::ordered_metadata", MC_WMMA, WMF_NOTRUN << 8 | 10},
    {".kind::f8f6f4", MC_WMMA, WMF_NOTRUN << 8 | 11}, {".kind::mxf8f6f4", MC_WMMA, WMF_NOTRUN << 8 | 12},
    {".kind::mxf4", MC_WMMA, WMF_NOTRUN << 8 | 13}, {".kind::mxf4nvf4", MC_WMMA, WMF_NOTRUN << 8 | 14},
    {".block_scale", MC_WMMA, WMF_NOTRUN << 8 | 15}, {".b6x16_p32", MC_WMMA, WMF_NOTRUN << 8 | 16},
    {".b4x16_p64", MC_WMMA, WMF_NOTRUN << 8 | 17}, {".b8x16", MC_WMMA, WMF_NOTRUN << 8 | 18},
    {".xor", MC_WMMA, WMF_NOTRUN << 8 | 19}, {".and", MC_WMMA, WMF_NOTRUN << 8 | 20},
    {".popc", MC_WMMA, WMF_NOTRUN << 8 | 21},
    /* asynchronous copies and mbarriers: (field << 8) | value, fields AF_* */
    {".init", MC_ASYNC, AF_OP << 8 | (MBAR_INIT + 1)},
    {".inval", MC_ASYNC, AF_OP << 8 | (MBAR_INVAL + 1)},
    {".arrive", MC_ASYNC, AF_OP << 8 | (MBAR_ARRIVE + 1)},
    {".arrive_drop", MC_ASYNC, AF_OP << 8 | (MBAR_ARRIVE_DROP + 1)},
    {".test_wait", MC_ASYNC, AF_OP << 8 | (MBAR_TEST_WAIT + 1)},
    {".try_wait", MC_ASYNC, AF_OP << 8 | (MBAR_TRY_WAIT + 1)},
    {".pending_count", MC_ASYNC, AF_OP << 8 | (MBAR_PENDING_COUNT + 1)},
    {".commit_group", MC_ASYNC, AF_OP << 8 | (CPA_COMMIT + 1)},
    {".wait_group", MC_ASYNC, AF_OP << 8 | (CPA_WAIT_GROUP + 1)},
    {".wait_all", MC_ASYNC, AF_OP << 8 | (CPA_WAIT_ALL + 1)},
    {".async", MC_ASYNC, AF_ASYNC << 8 | 1}, {".mbarrier", MC_ASYNC, AF_MBAR << 8 | 1},
    {".parity", MC_ASYNC, AF_PARITY << 8 | 1}, {".noComplete", MC_ASYNC, AF_NOCOMPLETE << 8 | 1},
    {".noinc", MC_ASYNC, AF_NOINC << 8 | 1},
    {".shared", MC_ASYNC, AF_SP << 8 | 1}, {".shared::cta", MC_ASYNC, AF_SP << 8 | 2},
    {".shared::cluster", MC_ASYNC, AF_SP << 8 | 3}, {".global", MC_ASYNC, AF_GSP << 8 | 1},
};

/* Valid PTX that lockstep does not implement (yet): a clear load-time error. */
static const struct {
    const char *name;
    const char *what;
} unsupported_ops[] = {
    {"sured", "surface reductions"}, {"istypep", "texture/surface type tests"},
    {"wgmma", "warpgroup tensor core operations"}, {"stmatrix", "matrix stores"},
    {"brx", "indirect branches (brx.idx)"}, {"elect", "elect.sync"},
    {"mapa", "distributed shared memory"}, {"getctarank", "cluster CTA ranks"},
    {"setmaxnreg", "register reallocation"},
    {"alloca", "dynamic stack allocation"}, {"stacksave", "stack save/restore"},
    {"stackrestore", "stack save/restore"}, {"multimem", "multimem operations"},
    {"tensormap", "tensor maps"}, {"discard", "cache discard"},
    {"applypriority", "cache priority"}, {"createpolicy", "cache policies"},
    {"vabsdiff", "scalar and 2-way video instructions"},
    {"vabsdiff2", "scalar and 2-way video instructions"},
    {"vadd", "scalar and 2-way video instructions"},
    {"vadd2", "scalar and 2-way video instructions"},
    {"vsub", "scalar and 2-way video instructions"}, {"vsub2", "scalar and 2-way video instructions"},
    {"vmad", "scalar and 2-way video instructions"},
    {"vavrg2", "scalar and 2-way video instructions"},
    {"vmax", "scalar and 2-way video instructions"}, {"vmax2", "scalar and 2-way video instructions"},
    {"vmin", "scalar and 2-way video instructions"}, {"vmin2", "scalar and 2-way video instructions"},
    {"vset", "video comparisons"}, {"vset2", "video comparisons"},
    {"vset4", "video comparisons"}, {"vshl", "scalar video shifts"},
    {"vshr", "scalar video shifts"}, {"fns", "find n-th set bit"},
    {"clusterlaunchcontrol", "cluster launch control"}, {"cvt", NULL},
};

/* ---- state ------------------------------------------------------------------ */

enum { SYM_VAR = 1, SYM_FUNC = 2 };
enum { FN_REG = 1, FN_FRAME, FN_KPARAM, FN_MVAR, FN_PROTO };
#define KIND_SHIFT 28
#define IDX_MASK ((1u << KIND_SHIFT) - 1)

typedef struct reginfo {
    uint8_t is_pred;
    uint8_t is_range;
    uint8_t type;
    uint32_t base;
    uint32_t count;
} reginfo;

typedef struct framevar {
    uint32_t off, size;
    uint8_t space; /* SP_LOCAL or SP_PARAM */
} framevar;

typedef struct kmap_slot {
    uint64_t key;
    uint32_t row;
    uint32_t used;
} kmap_slot;

typedef struct lower {
    diag *d;
    const ast_module *am;
    const lower_env *env;
    ir_module *m;
    arena *strings;
    int oom;
    strmap syms;          /* module names -> SYM_VAR/SYM_FUNC << KIND_SHIFT | idx */
    uint32_t *var_of_ast; /* module var index of each ast module var */
    uint64_t fake_addr;   /* addresses when there is no env */
    VEC(ir_insn) code;
    VEC(ir_srcpos) pos;
    VEC(ir_call) calls;
    VEC(ir_shref) shrefs;
    VEC(ir_mma) mmas;
    VEC(ir_insn) extra;   /* more instructions the one being lowered became */
    VEC(ir_var) vars;
    VEC(uint64_t) krows;  /* one value per constant row */
    kmap_slot *kmap;
    size_t kmap_cap;
    u32vec *fshvars;      /* per function: shared variables referenced */
    u32vec *fcallees;     /* per function: direct callees */
    uint8_t *f_indirect;  /* per function: makes indirect calls */
    /* the function being lowered */
    const ast_func *af;
    ir_func *f;
    uint32_t fidx;
    strmap names;         /* (name, scope) -> FN_* << KIND_SHIFT | idx */
    strmap labels;        /* (name, scope) -> instruction index in the body */
    VEC(reginfo) regs;
    VEC(framevar) fvars;
    uint32_t frame_off;   /* next free frame byte */
    int32_t sink_reg, sink_pred;
    /* the instruction being lowered: its operand type-checking rule (TC_*)
     * and its full name ("mul.wide.s32"), for the messages */
    int tc;
    char insn_name[64];
} lower;

static void *xcalloc(lower *L, size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size);
    if (!p)
        L->oom = 1;
    return p;
}

/* ---- small helpers ------------------------------------------------------------ */

static uint32_t type_align(ptx_type t)
{
    int s = ptx_type_size(t);
    return s ? (uint32_t)s : 1;
}

static uint32_t scope_parent(const lower *L, uint32_t s)
{
    return s < L->af->scope_parent.n ? L->af->scope_parent.v[s] : 0;
}

/* Constant pool: the row holding v in all 32 lanes. */
static int const_row(lower *L, uint64_t v, uint32_t *row)
{
    if ((L->krows.n + 1) * 2 > L->kmap_cap) {
        size_t cap = L->kmap_cap ? L->kmap_cap * 2 : 256;
        kmap_slot *nm = calloc(cap, sizeof *nm);
        if (!nm) {
            L->oom = 1;
            return 0;
        }
        for (size_t i = 0; i < L->kmap_cap; i++) {
            if (!L->kmap[i].used)
                continue;
            size_t j = (size_t)(L->kmap[i].key * 0x9E3779B97F4A7C15ull >> 20) & (cap - 1);
            while (nm[j].used)
                j = (j + 1) & (cap - 1);
            nm[j] = L->kmap[i];
        }
        free(L->kmap);
        L->kmap = nm;
        L->kmap_cap = cap;
    }
    size_t j = (size_t)(v * 0x9E3779B97F4A7C15ull >> 20) & (L->kmap_cap - 1);
    while (L->kmap[j].used) {
        if (L->kmap[j].key == v) {
            *row = L->kmap[j].row;
            return 1;
        }
        j = (j + 1) & (L->kmap_cap - 1);
    }
    if (vec_push(&L->krows, v)) {
        L->oom = 1;
        return 0;
    }
    L->kmap[j].used = 1;
    L->kmap[j].key = v;
    L->kmap[j].row = (uint32_t)L->krows.n - 1;
    *row = L->kmap[j].row;
    return 1;
}

static const modword *find_modword(const char *w, uint32_t allowed)
{
    for (size_t i = 0; i < ARRAY_LEN(modwords); i++)
        if (!strcmp(modwords[i].w, w) && (modwords[i].cat & allowed))
            return &modwords[i];
    return NULL;
}

static int is_known_modword(const char *w)
{
    if (ptx_type_from_name(w) != PT_NONE)
        return 1;
    for (size_t i = 0; i < ARRAY_LEN(modwords); i++)
        if (!strcmp(modwords[i].w, w))
            return 1;
    return 0;
}

/* The decoded modifiers of one instruction. */
typedef struct mods {
    ptx_type types[4];
    ast_loc typelocs[4];
    int ntypes;
    int rnd, irnd, cmp, boolop, atomop, space, sem, scope, cache, vec, shfl, vote, prmt, testp,
        bar, match;
    int tex[TXF_COUNT];  /* MC_TEX fields; 0: not given */
    uint64_t flags;
    ast_loc loc; /* of the opcode, for errors about missing modifiers */
} mods;

static int decode_mods(lower *L, const ast_insn *in, const ptx_opinfo *spec, mods *md)
{
    memset(md, 0, sizeof *md);
    md->rnd = md->irnd = md->cmp = md->boolop = md->atomop = md->space = md->sem = md->scope =
        md->cache = md->shfl = md->vote = md->prmt = md->testp = md->bar = md->match = -1;
    md->vec = 1;
    md->loc = in->loc;
    int ok = 1;
    for (int i = 0; i < in->nmods; i++) {
        const char *w = in->mods[i];
        ast_loc loc = in->modlocs[i];
        ptx_type t = ptx_type_from_name(w);
        if (t != PT_NONE && (spec->cats & MC_TYPE)) {
            if (md->ntypes == 4) {
                diag_error(L->d, loc, "too many type suffixes on '%s'", in->op);
                ok = 0;
                continue;
            }
            md->typelocs[md->ntypes] = loc;
            md->types[md->ntypes++] = t;
            continue;
        }
        /* ::-qualified cache and eviction hints: accepted, no effect on values */
        if (strstr(w, "::") && !find_modword(w, ~0u)) {
            if (spec->cats & (MC_HINT | MC_CACHE))
                continue;
            diag_error(L->d, loc, "'%s' is not a valid modifier for '%s'", w, in->op);
            ok = 0;
            continue;
        }
        const modword *mw = NULL;
        if (spec->cats || spec->mflags) {
            for (size_t k = 0; k < ARRAY_LEN(modwords); k++) {
                const modword *c = &modwords[k];
                if (strcmp(c->w, w))
                    continue;
                if (c->cat == MC_FLAG ? (spec->mflags & (1ull << c->val)) != 0
                                      : (spec->cats & c->cat) != 0) {
                    mw = c;
                    break;
                }
            }
        }
        if (!mw) {
            if (is_known_modword(w))
                diag_error(L->d, loc, "'%s' is not a valid modifier for '%s'", w, in->op);
            else
                diag_error(L->d, loc, "unknown modifier '%s' on '%s'", w, in->op);
            ok = 0;
            continue;
        }
        int *slot = NULL;
        switch (mw->cat) {
        case MC_RND: slot = &md->rnd; break;
        case MC_IRND: slot = &md->irnd; break;
        case MC_CMP: slot = &md->cmp; break;
        case MC_BOOL: slot = &md->boolop; break;
        case MC_ATOM: slot = &md->atomop; break;
        case MC_SPACE: slot = &md->space; break;
        case MC_SEM: slot = &md->sem; break;
        case MC_SCOPE: slot = &md->scope; break;
        case MC_CACHE: slot = &md->cache; break;
        case MC_SHFL: slot = &md->shfl; break;
        case MC_VOTE: slot = &md->vote; break;
        case MC_PRMT: slot = &md->prmt; break;
        case MC_TESTP: slot = &md->testp; break;
        case MC_BAR: slot = &md->bar; break;
        case MC_MATCH: slot = &md->match; break;
        case MC_VEC:
            md->vec = (int)mw->val;
            continue;
        case MC_HINT:
            continue;
        case MC_WMMA: {
            int f = (int)(mw->val >> 8);
            if (f == WMF_LAY1 && md->tex[WMF_LAY1] && !md->tex[WMF_LAY2])
                f = WMF_LAY2; /* wmma.mma: the second layout is B's */
            if (f == WMF_NOTRUN && md->tex[f])
                continue; /* the first such word is the one the error names */
            if (md->tex[f]) {
                diag_error(L->d, loc, "conflicting modifier '%s' on '%s'", w, in->op);
                ok = 0;
            }
            md->tex[f] = (int)(mw->val & 0xff);
            continue;
        }
        case MC_TEX: case MC_ASYNC: {
            int f = (int)(mw->val >> 8);
            if (md->tex[f]) {
                diag_error(L->d, loc, "conflicting modifier '%s' on '%s'", w, in->op);
                ok = 0;
            }
            md->tex[f] = (int)(mw->val & 0xff);
            continue;
        }
        case MC_FLAG:
            if (md->flags & (1ull << mw->val)) {
                diag_error(L->d, loc, "'%s' given twice", w);
                ok = 0;
            }
            md->flags |= 1ull << mw->val;
            continue;
        default:
            continue;
        }
        if (*slot >= 0) {
            diag_error(L->d, loc, "conflicting modifier '%s' on '%s'", w, in->op);
            ok = 0;
        }
        *slot = (int)mw->val;
    }
    if (md->irnd >= 0 && md->rnd >= 0) {
        diag_error(L->d, in->loc, "two rounding modifiers on '%s'", in->op);
        ok = 0;
    }
    return ok;
}

/* ---- names -------------------------------------------------------------------- */

static int sreg_lookup(const char *name, uint32_t *id, uint16_t *aux)
{
    for (int i = 0; i < SREG_COUNT; i++) {
        if (i == SREG_ENVREG || i == SREG_PM)
            continue;
        if (!strcmp(ir_sreg_names[i], name)) {
            *id = (uint32_t)i;
            *aux = 0;
            return 1;
        }
    }
    /* %envreg<32>, %pm0..%pm7 */
    int base = -1;
    const char *num = NULL;
    if (!strncmp(name, "%envreg", 7)) {
        base = SREG_ENVREG;
        num = name + 7;
    } else if (!strncmp(name, "%pm", 3)) {
        base = SREG_PM;
        num = name + 3;
    }
    if (base < 0 || !*num)
        return 0;
    unsigned v = 0;
    for (const char *c = num; *c; c++) {
        if (*c < '0' || *c > '9' || v > 1000)
            return 0;
        v = v * 10 + (unsigned)(*c - '0');
    }
    if ((base == SREG_ENVREG && v > 31) || (base == SREG_PM && v > 7))
        return 0;
    *id = (uint32_t)base;
    *aux = (uint16_t)v;
    return 1;
}

/* Look a name up in the function's scopes (exact names, then %r<N> ranges). */
static int fn_lookup(const lower *L, const char *name, uint32_t scope, uint32_t *val,
                     uint32_t *range_idx)
{
    char prefix[256];
    size_t n = strlen(name), k = n;
    while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
        k--;
    int has_num = k < n && k > 0 && k < sizeof prefix && (name[k] != '0' || k + 1 == n) &&
                  n - k <= 9;
    uint32_t num = 0;
    if (has_num) {
        memcpy(prefix, name, k);
        prefix[k] = 0;
        num = (uint32_t)strtoul(name + k, NULL, 10);
    }
    for (uint32_t s = scope;; s = scope_parent(L, s)) {
        if (strmap_get(&L->names, name, s, val)) {
            *range_idx = 0;
            return 1;
        }
        if (has_num && strmap_get(&L->names, prefix, s, val) && (*val >> KIND_SHIFT) == FN_REG) {
            const reginfo *ri = &L->regs.v[*val & IDX_MASK];
            if (ri->is_range && num < ri->count) {
                *range_idx = num;
                return 1;
            }
        }
        if (s == 0)
            return 0;
    }
}

/* Resolve a register name: kind IRO_REG or IRO_PRED with idx; type out. */
static int lookup_reg(lower *L, const char *name, uint32_t scope, ir_opnd *o, ptx_type *type)
{
    uint32_t v, r;
    if (!fn_lookup(L, name, scope, &v, &r) || (v >> KIND_SHIFT) != FN_REG)
        return 0;
    const reginfo *ri = &L->regs.v[v & IDX_MASK];
    o->kind = ri->is_pred ? IRO_PRED : IRO_REG;
    o->idx = ri->base + r;
    if (type)
        *type = (ptx_type)ri->type;
    return 1;
}

static uint32_t sink(lower *L, int pred)
{
    int32_t *s = pred ? &L->sink_pred : &L->sink_reg;
    if (*s < 0)
        *s = (int32_t)(pred ? L->f->npreds++ : L->f->nregs++);
    return (uint32_t)*s;
}

/* ---- operand types ---------------------------------------------------------------- */

/*
 * The PTX ISA's type checking of register operands ("Operand Type
 * Information" and "Operand Size Exceeding Instruction-Type Size"), as
 * ptxas applies it ("Arguments mismatch").  Each operand has the type the
 * instruction gives it (usually the instruction type; .wide destinations,
 * shift amounts, bit positions and the like have their own), and the
 * register's declared type must fit it:
 *
 *   TC_STRICT, all instructions but ld, st and cvt: the sizes are equal, and
 *     a bit-size type (.bN) takes any register of its size,
 *     an integer type (.uN, .sN) a bit-size or integer register,
 *     a float type (.f16, .f32, .f64, .f16x2) a register of that type or a
 *     bit-size one, .bf16, .bf16x2 and .tf32 only a bit-size one;
 *   TC_RELAXED, scalar ld, st and cvt operands: as TC_STRICT, but a
 *     register may also be wider than the type (the value is truncated or
 *     extended), except that a float register must still have exactly a
 *     float type's size (cvt from and to .bf16, .bf16x2 and .tf32 is
 *     TC_STRICT: ptxas takes no wider register there);
 *   TC_VECTOR, the elements of vector ld and st: as TC_RELAXED, and a float
 *     type also takes an integer register of its size (ld.v2.f32 {%r1, %r2});
 *   TC_OFF: not checked (instructions whose operands lockstep types
 *     loosely: textures, tensor cores, asynchronous copies, calls, video).
 *
 * The packed integer types .u16x2 and .s16x2 take only bit-size registers.
 * A .f16x2 register counts as a 32-bit integer register besides (ptxas
 * takes it in add.u32, and.b32, ld.u16, cvt.u32.u64; it refuses it as
 * popc's .u32 destination or a shift amount, which lockstep lets pass).
 * Predicates and immediates are checked elsewhere.
 */
enum { TC_OFF, TC_STRICT, TC_RELAXED, TC_VECTOR };

static int reg_type_fits(ptx_type r, ptx_type w, int rule)
{
    if (rule == TC_OFF || w == PT_NONE || r == w)
        return 1;
    int rc = r == PT_F16X2 ? PTC_UINT : ptx_type_classes[r];
    int wc = ptx_type_classes[w];
    int rs = ptx_type_size(r), ws = ptx_type_size(w);
    if (rc == PTC_PRED || wc == PTC_PRED)
        return 0;
    int wider_ok = rule >= TC_RELAXED && (rc != PTC_FLOAT || wc == PTC_BITS);
    if (rs != ws && !(wider_ok && rs > ws))
        return 0;
    if (ptx_type_is_int16x2(w))
        return rc == PTC_BITS || r == PT_F16X2;
    switch (wc) {
    case PTC_BITS: return 1;
    case PTC_UINT: case PTC_SINT: return rc != PTC_FLOAT;
    default: return rc == PTC_BITS || (rule == TC_VECTOR && rc != PTC_FLOAT && rs == ws);
    }
}

/* Check register `o` (declared `r`) against the wanted type w. */
static int reg_type_ok(lower *L, const ast_opnd *o, ptx_type r, ptx_type w)
{
    if (reg_type_fits(r, w, L->tc))
        return 1;
    int bits = ptx_type_bits(w);
    int wider = L->tc >= TC_RELAXED;
    char need[96];
    switch (ptx_type_classes[w]) {
    case PTC_BITS:
        snprintf(need, sizeof need, wider ? "a register of at least %d bits" : "a %d-bit register",
                 bits);
        break;
    case PTC_UINT: case PTC_SINT:
        if (ptx_type_is_int16x2(w))
            snprintf(need, sizeof need, "a .b32 register");
        else
            snprintf(need, sizeof need,
                     wider ? "an integer or bit-size register of at least %d bits"
                           : "a %d-bit integer or bit-size register",
                     bits);
        break;
    default:
        if (w == PT_BF16 || w == PT_BF16X2 || w == PT_TF32)
            snprintf(need, sizeof need, "a .b%d register", bits);
        else
            snprintf(need, sizeof need, wider ? "a %s register or a bit-size register of at least %d bits"
                                              : "a %s or .b%d register",
                     ptx_type_names[w], bits);
        break;
    }
    diag_error(L->d, o->loc, "register '%s' is %s; '%s' needs %s here", o->name,
               ptx_type_names[r], L->insn_name, need);
    return 0;
}

/* ---- operands ------------------------------------------------------------------- */

static int err_opnd(lower *L, const ast_opnd *o, const char *fmt, const char *a)
{
    diag_error(L->d, o->loc, fmt, a);
    return 0;
}

/* Destination register of a non-predicate type; its declared type must fit
 * want (PT_NONE: any). */
static int dst_reg(lower *L, const ast_insn *in, const ast_opnd *o, ptx_type want, ir_opnd *out)
{
    memset(out, 0, sizeof *out);
    if (o->kind == AO_SINK) {
        out->kind = IRO_REG;
        out->idx = sink(L, 0);
        return 1;
    }
    if (o->kind != AO_NAME || o->off || o->neg)
        return err_opnd(L, o, "expected a destination register for '%s'", in->op);
    ptx_type rt;
    if (!lookup_reg(L, o->name, in->scope, out, &rt)) {
        uint32_t id;
        uint16_t aux;
        if (sreg_lookup(o->name, &id, &aux))
            return err_opnd(L, o, "special register '%s' cannot be written", o->name);
        return err_opnd(L, o, "unknown register '%s'", o->name);
    }
    if (out->kind != IRO_REG)
        return err_opnd(L, o, "'%s' is a predicate; a value register is needed here", o->name);
    return reg_type_ok(L, o, rt, want);
}

static int dst_pred(lower *L, const ast_insn *in, const char *name, ast_loc loc, ir_opnd *out)
{
    memset(out, 0, sizeof *out);
    if (!strcmp(name, "_")) {
        out->kind = IRO_PRED;
        out->idx = sink(L, 1);
        return 1;
    }
    if (!lookup_reg(L, name, in->scope, out, NULL)) {
        diag_error(L->d, loc, "unknown predicate register '%s'", name);
        return 0;
    }
    if (out->kind != IRO_PRED) {
        diag_error(L->d, loc, "'%s' is not a predicate register", name);
        return 0;
    }
    return 1;
}

/* A value destination, or with allow_pair a value|predicate pair (shfl,
 * match.all: "d|p", either side may be '_'). Sets ir->d[0..1] and ndst. */
static int dst_value_or_pair(lower *L, const ast_insn *in, const ast_opnd *d, ptx_type want,
                             ir_insn *ir, int allow_pair)
{
    if (d->kind == AO_PAIR) {
        if (!allow_pair) {
            diag_error(L->d, d->loc, "'%s' has no predicate destination", in->op);
            return 0;
        }
        ast_opnd v = *d;
        v.kind = strcmp(d->name, "_") ? AO_NAME : AO_SINK;
        if (!dst_reg(L, in, &v, want, &ir->d[0]) ||
            !dst_pred(L, in, d->name2, d->loc, &ir->d[1]))
            return 0;
        ir->ndst = 2;
        return 1;
    }
    if (!dst_reg(L, in, d, want, &ir->d[0]))
        return 0;
    ir->ndst = 1;
    return 1;
}

/* A destination of type t: a predicate for .pred, a value register otherwise. */
static int dst_typed(lower *L, const ast_insn *in, const ast_opnd *d, ptx_type t, ir_opnd *out)
{
    if (t != PT_PRED)
        return dst_reg(L, in, d, t, out);
    if (d->kind != AO_NAME || d->off) {
        diag_error(L->d, d->loc, "expected a predicate destination for '%s'", in->op);
        return 0;
    }
    return dst_pred(L, in, d->name, d->loc, out);
}

static int src_pred(lower *L, const ast_insn *in, const ast_opnd *o, ir_opnd *out)
{
    memset(out, 0, sizeof *out);
    if (o->kind == AO_INT) {
        /* a constant predicate: 0 is false, any other integer true (nvcc's
         * curand code writes `mov.pred %p, -1`) */
        out->kind = IRO_CONST;
        uint32_t row;
        if (!const_row(L, o->bits ? ~0ull : 0, &row))
            return 0;
        out->idx = row;
        out->neg = o->neg;
        return 1;
    }
    if (o->kind != AO_NAME || o->off)
        return err_opnd(L, o, "expected a predicate operand for '%s'", in->op);
    if (!dst_pred(L, in, o->name, o->loc, out))
        return 0;
    out->neg = o->neg;
    return 1;
}

static uint64_t f64_to_fmt(uint64_t dbits, ptx_type t)
{
    switch (t) {
    case PT_F32: return fp_cvt_f2f(dbits, FP_F64, FP_F32, FP_RN, 0, 0);
    case PT_F16: case PT_F16X2: return fp_cvt_f2f(dbits, FP_F64, FP_F16, FP_RN, 0, 0);
    case PT_BF16: case PT_BF16X2: return fp_cvt_f2f(dbits, FP_F64, FP_BF16, FP_RN, 0, 0);
    default: return dbits;
    }
}

/* The value of an immediate operand interpreted as type t. */
static int imm_value(lower *L, const ast_opnd *o, ptx_type t, uint64_t *v)
{
    int isf = ptx_type_is_float(t);
    int size = ptx_type_size(t);
    switch (o->kind) {
    case AO_INT:
        if (isf) {
            /* an integer literal in a float operation: its numeric value */
            double dv = (double)(int64_t)o->bits;
            uint64_t db;
            memcpy(&db, &dv, 8);
            *v = f64_to_fmt(db, t);
        } else {
            *v = o->bits;
        }
        return 1;
    case AO_F32:
        if (t == PT_F32 || (!isf && size == 4)) {
            *v = o->bits;
            return 1;
        }
        if (isf) {
            uint64_t db = fp_cvt_f2f(o->bits, FP_F32, FP_F64, FP_RN, 0, 0);
            *v = t == PT_F64 ? db : f64_to_fmt(db, t);
            return 1;
        }
        diag_error(L->d, o->loc, "an f32 literal (0f...) cannot be a %s operand", ptx_type_names[t]);
        return 0;
    case AO_F64:
        if (t == PT_F64 || (!isf && size == 8)) {
            *v = o->bits;
            return 1;
        }
        if (isf) {
            *v = f64_to_fmt(o->bits, t);
            return 1;
        }
        diag_error(L->d, o->loc, "an f64 literal cannot be a %s operand", ptx_type_names[t]);
        return 0;
    default:
        return 0;
    }
}

static int add_shref(lower *L, uint32_t var, int64_t off, uint32_t *idx)
{
    ir_shref r = {var, off};
    if (vec_push(&L->shrefs, r)) {
        L->oom = 1;
        return 0;
    }
    *idx = (uint32_t)L->shrefs.n - 1;
    u32vec *list = &L->fshvars[L->fidx];
    for (size_t i = 0; i < list->n; i++)
        if (list->v[i] == var)
            return 1;
    if (vec_push(list, var)) {
        L->oom = 1;
        return 0;
    }
    return 1;
}

/*
 * A source operand of type t: register, immediate, special register, or a
 * symbol (whose address is the value).
 */
static int src_opnd(lower *L, const ast_insn *in, const ast_opnd *o, ptx_type t, ir_opnd *out)
{
    memset(out, 0, sizeof *out);
    if (o->neg)
        return err_opnd(L, o, "'!' is only valid on predicate operands of '%s'", in->op);
    if (o->kind == AO_INT || o->kind == AO_F32 || o->kind == AO_F64) {
        uint64_t v;
        if (!imm_value(L, o, t, &v))
            return 0;
        uint32_t row;
        if (!const_row(L, v, &row))
            return 0;
        out->kind = IRO_CONST;
        out->idx = row;
        return 1;
    }
    if (o->kind != AO_NAME)
        return err_opnd(L, o, "expected a register, a constant or a symbol as an operand of '%s'",
                        in->op);
    ptx_type rt;
    if (!o->off && lookup_reg(L, o->name, in->scope, out, &rt)) {
        if (out->kind == IRO_PRED)
            return err_opnd(L, o, "'%s' is a predicate; a value is needed here", o->name);
        return reg_type_ok(L, o, rt, t);
    }
    uint32_t id;
    uint16_t aux;
    if (sreg_lookup(o->name, &id, &aux)) {
        if (o->off)
            return err_opnd(L, o, "special register '%s' cannot take an offset", o->name);
        out->kind = IRO_SREG;
        out->idx = id;
        out->aux = aux;
        return 1;
    }
    /* symbols: frame variables, kernel parameters, module variables, functions */
    uint32_t v, r;
    uint64_t value = 0;
    if (fn_lookup(L, o->name, in->scope, &v, &r)) {
        uint32_t kind = v >> KIND_SHIFT, idx = v & IDX_MASK;
        if (kind == FN_FRAME) {
            out->kind = IRO_FRAME;
            out->idx = (uint32_t)((int64_t)L->fvars.v[idx].off + o->off);
            return 1;
        }
        if (kind == FN_KPARAM) {
            value = L->f->params[idx].offset + (uint64_t)o->off;
            goto konst;
        }
        if (kind == FN_MVAR) {
            v = (SYM_VAR << KIND_SHIFT) | idx;
            goto mvar;
        }
        if (kind == FN_REG)
            return err_opnd(L, o, "register '%s' cannot take an offset", o->name);
        return err_opnd(L, o, "'%s' cannot be used as a value", o->name);
    }
    if (strmap_get(&L->syms, o->name, 0, &v)) {
    mvar:;
        uint32_t kind = v >> KIND_SHIFT, idx = v & IDX_MASK;
        if (kind == SYM_FUNC) {
            L->m->funcs[idx].addr_taken = 1;
            value = ADDR_FUNC_WINDOW + 16ull * idx + (uint64_t)o->off;
            goto konst;
        }
        const ir_var *var = &L->vars.v[idx];
        if (var->space == SP_SHARED) {
            uint32_t ref;
            if (!add_shref(L, idx, o->off, &ref))
                return 0;
            out->kind = IRO_SHSYM;
            out->idx = ref;
            return 1;
        }
        value = var->addr + (uint64_t)o->off;
        goto konst;
    }
    if (!strcmp(o->name, "WARP_SZ")) {
        /* PTX's predefined constant: the warp size, 32 on every target */
        value = 32 + (uint64_t)o->off;
        goto konst;
    }
    if (o->name[0] == '%')
        return err_opnd(L, o, "unknown register '%s'", o->name);
    return err_opnd(L, o, "unknown symbol '%s'", o->name);
konst:;
    uint32_t row;
    if (!const_row(L, value, &row))
        return 0;
    out->kind = IRO_CONST;
    out->idx = row;
    return 1;
}

/*
 * A memory operand [base+off] for an access in `space`.  Fills the
 * instruction's addr, imm, amode and aux, and may refine the space (a
 * .param access becomes KPARAM or FPARAM; FPARAM lives in local memory).
 */
static int addr_opnd(lower *L, const ast_insn *in, const ast_opnd *o, ir_insn *ir)
{
    if (o->kind != AO_ADDR || o->nelems)
        return err_opnd(L, o, "expected a memory operand [address] for '%s'", in->op);
    ir->addr.kind = IRO_NONE;
    ir->amode = AM_ABS;
    ir->imm = o->off;
    if (!o->name) {
        if (ir->space == SP_PARAM) {
            ir->space = L->f->is_entry ? SP_KPARAM : SP_LOCAL;
            ir->amode = L->f->is_entry ? AM_ABS : AM_FRAME;
        }
        return 1;
    }
    ir_opnd reg;
    if (lookup_reg(L, o->name, in->scope, &reg, NULL)) {
        if (reg.kind != IRO_REG)
            return err_opnd(L, o, "predicate '%s' cannot be an address", o->name);
        ir->addr = reg;
        if (ir->space == SP_PARAM) {
            /* a register holding a parameter address: kernel parameter space in
             * an entry; in a function, param addresses are local frame addresses */
            ir->space = L->f->is_entry ? SP_KPARAM : SP_LOCAL;
        }
        return 1;
    }
    uint32_t v, r;
    uint8_t want = ir->space;
    if (fn_lookup(L, o->name, in->scope, &v, &r)) {
        uint32_t kind = v >> KIND_SHIFT, idx = v & IDX_MASK;
        if (kind == FN_FRAME) {
            /* frame variables (.local, and .param of functions and call sites)
             * live in the thread's local memory, relative to the frame */
            const framevar *fv = &L->fvars.v[idx];
            if (want != SP_GENERIC && want != fv->space)
                return err_opnd(L, o, fv->space == SP_LOCAL
                                          ? "'%s' is a .local variable; the access must be .local"
                                          : "'%s' is a .param variable; the access must be .param",
                                o->name);
            ir->space = SP_LOCAL;
            ir->amode = AM_FRAME;
            ir->imm = (int64_t)fv->off + o->off;
            return 1;
        }
        if (kind == FN_KPARAM) {
            if (want != SP_PARAM)
                return err_opnd(L, o, "kernel parameter '%s' must be accessed with ld.param",
                                o->name);
            ir->space = SP_KPARAM;
            ir->imm = (int64_t)L->f->params[idx].offset + o->off;
            return 1;
        }
        if (kind == FN_MVAR) {
            v = (SYM_VAR << KIND_SHIFT) | idx;
            goto mvar;
        }
        return err_opnd(L, o, "'%s' cannot be used as an address", o->name);
    }
    if (strmap_get(&L->syms, o->name, 0, &v)) {
    mvar:;
        uint32_t kind = v >> KIND_SHIFT, idx = v & IDX_MASK;
        if (kind != SYM_VAR)
            return err_opnd(L, o, "function '%s' cannot be used as a memory address", o->name);
        const ir_var *var = &L->vars.v[idx];
        int sp = var->space;
        if (want != SP_GENERIC && want != sp &&
            !(want == SP_GLOBAL && sp == SP_CONST) && !(want == SP_CONST && sp == SP_GLOBAL)) {
            diag_error(L->d, o->loc, "'%s' is a %s variable; this is a %s access", o->name,
                       ptx_space_names[sp], ptx_space_names[want]);
            return 0;
        }
        if (sp == SP_SHARED) {
            uint32_t ref;
            if (!add_shref(L, idx, 0, &ref))
                return 0;
            ir->amode = AM_SHSYM;
            ir->aux = ref;
            ir->space = want == SP_GENERIC ? SP_GENERIC : SP_SHARED;
            if (want == SP_GENERIC)
                ir->imm += (int64_t)ADDR_SHARED_WINDOW;
            return 1;
        }
        if (sp == SP_LOCAL) {
            ir->space = want == SP_GENERIC ? SP_GENERIC : SP_LOCAL;
            ir->imm += (int64_t)var->addr + (want == SP_GENERIC ? (int64_t)ADDR_LOCAL_WINDOW : 0);
            return 1;
        }
        ir->imm += (int64_t)var->addr;
        return 1;
    }
    if (o->name[0] == '%')
        return err_opnd(L, o, "unknown register '%s'", o->name);
    return err_opnd(L, o, "unknown symbol '%s'", o->name);
}

/* ---- instruction checks ---------------------------------------------------------- */

static int want_nops(lower *L, const ast_insn *in, uint32_t lo, uint32_t hi)
{
    if (in->nops >= lo && in->nops <= hi)
        return 1;
    if (lo == hi)
        diag_error(L->d, in->loc, "'%s' takes %u operand%s, found %u", in->op, lo,
                   lo == 1 ? "" : "s", in->nops);
    else
        diag_error(L->d, in->loc, "'%s' takes %u to %u operands, found %u", in->op, lo, hi,
                   in->nops);
    return 0;
}

static int want_ntypes(lower *L, const ast_insn *in, const mods *md, int n)
{
    if (md->ntypes == n)
        return 1;
    if (md->ntypes < n)
        diag_error(L->d, in->loc, "'%s' needs %d type suffix%s", in->op, n, n == 1 ? "" : "es");
    else
        diag_error(L->d, md->typelocs[n < 4 ? n : 3], "too many type suffixes on '%s'", in->op);
    return 0;
}

/* Is type t in the list (PT_NONE-terminated)? */
static int type_in(ptx_type t, const ptx_type *list)
{
    for (; *list != PT_NONE; list++)
        if (*list == t)
            return 1;
    return 0;
}

static int check_type(lower *L, const ast_insn *in, const mods *md, int i, const ptx_type *list)
{
    if (type_in(md->types[i], list))
        return 1;
    diag_error(L->d, md->typelocs[i], "type '%s' is not valid for '%s'",
               ptx_type_names[md->types[i]], in->op);
    return 0;
}

static const ptx_type T_INT16_64[] = {PT_S16, PT_U16, PT_S32, PT_U32, PT_S64, PT_U64, PT_B16,
                                      PT_B32, PT_B64, PT_NONE};
static const ptx_type T_SINT[] = {PT_S16, PT_S32, PT_S64, PT_NONE};
static const ptx_type T_BITS[] = {PT_B16, PT_B32, PT_B64, PT_NONE};
static const ptx_type T_BITS_PRED[] = {PT_B16, PT_B32, PT_B64, PT_PRED, PT_NONE};
static const ptx_type T_B32_64[] = {PT_B32, PT_B64, PT_NONE};
static const ptx_type T_B32[] = {PT_B32, PT_NONE};
static const ptx_type T_U32_S32[] = {PT_U32, PT_S32, PT_NONE};
static const ptx_type T_I32_64[] = {PT_U32, PT_S32, PT_U64, PT_S64, PT_NONE};
static const ptx_type T_F32_64[] = {PT_F32, PT_F64, PT_NONE};
static const ptx_type T_SHR[] = {PT_B16, PT_B32, PT_B64, PT_U16, PT_U32, PT_U64,
                                 PT_S16, PT_S32, PT_S64, PT_NONE};
static const ptx_type T_MOV[] = {PT_PRED, PT_B16, PT_B32, PT_B64, PT_U16, PT_U32, PT_U64,
                                 PT_S16, PT_S32, PT_S64, PT_F16, PT_F16X2, PT_BF16, PT_BF16X2,
                                 PT_F32, PT_F64, PT_B128, PT_NONE};
static const ptx_type T_MEM[] = {PT_B8, PT_B16, PT_B32, PT_B64, PT_B128, PT_U8, PT_U16, PT_U32,
                                 PT_U64, PT_S8, PT_S16, PT_S32, PT_S64, PT_F16, PT_F16X2,
                                 PT_BF16, PT_BF16X2, PT_F32, PT_F64, PT_NONE};
static const ptx_type T_CVT[] = {PT_U8, PT_U16, PT_U32, PT_U64, PT_S8, PT_S16, PT_S32, PT_S64,
                                 PT_F16, PT_F16X2, PT_BF16, PT_BF16X2, PT_TF32, PT_F32, PT_F64,
                                 PT_NONE};
static const ptx_type T_SETP[] = {PT_B16, PT_B32, PT_B64, PT_U16, PT_U32, PT_U64, PT_S16, PT_S32,
                                  PT_S64, PT_F16, PT_F16X2, PT_BF16, PT_BF16X2, PT_F32, PT_F64,
                                  PT_NONE};

static int is_half(ptx_type t)
{
    return t == PT_F16 || t == PT_F16X2 || t == PT_BF16 || t == PT_BF16X2;
}

static uint32_t fp_flags(const mods *md)
{
    uint32_t f = 0;
    if (md->flags & F(FTZ))
        f |= IRF_FTZ;
    if (md->flags & F(SAT))
        f |= IRF_SAT;
    if (md->flags & F(NAN))
        f |= IRF_NAN;
    if (md->flags & F(RELU))
        f |= IRF_RELU;
    if ((md->flags & F(XORSIGN)) && (md->flags & F(ABS)))
        f |= IRF_XORSIGN_ABS;
    return f;
}

/* Float-only modifiers on an integer operation are errors. */
static int no_float_mods(lower *L, const ast_insn *in, const mods *md, uint64_t allowed)
{
    uint64_t bad = md->flags & (F(FTZ) | F(SAT) | F(APPROX) | F(FULL) | F(NAN) | F(RELU)) & ~allowed;
    if (bad || md->rnd >= 0) {
        diag_error(L->d, in->loc, "'%s.%s' cannot take %s", in->op,
                   ptx_type_names[md->types[0]] + 1,
                   md->rnd >= 0 ? "a rounding modifier" : "floating-point modifiers");
        return 0;
    }
    return 1;
}

static ptx_type wide_type(ptx_type t)
{
    switch (t) {
    case PT_S16: return PT_S32;
    case PT_U16: return PT_U32;
    case PT_S32: return PT_S64;
    case PT_U32: return PT_U64;
    case PT_B16: return PT_B32;
    case PT_B32: return PT_B64;
    default: return PT_NONE;
    }
}

/* d, a [, b [, c [, e]]] : a value destination of type dt and `n` sources of
 * types ts[]. */
static int ops_dsrc(lower *L, const ast_insn *in, ir_insn *ir, ptx_type dt, int n,
                    const ptx_type *ts)
{
    if (!want_nops(L, in, (uint32_t)n + 1, (uint32_t)n + 1))
        return 0;
    if (!dst_reg(L, in, &in->ops[0], dt, &ir->d[0]))
        return 0;
    ir->ndst = 1;
    for (int i = 0; i < n; i++)
        if (!src_opnd(L, in, &in->ops[i + 1], ts[i], &ir->s[i]))
            return 0;
    ir->nsrc = (uint8_t)n;
    return 1;
}

/* d, a [, b [, c]] : all of type t. */
static int ops_same(lower *L, const ast_insn *in, ir_insn *ir, int n, ptx_type t)
{
    ptx_type ts[4] = {t, t, t, t};
    return ops_dsrc(L, in, ir, t, n, ts);
}

/* ---- per-opcode lowering ---------------------------------------------------------- */

static int lower_arith(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    /* add sub mul mad div rem min max abs neg fma and friends */
    int op = ir->op;
    if (!want_ntypes(L, in, md, 1))
        return 0;
    ptx_type t = md->types[0];
    ir->type = (uint8_t)t;
    int isf = ptx_type_is_float(t);
    ir->flags |= fp_flags(md);
    if (md->rnd >= 0)
        ir->rnd = (uint8_t)md->rnd;
    if (md->flags & F(APPROX))
        ir->flags |= IRF_APPROX;
    if (md->flags & F(FULL))
        ir->flags |= IRF_FULL;
    if (md->flags & F(CC))
        ir->flags |= IRF_CC;
    if (op == OP_ADDC || op == OP_SUBC || op == OP_MADC)
        ir->flags |= IRF_CI;
    if (md->flags & F(HI))
        ir->flags |= IRF_HI;
    if (md->flags & F(LO))
        ir->flags |= IRF_LO;
    if (md->flags & F(WIDE))
        ir->flags |= IRF_WIDE;

    int nsrc = 2;
    switch (op) {
    case OP_ABS: case OP_NEG: nsrc = 1; break;
    case OP_MAD: case OP_FMA: case OP_MADC: case OP_MAD24: case OP_SAD: nsrc = 3; break;
    default: break;
    }

    if (isf) {
        static const ptx_type fl_ops[] = {PT_F32, PT_F64, PT_F16, PT_F16X2, PT_BF16, PT_BF16X2, PT_NONE};
        if (!check_type(L, in, md, 0, fl_ops))
            return 0;
        if (op == OP_ADDC || op == OP_SUBC || op == OP_MADC || op == OP_MUL24 || op == OP_MAD24 ||
            op == OP_SAD || op == OP_REM || (md->flags & (F(CC) | F(HI) | F(LO) | F(WIDE)))) {
            diag_error(L->d, md->typelocs[0], "'%s' has no floating-point form like this", in->op);
            return 0;
        }
        if (t == PT_F64 && (md->flags & F(FTZ)) && op != OP_MIN && op != OP_MAX) {
            diag_error(L->d, in->loc, "'.ftz' is not valid on .f64 '%s'", in->op);
            return 0;
        }
        if ((md->flags & F(SAT)) && t == PT_F64) {
            diag_error(L->d, in->loc, "'.sat' is not valid on .f64 '%s'", in->op);
            return 0;
        }
        if (op == OP_DIV) {
            int n = (md->rnd >= 0) + !!(md->flags & F(APPROX)) + !!(md->flags & F(FULL));
            if (n != 1) {
                diag_error(L->d, in->loc, "'div.%s' needs exactly one of .approx, .full or a rounding modifier",
                           ptx_type_names[t] + 1);
                return 0;
            }
            if (t != PT_F32 && t != PT_F64) {
                diag_error(L->d, md->typelocs[0], "type '%s' is not valid for 'div'", ptx_type_names[t]);
                return 0;
            }
            if (t == PT_F64 && md->rnd < 0) {
                diag_error(L->d, in->loc, "'div.f64' needs a rounding modifier");
                return 0;
            }
        } else if (md->flags & (F(APPROX) | F(FULL))) {
            diag_error(L->d, in->loc, "'%s' has no .approx/.full form", in->op);
            return 0;
        }
        if ((op == OP_FMA || (op == OP_MAD && t == PT_F64)) && md->rnd < 0) {
            diag_error(L->d, in->loc, "'%s.%s' needs a rounding modifier", in->op,
                       ptx_type_names[t] + 1);
            return 0;
        }
        if ((op == OP_MIN || op == OP_MAX || op == OP_ABS || op == OP_NEG) && md->rnd >= 0) {
            diag_error(L->d, in->loc, "'%s' cannot take a rounding modifier", in->op);
            return 0;
        }
        if (md->rnd == FP_RNA) {
            diag_error(L->d, in->loc, "'.rna' is only valid on cvt");
            return 0;
        }
        if (op == OP_MAD)
            ir->op = OP_FMA; /* mad.f32/f64 is fma (sm_20 and later) */
        return ops_same(L, in, ir, nsrc, t);
    }

    /* packed 16-bit integers (sm_90): add.{u16x2,s16x2}, min/max.{u16x2,s16x2} and
     * min/max.relu.s16x2; nothing else takes them, and add has no .sat form */
    if (ptx_type_is_int16x2(t)) {
        if (op != OP_ADD && op != OP_MIN && op != OP_MAX) {
            diag_error(L->d, md->typelocs[0], "type '%s' is not valid for '%s'", ptx_type_names[t],
                       in->op);
            return 0;
        }
        if ((md->flags & F(RELU)) && (op == OP_ADD || t != PT_S16X2)) {
            diag_error(L->d, in->loc, "'.relu' is only valid on min/max .s16x2 and .s32");
            return 0;
        }
        if ((md->flags & ~F(RELU)) || md->rnd >= 0) {
            diag_error(L->d, in->loc, "'%s%s' takes no modifier but min/max's .relu", in->op,
                       ptx_type_names[t]);
            return 0;
        }
        return ops_same(L, in, ir, 2, t);
    }

    /* integer forms */
    if (md->types[0] == PT_PRED || md->types[0] == PT_B8 || md->types[0] == PT_U8 ||
        md->types[0] == PT_S8 || md->types[0] == PT_B128 || md->types[0] == PT_TF32) {
        diag_error(L->d, md->typelocs[0], "type '%s' is not valid for '%s'", ptx_type_names[t],
                   in->op);
        return 0;
    }
    uint64_t allowed_fl = 0;
    if ((op == OP_ADD || op == OP_SUB) && t == PT_S32)
        allowed_fl = F(SAT);
    if (op == OP_MAD && t == PT_S32 && (md->flags & F(HI)))
        allowed_fl = F(SAT);
    if (op == OP_MAD24 && t == PT_S32 && (md->flags & F(HI)))
        allowed_fl = F(SAT);
    if ((op == OP_MIN || op == OP_MAX) && (md->flags & F(RELU)))
        allowed_fl = F(RELU);
    if (!no_float_mods(L, in, md, allowed_fl))
        return 0;
    if (md->flags & (F(XORSIGN) | F(ABS))) {
        diag_error(L->d, in->loc, "'.xorsign.abs' is only valid on 16-bit float min/max");
        return 0;
    }
    if (op == OP_ABS || op == OP_NEG) {
        if (!check_type(L, in, md, 0, T_SINT))
            return 0;
        return ops_same(L, in, ir, 1, t);
    }
    if (op == OP_ADDC || op == OP_SUBC || (md->flags & F(CC))) {
        if (!check_type(L, in, md, 0, T_I32_64))
            return 0;
    } else if (!check_type(L, in, md, 0, T_INT16_64)) {
        return 0;
    }
    int nmode = !!(md->flags & F(HI)) + !!(md->flags & F(LO)) + !!(md->flags & F(WIDE));
    if (op == OP_MUL || op == OP_MAD || op == OP_MADC || op == OP_MUL24 || op == OP_MAD24) {
        if (nmode > 1) {
            diag_error(L->d, in->loc, "'%s' takes one of .lo, .hi, .wide", in->op);
            return 0;
        }
        if (nmode == 0)
            ir->flags |= IRF_LO; /* ptxas accepts the bare form as .lo */
        if ((op == OP_MUL24 || op == OP_MAD24) && !type_in(t, T_U32_S32)) {
            diag_error(L->d, md->typelocs[0], "'%s' is only for .u32/.s32", in->op);
            return 0;
        }
        if ((op == OP_MUL24 || op == OP_MAD24 || op == OP_MADC) && (md->flags & F(WIDE))) {
            diag_error(L->d, in->loc, "'%s' has no .wide form", in->op);
            return 0;
        }
        if (md->flags & F(WIDE)) {
            ptx_type w = wide_type(t);
            if (w == PT_NONE) {
                diag_error(L->d, md->typelocs[0], "'%s.wide' needs a 16- or 32-bit type", in->op);
                return 0;
            }
            ir->type2 = (uint8_t)w;
            if (op == OP_MAD) {
                ptx_type ts[3] = {t, t, w};
                return ops_dsrc(L, in, ir, w, 3, ts);
            }
        }
        if ((md->flags & F(CC)) && op == OP_MAD && (md->flags & F(WIDE))) {
            diag_error(L->d, in->loc, "'mad.wide' cannot take .cc");
            return 0;
        }
    } else if (nmode) {
        diag_error(L->d, in->loc, "'%s' cannot take .lo/.hi/.wide", in->op);
        return 0;
    }
    /* .wide: a double-width destination (and mad's addend, above) */
    ptx_type ts[3] = {t, t, t};
    return ops_dsrc(L, in, ir, (md->flags & F(WIDE)) ? wide_type(t) : t, nsrc, ts);
}

static int lower_sfu(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    /* sin cos lg2 ex2 tanh rcp sqrt rsqrt */
    if (!want_ntypes(L, in, md, 1))
        return 0;
    ptx_type t = md->types[0];
    ir->type = (uint8_t)t;
    int op = ir->op;
    int approx = !!(md->flags & F(APPROX));
    if (approx)
        ir->flags |= IRF_APPROX;
    if (md->flags & F(FTZ))
        ir->flags |= IRF_FTZ;
    if (md->rnd >= 0)
        ir->rnd = (uint8_t)md->rnd;
    if (op == OP_RCP || op == OP_SQRT) {
        if (!check_type(L, in, md, 0, T_F32_64))
            return 0;
        if (approx == (md->rnd >= 0)) {
            diag_error(L->d, in->loc, "'%s' needs exactly one of .approx or a rounding modifier",
                       in->op);
            return 0;
        }
        if (md->rnd == FP_RNA) {
            diag_error(L->d, in->loc, "'.rna' is only valid on cvt");
            return 0;
        }
        if (t == PT_F64 && approx && !(op == OP_RCP && (md->flags & F(FTZ)))) {
            diag_error(L->d, in->loc, "'%s.approx.f64' is only available as rcp.approx.ftz.f64",
                       in->op);
            return 0;
        }
        if (t == PT_F64 && !approx && (md->flags & F(FTZ))) {
            diag_error(L->d, in->loc, "'.ftz' is not valid on .f64 '%s'", in->op);
            return 0;
        }
    } else {
        if (!approx) {
            diag_error(L->d, in->loc, "'%s' needs .approx", in->op);
            return 0;
        }
        if (md->rnd >= 0) {
            diag_error(L->d, in->loc, "'%s' cannot take a rounding modifier", in->op);
            return 0;
        }
        if (op == OP_RSQRT) {
            if (!check_type(L, in, md, 0, T_F32_64))
                return 0;
        } else if (t != PT_F32) {
            if (is_half(t))
                diag_unsupported(L->d, md->typelocs[0], "'%s.approx%s' is not supported yet",
                                 in->op, ptx_type_names[t]);
            else
                diag_error(L->d, md->typelocs[0], "type '%s' is not valid for '%s'",
                           ptx_type_names[t], in->op);
            return 0;
        }
    }
    return ops_same(L, in, ir, 1, t);
}

static int lower_bits(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    int op = ir->op;
    if (!want_ntypes(L, in, md, op == OP_DP4A || op == OP_DP2A ? 2 : 1))
        return 0;
    ptx_type t = md->types[0];
    ir->type = (uint8_t)t;
    switch (op) {
    case OP_AND: case OP_OR: case OP_XOR:
    case OP_NOT: case OP_CNOT: {
        if (!check_type(L, in, md, 0, op == OP_CNOT ? T_BITS : T_BITS_PRED))
            return 0;
        int n = (op == OP_NOT || op == OP_CNOT) ? 1 : 2;
        if (t == PT_PRED) {
            if (!want_nops(L, in, (uint32_t)n + 1, (uint32_t)n + 1))
                return 0;
            if (in->ops[0].kind != AO_NAME ||
                !dst_pred(L, in, in->ops[0].name, in->ops[0].loc, &ir->d[0]))
                return 0;
            ir->ndst = 1;
            for (int i = 0; i < n; i++)
                if (!src_pred(L, in, &in->ops[i + 1], &ir->s[i]))
                    return 0;
            ir->nsrc = (uint8_t)n;
            return 1;
        }
        return ops_same(L, in, ir, n, t);
    }
    case OP_POPC: case OP_CLZ: case OP_BREV:
        if (!check_type(L, in, md, 0, T_B32_64))
            return 0;
        /* popc and clz count into a .u32 */
        return ops_dsrc(L, in, ir, op == OP_BREV ? t : PT_U32, 1, &t);
    case OP_BFIND:
        if (!check_type(L, in, md, 0, T_I32_64))
            return 0;
        if (md->flags & F(SHIFTAMT))
            ir->flags |= IRF_SHIFTAMT;
        return ops_dsrc(L, in, ir, PT_U32, 1, &t); /* a bit position: .u32 */
    case OP_SHL: case OP_SHR: {
        if (!check_type(L, in, md, 0, op == OP_SHL ? T_BITS : T_SHR))
            return 0;
        ptx_type ts[2] = {t, PT_U32}; /* the shift amount is .u32 */
        return ops_dsrc(L, in, ir, t, 2, ts);
    }
    case OP_BFE: {
        if (!check_type(L, in, md, 0, T_I32_64))
            return 0;
        ptx_type ts[3] = {t, PT_U32, PT_U32};
        return ops_dsrc(L, in, ir, t, 3, ts);
    }
    case OP_BFI: {
        if (!check_type(L, in, md, 0, T_B32_64))
            return 0;
        ptx_type ts[4] = {t, t, PT_U32, PT_U32};
        return ops_dsrc(L, in, ir, t, 4, ts);
    }
    case OP_BMSK: case OP_SZEXT: {
        if (!check_type(L, in, md, 0, op == OP_BMSK ? T_B32 : T_U32_S32))
            return 0;
        int c = !!(md->flags & F(CLAMP)), w = !!(md->flags & F(WRAP));
        if (c + w != 1) {
            diag_error(L->d, in->loc, "'%s' needs one of .clamp or .wrap", in->op);
            return 0;
        }
        if (c)
            ir->flags |= IRF_CLAMP;
        ptx_type ts[2] = {PT_U32, PT_U32};
        if (op == OP_SZEXT)
            ts[0] = t;
        /* bmsk's .b32 result takes no float register (as ptxas) */
        return ops_dsrc(L, in, ir, op == OP_BMSK ? PT_U32 : t, 2, ts);
    }
    case OP_SHF: {
        if (!check_type(L, in, md, 0, T_B32))
            return 0;
        int l = !!(md->flags & F(L)), r = !!(md->flags & F(R));
        int c = !!(md->flags & F(CLAMP)), w = !!(md->flags & F(WRAP));
        if (l + r != 1 || c + w != 1) {
            diag_error(L->d, in->loc, "'shf' needs one of .l/.r and one of .clamp/.wrap");
            return 0;
        }
        if (l)
            ir->flags |= IRF_LEFT;
        if (c)
            ir->flags |= IRF_CLAMP;
        ptx_type ts[3] = {PT_B32, PT_B32, PT_U32};
        return ops_dsrc(L, in, ir, PT_B32, 3, ts);
    }
    case OP_PRMT: {
        if (!check_type(L, in, md, 0, T_B32))
            return 0;
        ir->mode = (uint8_t)(md->prmt >= 0 ? md->prmt : PRMT_DEFAULT);
        return ops_same(L, in, ir, 3, PT_B32);
    }
    case OP_LOP3: {
        if (!check_type(L, in, md, 0, T_B32))
            return 0;
        if (!want_nops(L, in, 5, 5))
            return 0;
        if (in->ops[4].kind != AO_INT || in->ops[4].bits > 255) {
            diag_error(L->d, in->ops[4].loc, "lop3's last operand must be a constant 0..255");
            return 0;
        }
        ir->imm = (int64_t)in->ops[4].bits;
        if (!dst_reg(L, in, &in->ops[0], PT_B32, &ir->d[0]))
            return 0;
        ir->ndst = 1;
        for (int i = 0; i < 3; i++)
            if (!src_opnd(L, in, &in->ops[i + 1], PT_B32, &ir->s[i]))
                return 0;
        ir->nsrc = 3;
        return 1;
    }
    case OP_DP4A: case OP_DP2A: {
        if (!check_type(L, in, md, 0, T_U32_S32) || !check_type(L, in, md, 1, T_U32_S32))
            return 0;
        ir->type2 = (uint8_t)md->types[1];
        if (op == OP_DP2A) {
            int lo = !!(md->flags & F(LO)), hi = !!(md->flags & F(HI));
            if (lo + hi != 1) {
                diag_error(L->d, in->loc, "'dp2a' needs one of .lo or .hi");
                return 0;
            }
            if (hi)
                ir->flags |= IRF_HI;
        }
        /* a and b have the two types; c and d are .s32 if either is signed */
        ptx_type cd = md->types[0] == PT_S32 || md->types[1] == PT_S32 ? PT_S32 : PT_U32;
        ptx_type ts[3] = {md->types[0], md->types[1], cd};
        return ops_dsrc(L, in, ir, cd, 3, ts);
    }
    case OP_COPYSIGN:
        if (!check_type(L, in, md, 0, T_F32_64))
            return 0;
        return ops_same(L, in, ir, 2, t);
    default:
        return 0;
    }
}

/* set's destination and source types (the PTX ISA's "Comparison Instructions:
 * set" and "Half Precision Comparison Instructions: set", as ptxas takes them):
 *   .u32 .s32              from any source type
 *   .f32                   from any but the 16-bit float types
 *   .f16                   from any but .bf16 and the x2 types
 *   .bf16                  from any but the x2 types
 *   .u16 .s16              from .f16 or .bf16
 *   .f16x2, .bf16x2        from the same type
 * .ftz is not valid on a .bf16 destination or a .bf16/.bf16x2 source. */
static int set_types_ok(lower *L, const ast_insn *in, const mods *md)
{
    ptx_type dt = md->types[0], st = md->types[1];
    int ok;
    switch (dt) {
    case PT_U32: case PT_S32: ok = 1; break;
    case PT_F32: ok = !is_half(st); break;
    case PT_F16: ok = st != PT_BF16 && st != PT_F16X2 && st != PT_BF16X2; break;
    case PT_BF16: ok = st != PT_F16X2 && st != PT_BF16X2; break;
    case PT_U16: case PT_S16: ok = st == PT_F16 || st == PT_BF16; break;
    case PT_F16X2: ok = st == PT_F16X2; break;
    case PT_BF16X2: ok = st == PT_BF16X2; break;
    default: ok = 0; break;
    }
    if (!ok) {
        diag_error(L->d, md->typelocs[0], "'set%s%s' is not a valid form of set",
                   ptx_type_names[dt], ptx_type_names[st]);
        return 0;
    }
    if ((md->flags & F(FTZ)) && (dt == PT_BF16 || st == PT_BF16 || st == PT_BF16X2)) {
        diag_error(L->d, in->loc, "'.ftz' is not valid on a .bf16 'set'");
        return 0;
    }
    return 1;
}

static int lower_cmp(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    int op = ir->op;
    if (op == OP_SETP || op == OP_SET) {
        int nt = op == OP_SETP ? 1 : 2;
        if (!want_ntypes(L, in, md, nt))
            return 0;
        ptx_type st = md->types[nt - 1];
        if (!check_type(L, in, md, nt - 1, T_SETP))
            return 0;
        if (md->cmp < 0) {
            diag_error(L->d, in->loc, "'%s' needs a comparison (.eq, .lt, ...)", in->op);
            return 0;
        }
        int isf = ptx_type_is_float(st);
        if (!isf && md->cmp >= CMP_EQU) {
            diag_error(L->d, in->loc, "'%s' on integers cannot use an unordered comparison", in->op);
            return 0;
        }
        if (isf && md->cmp >= CMP_LO && md->cmp <= CMP_HS) {
            diag_error(L->d, in->loc, "'%s' on floats cannot use .lo/.ls/.hi/.hs", in->op);
            return 0;
        }
        if ((md->flags & F(FTZ)) && st != PT_F32 && !is_half(st)) {
            diag_error(L->d, in->loc, "'.ftz' is only valid on .f32 and 16-bit float comparisons");
            return 0;
        }
        if (md->boolop == BOP_POPC) {
            diag_error(L->d, in->loc, "'.popc' is not valid for '%s'", in->op);
            return 0;
        }
        ir->mode = (uint8_t)md->cmp;
        ir->bop = (uint8_t)(md->boolop >= 0 ? md->boolop : BOP_NONE);
        ir->type = (uint8_t)(op == OP_SETP ? st : md->types[0]);
        ir->type2 = (uint8_t)st;
        if (md->flags & F(FTZ))
            ir->flags |= IRF_FTZ;
        if (op == OP_SET && !set_types_ok(L, in, md))
            return 0;
        uint32_t want = ir->bop != BOP_NONE ? 4 : 3;
        if (!want_nops(L, in, want, want))
            return 0;
        const ast_opnd *d = &in->ops[0];
        if (op == OP_SETP) {
            if (d->kind == AO_PAIR) {
                if (!dst_pred(L, in, d->name, d->loc, &ir->d[0]) ||
                    !dst_pred(L, in, d->name2, d->loc, &ir->d[1]))
                    return 0;
                ir->ndst = 2;
            } else if (d->kind == AO_NAME && !d->off) {
                if (!dst_pred(L, in, d->name, d->loc, &ir->d[0]))
                    return 0;
                ir->ndst = 1;
            } else {
                diag_error(L->d, d->loc, "setp needs a predicate destination");
                return 0;
            }
        } else {
            if (!dst_reg(L, in, d, md->types[0], &ir->d[0]))
                return 0;
            ir->ndst = 1;
        }
        if (!src_opnd(L, in, &in->ops[1], st, &ir->s[0]) ||
            !src_opnd(L, in, &in->ops[2], st, &ir->s[1]))
            return 0;
        ir->nsrc = 2;
        if (ir->bop != BOP_NONE) {
            if (!src_pred(L, in, &in->ops[3], &ir->s[2]))
                return 0;
            ir->nsrc = 3;
            ir->flags |= IRF_HAS_C;
        }
        return 1;
    }
    if (op == OP_SELP) {
        if (!want_ntypes(L, in, md, 1))
            return 0;
        ptx_type t = md->types[0];
        static const ptx_type selt[] = {PT_B16, PT_B32, PT_B64, PT_U16, PT_U32, PT_U64, PT_S16,
                                        PT_S32, PT_S64, PT_F32, PT_F64, PT_NONE};
        if (!check_type(L, in, md, 0, selt))
            return 0;
        ir->type = (uint8_t)t;
        if (!want_nops(L, in, 4, 4))
            return 0;
        if (!dst_reg(L, in, &in->ops[0], t, &ir->d[0]) ||
            !src_opnd(L, in, &in->ops[1], t, &ir->s[0]) ||
            !src_opnd(L, in, &in->ops[2], t, &ir->s[1]) ||
            !src_pred(L, in, &in->ops[3], &ir->s[2]))
            return 0;
        ir->ndst = 1;
        ir->nsrc = 3;
        return 1;
    }
    if (op == OP_SLCT) {
        if (!want_ntypes(L, in, md, 2))
            return 0;
        static const ptx_type sd[] = {PT_B16, PT_B32, PT_B64, PT_U16, PT_U32, PT_U64, PT_S16,
                                      PT_S32, PT_S64, PT_F32, PT_F64, PT_NONE};
        static const ptx_type ss[] = {PT_S32, PT_F32, PT_NONE};
        if (!check_type(L, in, md, 0, sd) || !check_type(L, in, md, 1, ss))
            return 0;
        ir->type = (uint8_t)md->types[0];
        ir->type2 = (uint8_t)md->types[1];
        if (md->flags & F(FTZ))
            ir->flags |= IRF_FTZ;
        ptx_type ts[3] = {md->types[0], md->types[0], md->types[1]};
        return ops_dsrc(L, in, ir, md->types[0], 3, ts);
    }
    if (op == OP_TESTP) {
        if (!want_ntypes(L, in, md, 1) || !check_type(L, in, md, 0, T_F32_64))
            return 0;
        if (md->testp < 0) {
            diag_error(L->d, in->loc, "'testp' needs an operation (.finite, .nan, ...)");
            return 0;
        }
        ir->type = (uint8_t)md->types[0];
        ir->mode = (uint8_t)md->testp;
        if (!want_nops(L, in, 2, 2))
            return 0;
        if (in->ops[0].kind != AO_NAME ||
            !dst_pred(L, in, in->ops[0].name, in->ops[0].loc, &ir->d[0]))
            return 0;
        ir->ndst = 1;
        if (!src_opnd(L, in, &in->ops[1], md->types[0], &ir->s[0]))
            return 0;
        ir->nsrc = 1;
        return 1;
    }
    return 0;
}

static int lower_cvt(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    if (!want_ntypes(L, in, md, 2))
        return 0;
    ptx_type dt = md->types[0], st = md->types[1];
    if (!check_type(L, in, md, 0, T_CVT) || !check_type(L, in, md, 1, T_CVT))
        return 0;
    ir->type = (uint8_t)dt;
    ir->type2 = (uint8_t)st;
    if (dt == PT_BF16 || dt == PT_BF16X2 || dt == PT_TF32 || st == PT_BF16 || st == PT_BF16X2 ||
        st == PT_TF32)
        L->tc = TC_STRICT; /* ptxas takes no wider register in these */
    int df = ptx_type_is_float(dt), sf = ptx_type_is_float(st);
    if (md->irnd >= 0) {
        if (!sf) {
            diag_error(L->d, in->loc, "an integer rounding modifier needs a floating-point source");
            return 0;
        }
        ir->rnd = (uint8_t)md->irnd;
        ir->flags |= IRF_IRND;
        if (df && dt != st) {
            diag_error(L->d, in->loc, "'.rni/.rzi/.rmi/.rpi' with a float destination need equal types");
            return 0;
        }
    } else if (md->rnd >= 0) {
        ir->rnd = (uint8_t)md->rnd;
        if (!df) {
            diag_error(L->d, in->loc, "float-to-integer cvt uses .rni/.rzi/.rmi/.rpi, not '.r%c'",
                       "nzmpa"[md->rnd]);
            return 0;
        }
    } else {
        ir->rnd = FP_RN;
        /* PTX requires a rounding modifier for every conversion that can round */
        int needs = (df && !sf) || (!df && sf) ||
                    (df && sf && ptx_type_size(dt) < ptx_type_size(st));
        if (needs && !(dt == PT_F32 && st == PT_F16) && !(dt == PT_F32 && st == PT_BF16)) {
            diag_error(L->d, in->loc, "'cvt%s%s' needs a rounding modifier", ptx_type_names[dt],
                       ptx_type_names[st]);
            return 0;
        }
    }
    ir->flags |= fp_flags(md);
    if (dt == PT_F16X2 || dt == PT_BF16X2) {
        /* cvt.rn.f16x2.f32 d, a, b: pack two converted values (a in the upper half) */
        if (st != PT_F32) {
            diag_error(L->d, in->loc, "'cvt%s' packs two .f32 values", ptx_type_names[dt]);
            return 0;
        }
        ptx_type ts[2] = {PT_F32, PT_F32};
        ir->flags |= IRF_PACK;
        return ops_dsrc(L, in, ir, dt, 2, ts);
    }
    if (st == PT_F16X2 || st == PT_BF16X2 || dt == PT_TF32 || st == PT_TF32) {
        if (dt == PT_TF32 && st == PT_F32 && md->rnd == FP_RNA)
            return ops_dsrc(L, in, ir, dt, 1, &st);
        diag_unsupported(L->d, in->loc, "'cvt%s%s' is not supported", ptx_type_names[dt],
                         ptx_type_names[st]);
        return 0;
    }
    if (md->rnd == FP_RNA) {
        diag_error(L->d, in->loc, "'.rna' is only valid for cvt.rna.tf32.f32");
        return 0;
    }
    /* each side is checked against its own type */
    return ops_dsrc(L, in, ir, dt, 1, &st);
}

static int lower_mov(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    if (!want_ntypes(L, in, md, 1) || !check_type(L, in, md, 0, T_MOV))
        return 0;
    ptx_type t = md->types[0];
    ir->type = (uint8_t)t;
    if (!want_nops(L, in, 2, 2))
        return 0;
    const ast_opnd *d = &in->ops[0], *s = &in->ops[1];
    if (t == PT_PRED) {
        if (d->kind != AO_NAME || !dst_pred(L, in, d->name, d->loc, &ir->d[0]) ||
            !src_pred(L, in, s, &ir->s[0]))
            return 0;
        ir->ndst = ir->nsrc = 1;
        return 1;
    }
    if (t == PT_B128) {
        diag_unsupported(L->d, md->typelocs[0], "'mov.b128' is not supported yet");
        return 0;
    }
    if (d->kind == AO_VEC || s->kind == AO_VEC) {
        const ast_opnd *v = d->kind == AO_VEC ? d : s;
        if (d->kind == AO_VEC && s->kind == AO_VEC) {
            diag_error(L->d, d->loc, "mov cannot have vectors on both sides");
            return 0;
        }
        uint32_t n = v->nelems;
        int bits = ptx_type_bits(t);
        if (n < 2 || n > 4 || (uint32_t)bits % n || bits / (int)n < 8) {
            diag_error(L->d, v->loc, "a %d-bit mov cannot be split into %u parts", bits, n);
            return 0;
        }
        ptx_type et = bits / (int)n == 8 ? PT_B8 : bits / (int)n == 16 ? PT_B16 : PT_B32;
        ir->vec = (uint8_t)n;
        if (d->kind == AO_VEC) {
            ir->flags |= IRF_UNPACK;
            for (uint32_t i = 0; i < n; i++)
                if (!dst_reg(L, in, &d->elems[i], et, &ir->d[i]))
                    return 0;
            ir->ndst = (uint8_t)n;
            if (!src_opnd(L, in, s, t, &ir->s[0]))
                return 0;
            ir->nsrc = 1;
        } else {
            ir->flags |= IRF_PACK;
            if (!dst_reg(L, in, d, t, &ir->d[0]))
                return 0;
            ir->ndst = 1;
            for (uint32_t i = 0; i < n; i++)
                if (!src_opnd(L, in, &s->elems[i], et, &ir->s[i]))
                    return 0;
            ir->nsrc = (uint8_t)n;
        }
        return 1;
    }
    if (!dst_reg(L, in, d, t, &ir->d[0]) || !src_opnd(L, in, s, t, &ir->s[0]))
        return 0;
    ir->ndst = ir->nsrc = 1;
    return 1;
}

static int lower_cvta(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    if (!want_ntypes(L, in, md, 1))
        return 0;
    static const ptx_type ct[] = {PT_U32, PT_U64, PT_NONE};
    if (!check_type(L, in, md, 0, ct))
        return 0;
    if (md->space < 0 || md->space == SP_GENERIC) {
        diag_error(L->d, in->loc, "'cvta' needs a state space (.global, .shared, .local, .const, .param)");
        return 0;
    }
    ir->type = (uint8_t)md->types[0];
    ir->space = (uint8_t)md->space;
    if (md->flags & F(TO))
        ir->flags |= IRF_TO;
    if (ir->space == SP_PARAM && !L->f->is_entry) {
        ir->space = SP_LOCAL; /* function parameters live in the local frame */
    } else if (ir->space == SP_PARAM) {
        ir->space = SP_KPARAM;
    }
    return ops_same(L, in, ir, 1, md->types[0]);
}

/* The value operands of st, atom and red are registers or immediates:
 * ptxas refuses a special register there ("Special register argument not
 * allowed"), and so does lockstep, with the same reason. */
static int memory_value_ok(lower *L, const ast_insn *in, const ast_opnd *o, const ir_opnd *v)
{
    if (v->kind == IRO_REG || v->kind == IRO_CONST)
        return 1;
    diag_error(L->d, o->loc, "%s not allowed as the value of '%s' (use mov into a register first)",
               v->kind == IRO_SREG ? "a special register is" : "this operand is", in->op);
    return 0;
}

static int lower_mem(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    int op = ir->op;
    if (!want_ntypes(L, in, md, 1) || !check_type(L, in, md, 0, T_MEM))
        return 0;
    ptx_type t = md->types[0];
    ir->type = (uint8_t)t;
    ir->space = (uint8_t)(md->space >= 0 ? md->space : SP_GENERIC);
    ir->sem = (uint8_t)(md->sem >= 0 ? md->sem : SEM_NONE);
    ir->scope = (uint8_t)(md->scope >= 0 ? md->scope : SCOPE_NONE);
    ir->cache = (uint8_t)(md->cache >= 0 ? md->cache : CACHE_NONE);
    ir->vec = (uint8_t)md->vec;
    if (ir->sem == SEM_VOLATILE)
        ir->flags |= IRF_VOLATILE;
    if (md->vec == 8 || (md->vec > 1 && ptx_type_size(t) * md->vec > 16) || t == PT_B128) {
        diag_unsupported(L->d, in->loc, "'%s' of more than 16 bytes is not supported", in->op);
        return 0;
    }
    if ((ir->sem == SEM_ACQUIRE || ir->sem == SEM_RELAXED || ir->sem == SEM_RELEASE) &&
        ir->scope == SCOPE_NONE) {
        diag_error(L->d, in->loc, "'%s' with %s semantics needs a scope (.cta, .gpu, .sys)",
                   in->op, ir->sem == SEM_ACQUIRE ? ".acquire" : ir->sem == SEM_RELEASE ? ".release" : ".relaxed");
        return 0;
    }
    if (op == OP_LD && ir->sem == SEM_RELEASE) {
        diag_error(L->d, in->loc, "'ld' cannot have .release semantics");
        return 0;
    }
    if (op == OP_ST && ir->sem == SEM_ACQUIRE) {
        diag_error(L->d, in->loc, "'st' cannot have .acquire semantics");
        return 0;
    }
    if (ir->cache == CACHE_NC && (op != OP_LD || ir->space != SP_GLOBAL)) {
        diag_error(L->d, in->loc, "'.nc' is only valid on ld.global");
        return 0;
    }
    if (!want_nops(L, in, 2, 2))
        return 0;
    int n = md->vec;
    const ast_opnd *val = op == OP_ST ? &in->ops[1] : &in->ops[0];
    const ast_opnd *adr = op == OP_ST ? &in->ops[0] : &in->ops[1];
    if (n > 1) {
        if (val->kind != AO_VEC || val->nelems != (uint32_t)n) {
            diag_error(L->d, val->loc, "'.v%d' needs a vector operand of %d registers", n, n);
            return 0;
        }
    } else if (val->kind == AO_VEC) {
        diag_error(L->d, val->loc, "a vector operand needs '.v2' or '.v4'");
        return 0;
    }
    if (n > 1)
        L->tc = TC_VECTOR;
    for (int i = 0; i < n; i++) {
        const ast_opnd *e = n > 1 ? &val->elems[i] : val;
        if (op == OP_ST) {
            if (!src_opnd(L, in, e, t, &ir->s[i]) || !memory_value_ok(L, in, e, &ir->s[i]))
                return 0;
        } else if (!dst_reg(L, in, e, t, &ir->d[i])) {
            return 0;
        }
    }
    if (op == OP_ST)
        ir->nsrc = (uint8_t)n;
    else
        ir->ndst = (uint8_t)n;
    int said_param = ir->space == SP_PARAM;
    if (!addr_opnd(L, in, adr, ir))
        return 0;
    if (said_param && ir->space == SP_LOCAL)
        ir->flags |= IRF_FPARAM;
    if (op == OP_ST && (ir->space == SP_KPARAM || ir->space == SP_CONST)) {
        diag_error(L->d, in->loc, "'st' cannot write %s space",
                   ir->space == SP_CONST ? ".const" : "kernel .param");
        return 0;
    }
    if (ir->space == SP_KPARAM && ir->addr.kind == IRO_NONE &&
        (ir->imm < 0 || (uint64_t)ir->imm + (uint64_t)(ptx_type_size(t) * n) > L->f->param_bytes)) {
        diag_error(L->d, adr->loc, "access beyond the kernel's %u bytes of parameters",
                   L->f->param_bytes);
        return 0;
    }
    if (op == OP_LDU)
        ir->op = OP_LD;
    return 1;
}

static int lower_atom(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    int op = ir->op;
    if (!want_ntypes(L, in, md, 1))
        return 0;
    ptx_type t = md->types[0];
    if (md->atomop < 0) {
        diag_error(L->d, in->loc, "'%s' needs an operation (.add, .cas, ...)", in->op);
        return 0;
    }
    if (md->vec != 1) {
        diag_unsupported(L->d, in->loc, "vector '%s' is not supported", in->op);
        return 0;
    }
    ir->type = (uint8_t)t;
    ir->mode = (uint8_t)md->atomop;
    ir->space = (uint8_t)(md->space >= 0 ? md->space : SP_GENERIC);
    ir->sem = (uint8_t)(md->sem >= 0 ? md->sem : SEM_NONE);
    ir->scope = (uint8_t)(md->scope >= 0 ? md->scope : SCOPE_NONE);
    if (ir->space != SP_GLOBAL && ir->space != SP_SHARED && ir->space != SP_GENERIC) {
        diag_error(L->d, in->loc, "'%s' works on .global, .shared or generic addresses", in->op);
        return 0;
    }
    if (md->cache >= 0) {
        diag_error(L->d, in->loc, "'%s' cannot take a cache operator", in->op);
        return 0;
    }
    /* which types each operation allows */
    static const ptx_type bitw[] = {PT_B32, PT_B64, PT_NONE};
    static const ptx_type addt[] = {PT_U32, PT_S32, PT_U64, PT_S64, PT_F32, PT_F64, PT_F16,
                                    PT_F16X2, PT_BF16, PT_BF16X2, PT_NONE};
    static const ptx_type minmax[] = {PT_U32, PT_S32, PT_U64, PT_S64, PT_NONE};
    static const ptx_type incdec[] = {PT_U32, PT_NONE};
    static const ptx_type exch[] = {PT_B32, PT_B64, PT_U32, PT_S32, PT_U64, PT_S64, PT_F32,
                                    PT_F64, PT_NONE};
    static const ptx_type cas[] = {PT_B16, PT_B32, PT_B64, PT_U32, PT_S32, PT_U64, PT_S64,
                                   PT_F32, PT_F64, PT_NONE};
    const ptx_type *ok = bitw;
    switch (md->atomop) {
    case ATOM_ADD: ok = addt; break;
    case ATOM_MIN: case ATOM_MAX: ok = minmax; break;
    case ATOM_INC: case ATOM_DEC: ok = incdec; break;
    case ATOM_EXCH: ok = exch; break;
    case ATOM_CAS: ok = cas; break;
    default: break;
    }
    if (!check_type(L, in, md, 0, ok))
        return 0;
    /* 16-bit float adds exist only as .add.noftz (f16, f16x2: sm_70; bf16,
     * bf16x2: sm_90), and .noftz only on them */
    if (is_half(t) && !(md->flags & F(NOFTZ))) {
        diag_error(L->d, in->loc, "'%s.add%s' needs .noftz", in->op, ptx_type_names[t]);
        return 0;
    }
    if (!is_half(t) && (md->flags & F(NOFTZ))) {
        diag_error(L->d, in->loc, "'.noftz' is only valid on a 16-bit float '%s.add'", in->op);
        return 0;
    }
    if (op == OP_RED && md->atomop == ATOM_CAS) {
        diag_error(L->d, in->loc, "'red' has no .cas form");
        return 0;
    }
    if (op == OP_RED && md->atomop == ATOM_EXCH) {
        diag_error(L->d, in->loc, "'red' has no .exch form");
        return 0;
    }
    int nsrc = md->atomop == ATOM_CAS ? 2 : 1;
    int first = op == OP_ATOM ? 1 : 0;
    if (!want_nops(L, in, (uint32_t)(first + 1 + nsrc), (uint32_t)(first + 1 + nsrc)))
        return 0;
    if (op == OP_ATOM) {
        if (!dst_reg(L, in, &in->ops[0], t, &ir->d[0]))
            return 0;
        ir->ndst = 1;
    }
    if (!addr_opnd(L, in, &in->ops[first], ir))
        return 0;
    if (ir->space != SP_GLOBAL && ir->space != SP_SHARED && ir->space != SP_GENERIC) {
        diag_error(L->d, in->ops[first].loc, "'%s' cannot address %s memory", in->op,
                   ptx_space_names[ir->space]);
        return 0;
    }
    for (int i = 0; i < nsrc; i++) {
        if (!src_opnd(L, in, &in->ops[first + 1 + i], t, &ir->s[i]))
            return 0;
        if (!memory_value_ok(L, in, &in->ops[first + 1 + i], &ir->s[i]))
            return 0;
    }
    ir->nsrc = (uint8_t)nsrc;
    return 1;
}

static int lower_bar(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    int mode = md->bar >= 0 ? md->bar : -1;
    if (md->flags & F(WARP)) {
        /* bar.warp.sync membermask */
        if (mode != BARM_SYNC) {
            diag_error(L->d, in->loc, "expected bar.warp.sync");
            return 0;
        }
        ir->mode = BARM_WARPSYNC;
        if (!want_nops(L, in, 1, 1) || !src_opnd(L, in, &in->ops[0], PT_U32, &ir->s[0]))
            return 0;
        ir->nsrc = 1;
        return 1;
    }
    if (mode < 0) {
        diag_error(L->d, in->loc, "'%s' needs .sync, .arrive or .red", in->op);
        return 0;
    }
    ir->mode = (uint8_t)mode;
    ir->scope = (uint8_t)(md->scope >= 0 ? md->scope : SCOPE_CTA);
    if (md->scope >= 0 && md->scope != SCOPE_CTA) {
        diag_error(L->d, in->loc, "'%s' only synchronizes a CTA (.cta)", in->op);
        return 0;
    }
    if (md->flags & F(ALIGNED))
        ir->flags |= IRF_ALIGNED;
    if (mode == BARM_RED) {
        if (md->boolop < 0) {
            diag_error(L->d, in->loc, "'%s.red' needs .popc, .and or .or", in->op);
            return 0;
        }
        if (md->boolop == BOP_XOR) {
            diag_error(L->d, in->loc, "'%s.red' has no .xor form", in->op);
            return 0;
        }
        ir->bop = (uint8_t)md->boolop;
        if (!want_ntypes(L, in, md, 1))
            return 0;
        ptx_type want = md->boolop == BOP_POPC ? PT_U32 : PT_PRED;
        if (md->types[0] != want) {
            diag_error(L->d, md->typelocs[0], "'%s.red%s' needs type %s", in->op,
                       md->boolop == BOP_POPC ? ".popc" : md->boolop == BOP_AND ? ".and" : ".or",
                       ptx_type_names[want]);
            return 0;
        }
        ir->type = (uint8_t)want;
        if (!want_nops(L, in, 3, 4))
            return 0;
        if (!dst_typed(L, in, &in->ops[0], want, &ir->d[0]))
            return 0;
        ir->ndst = 1;
        if (!src_opnd(L, in, &in->ops[1], PT_U32, &ir->s[0]))
            return 0;
        if (in->nops == 4) {
            if (!src_opnd(L, in, &in->ops[2], PT_U32, &ir->s[1]))
                return 0;
            ir->flags |= IRF_HAS_C;
        }
        if (!src_pred(L, in, &in->ops[in->nops - 1], &ir->s[2]))
            return 0;
        ir->nsrc = 3;
        return 1;
    }
    if (md->boolop >= 0 || md->ntypes) {
        diag_error(L->d, in->loc, "'%s.%s' takes no type or reduction", in->op,
                   mode == BARM_SYNC ? "sync" : "arrive");
        return 0;
    }
    if (!want_nops(L, in, mode == BARM_ARRIVE ? 2 : 1, 2))
        return 0;
    if (!src_opnd(L, in, &in->ops[0], PT_U32, &ir->s[0]))
        return 0;
    ir->nsrc = 1;
    if (in->nops == 2) {
        if (!src_opnd(L, in, &in->ops[1], PT_U32, &ir->s[1]))
            return 0;
        ir->nsrc = 2;
        ir->flags |= IRF_HAS_C;
    }
    return 1;
}

static int lower_warp(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    int op = ir->op;
    int sync = !!(md->flags & F(SYNC));
    if (sync)
        ir->flags |= IRF_SYNC;
    if (op == OP_ACTIVEMASK) {
        if (!want_ntypes(L, in, md, 1) || !check_type(L, in, md, 0, T_B32))
            return 0;
        ir->type = PT_B32;
        if (!want_nops(L, in, 1, 1) || !dst_reg(L, in, &in->ops[0], PT_B32, &ir->d[0]))
            return 0;
        ir->ndst = 1;
        return 1;
    }
    if (op == OP_VOTE) {
        if (md->vote < 0) {
            diag_error(L->d, in->loc, "'vote' needs .all, .any, .uni or .ballot");
            return 0;
        }
        ir->mode = (uint8_t)md->vote;
        if (!want_ntypes(L, in, md, 1))
            return 0;
        ptx_type want = md->vote == VOTE_BALLOT ? PT_B32 : PT_PRED;
        if (md->types[0] != want) {
            diag_error(L->d, md->typelocs[0], "'vote%s' needs type %s",
                       md->vote == VOTE_BALLOT ? ".ballot" : "", ptx_type_names[want]);
            return 0;
        }
        ir->type = (uint8_t)want;
        if (!want_nops(L, in, sync ? 3 : 2, sync ? 3 : 2))
            return 0;
        if (!dst_typed(L, in, &in->ops[0], want, &ir->d[0]))
            return 0;
        ir->ndst = 1;
        if (!src_pred(L, in, &in->ops[1], &ir->s[0]))
            return 0;
        ir->nsrc = 1;
        if (sync) { /* membermask: an integer (ptxas refuses a float register) */
            if (!src_opnd(L, in, &in->ops[2], PT_U32, &ir->s[1]))
                return 0;
            ir->nsrc = 2;
        }
        return 1;
    }
    if (op == OP_SHFL) {
        if (md->shfl < 0) {
            diag_error(L->d, in->loc, "'shfl' needs .up, .down, .bfly or .idx");
            return 0;
        }
        ir->mode = (uint8_t)md->shfl;
        if (!want_ntypes(L, in, md, 1) || !check_type(L, in, md, 0, T_B32))
            return 0;
        ir->type = PT_B32;
        if (!want_nops(L, in, sync ? 5 : 4, sync ? 5 : 4))
            return 0;
        if (!dst_value_or_pair(L, in, &in->ops[0], PT_B32, ir, 1))
            return 0;
        for (int i = 0; i < (sync ? 4 : 3); i++)
            if (!src_opnd(L, in, &in->ops[i + 1], i == 3 ? PT_U32 : PT_B32, &ir->s[i]))
                return 0; /* (the membermask is an integer) */
        ir->nsrc = (uint8_t)(sync ? 4 : 3);
        return 1;
    }
    if (op == OP_MATCH) {
        if (!sync) {
            diag_error(L->d, in->loc, "'match' needs .sync");
            return 0;
        }
        if (md->match < 0) {
            diag_error(L->d, in->loc, "'match' needs .any or .all");
            return 0;
        }
        ir->mode = (uint8_t)md->match;
        if (!want_ntypes(L, in, md, 1) || !check_type(L, in, md, 0, T_B32_64))
            return 0;
        ir->type = (uint8_t)md->types[0];
        if (!want_nops(L, in, 3, 3))
            return 0;
        if (!dst_value_or_pair(L, in, &in->ops[0], PT_U32, ir, md->match == MATCH_ALL))
            return 0;
        if (!src_opnd(L, in, &in->ops[1], md->types[0], &ir->s[0]) ||
            !src_opnd(L, in, &in->ops[2], PT_U32, &ir->s[1]))
            return 0;
        ir->nsrc = 2;
        return 1;
    }
    if (op == OP_REDUX) {
        if (!sync || md->atomop < 0) {
            diag_error(L->d, in->loc, "'redux' needs .sync and an operation");
            return 0;
        }
        ir->mode = (uint8_t)md->atomop;
        if (!want_ntypes(L, in, md, 1))
            return 0;
        static const ptx_type arith[] = {PT_U32, PT_S32, PT_NONE};
        int logical = md->atomop == ATOM_AND || md->atomop == ATOM_OR || md->atomop == ATOM_XOR;
        if (!logical && md->atomop != ATOM_ADD && md->atomop != ATOM_MIN && md->atomop != ATOM_MAX) {
            diag_error(L->d, in->loc, "'redux' supports .add .min .max .and .or .xor");
            return 0;
        }
        if (!check_type(L, in, md, 0, logical ? T_B32 : arith))
            return 0;
        ir->type = (uint8_t)md->types[0];
        ptx_type ts[2] = {md->types[0], PT_U32}; /* value, membermask */
        return ops_dsrc(L, in, ir, md->types[0], 2, ts);
    }
    return 0;
}

/*
 * Video SIMD over four bytes: vop4.dtype.atype.btype{.sat|.add}
 *     d{.mask}, a{.asel}, b{.bsel}, c
 * The selectors travel in imm: asel | bsel << 16 | mask << 32, a selector
 * as four byte indices (0..7 into the pool {b, a}), a mask as four bits.
 */
static int vsel(lower *L, const ast_opnd *o, const char **reg, char *buf, size_t bufsz,
                int is_mask, uint32_t *sel)
{
    *reg = o->name;
    if (o->kind != AO_NAME || !o->name)
        return 1;
    const char *dot = strchr(o->name, '.');
    if (!dot)
        return 1;
    size_t n = (size_t)(dot - o->name);
    if (n >= bufsz)
        n = bufsz - 1;
    memcpy(buf, o->name, n);
    buf[n] = 0;
    *reg = buf;
    const char *s = dot + 1;
    if (s[0] != 'b' || !s[1]) {
        diag_error(L->d, o->loc, "bad byte selector '.%s'", s);
        return 0;
    }
    size_t k = strlen(s + 1);
    if (is_mask) {
        uint32_t m = 0;
        for (size_t i = 0; i < k; i++) {
            int d = s[1 + i] - '0';
            if (d < 0 || d > 3 || (m & (1u << d)) || (i && d >= s[i] - '0')) {
                diag_error(L->d, o->loc, "bad mask '.%s' (bytes 3..0 in descending order)", s);
                return 0;
            }
            m |= 1u << d;
        }
        *sel = m;
        return 1;
    }
    if (k != 4) {
        diag_error(L->d, o->loc, "a byte selector names four bytes ('.b3210'), found '.%s'", s);
        return 0;
    }
    uint32_t v = 0;
    for (int i = 0; i < 4; i++) { /* written most significant first */
        int d = s[1 + i] - '0';
        if (d < 0 || d > 7) {
            diag_error(L->d, o->loc, "byte selector digits are 0..7, found '.%s'", s);
            return 0;
        }
        v |= (uint32_t)d << (4 * (3 - i));
    }
    *sel = v;
    return 1;
}

static int lower_vop4(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    if (!want_ntypes(L, in, md, 3))
        return 0;
    for (int i = 0; i < 3; i++)
        if (!check_type(L, in, md, i, T_U32_S32))
            return 0;
    ir->type = (uint8_t)md->types[0];          /* dtype */
    ir->type2 = (uint8_t)md->types[1];         /* atype */
    ir->mode = (uint8_t)(md->types[2] == PT_S32); /* btype signed */
    if (md->atomop >= 0 && md->atomop != ATOM_ADD) {
        diag_error(L->d, in->loc, "'%s' takes .add as its secondary operation", in->op);
        return 0;
    }
    if (md->atomop == ATOM_ADD)
        ir->flags |= IRF_ACCUM;
    if (md->flags & F(SAT)) {
        if (ir->flags & IRF_ACCUM) {
            diag_error(L->d, in->loc, "'.sat' cannot be used with the .add accumulate");
            return 0;
        }
        ir->flags |= IRF_SAT;
    }
    if (!want_nops(L, in, 4, 4))
        return 0;
    uint32_t mask = 0xf, asel = 0x3210, bsel = 0x7654;
    char b0[128], b1[128], b2[128];
    ast_opnd d = in->ops[0], a = in->ops[1], b = in->ops[2];
    const char *rn;
    if (!vsel(L, &in->ops[0], &rn, b0, sizeof b0, 1, &mask))
        return 0;
    d.name = rn;
    if (!vsel(L, &in->ops[1], &rn, b1, sizeof b1, 0, &asel))
        return 0;
    a.name = rn;
    if (!vsel(L, &in->ops[2], &rn, b2, sizeof b2, 0, &bsel))
        return 0;
    b.name = rn;
    ir->imm = (int64_t)((uint64_t)asel | (uint64_t)bsel << 16 | (uint64_t)mask << 32);
    if (!dst_reg(L, in, &d, PT_NONE, &ir->d[0]) || !src_opnd(L, in, &a, PT_B32, &ir->s[0]) ||
        !src_opnd(L, in, &b, PT_B32, &ir->s[1]) || !src_opnd(L, in, &in->ops[3], PT_B32, &ir->s[2]))
        return 0;
    ir->ndst = 1;
    ir->nsrc = 3;
    return 1;
}

/* A label operand: its index in the body, or -1 with an error. */
static int64_t label_index(lower *L, const ast_insn *in, const ast_opnd *o)
{
    if (o->kind != AO_NAME || o->off) {
        diag_error(L->d, o->loc, "expected a label");
        return -1;
    }
    uint32_t v;
    for (uint32_t s = in->scope;; s = scope_parent(L, s)) {
        if (strmap_get(&L->labels, o->name, s, &v))
            return v;
        if (s == 0)
            break;
    }
    diag_error(L->d, o->loc, "unknown label '%s'", o->name);
    return -1;
}

/* A device-runtime built-in must be called the way CUDA declares it: with
 * arguments and a result of the sizes ir_builtin_params gives (the
 * built-in reads and writes them at those sizes). */
static int builtin_shape_ok(lower *L, const ast_opnd *target, const ir_func *callee, int bi,
                            const ir_call *c)
{
    const char *want = ir_builtin_params[bi];
    if (!want || bi == BI_DR_MISSING)
        return 1;
    size_t np = strlen(want);
    int ok = c->nargs == np && c->nrets == (ir_builtin_ret[bi] ? 1u : 0u);
    for (uint32_t i = 0; ok && i < np; i++)
        ok = c->arg_size[i] == (want[i] == 'd' ? 12u : (uint32_t)(want[i] - '0'));
    if (ok && ir_builtin_ret[bi])
        ok = c->ret_size[0] == ir_builtin_ret[bi];
    if (ok)
        return 1;
    char shape[96];
    size_t n = 0;
    shape[0] = 0;
    for (size_t i = 0; i < np && n + 12 < sizeof shape; i++)
        n += (size_t)snprintf(shape + n, sizeof shape - n, "%s%s", i ? ", " : "",
                              want[i] == 'd' ? "12 (dim3)" : want[i] == '8' ? "8" : "4");
    diag_error(L->d, target->loc,
               "'%s' is CUDA's device-runtime function %s: it takes %zu parameter%s (%s bytes) "
               "and returns %u bytes, but is called here with %u argument%s and %u result%s "
               "of other sizes",
               callee->name, ir_builtin_names[bi], np, np == 1 ? "" : "s",
               np ? shape : "no", (unsigned)ir_builtin_ret[bi], c->nargs,
               c->nargs == 1 ? "" : "s", c->nrets, c->nrets == 1 ? "" : "s");
    return 0;
}

static int lower_call(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    (void)md;
    if (md->flags & F(UNI))
        ir->flags |= IRF_UNI;
    /* call [(rets),] target [, (args)] [, proto] */
    uint32_t i = 0;
    const ast_opnd *rets = NULL, *args = NULL, *target = NULL, *proto = NULL;
    if (i < in->nops && in->ops[i].kind == AO_LIST)
        rets = &in->ops[i++];
    if (i < in->nops && in->ops[i].kind == AO_NAME)
        target = &in->ops[i++];
    if (i < in->nops && in->ops[i].kind == AO_LIST)
        args = &in->ops[i++];
    if (i < in->nops && in->ops[i].kind == AO_NAME)
        proto = &in->ops[i++];
    if (!target || i != in->nops) {
        diag_error(L->d, in->loc, "malformed call: expected call [(results),] function [, (arguments)]");
        return 0;
    }
    ir_call c;
    memset(&c, 0, sizeof c);
    c.nrets = rets ? rets->nelems : 0;
    c.nargs = args ? args->nelems : 0;
    uint32_t *block = xcalloc(L, 2 * (c.nargs + c.nrets) + 1, sizeof(uint32_t));
    if (!block)
        return 0;
    c.arg_off = block;
    c.arg_size = block + c.nargs;
    c.ret_off = block + 2 * c.nargs;
    c.ret_size = block + 2 * c.nargs + c.nrets;
    int ok = 1;
    for (uint32_t k = 0; k < c.nargs + c.nrets && ok; k++) {
        const ast_opnd *e = k < c.nargs ? &args->elems[k] : &rets->elems[k - c.nargs];
        uint32_t v, r;
        if (e->kind != AO_NAME || e->off || !fn_lookup(L, e->name, in->scope, &v, &r) ||
            (v >> KIND_SHIFT) != FN_FRAME || L->fvars.v[v & IDX_MASK].space != SP_PARAM) {
            if (e->kind == AO_NAME && lookup_reg(L, e->name, in->scope, &(ir_opnd){0}, NULL))
                diag_unsupported(L->d, e->loc,
                                 "passing registers directly in call (non-ABI calls) is not supported");
            else
                diag_error(L->d, e->loc, "call arguments and results must be .param variables declared in the caller");
            ok = 0;
            break;
        }
        const framevar *fv = &L->fvars.v[v & IDX_MASK];
        if (k < c.nargs) {
            c.arg_off[k] = fv->off;
            c.arg_size[k] = fv->size;
        } else {
            c.ret_off[k - c.nargs] = fv->off;
            c.ret_size[k - c.nargs] = fv->size;
        }
    }
    if (!ok) {
        free(block);
        return 0;
    }
    ir_opnd reg;
    uint32_t v;
    if (lookup_reg(L, target->name, in->scope, &reg, NULL)) {
        if (reg.kind != IRO_REG) {
            diag_error(L->d, target->loc, "an indirect call needs an address register");
            free(block);
            return 0;
        }
        if (!proto) {
            diag_error(L->d, target->loc, "an indirect call needs a .callprototype");
            free(block);
            return 0;
        }
        int found = 0;
        for (size_t k = 0; k < L->af->protos.n; k++)
            if (!strcmp(L->af->protos.v[k].name, proto->name))
                found = 1;
        if (!found) {
            diag_error(L->d, proto->loc, "unknown .callprototype '%s'", proto->name);
            free(block);
            return 0;
        }
        ir->flags |= IRF_INDIRECT;
        c.target_reg = reg;
        c.callee = UINT32_MAX;
        L->f_indirect[L->fidx] = 1;
    } else if (strmap_get(&L->syms, target->name, 0, &v) && (v >> KIND_SHIFT) == SYM_FUNC) {
        uint32_t fi = v & IDX_MASK;
        const ir_func *callee = &L->m->funcs[fi];
        int bi = callee->has_body ? -1 : ir_builtin_lookup(callee->name);
        if (!callee->has_body && bi < 0) {
            diag_unsupported(L->d, target->loc,
                             "call to '%s', which has no body in this module and is not a lockstep built-in",
                             target->name);
            free(block);
            return 0;
        }

        if (callee->is_entry) {
            diag_unsupported(L->d, target->loc, "calling a kernel from device code is not supported");
            free(block);
            return 0;
        }
        if (c.nargs != callee->nparams || c.nrets != callee->nrets) {
            diag_error(L->d, in->loc, "'%s' takes %u argument%s and %u result%s; the call passes %u and %u",
                       target->name, callee->nparams, callee->nparams == 1 ? "" : "s",
                       callee->nrets, callee->nrets == 1 ? "" : "s", c.nargs, c.nrets);
            free(block);
            return 0;
        }
        if (bi >= 0 && !builtin_shape_ok(L, target, callee, bi, &c)) {
            free(block);
            return 0;
        }
        if (bi >= 0) {
            ir->flags |= IRF_BUILTIN;
            c.callee = (uint32_t)bi;
            c.decl = fi;
        } else {
            c.callee = fi;
            u32vec *cl = &L->fcallees[L->fidx];
            int seen = 0;
            for (size_t k = 0; k < cl->n; k++)
                seen |= cl->v[k] == fi;
            if (!seen && vec_push(cl, fi))
                L->oom = 1;
        }
    } else {
        diag_error(L->d, target->loc, "unknown function '%s'", target->name);
        free(block);
        return 0;
    }
    if (vec_push(&L->calls, c)) {
        free(block);
        L->oom = 1;
        return 0;
    }
    ir->aux = (uint32_t)L->calls.n - 1;
    ir->target = c.callee;
    return 1;
}

static int lower_misc(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    int op = ir->op;
    switch (op) {
    case OP_BRA: {
        if (md->flags & F(UNI))
            ir->flags |= IRF_UNI;
        if (!want_nops(L, in, 1, 1))
            return 0;
        int64_t li = label_index(L, in, &in->ops[0]);
        if (li < 0)
            return 0;
        ir->target = (uint32_t)li; /* body-relative until the function is placed */
        return 1;
    }
    case OP_RET:
        if (md->flags & F(UNI))
            ir->flags |= IRF_UNI;
        /* fall through */
    case OP_EXIT: case OP_TRAP: case OP_BRKPT:
        return want_nops(L, in, 0, 0);
    case OP_MEMBAR:
        if (md->scope < 0 && !(md->flags & F(PROXY))) {
            diag_error(L->d, in->loc, "'membar' needs .cta, .gl or .sys");
            return 0;
        }
        ir->scope = (uint8_t)(md->scope >= 0 ? md->scope : SCOPE_SYS);
        ir->sem = SEM_SC;
        return want_nops(L, in, 0, 0);
    case OP_FENCE:
        if (!(md->flags & F(PROXY))) {
            if (md->scope < 0) {
                diag_error(L->d, in->loc, "'fence' needs a scope (.cta, .gpu, .sys)");
                return 0;
            }
            if (md->sem >= 0 && md->sem != SEM_SC && md->sem != SEM_ACQ_REL) {
                diag_error(L->d, in->loc, "'fence' takes .sc or .acq_rel");
                return 0;
            }
        }
        ir->scope = (uint8_t)(md->scope >= 0 ? md->scope : SCOPE_SYS);
        ir->sem = (uint8_t)(md->sem >= 0 ? md->sem : SEM_ACQ_REL);
        return want_nops(L, in, 0, 0);
    case OP_NANOSLEEP:
        if (!want_ntypes(L, in, md, 1) || !check_type(L, in, md, 0, (const ptx_type[]){PT_U32, PT_NONE}))
            return 0;
        ir->type = PT_U32;
        if (!want_nops(L, in, 1, 1) || !src_opnd(L, in, &in->ops[0], PT_U32, &ir->s[0]))
            return 0;
        ir->nsrc = 1;
        return 1;
    case OP_PMEVENT:
        return want_nops(L, in, 1, 1);
    case OP_GRIDDEPCONTROL:
        /* Programmatic dependent launch (sm_90; thrust and CUB emit it):
         * .wait waits for the grids this one depends on, .launch_dependents
         * lets a dependent grid start early.  lockstep runs a launch once
         * the ones before it have ended, so both are no-ops here. */
        if (!(md->flags & F(WAIT)) == !(md->flags & F(LAUNCHDEP))) {
            diag_error(L->d, in->loc, "'griddepcontrol' needs one of .wait and .launch_dependents");
            return 0;
        }
        return want_nops(L, in, 0, 0);
    case OP_PREFETCH: case OP_PREFETCHU:
        /* no effect on values; the address is not checked (a prefetch never faults) */
        ir->space = (uint8_t)(md->space >= 0 ? md->space : SP_GENERIC);
        if (!want_nops(L, in, 1, 1))
            return 0;
        if (in->ops[0].kind != AO_ADDR) {
            diag_error(L->d, in->loc, "'%s' needs an address operand", in->op);
            return 0;
        }
        return 1;
    case OP_ISSPACEP: {
        if (md->space < 0) {
            diag_error(L->d, in->loc, "'isspacep' needs a state space");
            return 0;
        }
        ir->space = (uint8_t)md->space;
        if (!want_nops(L, in, 2, 2))
            return 0;
        if (in->ops[0].kind != AO_NAME ||
            !dst_pred(L, in, in->ops[0].name, in->ops[0].loc, &ir->d[0]))
            return 0;
        ir->ndst = 1;
        if (!src_opnd(L, in, &in->ops[1], PT_U64, &ir->s[0]))
            return 0;
        ir->nsrc = 1;
        return 1;
    }
    default:
        return 0;
    }
}

/* ---- texture and surface instructions ------------------------------------------ */

/* The number of coordinates a geometry takes (the array layer included),
 * and how many the vector must hold. */
static int geom_coords(int g, int *vec)
{
    switch (g) {
    case TEXG_1D: *vec = 1; return 1;
    case TEXG_2D: *vec = 2; return 2;
    case TEXG_3D: *vec = 4; return 3;
    case TEXG_A1D: *vec = 2; return 2;
    case TEXG_A2D: *vec = 4; return 3;
    case TEXG_CUBE: *vec = 4; return 3;  /* x, y, z and an unused fourth */
    case TEXG_ACUBE: *vec = 4; return 4; /* the cube's index, x, y, z */
    default: *vec = 0; return 0;
    }
}

static const char *const geom_names[] = {"", ".1d", ".2d", ".3d", ".a1d", ".a2d", ".cube",
                                         ".acube", ".2dms", ".a2dms"};

/* [handle] or [handle, {coords}]: the texture object register and, when
 * want_coords, the coordinate vector (coordinate type ct; the layer of an
 * array geometry is .s32). */
static int tex_operand(lower *L, const ast_insn *in, const ast_opnd *o, ir_insn *ir, int want_coords,
                       ptx_type ct)
{
    if (o->kind != AO_ADDR || !o->name || o->off) {
        diag_error(L->d, o->loc, "'%s' needs [texture] or [texture, {coordinates}]", in->op);
        return 0;
    }
    ptx_type ht;
    if (!lookup_reg(L, o->name, in->scope, &ir->addr, &ht) || ir->addr.kind != IRO_REG) {
        uint32_t v;
        if (strmap_get(&L->syms, o->name, 0, &v))
            diag_unsupported(L->d, o->loc,
                             "'%s' through the module-scope texture or surface reference '%s' is "
                             "not supported: use a texture object (cudaTextureObject_t) in a "
                             "register",
                             in->op, o->name);
        else
            diag_error(L->d, o->loc, "unknown register '%s'", o->name);
        return 0;
    }
    if (ptx_type_size(ht) != 8) {
        diag_error(L->d, o->loc, "the texture object '%s' must be a 64-bit register", o->name);
        return 0;
    }
    if (!want_coords) {
        if (o->nelems) {
            diag_error(L->d, o->loc, "'%s' takes [texture] only", in->op);
            return 0;
        }
        return 1;
    }
    if (o->nelems == 2) {
        diag_unsupported(L->d, o->loc,
                         "'%s' with a separate sampler ([texture, sampler, coordinates]) is not "
                         "supported: use unified texture objects",
                         in->op);
        return 0;
    }
    int need;
    int n = geom_coords(ir->mode, &need);
    const ast_opnd *c = o->nelems == 1 ? &o->elems[0] : NULL;
    if (!c || (need > 1 && (c->kind != AO_VEC || c->nelems != (uint32_t)need)) ||
        (need == 1 && c->kind == AO_VEC && c->nelems != 1)) {
        diag_error(L->d, o->loc, "'%s%s' needs %d coordinate%s in braces after the texture", in->op,
                   geom_names[ir->mode], need, need == 1 ? "" : "s");
        return 0;
    }
    int arrayed = ir->mode == TEXG_A1D || ir->mode == TEXG_A2D || ir->mode == TEXG_ACUBE;
    for (int i = 0; i < need; i++) {
        const ast_opnd *e = c->kind == AO_VEC ? &c->elems[i] : c;
        ptx_type t = arrayed && i == 0 ? PT_S32 : ct;
        ir_opnd tmp, *dst = i < n ? &ir->s[i] : &tmp; /* the 4th of a 3-D vector is unused */
        if (!src_opnd(L, in, e, t, dst))
            return 0;
        if (dst->kind == IRO_SREG) {
            diag_error(L->d, e->loc, "a special register cannot be a coordinate of '%s'", in->op);
            return 0;
        }
    }
    ir->nsrc = (uint8_t)n;
    return 1;
}

static const ptx_type T_TEXD[] = {PT_U32, PT_S32, PT_F32, PT_NONE};
static const ptx_type T_TEXC[] = {PT_S32, PT_F32, PT_NONE};
static const ptx_type T_SURF[] = {PT_B8, PT_B16, PT_B32, PT_B64, PT_NONE};
static const ptx_type T_Q[] = {PT_B32, PT_NONE};

static int lower_tex(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    int op = ir->op;
    const int *tx = md->tex;
    int surf = op == OP_SULD || op == OP_SUST || op == OP_SUQ;
    ir->space = SP_GLOBAL;
    /* which fields each instruction takes */
    int want_geom = op != OP_TXQ && op != OP_SUQ, want_query = !want_geom;
    if (!want_geom && tx[TXF_GEOM]) {
        diag_error(L->d, in->loc, "'%s' takes no geometry", in->op);
        return 0;
    }
    if (want_geom && !tx[TXF_GEOM]) {
        diag_error(L->d, in->loc, "'%s' needs a geometry (.1d, .2d, .3d, .a1d, .a2d)", in->op);
        return 0;
    }
    if (!want_query && tx[TXF_QUERY]) {
        diag_error(L->d, in->loc, "'%s' takes no query", in->op);
        return 0;
    }
    if (want_query && !tx[TXF_QUERY]) {
        diag_error(L->d, in->loc, "'%s' needs a query (.width, .height, .depth, ...)", in->op);
        return 0;
    }
    if (tx[TXF_CLAMP] && op != OP_SULD && op != OP_SUST) {
        diag_error(L->d, in->loc, "a clamp mode (.trap, .clamp, .zero) is only valid on suld and sust");
        return 0;
    }
    /* ".b" is tld4's blue channel and the surface instructions' byte access */
    int comp = tx[TXF_COMP];
    if (surf && op != OP_SUQ) {
        if (tx[TXF_ACCESS] == 2) {
            diag_unsupported(L->d, in->loc, "formatted surface access ('%s.p') is not supported",
                             in->op);
            return 0;
        }
        if (comp != 3) {
            diag_error(L->d, in->loc, "'%s' needs '.b' (byte-addressed access)", in->op);
            return 0;
        }
        comp = 0;
    } else if (tx[TXF_ACCESS]) {
        diag_error(L->d, in->loc, "'.p' is only valid on suld and sust");
        return 0;
    }
    if (comp && op != OP_TLD4) {
        diag_error(L->d, in->loc, "a channel (.r, .g, .b, .a) is only valid on tld4");
        return 0;
    }
    if (op == OP_TLD4 && !comp) {
        diag_error(L->d, in->loc, "'tld4' needs the channel to gather (.r, .g, .b, .a)");
        return 0;
    }
    if (tx[TXF_LOD] && op != OP_TEX) {
        diag_error(L->d, in->loc, "'.level' and '.grad' are only valid on tex");
        return 0;
    }
    ir->mode = (uint8_t)(want_geom ? tx[TXF_GEOM] : tx[TXF_QUERY]);
    if (want_geom && (ir->mode >= TEXG_2DMS || (ir->mode > TEXG_A2D && surf))) {
        diag_unsupported(L->d, in->loc,
                         "unsupported instruction '%s%s' (%s are not implemented in lockstep)",
                         in->op, geom_names[ir->mode],
                         ir->mode >= TEXG_2DMS ? "multisample textures"
                                               : "cube-map surface accesses (use .a2d with the "
                                                 "face as the layer)");
        return 0;
    }
    if (op == OP_TLD4 && ir->mode != TEXG_2D) {
        diag_error(L->d, in->loc, "'tld4' gathers from 2-D textures (.2d) only");
        return 0;
    }
    if (want_query && (ir->mode == TXQ_CHANNEL_DATA_TYPE || ir->mode == TXQ_CHANNEL_ORDER ||
                       (surf && ir->mode > TXQ_DEPTH && ir->mode != TXQ_ARRAY_SIZE &&
                        ir->mode != TXQ_MEMORY_LAYOUT) ||
                       (!surf && ir->mode == TXQ_MEMORY_LAYOUT))) {
        static const char *const qnames[] = {
            "", "width", "height", "depth", "channel_data_type", "channel_order",
            "normalized_coords", "filter_mode", "addr_mode_0", "addr_mode_1", "addr_mode_2",
            "array_size", "num_mipmap_levels", "num_samples", "memory_layout"};
        diag_unsupported(L->d, in->loc, "the query '%s.%s' is not supported", in->op,
                         qnames[ir->mode]);
        return 0;
    }

    if (want_query) {
        if (!want_ntypes(L, in, md, 1) || !check_type(L, in, md, 0, T_Q) || !want_nops(L, in, 2, 2))
            return 0;
        ir->type = PT_B32;
        if (!dst_reg(L, in, &in->ops[0], PT_NONE, &ir->d[0]))
            return 0;
        ir->ndst = 1;
        return tex_operand(L, in, &in->ops[1], ir, 0, PT_NONE);
    }

    if (!surf) {
        /* tex / tld4: four destinations, result and coordinate types */
        if (!want_ntypes(L, in, md, 2) || !check_type(L, in, md, 0, T_TEXD) ||
            !check_type(L, in, md, 1, T_TEXC))
            return 0;
        if ((op == OP_TLD4 || ir->mode == TEXG_CUBE || ir->mode == TEXG_ACUBE) &&
            md->types[1] != PT_F32) {
            diag_error(L->d, md->typelocs[1], "'%s%s' takes .f32 coordinates", in->op,
                       geom_names[ir->mode]);
            return 0;
        }
        if (md->vec != 4) {
            diag_error(L->d, in->loc, "'%s' needs '.v4'", in->op);
            return 0;
        }
        ir->type = (uint8_t)md->types[0];
        ir->type2 = (uint8_t)md->types[1];
        ir->vec = 4;
        ir->bop = (uint8_t)(op == OP_TLD4 ? comp - 1 : 0);
        uint32_t lo = 2, hi = tx[TXF_LOD] == 1 ? 3 : tx[TXF_LOD] == 2 ? 4 : 2;
        lo = hi;
        if (in->nops > hi) {
            diag_unsupported(L->d, in->ops[hi].loc,
                             "'%s' with a texel offset or depth comparison operand is not "
                             "supported",
                             in->op);
            return 0;
        }
        if (!want_nops(L, in, lo, hi))
            return 0;
        const ast_opnd *d = &in->ops[0];
        if (d->kind != AO_VEC || d->nelems != 4) {
            diag_error(L->d, d->loc, "'%s' needs a vector of 4 destination registers", in->op);
            return 0;
        }
        for (int i = 0; i < 4; i++)
            if (!dst_reg(L, in, &d->elems[i], PT_NONE, &ir->d[i]))
                return 0;
        ir->ndst = 4;
        if (!tex_operand(L, in, &in->ops[1], ir, 1, md->types[1]))
            return 0;
        /* .level's level of detail and .grad's gradients: checked, then
         * unused (texture objects here have one mip level) */
        for (uint32_t k = 2; k < in->nops; k++) {
            const ast_opnd *e = &in->ops[k];
            uint32_t ne = e->kind == AO_VEC ? e->nelems : 1;
            for (uint32_t j = 0; j < ne; j++) {
                ir_opnd tmp;
                if (!src_opnd(L, in, e->kind == AO_VEC ? &e->elems[j] : e, PT_F32, &tmp))
                    return 0;
            }
        }
        return 1;
    }

    /* suld / sust: .b element type, vector, clamp mode */
    if (!want_ntypes(L, in, md, 1) || !check_type(L, in, md, 0, T_SURF) || !want_nops(L, in, 2, 2))
        return 0;
    ptx_type t = md->types[0];
    ir->type = (uint8_t)(t == PT_B8 ? PT_U8 : t == PT_B16 ? PT_U16 : t == PT_B32 ? PT_U32 : PT_U64);
    ir->vec = (uint8_t)md->vec;
    ir->bop = (uint8_t)(tx[TXF_CLAMP] ? tx[TXF_CLAMP] - 1 : SURF_TRAP);
    ir->cache = (uint8_t)(md->cache >= 0 ? md->cache : CACHE_NONE);
    if (md->vec > 4 || ptx_type_size(t) * md->vec > 16) {
        diag_error(L->d, in->loc, "'%s' accesses at most 16 bytes", in->op);
        return 0;
    }
    const ast_opnd *val = op == OP_SUST ? &in->ops[1] : &in->ops[0];
    const ast_opnd *adr = op == OP_SUST ? &in->ops[0] : &in->ops[1];
    int n = md->vec;
    if (val->kind == AO_VEC ? val->nelems != (uint32_t)n : n != 1) {
        diag_error(L->d, val->loc, "'%s' needs %d value register%s", in->op, n, n == 1 ? "" : "s");
        return 0;
    }
    for (int i = 0; i < n; i++) {
        const ast_opnd *e = val->kind == AO_VEC ? &val->elems[i] : val;
        if (op == OP_SUST) {
            /* the values travel in d[] (IRF_DSRC): s[] holds the coordinates */
            ptx_type rt;
            if (e->kind != AO_NAME || e->off || e->neg ||
                !lookup_reg(L, e->name, in->scope, &ir->d[i], &rt) || ir->d[i].kind != IRO_REG) {
                diag_error(L->d, e->loc, "'%s' stores registers: expected a register", in->op);
                return 0;
            }
        } else if (!dst_reg(L, in, e, PT_NONE, &ir->d[i])) {
            return 0;
        }
    }
    if (op == OP_SUST)
        ir->flags |= IRF_DSRC;
    else
        ir->ndst = (uint8_t)n;
    return tex_operand(L, in, adr, ir, 1, PT_S32);
}

/* ---- warp matrix operations (wmma, mma, ldmatrix, movmatrix) ------------------------ */

/* The shape words, by their WMF_SHAPE value. */
enum {
    SH_NONE, SH_M16N16K16, SH_M8N32K16, SH_M32N8K16, SH_M16N16K8, SH_M8N8K4, SH_M16N8K8,
    SH_M16N8K16, SH_M16N8K4, SH_M16N8K32, SH_M8N8K16, SH_M8N8K32, SH_M8N8K128, SH_M16N8K64,
    SH_M16N8K128, SH_M16N8K256, SH_M8N8, SH_M16N16, SH_M8N16, SH_COUNT
};
static const struct {
    const char *name;
    uint8_t m, n, k;
} mm_shapes[SH_COUNT] = {
    {"(none)", 0, 0, 0}, {".m16n16k16", 16, 16, 16}, {".m8n32k16", 8, 32, 16},
    {".m32n8k16", 32, 8, 16}, {".m16n16k8", 16, 16, 8}, {".m8n8k4", 8, 8, 4},
    {".m16n8k8", 16, 8, 8}, {".m16n8k16", 16, 8, 16}, {".m16n8k4", 16, 8, 4},
    {".m16n8k32", 16, 8, 32}, {".m8n8k16", 8, 8, 16}, {".m8n8k32", 8, 8, 32},
    {".m8n8k128", 8, 8, 0}, {".m16n8k64", 16, 8, 64}, {".m16n8k128", 16, 8, 0},
    {".m16n8k256", 16, 8, 0}, {".m8n8", 8, 8, 0}, {".m16n16", 16, 16, 0}, {".m8n16", 8, 16, 0},
};

/* The WMF_NOTRUN words (valid PTX lockstep does not run), by value, and
 * what they are part of. */
static const struct {
    const char *word, *what;
} mm_notrun[] = {
    {"", ""},
    {".s4", "sub-byte and single-bit matrix operations"},
    {".u4", "sub-byte and single-bit matrix operations"},
    {".b1", "sub-byte and single-bit matrix operations"},
    {".e4m3", "8-, 6- and 4-bit floating point matrix operations"},
    {".e5m2", "8-, 6- and 4-bit floating point matrix operations"},
    {".e3m2", "8-, 6- and 4-bit floating point matrix operations"},
    {".e2m3", "8-, 6- and 4-bit floating point matrix operations"},
    {".e2m1", "8-, 6- and 4-bit floating point matrix operations"},
    {".sp", "sparse matrix operations (mma.sp)"},
    {".sp::ordered_metadata", "sparse matrix operations (mma.sp)"},
    {".kind::f8f6f4", "8-, 6- and 4-bit floating point matrix operations"},
    {".kind::mxf8f6f4", "block-scaled matrix operations"},
    {".kind::mxf4", "block-scaled matrix operations"},
    {".kind::mxf4nvf4", "block-scaled matrix operations"},
    {".block_scale", "block-scaled matrix operations"},
    {".b6x16_p32", "decompressing matrix loads"},
    {".b4x16_p64", "decompressing matrix loads"},
    {".b8x16", "decompressing matrix loads"},
    {".xor", "sub-byte and single-bit matrix operations"},
    {".and", "sub-byte and single-bit matrix operations"},
    {".popc", "sub-byte and single-bit matrix operations"},
};

/* A tensor instruction with a word lockstep does not run: a clear error. */
static int mm_notrun_error(lower *L, const ast_insn *in, int w)
{
    if (w <= 0 || (size_t)w >= ARRAY_LEN(mm_notrun))
        w = 1;
    diag_unsupported(L->d, in->loc,
                     "unsupported instruction '%s' with %s (%s are not implemented in lockstep)",
                     in->op, mm_notrun[w].word, mm_notrun[w].what);
    return 0;
}

/* The registers of a vector operand of n registers of `what` into rows[]. */
static int wmma_regs(lower *L, const ast_insn *in, const ast_opnd *o, uint32_t n, uint32_t *rows,
                     const char *what)
{
    if (o->kind != AO_VEC || o->nelems != n) {
        diag_error(L->d, o->loc, "'%s' needs %s as a vector of %u registers", in->op, what, n);
        return 0;
    }
    for (uint32_t i = 0; i < n; i++) {
        ir_opnd r;
        const ast_opnd *e = &o->elems[i];
        if (e->kind != AO_NAME || e->off || e->neg ||
            !lookup_reg(L, e->name, in->scope, &r, NULL) || r.kind != IRO_REG) {
            diag_error(L->d, e->loc, "'%s' needs registers in %s", in->op, what);
            return 0;
        }
        rows[i] = r.idx;
    }
    return 1;
}

/* Bytes of one element of a matrix of type t (0: not a matrix type). */
static int mm_esize(ptx_type t)
{
    switch (t) {
    case PT_S8: case PT_U8: return 1;
    case PT_F16: case PT_BF16: return 2;
    case PT_TF32: case PT_F32: case PT_S32: return 4;
    case PT_F64: return 8;
    default: return 0;
    }
}

/* Registers holding n elements of type t (f64: one each; else 32 bits each). */
static uint32_t mm_regs(ptx_type t, uint32_t n)
{
    int es = mm_esize(t);
    return es >= 4 ? n : n * (uint32_t)es / 4;
}

static int ilog2u(uint32_t v)
{
    int l = 0;
    while (v > 1) {
        v >>= 1;
        l++;
    }
    return l;
}

/* Whether the wmma shape sh takes A and B of type a (and which C/D then). */
static int wmma_shape_takes(int sh, ptx_type a)
{
    switch (sh) {
    case SH_M16N16K16: case SH_M8N32K16: case SH_M32N8K16:
        return a == PT_F16 || a == PT_BF16 || a == PT_S8 || a == PT_U8;
    case SH_M16N16K8: return a == PT_TF32;
    case SH_M8N8K4: return a == PT_F64;
    default: return 0;
    }
}

/* Whether the accumulator type c goes with inputs of type a. */
static int mm_acc_takes(ptx_type a, ptx_type c)
{
    switch (a) {
    case PT_F16: return c == PT_F16 || c == PT_F32;
    case PT_BF16: case PT_TF32: return c == PT_F32;
    case PT_S8: case PT_U8: return c == PT_S32;
    case PT_F64: return c == PT_F64;
    default: return 0;
    }
}

/* The common checks of a tensor instruction: .sync.aligned, no word of a
 * form lockstep does not run; the shape word's index, or -1. */
static int mm_common(lower *L, const ast_insn *in, const mods *md)
{
    if (md->tex[WMF_NOTRUN])
        return mm_notrun_error(L, in, md->tex[WMF_NOTRUN]), -1;
    if (!(md->flags & F(SYNC)) || !(md->flags & F(ALIGNED))) {
        diag_error(L->d, in->loc, "'%s' needs .sync.aligned", in->op);
        return -1;
    }
    return md->tex[WMF_SHAPE];
}

/* Record mm (its register lists filled from operands 0-3: d, a, b, c). */
static int mm_finish(lower *L, const ast_insn *in, ir_mma *mm, uint32_t pa, uint32_t pb,
                     ir_insn *ir)
{
    uint32_t a[8], b[8];
    if (!want_nops(L, in, 4, 4))
        return 0;
    if (!wmma_regs(L, in, &in->ops[0], mm->nd, mm->d, "D") ||
        !wmma_regs(L, in, &in->ops[1], pa, a, "A") || !wmma_regs(L, in, &in->ops[2], pb, b, "B") ||
        !wmma_regs(L, in, &in->ops[3], mm->nc, mm->c, "C"))
        return 0;
    memcpy(mm->a, a, sizeof mm->a);
    memcpy(mm->b, b, sizeof mm->b);
    if (vec_push(&L->mmas, *mm)) {
        L->oom = 1;
        return 0;
    }
    ir->target = (uint32_t)L->mmas.n - 1;
    ir->type = mm->atype;
    ir->type2 = mm->ctype;
    return 1;
}

/* wmma.mma.sync.aligned.alayout.blayout.shape.dtype.ctype d, a, b, c (f16
 * inputs), or .shape{.rnd}.dtype.atype.btype.ctype{.satfinite} */
static int lower_wmma_mma(lower *L, const ast_insn *in, const mods *md, int sh, ir_insn *ir)
{
    const int *wm = md->tex;
    if (wm[WMF_MAT] || !wm[WMF_LAY1] || !wm[WMF_LAY2] || md->space >= 0 || wm[WMF_NUM] ||
        wm[WMF_TRANS]) {
        diag_error(L->d, in->loc, "'wmma.mma' takes two layouts (.row/.col, A's then B's), "
                                  "a shape and its types");
        return 0;
    }
    ir_mma mm;
    memset(&mm, 0, sizeof mm);
    mm.form = MMA_WMMA;
    mm.acol = wm[WMF_LAY1] == 2;
    mm.bcol = wm[WMF_LAY2] == 2;
    mm.satfinite = wm[WMF_SATF] != 0;
    ptx_type d, c, a, bt;
    if (md->ntypes == 2) {
        d = md->types[0];
        c = md->types[1];
        a = bt = PT_F16;
    } else if (md->ntypes == 4) {
        d = md->types[0];
        a = md->types[1];
        bt = md->types[2];
        c = md->types[3];
    } else {
        diag_error(L->d, in->loc, "'wmma.mma' needs 2 or 4 type suffixes");
        return 0;
    }
    if (a != bt || !mm_acc_takes(a, c) || !mm_acc_takes(a, d)) {
        diag_error(L->d, in->loc, "'wmma.mma' types must be .dtype.ctype (.f16 or .f32) for "
                                  ".f16 inputs, .f32.bf16.bf16.f32, .f32.tf32.tf32.f32, "
                                  ".f64.f64.f64.f64, .s32.s8.s8.s32 or .s32.u8.u8.s32");
        return 0;
    }
    if (!wmma_shape_takes(sh, a)) {
        diag_error(L->d, in->loc, "'wmma.mma' of shape %s does not take %s inputs",
                   mm_shapes[sh].name, ptx_type_names[a]);
        return 0;
    }
    if (mm.satfinite && d != PT_S32) {
        diag_error(L->d, in->loc, "'.satfinite' is for integer wmma.mma here");
        return 0;
    }
    if (md->rnd >= 0 && (a != PT_F64 || md->rnd == FP_RNA)) {
        diag_error(L->d, in->loc, "a rounding modifier on 'wmma.mma' is for .f64 (.rn, .rz, .rm, .rp)");
        return 0;
    }
    mm.rnd = (uint8_t)(md->rnd >= 0 ? md->rnd : FP_RN);
    mm.m = mm_shapes[sh].m;
    mm.n = mm_shapes[sh].n;
    mm.k = mm_shapes[sh].k;
    mm.atype = (uint8_t)a;
    mm.btype = (uint8_t)bt;
    mm.ctype = (uint8_t)c;
    mm.dtype = (uint8_t)d;
    /* PTX gives f16 A and B eight registers whatever the shape */
    uint32_t ea = (uint32_t)mm.m * mm.k / 32, eb = (uint32_t)mm.k * mm.n / 32;
    mm.na = (uint8_t)mm_regs(a, ea);
    mm.nb = (uint8_t)mm_regs(bt, eb);
    mm.nc = (uint8_t)mm_regs(c, (uint32_t)mm.m * mm.n / 32);
    mm.nd = (uint8_t)mm_regs(d, (uint32_t)mm.m * mm.n / 32);
    return mm_finish(L, in, &mm, a == PT_F16 ? 8 : mm.na, bt == PT_F16 ? 8 : mm.nb, ir);
}

/* mma.sync.aligned.shape.alayout.blayout{.satfinite}{.rnd}.dtype.atype.btype.ctype d, a, b, c
 * with the fragments the PTX ISA defines */
static int lower_mma_sync(lower *L, const ast_insn *in, const mods *md, int sh, ir_insn *ir)
{
    const int *wm = md->tex;
    if (wm[WMF_KIND] || wm[WMF_MAT] || !wm[WMF_LAY1] || !wm[WMF_LAY2] || wm[WMF_NUM] ||
        wm[WMF_TRANS] || !sh) {
        diag_error(L->d, in->loc, "'mma' takes a shape, two layouts (.row/.col, A's then B's) "
                                  "and four types");
        return 0;
    }
    if (!want_ntypes(L, in, md, 4))
        return 0;
    ptx_type d = md->types[0], a = md->types[1], bt = md->types[2], c = md->types[3];
    int i8 = (a == PT_S8 || a == PT_U8) && (bt == PT_S8 || bt == PT_U8);
    if (!(a == bt || i8) || !mm_acc_takes(a, c) || !mm_acc_takes(a, d)) {
        diag_error(L->d, in->loc, "'mma' types must be .dtype.f16.f16.ctype (.f16 or .f32), "
                                  ".f32.bf16.bf16.f32, .f32.tf32.tf32.f32, .f64.f64.f64.f64, "
                                  "or .s32 with .s8 or .u8 inputs");
        return 0;
    }
    int ok;
    switch (a) {
    case PT_F16: ok = sh == SH_M8N8K4 || sh == SH_M16N8K8 || sh == SH_M16N8K16; break;
    case PT_BF16: ok = sh == SH_M16N8K8 || sh == SH_M16N8K16; break;
    case PT_TF32: ok = sh == SH_M16N8K4 || sh == SH_M16N8K8; break;
    case PT_F64: ok = sh == SH_M8N8K4 || sh == SH_M16N8K4 || sh == SH_M16N8K8 || sh == SH_M16N8K16; break;
    default: ok = sh == SH_M8N8K16 || sh == SH_M16N8K16 || sh == SH_M16N8K32; break;
    }
    if (!ok) {
        diag_error(L->d, in->loc, "'mma' of shape %s does not take %s inputs", mm_shapes[sh].name,
                   ptx_type_names[a]);
        return 0;
    }
    int quads = a == PT_F16 && sh == SH_M8N8K4; /* four 8x8x4 products, one per quad pair */
    if (!quads && (wm[WMF_LAY1] != 1 || wm[WMF_LAY2] != 2)) {
        diag_error(L->d, in->loc, "'mma' of shape %s takes .row.col", mm_shapes[sh].name);
        return 0;
    }
    if (quads ? c == PT_F32 && d != PT_F32 : c != d) {
        diag_error(L->d, in->loc, "'mma' of shape %s needs %s", mm_shapes[sh].name,
                   quads ? "an .f32 D with an .f32 C" : "the same type for D and C");
        return 0;
    }
    if (wm[WMF_SATF] && d != PT_S32) {
        diag_error(L->d, in->loc, "'.satfinite' is for integer mma here");
        return 0;
    }
    if (md->rnd >= 0 && (a != PT_F64 || md->rnd == FP_RNA)) {
        diag_error(L->d, in->loc, "a rounding modifier on 'mma' is for .f64 (.rn, .rz, .rm, .rp)");
        return 0;
    }
    ir_mma mm;
    memset(&mm, 0, sizeof mm);
    mm.form = MMA_SYNC;
    mm.m = mm_shapes[sh].m;
    mm.n = mm_shapes[sh].n;
    mm.k = mm_shapes[sh].k;
    mm.acol = wm[WMF_LAY1] == 2;
    mm.bcol = wm[WMF_LAY2] == 2;
    mm.satfinite = wm[WMF_SATF] != 0;
    mm.rnd = (uint8_t)(md->rnd >= 0 ? md->rnd : FP_RN);
    mm.atype = (uint8_t)a;
    mm.btype = (uint8_t)bt;
    mm.ctype = (uint8_t)c;
    mm.dtype = (uint8_t)d;
    uint32_t q = quads ? 4 : 1;
    mm.na = (uint8_t)mm_regs(a, q * mm.m * mm.k / 32);
    mm.nb = (uint8_t)mm_regs(bt, q * mm.k * mm.n / 32);
    mm.nc = (uint8_t)mm_regs(c, q * mm.m * mm.n / 32);
    mm.nd = (uint8_t)mm_regs(d, q * mm.m * mm.n / 32);
    return mm_finish(L, in, &mm, mm.na, mm.nb, ir);
}

/* Push part p of a load or store the instruction became (the first
 * replaces it). */
static int push_part(lower *L, ir_insn *ir, const ir_insn *part, int p)
{
    if (p == 0) {
        *ir = *part;
        return 1;
    }
    if (vec_push(&L->extra, *part)) {
        L->oom = 1;
        return 0;
    }
    return 1;
}

/* The template of the parts of a wmma load/store or ldmatrix: ld/st of
 * `adr`, in global, shared or generic memory. */
static int mm_part_base(lower *L, const ast_insn *in, const mods *md, const ast_opnd *adr,
                        int load, ir_insn *ir, ir_insn *base)
{
    *base = *ir;
    base->op = (uint16_t)(load ? OP_LD : OP_ST);
    base->type = PT_U32;
    base->space = (uint8_t)(md->space >= 0 ? md->space : SP_GENERIC);
    base->flags |= IRF_WMMA;
    if (!addr_opnd(L, in, adr, base))
        return 0;
    if (base->space == SP_CONST || base->space == SP_KPARAM || base->space == SP_LOCAL ||
        base->amode == AM_FRAME) {
        diag_error(L->d, adr->loc, "'%s' accesses global or shared memory", in->op);
        return 0;
    }
    if (!load)
        base->flags |= IRF_DSRC;
    return 1;
}

/* wmma.load.{a,b,c}.sync.aligned.layout.shape{.ss}.type r, [p]{, stride} /
 * wmma.store.d.sync.aligned.layout.shape{.ss}.type [p], r{, stride}: ld/st parts */
static int lower_wmma_ldst(lower *L, const ast_insn *in, const mods *md, int sh, ir_insn *ir)
{
    const int *wm = md->tex;
    int kind = wm[WMF_KIND], mat = wm[WMF_MAT];
    const char *kw = kind == 1 ? "load" : "store";
    if (!mat || (kind == 1 && mat == 4) || (kind == 2 && mat != 4) || !wm[WMF_LAY1] ||
        wm[WMF_LAY2] || wm[WMF_SATF] || wm[WMF_NUM] || wm[WMF_TRANS] || md->rnd >= 0) {
        diag_error(L->d, in->loc, "'wmma.%s' needs %s, one layout (.row or .col) and a shape", kw,
                   kind == 1 ? ".a, .b or .c" : ".d");
        return 0;
    }
    if (!want_ntypes(L, in, md, 1))
        return 0;
    ptx_type t = md->types[0];
    int col = wm[WMF_LAY1] == 2;
    uint32_t M = mm_shapes[sh].m, N = mm_shapes[sh].n, K = mm_shapes[sh].k;
    uint32_t lines, len, nregs; /* the matrix in memory order: lines of len elements */
    int ccol = 0;               /* a column-major C or D: one access per element */
    if (mat <= 2) {
        if (t != PT_F16 && t != PT_BF16 && t != PT_S8 && t != PT_U8 && t != PT_TF32 && t != PT_F64) {
            diag_error(L->d, md->typelocs[0], "'wmma.load.%c' takes .f16, .bf16, .s8, .u8, .tf32 or .f64",
                       mat == 1 ? 'a' : 'b');
            return 0;
        }
        if (!wmma_shape_takes(sh, t)) {
            diag_error(L->d, in->loc, "'wmma.load.%c' of shape %s does not take %s",
                       mat == 1 ? 'a' : 'b', mm_shapes[sh].name, ptx_type_names[t]);
            return 0;
        }
        uint32_t rows = mat == 1 ? M : K, cols = mat == 1 ? K : N;
        lines = col ? cols : rows;
        len = col ? rows : cols;
        nregs = t == PT_F16 ? 8 : mm_regs(t, rows * cols / 32);
    } else {
        ptx_type in_t = t == PT_F64 ? PT_F64 : sh == SH_M16N16K8 ? PT_TF32 : PT_F16;
        if (t != PT_F16 && t != PT_F32 && t != PT_S32 && t != PT_F64) {
            diag_error(L->d, md->typelocs[0], "'wmma.%s.%c' takes .f16, .f32, .s32 or .f64", kw,
                       mat == 3 ? 'c' : 'd');
            return 0;
        }
        if (t == PT_S32)
            in_t = PT_S8;
        if (!wmma_shape_takes(sh, in_t) || !mm_acc_takes(in_t, t)) {
            diag_error(L->d, in->loc, "'wmma.%s.%c' of shape %s does not take %s", kw,
                       mat == 3 ? 'c' : 'd', mm_shapes[sh].name, ptx_type_names[t]);
            return 0;
        }
        lines = M;
        len = N;
        ccol = col;
        nregs = mm_regs(t, M * N / 32);
    }
    uint32_t es = (uint32_t)mm_esize(t), P = lines * len / 32; /* elements per lane */
    if (!want_nops(L, in, 2, 3))
        return 0;
    const ast_opnd *vals = kind == 1 ? &in->ops[0] : &in->ops[1];
    const ast_opnd *adr = kind == 1 ? &in->ops[1] : &in->ops[0];
    uint32_t rows[8];
    if (!wmma_regs(L, in, vals, nregs, rows, "the fragment"))
        return 0;
    ir_insn base;
    if (!mm_part_base(L, in, md, adr, kind == 1, ir, &base))
        return 0;
    if (in->nops == 3) {
        if (!src_opnd(L, in, &in->ops[2], PT_U32, &base.s[0]))
            return 0;
    } else {
        uint32_t row; /* the stride defaults to the matrix's line length */
        if (!const_row(L, ccol ? M : len, &row))
            return 0;
        base.s[0] = (ir_opnd){row, IRO_CONST, 0, 0};
    }
    base.nsrc = 1;
    int lp = ilog2u(P), les = ilog2u(es);
    if (ccol) {
        /* one part per element of the lane's row: an f16 element fills half
         * a register (the low halves first, so that the two parts of one
         * register do not wait for each other) */
        int p = 0;
        for (int hi = 0; hi < (t == PT_F16 ? 2 : 1); hi++)
            for (uint32_t j = (uint32_t)hi; j < P; j += t == PT_F16 ? 2 : 1) {
                ir_insn part = base;
                part.type = (uint8_t)(t == PT_F16 ? PT_U16 : t == PT_F64 ? PT_U64 : PT_U32);
                part.vec = 1;
                part.d[0] = (ir_opnd){rows[t == PT_F16 ? j / 2 : j], IRO_REG, 0, 0};
                if (kind == 1)
                    part.ndst = 1;
                part.target = WMP_MAKE(WMP_CCOL, j, lp, ilog2u(N), les, hi);
                if (!push_part(L, ir, &part, p++))
                    return 0;
            }
        return 1;
    }
    /* the lane's contiguous chunk of P elements, in accesses of up to 16
     * bytes; registers past the chunk (an f16 A or B) repeat it */
    uint32_t rbytes = t == PT_F64 ? 8 : 4, chunk = P * es;
    uint32_t per = (chunk < 16 ? chunk : 16) / rbytes;
    for (uint32_t p = 0; p < nregs / per; p++) {
        ir_insn part = base;
        part.type = (uint8_t)(t == PT_F64 ? PT_U64 : PT_U32);
        part.vec = (uint8_t)per;
        for (uint32_t k = 0; k < per; k++)
            part.d[k] = (ir_opnd){rows[p * per + k], IRO_REG, 0, 0};
        if (kind == 1)
            part.ndst = (uint8_t)per;
        part.target = WMP_MAKE(WMP_LINE, (p * per * rbytes) % chunk, lp, ilog2u(len), les, 0);
        if (!push_part(L, ir, &part, (int)p))
            return 0;
    }
    return 1;
}

/* ldmatrix.sync.aligned.m8n8.num{.trans}{.shared{::cta}}.b16 r, [p]: one
 * 32-bit load per matrix, or with .trans two 16-bit ones (each a half of
 * the register), whose lanes' addresses come from the row addresses lanes
 * 8i .. 8i+7 give */
static int lower_ldmatrix(lower *L, const ast_insn *in, const mods *md, int sh, ir_insn *ir)
{
    const int *wm = md->tex;
    if (sh == SH_M16N16 || sh == SH_M8N16 || (md->ntypes == 1 && md->types[0] == PT_B8)) {
        diag_unsupported(L->d, in->loc,
                         "unsupported instruction 'ldmatrix' of %s (lockstep runs .m8n8 .b16)",
                         sh == SH_M16N16 || sh == SH_M8N16 ? mm_shapes[sh].name : ".b8 elements");
        return 0;
    }
    if (sh != SH_M8N8 || !wm[WMF_NUM] || wm[WMF_KIND] || wm[WMF_MAT] || wm[WMF_LAY1] ||
        wm[WMF_SATF] || md->rnd >= 0) {
        diag_error(L->d, in->loc, "'ldmatrix' needs .m8n8 and .x1, .x2 or .x4");
        return 0;
    }
    if (!want_ntypes(L, in, md, 1))
        return 0;
    if (md->types[0] != PT_B16) {
        diag_error(L->d, md->typelocs[0], "'ldmatrix' takes .b16");
        return 0;
    }
    if (md->space >= 0 && md->space != SP_SHARED) {
        diag_error(L->d, in->loc, "'ldmatrix' reads shared memory");
        return 0;
    }
    if (!want_nops(L, in, 2, 2))
        return 0;
    uint32_t num = (uint32_t)wm[WMF_NUM], rows[4];
    if (!wmma_regs(L, in, &in->ops[0], num, rows, "its destination"))
        return 0;
    ir_insn base;
    if (!mm_part_base(L, in, md, &in->ops[1], 1, ir, &base))
        return 0;
    int trans = wm[WMF_TRANS] != 0, p = 0;
    for (int hi = 0; hi < (trans ? 2 : 1); hi++)
        for (uint32_t i = 0; i < num; i++) {
            ir_insn part = base;
            part.type = (uint8_t)(trans ? PT_U16 : PT_U32);
            part.d[0] = (ir_opnd){rows[i], IRO_REG, 0, 0};
            part.ndst = 1;
            part.target = WMP_MAKE(trans ? WMP_LDMT : WMP_LDM, i, 0, 0, trans ? 1 : 2, hi);
            if (!push_part(L, ir, &part, p++))
                return 0;
        }
    return 1;
}

/* movmatrix.sync.aligned.m8n8.trans.b16 d, a: the 8 x 8 matrix of halves
 * in the warp's a registers (ldmatrix's layout), transposed into d */
static int lower_movmatrix(lower *L, const ast_insn *in, const mods *md, int sh, ir_insn *ir)
{
    const int *wm = md->tex;
    if (sh != SH_M8N8 || !wm[WMF_TRANS] || wm[WMF_KIND] || wm[WMF_MAT] || wm[WMF_LAY1] ||
        wm[WMF_SATF] || wm[WMF_NUM] || md->rnd >= 0) {
        diag_error(L->d, in->loc, "'movmatrix' needs .m8n8.trans");
        return 0;
    }
    if (!want_ntypes(L, in, md, 1))
        return 0;
    if (md->types[0] != PT_B16) {
        diag_error(L->d, md->typelocs[0], "'movmatrix' takes .b16");
        return 0;
    }
    if (!want_nops(L, in, 2, 2) || !dst_reg(L, in, &in->ops[0], PT_NONE, &ir->d[0]) ||
        !src_opnd(L, in, &in->ops[1], PT_B32, &ir->s[0]))
        return 0;
    ir->type = PT_B32;
    ir->ndst = 1;
    ir->nsrc = 1;
    return 1;
}

/* The tensor instructions (FAM_WMMA). */
static int lower_wmma(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    int sh = mm_common(L, in, md);
    if (sh < 0)
        return 0;
    switch (ir->op) {
    case OP_MMA: return lower_mma_sync(L, in, md, sh, ir);
    case OP_LDMATRIX: return lower_ldmatrix(L, in, md, sh, ir);
    case OP_MOVMATRIX: return lower_movmatrix(L, in, md, sh, ir);
    default: break;
    }
    int kind = md->tex[WMF_KIND];
    if (!kind) {
        diag_error(L->d, in->loc, "'wmma' needs .load, .store or .mma");
        return 0;
    }
    if (!wmma_shape_takes(sh, PT_F16) && !wmma_shape_takes(sh, PT_TF32) &&
        !wmma_shape_takes(sh, PT_F64)) {
        diag_error(L->d, in->loc, "'wmma' takes the shape .m16n16k16, .m8n32k16, .m32n8k16, "
                                  ".m16n16k8 or .m8n8k4, not %s", mm_shapes[sh].name);
        return 0;
    }
    if (kind == 3)
        return lower_wmma_mma(L, in, md, sh, ir);
    return lower_wmma_ldst(L, in, md, sh, ir);
}

/* ---- asynchronous copies and mbarrier objects ------------------------------------- */

/* The instruction's opcode and modifiers 0..k, for messages. */
static const char *insn_text(const ast_insn *in, int k, char *buf, size_t n)
{
    size_t o = (size_t)snprintf(buf, n, "%s", in->op);
    for (int i = 0; i <= k && i < in->nmods && o < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s", in->mods[i]);
    return buf;
}

/*
 * Valid PTX of the cp and mbarrier families that lockstep does not run:
 * thread-block clusters (lockstep launches none: .cluster scope, another
 * CTA's shared memory), the tensor memory accelerator, bulk reductions,
 * prefetches, stores and bulk groups.  A load-time error naming the
 * instruction; 1 when refused.
 */
static int async_refuse(lower *L, const ast_insn *in)
{
    static const struct {
        const char *word, *what;
    } refused[] = {
        {".tensor", "tensor copies (the tensor memory accelerator)"},
        {".reduce", "bulk asynchronous reductions"},
        {".prefetch", "bulk prefetches"},
        {".bulk_group", "bulk asynchronous-group completion"},
        {".multicast::cluster", "multicast copies to thread-block clusters"},
        {".cluster", "cluster-scope operations (thread-block clusters)"},
        {".bulk", "bulk asynchronous copies"},
        {".expect_tx", "mbarrier transaction counts"},
        {".complete_tx", "mbarrier transaction counts"},
    };
    char text[160];
    for (int i = 0; i < in->nmods; i++) {
        const char *w = in->mods[i], *what = NULL;
        for (size_t k = 0; k < ARRAY_LEN(refused) && !what; k++)
            if (!strcmp(w, refused[k].word))
                what = refused[k].what;
        if (!what && !strcmp(w, ".shared::cluster"))
            what = "operations on other CTAs' shared memory (thread-block clusters)";
        if (what) {
            diag_unsupported(L->d, in->loc,
                             "unsupported instruction '%s' (%s are not implemented in lockstep)",
                             insn_text(in, i, text, sizeof text), what);
            return 1;
        }
    }
    return 0;
}

/* The index of in's first modifier that is a word of field f (AF_*), or -1. */
static int async_word(const ast_insn *in, int f)
{
    for (int i = 0; i < in->nmods; i++)
        for (size_t k = 0; k < ARRAY_LEN(modwords); k++)
            if (modwords[k].cat == MC_ASYNC && (int)(modwords[k].val >> 8) == f &&
                !strcmp(modwords[k].w, in->mods[i]))
                return i;
    return -1;
}

/* Refuse the words of the fields in `bad` (AF_* bits) that the instruction
 * has; 1 if it has none. */
static int async_only(lower *L, const ast_insn *in, const mods *md, uint32_t bad)
{
    for (int f = AF_OP; f <= AF_GSP; f++) {
        if (!(bad & (1u << (f - AF_OP))) || !md->tex[f])
            continue;
        int i = async_word(in, f);
        diag_error(L->d, i >= 0 ? in->modlocs[i] : in->loc, "'%s' is not valid here for '%s'",
                   i >= 0 ? in->mods[i] : "?", in->op);
        return 0;
    }
    return 1;
}
#define AB(f) (1u << ((f) - AF_OP))

/* A .shared address operand of an asynchronous copy, [reg+off], [var+off]
 * or [off]: its base as a value operand (a register, the variable's shared
 * offset with the offset folded in, or a constant) and the constant offset
 * added to a register. */
static int shared_ref(lower *L, const ast_insn *in, const ast_opnd *o, ir_opnd *base,
                      uint32_t *off)
{
    if (o->kind != AO_ADDR || o->nelems)
        return err_opnd(L, o, "expected a memory operand [address] for '%s'", in->op);
    memset(base, 0, sizeof *base);
    *off = 0;
    if (!o->name) {
        uint32_t row;
        if (!const_row(L, (uint64_t)o->off, &row))
            return 0;
        base->kind = IRO_CONST;
        base->idx = row;
        return 1;
    }
    if (lookup_reg(L, o->name, in->scope, base, NULL)) {
        if (base->kind != IRO_REG)
            return err_opnd(L, o, "predicate '%s' cannot be an address", o->name);
        *off = (uint32_t)o->off;
        return 1;
    }
    ast_opnd v = *o;
    v.kind = AO_NAME;
    if (!src_opnd(L, in, &v, PT_U32, base))
        return 0;
    if (base->kind != IRO_SHSYM)
        return err_opnd(L, o, "'%s' is not a .shared variable", o->name);
    return 1;
}

/* The mbarrier operand [addr] of `in` in ir's addr fields: .shared (AF_SP)
 * or a generic address. */
static int mbar_addr(lower *L, const ast_insn *in, const mods *md, const ast_opnd *o, ir_insn *ir)
{
    ir->space = md->tex[AF_SP] ? SP_SHARED : SP_GENERIC;
    if (!addr_opnd(L, in, o, ir))
        return 0;
    if (ir->space != SP_SHARED && ir->space != SP_GENERIC)
        return err_opnd(L, o, "an mbarrier object of '%s' is in shared memory", in->op);
    return 1;
}

/* mbarrier.OP{.parity}{.noComplete}{.sem}{.scope}{.shared{::cta}}.b64 operands
 * (ir.h, "Asynchronous copies and mbarrier objects") */
static int lower_mbarrier(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    const int *af = md->tex;
    int op = af[AF_OP] - 1;
    if (op < 0 || op > MBAR_PENDING_COUNT) {
        diag_error(L->d, in->loc, "'mbarrier' needs an operation (.init, .inval, .arrive, "
                                  ".arrive_drop, .test_wait, .try_wait, .pending_count)");
        return 0;
    }
    int arrive = op == MBAR_ARRIVE || op == MBAR_ARRIVE_DROP;
    int wait = op == MBAR_TEST_WAIT || op == MBAR_TRY_WAIT;
    uint32_t bad = AB(AF_ASYNC) | AB(AF_MBAR) | AB(AF_NOINC) | AB(AF_GSP);
    if (!wait)
        bad |= AB(AF_PARITY);
    if (!arrive)
        bad |= AB(AF_NOCOMPLETE);
    if (op == MBAR_PENDING_COUNT)
        bad |= AB(AF_SP);
    if (!async_only(L, in, md, bad))
        return 0;
    if (!want_ntypes(L, in, md, 1))
        return 0;
    if (md->types[0] != PT_B64) {
        diag_error(L->d, md->typelocs[0], "'mbarrier' takes .b64");
        return 0;
    }
    /* .release/.acquire at CTA scope need no mechanism here: the CTA's warps
     * share one SM and its paths (docs/MEMORY-MODEL.md) */
    int sem_ok = md->sem < 0 || md->sem == SEM_RELAXED ||
                 (arrive && md->sem == SEM_RELEASE) || (wait && md->sem == SEM_ACQUIRE);
    if (!sem_ok || ((op == MBAR_INIT || op == MBAR_INVAL || op == MBAR_PENDING_COUNT) &&
                    (md->sem >= 0 || md->scope >= 0))) {
        diag_error(L->d, in->loc, "'mbarrier%s' does not take that memory semantics or scope",
                   in->nmods ? in->mods[0] : "");
        return 0;
    }
    if (md->scope >= 0 && md->scope != SCOPE_CTA) {
        diag_error(L->d, in->loc, "'mbarrier' synchronizes a CTA (.cta)");
        return 0;
    }
    ir->type = PT_B64;
    ir->mode = (uint8_t)op;
    ir->bop = (uint8_t)((af[AF_PARITY] ? IRA_PARITY : 0) | (af[AF_NOCOMPLETE] ? IRA_NOCOMPLETE : 0));
    switch (op) {
    case MBAR_INIT:
        if (!want_nops(L, in, 2, 2) || !mbar_addr(L, in, md, &in->ops[0], ir) ||
            !src_opnd(L, in, &in->ops[1], PT_U32, &ir->s[0]))
            return 0;
        ir->nsrc = 1;
        return 1;
    case MBAR_INVAL:
        return want_nops(L, in, 1, 1) && mbar_addr(L, in, md, &in->ops[0], ir);
    case MBAR_ARRIVE: case MBAR_ARRIVE_DROP: {
        int need = (ir->bop & IRA_NOCOMPLETE) ? 3 : 2;
        if (!want_nops(L, in, (uint32_t)need, 3) || !dst_reg(L, in, &in->ops[0], PT_NONE, &ir->d[0]) ||
            !mbar_addr(L, in, md, &in->ops[1], ir))
            return 0;
        ir->ndst = 1;
        if (in->nops == 3) {
            if (!src_opnd(L, in, &in->ops[2], PT_U32, &ir->s[0]))
                return 0;
            ir->nsrc = 1;
            ir->flags |= IRF_HAS_C;
        }
        return 1;
    }
    case MBAR_TEST_WAIT: case MBAR_TRY_WAIT: {
        const ast_opnd *d = &in->ops[0];
        if (!want_nops(L, in, 3, op == MBAR_TRY_WAIT ? 4 : 3))
            return 0;
        if (d->kind != AO_NAME || d->off) {
            diag_error(L->d, d->loc, "expected a predicate destination for '%s'", in->op);
            return 0;
        }
        if (!dst_pred(L, in, d->name, d->loc, &ir->d[0]) || !mbar_addr(L, in, md, &in->ops[1], ir) ||
            !src_opnd(L, in, &in->ops[2], (ir->bop & IRA_PARITY) ? PT_U32 : PT_B64, &ir->s[0]))
            return 0;
        ir->ndst = 1;
        ir->nsrc = 1;
        if (in->nops == 4) {
            if (!src_opnd(L, in, &in->ops[3], PT_U32, &ir->s[1]))
                return 0;
            ir->nsrc = 2;
            ir->flags |= IRF_HAS_C;
        }
        return 1;
    }
    default: /* MBAR_PENDING_COUNT */
        if (!want_nops(L, in, 2, 2) || !dst_reg(L, in, &in->ops[0], PT_NONE, &ir->d[0]) ||
            !src_opnd(L, in, &in->ops[1], PT_B64, &ir->s[0]))
            return 0;
        ir->ndst = ir->nsrc = 1;
        return 1;
    }
}

/* The cache-policy operand that .L2::cache_hint adds: checked, not used
 * (a hint). */
static int cache_hint(const ast_insn *in)
{
    for (int i = 0; i < in->nmods; i++)
        if (!strcmp(in->mods[i], ".L2::cache_hint"))
            return 1;
    return 0;
}

/* cp.async.{ca,cg}.shared{::cta}.global{.L2::...} [dst], [src], cp-size{, src-size |
 * ignore-src}{, policy}; cp.async.commit_group; cp.async.wait_group N;
 * cp.async.wait_all; cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [mbar] */
static int lower_cp(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    const int *af = md->tex;
    int op = af[AF_OP] - 1, hint = cache_hint(in);
    ir_opnd policy;
    if (!af[AF_ASYNC]) {
        diag_error(L->d, in->loc, "'cp' needs .async (cp.async)");
        return 0;
    }
    const uint32_t not_mbar = AB(AF_PARITY) | AB(AF_NOCOMPLETE);
    if (af[AF_MBAR]) {
        if (op != MBAR_ARRIVE) {
            diag_error(L->d, in->loc, "expected cp.async.mbarrier.arrive");
            return 0;
        }
        if (!async_only(L, in, md, not_mbar | AB(AF_GSP)) ||
            !want_ntypes(L, in, md, 1))
            return 0;
        if (md->types[0] != PT_B64 || md->cache >= 0) {
            diag_error(L->d, in->loc, "'cp.async.mbarrier.arrive' takes .b64 and no cache operator");
            return 0;
        }
        ir->type = PT_B64;
        ir->mode = CPA_MBAR_ARRIVE;
        ir->bop = af[AF_NOINC] ? IRA_NOINC : 0;
        return want_nops(L, in, 1, 1) && mbar_addr(L, in, md, &in->ops[0], ir);
    }
    if (md->ntypes) {
        diag_error(L->d, md->typelocs[0], "'cp.async' takes no type here");
        return 0;
    }
    if (!async_only(L, in, md, not_mbar | AB(AF_NOINC)))
        return 0;
    if (op == CPA_COMMIT || op == CPA_WAIT_ALL || op == CPA_WAIT_GROUP) {
        if (!async_only(L, in, md, AB(AF_SP) | AB(AF_GSP)))
            return 0;
        if (md->cache >= 0) {
            diag_error(L->d, in->loc, "'%s%s' takes no cache operator", in->op, in->mods[0]);
            return 0;
        }
        ir->mode = (uint8_t)op;
        if (op != CPA_WAIT_GROUP)
            return want_nops(L, in, 0, 0);
        if (!want_nops(L, in, 1, 1))
            return 0;
        if (in->ops[0].kind != AO_INT || (int64_t)in->ops[0].bits < 0) {
            diag_error(L->d, in->ops[0].loc, "'cp.async.wait_group' takes a constant N >= 0");
            return 0;
        }
        ir->imm = (int64_t)in->ops[0].bits;
        return 1;
    }
    if (op >= 0) {
        int i = async_word(in, AF_OP);
        diag_error(L->d, i >= 0 ? in->modlocs[i] : in->loc, "'%s' is not valid here for 'cp'",
                   i >= 0 ? in->mods[i] : "?");
        return 0;
    }
    /* a copy: its destination's space first, then .global */
    int si = async_word(in, AF_SP), gi = async_word(in, AF_GSP);
    if (si < 0 || gi < 0 || si > gi) {
        diag_error(L->d, in->loc, "'cp.async' copies from .global to .shared: it needs "
                                  ".shared{::cta}.global");
        return 0;
    }
    uint32_t off;
    if (af[AF_SP] == 3) {
        diag_error(L->d, in->loc, "'cp.async.ca' and '.cg' copy into the CTA's own .shared "
                                  "memory");
        return 0;
    }
    if (md->cache != CACHE_CA && md->cache != CACHE_CG) {
        diag_error(L->d, in->loc, "'cp.async' needs .ca or .cg");
        return 0;
    }
    if (!want_nops(L, in, (uint32_t)(3 + hint), (uint32_t)(4 + hint)))
        return 0;
    const ast_opnd *sz = &in->ops[2];
    if (sz->kind != AO_INT || (sz->bits != 4 && sz->bits != 8 && sz->bits != 16) ||
        (md->cache == CACHE_CG && sz->bits != 16)) {
        diag_error(L->d, sz->loc, md->cache == CACHE_CG ? "'cp.async.cg' copies 16 bytes"
                                                        : "'cp.async' copies 4, 8 or 16 bytes");
        return 0;
    }
    ir->type = sz->bits == 4 ? PT_B32 : sz->bits == 8 ? PT_B64 : PT_B128;
    ir->cache = (uint8_t)md->cache;
    ir->mode = CPA_COPY;
    if (!shared_ref(L, in, &in->ops[0], &ir->s[0], &off))
        return 0;
    ir->target = off;
    ir->space = SP_GLOBAL;
    if (!addr_opnd(L, in, &in->ops[1], ir))
        return 0;
    if (ir->space != SP_GLOBAL)
        return err_opnd(L, &in->ops[1], "the source of '%s' is in global memory", in->op);
    ir->nsrc = 1;
    if (in->nops == (uint32_t)(4 + hint)) {
        /* src-size (an integer) or ignore-src (a predicate) */
        const ast_opnd *x = &in->ops[3];
        ir_opnd t;
        if (x->kind == AO_NAME && lookup_reg(L, x->name, in->scope, &t, NULL) &&
            t.kind == IRO_PRED) {
            if (!src_pred(L, in, x, &ir->s[1]))
                return 0;
            ir->bop = IRA_IGNORE_SRC;
        } else {
            if (!src_opnd(L, in, x, PT_U32, &ir->s[1]))
                return 0;
            ir->bop = IRA_SRC_SIZE;
        }
        ir->nsrc = 2;
    }
    if (hint && !src_opnd(L, in, &in->ops[in->nops - 1], PT_B64, &policy))
        return 0;
    return 1;
}
#undef AB

static int lower_async(lower *L, const ast_insn *in, const mods *md, ir_insn *ir)
{
    return ir->op == OP_MBARRIER ? lower_mbarrier(L, in, md, ir) : lower_cp(L, in, md, ir);
}

/* Lower one instruction into ir; 0 on error (already reported). */
/* The lowering of each family (ptx_family), in the table's order. */
typedef int (*lower_fn)(lower *L, const ast_insn *in, const mods *md, ir_insn *ir);
static const lower_fn lower_family[FAM_COUNT] = {
    [FAM_ARITH] = lower_arith, [FAM_SFU] = lower_sfu,   [FAM_BITS] = lower_bits,
    [FAM_CMP] = lower_cmp,     [FAM_CVT] = lower_cvt,   [FAM_MOV] = lower_mov,
    [FAM_CVTA] = lower_cvta,   [FAM_MEM] = lower_mem,   [FAM_ATOM] = lower_atom,
    [FAM_BAR] = lower_bar,     [FAM_WARP] = lower_warp, [FAM_CALL] = lower_call,
    [FAM_VOP4] = lower_vop4,   [FAM_MISC] = lower_misc,  [FAM_TEX] = lower_tex,
    [FAM_WMMA] = lower_wmma,   [FAM_ASYNC] = lower_async,
};

static int lower_insn(lower *L, const ast_insn *in, ir_insn *ir)
{
    memset(ir, 0, sizeof *ir);
    ir->target = IR_NO_PC;
    ir->reconv = IR_NO_PC;
    ir->vec = 1;
    int op = -1;
    for (int i = 0; i < OP_COUNT; i++)
        if (!strcmp(ptx_ops[i].name, in->op)) {
            op = i;
            break;
        }
    if (op < 0) {
        for (size_t i = 0; i < ARRAY_LEN(unsupported_ops); i++)
            if (unsupported_ops[i].what && !strcmp(unsupported_ops[i].name, in->op)) {
                diag_unsupported(L->d, in->loc, "unsupported instruction '%s' (%s are not implemented in lockstep yet)",
                                 in->op, unsupported_ops[i].what);
                return 0;
            }
        diag_error(L->d, in->loc, "unknown instruction '%s'", in->op);
        return 0;
    }
    const ptx_opinfo *spec = &ptx_ops[op];
    ir->op = (uint16_t)op;
    if (in->guard) {
        ir_opnd g;
        if (!dst_pred(L, in, in->guard, in->guardloc, &g))
            return 0;
        g.neg = in->guard_neg;
        ir->guard = g;
    }
    if (spec->fam == FAM_ASYNC && async_refuse(L, in))
        return 0;
    mods md;
    if (!decode_mods(L, in, spec, &md))
        return 0;
    /* the operand type-checking rule of the family (see reg_type_fits) */
    switch (spec->fam) {
    case FAM_CVT: case FAM_MEM: L->tc = TC_RELAXED; break;
    case FAM_ARITH: case FAM_SFU: case FAM_BITS: case FAM_CMP: case FAM_MOV: case FAM_CVTA:
    case FAM_ATOM: case FAM_BAR: case FAM_WARP: L->tc = TC_STRICT; break;
    default: L->tc = TC_OFF; break;
    }
    size_t k = (size_t)snprintf(L->insn_name, sizeof L->insn_name, "%s", in->op);
    for (int i = 0; i < in->nmods && k < sizeof L->insn_name; i++)
        k += (size_t)snprintf(L->insn_name + k, sizeof L->insn_name - k, "%s", in->mods[i]);
    return lower_family[spec->fam](L, in, &md, ir);
}

/* ---- declarations ------------------------------------------------------------------ */

/* Size in bytes of a variable; 0 for unsized arrays without initializer. */
static uint64_t var_size(const ast_var *v)
{
    uint64_t elem = (uint64_t)ptx_type_size((ptx_type)v->type) * (v->vec ? v->vec : 1);
    uint64_t count = v->count;
    if (v->is_unsized && v->ninit)
        count = v->ninit / (v->vec ? v->vec : 1);
    return elem * count;
}

static uint32_t var_align(const ast_var *v)
{
    uint32_t a = v->align ? v->align : type_align((ptx_type)v->type) * (v->vec ? v->vec : 1);
    return a ? a : 1;
}

/* Declare the registers, frame variables and protos of a body. */
static int declare_body(lower *L)
{
    const ast_func *af = L->af;
    int ok = 1;
    for (size_t i = 0; i < af->vars.n; i++) {
        const ast_var *v = &af->vars.v[i];
        uint32_t val;
        if (strmap_get(&L->names, v->name, v->scope, &val)) {
            diag_error(L->d, v->loc, "'%s' is declared twice in the same scope", v->name);
            ok = 0;
            continue;
        }
        if (v->space == SP_REG) {
            if (v->type == PT_B128 || v->vec > 1) {
                diag_unsupported(L->d, v->loc, "register '%s' of a vector or 128-bit type is not supported",
                                 v->name);
                ok = 0;
                continue;
            }
            reginfo ri;
            memset(&ri, 0, sizeof ri);
            ri.is_pred = v->type == PT_PRED;
            ri.is_range = v->nregs > 0;
            ri.type = v->type;
            ri.count = v->nregs ? v->nregs : 1;
            uint32_t *next = ri.is_pred ? &L->f->npreds : &L->f->nregs;
            ri.base = *next;
            if (*next + ri.count > (1u << 24)) {
                diag_error(L->d, v->loc, "too many registers in one function");
                ok = 0;
                continue;
            }
            *next += ri.count;
            if (!ri.is_pred)
                L->f->reg32_count += ri.count * (ptx_type_size((ptx_type)v->type) > 4 ? 2 : 1);
            if (vec_push(&L->regs, ri) ||
                strmap_put(&L->names, v->name, v->scope,
                           (FN_REG << KIND_SHIFT) | (uint32_t)(L->regs.n - 1))) {
                L->oom = 1;
                return 0;
            }
        } else if (v->space == SP_LOCAL || v->space == SP_PARAM) {
            uint64_t size = var_size(v);
            if (size == 0 || size > (1u << 24)) {
                diag_error(L->d, v->loc, "'%s' has an unusable size", v->name);
                ok = 0;
                continue;
            }
            uint32_t al = var_align(v);
            framevar fv;
            fv.off = (uint32_t)align_up64(L->frame_off, al);
            fv.size = (uint32_t)size;
            fv.space = v->space;
            L->frame_off = fv.off + fv.size;
            if (v->space == SP_LOCAL)
                L->f->local_bytes = L->frame_off;
            if (vec_push(&L->fvars, fv) ||
                strmap_put(&L->names, v->name, v->scope,
                           (FN_FRAME << KIND_SHIFT) | (uint32_t)(L->fvars.n - 1))) {
                L->oom = 1;
                return 0;
            }
        } else {
            /* .shared/.global/.const inside a body: function-scoped module variables */
            uint32_t mv;
            uint32_t key;
            (void)key;
            if (!strmap_get(&L->syms, v->name, 0x80000000u | L->fidx, &mv)) {
                /* its declaration failed, and said why (declare_var) */
                if (!L->d->nerrors)
                    diag_error(L->d, v->loc, "'%s' could not be declared", v->name);
                ok = 0;
                continue;
            }
            if (strmap_put(&L->names, v->name, v->scope, (FN_MVAR << KIND_SHIFT) | (mv & IDX_MASK))) {
                L->oom = 1;
                return 0;
            }
        }
    }
    for (size_t i = 0; i < af->labels.n; i++) {
        const ast_label *lb = &af->labels.v[i];
        uint32_t val;
        if (strmap_get(&L->labels, lb->name, lb->scope, &val)) {
            diag_error(L->d, lb->loc, "label '%s' defined twice", lb->name);
            ok = 0;
            continue;
        }
        if (strmap_put(&L->labels, lb->name, lb->scope, lb->insn)) {
            L->oom = 1;
            return 0;
        }
    }
    return ok;
}

/* Parameters: kernel parameter buffer layout, or frame offsets of a function. */
static int declare_params(lower *L, const ast_var *ps, uint32_t n, ir_param **out, int kparam)
{
    if (!n) {
        *out = NULL;
        return 1;
    }
    *out = xcalloc(L, n, sizeof(ir_param));
    if (!*out)
        return 0;
    uint32_t off = kparam ? 0 : L->frame_off;
    for (uint32_t i = 0; i < n; i++) {
        const ast_var *v = &ps[i];
        if (v->space == SP_REG) {
            diag_unsupported(L->d, v->loc, ".reg parameters (non-ABI functions) are not supported");
            return 0;
        }
        uint64_t size = var_size(v);
        if (size == 0 || size > 32768) {
            diag_error(L->d, v->loc, "parameter '%s' has an unusable size", v->name);
            return 0;
        }
        uint32_t al = var_align(v);
        off = (uint32_t)align_up64(off, al);
        (*out)[i].name = v->name;
        (*out)[i].offset = off;
        (*out)[i].size = (uint32_t)size;
        (*out)[i].align = al;
        uint32_t val;
        if (strmap_get(&L->names, v->name, 0, &val)) {
            diag_error(L->d, v->loc, "parameter '%s' declared twice", v->name);
            return 0;
        }
        uint32_t code;
        if (kparam) {
            code = (FN_KPARAM << KIND_SHIFT) | i;
        } else {
            framevar fv = {off, (uint32_t)size, SP_PARAM};
            if (vec_push(&L->fvars, fv)) {
                L->oom = 1;
                return 0;
            }
            code = (FN_FRAME << KIND_SHIFT) | (uint32_t)(L->fvars.n - 1);
        }
        if (strmap_put(&L->names, v->name, 0, code)) {
            L->oom = 1;
            return 0;
        }
        off += (uint32_t)size;
    }
    if (kparam) {
        L->f->param_bytes = off;
        if (off > 32764) {
            diag_error(L->d, ps[0].loc, "kernel parameters take %u bytes; the limit is 32764", off);
            return 0;
        }
    } else {
        L->frame_off = off;
    }
    return 1;
}

static int lower_function(lower *L, uint32_t fi, const ast_func *af)
{
    ir_func *f = &L->m->funcs[fi];
    L->af = af;
    L->f = f;
    L->fidx = fi;
    strmap_init(&L->names);
    strmap_init(&L->labels);
    L->regs.n = 0;
    L->fvars.n = 0;
    L->frame_off = 0;
    L->sink_reg = L->sink_pred = -1;
    int ok = 1;
    if (af->is_entry) {
        ok = declare_params(L, af->params, af->nparams, &f->params, 1);
    } else {
        ok = declare_params(L, af->params, af->nparams, &f->params, 0) &&
             declare_params(L, af->rets, af->nrets, &f->rets, 0);
    }
    f->nparams = af->nparams;
    f->nrets = af->is_entry ? 0 : af->nrets;
    ok = ok && declare_body(L);
    f->start = (uint32_t)L->code.n;
    /* where each PTX instruction's code starts: one PTX instruction may
     * become several (wmma.load/store), so branch targets, given as PTX
     * instruction indices, are mapped once the body is done */
    uint32_t *at = malloc((af->insns.n + 1) * sizeof *at);
    if (!at)
        L->oom = 1;
    size_t done = 0;
    for (size_t i = 0; at && ok && i < af->insns.n && !L->oom; i++) {
        const ast_insn *in = &af->insns.v[i];
        ir_insn ir;
        at[i] = (uint32_t)(L->code.n - f->start);
        done = i + 1;
        L->extra.n = 0;
        if (!lower_insn(L, in, &ir)) {
            memset(&ir, 0, sizeof ir);
            ir.op = OP_TRAP;
            ir.target = ir.reconv = IR_NO_PC;
            L->extra.n = 0;
        }
        ir_srcpos sp = {in->loc.line, in->loc.col, in->src_line, 0, 0};
        for (size_t k = 0; k < L->am->files.n; k++)
            if (L->am->files.v[k].id == in->src_file && in->src_line)
                sp.src_file = (uint16_t)(k + 1);
        if (vec_push(&L->code, ir) || vec_push(&L->pos, sp)) {
            L->oom = 1;
            break;
        }
        for (size_t k = 0; k < L->extra.n; k++)
            if (vec_push(&L->code, L->extra.v[k]) || vec_push(&L->pos, sp)) {
                L->oom = 1;
                break;
            }
        if (L->d->nerrors >= DIAG_MAX_ERRORS)
            break;
    }
    if (at) {
        for (size_t i = done; i <= af->insns.n; i++)
            at[i] = (uint32_t)(L->code.n - f->start);
        for (size_t pc = f->start; pc < L->code.n; pc++) {
            ir_insn *b = &L->code.v[pc];
            if (b->op == OP_BRA && b->target != IR_NO_PC)
                b->target = f->start + at[b->target <= af->insns.n ? b->target : af->insns.n];
        }
        free(at);
    }
    /* close the body: falling off the end returns (or exits a kernel) */
    const ir_insn *last = L->code.n > f->start ? &L->code.v[L->code.n - 1] : NULL;
    int closed = last && !last->guard.kind &&
                 (last->op == OP_RET || last->op == OP_EXIT || last->op == OP_TRAP ||
                  (last->op == OP_BRA));
    /* a label at the very end also needs an instruction to land on */
    for (size_t i = 0; i < af->labels.n; i++)
        if (af->labels.v[i].insn == af->insns.n)
            closed = 0;
    if (!closed) {
        ir_insn ir;
        memset(&ir, 0, sizeof ir);
        ir.op = OP_RET;
        ir.flags = IRF_IMPLICIT;
        ir.target = ir.reconv = IR_NO_PC;
        ir.vec = 1;
        ir_srcpos sp = {af->loc.line, af->loc.col, 0, 0, 0};
        if (vec_push(&L->code, ir) || vec_push(&L->pos, sp))
            L->oom = 1;
    }
    f->end = (uint32_t)L->code.n;
    f->frame_bytes = (uint32_t)align_up64(L->frame_off, 16);
    for (int k = 0; k < 3; k++) {
        f->maxntid[k] = af->maxntid[k];
        f->reqntid[k] = af->reqntid[k];
    }
    f->minnctapersm = af->minnctapersm;
    strmap_free(&L->names);
    strmap_free(&L->labels);
    return ok && !L->oom;
}

/* Initializer data of a module variable into buf (size bytes). */
static int init_data(lower *L, const ast_var *v, uint8_t *buf, uint64_t size)
{
    ptx_type t = (ptx_type)v->type;
    int es = ptx_type_size(t);
    uint64_t n = v->ninit;
    if ((uint64_t)es * n > size) {
        diag_error(L->d, v->loc, "'%s' has %llu initializers for %llu elements", v->name,
                   (unsigned long long)n, (unsigned long long)(size / (uint64_t)es));
        return 0;
    }
    for (uint64_t i = 0; i < n; i++) {
        const ast_init *it = &v->init[i];
        uint64_t val = 0;
        ast_opnd tmp;
        memset(&tmp, 0, sizeof tmp);
        tmp.loc = it->loc;
        tmp.bits = it->bits;
        switch (it->kind) {
        case AI_INT: tmp.kind = AO_INT; break;
        case AI_F32: tmp.kind = AO_F32; break;
        case AI_F64: tmp.kind = AO_F64; break;
        default: break;
        }
        if (it->kind == AI_SYM || it->kind == AI_GENERIC_SYM) {
            uint32_t sv;
            if (!strmap_get(&L->syms, it->name, 0, &sv)) {
                diag_error(L->d, it->loc, "unknown symbol '%s' in an initializer", it->name);
                return 0;
            }
            uint32_t kind = sv >> KIND_SHIFT, idx = sv & IDX_MASK;
            if (kind == SYM_FUNC) {
                val = ADDR_FUNC_WINDOW + 16ull * idx;
                L->m->funcs[idx].addr_taken = 1;
            } else {
                const ir_var *tv = &L->vars.v[idx];
                if (tv->space != SP_GLOBAL && tv->space != SP_CONST) {
                    diag_unsupported(L->d, it->loc, "initializers can only take the address of .global/.const variables");
                    return 0;
                }
                val = tv->addr;
            }
            val += (uint64_t)it->off;
            if (es < 8) {
                diag_error(L->d, it->loc, "an address needs a 64-bit element");
                return 0;
            }
        } else if (!imm_value(L, &tmp, t == PT_B8 || t == PT_U8 || t == PT_S8 ? PT_U64 : t, &val)) {
            return 0;
        }
        memcpy(buf + i * (uint64_t)es, &val, (size_t)es); /* little-endian host */
    }
    return 1;
}

/* Declare module variables (and function-scoped .shared/.global/.const ones). */
static int declare_var(lower *L, const ast_var *v, uint32_t scope_key, int *is_dup)
{
    *is_dup = 0;
    uint32_t old;
    if (strmap_get(&L->syms, v->name, scope_key, &old)) {
        *is_dup = 1;
        /* .extern followed by a definition, or two externs: merge */
        const ir_var *ov = &L->vars.v[old & IDX_MASK];
        if ((old >> KIND_SHIFT) == SYM_VAR && ov->space == v->space && v->linkage == AL_EXTERN)
            return 1;
        diag_error(L->d, v->loc, "'%s' is declared twice", v->name);
        return 0;
    }
    if (v->space == SP_REG || v->space == SP_PARAM) {
        diag_error(L->d, v->loc, "%s variables cannot be declared at module scope",
                   ptx_space_names[v->space]);
        return 0;
    }
    ir_var iv;
    memset(&iv, 0, sizeof iv);
    iv.name = v->name;
    iv.space = v->space;
    iv.align = var_align(v);
    iv.size = var_size(v);
    iv.is_extern = v->space == SP_SHARED && v->is_unsized && !v->ninit;
    if (v->vec > 1 && v->space != SP_SHARED && v->space != SP_GLOBAL && v->space != SP_CONST) {
        diag_unsupported(L->d, v->loc, "vector-typed variables are not supported here");
        return 0;
    }
    if (iv.size == 0 && !iv.is_extern) {
        if (v->linkage == AL_EXTERN) {
            diag_unsupported(L->d, v->loc, "external variable '%s' has no definition in this module",
                             v->name);
            return 0;
        }
        diag_error(L->d, v->loc, "'%s' has size zero", v->name);
        return 0;
    }
    if (v->space == SP_SHARED && iv.size > (1u << 30)) {
        diag_error(L->d, v->loc, "'%s' is too large for shared memory", v->name);
        return 0;
    }
    if (v->space == SP_LOCAL) {
        iv.addr = align_up64(L->m->module_local_bytes, iv.align);
        if (iv.addr + iv.size > (1u << 24)) {
            diag_error(L->d, v->loc, "'%s' is too large for local memory", v->name);
            return 0;
        }
        L->m->module_local_bytes = (uint32_t)(iv.addr + iv.size);
    } else if (v->space == SP_GLOBAL || v->space == SP_CONST) {
        if (v->space == SP_CONST && iv.size > 65536) {
            diag_error(L->d, v->loc, "'%s' is %llu bytes; constant memory holds 64 KiB", v->name,
                       (unsigned long long)iv.size);
            return 0;
        }
        uint32_t al = iv.align < 256 ? 256 : iv.align;
        if (L->env) {
            if (L->env->alloc_global(L->env->ud, iv.size, al, &iv.addr)) {
                diag_error(L->d, v->loc, "out of device memory for '%s' (%llu bytes)", v->name,
                           (unsigned long long)iv.size);
                return 0;
            }
        } else {
            iv.addr = align_up64(L->fake_addr, al);
            L->fake_addr = iv.addr + iv.size;
        }
    } else if (v->init && v->ninit) {
        diag_error(L->d, v->loc, "%s variables cannot have initializers", ptx_space_names[v->space]);
        return 0;
    }
    if (vec_push(&L->vars, iv) ||
        strmap_put(&L->syms, v->name, scope_key, (SYM_VAR << KIND_SHIFT) | (uint32_t)(L->vars.n - 1))) {
        L->oom = 1;
        return 0;
    }
    return 1;
}

/* ---- kernels: reachability, shared layout, resource totals ------------------------ */

static void reach(lower *L, uint32_t fi, uint8_t *seen)
{
    /* iterative DFS over direct callees; indirect calls reach every address-taken function */
    u32vec stack = {0};
    if (vec_push(&stack, fi)) {
        L->oom = 1;
        return;
    }
    seen[fi] = 1;
    while (stack.n) {
        uint32_t f = stack.v[--stack.n];
        u32vec *cl = &L->fcallees[f];
        for (size_t k = 0; k <= cl->n; k++) {
            if (k == cl->n) {
                if (!L->f_indirect[f])
                    break;
                for (uint32_t g = 0; g < L->m->nfuncs; g++)
                    if (L->m->funcs[g].addr_taken && L->m->funcs[g].has_body && !seen[g]) {
                        seen[g] = 1;
                        if (vec_push(&stack, g))
                            L->oom = 1;
                    }
                break;
            }
            uint32_t g = cl->v[k];
            if (!seen[g]) {
                seen[g] = 1;
                if (vec_push(&stack, g))
                    L->oom = 1;
            }
        }
    }
    vec_free(&stack);
}

/* Deepest frame chain from f (bytes); sets *recursive on a cycle. */
static uint32_t frame_depth(lower *L, uint32_t f, uint8_t *state, uint32_t *memo, int *recursive,
                            int depth)
{
    if (state[f] == 2)
        return memo[f];
    if (state[f] == 1 || depth > 4096) {
        *recursive = 1;
        return 0;
    }
    state[f] = 1;
    uint32_t best = 0;
    u32vec *cl = &L->fcallees[f];
    for (size_t k = 0; k < cl->n; k++) {
        uint32_t d = frame_depth(L, cl->v[k], state, memo, recursive, depth + 1);
        if (d > best)
            best = d;
    }
    if (L->f_indirect[f]) {
        for (uint32_t g = 0; g < L->m->nfuncs; g++)
            if (L->m->funcs[g].addr_taken && L->m->funcs[g].has_body) {
                uint32_t d = frame_depth(L, g, state, memo, recursive, depth + 1);
                if (d > best)
                    best = d;
            }
    }
    state[f] = 2;
    memo[f] = L->m->funcs[f].frame_bytes + best;
    return memo[f];
}

/* Does f read a %reserved_smem_offset_* register? */
static int reads_rsmem(const ir_module *m, const ir_func *f)
{
    if (!f->has_body)
        return 0;
    for (uint32_t pc = f->start; pc < f->end; pc++) {
        const ir_insn *in = &m->code[pc];
        for (int i = 0; i < in->nsrc && i < 4; i++)
            if (in->s[i].kind == IRO_SREG && IR_SREG_IS_RSMEM(in->s[i].idx))
                return 1;
    }
    return 0;
}

static int finish_kernels(lower *L)
{
    ir_module *m = L->m;
    uint8_t *seen = xcalloc(L, m->nfuncs, 1);
    uint8_t *state = xcalloc(L, m->nfuncs, 1);
    uint32_t *memo = xcalloc(L, m->nfuncs, sizeof(uint32_t));
    if (!seen || !state || !memo)
        goto out;
    for (uint32_t k = 0; k < m->nfuncs; k++) {
        ir_func *kf = &m->funcs[k];
        if (!kf->is_entry || !kf->has_body)
            continue;
        memset(seen, 0, m->nfuncs);
        reach(L, k, seen);
        kf->shared_off = xcalloc(L, m->nvars ? m->nvars : 1, sizeof(uint32_t));
        if (!kf->shared_off)
            goto out;
        uint32_t *used = kf->shared_off;
        for (uint32_t v = 0; v < m->nvars; v++)
            used[v] = UINT32_MAX;
        /* mark the shared variables any reachable function refers to */
        uint8_t *mark = xcalloc(L, m->nvars ? m->nvars : 1, 1);
        if (!mark)
            goto out;
        uint32_t regs_max = 0, insts = 0;
        int rsmem = 0;
        for (uint32_t g = 0; g < m->nfuncs; g++) {
            if (!seen[g])
                continue;
            for (size_t i = 0; i < L->fshvars[g].n; i++)
                mark[L->fshvars[g].v[i]] = 1;
            insts += m->funcs[g].end - m->funcs[g].start;
            if (g != k && m->funcs[g].reg32_count > regs_max)
                regs_max = m->funcs[g].reg32_count;
            rsmem |= reads_rsmem(m, &m->funcs[g]);
        }
        uint64_t off = 0;
        uint32_t dyn_align = 16;
        for (uint32_t v = 0; v < m->nvars; v++) {
            if (!mark[v] || m->vars[v].space != SP_SHARED)
                continue;
            if (m->vars[v].is_extern) {
                kf->uses_dyn_shared = 1;
                if (m->vars[v].align > dyn_align)
                    dyn_align = m->vars[v].align;
                continue;
            }
            off = align_up64(off, m->vars[v].align);
            used[v] = (uint32_t)off;
            off += m->vars[v].size;
        }
        free(mark);
        if (rsmem) { /* the reserved region (ir.h, IR_RSMEM_BYTES) */
            off = align_up64(off, 16);
            kf->rsmem_off = (uint32_t)off;
            kf->rsmem_bytes = IR_RSMEM_BYTES;
            off += IR_RSMEM_BYTES;
        }
        if (off > (1u << 30)) {
            diag_error(L->d, (ast_loc){kf->ptx_line, 1}, "kernel '%s' uses too much shared memory",
                       kf->name);
            goto out;
        }
        kf->shared_bytes = (uint32_t)off;
        kf->dyn_shared_off = (uint32_t)align_up64(off, dyn_align);
        for (uint32_t v = 0; v < m->nvars; v++)
            if (m->vars[v].space == SP_SHARED && m->vars[v].is_extern)
                used[v] = kf->dyn_shared_off;
        kf->total_regs = kf->reg32_count + regs_max;
        kf->total_insts = insts;
        int recursive = 0;
        memset(state, 0, m->nfuncs);
        uint32_t depth = frame_depth(L, k, state, memo, &recursive, 0);
        kf->recursive = (uint8_t)recursive;
        kf->max_frame_depth_bytes = recursive ? 0 : depth;
    }
out:
    free(seen);
    free(state);
    free(memo);
    return !L->oom;
}

/* ---- driver ----------------------------------------------------------------------- */

static int lower_module(lower *L)
{
    const ast_module *am = L->am;
    ir_module *m = L->m;
    m->version_major = am->version_major;
    m->version_minor = am->version_minor;
    /* functions: forward declarations merge with their definitions */
    m->funcs = xcalloc(L, am->funcs.n, sizeof(ir_func));
    uint32_t *fmap = xcalloc(L, am->funcs.n, sizeof(uint32_t)); /* ast func -> ir func */
    if (!m->funcs || !fmap) {
        free(fmap);
        return 0;
    }
    int ok = 1;
    for (size_t i = 0; i < am->funcs.n; i++) {
        const ast_func *af = &am->funcs.v[i];
        uint32_t v;
        if (strmap_get(&L->syms, af->name, 0, &v)) {
            uint32_t fi = v & IDX_MASK;
            if ((v >> KIND_SHIFT) != SYM_FUNC) {
                diag_error(L->d, af->loc, "'%s' is already a variable", af->name);
                ok = 0;
                fmap[i] = UINT32_MAX;
                continue;
            }
            ir_func *f = &m->funcs[fi];
            if (f->has_body && af->has_body) {
                diag_error(L->d, af->loc, "function '%s' is defined twice", af->name);
                ok = 0;
                fmap[i] = UINT32_MAX;
                continue;
            }
            if (f->is_entry != af->is_entry || f->nparams != af->nparams ||
                f->nrets != (af->is_entry ? 0 : af->nrets)) {
                diag_error(L->d, af->loc, "'%s' does not match its earlier declaration", af->name);
                ok = 0;
            }
            if (af->has_body) {
                f->has_body = 1;
                f->ptx_line = af->loc.line;
            }
            fmap[i] = fi;
            continue;
        }
        ir_func *f = &m->funcs[m->nfuncs];
        f->name = af->name;
        f->is_entry = af->is_entry;
        f->has_body = af->has_body;
        f->nparams = af->nparams;
        f->nrets = af->is_entry ? 0 : af->nrets;
        f->ptx_line = af->loc.line;
        fmap[i] = m->nfuncs;
        if (strmap_put(&L->syms, af->name, 0, (SYM_FUNC << KIND_SHIFT) | m->nfuncs)) {
            L->oom = 1;
            free(fmap);
            return 0;
        }
        m->nfuncs++;
    }
    /* module variables, then function-scoped ones (keyed by function) */
    for (size_t i = 0; i < am->vars.n; i++) {
        int dup;
        ok &= declare_var(L, &am->vars.v[i], 0, &dup);
    }
    for (size_t i = 0; i < am->funcs.n; i++) {
        if (fmap[i] == UINT32_MAX)
            continue;
        const ast_func *af = &am->funcs.v[i];
        for (size_t k = 0; k < af->vars.n; k++) {
            const ast_var *v = &af->vars.v[k];
            if (v->space == SP_SHARED || v->space == SP_GLOBAL || v->space == SP_CONST) {
                int dup;
                ok &= declare_var(L, v, 0x80000000u | fmap[i], &dup);
            }
        }
    }
    m->vars = L->vars.v;
    m->nvars = (uint32_t)L->vars.n;
    /* initial data */
    for (size_t i = 0; ok && i < am->vars.n; i++) {
        const ast_var *v = &am->vars.v[i];
        if (!v->ninit || (v->space != SP_GLOBAL && v->space != SP_CONST))
            continue;
        uint32_t sv;
        if (!strmap_get(&L->syms, v->name, 0, &sv))
            continue;
        ir_var *iv = &L->vars.v[sv & IDX_MASK];
        uint8_t *buf = xcalloc(L, (size_t)iv->size, 1);
        if (!buf)
            break;
        if (init_data(L, v, buf, iv->size) && L->env &&
            L->env->write_global(L->env->ud, iv->addr, buf, iv->size)) {
            diag_error(L->d, v->loc, "out of host memory initializing '%s'", v->name);
            ok = 0;
        }
        if (!iv->init) { /* kept: a device reset writes it again */
            iv->init = buf;
            buf = NULL;
        }
        free(buf);
    }
    L->fshvars = xcalloc(L, m->nfuncs, sizeof *L->fshvars);
    L->fcallees = xcalloc(L, m->nfuncs, sizeof *L->fcallees);
    L->f_indirect = xcalloc(L, m->nfuncs, 1);
    if (!L->fshvars || !L->fcallees || !L->f_indirect) {
        free(fmap);
        return 0;
    }
    /* bodies */
    for (size_t i = 0; i < am->funcs.n && !L->oom; i++) {
        const ast_func *af = &am->funcs.v[i];
        if (!af->has_body || fmap[i] == UINT32_MAX)
            continue;
        ok &= lower_function(L, fmap[i], af);
        if (L->d->nerrors >= DIAG_MAX_ERRORS)
            break;
    }
    free(fmap);
    if (!ok || L->d->nerrors || L->oom)
        return 0;
    m->code = L->code.v;
    m->pos = L->pos.v;
    m->ncode = (uint32_t)L->code.n;
    L->code.v = NULL;
    L->pos.v = NULL;
    m->calls = L->calls.v;
    m->ncalls = (uint32_t)L->calls.n;
    L->calls.v = NULL;
    L->calls.n = 0;
    m->shrefs = L->shrefs.v;
    m->nshrefs = (uint32_t)L->shrefs.n;
    L->shrefs.v = NULL;
    m->mmas = L->mmas.v;
    m->nmmas = (uint32_t)L->mmas.n;
    L->mmas.v = NULL;
    L->mmas.n = 0;
    /* constant pool rows */
    m->nkrows = (uint32_t)L->krows.n;
    m->kpool = malloc((L->krows.n ? L->krows.n : 1) * 32 * sizeof(uint64_t));
    if (!m->kpool) {
        L->oom = 1;
        return 0;
    }
    for (size_t r = 0; r < L->krows.n; r++)
        for (int l = 0; l < 32; l++)
            m->kpool[r * 32 + (size_t)l] = L->krows.v[r];
    /* files */
    if (am->files.n) {
        m->files = calloc(am->files.n, sizeof(char *));
        if (!m->files) {
            L->oom = 1;
            return 0;
        }
        for (size_t k = 0; k < am->files.n; k++)
            m->files[k] = am->files.v[k].name;
        m->nfiles = (uint32_t)am->files.n;
    }
    if (cfg_compute_reconvergence(m, L->d) || cfg_compute_zero_rows(m, L->d))
        return 0;
    ir_classify(m);
    return finish_kernels(L);
}

/* Copy every name the module keeps into its own arena: the AST's arena
 * dies with the AST. */
static int own_strings(ir_module *m)
{
    arena *A = malloc(sizeof *A);
    if (!A)
        return 0;
    arena_init(A);
    m->strings = A;
#define OWN(field)                                                                         \
    do {                                                                                   \
        if (field) {                                                                       \
            char *c_ = arena_strndup(A, (field), strlen(field));                           \
            if (!c_)                                                                       \
                return 0;                                                                  \
            (field) = c_;                                                                  \
        }                                                                                  \
    } while (0)
    OWN(m->filename);
    OWN(m->target);
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ir_func *f = &m->funcs[i];
        OWN(f->name);
        for (uint32_t k = 0; k < f->nparams && f->params; k++)
            OWN(f->params[k].name);
        for (uint32_t k = 0; k < f->nrets && f->rets; k++)
            OWN(f->rets[k].name);
    }
    for (uint32_t i = 0; i < m->nvars; i++)
        OWN(m->vars[i].name);
    for (uint32_t i = 0; i < m->nfiles; i++)
        OWN(m->files[i]);
#undef OWN
    return 1;
}

int ptx_lower(const ast_module *am, const lower_env *env, diag *d, ir_module **out)
{
    *out = NULL;
    lower L;
    memset(&L, 0, sizeof L);
    L.d = d;
    L.am = am;
    L.env = env;
    L.fake_addr = ADDR_GLOBAL_BASE;
    strmap_init(&L.syms);
    L.m = calloc(1, sizeof(ir_module));
    if (!L.m) {
        d->oom = 1;
        return -1;
    }
    L.m->filename = am->filename;
    L.m->target = am->target;
    int ok = lower_module(&L);
    if (ok && !own_strings(L.m))
        L.oom = 1;
    if (L.oom) {
        d->oom = 1;
        diag_error(d, (ast_loc){0, 0}, "out of host memory while loading");
        ok = 0;
    }
    if (!ok && !d->nerrors)
        diag_error(d, (ast_loc){0, 0},
                   d->oom ? "out of host memory while loading" : "module could not be loaded");
    /* release the lowering's scratch (any of these may be missing when an
     * allocation failed) */
    for (uint32_t i = 0; i < L.m->nfuncs; i++) {
        if (L.fshvars)
            vec_free(&L.fshvars[i]);
        if (L.fcallees)
            vec_free(&L.fcallees[i]);
    }
    free(L.fshvars);
    free(L.fcallees);
    free(L.f_indirect);
    for (size_t i = 0; i < L.calls.n; i++)
        free(L.calls.v[i].arg_off);
    vec_free(&L.calls);
    vec_free(&L.code);
    vec_free(&L.pos);
    vec_free(&L.shrefs);
    vec_free(&L.mmas);
    vec_free(&L.extra);
    vec_free(&L.krows);
    vec_free(&L.regs);
    vec_free(&L.fvars);
    free(L.kmap);
    strmap_free(&L.syms);
    if (!ok) {
        if (env)
            for (uint32_t i = 0; i < L.m->nvars; i++)
                if (L.m->vars[i].space == SP_GLOBAL || L.m->vars[i].space == SP_CONST)
                    env->free_global(env->ud, L.m->vars[i].addr);
        L.m->vars = L.vars.v;
        ir_module_free(L.m);
        return -1;
    }
    *out = L.m;
    return 0;
}
