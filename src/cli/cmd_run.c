/*
 * cmd_run.c -- `lockstep run [options] -- PROGRAM [ARGS...]`: run an
 * unmodified CUDA program on the simulator.
 *
 * The program is run with lockstep's libcudart.so.13 first on its library
 * path, so its CUDA runtime calls reach the simulator; options travel to
 * the library in environment variables (LOCKSTEP_CONFIG, LOCKSTEP_OPTIONS,
 * LOCKSTEP_STATS, LOCKSTEP_STATS_JSON).  Before starting it, the program's
 * ELF file is checked: one linked with the static CUDA runtime (nvcc's
 * default) cannot be redirected, and gets told to rebuild with
 * `nvcc -cudart shared`.  lockstep's exit status is the program's.
 */
#define _DEFAULT_SOURCE
#include <elf.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli/cli.h"
#include "lockstep.h"
#include "util/strbuf.h"

static void run_usage(FILE *f)
{
    fprintf(f,
            "usage: lockstep run [options] -- PROGRAM [ARGS...]\n"
            "\n"
            "Runs a CUDA program built with `nvcc -cudart shared` on the simulated GPU.\n"
            "The program's exit status is lockstep's.\n"
            "\n"
            "options:\n"
            "  --config FILE       GPU configuration (GPGPU-Sim option syntax)\n"
            "  -O, --option \"-NAME VALUE\"\n"
            "                      set one option (repeatable; after --config)\n"
            "  --functional        functional mode: the fast emulator, sequentially consistent\n"
            "  --timing            the cycle-level timing model (the default)\n"
            "  --nondet-seed S     seed of the modelled hardware nondeterminism (default 0)\n"
            "  --trace FILE        write a Chrome trace of the timing model (open it in\n"
            "                      https://ui.perfetto.dev): kernels, CTAs per SM, per-SM\n"
            "                      issue rate and stalls\n"
            "  --no-progress       no progress line (printed on a terminal during long launches)\n"
            "  --stats FILE        write the statistics to FILE instead of stderr\n"
            "  --stats-json FILE   also write the statistics as JSON\n"
            "  --no-stats          do not print statistics\n"
            "  --cudart-dir DIR    where libcudart.so.13 is (default: next to lockstep)\n");
}

/* The directory of the running executable. */
static int exe_dir(char *buf, size_t n)
{
    ssize_t k = readlink("/proc/self/exe", buf, n - 1);
    if (k <= 0)
        return -1;
    buf[k] = 0;
    char *slash = strrchr(buf, '/');
    if (!slash)
        return -1;
    *slash = 0;
    return 0;
}

static int file_exists(const char *p)
{
    struct stat st;
    return stat(p, &st) == 0 && S_ISREG(st.st_mode);
}

/* Does dir hold libcudart.so.13?  Then copy it to out. */
static int try_dir(const char *dir, char *out, size_t n)
{
    strbuf lib = STRBUF_INIT;
    sb_printf(&lib, "%s/libcudart.so.13", dir);
    int ok = file_exists(sb_cstr(&lib));
    sb_free(&lib);
    if (ok)
        snprintf(out, n, "%s", dir);
    return ok ? 0 : -1;
}

/* Find the replacement library: --cudart-dir, $LOCKSTEP_CUDART_DIR, or
 * lib/ beside the lockstep binary, or ../lib. */
static int find_cudart(const char *given, char *out, size_t n)
{
    if (given)
        return try_dir(given, out, n);
    if (getenv("LOCKSTEP_CUDART_DIR"))
        return try_dir(getenv("LOCKSTEP_CUDART_DIR"), out, n);
    char dir[PATH_MAX];
    if (exe_dir(dir, sizeof dir))
        return -1;
    strbuf cand = STRBUF_INIT;
    sb_printf(&cand, "%s/lib", dir);
    int rc = try_dir(sb_cstr(&cand), out, n);
    if (rc) {
        sb_clear(&cand);
        sb_printf(&cand, "%s/../lib", dir);
        rc = try_dir(sb_cstr(&cand), out, n);
    }
    sb_free(&cand);
    return rc;
}

/* Resolve PROGRAM the way execvp will (a name without '/' is looked up in
 * PATH). */
static int resolve_program(const char *prog, char *out, size_t n)
{
    if (strchr(prog, '/')) {
        snprintf(out, n, "%s", prog);
        return access(prog, X_OK);
    }
    const char *path = getenv("PATH");
    if (!path)
        path = "/usr/bin:/bin";
    while (*path) {
        size_t len = strcspn(path, ":");
        snprintf(out, n, "%.*s/%s", (int)len, path, prog);
        if (access(out, X_OK) == 0)
            return 0;
        path += len + (path[len] == ':');
    }
    return -1;
}

enum elf_verdict { ELF_UNKNOWN, ELF_SHARED_CUDART, ELF_STATIC_CUDART, ELF_NO_CUDA };

