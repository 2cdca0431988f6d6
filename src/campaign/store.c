/*
 * store.c -- the SQLite results file (store.h).  Every statement runs in
 * autocommit mode: a run's row is durable against the process dying once
 * sqlite3_step returns (WAL with synchronous=NORMAL: safe against a crash
 * or kill of the process; a power cut may lose the last few commits,
 * which --resume then runs again).
 */
#include "campaign/store.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct store {
    sqlite3 *db;
    char err[512];
    char *c_kind, *c_config, *c_command, *c_hash, *c_detail;
};

static const char schema[] =
    "CREATE TABLE IF NOT EXISTS campaign("
    " id INTEGER PRIMARY KEY,"
    " kind TEXT NOT NULL, config TEXT NOT NULL, command TEXT NOT NULL,"
    " seed INTEGER NOT NULL, runs INTEGER NOT NULL,"
    " golden_cycles INTEGER, golden_warp_insts INTEGER, golden_exit INTEGER,"
    " golden_hash TEXT, golden TEXT);"
    "CREATE TABLE IF NOT EXISTS run("
    " campaign INTEGER NOT NULL REFERENCES campaign(id),"
    " idx INTEGER NOT NULL, seed INTEGER NOT NULL,"
    " outcome TEXT NOT NULL, outcome_code INTEGER NOT NULL,"
    " exit_status INTEGER, cycles INTEGER, warp_insts INTEGER, output_hash TEXT,"
    " params TEXT, detail TEXT,"
    " PRIMARY KEY (campaign, idx));";

static int fail(store *s, const char *what)
{
    snprintf(s->err, sizeof s->err, "%s: %s", what, s->db ? sqlite3_errmsg(s->db) : "?");
    return -1;
}

int store_open(const char *path, int create, store **out, char *err, size_t errlen)
{
    *out = NULL;
    store *s = calloc(1, sizeof *s);
    if (!s) {
        snprintf(err, errlen, "out of memory");
        return -1;
    }
    int flags = SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0);
    if (sqlite3_open_v2(path, &s->db, flags, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", path,
                 s->db ? sqlite3_errmsg(s->db) : "cannot open the database");
        goto bad;
    }
    sqlite3_busy_timeout(s->db, 10000);
    /* the first statements read the file: a file that is not a database fails here */
    if (sqlite3_exec(s->db, "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;", NULL, NULL,
                     NULL) != SQLITE_OK ||
        sqlite3_exec(s->db, schema, NULL, NULL, NULL) != SQLITE_OK) {
        snprintf(err, errlen, "%s: %s", path, sqlite3_errmsg(s->db));
        goto bad;
    }
    *out = s;
    return 0;
bad:
    sqlite3_close(s->db);
    free(s);
    return -1;
}

static void free_campaign_strings(store *s)
{
    free(s->c_kind);
    free(s->c_config);
    free(s->c_command);
    free(s->c_hash);
    free(s->c_detail);
    s->c_kind = s->c_config = s->c_command = s->c_hash = s->c_detail = NULL;
}

void store_close(store *s)
{
    if (!s)
        return;
    sqlite3_close(s->db);
    free_campaign_strings(s);
    free(s);
}

const char *store_errmsg(const store *s) { return s->err; }
sqlite3 *store_db(store *s) { return s->db; }

