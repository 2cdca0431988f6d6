/*
 * cmd_config.c -- `lockstep config`: list the options, and load, check and
 * print a GPU configuration.
 *
 *   lockstep config --help                      every option: name, default, help
 *   lockstep config [--config FILE] [-O "-NAME VALUE"]... [--print | --json]
 *
 * The configuration is built the way `lockstep run` builds it: the
 * defaults, then FILE, then each -O in order.  A bad file or option prints
 * the loader's message (FILE:LINE: ...) and exits 2.  Without --print or
 * --json the command only checks, and says how many options differ from
 * the defaults; --print writes every option as a `-name value` line (the
 * output is itself a loadable config file, and loading it gives the same
 * configuration back); --json writes one object, option name (without the
 * leading '-') to value.
 *
 * Like every subcommand this is a client of include/lockstep.h: the option
 * table comes from lockstep_config_option(), values from
 * lockstep_config_get().  The headings that group the listing are the one
 * thing kept here (the API has no notion of groups); each names the option
 * that opens its group, so a heading whose option is gone is simply not
 * printed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "lockstep.h"
#include "util/strbuf.h"

/* Longest option value the loader accepts (its value buffer), with room. */
#define VALUE_MAX 1100
/* Defaults wider than this put the help text on the next line. */
#define DEF_COL_MAX 26

/* Group headings, in table order: the option that opens each group. */
static const struct {
    const char *first;
    const char *title;
} groups[] = {
    {"-lockstep_device_memory", "Functional model: device memory and limits"},
    {"-gpgpu_n_clusters", "GPU organisation"},
    {"-lockstep_mode", "Timing model: mode, modelled nondeterminism, clocks"},
    {"-gpgpu_shader_registers", "SM resources and warp scheduling"},
    {"-gpgpu_num_sp_units", "Functional units and latencies"},
    {"-gpgpu_shmem_num_banks", "Shared memory, L1 data, constant and texture caches"},
    {"-gpgpu_n_mem", "Memory partitions and L2"},
    {"-dram_latency", "DRAM"},
    {"-icnt_flit_size", "Interconnect"},
    {"-lockstep_deadlock_cycles", "Watchdog and engine checks"},
    {"-lockstep_redundancy", "Redundant execution: DMR (docs/RELIABILITY.md)"},
    {"-lockstep_fault_site", "Fault injection and program-wide limits (docs/RELIABILITY.md)"},
    {"-lockstep_trace", "Observation: trace and progress line"},
};

static void config_usage(FILE *f)
{
    fprintf(f,
            "usage: lockstep config [--config FILE] [-O \"-NAME VALUE\"]... [--print | --json]\n"
            "       lockstep config --help\n"
            "\n"
            "Loads and checks a GPU configuration: the defaults, then FILE (GPGPU-Sim option\n"
            "syntax: '-name value' lines, '#' comments), then each -O in order, exactly as\n"
            "`lockstep run` does.  Unknown options and bad values are errors (exit 2).\n"
            "\n"
            "options:\n"
            "  --config FILE       the configuration file (e.g. configs/gtx480.config)\n"
            "  -O, --option \"-NAME VALUE\"\n"
            "                      set one option (repeatable; applied after --config)\n"
            "  --print             print the effective configuration, every option, as a\n"
            "                      config file ('-name value' lines) that loads back\n"
            "  --json              print it as a JSON object, option name -> value\n"
            "                      (names without the leading '-')\n"
            "\n"
            "Without --print or --json it prints 'FILE: ok (N of M options differ from the\n"
            "defaults)'.\n");
}

/* The heading that opens at option name, or NULL. */
static const char *group_title(const char *name)
{
    for (size_t g = 0; g < sizeof groups / sizeof groups[0]; g++)
        if (!strcmp(groups[g].first, name))
            return groups[g].title;
    return NULL;
}

/* `lockstep config --help`: the usage, then every option with its default
 * and help, grouped, in three aligned columns. */
static void list_options(void)
{
    size_t n = lockstep_config_option_count(), wname = 0, wdef = 0;
    for (size_t i = 0; i < n; i++) {
        const lockstep_option_info *o = lockstep_config_option(i);
        size_t ln = strlen(o->name), ld = strlen(o->def);
        if (ln > wname)
            wname = ln;
        if (ld <= DEF_COL_MAX && ld > wdef)
            wdef = ld;
    }
    config_usage(stdout);
    printf("\n%zu options (name, default, help):\n", n);
    for (size_t i = 0; i < n; i++) {
        const lockstep_option_info *o = lockstep_config_option(i);
        const char *title = group_title(o->name);
        if (title)
            printf("\n%s\n", title);
        if (strlen(o->def) > wdef)
            printf("  %-*s  %s\n  %-*s  %-*s  %s\n", (int)wname, o->name, o->def, (int)wname, "",
                   (int)wdef, "", o->help);
        else
            printf("  %-*s  %-*s  %s\n", (int)wname, o->name, (int)wdef, o->def, o->help);
    }
}

/* Does a value need quotes to survive the config parser (blanks, '#')? */
static int needs_quotes(const char *v)
{
    return !*v || strpbrk(v, " \t\r\n#") != NULL;
}

