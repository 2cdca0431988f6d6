/*
 * cmd_run.c -- `lockstep run [options] -- PROGRAM [ARGS...]`: run an
 * unmodified CUDA program on the simulator.
 *
 * The program is run with lockstep's libcudart.so.13 first on its library
 * path, so its CUDA runtime calls reach the simulator; options travel to
 * the library in environment variables (LOCKSTEP_CONFIG, LOCKSTEP_OPTIONS,
 * LOCKSTEP_STATS, LOCKSTEP_STATS_JSON); that directory also holds
 * libcuda.so.1 (the same library), for programs of the driver API.  Before
 * starting it, the program's ELF file is checked: one linked with the
 * static CUDA runtime (nvcc's default) cannot be redirected, and gets told
 * to rebuild with `nvcc -cudart shared`; one that needs a library lockstep
 * does not provide (cuBLAS, cuFFT, ...) is told which.  lockstep's exit status is the program's.
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
#include <time.h>
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
            "  --det MODE          deterministic execution: none (default), gpudet or dab\n"
            "                      (-lockstep_det; docs/DETERMINISM.md)\n"
            "  --redundancy MODE   redundant execution: none (default) or dmr, every CTA run\n"
            "                      twice and compared (-lockstep_redundancy; docs/RELIABILITY.md)\n"
            "  --trace FILE        write a Chrome trace of the timing model (open it in\n"
            "                      https://ui.perfetto.dev): kernels, CTAs per SM, per-SM\n"
            "                      issue rate and stalls\n"
            "  --no-progress       no progress line (printed on a terminal during long launches)\n"
            "  --threads N         host threads for the timing model (-lockstep_threads;\n"
            "                      default: one per CPU; results do not depend on it)\n"
            "  --timeout S         stop a launch that runs longer than S host seconds\n"
            "                      (-lockstep_timeout; default 600, 0: none)\n"
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

enum elf_verdict { ELF_UNKNOWN, ELF_SHARED_CUDART, ELF_STATIC_CUDART, ELF_NO_CUDA,
                   ELF_UNPROVIDED };

/* NVIDIA's libraries lockstep does not provide: a program that needs one
 * cannot run (the real one would look for a GPU, or is not there). */
static const struct {
    const char *prefix, *what;
} unprovided_libs[] = {
    {"libcublasLt.so", "cuBLASLt"}, {"libcublas.so", "cuBLAS"},   {"libcufftw.so", "cuFFTW"},
    {"libcufft.so", "cuFFT"},       {"libcurand.so", "cuRAND"},   {"libcusparse.so", "cuSPARSE"},
    {"libcusolverMg.so", "cuSOLVERMg"}, {"libcusolver.so", "cuSOLVER"},
    {"libnvrtc.so", "NVRTC"},       {"libnvJitLink.so", "nvJitLink"}, {"libnpp", "NPP"},
    {"libnvjpeg.so", "nvJPEG"},     {"libcudnn", "cuDNN"},        {"libnccl.so", "NCCL"},
    {"libcutensor", "cuTENSOR"},    {"libcupti.so", "CUPTI"},     {"libnvblas.so", "NVBLAS"},
    {"libcufile.so", "cuFile"},     {"libnvidia-ml.so", "NVML"},  {"libnvfatbin.so", "nvFatbin"},
};

/* The name of an unprovided library `lib` is, and what it is; NULL if none. */
static const char *unprovided(const char *lib)
{
    for (size_t i = 0; i < sizeof unprovided_libs / sizeof unprovided_libs[0]; i++)
        if (!strncmp(lib, unprovided_libs[i].prefix, strlen(unprovided_libs[i].prefix)))
            return unprovided_libs[i].what;
    return NULL;
}

/* What the program's ELF file says about the CUDA it uses: the shared
 * runtime (libcudart.so) or driver (libcuda.so) lockstep replaces; the
 * runtime linked into the program (it defines __cudaRegisterFatBinary, or
 * it holds GPU code and needs neither library); or a library lockstep does
 * not provide, named in `lib` (its file name, then what it is). */