/* What the program's ELF file says about the CUDA runtime it uses. */
static enum elf_verdict inspect_elf(const char *path)
{
    strbuf sb = STRBUF_INIT;
    if (sb_read_file(&sb, path)) {
        sb_free(&sb);
        return ELF_UNKNOWN;
    }
    const unsigned char *d = (const unsigned char *)sb.s;
    size_t n = sb.len;
    enum elf_verdict v = ELF_UNKNOWN;
    Elf64_Ehdr eh;
    if (n < sizeof eh || memcmp(d, ELFMAG, SELFMAG) || d[EI_CLASS] != ELFCLASS64)
        goto out;
    memcpy(&eh, d, sizeof eh);
    if (eh.e_shoff == 0 || eh.e_shentsize != sizeof(Elf64_Shdr) ||
        eh.e_shoff + (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > n || eh.e_shstrndx >= eh.e_shnum)
        goto out;
    Elf64_Shdr shstr;
    memcpy(&shstr, d + eh.e_shoff + (size_t)eh.e_shstrndx * sizeof(Elf64_Shdr), sizeof shstr);
    int has_fatbin = 0, needs_cudart = 0;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr sh;
        memcpy(&sh, d + eh.e_shoff + (size_t)i * sizeof sh, sizeof sh);
        if (shstr.sh_offset + sh.sh_name < n &&
            !strncmp((const char *)d + shstr.sh_offset + sh.sh_name, ".nv_fatbin", 11))
            has_fatbin = 1;
        if (sh.sh_type != SHT_DYNAMIC || sh.sh_link >= eh.e_shnum ||
            sh.sh_offset + sh.sh_size > n)
            continue;
        Elf64_Shdr str;
        memcpy(&str, d + eh.e_shoff + (size_t)sh.sh_link * sizeof str, sizeof str);
        for (uint64_t off = 0; off + sizeof(Elf64_Dyn) <= sh.sh_size; off += sizeof(Elf64_Dyn)) {
            Elf64_Dyn dyn;
            memcpy(&dyn, d + sh.sh_offset + off, sizeof dyn);
            if (dyn.d_tag == DT_NEEDED && str.sh_offset + dyn.d_un.d_val < n &&
                !strncmp((const char *)d + str.sh_offset + dyn.d_un.d_val, "libcudart.so", 12))
                needs_cudart = 1;
        }
    }
    v = needs_cudart ? ELF_SHARED_CUDART : has_fatbin ? ELF_STATIC_CUDART : ELF_NO_CUDA;
out:
    sb_free(&sb);
    return v;
}

