/*
 * runrec.c -- a run's determinism record, output hash and start
 * (runrec.h).  The record's format is src/cudart/detrecord.c's.
 */
#define _GNU_SOURCE /* getline */
#include "cli/runrec.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util/hash.h"

/* Room for element n of *v (capacity 16, 32, 64, ...). */
static int grow(void **v, size_t n, size_t elem)
{
    if (n && (n < 16 || (n & (n - 1))))
        return 0;
    size_t cap = n ? 2 * n : 16;
    void *p = realloc(*v, cap * elem);
    if (!p)
        return -1;
    *v = p;
    return 0;
}

int runrec_read(run_rec *r)
{
    FILE *f = fopen(r->rec_path, "r");
    if (!f)
        return -1;
    char *line = NULL;
    size_t cap = 0;
    int ok = getline(&line, &cap, f) > 0 && !strncmp(line, "lockstep-det-record 1", 21);
    while (ok && getline(&line, &cap, f) > 0) {
        unsigned long long a, b, c;
        long long off;
        int st, at = -1;
        if (sscanf(line, "launch %llu %d %llu %llx %n", &a, &st, &b, &c, &at) == 4 && at > 0) {
            char name[128];
            snprintf(name, sizeof name, "%.*s", (int)strcspn(line + at, "\n"), line + at);
            if (grow((void **)&r->launches, r->nlaunches, sizeof *r->launches))
                ok = 0;
            else {
                launch_rec *l = &r->launches[r->nlaunches++];
                snprintf(l->name, sizeof l->name, "%s", name);
                l->status = st;
                l->cycles = b;
                l->hash = c;
                l->la_first = r->nla;
                l->la_n = 0;
            }
        } else if (sscanf(line, "lalloc %llx %llu %llx", &a, &b, &c) == 3 && r->nlaunches) {
            if (grow((void **)&r->la, r->nla, sizeof *r->la))
                ok = 0;
            else {
                r->la[r->nla++] = (alloc_rec){a, b, c, -1};
                r->launches[r->nlaunches - 1].la_n++;
            }
        } else if (sscanf(line, "copy %llu %llu %llx %lld", &a, &b, &c, &off) == 4) {
            if (grow((void **)&r->copies, r->ncopies, sizeof *r->copies) ||
                grow((void **)&r->copy_bytes, r->ncopies, sizeof *r->copy_bytes) ||
                grow((void **)&r->copy_off, r->ncopies, sizeof *r->copy_off))
                ok = 0;
            else {
                r->copy_bytes[r->ncopies] = b;
                r->copy_off[r->ncopies] = off;
                r->copies[r->ncopies++] = c;
            }
        } else if (sscanf(line, "alloc %llx %llu %llx %lld", &a, &b, &c, &off) == 4) {
            if (grow((void **)&r->allocs, r->nallocs, sizeof *r->allocs))
                ok = 0;
            else
                r->allocs[r->nallocs++] = (alloc_rec){a, b, c, off};
        } else if (!strcmp(line, "end\n")) {
            r->ended = 1;
        }
    }
    free(line);
    fclose(f);
    return ok ? 0 : -1;
}

uint64_t runrec_hash_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    uint64_t h = HASH_INIT, n = 0;
    if (!f)
        return 0;
    char buf[1 << 16];
    size_t k;
    while ((k = fread(buf, 1, sizeof buf, f)) > 0) {
        h = hash_bytes(h, buf, k);
        n += k;
    }
    fclose(f);
    return hash_final(h, n);
}

void runrec_free(run_rec *r)
{
    free(r->launches);
    free(r->copies);
    free(r->copy_bytes);
    free(r->allocs);
    free(r->la);
    free(r->copy_off);
    r->launches = NULL;
    r->copies = r->copy_bytes = NULL;
    r->allocs = r->la = NULL;
    r->copy_off = NULL;
    r->nlaunches = r->ncopies = r->nallocs = r->nla = 0;
}

uint64_t runrec_output_hash(const run_rec *r)
{
    uint64_t h = HASH_INIT;
    for (size_t k = 0; k < r->ncopies; k++)
        h = hash_mix(hash_mix(h, r->copies[k]), r->copy_bytes[k]);
    return hash_final(hash_mix(h, r->stdout_hash), r->ncopies);
}

int runrec_exec(const char *prog, char *const *argv, const char *out_path,
                const char *err_path, const char *const *env)
{
    FILE *o = freopen(out_path, "w", stdout), *e = freopen(err_path, "w", stderr);
    if (!o || !e)
        return 125;
    for (size_t k = 0; env && env[k] && env[k + 1]; k += 2)
        setenv(env[k], env[k + 1], 1);
    execv(prog, argv);
    fprintf(stderr, "lockstep: cannot start %s: %s\n", prog, strerror(errno));
    return 125;
}