static enum elf_verdict inspect_elf(const char *path, char *lib, size_t liblen)
{
    strbuf sb = STRBUF_INIT;
    if (sb_read_file(&sb, path, (size_t)4 << 30)) {
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
        eh.e_shoff > n || (uint64_t)eh.e_shnum * sizeof(Elf64_Shdr) > n - eh.e_shoff ||
        eh.e_shstrndx >= eh.e_shnum)
        goto out;
    Elf64_Shdr shstr;
    memcpy(&shstr, d + eh.e_shoff + (size_t)eh.e_shstrndx * sizeof(Elf64_Shdr), sizeof shstr);
    int has_fatbin = 0, needs_cudart = 0, needs_cuda = 0, runtime_inside = 0;
    for (unsigned i = 0; i < eh.e_shnum; i++) {
        Elf64_Shdr sh;
        memcpy(&sh, d + eh.e_shoff + (size_t)i * sizeof sh, sizeof sh);
        if (shstr.sh_offset <= n && sh.sh_name <= n - shstr.sh_offset &&
            n - shstr.sh_offset - sh.sh_name >= 11 &&
            !memcmp(d + shstr.sh_offset + sh.sh_name, ".nv_fatbin", 11))
            has_fatbin = 1;
        if ((sh.sh_type != SHT_DYNAMIC && sh.sh_type != SHT_SYMTAB && sh.sh_type != SHT_DYNSYM) ||
            sh.sh_link >= eh.e_shnum || sh.sh_offset > n || sh.sh_size > n - sh.sh_offset)
            continue;
        Elf64_Shdr str;
        memcpy(&str, d + eh.e_shoff + (size_t)sh.sh_link * sizeof str, sizeof str);
        if (str.sh_offset > n || str.sh_size > n - str.sh_offset)
            continue;
        const char *strs = (const char *)d + str.sh_offset;
        if (sh.sh_type != SHT_DYNAMIC) {
            /* a defined __cudaRegisterFatBinary: the runtime is inside */
            for (uint64_t off = 0; off + sizeof(Elf64_Sym) <= sh.sh_size;
                 off += sizeof(Elf64_Sym)) {
                Elf64_Sym sym;
                memcpy(&sym, d + sh.sh_offset + off, sizeof sym);
                if (sym.st_shndx != SHN_UNDEF && (uint64_t)sym.st_name + 24 <= str.sh_size &&
                    !memcmp(strs + sym.st_name, "__cudaRegisterFatBinary", 24))
                    runtime_inside = 1;
            }
            continue;
        }
        for (uint64_t off = 0; off + sizeof(Elf64_Dyn) <= sh.sh_size; off += sizeof(Elf64_Dyn)) {
            Elf64_Dyn dyn;
            memcpy(&dyn, d + sh.sh_offset + off, sizeof dyn);
            if (dyn.d_tag != DT_NEEDED || dyn.d_un.d_val >= str.sh_size ||
                !memchr(strs + dyn.d_un.d_val, 0, str.sh_size - dyn.d_un.d_val))
                continue;
            const char *name = strs + dyn.d_un.d_val, *what = unprovided(name);
            if (!strncmp(name, "libcudart.so", 12))
                needs_cudart = 1;
            else if (!strncmp(name, "libcuda.so", 10))
                needs_cuda = 1;
            else if (what && v != ELF_UNPROVIDED) {
                snprintf(lib, liblen, "%s (%s)", name, what);
                v = ELF_UNPROVIDED;
            }
        }
    }
    if (v == ELF_UNPROVIDED)
        goto out;
    if (runtime_inside || (has_fatbin && !needs_cudart && !needs_cuda))
        v = ELF_STATIC_CUDART;
    else
        v = needs_cudart || needs_cuda ? ELF_SHARED_CUDART : ELF_NO_CUDA;
out:
    sb_free(&sb);
    return v;
}

/* One option for the simulator, kept as a name and a value, never as
 * text pasted together: a value cannot smuggle in another option. */
typedef struct run_opt {
    const char *name;
    char *owned;    /* name, when malloc'd here (-O) */
    char *value;    /* malloc'd */
    const char *from; /* the command-line argument it came from, for messages */
} run_opt;

typedef struct run_opts {
    run_opt v[256];
    int n;
} run_opts;

/* An option's name without its leading '-' ("-lockstep_threads" and
 * "lockstep_threads" are one option). */
static const char *opt_name(const char *name) { return name[0] == '-' ? name + 1 : name; }

/* The option as the command line gave it: "--det dab", "-O '-lockstep_threads 2'". */
static const char *as_given(const run_opt *o, char *buf, size_t n)
{
    if (!strncmp(o->from, "--", 2) && !strchr(o->from, ' ') && strcmp(o->from, "--functional") &&
        strcmp(o->from, "--timing"))
        snprintf(buf, n, "%s %s", o->from, o->value);
    else if (o->from[0] == '-' && o->from[1] != '-')
        snprintf(buf, n, "-O '%s'", o->from);
    else
        snprintf(buf, n, "%s", o->from);
    return buf;
}

