/*
 * cmd_detcheck.c -- `lockstep detcheck`: is a CUDA program deterministic on
 * the simulated GPU?  Runs it under N nondeterminism seeds (in parallel
 * processes, `lockstep run` each), each writing the runtime's determinism
 * record (src/cudart/detrecord.c: every launch with its cycles and a hash
 * of device memory after it, every device-to-host copy, the final contents
 * of every live allocation), captures each run's stdout, and compares:
 * per launch and for the whole program, how many distinct hashes and cycle
 * counts the runs gave, the first launch and the first allocation (with
 * the byte offset) where they differ, and for such an allocation the
 * largest difference read as float32.
 *
 * Exit status: 0 deterministic, 1 not, 2 error (bad usage, a run that could
 * not start or did not finish, runs that disagree on the program's shape).
 */
#define _GNU_SOURCE /* mkdtemp */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "campaign/pool.h"
#include "cli/cli.h"
#include "cli/runrec.h"
#include "util/hash.h"

#define MAX_RUNS 1024

static void usage(FILE *f)
{
    fprintf(f,
            "usage: lockstep detcheck [options] [run options] -- PROGRAM [ARGS...]\n"
            "\n"
            "Runs a CUDA program under N nondeterminism seeds and reports whether its\n"
            "results are the same every time: every device-to-host copy, device memory\n"
            "after every launch and at exit, and its standard output.\n"
            "Exit status: 0 deterministic, 1 not, 2 error.\n"
            "\n"
            "options:\n"
            "  -n N                runs, seeds 1..N (default 8, at most %d)\n"
            "  --seed-base S       seeds S+1..S+N instead\n"
            "  --jobs J            runs at a time (default: one per CPU)\n"
            "  --json              print the report as JSON\n"
            "  --keep DIR          keep each run's record, output and errors in DIR\n"
            "run options (passed to each `lockstep run`): --det MODE (none, gpudet, dab),\n"
            "  --config FILE, -O \"-NAME VALUE\", --functional, --timing, --threads N,\n"
            "  --timeout S, --cudart-dir DIR\n",
            MAX_RUNS);
}

/* ---- running ----------------------------------------------------------------------------- */

/* The runs go through the campaign runner's process pool
 * (src/campaign/pool.h): run i is `lockstep run` with run_argv[seed_at]
 * set to its seed and its record, output and errors in its files. */
typedef struct dc_runs {
    char **run_argv;
    int seed_at;
    run_rec *runs;
} dc_runs;

static int run_child(void *vctx, size_t i)
{
    dc_runs *c = vctx;
    run_rec *r = &c->runs[i];
    char seed[32];
    snprintf(seed, sizeof seed, "%" PRIu64, r->seed);
    c->run_argv[c->seed_at] = seed;
    const char *env[] = {"LOCKSTEP_DET_RECORD", r->rec_path, NULL};
    return runrec_exec("/proc/self/exe", c->run_argv, r->out_path, r->err_path, env);
}

static int run_finished(void *vctx, size_t i, int code)
{
    dc_runs *c = vctx;
    c->runs[i].exit_status = code;
    return 0;
}

/* ---- comparing -------------------------------------------------------------------------- */

static size_t distinct_u64(const uint64_t *v, size_t n)
{
    size_t d = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < i && v[j] != v[i])
            j++;
        d += j == i;
    }
    return d;
}

/* The first byte where `size` bytes at offset xo of run a's .mem file and
 * at yo of run b's differ, and the largest difference read as float32 (at
 * element *at_elem); -1 if the bytes are not at hand. */
