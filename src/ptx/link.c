/*
 * link.c -- several PTX texts linked into one module (link.h): the device
 * code of a program built with nvcc -rdc=true, one text per translation
 * unit, in which `.extern` declarations name definitions in other texts.
 *
 * DESIGN
 * - Link at the AST.  Each text is parsed alone, so a syntax error names
 *   its own text; the definitions the program keeps are then gathered into
 *   one ast_module (shallow copies: the texts' ASTs stay alive until the
 *   lowering is done) and lowered once, as one module: calls across texts
 *   are ordinary calls, a variable shared by texts is one variable.
 * - One line numbering.  Text k's lines are numbered from first_line[k] on,
 *   one range after another, so every ast_loc of the merged AST is unique;
 *   the diag maps a line back to its text (diag_unit), and after lowering
 *   each function and instruction gets its text (ir_srcpos.ptx_file) and
 *   its own line back, for fault reports.
 * - Symbols by linkage, as nvlink binds them:
 *     .visible, .weak and .common definitions are global, one per name: a
 *       .visible one wins over .weak and .common ones; among .weak ones the
 *       first in text order; among .common variables the largest.  Two
 *       .visible definitions are an error naming both.
 *     .extern declarations and prototypes (a .func without a body) name a
 *       definition: the text's own if it has one, else the global one; with
 *       neither they are an error naming the symbol and where it is
 *       declared, except calls of lockstep's built-ins (vprintf, malloc,
 *       free, __assertfail, and CUDA's device runtime: ir_builtin_lookup),
 *       which no text defines.  A declaration must
 *       agree with its definition (function or variable, state space,
 *       parameters, size).  `.extern .shared` arrays without a size are
 *       dynamic shared memory, not a link symbol: they stay as written.
 *     Definitions without linkage (nvcc's format strings $str, math tables,
 *       static functions) belong to their text.  Where a global symbol or
 *       an earlier text uses the same name, the later one is renamed
 *       NAME@tuK (K its text's index; '@' cannot occur in a PTX name), in
 *       its declaration and every reference of its text that a local
 *       declaration does not shadow.
 *   Declarations, and the definitions that lose, are left out of the
 *   merged module.
 * - `.file` numbers are per text: they are renumbered into one table (a
 *   file named by several texts gets one number).
 * - The text of CUDA's device runtime (libcudadevrt, which nvlink links
 *   into a program with dynamic parallelism) is left out, unparsed: its
 *   functions are lockstep's built-ins (is_cudadevrt).
 */
#include "ptx/link.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ptx/parse.h"
#include "util/arena.h"
#include "util/common.h"
#include "util/strmap.h"

enum { LS_LOCAL, LS_GDEF, LS_REF, LS_DYNSHARED };

/* One module-scope declaration or definition of one text. */
typedef struct lsym {
    const char *name;
    uint32_t unit;
    uint32_t idx;    /* in its text's funcs (is_func) or vars */
    uint8_t is_func;
    uint8_t kind;    /* LS_* */
    uint8_t keep;    /* goes into the merged module */
    ast_loc loc;     /* of its name */
} lsym;

typedef struct linker {
    const ptx_link_unit *in;
    size_t n;
    diag *d;
    ast_module *am;      /* the parsed texts */
    size_t nparsed;
    diag_unit *lines;    /* each text's name and first line */
    VEC(lsym) syms;
    strmap globals;      /* (name, 0): the winning global definition (syms index) */
    strmap taken;        /* (name, 0): global definitions, dynamic shared arrays, built-ins */
    strmap locals;       /* (name, text + 1): a text's own definition (syms index) */
    strmap gdefs;        /* (name, text + 1): a global definition of the text (syms index) */
    strmap renames;      /* (name, text + 1): its new name (index into newnames) */
    VEC(const char *) newnames;
    uint32_t *nrenames;  /* per text */
    arena mem;           /* the new names */
    int oom;
} linker;

/* The built-ins lower.c gives calls to (ir_builtin): no text defines them. */
static int is_builtin(const char *name)
{
    int bi = ir_builtin_lookup(name);
    return bi >= 0 && bi != BI_DR_MISSING;
}