static int add_opt(run_opts *o, const char *name, const char *value, const char *from)
{
    if (o->n == (int)(sizeof o->v / sizeof o->v[0])) {
        fprintf(stderr, "lockstep run: too many options\n");
        return -1;
    }
    char *v = strdup(value);
    if (!v)
        return -1;
    o->v[o->n++] = (run_opt){name, NULL, v, from};
    return 0;
}

static void free_opts(run_opts *o)
{
    for (int k = 0; k < o->n; k++) {
        free(o->v[k].value);
        free(o->v[k].owned);
    }
    o->n = 0;
}

/* -O "-NAME VALUE": one option; the value is everything after the name
 * (blanks at either end dropped). */
static int add_O(run_opts *o, const char *arg)
{
    while (*arg == ' ' || *arg == '\t')
        arg++;
    size_t n = strcspn(arg, " \t");
    if (arg[0] != '-' || n < 2) {
        fprintf(stderr, "lockstep run: -O '%s': expected \"-NAME VALUE\"\n", arg);
        return -1;
    }
    const char *v = arg + n;
    while (*v == ' ' || *v == '\t')
        v++;
    size_t vn = strlen(v);
    while (vn && (v[vn - 1] == ' ' || v[vn - 1] == '\t'))
        vn--;
    if (!vn) {
        fprintf(stderr, "lockstep run: -O '%s': the option has no value\n", arg);
        return -1;
    }
    char *name = strndup(arg, n), *value = strndup(v, vn);
    int rc = name && value ? add_opt(o, name, value, arg) : -1;
    free(value);
    /* the name lives as long as the options: keep it with them */
    if (!rc) {
        o->v[o->n - 1].name = name;
        o->v[o->n - 1].owned = name;
    } else {
        free(name);
    }
    return rc;
}

/* A path made absolute against the current directory, into out. */
static void absolute_path(const char *p, char *out, size_t n)
{
    char cwd[PATH_MAX];
    if (p[0] == '/' || !getcwd(cwd, sizeof cwd) ||
        snprintf(out, n, "%s/%s", cwd, p) >= (int)n)
        snprintf(out, n, "%s", p);
}

/* An output file the program will write: absolute, its directory
 * writable (checked by creating and removing PATH.partial), and no older
 * file left by that name, so a run that fails never leaves a result that
 * looks like this run's.  0, or -1 said. */
static int prepare_output(const char *what, const char *path, char *abs, size_t n)
{
    absolute_path(path, abs, n);
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.partial", abs);
    FILE *f = fopen(tmp, "w");
    if (!f) {
        fprintf(stderr, "lockstep run: cannot write the %s %s: %s\n", what, path, strerror(errno));
        return -1;
    }
    fclose(f);
    remove(tmp);
    struct stat st;
    if (stat(abs, &st) == 0 && !S_ISREG(st.st_mode)) {
        fprintf(stderr, "lockstep run: the %s %s exists and is not a regular file\n", what, path);
        return -1;
    }
    if (remove(abs) && errno != ENOENT) {
        fprintf(stderr, "lockstep run: cannot replace the %s %s: %s\n", what, path,
                strerror(errno));
        return -1;
    }
    return 0;
}

/* Signals for lockstep are for the program: forwarded, and if it has not
 * ended FORWARD_GRACE seconds later, it is killed. */
#define FORWARD_GRACE 10
static volatile pid_t child_pid;
static volatile sig_atomic_t forwarded;

static void forward_signal(int sig, siginfo_t *si, void *uc)
{
    (void)uc;
    /* a terminal's ^C reaches the program too (it is in our process
     * group): forward only what was sent to lockstep alone */
    if (child_pid > 0 && (!si || si->si_code != SI_KERNEL))
        kill(child_pid, sig);
    forwarded = sig;
}

static void remove_partial(const char *abs)
{
    if (!abs[0] || !strcmp(abs, "-"))
        return;
    char tmp[PATH_MAX + 16];
    snprintf(tmp, sizeof tmp, "%s.partial", abs);
    remove(tmp);
}

