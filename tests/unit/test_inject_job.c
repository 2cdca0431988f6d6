/*
 * test_inject_job.c -- the pieces of `lockstep inject` apart from any
 * simulator (src/cli/inject_job.c, src/cli/runrec.c): site and model
 * lists, the fault of each job (a pure function of seed and index), the
 * exact `lockstep run` command line of the golden and the faulty runs,
 * the injector's report line (the contract's example, absent fields,
 * nested values, garbage), the determinism record and output hash, and
 * the classification of every outcome, redundant execution's corrected
 * and detected included.
 */
#include <unistd.h>

#include "cli/inject_job.h"
#include "cli/runrec.h"
#include "lockstep.h"
#include "test.h"

static void test_lists(void)
{
    int v[INJ_MAX_SITES];
    char bad[32];
    /* (every site; lockstep inject leaves dmr_log out without --redundancy dmr) */
    CHECK_EQ_INT(inj_parse_list("all", inj_sites, v, INJ_MAX_SITES, bad, sizeof bad), 15);
    CHECK_EQ_INT(inj_parse_list("all", inj_models, v, INJ_MAX_MODELS, bad, sizeof bad), 4);
    CHECK_EQ_INT(inj_parse_list("dram,reg_live", inj_sites, v, INJ_MAX_SITES, bad, sizeof bad), 2);
    CHECK(!strcmp(inj_sites[v[0]], "dram") && !strcmp(inj_sites[v[1]], "reg_live"));
    CHECK_EQ_INT(inj_parse_list("dram,regs", inj_sites, v, INJ_MAX_SITES, bad, sizeof bad), -1);
    CHECK(!strcmp(bad, "regs"));
    CHECK_EQ_INT(inj_parse_list("bit1,bit1", inj_models, v, INJ_MAX_MODELS, bad, sizeof bad), -1);
    CHECK_EQ_INT(inj_parse_list("", inj_models, v, INJ_MAX_MODELS, bad, sizeof bad), -1);
    CHECK_EQ_INT(inj_parse_list("bit1,", inj_models, v, INJ_MAX_MODELS, bad, sizeof bad), -1);
}

static void test_faults(void)
{
    inj_space sp = {.nsites = 3, .nmodels = 2, .seed = 9, .total = 1000};
    sp.sites[0] = 0, sp.sites[1] = 4, sp.sites[2] = 7;
    sp.models[0] = 0, sp.models[1] = 3;
    int differ = 0;
    for (uint64_t i = 0; i < 60; i++) {
        inj_fault a = inj_fault_for(&sp, i), b = inj_fault_for(&sp, i);
        CHECK(a.at == b.at && a.fault_seed == b.fault_seed && a.job_seed == b.job_seed);
        CHECK(a.at < 1000);
        CHECK(!strcmp(a.site, inj_sites[sp.sites[i % 3]]));
        CHECK(!strcmp(a.model, inj_models[sp.models[(i / 3) % 2]]));
        inj_space other = sp;
        other.seed = 10;
        differ += inj_fault_for(&other, i).at != a.at;
    }
    CHECK(differ > 50);
}

static void test_argv(void)
{
    char *opts[] = {"--config", "x.config", "--threads", "1"};
    char *prog[] = {"./app", "a b"};
    char *argv[40];
    char **owned;
    int nowned;
    int n = inj_build_argv(argv, 40, opts, 4, NULL, 0, 0, prog, 2, &owned, &nowned);
    const char *want_golden[] = {"lockstep", "run", "--config", "x.config", "--threads", "1",
                                 "--no-stats", "--no-progress", "-O", "-lockstep_fault_site none",
                                 "-O", "-lockstep_ace 1", "--", "./app", "a b"};
    CHECK_EQ_INT(n, 15);
    for (int k = 0; k < n && k < 15; k++)
        CHECK_MSG(!strcmp(argv[k], want_golden[k]), "golden argv[%d] = '%s'", k, argv[k]);
    CHECK(argv[n] == NULL);
    inj_argv_free(owned, nowned);
    inj_fault f = {3, 77, "reg_live", "bit2", 1234, 5678};
    n = inj_build_argv(argv, 40, opts, 4, &f, 99999, 0, prog, 2, &owned, &nowned);
    const char *want[] = {"lockstep", "run", "--config", "x.config", "--threads", "1",
                          "--no-stats", "--no-progress",
                          "-O", "-lockstep_fault_site reg_live", "-O", "-lockstep_fault_model bit2",
                          "-O", "-lockstep_fault_at 1234", "-O", "-lockstep_fault_seed 5678",
                          "-O", "-lockstep_max_program_cycles 99999", "--", "./app", "a b"};
    CHECK_EQ_INT(n, 21);
    for (int k = 0; k < n && k < 21; k++)
        CHECK_MSG(!strcmp(argv[k], want[k]), "argv[%d] = '%s'", k, argv[k]);
    inj_argv_free(owned, nowned);
    CHECK_EQ_INT(inj_build_argv(argv, 10, opts, 4, &f, 1, 0, prog, 2, &owned, &nowned), -1);
}

