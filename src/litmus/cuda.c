/*
 * cuda.c -- write a litmus test as a standalone CUDA program (cuda.h).
 *
 * The program holds: place.h and place.c, copied in verbatim (embedded in
 * lockstep at build time with .incbin, so they cannot drift from what the
 * simulator runs); the test's shape and condition as C tables; the harness
 * kernel: the body of the entry lit_kernel_module prints (parameter loads
 * included) as one inline asm statement, so the program's kernel is the
 * same instructions as the one lockstep runs;
 * and a main loop that places, launches, collects and prints the histogram
 * in the format lockstep prints (SC classification included: the SC
 * outcomes are computed here and written into the program).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "litmus/cuda.h"

/* place.h and place.c as NUL-terminated strings. */
extern const char lit_place_h_src[], lit_place_c_src[];
__asm__(".pushsection .rodata\n"
        ".hidden lit_place_h_src\n.globl lit_place_h_src\nlit_place_h_src:\n"
        ".incbin \"" LOCKSTEP_SRC_DIR "/src/litmus/place.h\"\n.byte 0\n"
        ".hidden lit_place_c_src\n.globl lit_place_c_src\nlit_place_c_src:\n"
        ".incbin \"" LOCKSTEP_SRC_DIR "/src/litmus/place.c\"\n.byte 0\n"
        ".popsection\n");

static void c_string(strbuf *sb, const char *s)
{
    sb_putc(sb, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            sb_putc(sb, '\\');
        if (*s == '\n') {
            sb_puts(sb, "\\n");
            continue;
        }
        sb_putc(sb, *s);
    }
    sb_putc(sb, '"');
}

static int obs_index(const lit_test *t, lit_item it)
{
    for (int i = 0; i < t->nobserved; i++)
        if (t->observed[i].thread == it.thread && t->observed[i].index == it.index)
            return i;
    return 0;
}

static void cond_c(strbuf *sb, const lit_test *t, int e)
{
    const lit_expr *x = &t->exprs[e];
    switch (x->kind) {
    case LIT_E_TRUE: sb_puts(sb, "1"); break;
    case LIT_E_FALSE: sb_puts(sb, "0"); break;
    case LIT_E_EQ:
        sb_printf(sb, "(v[%d] == %lldLL)", obs_index(t, x->item), (long long)x->value);
        break;
    case LIT_E_NOT:
        sb_puts(sb, "!");
        cond_c(sb, t, x->a);
        break;
    case LIT_E_AND:
    case LIT_E_OR:
        sb_puts(sb, "(");
        cond_c(sb, t, x->a);
        sb_puts(sb, x->kind == LIT_E_AND ? " && " : " || ");
        cond_c(sb, t, x->b);
        sb_puts(sb, ")");
        break;
    }
}