int store_exec(store *s, const char *sql)
{
    return sqlite3_exec(s->db, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : fail(s, "store");
}

static char *col_text(sqlite3_stmt *st, int i)
{
    const unsigned char *t = sqlite3_column_text(st, i);
    return t ? strdup((const char *)t) : NULL;
}

static int64_t col_int(sqlite3_stmt *st, int i)
{
    return sqlite3_column_type(st, i) == SQLITE_NULL ? STORE_NULL : sqlite3_column_int64(st, i);
}

int store_get_campaign(store *s, store_campaign *c)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "SELECT kind, config, command, seed, runs, golden_cycles, "
                           "golden_warp_insts, golden_exit, golden_hash, golden FROM campaign "
                           "ORDER BY id LIMIT 1",
                           -1, &st, NULL) != SQLITE_OK)
        return fail(s, "reading the campaign");
    int rc = sqlite3_step(st);
    if (rc == SQLITE_DONE) {
        sqlite3_finalize(st);
        return 0;
    }
    if (rc != SQLITE_ROW) {
        sqlite3_finalize(st);
        return fail(s, "reading the campaign");
    }
    free_campaign_strings(s);
    s->c_kind = col_text(st, 0);
    s->c_config = col_text(st, 1);
    s->c_command = col_text(st, 2);
    s->c_hash = col_text(st, 8);
    s->c_detail = col_text(st, 9);
    *c = (store_campaign){s->c_kind ? s->c_kind : "", s->c_config ? s->c_config : "",
                          s->c_command ? s->c_command : "", col_int(st, 3), col_int(st, 4),
                          col_int(st, 5), col_int(st, 6), col_int(st, 7), s->c_hash, s->c_detail};
    sqlite3_finalize(st);
    return 1;
}

static void bind_int(sqlite3_stmt *st, int i, int64_t v)
{
    if (v == STORE_NULL)
        sqlite3_bind_null(st, i);
    else
        sqlite3_bind_int64(st, i, v);
}

static void bind_text(sqlite3_stmt *st, int i, const char *t)
{
    if (t)
        sqlite3_bind_text(st, i, t, -1, SQLITE_TRANSIENT);
    else
        sqlite3_bind_null(st, i);
}

int store_put_campaign(store *s, const store_campaign *c)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO campaign(kind, config, command, seed, runs, golden_cycles, "
                           "golden_warp_insts, golden_exit, golden_hash, golden) "
                           "VALUES (?,?,?,?,?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK)
        return fail(s, "storing the campaign");
    bind_text(st, 1, c->kind);
    bind_text(st, 2, c->config);
    bind_text(st, 3, c->command);
    bind_int(st, 4, c->seed);
    bind_int(st, 5, c->runs);
    bind_int(st, 6, c->base_cycles);
    bind_int(st, 7, c->base_insts);
    bind_int(st, 8, c->base_exit);
    bind_text(st, 9, c->base_hash);
    bind_text(st, 10, c->base_detail);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : fail(s, "storing the campaign");
}

int store_set_runs(store *s, int64_t runs)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "UPDATE campaign SET runs = ?", -1, &st, NULL) != SQLITE_OK)
        return fail(s, "updating the campaign");
    sqlite3_bind_int64(st, 1, runs);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : fail(s, "updating the campaign");
}

int store_put(store *s, const store_result *r)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db,
                           "INSERT INTO run(campaign, idx, seed, outcome, outcome_code, "
                           "exit_status, cycles, warp_insts, output_hash, params, detail) "
                           "VALUES ((SELECT min(id) FROM campaign),?,?,?,?,?,?,?,?,?,?)",
                           -1, &st, NULL) != SQLITE_OK)
        return fail(s, "storing a run");
    bind_int(st, 1, r->index);
    bind_int(st, 2, r->seed);
    bind_text(st, 3, r->outcome ? r->outcome : "");
    sqlite3_bind_int(st, 4, r->outcome_code);
    bind_int(st, 5, r->exit_status);
    bind_int(st, 6, r->cycles);
    bind_int(st, 7, r->insts);
    bind_text(st, 8, r->hash);
    bind_text(st, 9, r->params);
    bind_text(st, 10, r->detail);
    int rc = sqlite3_step(st);
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : fail(s, "storing a run");
}

int store_done(store *s, int64_t n, unsigned char *done, int64_t *count)
{
    for (int64_t i = 0; i < n; i++)
        done[i] = 0;
    *count = 0;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(s->db, "SELECT idx FROM run WHERE idx >= 0 AND idx < ?", -1, &st,
                           NULL) != SQLITE_OK)
        return fail(s, "reading the runs");
    sqlite3_bind_int64(st, 1, n);
    int rc;
    while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
        int64_t i = sqlite3_column_int64(st, 0);
        if (!done[i])
            (*count)++;
        done[i] = 1;
    }
    sqlite3_finalize(st);
    return rc == SQLITE_DONE ? 0 : fail(s, "reading the runs");
}