/* CUDA's device runtime, libcudadevrt, which nvlink links into a program
 * that launches kernels from device code: lockstep provides its functions
 * itself (ir_builtin, exec/devrt.c), so its text is left out of the link,
 * unparsed.  It is the text that defines the runtime's version number
 * (.visible .global ... __CNPRT_VERSION_NUMBER__). */
static int is_cudadevrt(const char *t, size_t len)
{
    static const char key[] = "__CNPRT_VERSION_NUMBER__";
    const size_t kn = sizeof key - 1;
    for (size_t i = 0; t && i + kn <= len; i++) {
        if (t[i] != key[0] || memcmp(t + i, key, kn))
            continue;
        size_t b = i;
        while (b > 0 && t[b - 1] != '\n')
            b--;
        while (b < i && (t[b] == ' ' || t[b] == '\t'))
            b++;
        if (i - b >= 8 && !memcmp(t + b, ".visible", 8))
            return 1;
    }
    return 0;
}

static const ast_func *sym_func(const linker *K, const lsym *s)
{
    return &K->am[s->unit].funcs.v[s->idx];
}

static const ast_var *sym_var(const linker *K, const lsym *s)
{
    return &K->am[s->unit].vars.v[s->idx];
}

static int sym_linkage(const linker *K, const lsym *s)
{
    return s->is_func ? sym_func(K, s)->linkage : sym_var(K, s)->linkage;
}

/* A definition that excludes any other of its name (not .weak or .common). */
static int sym_strong(const linker *K, const lsym *s)
{
    int l = sym_linkage(K, s);
    return l != AL_WEAK && l != AL_COMMON;
}

/* A variable's bytes, as lower.c sizes it. */
static uint64_t var_bytes(const ast_var *v)
{
    uint64_t elem = (uint64_t)ptx_type_size((ptx_type)v->type) * (v->vec ? v->vec : 1);
    uint64_t count = v->count;
    if (v->is_unsized && v->ninit)
        count = v->ninit / (v->vec ? v->vec : 1);
    return elem * count;
}

static const char *sym_what(const linker *K, const lsym *s)
{
    if (!s->is_func)
        return "a variable";
    return sym_func(K, s)->is_entry ? "a kernel (.entry)" : "a function";
}

/* ---- parsing ------------------------------------------------------------------------ */

/* Number the texts' lines one after another and parse each. */
static int parse_all(linker *K)
{
    uint64_t line = 1;
    for (size_t k = 0; k < K->n; k++) {
        K->lines[k].name = K->in[k].name ? K->in[k].name : "<ptx>";
        K->lines[k].first_line = (uint32_t)line;
        uint64_t nl = 0;
        const char *t = K->in[k].text ? K->in[k].text : "";
        const char *end = t + (K->in[k].text ? K->in[k].len : 0);
        while (t && t < end && (t = memchr(t, '\n', (size_t)(end - t))) != NULL) {
            nl++;
            t++;
        }
        line += nl + 1;
        if (line >= UINT32_MAX) {
            diag_error(K->d, (ast_loc){0, 0},
                       "the %zu PTX texts have more than %u lines together; lockstep links "
                       "fewer",
                       K->n, UINT32_MAX - 1);
            return 0;
        }
    }
    K->d->units = K->lines;
    K->d->nunits = (uint32_t)K->n;
    for (size_t k = 0; k < K->n; k++) {
        K->nparsed = k + 1;
        if (is_cudadevrt(K->in[k].text, K->in[k].len))
            continue; /* an empty text: it adds nothing */
        ptx_parse_at(K->in[k].text ? K->in[k].text : "", K->in[k].len, K->lines[k].name,
                     K->lines[k].first_line, &K->am[k], K->d);
        if (K->d->oom || K->d->nerrors >= DIAG_MAX_ERRORS)
            break;
    }
    return !K->d->nerrors;
}

/* ---- symbols ------------------------------------------------------------------------ */

static int add_sym(linker *K, const char *name, ast_loc loc, uint32_t unit, uint32_t idx,
                   int is_func, int kind)
{
    lsym s = {name, unit, idx, (uint8_t)is_func, (uint8_t)kind, 0, loc};
    if (vec_push(&K->syms, s)) {
        K->oom = 1;
        return 0;
    }
    return 1;
}

/* Text order: by text, then by where the name stands (the shared line
 * numbering makes positions unique). */