/* The harness's host part: the same steps as lit_run (harness.c). */
static const char main_src[] =
    "#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, \"%s:%d: %s\\n\", __FILE__, __LINE__, cudaGetErrorString(e_)); exit(1); } } while (0)\n"
    "static int W_;\n"
    "static int rowcmp(const void *a, const void *b) { const long long *x = (const long long *)a, *y = (const long long *)b; for (int i = 0; i <= W_; i++) if (x[i] != y[i]) return x[i] < y[i] ? -1 : 1; return 0; }\n"
    "static int is_sc(const long long *v) { for (int i = 0; i < N_SC; i++) { int same = 1; for (int j = 0; j < NOBS; j++) same &= SC[i][j] == v[j]; if (same) return 1; } return 0; }\n"
    "static void value_print(long long v, int u) { for (int l = 0; l < NLOCS; l++) if (v == 0x1000LL + 16LL * l) { printf(\"%s\", LOC_NAME[l]); return; } if (u) printf(\"%llu\", (unsigned long long)v); else printf(\"%lld\", v); }\n"
    "static void state_print(const long long *v) { for (int j = 0; j < NOBS; j++) { printf(\"%s=\", OBS_NAME[j]); value_print(v[j], OBS_UNSIGNED[j]); printf(\"; \"); } }\n"
    "int main(int argc, char **argv)\n"
    "{\n"
    "    unsigned long long iters = ITERATIONS, pseed = PLACE_SEED;\n"
    "    for (int i = 1; i < argc; i++) {\n"
    "        if (!strcmp(argv[i], \"-n\") && i + 1 < argc) iters = strtoull(argv[++i], 0, 0);\n"
    "        else if (!strcmp(argv[i], \"--place-seed\") && i + 1 < argc) pseed = strtoull(argv[++i], 0, 0);\n"
    "        else { fprintf(stderr, \"usage: %s [-n ITERATIONS] [--place-seed S]\\n\", argv[0]); return 2; }\n"
    "    }\n"
    "    cudaDeviceProp prop; CK(cudaGetDeviceProperties(&prop, 0));\n"
    "    lp_test T; init_test(&T);\n"
    "    lp_opts o; memset(&o, 0, sizeof o); o.ctas = CTAS ? CTAS : (uint32_t)prop.multiProcessorCount; o.warps = WARPS; o.incant = INCANT; o.stride = STRIDE; o.max_instances = MAX_INST; o.stress_stride = STRESS_STRIDE;\n"
    "    lp_sizes sz; char msg[256];\n"
    "    if (lp_sizes_of(&T, &o, &sz, msg, sizeof msg)) { fprintf(stderr, \"%s: %s\\n\", TEST_NAME, msg); return 1; }\n"
    "    size_t nl = NLOCS ? NLOCS : 1, nobs = NOBS;\n"
    "    lp_layout lay; lay.roles = (uint32_t *)malloc(4 * (size_t)sz.threads); lay.offs = (uint64_t *)malloc(8 * sz.max_inst * nl);\n"
    "    lay.acc = (uint32_t *)malloc(4 * LP_ACC_WORDS); lay.scratch_u32 = (uint32_t *)malloc(4 * (size_t)(sz.max_inst > o.warps * 32 ? sz.max_inst : o.warps * 32));\n"
    "    uint64_t *addrs = (uint64_t *)malloc(8 * sz.max_inst * nl), *res = (uint64_t *)malloc(8 * sz.max_inst * nobs);\n"
    "    unsigned char *region = (unsigned char *)calloc(1, (size_t)sz.region_bytes);\n"
    "    size_t cap = 64, n = 0; long long *rows = (long long *)malloc(sizeof(long long) * cap * (NOBS + 1));\n"
    "    unsigned long long d[6], d_region; size_t scratch = 4096 + 2 * (size_t)STRESS_STRIDE + (size_t)STRESS_LINES * STRESS_STRIDE;\n"
    "    size_t bytes[6] = {4 * (size_t)sz.threads, 8 * sz.max_inst * nl, 8 * sz.max_inst * nobs, 4 * (size_t)sz.max_inst, 4 * LP_ACC_WORDS, scratch};\n"
    "    for (int i = 0; i < 6; i++) { void *p; CK(cudaMalloc(&p, bytes[i])); CK(cudaMemset(p, 0, bytes[i])); d[i] = (unsigned long long)(size_t)p; }\n"
    "    { void *p; CK(cudaMalloc(&p, (size_t)sz.region_bytes)); d_region = (unsigned long long)(size_t)p; }\n"
    "    unsigned long long pos = 0, neg = 0, inst_total = 0, per = 0; uint64_t rng = pseed;\n"
    "    clock_t t0 = clock();\n"
    "    for (unsigned long long it = 0; it < iters; it++) {\n"
    "        lp_place(&T, &o, &sz, &rng, &lay);\n"
    "        memset(region, 0, (size_t)sz.region_bytes);\n"
    "        for (uint32_t i = 0; i < lay.ninst; i++) for (int l = 0; l < NLOCS; l++) {\n"
    "            uint64_t off = lay.offs[i * nl + l];\n"
    "            if (T.loc_shared[l]) { addrs[i * nl + l] = off; continue; }\n"
    "            addrs[i * nl + l] = d_region + off; long long v = LOC_INIT[l]; memcpy(region + off, &v, T.loc_bytes[l]);\n"
    "        }\n"
    "        CK(cudaMemcpy((void *)(size_t)d[0], lay.roles, bytes[0], cudaMemcpyHostToDevice));\n"
    "        CK(cudaMemcpy((void *)(size_t)d[1], addrs, 8 * lay.ninst * nl, cudaMemcpyHostToDevice));\n"
    "        CK(cudaMemcpy((void *)(size_t)d[4], lay.acc, bytes[4], cudaMemcpyHostToDevice));\n"
    "        CK(cudaMemcpy((void *)(size_t)d_region, region, (size_t)sz.region_bytes, cudaMemcpyHostToDevice));\n"
    "        CK(cudaMemset((void *)(size_t)d[3], 0, 4 * (size_t)lay.ninst));\n"
    "        CK(cudaMemset((void *)(size_t)d[2], 0, 8 * (size_t)lay.ninst * nobs));\n"
    "        litmus_test<<<o.ctas, o.warps * 32>>>(d[0], d[1], d[2], d[3], d[4], d[5]);\n"
    "        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());\n"
    "        CK(cudaMemcpy(res, (void *)(size_t)d[2], 8 * lay.ninst * nobs, cudaMemcpyDeviceToHost));\n"
    "        CK(cudaMemcpy(region, (void *)(size_t)d_region, (size_t)sz.region_bytes, cudaMemcpyDeviceToHost));\n"
    "        for (uint32_t i = 0; i < lay.ninst; i++) {\n"
    "            long long v[NOBS + 1];\n"
    "            for (int j = 0; j < NOBS; j++) {\n"
    "                if (OBS_THREAD[j] >= 0 || T.loc_shared[OBS_INDEX[j]]) {\n"
    "                    v[j] = (long long)res[i * nobs + j];\n"
    "                    if (OBS_WIDE[j]) for (int l = 0; l < NLOCS; l++) if (!T.loc_shared[l] && (uint64_t)v[j] == addrs[i * nl + l]) v[j] = 0x1000LL + 16LL * l;\n"
    "                } else {\n"
    "                    int l = OBS_INDEX[j]; long long raw = 0; memcpy(&raw, region + lay.offs[i * nl + l], T.loc_bytes[l]);\n"
    "                    if (T.loc_bytes[l] == 4) raw = LOC_SIGNED[l] ? (long long)(int32_t)raw : (long long)(uint32_t)raw;\n"
    "                    v[j] = raw;\n"
    "                }\n"
    "            }\n"
    "            if (cond(v)) pos++; else neg++;\n"
    "            size_t r;\n"
    "            for (r = 0; r < n; r++) if (!memcmp(&rows[r * (NOBS + 1)], v, sizeof(long long) * NOBS)) break;\n"
    "            if (r == n) { if (n == cap) { cap *= 2; rows = (long long *)realloc(rows, sizeof(long long) * cap * (NOBS + 1)); }\n"
    "                memcpy(&rows[n * (NOBS + 1)], v, sizeof(long long) * NOBS); rows[n * (NOBS + 1) + NOBS] = 0; n++; }\n"
    "            rows[r * (NOBS + 1) + NOBS]++;\n"
    "        }\n"
    "        inst_total += lay.ninst; per = lay.ninst;\n"
    "    }\n"
    "    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;\n"
    "    W_ = NOBS - 1; qsort(rows, n, sizeof(long long) * (NOBS + 1), rowcmp);\n"
    "    int ok = QUANT == 0 ? pos > 0 : QUANT == 1 ? pos == 0 : neg == 0;\n"
    "    printf(\"Test %s %s\\nHistogram (%zu states)\\n\", TEST_NAME, QUANT == 0 ? \"Allowed\" : QUANT == 2 ? \"Required\" : \"Forbidden\", n);\n"
    "    for (size_t r = 0; r < n; r++) { const long long *v = &rows[r * (NOBS + 1)]; printf(\"%-8llu%s>\", (unsigned long long)v[NOBS], cond(v) ? \"*\" : \":\"); state_print(v); printf(\"\\n\"); }\n"
    "    printf(\"%s\\n\\nWitnesses\\nPositive: %llu, Negative: %llu\\n\", ok ? \"Ok\" : \"No\", pos, neg);\n"
    "    printf(\"Condition %s (%s) is %svalidated\\n\", QUANT == 0 ? \"exists\" : QUANT == 1 ? \"~exists\" : \"forall\", COND_TEXT, ok ? \"\" : \"NOT \");\n"
    "    printf(\"Observation %s %s %llu %llu\\n\", TEST_NAME, pos == 0 ? \"Never\" : neg == 0 ? \"Always\" : \"Sometimes\", pos, neg);\n"
    "    { unsigned long long weak = 0; int nweak = 0; for (size_t r = 0; r < n; r++) if (!is_sc(&rows[r * (NOBS + 1)])) { weak += rows[r * (NOBS + 1) + NOBS]; nweak++; }\n"
    "      printf(\"SC outcomes %s %d, weak states %d, weak instances %llu\\n\", TEST_NAME, N_SC, nweak, weak);\n"
    "      for (size_t r = 0; r < n; r++) if (!is_sc(&rows[r * (NOBS + 1)])) { printf(\"Weak %-8llu>\", (unsigned long long)rows[r * (NOBS + 1) + NOBS]); state_print(&rows[r * (NOBS + 1)]); printf(\"\\n\"); } }\n"
    "    printf(\"Instances %s %llu (%llu per launch), device %s\\n\", TEST_NAME, inst_total, per, prop.name);\n"
    "    printf(\"Time %s %.2f\\n\", TEST_NAME, secs);\n"
    "    return 0;\n"
    "}\n";