static void test_report(void)
{
    inj_report r;
    const char *line =
        "{\"site\":\"reg_live\",\"model\":\"bit1\",\"at\":120,\"seed\":7,\"landed\":1,"
        "\"cycle\":130,\"warp_inst\":55,\"launch\":0,\"kernel\":\"k\\\"x\",\"sm\":2,"
        "\"cta\":[1,0,0],\"warp\":3,\"lane\":17,\"target\":\"%r5\",\"addr\":\"0x10\",\"bit\":4,"
        "\"old\":\"0x1\",\"new\":\"0x11\",\"total_cycles\":5000,\"total_warp_insts\":900,"
        "\"launches\":1}\n";
    CHECK_EQ_INT(inj_report_parse(line, &r), 0);
    CHECK(r.valid && r.landed == 1 && r.cycle == 130 && r.warp_inst == 55);
    CHECK(r.total_cycles == 5000 && r.total_warp_insts == 900);
    CHECK(!strcmp(r.site, "reg_live") && !strcmp(r.model, "bit1"));
    CHECK(r.json && !strchr(r.json, '\n'));
    inj_report_free(&r);
    /* fields absent, landed false, nested values and other types skipped */
    CHECK_EQ_INT(inj_report_parse("{\"site\":\"dram\",\"landed\":false,\"x\":{\"y\":[1,{\"z\":null}]},"
                                  "\"f\":-1.5e3,\"t\":true}", &r), 0);
    CHECK(r.landed == 0 && r.cycle == -1 && r.total_cycles == -1);
    inj_report_free(&r);
    CHECK_EQ_INT(inj_report_parse(" {} ", &r), 0);
    CHECK(r.valid && r.landed == -1);
    CHECK(r.dmr_mismatches == -1 && r.dmr_reissues == -1 && !r.redundancy[0]);
    inj_report_free(&r);
    /* redundant execution's totals, said when it is on */
    CHECK_EQ_INT(inj_report_parse("{\"site\":\"reg_live\",\"landed\":1,\"total_cycles\":900,"
                                  "\"total_warp_insts\":40,\"launches\":2,\"redundancy\":\"dmr\","
                                  "\"dmr_mismatches\":3,\"dmr_reissues\":2}", &r), 0);
    CHECK(r.valid && r.total_cycles == 900 && !strcmp(r.redundancy, "dmr"));
    CHECK(r.dmr_mismatches == 3 && r.dmr_reissues == 2 && !strcmp(r.site, "reg_live"));
    inj_report_free(&r);
    static const char *const bad[] = {"", "[]", "{", "{\"a\":}", "{\"a\":1,}", "{\"a\" 1}",
                                      "{\"a\":1} x", "{\"a\":\"\\q\"}", "{\"a\":tru}",
                                      "{\"cycle\":\"x\"", "nonsense"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        CHECK_MSG(inj_report_parse(bad[k], &r) == -1, "'%s' was taken", bad[k]);
        CHECK(!r.valid && !r.json);
    }
    /* deep nesting is refused, not recursed into without end */
    char deep[200];
    memset(deep, '[', sizeof deep);
    memcpy(deep, "{\"a\":", 5);
    deep[sizeof deep - 1] = 0;
    CHECK_EQ_INT(inj_report_parse(deep, &r), -1);
    CHECK_EQ_INT(inj_report_read("/nonexistent/report.json", &r), -1);
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
}

