/*
 * cmd_inject.c -- `lockstep inject`: fault-injection campaigns on a CUDA
 * program (docs/RELIABILITY.md, "Fault-injection campaigns").
 *
 * A golden run (fault site `none`) gives the program's output hash and its
 * cycles (warp instructions in functional mode); then N faulty runs, job i
 * injecting the fault inj_fault_for(seed, i), run in parallel processes
 * through the campaign runner (src/campaign: pool, store, statistics).
 * Each run is classified against the golden run (inject_job.c) and stored
 * in the SQLite file the moment it ends; --resume runs the indices that
 * have no row.  `lockstep inject report` prints the tables and writes plot
 * data and gnuplot scripts.
 *
 * The command that runs each run is this lockstep itself (`lockstep run`),
 * or the program named by LOCKSTEP_INJECT_RUNNER, which gets the same
 * argument list (argv[1] = "run") and environment: the tests use a fake
 * runner that writes canned reports and records.
 *
 * Exit status: 0 done, 1 the campaign could not finish (a run could not be
 * started or stored), 2 bad usage or a golden run that failed.
 */
#define _GNU_SOURCE /* mkdtemp */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "campaign/pool.h"
#include "campaign/stats.h"
#include "campaign/store.h"
#include "cli/cli.h"
#include "cli/inject_job.h"
#include "cli/runrec.h"
#include "util/strbuf.h"

#define MAX_RUNS 10000000

static void usage(FILE *f)
{
    fprintf(f,
            "usage: lockstep inject [options] [run options] -- PROGRAM [ARGS...]\n"
            "       lockstep inject report [--db FILE] [--plots DIR] [--margin M]\n"
            "       lockstep inject --margin M\n"
            "\n"
            "Runs a fault-injection campaign: a golden run, then N runs with one fault\n"
            "each, classified as masked, sdc (silent data corruption), due (detected\n"
            "unrecoverable error: a kernel fault, an error exit, a crash), hang (past K x\n"
            "the golden run's cycles) or perf (same output, other cycles); with redundant\n"
            "execution on (--redundancy dmr) also corrected (the same output after it\n"
            "repaired a mismatch) or detected (a mismatch it could not correct).  Results\n"
            "go to an SQLite file, one row per run as it ends, so a killed campaign resumes.\n"
            "The golden run also runs the ACE lifetime analysis (-lockstep_ace 1): the\n"
            "report prints its AVF per structure next to the matching sites' failures.\n"
            "\n"
            "options:\n"
            "  --runs N            faulty runs (default 100)\n"
            "  --site SITES        all (default; job i takes site i mod the number of sites)\n"
            "                      or a comma-separated list of: reg_live reg_any pred\n"
            "                      insn_out alu shared local dram simt l1d l2d l1tag l2tag\n"
            "                      ibuf dmr_log (only with --redundancy dmr; all takes it\n"
            "                      then)\n"
            "  --model MODELS      bit1 (default), bit2, random, zero, a list, or all\n"
            "  --seed S            the campaign's seed (default 1)\n"
            "  --db FILE           results file (default lockstep-inject.db)\n"
            "  --timeout-factor K  a run past K x the golden run's cycles is a hang (default 10)\n"
            "  --jobs J            runs at a time (default: one per CPU)\n"
            "  --resume            continue the campaign in --db: run the jobs it lacks\n"
            "  --margin M          print the runs needed for a margin of error M (5%%, 0.05)\n"
            "                      at 95%% confidence, worst case, and exit\n"
            "run options (passed to each `lockstep run`): --config FILE, -O \"-NAME VALUE\",\n"
            "  --functional, --timing, --det MODE, --redundancy MODE, --nondet-seed S,\n"
            "  --threads N (default 1 here), --timeout S, --cudart-dir DIR\n"
            "report options:\n"
            "  --plots DIR         write plot data and gnuplot scripts to DIR (and SVGs when\n"
            "                      gnuplot is on the PATH)\n"
            "Exit status: 0 done, 1 the campaign could not finish, 2 bad usage.\n");
}

/* ---- small helpers ----------------------------------------------------------------------- */

static int parse_u64(const char *opt, const char *v, uint64_t lo, uint64_t hi, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long x = strtoull(v, &end, 10);
    if (errno || end == v || *end || v[0] == '-' || v[0] == '+' || x < lo || x > hi) {
        fprintf(stderr, "lockstep inject: %s '%s': give a whole number from %" PRIu64
                        " to %" PRIu64 "\n", opt, v, lo, hi);
        return -1;
    }
    *out = x;
    return 0;
}

/* --db's value: a file's name (the campaign's SQLite database), not empty
 * and not a directory.  0 if it may be used. */
static int check_db(const char *cmd, const char *db)
{
    struct stat st;
    if (!*db) {
        fprintf(stderr, "lockstep %s: --db needs a file name (the campaign's SQLite database)\n", cmd);
        return -1;
    }
    if (!stat(db, &st) && S_ISDIR(st.st_mode)) {
        fprintf(stderr, "lockstep %s: --db %s is a directory; give a file (e.g. %s/inject.db)\n", cmd,
                db, db);
        return -1;
    }
    return 0;
}

/* "5%", "5" (percent) or "0.05" (a fraction): the fraction in (0, 1). */
static int parse_margin(const char *v, double *out)
{
    char *end;
    errno = 0;
    size_t plain = strspn(v, "0123456789."); /* decimal only: no 0x, inf, nan, exponents */
    double x = strtod(v, &end);
    int pct = *end == '%';
    if (errno || end == v || end != v + plain || (pct ? end[1] != 0 : *end != 0) || !(x > 0)) {
        fprintf(stderr, "lockstep inject: --margin '%s': give a margin such as 5%%, 3 or 0.05\n",
                v);
        return -1;
    }
    if (pct || x >= 1)
        x /= 100;
    if (!(x > 0 && x < 1)) {
        fprintf(stderr, "lockstep inject: --margin '%s': a margin must be below 100%%\n", v);
        return -1;
    }
    if (x < 1e-6) {
        fprintf(stderr, "lockstep inject: --margin '%s': a margin must be at least 0.0001%% "
                        "(a smaller one needs more than 10^11 runs)\n", v);
        return -1;
    }
    *out = x;
    return 0;
}

static void print_margin(double m)
{
    uint64_t n = stats_runs_for_margin(m, 0.5, STATS_Z95);
    printf("a margin of error of %g%% at 95%% confidence (worst case, p = 0.5) needs %" PRIu64
           " runs per site and model\n", m * 100, n);
}