void lit_cuda_shape(const lit_test *t, const lit_opts *o, lit_shape *s)
{
    /* the shared-array layout lit_run uses (place.c's smem_loc_bytes, which
     * depends on the warps per CTA, not on the number of CTAs) */
    int nshared = 0, wide = 0;
    for (int l = 0; l < t->nlocs; l++) {
        nshared += t->locs[l].region == LIT_SHARED;
        wide |= t->locs[l].type == LIT_S64 || t->locs[l].type == LIT_U64 || t->locs[l].type == LIT_B64;
    }
    uint32_t warps = o->warps ? o->warps : 8;
    s->incant = o->incant;
    s->stress_iters = o->stress_iters;
    s->stress_lines = o->stress_lines;
    s->stress_stride = o->stress_stride ? o->stress_stride : 128;
    s->smem_dummy = ((uint32_t)nshared * warps * 32 * (wide ? 8u : 4u) + 127) & ~127u;
    s->smem_bytes = s->smem_dummy + 4096;
    s->src_lines = 0; /* the kernel is inline asm in nvcc's own .file numbering */
}

int lit_cuda_source(const lit_test *t, const lit_opts *o, strbuf *sb, strbuf *err)
{
    strbuf body = STRBUF_INIT, tmp = STRBUF_INIT;
    lit_outcomes sc = {0};
    int rc = -1;
    lit_shape shape;
    lit_cuda_shape(t, o, &shape);
    uint32_t warps = o->warps ? o->warps : 8;
    if (lit_kernel_module(t, &shape, &body, err))
        goto out;
    if (lit_sc_outcomes(t, 20000000, &sc, err) < 0)
        goto out;

    sb_printf(sb, "// %s.cu -- the litmus test %s as a standalone CUDA program, written by\n", t->name, t->name);
    sb_printf(sb, "// `lockstep litmus --emit-cuda` from %s.  It runs the harness lockstep\n", t->filename);
    sb_puts(sb, "// runs (same kernel, same placement code, same histogram format).\n"
                "// Build: nvcc -O2 -o test test.cu      Run: ./test [-n N] [--place-seed S]\n"
                "// On lockstep: nvcc -O2 -cudart shared -o test test.cu; lockstep run -- ./test\n");
    lit_incantations_name(&tmp, o->incant);
    sb_printf(sb, "// Incantations: %s; warps per CTA: %u; stride: %u bytes.\n", sb_cstr(&tmp), warps,
              o->stride ? o->stride : 16);
    sb_puts(sb, "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n"
                "#include <time.h>\n#include <cuda_runtime.h>\n\n"
                "// ---- place.h (lockstep src/litmus/place.h) ----\n");
    sb_puts(sb, lit_place_h_src);
    sb_puts(sb, "\n// ---- place.c (lockstep src/litmus/place.c) ----\n");
    /* drop place.c's own #include "place.h" */
    const char *pc = lit_place_c_src, *inc = strstr(pc, "#include \"place.h\"");
    if (inc) {
        sb_append(sb, pc, (size_t)(inc - pc));
        pc = strchr(inc, '\n');
        pc = pc ? pc + 1 : "";
    }
    sb_puts(sb, pc);

    sb_puts(sb, "\n// ---- the test ----\n");
    sb_puts(sb, "#define TEST_NAME ");
    c_string(sb, t->name);
    sb_printf(sb, "\n#define NOBS %d\n#define NLOCS %d\n#define QUANT %d\n", t->nobserved ? t->nobserved : 1,
              t->nlocs, t->quant == LIT_EXISTS ? 0 : t->quant == LIT_NOT_EXISTS ? 1 : 2);
    sb_printf(sb, "#define ITERATIONS %lluULL\n#define PLACE_SEED %lluULL\n#define CTAS %u\n#define WARPS %u\n"
                  "#define INCANT %u\n#define STRIDE %u\n#define MAX_INST %u\n#define STRESS_LINES %u\n#define STRESS_STRIDE %u\n",
              (unsigned long long)o->iterations, (unsigned long long)o->place_seed, o->ctas, warps,
              o->incant, o->stride ? o->stride : 16, o->max_instances, o->stress_lines ? o->stress_lines : 1,
              shape.stress_stride);
    sb_clear(&tmp);
    lit_cond_print(&tmp, t);
    sb_puts(sb, "#define COND_TEXT ");
    c_string(sb, sb_cstr(&tmp));
    sb_puts(sb, "\nstatic const char *const OBS_NAME[NOBS] = {");
    for (int i = 0; i < t->nobserved; i++) {
        sb_clear(&tmp);
        lit_item_name(&tmp, t, t->observed[i]);
        sb_puts(sb, i ? ", " : "");
        c_string(sb, sb_cstr(&tmp));
    }
    if (!t->nobserved)
        sb_puts(sb, "\"none\"");
    sb_puts(sb, "};\nstatic const int OBS_UNSIGNED[NOBS] = {");
    for (int i = 0; i < t->nobserved; i++)
        sb_printf(sb, "%s%d", i ? ", " : "", LIT_PRINTS_UNSIGNED(lit_item_type(t, t->observed[i])) ? 1 : 0);
    if (!t->nobserved)
        sb_puts(sb, "0");
    sb_puts(sb, "};\nstatic const int OBS_THREAD[NOBS] = {");
    for (int i = 0; i < t->nobserved; i++)
        sb_printf(sb, "%s%d", i ? ", " : "", t->observed[i].thread);
    if (!t->nobserved)
        sb_puts(sb, "-2");
    sb_puts(sb, "};\nstatic const int OBS_INDEX[NOBS] = {");
    for (int i = 0; i < t->nobserved; i++)
        sb_printf(sb, "%s%d", i ? ", " : "", t->observed[i].index);
    if (!t->nobserved)
        sb_puts(sb, "0");
    sb_puts(sb, "};\nstatic const int OBS_WIDE[NOBS] = {");
    for (int i = 0; i < t->nobserved; i++) {
        int w = 0;
        if (t->observed[i].thread >= 0) {
            lit_rtype ty = t->threads[t->observed[i].thread].regs[t->observed[i].index].type;
            w = ty == LIT_S64 || ty == LIT_U64 || ty == LIT_B64;
        }
        sb_printf(sb, "%s%d", i ? ", " : "", w);
    }
    if (!t->nobserved)
        sb_puts(sb, "0");
    sb_puts(sb, "};\nstatic const char *const LOC_NAME[NLOCS + 1] = {");
    for (int l = 0; l < t->nlocs; l++) {
        c_string(sb, t->locs[l].name);
        sb_puts(sb, ", ");
    }
    sb_puts(sb, "0};\nstatic const long long LOC_INIT[NLOCS + 1] = {");
    for (int l = 0; l < t->nlocs; l++)
        sb_printf(sb, "%lldLL, ", (long long)t->locs[l].init);
    sb_puts(sb, "0};\nstatic const int LOC_SIGNED[NLOCS + 1] = {");
    for (int l = 0; l < t->nlocs; l++)
        sb_printf(sb, "%d, ", t->locs[l].type == LIT_S32 || t->locs[l].type == LIT_S64);
    sb_puts(sb, "0};\n");
    sb_printf(sb, "#define N_SC %d\nstatic const long long SC[%d][NOBS] = {", sc.n, sc.n ? sc.n : 1);
    for (int i = 0; i < sc.n; i++) {
        sb_puts(sb, i ? ", {" : "{");
        for (int j = 0; j < sc.width; j++)
            sb_printf(sb, "%s%lldLL", j ? ", " : "", (long long)sc.vals[(size_t)i * (size_t)sc.width + (size_t)j]);
        sb_puts(sb, "}");
    }
    if (!sc.n)
        sb_puts(sb, "{0}");
    sb_puts(sb, "};\nstatic int cond(const long long *v)\n{\n    (void)v;\n    return ");
    cond_c(sb, t, t->cond);
    sb_puts(sb, ";\n}\n");

    /* the shape for place.c */
    sb_puts(sb, "static void init_test(lp_test *t)\n{\n    memset(t, 0, sizeof *t);\n");
    sb_printf(sb, "    t->nthreads = %d; t->nctas = %d; t->nwarps = %d; t->nlocs = %d; t->loops = %d;\n",
              t->nthreads, t->nctas, t->nwarps, t->nlocs, lit_has_backward_branch(t));
    for (int k = 0; k < t->nthreads; k++) {
        int m = 0;
        sb_printf(sb, "    t->thread_cta[%d] = %d; t->thread_warp[%d] = %d;", k, t->threads[k].cta, k,
                  t->threads[k].warp);
        for (int i = 0; i < t->threads[k].ninsns; i++) {
            lit_op op = t->threads[k].code[i].op;
            if (op == LIT_LD || op == LIT_ST || op == LIT_ATOM || op == LIT_RED) {
                if (op == LIT_LD)
                    sb_printf(sb, " t->mem_load[%d][%d] = 1;", k, m);
                m++;
            }
        }
        sb_printf(sb, " t->nmem[%d] = %d;\n", k, m);
    }
    for (int l = 0; l < t->nlocs; l++) {
        int rec = lit_recorder(t, l), sh = t->locs[l].region == LIT_SHARED;
        lit_rtype ty = t->locs[l].type;
        sb_printf(sb, "    t->loc_shared[%d] = %d; t->loc_cta[%d] = %d; t->loc_bytes[%d] = %d;\n", l, sh, l,
                  sh && rec >= 0 ? t->threads[rec].cta : -1, l,
                  ty == LIT_S64 || ty == LIT_U64 || ty == LIT_B64 ? 8 : 4);
    }
    sb_puts(sb, "}\n\n");

    /* the kernel: the body of lockstep's own entry (lit_kernel_module: the
     * shared array, the parameter loads, the harness) as the whole of an
     * inline asm statement, so the kernel is lockstep's instruction for
     * instruction (no compiler-made prologue shifting the timing).  The
     * parameters are read in the asm by the names nvcc gives an extern "C"
     * kernel's parameters (litmus_test_param_N); the unused "n" operand
     * makes the statement extended asm, where %% stands for %. */
    sb_puts(sb, "extern \"C\" __global__ void litmus_test(unsigned long long roles, unsigned long long addrs, "
                "unsigned long long results, unsigned long long sync, unsigned long long acc, "
                "unsigned long long scratch)\n{\n"
                "    asm volatile(\n");
    const char *p = sb_cstr(&body), *open = strstr(p, ")\n{\n");
    size_t blen = strlen(p);
    static const char tail[] = "  ret;\n}\n";
    if (!open || blen < sizeof tail - 1 || strcmp(p + blen - (sizeof tail - 1), tail)) {
        sb_puts(err, "internal: the harness module has an unexpected shape");
        goto out;
    }
    const char *stop = p + blen - (sizeof tail - 1);
    static const char *const params[] = {
#define LIT_PARAM_NAME(n) "[p_" #n "]",
        LIT_KPARAMS(LIT_PARAM_NAME)
#undef LIT_PARAM_NAME
    };
    for (p = open + 3; p < stop;) {
        const char *e = memchr(p, '\n', (size_t)(stop - p));
        size_t n = e ? (size_t)(e - p) : (size_t)(stop - p);
        sb_puts(sb, "        \"");
        for (size_t i = 0; i < n; i++) {
            char c = p[i];
            size_t k, np = sizeof params / sizeof params[0];
            for (k = 0; k < np; k++)
                if (!strncmp(p + i, params[k], strlen(params[k])))
                    break;
            if (k < np) {
                sb_printf(sb, "[litmus_test_param_%zu]", k);
                i += strlen(params[k]) - 1;
            } else if (c == '%')
                sb_puts(sb, "%%");
            else if (c == '"' || c == '\\') {
                sb_putc(sb, '\\');
                sb_putc(sb, c);
            } else
                sb_putc(sb, c);
        }
        sb_puts(sb, "\\n\"\n");
        p += n + (e ? 1 : 0);
    }
    sb_puts(sb, "        :: \"n\"(0) : \"memory\");\n"
                "    (void)roles; (void)addrs; (void)results; (void)sync; (void)acc; (void)scratch;\n}\n\n");
    sb_puts(sb, main_src);
    rc = sb->oom ? -1 : 0;
    if (sb->oom)
        sb_puts(err, "host out of memory");
out:
    lit_outcomes_free(&sc);
    sb_free(&body);
    sb_free(&tmp);
    return rc;
}