int cmd_run(int argc, char **argv)
{
    const char *config = NULL, *stats = "-", *stats_json = NULL, *cudart_dir = NULL;
    int progress = isatty(STDERR_FILENO); /* the progress line, on a terminal only */
    strbuf options = STRBUF_INIT;
    int i = 1;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            run_usage(stdout);
            sb_free(&options);
            return 0;
        }
        if (!strcmp(a, "--functional") || !strcmp(a, "--timing")) {
            sb_printf(&options, "-lockstep_mode %s\n", a + 2);
            continue;
        }
        if (!strcmp(a, "--no-stats")) {
            stats = NULL;
            continue;
        }
        if (!strcmp(a, "--no-progress")) {
            progress = 0;
            continue;
        }
        int takes = !strcmp(a, "--config") || !strcmp(a, "--stats") || !strcmp(a, "--stats-json") ||
                    !strcmp(a, "-O") || !strcmp(a, "--option") || !strcmp(a, "--cudart-dir") ||
                    !strcmp(a, "--nondet-seed") || !strcmp(a, "--trace");
        if (takes) {
            if (i + 1 >= argc) {
                fprintf(stderr, "lockstep run: %s needs a value\n", a);
                sb_free(&options);
                return 2;
            }
            const char *v = argv[++i];
            if (!strcmp(a, "--config"))
                config = v;
            else if (!strcmp(a, "--stats"))
                stats = v;
            else if (!strcmp(a, "--stats-json"))
                stats_json = v;
            else if (!strcmp(a, "--cudart-dir"))
                cudart_dir = v;
            else if (!strcmp(a, "--nondet-seed"))
                sb_printf(&options, "-lockstep_nondet_seed %s\n", v);
            else if (!strcmp(a, "--trace")) {
                if (!*v || strpbrk(v, " \t\n\r\"")) {
                    fprintf(stderr, "lockstep run: --trace '%s': give a file name without "
                                    "blanks or quotes\n", v);
                    sb_free(&options);
                    return 2;
                }
                sb_printf(&options, "-lockstep_trace %s\n", v);
            }
            else {
                sb_puts(&options, v);
                sb_putc(&options, '\n');
            }
            continue;
        }
        if (a[0] == '-') {
            fprintf(stderr, "lockstep run: unknown option '%s' (see lockstep run --help)\n", a);
            sb_free(&options);
            return 2;
        }
        break; /* the program, without a -- before it */
    }
    if (i >= argc) {
        fprintf(stderr, "lockstep run: no program given\n");
        run_usage(stderr);
        sb_free(&options);
        return 2;
    }

    if (progress) { /* first, so that an -O can still turn it off */
        strbuf o = STRBUF_INIT;
        sb_puts(&o, "-lockstep_progress 1\n");
        sb_puts(&o, sb_cstr(&options));
        sb_free(&options);
        options = o;
    }

    /* check the configuration here, so mistakes are reported before the program runs */
    lockstep_config *cfg;
    if (lockstep_config_create(&cfg) != LOCKSTEP_SUCCESS) {
        sb_free(&options);
        return 1;
    }
    int bad = 0;
    if (config && lockstep_config_load_file(cfg, config) != LOCKSTEP_SUCCESS)
        bad = 1;
    if (!bad && options.len &&
        lockstep_config_parse(cfg, sb_cstr(&options), options.len, "--option") != LOCKSTEP_SUCCESS)
        bad = 1;
    if (bad) {
        fprintf(stderr, "lockstep run: %s\n", lockstep_config_last_error(cfg));
    } else {
        char mode[32], trace[4096];
        if (lockstep_config_get(cfg, "-lockstep_mode", mode, sizeof mode) == LOCKSTEP_SUCCESS &&
            lockstep_config_get(cfg, "-lockstep_trace", trace, sizeof trace) ==
                LOCKSTEP_SUCCESS &&
            strcmp(mode, "timing") && strcmp(trace, "none")) {
            fprintf(stderr, "lockstep run: --trace traces the timing model; it cannot be used "
                            "with --functional\n");
            bad = 1;
        } else if (strcmp(trace, "none")) {
            FILE *tf = fopen(trace, "w"); /* say now if it cannot be written */
            if (!tf) {
                fprintf(stderr, "lockstep run: cannot write the trace %s: %s\n", trace,
                        strerror(errno));
                bad = 1;
            } else {
                fclose(tf);
            }
        }
    }
    lockstep_config_destroy(cfg);
    if (bad) {
        sb_free(&options);
        return 2;
    }

    char prog[PATH_MAX];
    if (resolve_program(argv[i], prog, sizeof prog)) {
        fprintf(stderr, "lockstep run: cannot run '%s': not found or not executable\n", argv[i]);
        sb_free(&options);
        return 127;
    }
    switch (inspect_elf(prog)) {
    case ELF_STATIC_CUDART:
        fprintf(stderr,
                "lockstep run: %s is linked with the static CUDA runtime (nvcc's default), which "
                "lockstep cannot replace; rebuild it with `nvcc -cudart shared`\n",
                prog);
        sb_free(&options);
        return 2;
    case ELF_NO_CUDA:
        fprintf(stderr, "lockstep run: note: %s does not use the CUDA runtime; running it anyway\n",
                prog);
        break;
    default:
        break;
    }
    char libdir[PATH_MAX];
    if (find_cudart(cudart_dir, libdir, sizeof libdir)) {
        fprintf(stderr,
                "lockstep run: cannot find lockstep's libcudart.so.13 (looked in lib/ beside the "
                "lockstep binary; set --cudart-dir or LOCKSTEP_CUDART_DIR)\n");
        sb_free(&options);
        return 2;
    }
    char abslib[PATH_MAX];
    if (!realpath(libdir, abslib))
        snprintf(abslib, sizeof abslib, "%s", libdir);
    strbuf ldpath = STRBUF_INIT;
    sb_puts(&ldpath, abslib);
    const char *old = getenv("LD_LIBRARY_PATH");
    if (old && *old) {
        sb_putc(&ldpath, ':');
        sb_puts(&ldpath, old);
    }
    setenv("LD_LIBRARY_PATH", sb_cstr(&ldpath), 1);
    sb_free(&ldpath);
    if (config) {
        char abscfg[PATH_MAX];
        setenv("LOCKSTEP_CONFIG", realpath(config, abscfg) ? abscfg : config, 1);
    } else {
        unsetenv("LOCKSTEP_CONFIG");
    }
    if (options.len)
        setenv("LOCKSTEP_OPTIONS", sb_cstr(&options), 1);
    else
        unsetenv("LOCKSTEP_OPTIONS");
    sb_free(&options);
    if (stats)
        setenv("LOCKSTEP_STATS", stats, 1);
    else
        unsetenv("LOCKSTEP_STATS");
    if (stats_json)
        setenv("LOCKSTEP_STATS_JSON", stats_json, 1);
    else
        unsetenv("LOCKSTEP_STATS_JSON");

    fflush(stdout);
    fflush(stderr);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "lockstep run: fork: %s\n", strerror(errno));
        return 1;
    }
    if (pid == 0) {
        execv(prog, argv + i);
        fprintf(stderr, "lockstep run: cannot run %s: %s\n", prog, strerror(errno));
        _exit(127);
    }
    int status;
    while (waitpid(pid, &status, 0) < 0) {
        if (errno != EINTR) {
            fprintf(stderr, "lockstep run: waitpid: %s\n", strerror(errno));
            return 1;
        }
    }
    if (WIFEXITED(status))
        return WEXITSTATUS(status);
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "lockstep run: %s was killed by signal %d (%s)\n", prog, WTERMSIG(status),
                strsignal(WTERMSIG(status)));
        return 128 + WTERMSIG(status);
    }
    return 1;
}