/* The command line as one string, quoted where a shell would need it. */
static void command_line(strbuf *sb, int argc, char **argv)
{
    sb_puts(sb, "lockstep");
    for (int k = 0; k < argc; k++) {
        const char *a = argv[k];
        sb_putc(sb, ' ');
        if (*a && strspn(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
                            "-_./=:,%+@") == strlen(a)) {
            sb_puts(sb, a);
            continue;
        }
        sb_putc(sb, '\'');
        for (; *a; a++) {
            if (*a == '\'')
                sb_puts(sb, "'\\''");
            else
                sb_putc(sb, *a);
        }
        sb_putc(sb, '\'');
    }
}

/* Is `name` an executable on the PATH? */
static int on_path(const char *name)
{
    const char *path = getenv("PATH");
    if (!path)
        return 0;
    while (*path) {
        size_t len = strcspn(path, ":");
        char p[PATH_MAX];
        snprintf(p, sizeof p, "%.*s/%s", (int)len, path, name);
        if (len && access(p, X_OK) == 0)
            return 1;
        path += len + (path[len] == ':');
    }
    return 0;
}

/* ---- the report -------------------------------------------------------------------------- */

typedef struct group {
    char site[32], model[32];
    int64_t n[INJ_NOUTCOMES], runs, not_landed;
} group;

/* The width of an outcome's column in the table of counts. */
static int col_width(int o)
{
    int n = (int)strlen(inj_outcome_name((inj_outcome)o));
    return n > 7 ? n : 7;
}

/* Print the tables of the campaign in s; with plots, write plot data and
 * scripts there.  0, or -1 said. */
