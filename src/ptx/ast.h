/*
 * ast.h -- the parsed form of a PTX module, close to the text: names are
 * still strings, modifiers are still words, nothing is resolved.  parse.c
 * builds it; lower.c checks it and turns it into the IR (ir.h), after which
 * it is thrown away.  Everything lives in the module's parse arena.
 *
 * A function body is flattened: instructions in order, labels as positions
 * in that order, declarations tagged with the lexical scope ({ } block) they
 * appear in.  Scope 0 is the function's outermost block.
 */
#ifndef LOCKSTEP_PTX_AST_H
#define LOCKSTEP_PTX_AST_H

#include <stdint.h>

#include "ptx/types.h"
#include "util/arena.h"
#include "util/common.h"

typedef struct ast_loc {
    uint32_t line, col;
} ast_loc;

typedef enum ast_opnd_kind {
    AO_NAME,  /* register, symbol, label or function: name (+off) */
    AO_INT,   /* integer constant (bits) */
    AO_F32,   /* 0fXXXXXXXX */
    AO_F64,   /* 0dXXXXXXXXXXXXXXXX or a decimal literal */
    AO_ADDR,  /* [name], [name+off], [off] (name NULL) */
    AO_VEC,   /* {a, b, ...} */
    AO_LIST,  /* (a, b, ...) in call */
    AO_PAIR,  /* a|b */
    AO_SINK   /* _ */
} ast_opnd_kind;

typedef struct ast_opnd {
    uint8_t kind;
    uint8_t neg;        /* '!' prefix (predicates) */
    ast_loc loc;
    const char *name;   /* AO_NAME, AO_ADDR (may be NULL), AO_PAIR first */
    const char *name2;  /* AO_PAIR second */
    int64_t off;        /* AO_NAME/AO_ADDR offset */
    uint64_t bits;      /* AO_INT value, AO_F32/AO_F64 bits */
    struct ast_opnd *elems; /* AO_VEC, AO_LIST */
    uint32_t nelems;
} ast_opnd;

typedef VEC(ast_opnd) ast_opnd_vec;

#define AST_MAX_MODS 12

typedef struct ast_insn {
    ast_loc loc;        /* of the opcode */
    const char *op;     /* "ld" */
    const char *mods[AST_MAX_MODS]; /* ".global", ".u32" (with the dot) */
    ast_loc modlocs[AST_MAX_MODS];
    uint8_t nmods;
    uint8_t guard_neg;
    const char *guard;  /* predicate register name, NULL if unguarded */
    ast_loc guardloc;
    ast_opnd *ops;
    uint32_t nops;
    uint32_t scope;
    uint16_t src_file;  /* from the last .loc (0: none) */
    uint32_t src_line;
} ast_insn;

typedef struct ast_label {
    const char *name;
    ast_loc loc;
    uint32_t insn;      /* index of the instruction it precedes */
    uint32_t scope;
} ast_label;

typedef enum ast_init_kind { AI_INT, AI_F32, AI_F64, AI_SYM, AI_GENERIC_SYM } ast_init_kind;

typedef struct ast_init {
    uint8_t kind;
    uint64_t bits;      /* AI_INT value / float bits */
    const char *name;   /* AI_SYM, AI_GENERIC_SYM */
    int64_t off;
    ast_loc loc;
} ast_init;

typedef enum ast_linkage { AL_NONE, AL_VISIBLE, AL_EXTERN, AL_WEAK, AL_COMMON } ast_linkage;

typedef VEC(ast_init) ast_init_vec;

typedef struct ast_var {
    const char *name;
    ast_loc loc;
    uint8_t space;      /* ptx_space: REG GLOBAL SHARED LOCAL CONST PARAM */
    uint8_t type;       /* ptx_type of one element */
    uint8_t vec;        /* .v2 / .v4 element vectors: 2, 4; else 1 */
    uint8_t linkage;
    uint8_t is_array;   /* declared with [] */
    uint8_t is_unsized; /* declared with [] and no size (extern shared, or sized by initializer) */
    uint8_t ptr_space;  /* .ptr.<space> attribute of a kernel parameter */
    uint32_t align;     /* .align N, 0 if none */
    uint32_t ptr_align;
    uint64_t count;     /* elements (product of dimensions); 1 for scalars */
    uint32_t nregs;     /* .reg %r<N>: N; 0 for a single register */
    ast_init *init;
    uint32_t ninit;
    uint32_t scope;
} ast_var;

typedef VEC(ast_var) ast_var_vec;

/* label: .callprototype (ret) _ (params); */
typedef struct ast_proto {
    const char *name;
    ast_loc loc;
    ast_var *rets;
    uint32_t nrets;
    ast_var *params;
    uint32_t nparams;
    uint32_t scope;
} ast_proto;

typedef struct ast_func {
    const char *name;
    ast_loc loc;
    uint8_t is_entry;
    uint8_t linkage;
    uint8_t has_body;
    uint8_t noreturn;
    ast_var *params;
    uint32_t nparams;
    ast_var *rets;
    uint32_t nrets;
    uint32_t maxntid[3], reqntid[3];
    uint32_t minnctapersm, maxnreg;
    VEC(ast_insn) insns;
    VEC(ast_label) labels;
    ast_var_vec vars;       /* declarations in the body */
    VEC(ast_proto) protos;
    VEC(uint32_t) scope_parent; /* scope_parent.v[s] for s > 0; [0] unused */
} ast_func;

typedef struct ast_file {
    uint32_t id;
    const char *name;
} ast_file;

typedef struct ast_module {
    const char *filename;
    uint32_t version_major, version_minor;
    const char *target;     /* "sm_75" (first target word) */
    uint32_t address_size;
    ast_var_vec vars;       /* module scope */
    VEC(ast_func) funcs;
    VEC(ast_file) files;
    arena mem;
} ast_module;

void ast_module_free(ast_module *m);

#endif