static long long first_diff(const run_rec *a, long long xo, const run_rec *b, long long yo,
                            uint64_t size, double *maxdiff, long long *at_elem)
{
    *maxdiff = -1;
    *at_elem = -1;
    if (xo < 0 || yo < 0)
        return -1;
    char pa[PATH_MAX + 8], pb[PATH_MAX + 8];
    snprintf(pa, sizeof pa, "%s.mem", a->rec_path);
    snprintf(pb, sizeof pb, "%s.mem", b->rec_path);
    FILE *fa = fopen(pa, "rb"), *fb = fopen(pb, "rb");
    long long first = -1;
    if (fa && fb && !fseeko(fa, xo, SEEK_SET) && !fseeko(fb, yo, SEEK_SET)) {
        unsigned char ba[4096], bb[4096];
        uint64_t done = 0;
        int floats = size % 4 == 0;
        while (done < size) {
            size_t k2 = size - done < sizeof ba ? (size_t)(size - done) : sizeof ba;
            if (fread(ba, 1, k2, fa) != k2 || fread(bb, 1, k2, fb) != k2)
                break;
            for (size_t i = 0; i < k2; i++)
                if (ba[i] != bb[i]) {
                    if (first < 0)
                        first = (long long)(done + i);
                    if (floats) {
                        size_t e = i & ~(size_t)3;
                        float fx, fy;
                        memcpy(&fx, ba + e, 4);
                        memcpy(&fy, bb + e, 4);
                        double d = fabs((double)fx - (double)fy);
                        if (d != d)
                            d = INFINITY; /* a NaN on one side */
                        if (d > *maxdiff) {
                            *maxdiff = d;
                            *at_elem = (long long)((done + e) / 4);
                        }
                        i = e + 3;
                    }
                }
            done += k2;
        }
    }
    if (fa)
        fclose(fa);
    if (fb)
        fclose(fb);
    return first;
}

static void json_str(FILE *f, const char *s)
{
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(f, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(f, "\\u%04x", *s);
        else
            fputc(*s, f);
    }
    fputc('"', f);
}

static void remove_run_files(const run_rec *r)
{
    char m[PATH_MAX + 8];
    snprintf(m, sizeof m, "%s.mem", r->rec_path);
    unlink(r->rec_path);
    unlink(m);
    unlink(r->out_path);
    unlink(r->err_path);
}