static int print_report(store *s, const char *plots)
{
    store_campaign c;
    int have = store_get_campaign(s, &c);
    if (have < 0) {
        fprintf(stderr, "lockstep inject: %s\n", store_errmsg(s));
        return -1;
    }
    if (!have) {
        fprintf(stderr, "lockstep inject: the results file holds no campaign\n");
        return -1;
    }
    int functional = c.config && strstr(c.config, "\"mode\":\"functional\"") != NULL;
    int64_t total = functional ? c.base_insts : c.base_cycles;
    printf("campaign: %s\n", c.command);
    printf("golden run: %" PRId64 " cycles, %" PRId64 " warp instructions, output hash %s\n",
           c.base_cycles == STORE_NULL ? 0 : c.base_cycles,
           c.base_insts == STORE_NULL ? 0 : c.base_insts, c.base_hash ? c.base_hash : "?");
    /* the golden run's report line names the redundancy when it was on */
    inj_report grep;
    int redundancy = 0;
    if (c.base_detail && !inj_report_parse(c.base_detail, &grep)) {
        if (grep.redundancy[0]) {
            redundancy = 1;
            printf("redundant execution: %s\n", grep.redundancy);
        }
        inj_report_free(&grep);
    }

    sqlite3 *db = store_db(s);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db,
                           "SELECT json_extract(params, '$.site'), json_extract(params, '$.model'),"
                           " outcome_code, count(*),"
                           " sum(coalesce(json_extract(detail, '$.landed') = 0, 0))"
                           " FROM run GROUP BY 1, 2, 3",
                           -1, &st, NULL) != SQLITE_OK) {
        fprintf(stderr, "lockstep inject: reading the runs: %s\n", sqlite3_errmsg(db));
        return -1;
    }
    group *g = NULL;
    size_t ng = 0;
    int64_t done = 0;
    int rc = 0;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *site = (const char *)sqlite3_column_text(st, 0);
        const char *model = (const char *)sqlite3_column_text(st, 1);
        int oc = sqlite3_column_int(st, 2);
        int64_t cnt = sqlite3_column_int64(st, 3);
        site = site ? site : "?";
        model = model ? model : "?";
        size_t k = 0;
        while (k < ng && (strcmp(g[k].site, site) || strcmp(g[k].model, model)))
            k++;
        if (k == ng) {
            group *ng2 = realloc(g, (ng + 1) * sizeof *g);
            if (!ng2) {
                rc = -1;
                break;
            }
            g = ng2;
            memset(&g[ng], 0, sizeof *g);
            snprintf(g[ng].site, sizeof g[ng].site, "%s", site);
            snprintf(g[ng].model, sizeof g[ng].model, "%s", model);
            ng++;
        }
        if (oc >= 0 && oc < INJ_NOUTCOMES)
            g[k].n[oc] += cnt;
        g[k].runs += cnt;
        g[k].not_landed += sqlite3_column_int64(st, 4);
        done += cnt;
    }
    sqlite3_finalize(st);
    if (rc) {
        free(g);
        fprintf(stderr, "lockstep inject: out of memory\n");
        return -1;
    }
    /* sites in the injector's order, then models in theirs */
    for (size_t a = 1; a < ng; a++)
        for (size_t b = a; b > 0; b--) {
            int sa = 99, sb = 99, ma = 99, mb = 99;
            for (int k = 0; inj_sites[k]; k++) {
                sa = strcmp(inj_sites[k], g[b - 1].site) ? sa : k;
                sb = strcmp(inj_sites[k], g[b].site) ? sb : k;
            }
            for (int k = 0; inj_models[k]; k++) {
                ma = strcmp(inj_models[k], g[b - 1].model) ? ma : k;
                mb = strcmp(inj_models[k], g[b].model) ? mb : k;
            }
            if (sa < sb || (sa == sb && ma <= mb))
                break;
            group t = g[b];
            g[b] = g[b - 1];
            g[b - 1] = t;
        }
    printf("runs: %" PRId64 " of %" PRId64 " done\n", done, c.runs);
    group all;
    memset(&all, 0, sizeof all);
    snprintf(all.site, sizeof all.site, "all");
    snprintf(all.model, sizeof all.model, "all");
    int64_t smallest = INT64_MAX;
    for (size_t k = 0; k < ng; k++) {
        for (int o = 0; o < INJ_NOUTCOMES; o++)
            all.n[o] += g[k].n[o];
        all.runs += g[k].runs;
        all.not_landed += g[k].not_landed;
        smallest = g[k].runs < smallest ? g[k].runs : smallest;
    }
    /* the columns: the five outcomes every campaign has; corrected and
     * detected when the campaign ran with redundant execution (its golden
     * run's report says so) or has such runs; error only when there are */
    int cols[INJ_NOUTCOMES], nout = 0;
    for (int k = 0; k < INJ_NOUTCOMES; k++) {
        inj_outcome o = inj_outcome_order[k];
        if ((o == INJ_CORRECTED || o == INJ_DETECTED) && !redundancy && !all.n[o])
            continue;
        if (o == INJ_ERROR && !all.n[o])
            continue;
        cols[nout++] = (int)o;
    }
    size_t rows = ng > 1 ? ng + 1 : ng; /* the total, when it adds anything */
    printf("\noutcomes (counts)\n%-9s %-7s %7s", "site", "model", "runs");
    for (int k = 0; k < nout; k++)
        printf(" %*s", col_width(cols[k]), inj_outcome_name(cols[k]));
    printf(" %7s\n", "unlanded");
    for (size_t k = 0; k < rows; k++) {
        const group *x = k < ng ? &g[k] : &all;
        printf("%-9s %-7s %7" PRId64, x->site, x->model, x->runs);
        for (int j = 0; j < nout; j++)
            printf(" %*" PRId64, col_width(cols[j]), x->n[cols[j]]);
        printf(" %7" PRId64 "\n", x->not_landed);
    }
    printf("\noutcomes (%% of runs, with 95%% Wilson intervals)\n%-9s %-7s", "site", "model");
    for (int k = 0; k < nout; k++)
        printf(k + 1 < nout ? " %-18s" : " %s", inj_outcome_name(cols[k]));
    printf("\n");
    for (size_t k = 0; k < rows; k++) {
        const group *x = k < ng ? &g[k] : &all;
        printf("%-9s %-7s", x->site, x->model);
        for (int j = 0; j < nout; j++) {
            int o = cols[j];
            double lo, hi;
            stats_wilson((uint64_t)x->n[o], (uint64_t)x->runs, STATS_Z95, &lo, &hi);
            printf(" %5.1f [%4.1f,%5.1f]",
                   x->runs ? 100.0 * (double)x->n[o] / (double)x->runs : 0.0, 100 * lo, 100 * hi);
        }
        printf("\n");
    }
    if (all.not_landed)
        printf("\nunlanded: faults the injector found no target for; they count in their "
               "outcome (masked, mostly)\n");
    if (redundancy || all.n[INJ_CORRECTED] || all.n[INJ_DETECTED])
        printf("\ncorrected: the golden run's output after redundant execution found and "
               "repaired a mismatch; detected: it found one it could not correct\n");
    if (ng && smallest > 0)
        printf("\nmargin of error at 95%% confidence, worst case: +-%.1f%% with %" PRId64
               " runs per site and model (+-5%% needs %" PRIu64 ", +-3%% needs %" PRIu64 ")\n",
               100 * stats_margin_for_runs((uint64_t)smallest, 0.5, STATS_Z95), smallest,
               stats_runs_for_margin(0.05, 0.5, STATS_Z95),
               stats_runs_for_margin(0.03, 0.5, STATS_Z95));

    /* the golden run's ACE estimate next to the matching sites' failures */
    inj_ace ace;
    if (!inj_ace_parse(c.base_detail, &ace)) {
        printf("\nACE estimate of the golden run against injection (docs/RELIABILITY.md, "
               "\"ACE lifetime analysis\"; time in %s)\n%-9s %-9s %14s %15s  %s\n",
               ace.functional ? "warp instructions" : "cycles", "site", "structure",
               "avf_allocated", "avf_configured",
               redundancy ? "injected sdc+due+detected+hang (%, 95% Wilson)"
                          : "injected sdc+due+hang (%, 95% Wilson)");
        for (int k = 0; k < INJ_ACE_N; k++) {
            printf("%-9s %-9s", inj_ace_sites[k], inj_ace_structs[k]);
            if (ace.has[k] && ace.avf_alloc[k] >= 0)
                printf(" %13.1f%%", 100 * ace.avf_alloc[k]);
            else
                printf(" %14s", "-");
            if (ace.has[k] && ace.avf_cfg[k] >= 0)
                printf(" %14.1f%%", 100 * ace.avf_cfg[k]);
            else
                printf(" %15s", "-");
            int64_t runs = 0, failed = 0;
            for (size_t j = 0; j < ng; j++)
                if (!strcmp(g[j].site, inj_ace_sites[k])) {
                    runs += g[j].runs;
                    failed += g[j].n[INJ_SDC] + g[j].n[INJ_DUE] + g[j].n[INJ_DETECTED] +
                              g[j].n[INJ_HANG];
                }
            if (runs) {
                double lo, hi;
                stats_wilson((uint64_t)failed, (uint64_t)runs, STATS_Z95, &lo, &hi);
                printf("  %5.1f [%4.1f,%5.1f] of %" PRId64 " runs\n",
                       100.0 * (double)failed / (double)runs, 100 * lo, 100 * hi, runs);
            } else {
                printf("  - (no %s runs)\n", inj_ace_sites[k]);
            }
        }
    }

    if (!plots) {
        free(g);
        return 0;
    }
    /* plot data: outcome shares per site (models together) ... */
    if (mkdir(plots, 0777) && errno != EEXIST) {
        fprintf(stderr, "lockstep inject: --plots %s: %s\n", plots, strerror(errno));
        free(g);
        return -1;
    }
    char path[PATH_MAX];
    FILE *f;
    snprintf(path, sizeof path, "%s/outcomes.dat", plots);
    if (!(f = fopen(path, "w")))
        goto cannot;
    fprintf(f, "# outcome shares (%%) per fault site, all models\n# site");
    for (int o = 0; o < INJ_NOUTCOMES; o++)
        fprintf(f, " %s", inj_outcome_name(o));
    fprintf(f, " runs\n");
    for (size_t k = 0; k < ng; k++) {
        if (k && !strcmp(g[k].site, g[k - 1].site))
            continue;
        int64_t n[INJ_NOUTCOMES] = {0}, runs = 0;
        for (size_t j = k; j < ng && !strcmp(g[j].site, g[k].site); j++) {
            for (int o = 0; o < INJ_NOUTCOMES; o++)
                n[o] += g[j].n[o];
            runs += g[j].runs;
        }
        fprintf(f, "%s", g[k].site);
        for (int o = 0; o < INJ_NOUTCOMES; o++)
            fprintf(f, " %.3f", runs ? 100.0 * (double)n[o] / (double)runs : 0.0);
        fprintf(f, " %" PRId64 "\n", runs);
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/outcomes.gp", plots);
    if (!(f = fopen(path, "w")))
        goto cannot;
    fprintf(f, "# gnuplot outcomes.gp (in this folder) -> outcomes.svg\n"
               "set terminal svg size 900,500\nset output 'outcomes.svg'\n"
               "set title 'outcomes per fault site'\nset style data histograms\n"
               "set style histogram rowstacked\nset style fill solid 0.8 border -1\n"
               "set boxwidth 0.75\nset key outside right\nset ylabel 'share of runs (%%)'\n"
               "set yrange [0:100]\nset xtics rotate by -45\n"
               "plot 'outcomes.dat' using 2:xtic(1) title 'masked'");
    for (int o = 1; o < INJ_NOUTCOMES; o++)
        fprintf(f, ", '' using %d title '%s'", o + 2, inj_outcome_name(o));
    fprintf(f, "\n");
    fclose(f);
    /* ... and the SDC rate against the fault's cycle, in 20 bins */
    enum { NBINS = 20 };
    int64_t bin_runs[NBINS] = {0}, bin_sdc[NBINS] = {0};
    if (sqlite3_prepare_v2(db,
                           "SELECT coalesce(json_extract(detail, '$.cycle'),"
                           " json_extract(params, '$.at')), outcome_code FROM run",
                           -1, &st, NULL) == SQLITE_OK) {
        while (sqlite3_step(st) == SQLITE_ROW) {
            int64_t at = sqlite3_column_int64(st, 0);
            int64_t span = total > 0 ? total : 1;
            int64_t b = at < 0 ? 0 : at >= span ? NBINS - 1 : at * NBINS / span;
            bin_runs[b]++;
            bin_sdc[b] += sqlite3_column_int(st, 1) == INJ_SDC;
        }
        sqlite3_finalize(st);
    }
    snprintf(path, sizeof path, "%s/sdc_by_cycle.dat", plots);
    if (!(f = fopen(path, "w")))
        goto cannot;
    fprintf(f, "# SDC rate against the fault's %s (the injector's, or the drawn point)\n"
               "# from to runs sdc rate%% lo%% hi%% (Wilson 95%%)\n",
            functional ? "warp instruction" : "cycle");
    for (int b = 0; b < NBINS; b++) {
        double lo, hi;
        stats_wilson((uint64_t)bin_sdc[b], (uint64_t)bin_runs[b], STATS_Z95, &lo, &hi);
        int64_t span = total > 0 ? total : 1;
        fprintf(f, "%" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %.3f %.3f %.3f\n",
                span * b / NBINS, span * (b + 1) / NBINS, bin_runs[b], bin_sdc[b],
                bin_runs[b] ? 100.0 * (double)bin_sdc[b] / (double)bin_runs[b] : 0.0, 100 * lo,
                100 * hi);
    }
    fclose(f);
    snprintf(path, sizeof path, "%s/sdc_by_cycle.gp", plots);
    if (!(f = fopen(path, "w")))
        goto cannot;
    fprintf(f, "# gnuplot sdc_by_cycle.gp (in this folder) -> sdc_by_cycle.svg\n"
               "set terminal svg size 900,500\nset output 'sdc_by_cycle.svg'\n"
               "set title 'SDC rate against the fault''s %s (95%% Wilson intervals)'\n"
               "set xlabel 'fault %s'\nset ylabel 'SDC rate (%%)'\nset yrange [0:100]\n"
               "set style fill solid 0.5 border -1\nset key off\n"
               "plot 'sdc_by_cycle.dat' using (($1+$2)/2):5:($2-$1) with boxes, \\\n"
               "     '' using (($1+$2)/2):5:6:7 with yerrorbars pt 7 ps 0.5\n",
            functional ? "warp instruction" : "cycle", functional ? "warp instruction" : "cycle");
    fclose(f);
    free(g);
    if (!on_path("gnuplot")) {
        printf("\nplot data and gnuplot scripts in %s/ (gnuplot is not on the PATH: run "
               "`gnuplot outcomes.gp sdc_by_cycle.gp` there to draw outcomes.svg and "
               "sdc_by_cycle.svg)\n", plots);
        return 0;
    }
    fflush(NULL);
    pid_t p = fork();
    if (p == 0) {
        if (chdir(plots))
            _exit(126);
        execlp("gnuplot", "gnuplot", "outcomes.gp", "sdc_by_cycle.gp", (char *)NULL);
        _exit(127);
    }
    int ws = 0;
    if (p < 0 || waitpid(p, &ws, 0) < 0 || !WIFEXITED(ws) || WEXITSTATUS(ws)) {
        fprintf(stderr, "lockstep inject: gnuplot failed; the data and scripts are in %s/\n",
                plots);
        return -1;
    }
    printf("\nplots: %s/outcomes.svg, %s/sdc_by_cycle.svg (gnuplot)\n", plots, plots);
    return 0;
cannot:
    fprintf(stderr, "lockstep inject: cannot write %s: %s\n", path, strerror(errno));
    free(g);
    return -1;
}

