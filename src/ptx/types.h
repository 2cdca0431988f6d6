/*
 * types.h -- PTX's fundamental types and state spaces, shared by the parser,
 * the lowering to IR and the interpreter.  One X-macro table each, so the
 * enum, the names and the sizes cannot drift apart.
 */
#ifndef LOCKSTEP_PTX_TYPES_H
#define LOCKSTEP_PTX_TYPES_H

#include <stdint.h>

/*        enum     name       bytes  class */
#define PTX_TYPES(X)                         \
    X(NONE,   "",        0, PTC_NONE)        \
    X(PRED,   ".pred",   0, PTC_PRED)        \
    X(B8,     ".b8",     1, PTC_BITS)        \
    X(B16,    ".b16",    2, PTC_BITS)        \
    X(B32,    ".b32",    4, PTC_BITS)        \
    X(B64,    ".b64",    8, PTC_BITS)        \
    X(B128,   ".b128",  16, PTC_BITS)        \
    X(U8,     ".u8",     1, PTC_UINT)        \
    X(U16,    ".u16",    2, PTC_UINT)        \
    X(U32,    ".u32",    4, PTC_UINT)        \
    X(U64,    ".u64",    8, PTC_UINT)        \
    X(S8,     ".s8",     1, PTC_SINT)        \
    X(S16,    ".s16",    2, PTC_SINT)        \
    X(S32,    ".s32",    4, PTC_SINT)        \
    X(S64,    ".s64",    8, PTC_SINT)        \
    X(F16,    ".f16",    2, PTC_FLOAT)       \
    X(F16X2,  ".f16x2",  4, PTC_FLOAT)       \
    X(BF16,   ".bf16",   2, PTC_FLOAT)       \
    X(BF16X2, ".bf16x2", 4, PTC_FLOAT)       \
    X(TF32,   ".tf32",   4, PTC_FLOAT)       \
    X(F32,    ".f32",    4, PTC_FLOAT)       \
    X(F64,    ".f64",    8, PTC_FLOAT)       \
    X(U16X2,  ".u16x2",  4, PTC_UINT)        \
    X(S16X2,  ".s16x2",  4, PTC_SINT)

typedef enum ptx_type_class { PTC_NONE, PTC_PRED, PTC_BITS, PTC_UINT, PTC_SINT, PTC_FLOAT } ptx_type_class;

typedef enum ptx_type {
#define X(e, n, b, c) PT_##e,
    PTX_TYPES(X)
#undef X
    PT_COUNT
} ptx_type;

/* State spaces.  PARAM is split: kernel parameters (KPARAM, one buffer per
 * launch) and function parameters (the callee's frame, per thread). */
#define PTX_SPACES(X)        \
    X(NONE,    "")           \
    X(REG,     ".reg")       \
    X(GENERIC, "generic")    \
    X(GLOBAL,  ".global")    \
    X(SHARED,  ".shared")    \
    X(LOCAL,   ".local")     \
    X(CONST,   ".const")     \
    X(PARAM,   ".param")     \
    X(KPARAM,  ".param(kernel)") \
    X(FPARAM,  ".param(func)")

typedef enum ptx_space {
#define X(e, n) SP_##e,
    PTX_SPACES(X)
#undef X
    SP_COUNT
} ptx_space;

extern const char *const ptx_type_names[PT_COUNT];
extern const uint8_t ptx_type_bytes[PT_COUNT];
extern const uint8_t ptx_type_classes[PT_COUNT];
extern const char *const ptx_space_names[SP_COUNT];

static inline int ptx_type_size(ptx_type t) { return ptx_type_bytes[t]; }
static inline int ptx_type_bits(ptx_type t) { return 8 * ptx_type_bytes[t]; }
static inline int ptx_type_is_float(ptx_type t) { return ptx_type_classes[t] == PTC_FLOAT; }
static inline int ptx_type_is_signed(ptx_type t) { return ptx_type_classes[t] == PTC_SINT; }
static inline int ptx_type_is_int(ptx_type t)
{
    return ptx_type_classes[t] == PTC_SINT || ptx_type_classes[t] == PTC_UINT ||
           ptx_type_classes[t] == PTC_BITS;
}

/* .u16x2 and .s16x2: two 16-bit integers packed in a .b32 (add, min and max
 * on sm_90).  Integers by class, but never a 32-bit integer's arithmetic. */
static inline int ptx_type_is_int16x2(ptx_type t) { return t == PT_U16X2 || t == PT_S16X2; }

/* ".u32" -> PT_U32; PT_NONE if s is not a type name. */
ptx_type ptx_type_from_name(const char *s);

#endif
