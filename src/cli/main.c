/*
 * main.c -- the `lockstep` command: global options and the command table.
 * Later issues add rows (sweep).
 * Exit status: 0 success, 1 the work failed (errors found, a kernel
 * faulted), 2 bad usage.
 */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"
#include "lockstep.h"

static const cli_command commands[] = {
    {"config", cmd_config, "list the options; load, check and print a GPU configuration"},
    {"detcheck", cmd_detcheck,
     "run a CUDA program under several nondeterminism seeds: is its result the same?"},
    {"inject", cmd_inject,
     "fault-injection campaigns: classify faulty runs, store them in SQLite, report"},
    {"litmus", cmd_litmus,
     "run GPU litmus tests on the timing model: histograms, SC classification, CUDA programs"},
    {"ptx", cmd_ptx, "check PTX files: parse, decode and list kernels (lockstep ptx check FILE...)"},
    {"run", cmd_run, "run a CUDA program (built with nvcc -cudart shared) on the simulator"},
    {"version", cmd_version, "print lockstep's version"},
};

static void usage(FILE *f)
{
    fprintf(f,
            "usage: lockstep [--help] [--version] <command> [<args>]\n"
            "\n"
            "lockstep is a deterministic, cycle-level GPU architecture simulator that runs\n"
            "the PTX nvcc emits.\n"
            "\n"
            "commands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        fprintf(f, "  %-10s %s\n", commands[i].name, commands[i].summary);
    fprintf(f, "\n'lockstep <command> --help' describes a command.\n");
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (!strcmp(cmd, "--help") || !strcmp(cmd, "-h") || !strcmp(cmd, "help")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(cmd, "--version"))
        cmd = "version";
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, cmd))
            return commands[i].run(argc - 1, argv + 1);
    fprintf(stderr, "lockstep: '%s' is not a command (see 'lockstep --help')\n", cmd);
    return 2;
}