static int cmd_report(int argc, char **argv)
{
    const char *db = "lockstep-inject.db", *plots = NULL;
    double margin = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            return 0;
        }
        if (!strcmp(a, "--db") || !strcmp(a, "--plots") || !strcmp(a, "--margin")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "lockstep inject report: %s needs a value\n", a);
                return 2;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--db")) {
                if (check_db("inject report", v))
                    return 2;
                db = v;
            } else if (!strcmp(a, "--plots"))
                plots = v;
            else if (parse_margin(v, &margin))
                return 2;
            continue;
        }
        fprintf(stderr, "lockstep inject report: unknown argument '%s' (see lockstep inject "
                        "--help)\n", a);
        return 2;
    }
    store *s;
    char err[600];
    if (store_open(db, 0, &s, err, sizeof err)) {
        fprintf(stderr, "lockstep inject report: cannot read the results file %s\n", err);
        return 2;
    }
    int rc = print_report(s, plots) ? 2 : 0;
    store_close(s);
    if (!rc && margin > 0) {
        printf("\n");
        print_margin(margin);
    }
    return rc;
}

/* ---- the campaign ------------------------------------------------------------------------ */

typedef struct ictx {
    const char *runner;
    char dir[PATH_MAX - 64];
    char **run_opts, **prog;
    int nrun_opts, nprog;
    inj_space space;
    uint64_t bound;
    inj_golden golden;
    int64_t *pending; /* job indices to run; NULL: the golden run */
    size_t npending, finished;
    store *st;
    int64_t counts[INJ_NOUTCOMES];
    int tty, store_failed, warned_error;
    /* the golden run's */
    run_rec grec;
    int ghave;
    inj_report grep;
} ictx;

