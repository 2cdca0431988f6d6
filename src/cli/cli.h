/*
 * cli.h -- the `lockstep` command's subcommands.  main.c holds the command
 * table; each subcommand lives in its own file (cmd_<name>.c) and is a
 * client of the public API like any other program.
 */
#ifndef LOCKSTEP_CLI_H
#define LOCKSTEP_CLI_H

typedef struct cli_command {
    const char *name;
    int (*run)(int argc, char **argv); /* argv[0] is the subcommand name */
    const char *summary;
} cli_command;

int cmd_version(int argc, char **argv);
int cmd_ptx(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_config(int argc, char **argv);
int cmd_detcheck(int argc, char **argv);
int cmd_litmus(int argc, char **argv);
int cmd_inject(int argc, char **argv);

#endif