/* The golden run's ACE estimate in its report line. */
static void test_ace(void)
{
    const char *line =
        "{\"site\":\"none\",\"landed\":0,\"total_cycles\":10,\"ace\":{\"time_base\":\"cycles\","
        "\"run_time\":10,\"launches\":1,\"complete\":1,\"reg\":{\"ace_bit_time\":5,"
        "\"allocated_bit_time\":10,\"avf_allocated\":0.500000,\"configured_bits\":4,"
        "\"avf_configured\":0.125000},\"pred\":{\"ace_bit_time\":1,\"allocated_bit_time\":4,"
        "\"avf_allocated\":0.250000},\"shared\":{\"ace_bit_time\":0,\"allocated_bit_time\":0,"
        "\"avf_allocated\":0.000000,\"configured_bits\":8,\"avf_configured\":0.000000}}}";
    inj_ace a;
    CHECK_EQ_INT(inj_ace_parse(line, &a), 0);
    CHECK(a.valid && !a.functional);
    CHECK(a.has[INJ_ACE_REG] && a.has[INJ_ACE_PRED] && a.has[INJ_ACE_SHARED]);
    CHECK(a.avf_alloc[INJ_ACE_REG] == 0.5 && a.avf_cfg[INJ_ACE_REG] == 0.125);
    CHECK(a.avf_alloc[INJ_ACE_PRED] == 0.25 && a.avf_cfg[INJ_ACE_PRED] == -1);
    CHECK(a.avf_alloc[INJ_ACE_SHARED] == 0 && a.avf_cfg[INJ_ACE_SHARED] == 0);
    CHECK(!strcmp(inj_ace_sites[INJ_ACE_REG], "reg_any"));
    /* the report still parses with the object in it */
    inj_report r;
    CHECK_EQ_INT(inj_report_parse(line, &r), 0);
    CHECK(r.valid && r.total_cycles == 10 && r.landed == 0);
    inj_report_free(&r);
    CHECK_EQ_INT(inj_ace_parse("{\"site\":\"none\"}", &a), -1);
    CHECK(!a.valid);
    CHECK_EQ_INT(inj_ace_parse(NULL, &a), -1);
    CHECK_EQ_INT(inj_ace_parse("{\"ace\":{\"time_base\":\"warp_insts\"}}", &a), 0);
    CHECK(a.valid && a.functional && !a.has[INJ_ACE_REG]);
}

static void test_record_and_classify(void)
{
    char dir[200];
    snprintf(dir, sizeof dir, "%s/lockstep-test-inject-%d", getenv("TMPDIR") ? getenv("TMPDIR") :
             "/tmp", (int)getpid());
    run_rec r;
    memset(&r, 0, sizeof r);
    snprintf(r.rec_path, sizeof r.rec_path, "%s.rec", dir);
    write_file(r.rec_path, "lockstep-det-record 1\nlaunch 0 0 700 00000000000000aa k1\n"
                           "launch 1 0 300 00000000000000bb k2\ncopy 0 16 00000000000000c0 -1\n"
                           "end\n");
    CHECK_EQ_INT(runrec_read(&r), 0);
    CHECK(r.ended && r.nlaunches == 2 && r.ncopies == 1);
    r.stdout_hash = 5;
    inj_report rep;
    CHECK_EQ_INT(inj_report_parse("{\"total_cycles\":1000,\"total_warp_insts\":40}", &rep), 0);
    inj_run g;
    inj_run_facts(&r, 1, &rep, &g);
    CHECK(g.cycles == 1000 && g.warp_insts == 40 && g.ended && !g.launch_faults);
    inj_golden gold = {g.output_hash, g.cycles, g.warp_insts, 0};
    inj_golden fgold = {g.output_hash, g.cycles, g.warp_insts, 1};
    CHECK_EQ_INT(inj_classify(&gold, &g, 10000), INJ_MASKED);
    /* the output hash: stdout and copies count */
    uint64_t h = runrec_output_hash(&r);
    r.stdout_hash = 6;
    CHECK(runrec_output_hash(&r) != h);
    r.stdout_hash = 5;
    r.copies[0] ^= 1;
    CHECK(runrec_output_hash(&r) != h);
    r.copies[0] ^= 1;
    inj_run x = g;
    x.output_hash ^= 1;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_SDC);
    x = g;
    x.cycles = 1001;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_PERF);
    CHECK_EQ_INT(inj_classify(&fgold, &x, 400), INJ_MASKED); /* functional: warp insts count */
    x.warp_insts = 41;
    CHECK_EQ_INT(inj_classify(&fgold, &x, 400), INJ_PERF);
    x.warp_insts = 400;
    CHECK_EQ_INT(inj_classify(&fgold, &x, 400), INJ_HANG);
    x = g;
    x.cycles = 10000;
    x.exit_status = 1;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_HANG); /* the bound before the error */
    x = g;
    x.exit_status = 1;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_DUE);
    x = g;
    x.launch_faults = 1;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_DUE);
    x = g;
    x.ended = 0;
    x.exit_status = 128 + 11;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_DUE);
    x = g;
    x.have_record = 0;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_ERROR);
    /* a faulting launch in the record; no report: cycles from the record */
    runrec_free(&r);
    write_file(r.rec_path, "lockstep-det-record 1\nlaunch 0 719 700 00000000000000aa k1\nend\n");
    CHECK_EQ_INT(runrec_read(&r), 0);
    inj_report_free(&rep);
    CHECK_EQ_INT(inj_report_read("/nonexistent", &rep), -1);
    inj_run_facts(&r, 1, &rep, &x);
    CHECK(x.launch_faults == 1 && x.cycles == 700 && x.warp_insts == -1);
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_DUE);
    runrec_free(&r);
    /* not a record */
    write_file(r.rec_path, "something else\n");
    CHECK_EQ_INT(runrec_read(&r), -1);
    runrec_free(&r);
    unlink(r.rec_path);
    CHECK_EQ_INT(runrec_read(&r), -1);
    for (int o = 0; o < INJ_NOUTCOMES; o++)
        CHECK(strcmp(inj_outcome_name((inj_outcome)o), "?"));
    CHECK(!strcmp(inj_outcome_name(INJ_NOUTCOMES), "?"));
    strbuf sb = STRBUF_INIT;
    inj_json_str(&sb, "a\"b\\c\n");
    CHECK(!strcmp(sb_cstr(&sb), "\"a\\\"b\\\\c\\u000a\""));
    sb_free(&sb);
}