static int sym_order(const void *pa, const void *pb)
{
    const lsym *a = pa, *b = pb;
    if (a->unit != b->unit)
        return a->unit < b->unit ? -1 : 1;
    if (a->loc.line != b->loc.line)
        return a->loc.line < b->loc.line ? -1 : 1;
    if (a->loc.col != b->loc.col)
        return a->loc.col < b->loc.col ? -1 : 1;
    if (a->is_func != b->is_func)
        return a->is_func < b->is_func ? -1 : 1;
    return a->idx < b->idx ? -1 : a->idx > b->idx;
}

/* Every module-scope declaration and definition, classified, in text order. */
static int collect(linker *K)
{
    for (uint32_t k = 0; k < K->n; k++) {
        const ast_module *m = &K->am[k];
        for (size_t i = 0; i < m->vars.n; i++) {
            const ast_var *v = &m->vars.v[i];
            int kind = v->linkage == AL_NONE ? LS_LOCAL : v->linkage != AL_EXTERN ? LS_GDEF
                       : v->space == SP_SHARED && v->is_unsized && !v->ninit ? LS_DYNSHARED
                                                                             : LS_REF;
            if (!add_sym(K, v->name, v->loc, k, (uint32_t)i, 0, kind))
                return 0;
        }
        for (size_t i = 0; i < m->funcs.n; i++) {
            const ast_func *f = &m->funcs.v[i];
            int kind = !f->has_body ? LS_REF : f->linkage == AL_NONE ? LS_LOCAL : LS_GDEF;
            if (!add_sym(K, f->name, f->loc, k, (uint32_t)i, 1, kind))
                return 0;
        }
    }
    qsort(K->syms.v, K->syms.n, sizeof *K->syms.v, sym_order);
    return 1;
}

/* One global definition per name: a .visible one, else the first .weak,
 * else the largest .common; two .visible ones are an error. */
static int choose_globals(linker *K)
{
    int ok = 1;
    for (size_t i = 0; i < K->syms.n; i++) {
        lsym *s = &K->syms.v[i];
        /* a built-in's name is everybody's: a text's own symbol of that name is renamed */
        int builtin = s->kind == LS_REF && s->is_func && is_builtin(s->name);
        if (s->kind != LS_GDEF && s->kind != LS_DYNSHARED && !builtin)
            continue;
        if (strmap_put(&K->taken, s->name, 0, 1)) {
            K->oom = 1;
            return 0;
        }
        if (s->kind != LS_GDEF)
            continue;
        if (strmap_put(&K->gdefs, s->name, s->unit + 1, (uint32_t)i)) {
            K->oom = 1;
            return 0;
        }
        uint32_t w;
        if (!strmap_get(&K->globals, s->name, 0, &w)) {
            if (strmap_put(&K->globals, s->name, 0, (uint32_t)i)) {
                K->oom = 1;
                return 0;
            }
            continue;
        }
        const lsym *e = &K->syms.v[w];
        char there[600];
        diag_where(K->d, e->loc, there, sizeof there);
        if (e->is_func != s->is_func ||
            (s->is_func && sym_func(K, e)->is_entry != sym_func(K, s)->is_entry)) {
            diag_error(K->d, s->loc, "'%s' is defined here as %s and at %s as %s", s->name,
                       sym_what(K, s), there, sym_what(K, e));
            ok = 0;
            continue;
        }
        if (sym_strong(K, e) && sym_strong(K, s)) {
            diag_error(K->d, s->loc,
                       "'%s' is defined twice in the linked program: here and at %s", s->name,
                       there);
            ok = 0;
            continue;
        }
        int replace = !sym_strong(K, e) && sym_strong(K, s);
        if (!s->is_func && sym_linkage(K, e) == AL_COMMON && sym_linkage(K, s) == AL_COMMON &&
            var_bytes(sym_var(K, s)) > var_bytes(sym_var(K, e)))
            replace = 1;
        if (replace && strmap_put(&K->globals, s->name, 0, (uint32_t)i)) {
            K->oom = 1;
            return 0;
        }
    }
    return ok;
}