static void paths(const ictx *c, int64_t idx, char *rec, char *out, char *err, char *rep)
{
    /* idx -1: the golden run */
    snprintf(rec, PATH_MAX, "%s/r%" PRId64 ".rec", c->dir, idx);
    snprintf(out, PATH_MAX, "%s/r%" PRId64 ".out", c->dir, idx);
    snprintf(err, PATH_MAX, "%s/r%" PRId64 ".err", c->dir, idx);
    snprintf(rep, PATH_MAX, "%s/r%" PRId64 ".json", c->dir, idx);
}

static void remove_files(const char *rec, const char *out, const char *err, const char *rep)
{
    char mem[PATH_MAX + 8];
    snprintf(mem, sizeof mem, "%s.mem", rec);
    unlink(rec);
    unlink(mem);
    unlink(out);
    unlink(err);
    unlink(rep);
}

/* In the child: start job i (or the golden run). */
static int run_child(void *vctx, size_t i)
{
    ictx *c = vctx;
    int64_t idx = c->pending ? c->pending[i] : -1;
    char rec[PATH_MAX], out[PATH_MAX], err[PATH_MAX], rep[PATH_MAX];
    paths(c, idx, rec, out, err, rep);
    inj_fault f;
    if (idx >= 0)
        f = inj_fault_for(&c->space, (uint64_t)idx);
    int max = c->nrun_opts + c->nprog + 32;
    char **argv = calloc((size_t)max, sizeof *argv);
    char **owned;
    int nowned;
    if (!argv || inj_build_argv(argv, max, c->run_opts, c->nrun_opts, idx >= 0 ? &f : NULL,
                                idx >= 0 ? c->bound : 0, c->golden.functional, c->prog, c->nprog,
                                &owned, &nowned) < 0)
        return 125;
    const char *env[] = {INJ_ENV_REPORT, rep, INJ_ENV_RECORD, rec,
                         "LOCKSTEP_DET_RECORD_CAP", "0", NULL};
    return runrec_exec(c->runner, argv, out, err, env);
}

/* The first line of a file, for messages. */
static void first_line(const char *path, char *buf, size_t n)
{
    buf[0] = 0;
    FILE *f = fopen(path, "r");
    if (!f)
        return;
    if (!fgets(buf, (int)n, f))
        buf[0] = 0;
    buf[strcspn(buf, "\n")] = 0;
    fclose(f);
}

/* Set by SIGINT, SIGTERM or SIGHUP: the runs still going may have been
 * killed by the same signal (a terminal's ^C reaches the whole process
 * group), so no result that arrives after it is stored. */
static volatile sig_atomic_t interrupted;

static void on_signal(int sig)
{
    interrupted = sig;
}

/* In the parent: job i has ended with exit code `code`. */
static int run_finished(void *vctx, size_t i, int code)
{
    ictx *c = vctx;
    int64_t idx = c->pending ? c->pending[i] : -1;
    char rec[PATH_MAX], out[PATH_MAX], err[PATH_MAX], rep[PATH_MAX];
    paths(c, idx, rec, out, err, rep);
    if (interrupted) {
        remove_files(rec, out, err, rep);
        return 1;
    }
    run_rec r;
    memset(&r, 0, sizeof r);
    snprintf(r.rec_path, sizeof r.rec_path, "%s", rec);
    r.exit_status = code;
    int have = runrec_read(&r) == 0;
    r.stdout_hash = runrec_hash_file(out);
    inj_report report;
    inj_report_read(rep, &report);
    if (idx < 0) { /* the golden run: kept for cmd_inject to check */
        c->grec = r;
        c->ghave = have;
        c->grep = report;
        return 0;
    }
    inj_run facts;
    inj_run_facts(&r, have, &report, &facts);
    inj_outcome o = inj_classify(&c->golden, &facts, c->bound);
    inj_fault f = inj_fault_for(&c->space, (uint64_t)idx);
    strbuf params = STRBUF_INIT, detail = STRBUF_INIT;
    sb_puts(&params, "{\"site\":");
    inj_json_str(&params, f.site);
    sb_puts(&params, ",\"model\":");
    inj_json_str(&params, f.model);
    sb_printf(&params, ",\"at\":%" PRIu64 ",\"fault_seed\":%" PRIu64 ",\"bound\":%" PRIu64 "}",
              f.at, f.fault_seed, c->bound);
    if (report.valid)
        sb_puts(&detail, report.json);
    if (o == INJ_ERROR) {
        char line[300];
        first_line(err, line, sizeof line);
        sb_clear(&detail);
        sb_puts(&detail, "{\"error\":");
        inj_json_str(&detail, line);
        sb_putc(&detail, '}');
        if (!c->warned_error++)
            fprintf(stderr, "lockstep inject: run %" PRId64 " never reached the simulator "
                            "(exit status %d): %s\n", idx, code, line);
    }
    char hash[24];
    snprintf(hash, sizeof hash, "%016" PRIx64, facts.output_hash);
    store_result res = {idx,
                        (int64_t)f.job_seed,
                        inj_outcome_name(o),
                        (int)o,
                        code,
                        facts.cycles >= 0 ? facts.cycles : STORE_NULL,
                        facts.warp_insts >= 0 ? facts.warp_insts : STORE_NULL,
                        have ? hash : NULL,
                        sb_cstr(&params),
                        detail.len ? sb_cstr(&detail) : NULL};
    int bad = store_put(c->st, &res);
    if (bad && !c->store_failed++)
        fprintf(stderr, "lockstep inject: run %" PRId64 ": %s\n", idx, store_errmsg(c->st));
    sb_free(&params);
    sb_free(&detail);
    inj_report_free(&report);
    runrec_free(&r);
    remove_files(rec, out, err, rep);
    c->counts[o]++;
    c->finished++;
    if (c->tty) {
        fprintf(stderr, "\r  %zu/%zu runs: %" PRId64 " masked, %" PRId64 " sdc, %" PRId64
                        " due, %" PRId64 " hang, %" PRId64 " perf",
                c->finished, c->npending, c->counts[INJ_MASKED], c->counts[INJ_SDC],
                c->counts[INJ_DUE], c->counts[INJ_HANG], c->counts[INJ_PERF]);
        if (c->counts[INJ_CORRECTED] || c->counts[INJ_DETECTED])
            fprintf(stderr, ", %" PRId64 " corrected, %" PRId64 " detected",
                    c->counts[INJ_CORRECTED], c->counts[INJ_DETECTED]);
        fputc(' ', stderr);
    }
    return bad;
}

