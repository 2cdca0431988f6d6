/*
 * inject_job.h -- the pieces of `lockstep inject` that know about faults
 * (cmd_inject.c drives them through the campaign runner, src/campaign):
 * the sites and models, the fault each job injects (a pure function of
 * the campaign seed and the job's index), the `lockstep run` command line
 * of a faulty run, the injector's report line, and the classification of
 * a run against the golden run.  docs/RELIABILITY.md, "Fault-injection
 * campaigns", describes them for users.
 *
 * The contract with the in-simulator injector: a faulty run is
 *
 *   lockstep run [run options] --no-stats --no-progress
 *       -O "-lockstep_fault_site SITE" -O "-lockstep_fault_model MODEL"
 *       -O "-lockstep_fault_at N" -O "-lockstep_fault_seed S"
 *       -O "-lockstep_max_program_cycles C" -- PROGRAM ARGS...
 *
 * (in functional mode the bound is -lockstep_max_program_warp_insts)
 *
 * with LOCKSTEP_FAULT_REPORT=FILE (the runtime writes one JSON line there
 * at exit) and LOCKSTEP_DET_RECORD=FILE (the determinism record) in its
 * environment; the golden run is the same with only
 * -O "-lockstep_fault_site none" -O "-lockstep_ace 1": it also runs the ACE
 * lifetime analysis, whose result the runtime adds to the report line as
 * its "ace" object (docs/RELIABILITY.md, "ACE lifetime analysis").
 */
#ifndef LOCKSTEP_CLI_INJECT_JOB_H
#define LOCKSTEP_CLI_INJECT_JOB_H

#include <stddef.h>
#include <stdint.h>

#include "cli/runrec.h"
#include "util/strbuf.h"

/* The injector's option names (-O "-NAME VALUE" of lockstep run). */
#define INJ_OPT_SITE "-lockstep_fault_site"
#define INJ_OPT_MODEL "-lockstep_fault_model"
#define INJ_OPT_AT "-lockstep_fault_at"
#define INJ_OPT_SEED "-lockstep_fault_seed"
#define INJ_OPT_BOUND "-lockstep_max_program_cycles"            /* timing mode */
#define INJ_OPT_BOUND_INSTS "-lockstep_max_program_warp_insts" /* functional mode */
#define INJ_OPT_ACE "-lockstep_ace"                             /* the golden run's */
#define INJ_ENV_REPORT "LOCKSTEP_FAULT_REPORT"
#define INJ_ENV_RECORD "LOCKSTEP_DET_RECORD"

enum { INJ_MAX_SITES = 16, INJ_MAX_MODELS = 8 };

/* Outcomes (docs/RELIABILITY.md, "Outcomes").  The values are stored in
 * the results file (run.outcome_code): new ones are appended, never
 * renumbered.  inj_classify decides them in the order error, detected,
 * hang, due, sdc, corrected, then masked or perf. */
typedef enum inj_outcome {
    INJ_MASKED = 0, /* same output, same cycles */
    INJ_SDC,        /* the output differs from the golden run's */
    INJ_DUE,        /* a kernel fault or trap, an error exit, a crash */
    INJ_HANG,       /* ran into the bound: K x the golden run's cycles */
    INJ_PERF,       /* same output, different cycles */
    INJ_ERROR,      /* the run never reached the simulator: no record at all */
    INJ_CORRECTED,  /* same output, and redundant execution found and repaired a mismatch */
    INJ_DETECTED,   /* redundant execution found a mismatch it could not correct: a
                       launch ended with LOCKSTEP_ERROR_REDUNDANCY */
    INJ_NOUTCOMES
} inj_outcome;

/* The outcomes in the order the report shows them: masked sdc due hang
 * perf corrected detected error. */
extern const inj_outcome inj_outcome_order[INJ_NOUTCOMES];

const char *inj_outcome_name(inj_outcome o);

/* Every site and model the injector knows, NULL-ended. */
extern const char *const inj_sites[];
extern const char *const inj_models[];

/* Parse "all", a name, or a comma-separated list of names from `known`
 * into out[] (indices into known); the count, or -1 with the offending
 * name in bad. */
int inj_parse_list(const char *arg, const char *const *known, int *out, int max, char *bad,
                   size_t badlen);

/* A campaign's fault space. */
typedef struct inj_space {
    int sites[INJ_MAX_SITES], nsites;
    int models[INJ_MAX_MODELS], nmodels;
    uint64_t seed;  /* the campaign's */
    uint64_t total; /* the golden run's cycles (timing) or warp instructions (functional) */
} inj_space;