int cmd_detcheck(int argc, char **argv)
{
    long n = 8, jobs = sysconf(_SC_NPROCESSORS_ONLN);
    unsigned long long seed_base = 0;
    int json = 0;
    const char *keep = NULL;
    /* lockstep run's argv: run, pass-through options, --no-stats, --nondet-seed S, --, program */
    char **rargv = calloc((size_t)argc + 8, sizeof *rargv);
    if (!rargv) {
        fprintf(stderr, "lockstep detcheck: out of memory\n");
        return 2;
    }
    int nr = 0, i = 1;
    rargv[nr++] = "lockstep";
    rargv[nr++] = "run";
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            free(rargv);
            return 0;
        }
        if (!strcmp(a, "--json")) {
            json = 1;
            continue;
        }
        if (!strcmp(a, "--functional") || !strcmp(a, "--timing")) {
            rargv[nr++] = argv[i];
            continue;
        }
        int mine = !strcmp(a, "-n") || !strcmp(a, "--jobs") || !strcmp(a, "--seed-base") ||
                   !strcmp(a, "--keep");
        int passed = !strcmp(a, "--config") || !strcmp(a, "-O") || !strcmp(a, "--option") ||
                     !strcmp(a, "--threads") || !strcmp(a, "--timeout") ||
                     !strcmp(a, "--cudart-dir") || !strcmp(a, "--det");
        if (mine || passed) {
            if (i + 1 >= argc) {
                fprintf(stderr, "lockstep detcheck: %s needs a value\n", a);
                free(rargv);
                return 2;
            }
            const char *v = argv[i + 1];
            if (passed) {
                rargv[nr++] = argv[i];
                rargv[nr++] = argv[i + 1];
                i++;
                continue;
            }
            i++;
            if (!strcmp(a, "--keep")) {
                keep = v;
                continue;
            }
            char *end;
            errno = 0;
            unsigned long long x = strtoull(v, &end, 10);
            if (errno || end == v || *end || v[0] == '-' ||
                (strcmp(a, "--seed-base") && (x < 1 || x > (strcmp(a, "-n") ? 4096 : MAX_RUNS)))) {
                fprintf(stderr, "lockstep detcheck: %s %s: give %s\n", a, v,
                        !strcmp(a, "-n") ? "a number of runs from 1 to 1024"
                        : !strcmp(a, "--jobs") ? "a number of parallel runs from 1 to 4096"
                                               : "a seed (a non-negative integer)");
                free(rargv);
                return 2;
            }
            if (!strcmp(a, "-n"))
                n = (long)x;
            else if (!strcmp(a, "--jobs"))
                jobs = (long)x;
            else
                seed_base = x;
            continue;
        }
        if (a[0] == '-') {
            fprintf(stderr, "lockstep detcheck: unknown option '%s' (see lockstep detcheck --help)\n",
                    a);
            free(rargv);
            return 2;
        }
        break;
    }
    if (i >= argc) {
        fprintf(stderr, "lockstep detcheck: no program given\n");
        usage(stderr);
        free(rargv);
        return 2;
    }
    if (seed_base > UINT64_MAX - (uint64_t)n) {
        fprintf(stderr, "lockstep detcheck: --seed-base %llu: the seeds would overflow\n", seed_base);
        free(rargv);
        return 2;
    }
    if (jobs < 1)
        jobs = 1;
    rargv[nr++] = "--no-stats";
    rargv[nr++] = "--no-progress";
    rargv[nr++] = "--nondet-seed";
    int seed_slot = nr++; /* filled per run by run_child */
    rargv[nr++] = "--";
    for (int k = i; k < argc; k++)
        rargv[nr++] = argv[k];
    rargv[nr] = NULL;

    char dir[PATH_MAX - 64]; /* room for /runN.rec.mem */
    if (keep && strlen(keep) >= sizeof dir) {
        fprintf(stderr, "lockstep detcheck: --keep: the folder's name is too long\n");
        free(rargv);
        return 2;
    }
    if (keep) {
        struct stat kst;
        if (mkdir(keep, 0777) && errno != EEXIST) {
            fprintf(stderr, "lockstep detcheck: --keep %s: %s\n", keep, strerror(errno));
            free(rargv);
            return 2;
        }
        if (stat(keep, &kst) || !S_ISDIR(kst.st_mode) || access(keep, W_OK | X_OK)) {
            fprintf(stderr, "lockstep detcheck: --keep %s: %s\n", keep,
                    !stat(keep, &kst) && !S_ISDIR(kst.st_mode) ? "not a directory"
                                                               : "not a directory it can write in");
            free(rargv);
            return 2;
        }
        snprintf(dir, sizeof dir, "%s", keep);
    } else {
        const char *tmp = getenv("TMPDIR");
        snprintf(dir, sizeof dir, "%s/lockstep-detcheck.XXXXXX", tmp && *tmp ? tmp : "/tmp");
        if (!mkdtemp(dir)) {
            fprintf(stderr, "lockstep detcheck: cannot make a temporary folder: %s\n",
                    strerror(errno));
            free(rargv);
            return 2;
        }
    }
    run_rec *runs = calloc((size_t)n, sizeof *runs);
    int rc = 2;
    if (!runs) {
        fprintf(stderr, "lockstep detcheck: out of memory\n");
        goto done;
    }
    for (long r = 0; r < n; r++) {
        runs[r].seed = seed_base + (uint64_t)r + 1;
        snprintf(runs[r].rec_path, sizeof runs[r].rec_path, "%s/run%ld.rec", dir, r);
        snprintf(runs[r].out_path, sizeof runs[r].out_path, "%s/run%ld.out", dir, r);
        snprintf(runs[r].err_path, sizeof runs[r].err_path, "%s/run%ld.err", dir, r);
    }

    /* run them, at most `jobs` at a time */
    dc_runs ctx = {rargv, seed_slot, runs};
    pool_ops ops = {run_child, run_finished, &ctx};
    if (pool_run((size_t)n, (unsigned)jobs, &ops, NULL)) {
        fprintf(stderr, "lockstep detcheck: cannot start a run: %s\n", strerror(errno));
        goto done;
    }

    /* read every run; a run that could not start, or that lockstep run
     * refused (exit 2 with no record), is an error: show why */
    for (long r = 0; r < n; r++) {
        if (runrec_read(&runs[r])) {
            fprintf(stderr, "lockstep detcheck: run %ld (seed %" PRIu64 ") wrote no record "
                            "(exit status %d); its errors:\n", r + 1, runs[r].seed,
                    runs[r].exit_status);
            FILE *e = fopen(runs[r].err_path, "r");
            char line[512];
            int lines = 0;
            while (e && fgets(line, sizeof line, e) && lines++ < 20)
                fprintf(stderr, "  %s", line);
            if (e)
                fclose(e);
            goto done;
        }
        runs[r].stdout_hash = runrec_hash_file(runs[r].out_path);
    }

    /* compare */
    run_rec *r0 = &runs[0];
    int same_shape = 1;
    for (long r = 1; r < n; r++)
        if (runs[r].nlaunches != r0->nlaunches || runs[r].ncopies != r0->ncopies ||
            runs[r].nallocs != r0->nallocs)
            same_shape = 0;
    uint64_t *v = calloc((size_t)n, sizeof *v);
    if (!v)
        goto done;
    size_t first_launch = SIZE_MAX, launch_diffs = 0, cycle_diffs = 0;
    size_t first_copy = SIZE_MAX, copy_diffs = 0, first_alloc = SIZE_MAX, alloc_diffs = 0;
    size_t nl = r0->nlaunches, nc = r0->ncopies, na = r0->nallocs;
    for (long r = 1; r < n; r++) {
        nl = runs[r].nlaunches < nl ? runs[r].nlaunches : nl;
        nc = runs[r].ncopies < nc ? runs[r].ncopies : nc;
        na = runs[r].nallocs < na ? runs[r].nallocs : na;
    }
    for (size_t k = 0; k < nl; k++) {
        for (long r = 0; r < n; r++)
            v[r] = runs[r].launches[k].hash ^ (uint64_t)runs[r].launches[k].status << 60;
        if (distinct_u64(v, (size_t)n) > 1) {
            launch_diffs++;
            if (first_launch == SIZE_MAX)
                first_launch = k;
        }
        for (long r = 0; r < n; r++)
            v[r] = runs[r].launches[k].cycles;
        cycle_diffs += distinct_u64(v, (size_t)n) > 1;
    }
    for (size_t k = 0; k < nc; k++) {
        for (long r = 0; r < n; r++)
            v[r] = runs[r].copies[k];
        if (distinct_u64(v, (size_t)n) > 1) {
            copy_diffs++;
            if (first_copy == SIZE_MAX)
                first_copy = k;
        }
    }
    for (size_t k = 0; k < na; k++) {
        for (long r = 0; r < n; r++)
            v[r] = runs[r].allocs[k].hash;
        if (distinct_u64(v, (size_t)n) > 1) {
            alloc_diffs++;
            if (first_alloc == SIZE_MAX)
                first_alloc = k;
        }
    }
    for (long r = 0; r < n; r++)
        v[r] = runs[r].stdout_hash;
    size_t stdout_distinct = distinct_u64(v, (size_t)n);
    for (long r = 0; r < n; r++)
        v[r] = (uint64_t)runs[r].exit_status;
    size_t exit_distinct = distinct_u64(v, (size_t)n);
    int ended_all = 1;
    for (long r = 0; r < n; r++)
        ended_all &= runs[r].ended;
    /* the whole program: every launch, copy, allocation and the output */
    for (long r = 0; r < n; r++) {
        uint64_t h = HASH_INIT;
        for (size_t k = 0; k < runs[r].nlaunches; k++)
            h = hash_mix(h, runs[r].launches[k].hash);
        for (size_t k = 0; k < runs[r].ncopies; k++)
            h = hash_mix(h, runs[r].copies[k]);
        for (size_t k = 0; k < runs[r].nallocs; k++)
            h = hash_mix(h, runs[r].allocs[k].hash);
        v[r] = hash_final(hash_mix(hash_mix(h, runs[r].stdout_hash), (uint64_t)runs[r].exit_status),
                          runs[r].nlaunches);
    }
    size_t program_distinct = distinct_u64(v, (size_t)n);
    int deterministic = program_distinct == 1 && same_shape;

    /* where allocation first_alloc first differs from run 1 */
    long other = -1;
    long long off = -1, elem = -1;
    double maxdiff = -1;
    if (first_alloc != SIZE_MAX) {
        for (long r = 1; r < n && other < 0; r++)
            if (runs[r].allocs[first_alloc].hash != r0->allocs[first_alloc].hash)
                other = r;
        const alloc_rec *x = &r0->allocs[first_alloc], *y = &runs[other].allocs[first_alloc];
        if (x->size == y->size)
            off = first_diff(r0, x->off, &runs[other], y->off, x->size, &maxdiff, &elem);
    }
    /* the first differing copy: where, and by how much as float32 */
    long copy_other = -1;
    long long copy_at = -1, copy_elem = -1;
    double copy_max = -1;
    if (first_copy != SIZE_MAX) {
        for (long r = 1; r < n && copy_other < 0; r++)
            if (runs[r].copies[first_copy] != r0->copies[first_copy])
                copy_other = r;
        if (runs[copy_other].copy_bytes[first_copy] == r0->copy_bytes[first_copy])
            copy_at = first_diff(r0, r0->copy_off[first_copy], &runs[copy_other],
                                 runs[copy_other].copy_off[first_copy], r0->copy_bytes[first_copy],
                                 &copy_max, &copy_elem);
    }
    /* after the first differing launch: the first allocation that differs */
    long launch_other = -1;
    const alloc_rec *launch_alloc = NULL;
    size_t launch_alloc_index = 0;
    if (first_launch != SIZE_MAX) {
        for (long r = 1; r < n && launch_other < 0; r++)
            if (runs[r].launches[first_launch].hash != r0->launches[first_launch].hash)
                launch_other = r;
        const launch_rec *l0 = &r0->launches[first_launch];
        const launch_rec *l1 = &runs[launch_other].launches[first_launch];
        for (size_t j = 0; j < l0->la_n && j < l1->la_n && !launch_alloc; j++)
            if (r0->la[l0->la_first + j].hash != runs[launch_other].la[l1->la_first + j].hash) {
                launch_alloc = &r0->la[l0->la_first + j];
                launch_alloc_index = j;
            }
    }
    /* per launch: distinct memory hashes and cycle counts */
    if (json) {
        printf("{\"program\": ");
        json_str(stdout, argv[i]);
        printf(", \"runs\": %ld, \"seeds\": [%" PRIu64 ", %" PRIu64 "], \"deterministic\": %s,\n",
               n, r0->seed, runs[n - 1].seed, deterministic ? "true" : "false");
        printf(" \"distinct_program_hashes\": %zu, \"distinct_stdout\": %zu, "
               "\"distinct_exit_status\": %zu, \"same_shape\": %s, \"all_ended\": %s,\n",
               program_distinct, stdout_distinct, exit_distinct, same_shape ? "true" : "false",
               ended_all ? "true" : "false");
        printf(" \"launches\": [");
        for (size_t k = 0; k < nl; k++) {
            for (long r = 0; r < n; r++)
                v[r] = runs[r].launches[k].hash;
            size_t dh = distinct_u64(v, (size_t)n);
            for (long r = 0; r < n; r++)
                v[r] = runs[r].launches[k].cycles;
            size_t dc = distinct_u64(v, (size_t)n);
            printf("%s\n  {\"index\": %zu, \"kernel\": ", k ? "," : "", k);
            json_str(stdout, r0->launches[k].name);
            printf(", \"distinct_hashes\": %zu, \"distinct_cycles\": %zu}", dh, dc);
        }
        printf("],\n \"copies\": %zu, \"differing_copies\": %zu, \"first_differing_copy\": ", nc,
               copy_diffs);
        if (first_copy == SIZE_MAX)
            printf("null");
        else {
            printf("{\"index\": %zu, \"bytes\": %" PRIu64 ", \"first_byte\": %lld, \"runs\": "
                   "[1, %ld]", first_copy, r0->copy_bytes[first_copy], copy_at, copy_other + 1);
            if (copy_max >= 0)
                printf(", \"max_float32_difference\": %g, \"at_element\": %lld", copy_max,
                       copy_elem);
            printf("}");
        }
        printf(",\n \"first_differing_launch\": ");
        if (first_launch == SIZE_MAX)
            printf("null");
        else {
            printf("{\"index\": %zu, \"kernel\": ", first_launch);
            json_str(stdout, r0->launches[first_launch].name);
            if (launch_alloc)
                printf(", \"first_differing_allocation\": {\"index\": %zu, \"base\": \"0x%" PRIx64
                       "\", \"bytes\": %" PRIu64 "}, \"runs\": [1, %ld]",
                       launch_alloc_index, launch_alloc->base, launch_alloc->size, launch_other + 1);
            printf("}");
        }
        printf(",\n \"allocations\": %zu, \"differing_allocations\": %zu, \"first_differing_allocation\": ",
               na, alloc_diffs);
        if (first_alloc == SIZE_MAX)
            printf("null");
        else {
            printf("{\"index\": %zu, \"base\": \"0x%" PRIx64 "\", \"bytes\": %" PRIu64
                   ", \"first_byte\": %lld, \"runs\": [1, %ld]",
                   first_alloc, r0->allocs[first_alloc].base, r0->allocs[first_alloc].size, off,
                   other + 1);
            if (maxdiff >= 0)
                printf(", \"max_float32_difference\": %g, \"at_element\": %lld", maxdiff, elem);
            printf("}");
        }
        printf("}\n");
    } else {
        printf("lockstep detcheck: %ld runs of %s, seeds %" PRIu64 "..%" PRIu64 "\n", n, argv[i],
               r0->seed, runs[n - 1].seed);
        if (!same_shape)
            printf("  the runs differ in shape: launches, copies or allocations in different "
                   "numbers (run 1: %zu, %zu, %zu)\n",
                   r0->nlaunches, r0->ncopies, r0->nallocs);
        if (!ended_all)
            printf("  some runs did not reach the program's end (a crash or an abort): their "
                   "records stop early\n");
        printf("  launches: %zu; %zu with differing device memory after them, %zu with "
               "differing cycle counts\n", nl, launch_diffs, cycle_diffs);
        size_t shown = 0;
        for (size_t k = 0; k < nl && shown < 12; k++) {
            for (long r = 0; r < n; r++)
                v[r] = runs[r].launches[k].hash;
            size_t dh = distinct_u64(v, (size_t)n);
            for (long r = 0; r < n; r++)
                v[r] = runs[r].launches[k].cycles;
            size_t dc = distinct_u64(v, (size_t)n);
            if (nl <= 12 || dh > 1) {
                printf("    launch %zu '%s': %zu distinct memory hash%s, %zu distinct cycle "
                       "count%s\n", k, r0->launches[k].name, dh, dh == 1 ? "" : "es", dc,
                       dc == 1 ? "" : "s");
                shown++;
            }
        }
        if (launch_alloc)
            printf("    after launch %zu, the first allocation to differ is allocation %zu "
                   "(0x%" PRIx64 ", %" PRIu64 " bytes; runs 1 and %ld)\n", first_launch,
                   launch_alloc_index, launch_alloc->base, launch_alloc->size, launch_other + 1);
        printf("  device-to-host copies: %zu; %zu differ", nc, copy_diffs);
        if (first_copy != SIZE_MAX) {
            printf(" (first: copy %zu, %" PRIu64 " bytes", first_copy, r0->copy_bytes[first_copy]);
            if (copy_at >= 0)
                printf("; runs 1 and %ld first differ at byte %lld", copy_other + 1, copy_at);
            if (copy_max >= 0)
                printf("; as float32 the largest difference is %g (element %lld)", copy_max,
                       copy_elem);
            printf(")");
        }
        printf("\n  standard output: %zu distinct; exit status: %zu distinct\n", stdout_distinct,
               exit_distinct);
        printf("  allocations at exit: %zu; %zu differ\n", na, alloc_diffs);
        if (first_alloc != SIZE_MAX) {
            printf("    first: allocation %zu (0x%" PRIx64 ", %" PRIu64 " bytes)", first_alloc,
                   r0->allocs[first_alloc].base, r0->allocs[first_alloc].size);
            if (off >= 0)
                printf(", runs 1 and %ld first differ at byte %lld", other + 1, off);
            else
                printf(", runs 1 and %ld differ (bytes past the record's cap: no offset)",
                       other + 1);
            if (maxdiff >= 0)
                printf("; as float32 the largest difference is %g (element %lld)", maxdiff, elem);
            printf("\n");
        }
        if (deterministic)
            printf("deterministic: one result over %ld seeds\n", n);
        else if (first_launch != SIZE_MAX)
            printf("NOT deterministic: %zu distinct results; the first difference is after "
                   "launch %zu '%s'\n", program_distinct, first_launch,
                   r0->launches[first_launch].name);
        else
            printf("NOT deterministic: %zu distinct results\n", program_distinct);
    }
    free(v);
    rc = deterministic ? 0 : 1;
done:
    if (runs) {
        for (long r = 0; r < n; r++) {
            if (!keep)
                remove_run_files(&runs[r]);
            runrec_free(&runs[r]);
        }
    }
    if (!keep)
        rmdir(dir);
    free(runs);
    free(rargv);
    return rc;
}