/* Run options `lockstep inject` passes on to every `lockstep run`. */
/* Whether the run options turn redundant execution on (--redundancy dmr,
 * or -O "-lockstep_redundancy dmr"). */
static int redundancy_dmr(const ictx *c)
{
    int on = 0;
    for (int k = 0; k + 1 < c->nrun_opts; k++) {
        const char *a = c->run_opts[k], *v = c->run_opts[k + 1];
        if (!strcmp(a, "--redundancy"))
            on = !strcmp(v, "dmr");
        else if ((!strcmp(a, "-O") || !strcmp(a, "--option")) &&
                 !strncmp(v, "-lockstep_redundancy", 20))
            on = strstr(v + 20, "dmr") != NULL;
    }
    return on;
}

static int is_run_option(const char *a, int *takes)
{
    *takes = 1;
    if (!strcmp(a, "--functional") || !strcmp(a, "--timing")) {
        *takes = 0;
        return 1;
    }
    return !strcmp(a, "--config") || !strcmp(a, "-O") || !strcmp(a, "--option") ||
           !strcmp(a, "--threads") || !strcmp(a, "--timeout") || !strcmp(a, "--cudart-dir") ||
           !strcmp(a, "--det") || !strcmp(a, "--redundancy") || !strcmp(a, "--nondet-seed");
}

