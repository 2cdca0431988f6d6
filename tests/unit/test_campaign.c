/*
 * test_campaign.c -- the campaign runner (src/campaign): Wilson intervals
 * against published values and campaign sizing (385 runs for a 5% margin,
 * 1068 for 3%); the job list is a pure function of (seed, index); the
 * SQLite store keeps, reopens and resumes, and a process killed in the
 * middle of a transaction (SIGKILL) loses only that transaction; the
 * process pool runs J at a time and reports by index whatever the order
 * the jobs end in.
 */
#include <errno.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdatomic.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "campaign/campaign.h"
#include "campaign/pool.h"
#include "campaign/stats.h"
#include "campaign/store.h"
#include "test.h"

static int near(double a, double b, double eps) { return fabs(a - b) <= eps; }

static void test_wilson(void)
{
    /* Newcombe, "Two-sided confidence intervals for the single proportion"
     * (Stat. Med. 1998), Table I, method 3 (Wilson score, no continuity
     * correction), to four places */
    static const struct { unsigned k, n; double lo, hi; } t[] = {
        {81, 263, 0.2553, 0.3662}, {15, 148, 0.0624, 0.1605}, {0, 20, 0.0, 0.1611},
        {1, 29, 0.0061, 0.1718},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
        double lo, hi;
        stats_wilson(t[i].k, t[i].n, STATS_Z95, &lo, &hi);
        CHECK_MSG(near(lo, t[i].lo, 6e-5) && near(hi, t[i].hi, 6e-5), "%u/%u: [%.5f, %.5f]",
                  t[i].k, t[i].n, lo, hi);
    }
    double lo, hi;
    stats_wilson(10, 10, STATS_Z95, &lo, &hi);
    CHECK(hi == 1 && lo > 0.69 && lo < 0.73); /* 0.7225 */
    stats_wilson(0, 0, STATS_Z95, &lo, &hi);
    CHECK(lo == 0 && hi == 1);
    stats_wilson(5, 10, STATS_Z95, &lo, &hi);
    CHECK(near(lo + hi, 1, 1e-12)); /* symmetric about 1/2 */
}

static void test_margin(void)
{
    CHECK_EQ_U64(stats_runs_for_margin(0.05, 0.5, STATS_Z95), 385);
    CHECK_EQ_U64(stats_runs_for_margin(0.03, 0.5, STATS_Z95), 1068);
    CHECK_EQ_U64(stats_runs_for_margin(0.05, 0.5, 1.96), 385);
    CHECK_EQ_U64(stats_runs_for_margin(0.03, 0.5, 1.96), 1068);
    CHECK_EQ_U64(stats_runs_for_margin(0.01, 0.5, 1.96), 9604); /* exactly 9604: no extra run */
    CHECK_EQ_U64(stats_runs_for_margin(0, 0.5, 1.96), 0);
    CHECK_EQ_U64(stats_runs_for_margin(1, 0.5, 1.96), 0);
    CHECK(stats_margin_for_runs(385, 0.5, STATS_Z95) <= 0.05);
    CHECK(stats_margin_for_runs(384, 0.5, STATS_Z95) > 0.05);
}

static void test_jobs(void)
{
    /* pure: the same (seed, index) gives the same job, in any order */
    uint64_t a[64];
    for (int i = 63; i >= 0; i--)
        a[i] = campaign_job_make(7, (uint64_t)i).seed;
    int same_other_seed = 0, dup = 0;
    for (int i = 0; i < 64; i++) {
        CHECK_EQ_U64(campaign_job_seed(7, (uint64_t)i), a[i]);
        CHECK(a[i] < (1ull << 63));
        same_other_seed += campaign_job_seed(8, (uint64_t)i) == a[i];
        for (int j = 0; j < i; j++)
            dup += a[j] == a[i];
    }
    CHECK_EQ_INT(same_other_seed, 0);
    CHECK_EQ_INT(dup, 0);
    CHECK(campaign_job_seed(0, 0) != campaign_job_seed(0, 1));
    /* a pinned value: the job list may never change under a campaign */
    campaign_job j = campaign_job_make(1, 5);
    rng r1, r2;
    campaign_job_rng(&j, &r1);
    campaign_job_rng(&j, &r2);
    CHECK_EQ_U64(rng_next(&r1), rng_next(&r2));
    /* uniform draws stay in range and reach both ends of a small range */
    rng r;
    campaign_job_rng(&j, &r);
    int seen[5] = {0};
    for (int i = 0; i < 1000; i++) {
        uint64_t x = campaign_uniform(&r, 5);
        CHECK(x < 5);
        if (x < 5)
            seen[x] = 1;
    }
    CHECK(seen[0] && seen[4]);
    CHECK_EQ_U64(campaign_uniform(&r, 1), 0);
    CHECK(campaign_uniform(&r, UINT64_MAX) < UINT64_MAX);
}

