/*
 * store.h -- a campaign's results in an SQLite file (docs/RELIABILITY.md,
 * "The database").  One file holds one campaign: a `campaign` row (its
 * kind, its configuration as canonical JSON, the command line, its seed
 * and size, and the baseline run: cycles, warp instructions, output hash,
 * detail JSON) and one `run` row per finished job (index, seed, outcome,
 * exit status, cycles, warp instructions, output hash, the job's
 * parameters and its detail as JSON).  The file is in WAL mode and every
 * row is its own transaction, committed before store_put returns, so a
 * campaign killed at any point (kill -9 included) keeps every run it
 * finished; (campaign, idx) is the primary key, so no run is stored twice.
 *
 * Functions return 0 or -1; store_errmsg says why.
 */
#ifndef LOCKSTEP_CAMPAIGN_STORE_H
#define LOCKSTEP_CAMPAIGN_STORE_H

#include <stddef.h>
#include <stdint.h>

typedef struct store store;
typedef struct sqlite3 sqlite3;

/* NULL-able integers are given as STORE_NULL */
#define STORE_NULL INT64_MIN

typedef struct store_campaign {
    const char *kind;    /* "inject", ... */
    const char *config;  /* canonical JSON; a resumed campaign must give the same */
    const char *command; /* the command line, for people */
    int64_t seed, runs;
    int64_t base_cycles, base_insts, base_exit;
    const char *base_hash;   /* hex */
    const char *base_detail; /* JSON, or NULL */
} store_campaign;

typedef struct store_result {
    int64_t index, seed;
    const char *outcome; /* "masked", "sdc", ... */
    int outcome_code;
    int64_t exit_status, cycles, insts; /* or STORE_NULL */
    const char *hash;                   /* or NULL */
    const char *params;                 /* JSON, or NULL */
    const char *detail;                 /* JSON, or NULL */
} store_result;

/* Open (create = 1: create if missing) the results file at path; *out
 * NULL on failure, with the reason in err. */
int store_open(const char *path, int create, store **out, char *err, size_t errlen);
void store_close(store *s);
const char *store_errmsg(const store *s);
sqlite3 *store_db(store *s);

/* The campaign in the file: 1 and the fields in *c (strings owned by the
 * store, valid until the next call), 0 when the file has none yet. */
int store_get_campaign(store *s, store_campaign *c);
int store_put_campaign(store *s, const store_campaign *c);
int store_set_runs(store *s, int64_t runs);

/* Store one job's result, committed when this returns. */
int store_put(store *s, const store_result *r);

/* done[i] = 1 for every index i < n with a stored result (others 0);
 * *count gets how many. */
int store_done(store *s, int64_t n, unsigned char *done, int64_t *count);

/* Run SQL with no result rows (views, for instance). */
int store_exec(store *s, const char *sql);

#endif
