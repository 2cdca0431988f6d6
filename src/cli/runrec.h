/*
 * runrec.h -- one run of a CUDA program under `lockstep run`, as the
 * commands that run programs many times see it (lockstep detcheck,
 * lockstep inject): starting the run in a child process with its output
 * in files and its environment set, reading the determinism record the
 * runtime writes (src/cudart/detrecord.c), and hashing its output.
 */
#ifndef LOCKSTEP_CLI_RUNREC_H
#define LOCKSTEP_CLI_RUNREC_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

typedef struct launch_rec {
    char name[128];
    int status;
    uint64_t cycles, hash;
    size_t la_first, la_n; /* its allocations' hashes: la[la_first ..] */
} launch_rec;

typedef struct alloc_rec {
    uint64_t base, size, hash;
    long long off;
} alloc_rec;

typedef struct run_rec {
    uint64_t seed;
    int exit_status;      /* the program's (through lockstep run), or 128+signal */
    int ended;            /* the record's "end" line was seen */
    launch_rec *launches;
    size_t nlaunches;
    uint64_t *copies, *copy_bytes;
    long long *copy_off;
    size_t ncopies;
    alloc_rec *allocs;
    size_t nallocs;
    alloc_rec *la;        /* allocations after each launch (off unused) */
    size_t nla;
    uint64_t stdout_hash;
    char rec_path[PATH_MAX], out_path[PATH_MAX], err_path[PATH_MAX];
} run_rec;

/* Read r->rec_path into r (launches, copies, allocations, the end mark);
 * 0, or -1 when the file is missing, is not a record, or memory ran out. */
int runrec_read(run_rec *r);

/* Free what runrec_read allocated (r's paths and numbers stay). */
void runrec_free(run_rec *r);

/* A hash of a file's bytes (util/hash.h); 0 when it cannot be read. */
uint64_t runrec_hash_file(const char *path);

/* The output of a run: every device-to-host copy's hash, then the hash
 * of its standard output (r->stdout_hash), so two runs with the same
 * value gave the program's user the same results. */
uint64_t runrec_output_hash(const run_rec *r);

/* In a child process: stdout to out_path, stderr to err_path, the
 * environment variables env[0]=env[1], env[2]=env[3], ... (NULL-ended)
 * set, then exec `prog` with argv.  Returns only on failure, with the
 * exit status the child should end with (125). */
int runrec_exec(const char *prog, char *const *argv, const char *out_path,
                const char *err_path, const char *const *env);

#endif
