/*
 * cmd_litmus.c -- `lockstep litmus`: run GPU litmus tests on the timing
 * model and print litmus7-style histograms (or JSON), list a test's SC
 * outcomes, print the harness kernel, or write CUDA programs that run the
 * same harness on a real GPU.  The work is in src/litmus; this file reads
 * the command line.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "litmus/cuda.h"
#include "litmus/harness.h"
#include "lockstep.h"

static void litmus_usage(FILE *f)
{
    fprintf(f,
            "usage: lockstep litmus [options] FILE...\n"
            "\n"
            "Run each GPU litmus test (the thesis's GPU_PTX format, herd's GPU_PTX dialect or\n"
            "the scoped PTX syntax) many times on the timing model and print its histogram\n"
            "in litmus7's format; every outcome is also classified as SC or weak.\n"
            "\n"
            "  -n N                iterations: launches of the harness kernel (default 100);\n"
            "                      each launch holds many instances of the test\n"
            "  --config FILE       the GPU configuration (e.g. configs/gtx480.config)\n"
            "  -O \"-NAME VALUE\"    set one option (repeatable; applied after --config)\n"
            "  --det MODE          deterministic execution: none (default), gpudet or dab\n"
            "  --seed S            the hardware's nondeterminism seed (default 0)\n"
            "  --place-seed S      the placement stream's seed (default: --seed)\n"
            "  --incantations L    comma-separated: bank, stress, random, sync; or all, none\n"
            "                      (default none)\n"
            "  --ctas N            CTAs per launch (default: the number of SMs)\n"
            "  --warps N           warps per CTA (default 8)\n"
            "  --stride BYTES      distance between instances' copies of a location (default 16)\n"
            "  --instances N       at most N instances per launch (default: as many as fit)\n"
            "  --stress-iters N    memory-stress loop trips (default 32)\n"
            "  --stress-lines N    scratch lines the stress warps walk (default 4096)\n"
            "  --stress-stride B   bytes between the stress lines (default: partitions x\n"
            "                      interleave; the address map's hash still spreads them\n"
            "                      over the partitions)\n"
            "  --json              one JSON object per test instead of the histogram\n"
            "  --sc                print the outcomes sequential consistency allows; run nothing\n"
            "  --ptx               print the harness kernel's PTX; run nothing\n"
            "  --emit-cuda DIR     write DIR/<test>.cu, a standalone CUDA program running the\n"
            "                      same harness (build: nvcc -o t <test>.cu); run nothing\n"
            "\n"
            "Exit status: 0 if every test parsed and ran, 1 if one did not, 2 bad usage.\n");
}

static int parse_u64(const char *opt, const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 0);
    if (!*s || *end || errno || s[0] == '-' || v < min || v > max) {
        fprintf(stderr, "lockstep litmus: %s wants a number from %llu to %llu, not '%s'\n", opt,
                (unsigned long long)min, (unsigned long long)max, s);
        return -1;
    }
    *out = v;
    return 0;
}

int cmd_litmus(int argc, char **argv)
{
    lit_opts o;
    lit_opts_default(&o);
    const char *config_file = NULL, *det = NULL, *emit_dir = NULL;
    int json = 0, sc_only = 0, ptx_only = 0, place_set = 0, rc = 2;
    strbuf options = STRBUF_INIT, err = STRBUF_INIT, out = STRBUF_INIT;
    lockstep_config *cfg = NULL;
    const char **files = calloc((size_t)argc + 1, sizeof *files);
    int nfiles = 0;
    if (!files) {
        fprintf(stderr, "lockstep litmus: out of host memory\n");
        return 1;
    }
    int dashdash = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        uint64_t v;
        if (dashdash) { /* after "--", every argument is a file */
            files[nfiles++] = a;
            continue;
        }
        if (!strcmp(a, "--")) {
            dashdash = 1;
            continue;
        }
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            litmus_usage(stdout);
            rc = 0;
            goto done;
        }
        if (!strcmp(a, "--json")) {
            json = 1;
            continue;
        }
        if (!strcmp(a, "--sc")) {
            sc_only = 1;
            continue;
        }
        if (!strcmp(a, "--ptx")) {
            ptx_only = 1;
            continue;
        }
        if (a[0] != '-' || !strcmp(a, "-")) {
            files[nfiles++] = a;
            continue;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "lockstep litmus: %s needs a value (see lockstep litmus --help)\n", a);
            goto done;
        }
        const char *val = argv[++i];
        /* an option (but -O) given again must say the same thing */
        for (int j = 1; j < i - 1 && strcmp(a, "-O") && strcmp(a, "--option"); j++)
            if (!strcmp(argv[j], a) && j + 1 < i && strcmp(argv[j + 1], val)) {
                fprintf(stderr, "lockstep litmus: %s %s and %s %s disagree: give one of them\n", a,
                        argv[j + 1], a, val);
                goto done;
            }
        if (!strcmp(a, "-n")) {
            if (parse_u64(a, val, 1, UINT64_C(1) << 40, &o.iterations))
                goto done;
        } else if (!strcmp(a, "--config")) {
            config_file = val;
        } else if (!strcmp(a, "-O") || !strcmp(a, "--option")) {
            sb_puts(&options, val);
            sb_putc(&options, '\n');
        } else if (!strcmp(a, "--det")) {
            det = val;
        } else if (!strcmp(a, "--seed")) {
            if (parse_u64(a, val, 0, UINT64_MAX, &o.seed))
                goto done;
        } else if (!strcmp(a, "--place-seed")) {
            if (parse_u64(a, val, 0, UINT64_MAX, &o.place_seed))
                goto done;
            place_set = 1;
        } else if (!strcmp(a, "--incantations")) {
            if (lit_parse_incantations(val, &o.incant, &err)) {
                fprintf(stderr, "lockstep litmus: %s\n", sb_cstr(&err));
                goto done;
            }
        } else if (!strcmp(a, "--ctas")) {
            if (parse_u64(a, val, 1, 1024, &v))
                goto done;
            o.ctas = (uint32_t)v;
        } else if (!strcmp(a, "--warps")) {
            if (parse_u64(a, val, 1, 32, &v))
                goto done;
            o.warps = (uint32_t)v;
        } else if (!strcmp(a, "--stride")) {
            if (parse_u64(a, val, 4, 65536, &v))
                goto done;
            if (v % 4) {
                fprintf(stderr, "lockstep litmus: --stride must be a multiple of 4, not %s\n", val);
                goto done;
            }
            o.stride = (uint32_t)v;
        } else if (!strcmp(a, "--instances")) {
            if (parse_u64(a, val, 1, 1u << 24, &v))
                goto done;
            o.max_instances = (uint32_t)v;
        } else if (!strcmp(a, "--stress-iters")) {
            if (parse_u64(a, val, 1, 1u << 20, &v))
                goto done;
            o.stress_iters = (uint32_t)v;
        } else if (!strcmp(a, "--stress-lines")) {
            if (parse_u64(a, val, 1, 1u << 20, &v))
                goto done;
            o.stress_lines = (uint32_t)v;
        } else if (!strcmp(a, "--stress-stride")) {
            if (parse_u64(a, val, 128, 1u << 20, &v))
                goto done;
            if (v % 128) {
                fprintf(stderr, "lockstep litmus: --stress-stride must be a multiple of 128, not %s\n", val);
                goto done;
            }
            o.stress_stride = (uint32_t)v;
        } else if (!strcmp(a, "--emit-cuda")) {
            emit_dir = val;
        } else {
            fprintf(stderr, "lockstep litmus: unknown option '%s' (see lockstep litmus --help)\n", a);
            goto done;
        }
    }
    if (!nfiles) {
        litmus_usage(stderr);
        goto done;
    }
    if (sc_only + ptx_only + (emit_dir != NULL) > 1 || (json && (sc_only || ptx_only || emit_dir))) {
        fprintf(stderr, "lockstep litmus: %s: choose one (--sc, --ptx and --emit-cuda run "
                        "nothing; --json prints a run's results)\n",
                sc_only && ptx_only ? "--sc and --ptx"
                : sc_only && emit_dir ? "--sc and --emit-cuda"
                : ptx_only && emit_dir ? "--ptx and --emit-cuda"
                : sc_only ? "--json and --sc"
                : ptx_only ? "--json and --ptx" : "--json and --emit-cuda");
        goto done;
    }
    if (!place_set)
        o.place_seed = o.seed;

    rc = 1;
    if (lockstep_config_create(&cfg) != LOCKSTEP_SUCCESS) {
        fprintf(stderr, "lockstep litmus: out of host memory\n");
        goto done;
    }
    /* A litmus launch takes tens of thousands of cycles; one whose thread
     * waits for a value that never comes would spin until the general limit
     * (2e9 cycles, many minutes).  Litmus runs get a limit of their own,
     * with room for the stress loop; --config and -O still override it. */
    char maxc[32];
    snprintf(maxc, sizeof maxc, "%llu", (unsigned long long)lit_max_cycles(&o));
    if (lockstep_config_set(cfg, "-lockstep_max_cycles", maxc) ||
        (config_file && lockstep_config_load_file(cfg, config_file)) ||
        (options.len && lockstep_config_parse(cfg, options.s, options.len, "-O")) ||
        (det && lockstep_config_set(cfg, "-lockstep_det", det)) ||
        lockstep_config_validate(cfg)) {
        fprintf(stderr, "lockstep litmus: %s\n", lockstep_config_last_error(cfg));
        rc = 2;
        goto done;
    }
    char mode[32] = "";
    lockstep_config_get(cfg, "-lockstep_mode", mode, sizeof mode);
    if (strcmp(mode, "timing")) {
        fprintf(stderr, "lockstep litmus: -lockstep_mode %s: litmus tests run on the timing model "
                        "(functional mode is sequentially consistent: see --sc for its outcomes)\n",
                mode);
        rc = 2;
        goto done;
    }

    int failed = 0;
    for (int f = 0; f < nfiles; f++) {
        lit_test *t = calloc(1, sizeof *t);
        if (!t) {
            fprintf(stderr, "lockstep litmus: out of host memory\n");
            failed = 1;
            break;
        }
        sb_clear(&err);
        sb_clear(&out);
        if (lit_parse_file(files[f], t, &err)) {
            fputs(sb_cstr(&err), stderr);
            failed = 1;
            free(t);
            continue;
        }
        if (sc_only) {
            lit_outcomes sc = {0};
            int nsc = lit_sc_outcomes(t, 20000000, &sc, &err);
            if (nsc < 0) {
                if (nsc == -2 && !strncmp(sb_cstr(&err), files[f], strlen(files[f])))
                    fprintf(stderr, "%s\n", sb_cstr(&err)); /* already file:line:col */
                else
                    fprintf(stderr, "%s: %s\n", files[f], sb_cstr(&err));
                failed = 1;
            } else {
                sb_printf(&out, "Test %s: %d SC outcomes\n", t->name, sc.n);
                for (int i = 0; i < sc.n; i++) {
                    for (int j = 0; j < t->nobserved; j++) {
                        lit_item_name(&out, t, t->observed[j]);
                        sb_printf(&out, "=%lld; ", (long long)sc.vals[(size_t)i * (size_t)sc.width + (size_t)j]);
                    }
                    sb_puts(&out, "\n");
                }
                fputs(sb_cstr(&out), stdout);
            }
            lit_outcomes_free(&sc);
        } else if (ptx_only || emit_dir) {
            int bad;
            lit_opts ko = o;
            if (!ko.stress_stride)
                ko.stress_stride = lit_stress_stride(cfg, 0);
            if (ptx_only) {
                lit_shape s;
                lit_cuda_shape(t, &ko, &s);
                bad = lit_kernel_module(t, &s, &out, &err);
                if (!bad)
                    fputs(sb_cstr(&out), stdout);
            } else {
                bad = lit_emit_cuda(t, &ko, emit_dir, &out, &err);
                if (!bad)
                    fputs(sb_cstr(&out), stdout);
            }
            if (bad) {
                fprintf(stderr, "%s: %s\n", files[f], sb_cstr(&err));
                failed = 1;
            }
        } else {
            lit_histo h;
            if (lit_run(t, cfg, &o, &h, &err)) {
                fprintf(stderr, "lockstep litmus: %s\n", sb_cstr(&err));
                failed = 1;
            } else {
                if (json)
                    lit_histo_json(&out, t, &h, &o, config_file);
                else {
                    lit_histo_print(&out, t, &h);
                    sb_puts(&out, "\n");
                }
                fputs(sb_cstr(&out), stdout);
                fflush(stdout);
            }
            lit_histo_free(&h);
        }
        free(t);
    }
    rc = failed;
done:
    free(files);
    sb_free(&options);
    sb_free(&err);
    sb_free(&out);
    lockstep_config_destroy(cfg);
    return rc;
}