/* The texts' own definitions, renamed where their name is taken. */
static int choose_renames(linker *K)
{
    int ok = 1;
    strmap seen; /* names earlier texts define for themselves */
    strmap_init(&seen);
    size_t first = 0;
    for (uint32_t k = 0; k < K->n; k++) {
        size_t end = first;
        while (end < K->syms.n && K->syms.v[end].unit == k)
            end++;
        for (size_t i = first; i < end; i++) {
            const lsym *s = &K->syms.v[i];
            uint32_t dummy;
            if (s->kind != LS_LOCAL || strmap_get(&K->locals, s->name, k + 1, &dummy))
                continue; /* a name the text defines twice: lower.c says so */
            if (strmap_put(&K->locals, s->name, k + 1, (uint32_t)i))
                goto oom;
            if (strmap_get(&K->gdefs, s->name, k + 1, &dummy)) {
                char there[600];
                diag_where(K->d, K->syms.v[dummy].loc, there, sizeof there);
                diag_error(K->d, s->loc, "'%s' is defined twice: here and at %s", s->name, there);
                ok = 0;
                continue;
            }
            if (!strmap_get(&K->taken, s->name, 0, &dummy) &&
                !strmap_get(&seen, s->name, 0, &dummy))
                continue;
            char suffix[32];
            int sl = snprintf(suffix, sizeof suffix, "@tu%u", k);
            size_t nl = strlen(s->name);
            char *nn = arena_alloc(&K->mem, nl + (size_t)sl + 1);
            if (!nn)
                goto oom;
            memcpy(nn, s->name, nl);
            memcpy(nn + nl, suffix, (size_t)sl + 1);
            if (vec_push(&K->newnames, (const char *)nn) ||
                strmap_put(&K->renames, s->name, k + 1, (uint32_t)(K->newnames.n - 1)))
                goto oom;
            K->nrenames[k]++;
        }
        for (size_t i = first; i < end; i++)
            if (K->syms.v[i].kind == LS_LOCAL && strmap_put(&seen, K->syms.v[i].name, 0, 1))
                goto oom;
        first = end;
    }
    strmap_free(&seen);
    return ok;
oom:
    strmap_free(&seen);
    K->oom = 1;
    return 0;
}

/* A declaration against the definition it names: 1 if they agree, else 0
 * with an error at the declaration naming both. */
static int check_match(linker *K, const lsym *decl, const lsym *def)
{
    char there[600];
    diag_where(K->d, def->loc, there, sizeof there);
    ast_loc here = decl->loc;
    if (decl->is_func != def->is_func ||
        (decl->is_func && sym_func(K, decl)->is_entry != sym_func(K, def)->is_entry)) {
        diag_error(K->d, here, "'%s' is declared here as %s but defined at %s as %s", decl->name,
                   sym_what(K, decl), there, sym_what(K, def));
        return 0;
    }
    if (!decl->is_func) {
        const ast_var *a = sym_var(K, decl), *b = sym_var(K, def);
        if (a->space != b->space) {
            diag_error(K->d, here, "'%s' is declared here in %s but defined at %s in %s",
                       decl->name, ptx_space_names[a->space], there, ptx_space_names[b->space]);
            return 0;
        }
        uint64_t sa = var_bytes(a), sb = var_bytes(b);
        if (!a->is_unsized && sa != sb) {
            diag_error(K->d, here,
                       "'%s' is declared here with %llu bytes but defined at %s with %llu",
                       decl->name, (unsigned long long)sa, there, (unsigned long long)sb);
            return 0;
        }
        return 1;
    }
    const ast_func *a = sym_func(K, decl), *b = sym_func(K, def);
    if (a->nparams != b->nparams || a->nrets != b->nrets) {
        diag_error(K->d, here,
                   "'%s' is declared here with %u parameter%s and %u result%s but defined at %s "
                   "with %u and %u",
                   decl->name, a->nparams, a->nparams == 1 ? "" : "s", a->nrets,
                   a->nrets == 1 ? "" : "s", there, b->nparams, b->nrets);
        return 0;
    }
    for (uint32_t p = 0; p < a->nparams + a->nrets; p++) {
        int ret = p >= a->nparams;
        const ast_var *pa = ret ? &a->rets[p - a->nparams] : &a->params[p];
        const ast_var *pb = ret ? &b->rets[p - a->nparams] : &b->params[p];
        if (var_bytes(pa) != var_bytes(pb)) {
            diag_error(K->d, pa->loc,
                       "%s %u of '%s' is %llu bytes here but %llu bytes in its definition at %s",
                       ret ? "result" : "parameter", ret ? p - a->nparams : p, decl->name,
                       (unsigned long long)var_bytes(pa), (unsigned long long)var_bytes(pb), there);
            return 0;
        }
    }
    return 1;
}