static char dbpath[256];

static store_result result(int64_t i)
{
    return (store_result){i, campaign_job_seed(3, (uint64_t)i), i % 2 ? "sdc" : "masked",
                          (int)(i % 2), 0, 1000 + i, 50, "00ff", "{\"site\":\"x\"}", NULL};
}

static void test_store(void)
{
    snprintf(dbpath, sizeof dbpath, "%s/lockstep-test-campaign-%d.db",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    unlink(dbpath);
    char err[256];
    store *s;
    CHECK(store_open(dbpath, 0, &s, err, sizeof err) == -1 && !s); /* no file, no create */
    CHECK(store_open(dbpath, 1, &s, err, sizeof err) == 0);
    if (!s)
        return;
    store_campaign c;
    CHECK_EQ_INT(store_get_campaign(s, &c), 0);
    store_campaign mine = {"test", "{\"a\":1}", "lockstep inject -- x", 3, 10, 1234,
                           STORE_NULL, 0, "abcd", "{}"};
    CHECK_EQ_INT(store_put_campaign(s, &mine), 0);
    for (int64_t i = 0; i < 10; i += 3) {
        store_result r = result(i);
        CHECK_EQ_INT(store_put(s, &r), 0);
    }
    store_result again = result(3);
    CHECK_EQ_INT(store_put(s, &again), -1); /* no run stored twice */
    store_close(s);

    /* reopen: the campaign and the done indices are there */
    CHECK(store_open(dbpath, 0, &s, err, sizeof err) == 0);
    if (!s)
        return;
    CHECK_EQ_INT(store_get_campaign(s, &c), 1);
    CHECK(!strcmp(c.config, "{\"a\":1}") && c.seed == 3 && c.runs == 10 &&
          c.base_cycles == 1234 && c.base_insts == STORE_NULL && !strcmp(c.base_hash, "abcd"));
    unsigned char done[12];
    int64_t count;
    CHECK_EQ_INT(store_done(s, 12, done, &count), 0);
    CHECK_EQ_INT(count, 4);
    CHECK(done[0] && done[3] && done[6] && done[9] && !done[1] && !done[10] && !done[11]);
    CHECK_EQ_INT(store_set_runs(s, 12), 0);
    store_close(s);

    /* a process killed in the middle of a transaction keeps every
     * committed row: index 1 is committed, 2 is inside BEGIN when SIGKILL comes */
    fflush(NULL);
    pid_t p = fork();
    if (p == 0) {
        store *k;
        if (store_open(dbpath, 0, &k, err, sizeof err))
            _exit(3);
        store_result r = result(1);
        if (store_put(k, &r))
            _exit(4);
        store_exec(k, "BEGIN");
        r = result(2);
        store_put(k, &r);
        kill(getpid(), SIGKILL);
        _exit(5);
    }
    int ws = 0;
    waitpid(p, &ws, 0);
    CHECK(WIFSIGNALED(ws) && WTERMSIG(ws) == SIGKILL);
    CHECK(store_open(dbpath, 0, &s, err, sizeof err) == 0);
    if (!s)
        return;
    CHECK_EQ_INT(store_done(s, 12, done, &count), 0);
    CHECK_EQ_INT(count, 5);
    CHECK(done[1] && !done[2]);
    CHECK_EQ_INT(store_get_campaign(s, &c), 1);
    CHECK_EQ_INT(c.runs, 12);
    /* the row reads back as stored */
    sqlite3_stmt *st;
    CHECK(sqlite3_prepare_v2(store_db(s), "SELECT outcome, cycles, params FROM run WHERE idx = 9",
                             -1, &st, NULL) == SQLITE_OK);
    CHECK(sqlite3_step(st) == SQLITE_ROW);
    CHECK(!strcmp((const char *)sqlite3_column_text(st, 0), "sdc"));
    CHECK_EQ_INT(sqlite3_column_int64(st, 1), 1009);
    sqlite3_finalize(st);
    store_close(s);
    char w[300];
    unlink(dbpath);
    snprintf(w, sizeof w, "%s-wal", dbpath);
    unlink(w);
    snprintf(w, sizeof w, "%s-shm", dbpath);
    unlink(w);

    /* a file that is not a database: a clear error, no crash */
    FILE *f = fopen(dbpath, "w");
    if (f) {
        fputs("this is not a database, it is a text file long enough to have a header\n", f);
        fclose(f);
    }
    CHECK(store_open(dbpath, 0, &s, err, sizeof err) == -1);
    CHECK_STR_CONTAINS(err, "not a database");
    unlink(dbpath);
}

/* The pool: job i sleeps (n - i) * 20 ms, so they end in reverse order;
 * a pipe counts how many run at once. */
typedef struct pool_ctx {
    size_t n;
    int fds[2];
    size_t order[16], norder;
    int stop_after;
} pool_ctx;

static int child(void *vctx, size_t i)
{
    pool_ctx *c = vctx;
    char b = '+';
    if (write(c->fds[1], &b, 1) != 1)
        return 99;
    struct timespec ts = {0, (long)(c->n - i) * 20000000L};
    nanosleep(&ts, NULL);
    b = '-';
    if (write(c->fds[1], &b, 1) != 1)
        return 99;
    return (int)(10 + i);
}

static int finished(void *vctx, size_t i, int code)
{
    pool_ctx *c = vctx;
    (void)code;
    c->order[c->norder++] = i;
    return c->stop_after && (int)c->norder >= c->stop_after;
}

static void test_pool(void)
{
    for (unsigned jobs = 1; jobs <= 4; jobs++) {
        pool_ctx c = {.n = 8};
        CHECK(pipe(c.fds) == 0);
        int status[8];
        pool_ops ops = {child, finished, &c};
        CHECK_EQ_INT(pool_run(8, jobs, &ops, status), 0);
        close(c.fds[1]);
        char buf[64];
        ssize_t k = read(c.fds[0], buf, sizeof buf);
        close(c.fds[0]);
        int now = 0, most = 0;
        for (ssize_t i = 0; i < k; i++) {
            now += buf[i] == '+' ? 1 : -1;
            most = now > most ? now : most;
        }
        CHECK_EQ_INT(k, 16);
        CHECK_MSG(most <= (int)jobs && (jobs == 1 || most > 1), "jobs %u: %d at once", jobs, most);
        for (int i = 0; i < 8; i++)
            CHECK_EQ_INT(status[i], 10 + i); /* by index */
        CHECK_EQ_INT(c.norder, 8);
        if (jobs == 4) /* the first four started together: the last of them ends first */
            CHECK_EQ_INT(c.order[0], 3);
    }
    /* a finished callback asks to stop: no more jobs start */
    pool_ctx c = {.n = 8, .stop_after = 2};
    CHECK(pipe(c.fds) == 0);
    int status[8];
    pool_ops ops = {child, finished, &c};
    CHECK_EQ_INT(pool_run(8, 2, &ops, status), 1);
    close(c.fds[0]);
    close(c.fds[1]);
    CHECK_EQ_INT(status[7], -1);
    /* a child killed by a signal: 128 + the signal */
    CHECK_EQ_INT(pool_exit_code(SIGKILL), 128 + SIGKILL);
}

int main(void)
{
    RUN(test_wilson);
    RUN(test_margin);
    RUN(test_jobs);
    RUN(test_store);
    RUN(test_pool);
    return test_summary();
}