int cmd_run(int argc, char **argv)
{
    const char *config = NULL, *stats = "-", *stats_json = NULL, *cudart_dir = NULL,
               *trace = NULL;
    int progress = isatty(STDERR_FILENO); /* the progress line, on a terminal only */
    run_opts opts;
    opts.n = 0;
    int i = 1, rc = 2;
    for (; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            run_usage(stdout);
            free_opts(&opts);
            return 0;
        }
        if (!strcmp(a, "--functional") || !strcmp(a, "--timing")) {
            if (add_opt(&opts, "-lockstep_mode", a + 2, a))
                goto out;
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
                    !strcmp(a, "--nondet-seed") || !strcmp(a, "--trace") ||
                    !strcmp(a, "--timeout") || !strcmp(a, "--threads") || !strcmp(a, "--det") ||
                    !strcmp(a, "--redundancy");
        if (takes) {
            if (i + 1 >= argc) {
                fprintf(stderr, "lockstep run: %s needs a value\n", a);
                goto out;
            }
            const char *v = argv[++i];
            int bad = 0;
            if (!strcmp(a, "--config"))
                config = v;
            else if (!strcmp(a, "--stats"))
                stats = v;
            else if (!strcmp(a, "--stats-json"))
                stats_json = v;
            else if (!strcmp(a, "--cudart-dir"))
                cudart_dir = v;
            else if (!strcmp(a, "--trace"))
                trace = v;
            else if (!strcmp(a, "--nondet-seed"))
                bad = add_opt(&opts, "-lockstep_nondet_seed", v, a);
            else if (!strcmp(a, "--timeout"))
                bad = add_opt(&opts, "-lockstep_timeout", v, a);
            else if (!strcmp(a, "--threads"))
                bad = add_opt(&opts, "-lockstep_threads", v, a);
            else if (!strcmp(a, "--det"))
                bad = add_opt(&opts, "-lockstep_det", v, a);
            else if (!strcmp(a, "--redundancy"))
                bad = add_opt(&opts, "-lockstep_redundancy", v, a);
            else
                bad = add_O(&opts, v);
            if (bad)
                goto out;
            continue;
        }
        if (a[0] == '-') {
            fprintf(stderr, "lockstep run: unknown option '%s' (see lockstep run --help)\n", a);
            goto out;
        }
        break; /* the program, without a -- before it */
    }
    if (i >= argc) {
        fprintf(stderr, "lockstep run: no program given\n");
        run_usage(stderr);
        goto out;
    }

    /* Output files: absolute (the program may chdir), writable, and no
     * older file of that name left to pass for this run's. */
    char stats_abs[PATH_MAX] = "", json_abs[PATH_MAX] = "", trace_abs[PATH_MAX] = "";
    if (stats && strcmp(stats, "-") && prepare_output("statistics file", stats, stats_abs,
                                                      sizeof stats_abs))
        goto out;
    if (stats && !strcmp(stats, "-"))
        snprintf(stats_abs, sizeof stats_abs, "-");
    if (stats_json && prepare_output("JSON statistics file", stats_json, json_abs, sizeof json_abs))
        goto out;
    if (trace) {
        if (!*trace || strchr(trace, '"') || strchr(trace, '\n')) {
            fprintf(stderr, "lockstep run: --trace '%s': give a file name without quotes or "
                            "line breaks\n", trace);
            goto out;
        }
        if (prepare_output("trace", trace, trace_abs, sizeof trace_abs) ||
            add_opt(&opts, "-lockstep_trace", trace_abs, "--trace"))
            goto out;
    }

    /* Check the configuration here, value by value, so mistakes are
     * reported before the program runs. */
    lockstep_config *cfg;
    if (lockstep_config_create(&cfg) != LOCKSTEP_SUCCESS) {
        rc = 1;
        goto out;
    }
    int bad = 0;
    if (config && lockstep_config_load_file(cfg, config) != LOCKSTEP_SUCCESS) {
        fprintf(stderr, "lockstep run: %s\n", lockstep_config_last_error(cfg));
        bad = 1;
    }
    for (int k = 0; !bad && k < opts.n; k++) {
        /* an option given twice on the command line (--det dab --det gpudet,
         * --threads 4 -O "-lockstep_threads 2") must say the same thing */
        int j = k - 1;
        while (j >= 0 && strcmp(opt_name(opts.v[j].name), opt_name(opts.v[k].name)))
            j--;
        char before[1024] = "", after[1024] = "";
        if (j >= 0)
            lockstep_config_get(cfg, opts.v[k].name, before, sizeof before);
        if (lockstep_config_set(cfg, opts.v[k].name, opts.v[k].value) != LOCKSTEP_SUCCESS) {
            fprintf(stderr, "lockstep run: %s: %s\n", opts.v[k].from,
                    lockstep_config_last_error(cfg));
            bad = 1;
        } else if (strchr(opts.v[k].value, '"') || strchr(opts.v[k].value, '\n')) {
            fprintf(stderr, "lockstep run: %s: a value cannot hold quotes or line breaks\n",
                    opts.v[k].from);
            bad = 1;
        } else if (j >= 0 && (lockstep_config_get(cfg, opts.v[k].name, after, sizeof after),
                              strcmp(before, after))) {
            char a1[1200], a2[1200];
            fprintf(stderr, "lockstep run: %s and %s disagree (%s): give one of them\n",
                    as_given(&opts.v[j], a1, sizeof a1), as_given(&opts.v[k], a2, sizeof a2),
                    opts.v[k].name);
            bad = 1;
        }
    }
    if (!bad && lockstep_config_validate(cfg) != LOCKSTEP_SUCCESS) {
        fprintf(stderr, "lockstep run: %s\n", lockstep_config_last_error(cfg));
        bad = 1;
    }
    char mode[32] = "timing", tr[PATH_MAX + 16] = "none";
    if (!bad) {
        lockstep_config_get(cfg, "-lockstep_mode", mode, sizeof mode);
        lockstep_config_get(cfg, "-lockstep_trace", tr, sizeof tr);
        if (strcmp(mode, "timing") && strcmp(tr, "none")) {
            fprintf(stderr, "lockstep run: --trace traces the timing model; it cannot be used "
                            "with --functional\n");
            bad = 1;
        } else if (strcmp(tr, "none") && !trace_abs[0]) {
            /* a trace named in the config file or with -O: the same checks,
             * and the runtime gets the absolute name (in place of the -O's,
             * so that its option text names the option once) */
            int named = 0;
            if (prepare_output("trace", tr, trace_abs, sizeof trace_abs))
                bad = 1;
            for (int k = 0; !bad && k < opts.n; k++) {
                if (strcmp(opt_name(opts.v[k].name), "lockstep_trace"))
                    continue;
                char *abs = strdup(trace_abs);
                if (!abs) {
                    bad = 1;
                    break;
                }
                free(opts.v[k].value);
                opts.v[k].value = abs;
                named = 1;
            }
            if (!bad && !named &&
                add_opt(&opts, "-lockstep_trace", trace_abs, "-lockstep_trace"))
                bad = 1;
        }
    }
    lockstep_config_destroy(cfg);
    if (bad)
        goto out;

    char prog[PATH_MAX];
    if (resolve_program(argv[i], prog, sizeof prog)) {
        fprintf(stderr, "lockstep run: cannot run '%s': not found or not executable\n", argv[i]);
        rc = 127;
        goto out;
    }
    char needed[256] = "";
    enum elf_verdict verdict = inspect_elf(prog, needed, sizeof needed);
    switch (verdict) {
    case ELF_UNPROVIDED:
        fprintf(stderr,
                "lockstep run: %s needs %s, which lockstep does not provide: lockstep replaces "
                "only the CUDA runtime (libcudart.so.13) and driver (libcuda.so.1), so the "
                "program cannot run on it\n",
                prog, needed);
        goto out;
    case ELF_STATIC_CUDART:
        fprintf(stderr,
                "lockstep run: %s is linked with the static CUDA runtime (nvcc's default), which "
                "lockstep cannot replace; rebuild it with `nvcc -cudart shared`\n",
                prog);
        goto out;
    case ELF_NO_CUDA:
        fprintf(stderr,
                "lockstep run: note: %s does not use the CUDA runtime or driver; running it "
                "anyway\n",
                prog);
        break;
    default:
        break;
    }
    char libdir[PATH_MAX];
    if (find_cudart(cudart_dir, libdir, sizeof libdir)) {
        const char *env = getenv("LOCKSTEP_CUDART_DIR");
        if (cudart_dir)
            fprintf(stderr, "lockstep run: cannot find lockstep's libcudart.so.13 in --cudart-dir %s\n",
                    cudart_dir);
        else if (env)
            fprintf(stderr, "lockstep run: cannot find lockstep's libcudart.so.13 in "
                            "LOCKSTEP_CUDART_DIR %s\n", env);
        else
            fprintf(stderr,
                    "lockstep run: cannot find lockstep's libcudart.so.13 (looked in lib/ beside the "
                    "lockstep binary; set --cudart-dir or LOCKSTEP_CUDART_DIR)\n");
        goto out;
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
    /* the options for the runtime: each value quoted, checked above */
    strbuf text = STRBUF_INIT;
    for (int k = 0; progress && k < opts.n; k++) /* an -O still turns it off */
        if (!strcmp(opt_name(opts.v[k].name), "lockstep_progress"))
            progress = 0;
    if (progress)
        sb_puts(&text, "-lockstep_progress 1\n");
    for (int k = 0; k < opts.n; k++)
        sb_printf(&text, "%s \"%s\"\n", opts.v[k].name, opts.v[k].value);
    if (text.len)
        setenv("LOCKSTEP_OPTIONS", sb_cstr(&text), 1);
    else
        unsetenv("LOCKSTEP_OPTIONS");
    sb_free(&text);
    if (stats_abs[0])
        setenv("LOCKSTEP_STATS", stats_abs, 1);
    else
        unsetenv("LOCKSTEP_STATS");
    if (json_abs[0])
        setenv("LOCKSTEP_STATS_JSON", json_abs, 1);
    else
        unsetenv("LOCKSTEP_STATS_JSON");

    struct sigaction sa, old_sa[3];
    const int sigs[3] = {SIGINT, SIGTERM, SIGHUP};
    memset(&sa, 0, sizeof sa);
    sa.sa_sigaction = forward_signal;
    sa.sa_flags = SA_SIGINFO; /* no SA_RESTART: waitpid must return to watch the grace period */
    sigemptyset(&sa.sa_mask);
    fflush(stdout);
    fflush(stderr);
    for (int k = 0; k < 3; k++)
        sigaction(sigs[k], &sa, &old_sa[k]);
    pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "lockstep run: fork: %s\n", strerror(errno));
        rc = 1;
        goto out;
    }
    if (pid == 0) {
        for (int k = 0; k < 3; k++)
            sigaction(sigs[k], &old_sa[k], NULL);
        execv(prog, argv + i);
        fprintf(stderr, "lockstep run: cannot run %s: %s\n", prog, strerror(errno));
        _exit(127);
    }
    child_pid = pid;
    int status = 0;
    time_t kill_at = 0;
    for (;;) {
        pid_t w = waitpid(pid, &status, forwarded ? WNOHANG : 0);
        if (w == pid)
            break;
        if (w < 0 && errno != EINTR) {
            fprintf(stderr, "lockstep run: waitpid: %s\n", strerror(errno));
            rc = 1;
            goto out;
        }
        if (forwarded) {
            time_t now = time(NULL);
            if (!kill_at)
                kill_at = now + FORWARD_GRACE;
            else if (now >= kill_at) {
                fprintf(stderr, "lockstep run: %s did not stop %d s after signal %d; killing it\n",
                        prog, FORWARD_GRACE, (int)forwarded);
                kill(pid, SIGKILL);
                kill_at = now + 3600;
            }
            struct timespec nap = {0, 50 * 1000 * 1000};
            nanosleep(&nap, NULL);
        }
    }
    child_pid = 0;
    for (int k = 0; k < 3; k++)
        sigaction(sigs[k], &old_sa[k], NULL);
    /* whatever was cut short is removed: no half-written file survives */
    remove_partial(stats_abs);
    remove_partial(json_abs);
    remove_partial(trace_abs);
    if (WIFSIGNALED(status)) {
        fprintf(stderr, "lockstep run: %s was killed by signal %d (%s)\n", prog, WTERMSIG(status),
                strsignal(WTERMSIG(status)));
        rc = 128 + WTERMSIG(status);
        goto out;
    }
    rc = WIFEXITED(status) ? WEXITSTATUS(status) : 1;
    /* a CUDA program that ended without writing what was asked: say so, and
     * do not report success */
    if (verdict == ELF_SHARED_CUDART) {
        const char *files[2] = {strcmp(stats_abs, "-") ? stats_abs : "", json_abs};
        for (int k = 0; k < 2; k++) {
            struct stat st;
            if (files[k][0] && stat(files[k], &st)) {
                fprintf(stderr, "lockstep run: the statistics were not written to %s (the "
                                "program ended without running its exit handlers, or writing "
                                "failed)\n", files[k]);
                if (!rc)
                    rc = 1;
            }
        }
    }
out:
    free_opts(&opts);
    return rc;
}