/* Bind every declaration to a definition, and mark what the merged module
 * keeps.  Functions of CUDA's device runtime that no text defines stay
 * declarations: lockstep provides them (ir_builtin_lookup), or, for one it
 * does not, a call stops the kernel with a message naming it. */
static int resolve(linker *K)
{
    int ok = 1;
    for (size_t i = 0; i < K->syms.n && K->d->nerrors < DIAG_MAX_ERRORS; i++) {
        lsym *s = &K->syms.v[i];
        uint32_t w;
        switch (s->kind) {
        case LS_LOCAL:
        case LS_DYNSHARED:
            s->keep = 1;
            break;
        case LS_GDEF:
            s->keep = strmap_get(&K->globals, s->name, 0, &w) && w == i;
            break;
        default: /* LS_REF */
            if (strmap_get(&K->locals, s->name, s->unit + 1, &w) ||
                strmap_get(&K->globals, s->name, 0, &w)) {
                ok &= check_match(K, s, &K->syms.v[w]);
            } else if (s->is_func && ir_builtin_lookup(s->name) >= 0) {
                s->keep = 1;
            } else {
                diag_error(K->d, s->loc,
                           "undefined reference to '%s': declared here, but no linked PTX text "
                           "defines it (%zu text%s linked)",
                           s->name, K->n, K->n == 1 ? "" : "s");
                ok = 0;
            }
        }
    }
    return ok;
}

/* ---- renaming ----------------------------------------------------------------------- */

/* s is anc or lies inside it (scope_parent). */
static int in_scope(const ast_func *f, uint32_t anc, uint32_t s)
{
    for (size_t steps = 0; steps <= f->scope_parent.n; steps++) {
        if (s == anc)
            return 1;
        if (s == 0 || s >= f->scope_parent.n)
            return 0;
        s = f->scope_parent.v[s];
    }
    return 0;
}

/* A name declared inside f and visible at `scope` hides the module's. */
static int shadowed(const ast_func *f, const char *name, uint32_t scope)
{
    for (uint32_t i = 0; i < f->nparams; i++)
        if (!strcmp(f->params[i].name, name))
            return 1;
    for (uint32_t i = 0; i < f->nrets; i++)
        if (!strcmp(f->rets[i].name, name))
            return 1;
    for (size_t i = 0; i < f->vars.n; i++)
        if (!strcmp(f->vars.v[i].name, name) && in_scope(f, f->vars.v[i].scope, scope))
            return 1;
    for (size_t i = 0; i < f->labels.n; i++)
        if (!strcmp(f->labels.v[i].name, name))
            return 1;
    for (size_t i = 0; i < f->protos.n; i++)
        if (!strcmp(f->protos.v[i].name, name))
            return 1;
    return 0;
}

/* The new name of text k's symbol `name`, or NULL when it keeps its name. */
static const char *renamed(const linker *K, uint32_t k, const char *name)
{
    uint32_t r;
    if (!name || !K->nrenames[k] || !strmap_get(&K->renames, name, k + 1, &r))
        return NULL;
    return K->newnames.v[r];
}

static void rename_ref(const linker *K, uint32_t k, const ast_func *f, uint32_t scope,
                       const char **name)
{
    const char *nn = renamed(K, k, *name);
    if (nn && !(f && shadowed(f, *name, scope)))
        *name = nn;
}

static void rename_opnd(const linker *K, uint32_t k, const ast_func *f, uint32_t scope,
                        ast_opnd *o, int depth)
{
    if (depth > 8)
        return; /* the parser nests lists no deeper */
    rename_ref(K, k, f, scope, &o->name);
    rename_ref(K, k, f, scope, &o->name2);
    if (o->kind == AO_VEC || o->kind == AO_LIST)
        for (uint32_t i = 0; i < o->nelems; i++)
            rename_opnd(K, k, f, scope, &o->elems[i], depth + 1);
}