int lit_emit_cuda(const lit_test *t, const lit_opts *o, const char *dir, strbuf *msg, strbuf *err)
{
    strbuf src = STRBUF_INIT, path = STRBUF_INIT;
    int rc = -1;
    if (lit_cuda_source(t, o, &src, err))
        goto out;
    sb_printf(&path, "%s/", dir);
    for (const char *c = t->name; *c; c++) /* a file name from the test's name */
        sb_putc(&path, (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') || (*c >= '0' && *c <= '9') ||
                               *c == '-' || *c == '_' || *c == '.' || *c == '+'
                           ? *c
                           : '_');
    sb_puts(&path, ".cu");
    /* DIR itself is made when missing (not its parents: a mistyped path
     * should not grow a tree) */
    if (mkdir(dir, 0777) && errno != EEXIST) {
        sb_printf(err, "cannot make the directory %s: %s", dir, strerror(errno));
        goto out;
    }
    FILE *f = fopen(sb_cstr(&path), "w");
    if (!f) {
        sb_printf(err, "cannot write %s: %s", sb_cstr(&path), strerror(errno));
        goto out;
    }
    int bad = fwrite(src.s, 1, src.len, f) != src.len;
    bad |= fclose(f) != 0;
    if (bad) {
        sb_printf(err, "cannot write %s", sb_cstr(&path));
        goto out;
    }
    sb_printf(msg, "wrote %s\n", sb_cstr(&path));
    rc = 0;
out:
    sb_free(&src);
    sb_free(&path);
    return rc;
}