/* One job's fault. */
typedef struct inj_fault {
    uint64_t index, job_seed;
    const char *site, *model;
    uint64_t at;         /* uniform in [0, total) */
    uint64_t fault_seed; /* for the injector's own choices (lane, bit, ...) */
} inj_fault;

/* Job `index`'s fault: sites round robin (index mod the number of sites),
 * then models (index / sites mod the number of models), `at` and the
 * fault seed drawn from the job's own stream. */
inj_fault inj_fault_for(const inj_space *sp, uint64_t index);

/* The argv (NULL-ended, into argv[0 .. max-1]) of one run: "lockstep",
 * "run", the run options, --no-stats --no-progress, the fault's -O
 * options (f NULL: the golden run, site none), the bound (0: none; in
 * warp instructions when functional, else cycles), "--",
 * the program and its arguments.  Strings that are not the caller's are
 * kept in *owned (free with inj_argv_free).  The count, or -1 when max is
 * too small or memory ran out. */
int inj_build_argv(char **argv, int max, char *const *run_opts, int nrun_opts,
                   const inj_fault *f, uint64_t bound, int functional, char *const *prog,
                   int nprog, char ***owned, int *nowned);
void inj_argv_free(char **owned, int nowned);

/* The injector's report line. */
typedef struct inj_report {
    int valid; /* a JSON object was read */
    int landed; /* -1: not said */
    int64_t cycle, warp_inst, total_cycles, total_warp_insts; /* -1: not said */
    /* redundant execution's totals over the program, said only when it is
     * on ("redundancy":"dmr"); -1: not said */
    int64_t dmr_mismatches, dmr_reissues;
    char site[32], model[32], redundancy[16]; /* redundancy "": not said */
    char *json; /* the line itself (malloc'd), NULL when not valid */
} inj_report;

/* Read the first line of path; 0 with r->valid set when it held a JSON
 * object, -1 when the file is missing or the line is not one (r zeroed,
 * numbers -1). */
int inj_report_read(const char *path, inj_report *r);
/* The same from a string. */
int inj_report_parse(const char *line, inj_report *r);
void inj_report_free(inj_report *r);

/* The ACE analysis's AVF per structure from a golden run's report line
 * (its "ace" object): reg, pred, shared in that order. */
enum { INJ_ACE_REG, INJ_ACE_PRED, INJ_ACE_SHARED, INJ_ACE_N };
typedef struct inj_ace {
    int valid;                    /* the line has an "ace" object */
    int functional;               /* its time base is warp instructions */
    int has[INJ_ACE_N];           /* the structure is there */
    double avf_alloc[INJ_ACE_N];  /* over the allocated structure */
    double avf_cfg[INJ_ACE_N];    /* over the configured one; -1: not given */
} inj_ace;
extern const char *const inj_ace_structs[INJ_ACE_N]; /* "reg", "pred", "shared" */
/* The injection site that corresponds to each structure ("reg_any", ...). */
extern const char *const inj_ace_sites[INJ_ACE_N];

/* Parse the "ace" object of a report line (NULL: none); 0 with a->valid
 * set, or -1 when there is none (a zeroed). */
int inj_ace_parse(const char *line, inj_ace *a);

/* What the golden run gave. */
typedef struct inj_golden {
    uint64_t output_hash;
    int64_t cycles, warp_insts;
    int functional; /* compare warp instructions instead of cycles */
} inj_golden;

/* Everything known about one finished run. */
typedef struct inj_run {
    int have_record; /* the determinism record exists and reads */
    int exit_status; /* lockstep run's (the program's), 128 + signal */
    int ended;       /* the record's end mark */
    int launch_faults; /* launches with a non-zero status */
    int redundancy_faults; /* of them, with LOCKSTEP_ERROR_REDUNDANCY */
    uint64_t output_hash;
    int64_t cycles, warp_insts; /* -1: unknown */
    int64_t dmr_mismatches, dmr_reissues; /* over the program; -1: unknown */
} inj_run;

/* The facts of a run from its record (already read) and report. */
void inj_run_facts(const run_rec *rec, int have_record, const inj_report *rep, inj_run *out);

/* Classify a run against the golden run with the hang bound (in cycles,
 * or warp instructions in functional mode; 0: none): error (no record),
 * detected (a launch failed with LOCKSTEP_ERROR_REDUNDANCY), hang (at the
 * bound), due (an error exit, a crash, a launch fault), sdc (another
 * output), corrected (the same output, dmr_mismatches > 0), masked (the
 * same cycles, or either unknown) or perf. */
inj_outcome inj_classify(const inj_golden *g, const inj_run *r, uint64_t bound);

/* Append s as a JSON string. */
void inj_json_str(strbuf *sb, const char *s);

#endif