static void rename_inits(const linker *K, uint32_t k, const ast_func *f, ast_var *v)
{
    for (uint32_t i = 0; i < v->ninit; i++)
        if (v->init[i].kind == AI_SYM || v->init[i].kind == AI_GENERIC_SYM)
            rename_ref(K, k, f, v->scope, &v->init[i].name);
}

/* Rename text k's references to its renamed symbols, in place. */
static void rename_refs(linker *K, uint32_t k)
{
    ast_module *m = &K->am[k];
    for (size_t i = 0; i < m->vars.n; i++)
        rename_inits(K, k, NULL, &m->vars.v[i]);
    for (size_t i = 0; i < m->funcs.n; i++) {
        ast_func *f = &m->funcs.v[i];
        for (size_t j = 0; j < f->vars.n; j++)
            rename_inits(K, k, f, &f->vars.v[j]);
        for (size_t j = 0; j < f->insns.n; j++) {
            ast_insn *in = &f->insns.v[j];
            for (uint32_t o = 0; o < in->nops; o++)
                rename_opnd(K, k, f, in->scope, &in->ops[o], 0);
        }
    }
}

/* ---- the merged module ---------------------------------------------------------------- */

/* One .file table for all texts; each instruction's file number follows. */
static int merge_files(linker *K, ast_module *M)
{
    strmap names; /* (file name, 0) -> new number */
    strmap_init(&names);
    uint16_t *map = malloc(65536 * sizeof *map);
    if (!map)
        goto oom;
    uint32_t next = 1;
    for (uint32_t k = 0; k < K->n; k++) {
        const ast_module *m = &K->am[k];
        memset(map, 0, 65536 * sizeof *map); /* a number the text never declared: no file */
        for (size_t i = 0; i < m->files.n; i++) {
            const ast_file *fl = &m->files.v[i];
            uint32_t id;
            if (!strmap_get(&names, fl->name, 0, &id)) {
                if (next > 0xffff) {
                    diag_error(K->d, (ast_loc){K->lines[k].first_line, 1},
                               "the linked PTX texts name more than 65535 source files");
                    free(map);
                    strmap_free(&names);
                    return 0;
                }
                id = next++;
                ast_file nf = {id, fl->name};
                if (strmap_put(&names, fl->name, 0, id) || vec_push(&M->files, nf))
                    goto oom;
            }
            if (fl->id <= 0xffff)
                map[fl->id] = (uint16_t)id; /* a number given twice: the last, as lower.c */
        }
        for (size_t i = 0; i < m->funcs.n; i++) {
            ast_func *f = &m->funcs.v[i];
            for (size_t j = 0; j < f->insns.n; j++)
                if (f->insns.v[j].src_file)
                    f->insns.v[j].src_file = map[f->insns.v[j].src_file];
        }
    }
    free(map);
    strmap_free(&names);
    return 1;
oom:
    free(map);
    strmap_free(&names);
    K->oom = 1;
    return 0;
}

/* The module every kept definition goes into, renamed; version: the
 * highest of the texts'. */
static int build(linker *K, ast_module *M)
{
    memset(M, 0, sizeof *M);
    M->filename = K->d->filename;
    M->target = K->am[0].target;
    M->address_size = K->am[0].address_size;
    for (uint32_t k = 0; k < K->n; k++) {
        const ast_module *m = &K->am[k];
        if (m->version_major > M->version_major ||
            (m->version_major == M->version_major && m->version_minor > M->version_minor)) {
            M->version_major = m->version_major;
            M->version_minor = m->version_minor;
        }
        if (K->nrenames[k])
            rename_refs(K, k);
    }
    for (size_t i = 0; i < K->syms.n; i++) {
        const lsym *s = &K->syms.v[i];
        if (!s->keep)
            continue;
        const char *nn = s->kind == LS_LOCAL ? renamed(K, s->unit, s->name) : NULL;
        if (s->is_func) {
            ast_func f = *sym_func(K, s);
            if (nn)
                f.name = nn;
            if (vec_push(&M->funcs, f))
                goto oom;
        } else {
            ast_var v = *sym_var(K, s);
            if (nn)
                v.name = nn;
            if (vec_push(&M->vars, v))
                goto oom;
        }
    }
    return merge_files(K, M);
oom:
    K->oom = 1;
    return 0;
}