/* --print: every option as a '-name value' line, grouped under comments. */
static int print_config(const lockstep_config *cfg)
{
    char value[VALUE_MAX];
    printf("# lockstep %s effective configuration (lockstep config --print)\n",
           lockstep_version());
    for (size_t i = 0; i < lockstep_config_option_count(); i++) {
        const lockstep_option_info *o = lockstep_config_option(i);
        if (lockstep_config_get(cfg, o->name, value, sizeof value) != LOCKSTEP_SUCCESS)
            return -1;
        const char *title = group_title(o->name);
        if (title)
            printf("\n# %s\n", title);
        if (needs_quotes(value))
            printf("%s \"%s\"\n", o->name, value);
        else
            printf("%s %s\n", o->name, value);
    }
    return 0;
}

/* Is v a plain unsigned decimal number (printable as a JSON number)? */
static int is_number(const char *v)
{
    if (!*v || (v[0] == '0' && v[1]))
        return 0;
    for (; *v; v++)
        if (*v < '0' || *v > '9')
            return 0;
    return 1;
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\')
            printf("\\%c", c);
        else if (c < 0x20)
            printf("\\u%04x", c);
        else
            putchar(c);
    }
    putchar('"');
}

/* --json: {"gpgpu_n_clusters": 15, ...}; integer options as numbers. */
static int print_json(const lockstep_config *cfg)
{
    char value[VALUE_MAX];
    size_t n = lockstep_config_option_count();
    printf("{\n");
    for (size_t i = 0; i < n; i++) {
        const lockstep_option_info *o = lockstep_config_option(i);
        if (lockstep_config_get(cfg, o->name, value, sizeof value) != LOCKSTEP_SUCCESS)
            return -1;
        printf("  ");
        json_string(o->name[0] == '-' ? o->name + 1 : o->name);
        printf(": ");
        if (strcmp(o->type, "string") && is_number(value))
            printf("%s", value);
        else
            json_string(value);
        printf("%s\n", i + 1 < n ? "," : "");
    }
    printf("}\n");
    return 0;
}

/* How many options of cfg differ from the defaults; -1 on failure. */
static long count_changed(const lockstep_config *cfg)
{
    lockstep_config *def;
    if (lockstep_config_create(&def) != LOCKSTEP_SUCCESS)
        return -1;
    char a[VALUE_MAX], b[VALUE_MAX];
    long changed = 0;
    for (size_t i = 0; i < lockstep_config_option_count(); i++) {
        const char *name = lockstep_config_option(i)->name;
        if (lockstep_config_get(cfg, name, a, sizeof a) != LOCKSTEP_SUCCESS ||
            lockstep_config_get(def, name, b, sizeof b) != LOCKSTEP_SUCCESS) {
            changed = -1;
            break;
        }
        changed += strcmp(a, b) != 0;
    }
    lockstep_config_destroy(def);
    return changed;
}

/* `lockstep config ...`: exit 0 ok, 1 out of memory, 2 bad usage or a bad
 * configuration.  Every exit goes through `done`, which frees what was made. */
int cmd_config(int argc, char **argv)
{
    const char *file = NULL;
    int print = 0, json = 0, rc = 2;
    strbuf options = STRBUF_INIT;
    lockstep_config *cfg = NULL;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            list_options();
            rc = 0;
            goto done;
        }
        if (!strcmp(a, "--print")) {
            print = 1;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if (!strcmp(a, "--config") || !strcmp(a, "-O") || !strcmp(a, "--option")) {
            if (i + 1 >= argc) {
                fprintf(stderr, "lockstep config: %s needs a value\n", a);
                goto done;
            }
            if (!strcmp(a, "--config")) {
                file = argv[++i];
            } else {
                sb_puts(&options, argv[++i]);
                sb_putc(&options, '\n');
            }
        } else {
            fprintf(stderr, "lockstep config: unknown option '%s' (see lockstep config --help)\n",
                    a);
            goto done;
        }
    }
    if (print && json) {
        fprintf(stderr, "lockstep config: --print and --json exclude each other\n");
        goto done;
    }

    if (lockstep_config_create(&cfg) != LOCKSTEP_SUCCESS) {
        fprintf(stderr, "lockstep config: out of host memory\n");
        rc = 1;
        goto done;
    }
    /* the same order as lockstep run: file first, then the -O options */
    if ((file && lockstep_config_load_file(cfg, file) != LOCKSTEP_SUCCESS) ||
        (options.len &&
         lockstep_config_parse(cfg, sb_cstr(&options), options.len, "--option") !=
             LOCKSTEP_SUCCESS) ||
        lockstep_config_validate(cfg) != LOCKSTEP_SUCCESS) {
        fprintf(stderr, "lockstep config: %s\n", lockstep_config_last_error(cfg));
        goto done;
    }

    if (print || json) {
        rc = (print ? print_config(cfg) : print_json(cfg)) ? 1 : 0;
        if (rc)
            fprintf(stderr, "lockstep config: an option value is too long to print\n");
        goto done;
    }
    long changed = count_changed(cfg);
    if (changed < 0) {
        fprintf(stderr, "lockstep config: cannot compare with the defaults\n");
        rc = 1;
        goto done;
    }
    printf("%s%s: ok (%ld of %zu options differ from the defaults)\n",
           file ? file : "defaults", options.len ? " with -O" : "", changed,
           lockstep_config_option_count());
    rc = 0;
done:
    lockstep_config_destroy(cfg);
    sb_free(&options);
    return rc;
}