/* Redundant execution's outcomes: corrected and detected, from the facts of
 * a run (its record's launch statuses, its report's DMR totals). */
static void test_redundancy_outcomes(void)
{
    /* the codes are stored in results files: the old ones never move, the
     * new ones come after them */
    CHECK_EQ_INT(INJ_MASKED, 0);
    CHECK_EQ_INT(INJ_SDC, 1);
    CHECK_EQ_INT(INJ_DUE, 2);
    CHECK_EQ_INT(INJ_HANG, 3);
    CHECK_EQ_INT(INJ_PERF, 4);
    CHECK_EQ_INT(INJ_ERROR, 5);
    CHECK_EQ_INT(INJ_CORRECTED, 6);
    CHECK_EQ_INT(INJ_DETECTED, 7);
    CHECK(!strcmp(inj_outcome_name(INJ_CORRECTED), "corrected"));
    CHECK(!strcmp(inj_outcome_name(INJ_DETECTED), "detected"));
    /* the report's order shows every outcome once */
    int seen[INJ_NOUTCOMES] = {0};
    for (int k = 0; k < INJ_NOUTCOMES; k++)
        if ((unsigned)inj_outcome_order[k] < INJ_NOUTCOMES)
            seen[inj_outcome_order[k]]++;
    for (int o = 0; o < INJ_NOUTCOMES; o++)
        CHECK_MSG(seen[o] == 1, "outcome %d shown %d times", o, seen[o]);
    CHECK_EQ_INT(inj_outcome_order[0], INJ_MASKED);
    CHECK_EQ_INT(inj_outcome_order[INJ_NOUTCOMES - 1], INJ_ERROR);

    inj_golden gold = {0x1234, 1000, 40, 0};
    inj_run ok;
    memset(&ok, 0, sizeof ok);
    ok.have_record = 1;
    ok.ended = 1;
    ok.output_hash = 0x1234;
    ok.cycles = 1000;
    ok.warp_insts = 40;
    ok.dmr_mismatches = ok.dmr_reissues = 0;
    CHECK_EQ_INT(inj_classify(&gold, &ok, 10000), INJ_MASKED);
    /* no DMR totals in the report (redundancy off): as before */
    inj_run x = ok;
    x.dmr_mismatches = x.dmr_reissues = -1;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_MASKED);
    x.cycles = 1100;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_PERF);
    /* corrected: the golden output after a mismatch, whatever the cycles */
    x = ok;
    x.dmr_mismatches = x.dmr_reissues = 1;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_CORRECTED);
    x.cycles = 1400; /* the reissue costs cycles: still corrected, not perf */
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_CORRECTED);
    /* ... but another output is an SDC, mismatch or not */
    x.output_hash ^= 1;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_SDC);
    /* ... an error exit or a launch fault a DUE, the bound a hang */
    x = ok;
    x.dmr_mismatches = 1;
    x.exit_status = 1;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_DUE);
    x = ok;
    x.dmr_mismatches = 1;
    x.launch_faults = 1;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_DUE);
    x = ok;
    x.dmr_mismatches = 1;
    x.cycles = 10000;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_HANG);
    /* detected: a launch failed with LOCKSTEP_ERROR_REDUNDANCY; decided
     * before due, hang and the output */
    x = ok;
    x.launch_faults = x.redundancy_faults = 1;
    x.dmr_mismatches = 1;
    x.exit_status = 2;
    x.output_hash ^= 1;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_DETECTED);
    x.cycles = 10000;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_DETECTED);
    x.ended = 0;
    x.exit_status = 128 + 6;
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_DETECTED);
    x.have_record = 0; /* no record: nothing is known */
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_ERROR);

    /* the facts from a record and a report line as the runtime writes them */
    char path[200];
    snprintf(path, sizeof path, "%s/lockstep-test-inject-dmr-%d.rec",
             getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp", (int)getpid());
    run_rec r;
    memset(&r, 0, sizeof r);
    snprintf(r.rec_path, sizeof r.rec_path, "%s", path);
    char text[300];
    snprintf(text, sizeof text,
             "lockstep-det-record 1\nlaunch 0 0 700 00000000000000aa k1\n"
             "launch 1 %d 300 00000000000000bb k2\ncopy 0 16 00000000000000c0 -1\nend\n",
             (int)LOCKSTEP_ERROR_REDUNDANCY);
    write_file(path, text);
    CHECK_EQ_INT(runrec_read(&r), 0);
    inj_report rep;
    CHECK_EQ_INT(inj_report_parse("{\"total_cycles\":1000,\"total_warp_insts\":40,\"launches\":2,"
                                  "\"redundancy\":\"dmr\",\"dmr_mismatches\":2,\"dmr_reissues\":1}",
                                  &rep), 0);
    inj_run_facts(&r, 1, &rep, &x);
    CHECK(x.launch_faults == 1 && x.redundancy_faults == 1);
    CHECK(x.dmr_mismatches == 2 && x.dmr_reissues == 1);
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_DETECTED);
    runrec_free(&r);
    /* another kernel fault is an ordinary DUE */
    snprintf(text, sizeof text,
             "lockstep-det-record 1\nlaunch 0 %d 700 00000000000000aa k1\nend\n",
             (int)LOCKSTEP_ERROR_ILLEGAL_ADDRESS);
    write_file(path, text);
    CHECK_EQ_INT(runrec_read(&r), 0);
    inj_run_facts(&r, 1, &rep, &x);
    CHECK(x.launch_faults == 1 && x.redundancy_faults == 0);
    CHECK_EQ_INT(inj_classify(&gold, &x, 10000), INJ_DUE);
    runrec_free(&r);
    /* a clean run with a reissue in it: corrected */
    write_file(path, "lockstep-det-record 1\nlaunch 0 0 1000 00000000000000aa k1\nend\n");
    CHECK_EQ_INT(runrec_read(&r), 0);
    r.stdout_hash = 5;
    inj_run_facts(&r, 1, &rep, &x);
    inj_golden g2 = {x.output_hash, 900, 40, 0};
    CHECK(!x.launch_faults && !x.redundancy_faults && x.cycles == 1000);
    CHECK_EQ_INT(inj_classify(&g2, &x, 10000), INJ_CORRECTED);
    inj_report_free(&rep);
    /* the same run without the DMR totals: perf */
    CHECK_EQ_INT(inj_report_parse("{\"total_cycles\":1000,\"total_warp_insts\":40}", &rep), 0);
    inj_run_facts(&r, 1, &rep, &x);
    CHECK(x.dmr_mismatches == -1);
    CHECK_EQ_INT(inj_classify(&g2, &x, 10000), INJ_PERF);
    inj_report_free(&rep);
    runrec_free(&r);
    unlink(path);
}

int main(void)
{
    RUN(test_lists);
    RUN(test_faults);
    RUN(test_argv);
    RUN(test_report);
    RUN(test_ace);
    RUN(test_record_and_classify);
    RUN(test_redundancy_outcomes);
    return test_summary();
}