/* Each function and instruction of the lowered module: its own text and line. */
static int place_lines(linker *K, ir_module *m)
{
    m->ptx_files = calloc(K->n, sizeof *m->ptx_files);
    if (!m->ptx_files)
        return 0;
    for (size_t k = 0; k < K->n; k++) {
        const char *s = K->lines[k].name;
        if (!(m->ptx_files[k] = arena_strndup(m->strings, s, strlen(s))))
            return 0;
    }
    m->nptx_files = (uint32_t)K->n;
    for (uint32_t i = 0; i < m->nfuncs; i++) {
        ir_func *f = &m->funcs[i];
        uint32_t u = diag_unit_of(K->d, f->ptx_line);
        if (f->ptx_line)
            f->ptx_line -= K->lines[u].first_line - 1;
        f->ptx_file = u + 1;
        for (uint32_t pc = f->start; f->has_body && pc < f->end && pc < m->ncode; pc++) {
            ir_srcpos *sp = &m->pos[pc];
            uint32_t v = sp->ptx_line ? diag_unit_of(K->d, sp->ptx_line) : u;
            if (sp->ptx_line)
                sp->ptx_line -= K->lines[v].first_line - 1;
            sp->ptx_file = (uint16_t)(v + 1);
        }
    }
    return 1;
}

int ptx_link(const ptx_link_unit *units, size_t n, const lower_env *env, diag *d,
             ir_module **out)
{
    *out = NULL;
    if (!units || !n || n > 65535) {
        diag_error(d, (ast_loc){0, 0}, "lockstep links 1 to 65535 PTX texts; %zu were given", n);
        return -1;
    }
    linker K;
    memset(&K, 0, sizeof K);
    K.in = units;
    K.n = n;
    K.d = d;
    strmap_init(&K.globals);
    strmap_init(&K.taken);
    strmap_init(&K.locals);
    strmap_init(&K.gdefs);
    strmap_init(&K.renames);
    arena_init(&K.mem);
    ast_module M;
    memset(&M, 0, sizeof M);
    int rc = -1;
    K.am = calloc(n, sizeof *K.am);
    K.lines = calloc(n, sizeof *K.lines);
    K.nrenames = calloc(n, sizeof *K.nrenames);
    if (!K.am || !K.lines || !K.nrenames) {
        K.oom = 1;
        goto done;
    }
    if (!parse_all(&K) || !collect(&K))
        goto done;
    int ok = choose_globals(&K);
    ok = !K.oom && choose_renames(&K) && ok;
    ok = ok && resolve(&K);
    if (!ok || K.oom || !build(&K, &M))
        goto done;
    ir_module *m = NULL;
    if (ptx_lower(&M, env, d, &m))
        goto done;
    if (!place_lines(&K, m)) {
        if (env)
            for (uint32_t i = 0; i < m->nvars; i++)
                if (m->vars[i].space == SP_GLOBAL || m->vars[i].space == SP_CONST)
                    env->free_global(env->ud, m->vars[i].addr);
        ir_module_free(m);
        K.oom = 1;
        goto done;
    }
    *out = m;
    rc = 0;
done:
    if (K.oom || (rc && d->oom && !d->nerrors)) {
        d->oom = 1;
        diag_error(d, (ast_loc){0, 0}, "out of host memory while linking");
    } else if (rc && !d->nerrors) {
        diag_error(d, (ast_loc){0, 0}, "the PTX texts could not be linked");
    }
    vec_free(&M.funcs); /* shallow copies: the texts' ASTs own what they point to */
    vec_free(&M.vars);
    vec_free(&M.files);
    for (size_t k = 0; k < K.nparsed; k++)
        ast_module_free(&K.am[k]);
    free(K.am);
    d->units = NULL; /* the messages are written; the table goes */
    d->nunits = 0;
    free(K.lines);
    free(K.nrenames);
    vec_free(&K.syms);
    vec_free(&K.newnames);
    strmap_free(&K.globals);
    strmap_free(&K.taken);
    strmap_free(&K.locals);
    strmap_free(&K.gdefs);
    strmap_free(&K.renames);
    arena_free(&K.mem);
    return rc;
}