int cmd_inject(int argc, char **argv)
{
    if (argc >= 2 && !strcmp(argv[1], "report"))
        return cmd_report(argc - 1, argv + 1);
    long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
    uint64_t runs = 100, seed = 1, jobs = ncpu > 0 ? (uint64_t)ncpu : 1;
    int runs_given = 0, resume = 0, functional = 0, threads_given = 0, stored = 0;
    double factor = 10, margin = 0;
    const char *db = "lockstep-inject.db", *sites = "all", *models = "bit1";
    int rc = 2;
    ictx c;
    memset(&c, 0, sizeof c);
    c.run_opts = calloc((size_t)argc + 4, sizeof *c.run_opts);
    if (!c.run_opts) {
        fprintf(stderr, "lockstep inject: out of memory\n");
        return 2;
    }
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        int takes;
        if (!strcmp(a, "--"))
            break;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            free(c.run_opts);
            return 0;
        }
        if (!strcmp(a, "--resume")) {
            resume = 1;
            continue;
        }
        if (is_run_option(a, &takes)) {
            if (takes && i + 1 >= argc) {
                fprintf(stderr, "lockstep inject: %s needs a value\n", a);
                goto out;
            }
            c.run_opts[c.nrun_opts++] = argv[i];
            if (!strcmp(a, "--functional") || !strcmp(a, "--timing"))
                functional = !strcmp(a, "--functional");
            if (takes) {
                const char *v = argv[++i];
                c.run_opts[c.nrun_opts++] = argv[i];
                if (!strcmp(a, "--threads"))
                    threads_given = 1;
                if ((!strcmp(a, "-O") || !strcmp(a, "--option")) &&
                    !strncmp(v, "-lockstep_mode", 14)) {
                    functional = strstr(v + 14, "functional") != NULL;
                }
                if ((!strcmp(a, "-O") || !strcmp(a, "--option")) &&
                    (strstr(v, "-lockstep_fault_") || strstr(v, INJ_OPT_BOUND) ||
                     strstr(v, INJ_OPT_BOUND_INSTS) || strstr(v, INJ_OPT_ACE))) {
                    fprintf(stderr, "lockstep inject: -O '%s': lockstep inject sets the fault "
                                    "options and the bound itself (--site, --model, --seed, "
                                    "--timeout-factor), and runs the ACE analysis in the "
                                    "golden run only\n", v);
                    goto out;
                }
            }
            continue;
        }
        int mine = !strcmp(a, "--runs") || !strcmp(a, "--site") || !strcmp(a, "--model") ||
                   !strcmp(a, "--seed") || !strcmp(a, "--db") || !strcmp(a, "--timeout-factor") ||
                   !strcmp(a, "--jobs") || !strcmp(a, "--margin");
        if (!mine) {
            fprintf(stderr, "lockstep inject: unknown option '%s' (see lockstep inject --help)\n",
                    a);
            goto out;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "lockstep inject: %s needs a value\n", a);
            goto out;
        }
        const char *v = argv[++i];
        if (!strcmp(a, "--runs")) {
            if (parse_u64(a, v, 1, MAX_RUNS, &runs))
                goto out;
            runs_given = 1;
        } else if (!strcmp(a, "--seed")) {
            if (parse_u64(a, v, 0, INT64_MAX, &seed))
                goto out;
        } else if (!strcmp(a, "--jobs")) {
            if (parse_u64(a, v, 1, 4096, &jobs))
                goto out;
        } else if (!strcmp(a, "--site")) {
            sites = v;
        } else if (!strcmp(a, "--model")) {
            models = v;
        } else if (!strcmp(a, "--db")) {
            if (check_db("inject", v))
                goto out;
            db = v;
        } else if (!strcmp(a, "--margin")) {
            if (parse_margin(v, &margin))
                goto out;
        } else {
            char *end;
            errno = 0;
            factor = strtod(v, &end);
            if (errno || end == v || *end || !(factor > 1 && factor <= 1e6)) {
                fprintf(stderr, "lockstep inject: --timeout-factor '%s': give a number above 1 "
                                "(at most 1000000)\n", v);
                goto out;
            }
        }
    }
    if (margin > 0 && i >= argc) {
        print_margin(margin);
        rc = 0;
        goto out;
    }
    if (i >= argc) {
        fprintf(stderr, "lockstep inject: no program given (put it after --)\n");
        goto out;
    }
    if (i + 1 >= argc) {
        fprintf(stderr, "lockstep inject: no program given after --\n");
        goto out;
    }
    char bad[64];
    c.space.nsites = inj_parse_list(sites, inj_sites, c.space.sites, INJ_MAX_SITES, bad,
                                    sizeof bad);
    if (c.space.nsites < 0) {
        fprintf(stderr, "lockstep inject: --site: unknown or repeated site '%s' (the sites: "
                        "all reg_live reg_any pred insn_out alu shared local dram simt l1d l2d "
                        "l1tag l2tag ibuf dmr_log)\n", bad);
        goto out;
    }
    /* DMR's comparator log exists only with redundant execution: `all`
     * takes it then, and naming it without is refused */
    int dmr = redundancy_dmr(&c);
    for (int k = 0; k < c.space.nsites; k++) {
        if (strcmp(inj_sites[c.space.sites[k]], "dmr_log") || dmr)
            continue;
        if (strcmp(sites, "all")) {
            fprintf(stderr, "lockstep inject: --site dmr_log corrupts DMR's comparator log: it "
                            "needs --redundancy dmr\n");
            goto out;
        }
        memmove(c.space.sites + k, c.space.sites + k + 1,
                (size_t)(--c.space.nsites - k) * sizeof *c.space.sites);
        k--;
    }
    c.space.nmodels = inj_parse_list(models, inj_models, c.space.models, INJ_MAX_MODELS, bad,
                                     sizeof bad);
    if (c.space.nmodels < 0) {
        fprintf(stderr, "lockstep inject: --model: unknown or repeated model '%s' (the models: "
                        "all bit1 bit2 random zero)\n", bad);
        goto out;
    }
    if (margin > 0)
        print_margin(margin);
    if (!threads_given) { /* the runs are the parallelism: one host thread each */
        c.run_opts[c.nrun_opts++] = "--threads";
        c.run_opts[c.nrun_opts++] = "1";
    }
    c.prog = argv + i + 1;
    c.nprog = argc - i - 1;
    c.space.seed = seed;
    c.golden.functional = functional;
    c.tty = isatty(STDERR_FILENO);
    const char *runner = getenv("LOCKSTEP_INJECT_RUNNER");
    c.runner = runner && *runner ? runner : "/proc/self/exe";

    /* the results file: new, or the campaign to resume */
    char err[600];
    struct stat sbuf;
    if (!resume && stat(db, &sbuf) == 0) {
        fprintf(stderr, "lockstep inject: %s exists: --resume to continue its campaign, or "
                        "name another --db\n", db);
        goto out;
    }
    if (store_open(db, !resume, &c.st, err, sizeof err)) {
        fprintf(stderr, "lockstep inject: cannot %s the results file %s\n",
                resume ? "open" : "create", err);
        goto out;
    }
    store_campaign old;
    int have_old = store_get_campaign(c.st, &old);
    if (have_old < 0) {
        fprintf(stderr, "lockstep inject: %s: %s\n", db, store_errmsg(c.st));
        goto out;
    }
    if (resume && !have_old) {
        fprintf(stderr, "lockstep inject: --resume: %s holds no campaign\n", db);
        goto out;
    }

    /* the configuration: everything that decides what the jobs are */
    strbuf config = STRBUF_INIT, cmd = STRBUF_INIT;
    sb_puts(&config, "{\"kind\":\"inject\",\"sites\":[");
    for (int k = 0; k < c.space.nsites; k++) {
        sb_puts(&config, k ? "," : "");
        inj_json_str(&config, inj_sites[c.space.sites[k]]);
    }
    sb_puts(&config, "],\"models\":[");
    for (int k = 0; k < c.space.nmodels; k++) {
        sb_puts(&config, k ? "," : "");
        inj_json_str(&config, inj_models[c.space.models[k]]);
    }
    sb_printf(&config, "],\"seed\":%" PRIu64 ",\"timeout_factor\":%.17g,\"mode\":\"%s\","
                       "\"run_options\":[", seed, factor, functional ? "functional" : "timing");
    for (int k = 0; k < c.nrun_opts; k++) {
        sb_puts(&config, k ? "," : "");
        inj_json_str(&config, c.run_opts[k]);
    }
    sb_puts(&config, "],\"program\":[");
    for (int k = 0; k < c.nprog; k++) {
        sb_puts(&config, k ? "," : "");
        inj_json_str(&config, c.prog[k]);
    }
    sb_puts(&config, "]}");
    command_line(&cmd, argc, argv);
    if (have_old && strcmp(old.config, sb_cstr(&config))) {
        fprintf(stderr, "lockstep inject: --resume: %s holds a campaign with another "
                        "configuration:\n  stored: %s\n  given:  %s\n", db, old.config,
                sb_cstr(&config));
        goto out_sb;
    }
    if (have_old && !runs_given)
        runs = (uint64_t)old.runs;

    /* the golden run */
    const char *tmp = getenv("TMPDIR");
    snprintf(c.dir, sizeof c.dir, "%s/lockstep-inject.XXXXXX", tmp && *tmp ? tmp : "/tmp");
    if (!mkdtemp(c.dir)) {
        fprintf(stderr, "lockstep inject: cannot make a temporary folder: %s\n", strerror(errno));
        c.dir[0] = 0;
        goto out_sb;
    }
    pool_ops ops = {run_child, run_finished, &c};
    if (pool_run(1, 1, &ops, NULL) < 0) {
        fprintf(stderr, "lockstep inject: cannot start the golden run: %s\n", strerror(errno));
        goto out_sb;
    }
    {
        char rec[PATH_MAX], out[PATH_MAX], errp[PATH_MAX], rep[PATH_MAX];
        paths(&c, -1, rec, out, errp, rep);
        inj_run g;
        inj_run_facts(&c.grec, c.ghave, &c.grep, &g);
        int64_t total = functional ? c.grep.total_warp_insts : c.grep.total_cycles;
        const char *why = !c.ghave                ? "it wrote no determinism record"
                          : g.exit_status         ? "it exited with a non-zero status"
                          : !g.ended              ? "it did not reach the program's end"
                          : g.redundancy_faults   ? "redundant execution found a mismatch it "
                                                    "could not correct, in a run without a "
                                                    "fault"
                          : g.launch_faults       ? "a kernel faulted"
                          : !c.grep.valid         ? "it wrote no fault report (" INJ_ENV_REPORT
                                                    "): does this lockstep have the injector?"
                          : total <= 0            ? (functional ? "its fault report gives no "
                                                                  "total_warp_insts"
                                                                : "its fault report gives no "
                                                                  "total_cycles")
                          : g.dmr_mismatches > 0  ? "redundant execution found a mismatch in "
                                                    "it, though it has no fault (the two copies "
                                                    "of a CTA disagree by themselves: a program "
                                                    "whose CTAs race, or a simulator bug); the "
                                                    "faulty runs' corrected outcome would mean "
                                                    "nothing"
                                                  : NULL;
        if (why) {
            fprintf(stderr, "lockstep inject: the golden run failed (exit status %d): %s\n",
                    g.exit_status, why);
            FILE *e = fopen(errp, "r");
            char line[512];
            for (int k = 0; e && k < 20 && fgets(line, sizeof line, e); k++)
                fprintf(stderr, "  %s", line);
            if (e)
                fclose(e);
            remove_files(rec, out, errp, rep);
            goto out_sb;
        }
        remove_files(rec, out, errp, rep);
        c.golden.output_hash = g.output_hash;
        c.golden.cycles = g.cycles;
        c.golden.warp_insts = g.warp_insts;
        c.space.total = (uint64_t)total;
        double b = ceil(factor * (double)total);
        c.bound = b >= 1.8e19 ? UINT64_MAX : (uint64_t)b;
        char hash[24];
        snprintf(hash, sizeof hash, "%016" PRIx64, g.output_hash);
        if (have_old) {
            int64_t old_total = functional ? old.base_insts : old.base_cycles;
            if (!old.base_hash || strcmp(old.base_hash, hash) || old_total != total) {
                fprintf(stderr, "lockstep inject: --resume: the golden run differs from the "
                                "stored one (output %s, %" PRId64 " %s; stored: output %s, %"
                                PRId64 "): the program, its inputs or lockstep changed\n",
                        hash, total, functional ? "warp instructions" : "cycles",
                        old.base_hash ? old.base_hash : "?", old_total);
                goto out_sb;
            }
            if ((int64_t)runs > old.runs && store_set_runs(c.st, (int64_t)runs)) {
                fprintf(stderr, "lockstep inject: %s\n", store_errmsg(c.st));
                rc = 1;
                goto out_sb;
            }
        } else {
            store_campaign sc = {"inject",
                                 sb_cstr(&config),
                                 sb_cstr(&cmd),
                                 (int64_t)seed,
                                 (int64_t)runs,
                                 g.cycles >= 0 ? g.cycles : STORE_NULL,
                                 g.warp_insts >= 0 ? g.warp_insts : STORE_NULL,
                                 0,
                                 hash,
                                 c.grep.json};
            if (store_put_campaign(c.st, &sc)) {
                fprintf(stderr, "lockstep inject: %s\n", store_errmsg(c.st));
                rc = 1;
                goto out_sb;
            }
            stored = 1;
        }
        /* a view with the fault's fields as columns, for queries */
        store_exec(c.st, "DROP VIEW IF EXISTS inject_run"); /* an older file's: the new columns */
        store_exec(c.st,
                   "CREATE VIEW IF NOT EXISTS inject_run AS SELECT idx, seed, outcome,"
                   " exit_status, cycles, warp_insts, output_hash,"
                   " json_extract(params, '$.site') AS site,"
                   " json_extract(params, '$.model') AS model,"
                   " json_extract(params, '$.at') AS at,"
                   " json_extract(params, '$.fault_seed') AS fault_seed,"
                   " json_extract(detail, '$.landed') AS landed,"
                   " json_extract(detail, '$.cycle') AS fault_cycle,"
                   " json_extract(detail, '$.warp_inst') AS fault_warp_inst,"
                   " json_extract(detail, '$.launch') AS launch,"
                   " json_extract(detail, '$.kernel') AS kernel,"
                   " json_extract(detail, '$.sm') AS sm, json_extract(detail, '$.warp') AS warp,"
                   " json_extract(detail, '$.lane') AS lane,"
                   " json_extract(detail, '$.target') AS target,"
                   " json_extract(detail, '$.addr') AS addr, json_extract(detail, '$.bit') AS bit,"
                   " json_extract(detail, '$.old') AS old, json_extract(detail, '$.new') AS new,"
                   " json_extract(detail, '$.dmr_mismatches') AS dmr_mismatches,"
                   " json_extract(detail, '$.dmr_reissues') AS dmr_reissues,"
                   " detail FROM run");
    }

    /* the jobs without a result */
    unsigned char *done = calloc(runs, 1);
    c.pending = calloc(runs, sizeof *c.pending);
    int64_t ndone = 0;
    if (!done || !c.pending) {
        fprintf(stderr, "lockstep inject: out of memory\n");
        free(done);
        rc = 1;
        goto out_sb;
    }
    if (store_done(c.st, (int64_t)runs, done, &ndone)) {
        fprintf(stderr, "lockstep inject: %s\n", store_errmsg(c.st));
        free(done);
        rc = 1;
        goto out_sb;
    }
    for (uint64_t k = 0; k < runs; k++)
        if (!done[k])
            c.pending[c.npending++] = (int64_t)k;
    free(done);
    fprintf(stderr, "lockstep inject: golden run: %" PRId64 " %s; %zu runs to do%s, %" PRIu64
                    " at a time, bound %" PRIu64 "\n",
            functional ? c.golden.warp_insts : c.golden.cycles,
            functional ? "warp instructions" : "cycles", c.npending,
            ndone ? " (the others are done)" : "", jobs, c.bound);
    /* a signal stops the campaign cleanly (a second one acts as usual) */
    struct sigaction sa, old_int, old_term, old_hup;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sa.sa_flags = SA_RESETHAND;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    sigaction(SIGHUP, &sa, &old_hup);
    int prc = pool_run(c.npending, (unsigned)jobs, &ops, NULL);
    sigaction(SIGINT, &old_int, NULL);
    sigaction(SIGTERM, &old_term, NULL);
    sigaction(SIGHUP, &old_hup, NULL);
    if (c.tty)
        fprintf(stderr, "\n");
    if (interrupted) {
        fprintf(stderr, "lockstep inject: interrupted (signal %d) after %zu of %zu runs; they "
                        "are stored: --resume continues\n", (int)interrupted, c.finished,
                c.npending);
        rc = 1;
        goto out_sb;
    }
    if (prc < 0) {
        fprintf(stderr, "lockstep inject: cannot start a run: %s\n", strerror(errno));
        rc = 1;
        goto out_sb;
    }
    if (prc > 0 || c.store_failed) { /* (an interrupt was dealt with above) */
        fprintf(stderr, "lockstep inject: stopped: a run could not be stored\n");
        rc = 1;
        goto out_sb;
    }
    rc = print_report(c.st, NULL) ? 1 : 0;
out_sb:
    sb_free(&config);
    sb_free(&cmd);
out:
    if (c.dir[0])
        rmdir(c.dir);
    runrec_free(&c.grec);
    inj_report_free(&c.grep);
    store_close(c.st);
    if (c.st && !resume && !stored) {
        /* a new results file without a campaign in it (the golden run
         * failed): not left to be mistaken for one */
        char p[PATH_MAX + 8];
        snprintf(p, sizeof p, "%s-wal", db);
        unlink(p);
        snprintf(p, sizeof p, "%s-shm", db);
        unlink(p);
        unlink(db);
    }
    free(c.pending);
    free(c.run_opts);
    return rc;
}
