/*
 * test_printf.c -- end-to-end: device printf (kernels/printf.cu).
 *
 * The output callback collects what the device prints.  The expected text is
 * made with the host's snprintf from the same format strings and values (so
 * the formats here must stay identical to those in printf.cu).  Checks:
 *   - printf_formats: every line exactly, except the %p line, which must be
 *     "ptr=0x" followed by hex digits;
 *   - printf_lanes: one partial warp prints in lane order, the exact text;
 *   - printf_grid / printf_loop: several CTAs, loops and branches, compared
 *     after sorting the lines;
 *   - the callback receives whole lines only, nothing before
 *     lockstep_synchronize(), and lockstep_device_destroy() delivers output
 *     that was never synchronized.
 */
#include <ctype.h>
#include <math.h>

#include "e2e.h"

typedef struct capture {
    char *buf;
    size_t len, cap;
    int calls;
    int partial; /* a call whose text did not end with a newline */
} capture;

static void capture_fn(void *ud, const char *text, size_t len)
{
    capture *c = ud;
    c->calls++;
    if (len == 0 || text[len - 1] != '\n')
        c->partial++;
    if (c->len + len + 1 > c->cap) {
        size_t cap = (c->len + len + 1) * 2;
        char *nb = realloc(c->buf, cap);
        if (!nb)
            return;
        c->buf = nb;
        c->cap = cap;
    }
    memcpy(c->buf + c->len, text, len);
    c->len += len;
    c->buf[c->len] = 0;
}

static void capture_reset(capture *c)
{
    c->len = 0;
    c->calls = 0;
    c->partial = 0;
    if (c->buf)
        c->buf[0] = 0;
}

/* Append a formatted line to a growing text. */
typedef struct text {
    char buf[8192];
    size_t len;
} text;

static void text_add(text *t, const char *s)
{
    size_t n = strlen(s);
    if (t->len + n < sizeof t->buf) {
        memcpy(t->buf + t->len, s, n + 1);
        t->len += n;
    }
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Sort the lines of s in place (each keeps its newline). */
static char *sorted_lines(const char *s)
{
    size_t n = 0, len = strlen(s);
    for (size_t i = 0; i < len; i++)
        n += s[i] == '\n';
    char *copy = malloc(len + 1), **lines = malloc((n + 1) * sizeof *lines);
    char *out = malloc(len + 2);
    if (!copy || !lines || !out) {
        free(copy);
        free(lines);
        free(out);
        return NULL;
    }
    memcpy(copy, s, len + 1);
    size_t k = 0;
    for (char *p = copy; *p && k <= n;) {
        lines[k++] = p;
        char *nl = strchr(p, '\n');
        if (!nl)
            break;
        *nl = 0;
        p = nl + 1;
    }
    qsort(lines, k, sizeof *lines, cmp_str);
    out[0] = 0;
    size_t o = 0;
    for (size_t i = 0; i < k; i++) {
        size_t l = strlen(lines[i]);
        memcpy(out + o, lines[i], l);
        o += l;
        out[o++] = '\n';
    }
    out[o] = 0;
    free(copy);
    free(lines);
    return out;
}

static void check_text(const char *what, const char *got, const char *exp)
{
    CHECK_MSG(strcmp(got, exp) == 0, "%s: device printed\n---\n%s---\nexpected\n---\n%s---", what,
              got, exp);
}

static lockstep_device *printf_device(capture *cap)
{
    lockstep_device *dev = e2e_device();
    if (dev)
        lockstep_device_set_printf_output(dev, capture_fn, cap);
    return dev;
}

static void test_printf_formats(void)
{
    capture cap = {0};
    lockstep_device *dev = printf_device(&cap);
    lockstep_module *mod = e2e_load(dev, "printf.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "printf_formats");
    static const char dstr[] = "device-str";
    lockstep_dptr dstrp = e2e_upload(dev, dstr, sizeof dstr);
    lockstep_dptr dptr = e2e_alloc(dev, 64);
    if (!k || !dstrp || !dptr)
        goto out;
    int i = -42;
    unsigned u = 3735928559u;
    long long ll = -1234567890123LL;
    unsigned long long ull = 0xfedcba9876543210ull;
    float f = 3.14159274f;
    double d = -2.718281828459045;
    char c = 'Q';
    void *args[] = {&i, &u, &ll, &ull, &f, &d, &c, &dstrp, &dptr};
    lockstep_launch_stats st;
    lockstep_status s = lockstep_launch_args(dev, k, e2e_dim3(2, 1, 1), e2e_dim3(40, 1, 1), 0,
                                             args, &st);
    if (!E2E_OK(dev, s))
        goto out;
    CHECK_MSG(cap.calls == 0, "printf output delivered before lockstep_synchronize: '%s'",
              cap.buf ? cap.buf : "");
    if (!E2E_OK(dev, lockstep_synchronize(dev)))
        goto out;
    e2e_check_stats("printf_formats", e2e_dim3(2, 1, 1), e2e_dim3(40, 1, 1), &st);
    CHECK_MSG(cap.partial == 0, "%d callback calls without a whole line", cap.partial);

    text exp = {{0}, 0};
    char line[512];
    text_add(&exp, "hello from the device\n");
    snprintf(line, sizeof line, "int %d %i %5d|%-5d|%05d %+d\n", i, i, i, i, i, i);
    text_add(&exp, line);
    snprintf(line, sizeof line, "unsigned %u %x %X %#x %o %#o\n", u, u, u, u, u, u);
    text_add(&exp, line);
    snprintf(line, sizeof line, "long %ld %lld %llu %llx %lu\n", (long)ll, ll, ull, ull,
             (unsigned long)ull);
    text_add(&exp, line);
    snprintf(line, sizeof line, "short %hd %hu char %c%c%c\n", (short)i, (unsigned short)u, c,
             c + 1, 'z');
    text_add(&exp, line);
    snprintf(line, sizeof line, "float %f %.3f %10.4f|%-10.2f|%e %E %g %G\n", (double)f,
             (double)f, (double)f, (double)f, (double)f, (double)f, (double)f, (double)f);
    text_add(&exp, line);
    snprintf(line, sizeof line, "double %f %.10f %.3e %g %+.2e %08.3f\n", d, d, d, d, d, d);
    text_add(&exp, line);
    snprintf(line, sizeof line, "string [%s] [%10s] [%-10s] [%.3s] [%s]\n", dstr, dstr, dstr,
             dstr, "literal");
    text_add(&exp, line);
    snprintf(line, sizeof line, "special %f %f %.1f 100%%\n", (double)INFINITY,
             -(double)INFINITY, -0.0);
    text_add(&exp, line);
    text_add(&exp, "ptr=@\n");
    snprintf(line, sizeof line, "mixed %d %f %s %lld %c %u %e\n", i, d, dstr, ll, c, u,
             (double)f);
    text_add(&exp, line);

    /* Replace the %p line of the device output by the placeholder after
     * checking its shape: "ptr=0x" and at least one hex digit. */
    const char *got = cap.buf ? cap.buf : "";
    char *norm = malloc(strlen(got) + 8);
    if (!norm)
        goto out;
    const char *p = strstr(got, "ptr=");
    if (p && (p == got || p[-1] == '\n')) {
        const char *q = p + 4;
        int ok = q[0] == '0' && (q[1] == 'x' || q[1] == 'X') && isxdigit((unsigned char)q[2]);
        CHECK_MSG(ok, "printf_formats: %%p printed '%.40s'", p);
        const char *nl = strchr(p, '\n');
        size_t head = (size_t)(p - got);
        memcpy(norm, got, head);
        strcpy(norm + head, "ptr=@\n");
        strcat(norm, nl ? nl + 1 : "");
    } else {
        strcpy(norm, got);
        CHECK_MSG(0, "printf_formats: no line starting with 'ptr=' in\n%s", got);
    }
    check_text("printf_formats", norm, exp.buf);
    free(norm);
out:
    e2e_free(dev, dstrp);
    e2e_free(dev, dptr);
    e2e_device_destroy(dev);
    free(cap.buf);
}

static void test_printf_lanes(void)
{
    capture cap = {0};
    lockstep_device *dev = printf_device(&cap);
    lockstep_module *mod = e2e_load(dev, "printf.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "printf_lanes");
    int32_t vals[20];
    for (int t = 0; t < 20; t++)
        vals[t] = t * t * 7 - 50;
    lockstep_dptr dv = e2e_upload(dev, vals, sizeof vals);
    if (!k || !dv)
        goto out;
    int n = 17;
    void *args[] = {&dv, &n};
    if (!e2e_launch(dev, k, "printf_lanes block 20", e2e_dim3(1, 1, 1), e2e_dim3(20, 1, 1), 0,
                    args))
        goto out;
    text exp = {{0}, 0};
    char line[128];
    for (unsigned t = 0; t < 17; t++) {
        snprintf(line, sizeof line, "lane %2u val %d hex %08x\n", t, vals[t], (unsigned)vals[t]);
        text_add(&exp, line);
    }
    for (unsigned t = 0; t < 20; t++) {
        snprintf(line, sizeof line, "second %u of %u\n", t, 20u);
        text_add(&exp, line);
    }
    check_text("printf_lanes (lane order)", cap.buf ? cap.buf : "", exp.buf);
    CHECK_MSG(cap.partial == 0, "%d callback calls without a whole line", cap.partial);
out:
    e2e_free(dev, dv);
    e2e_device_destroy(dev);
    free(cap.buf);
}

static void test_printf_grid_and_loop(void)
{
    capture cap = {0};
    lockstep_device *dev = printf_device(&cap);
    lockstep_module *mod = e2e_load(dev, "printf.ptx");
    lockstep_kernel *kg = e2e_kernel(dev, mod, "printf_grid");
    lockstep_kernel *kl = e2e_kernel(dev, mod, "printf_loop");
    const unsigned gx = 3, gy = 2, bx = 8, by = 4, tpb = bx * by;
    int32_t vals[3 * 2 * 8 * 4];
    for (unsigned g = 0; g < gx * gy * tpb; g++)
        vals[g] = (int32_t)(g * 13) - 100;
    lockstep_dptr dv = e2e_upload(dev, vals, sizeof vals);
    text exp = {{0}, 0};
    char line[128], *gs = NULL, *es = NULL;
    if (!kg || !kl || !dv)
        goto out;
    void *args[] = {&dv};
    if (!e2e_launch(dev, kg, "printf_grid 3x2 of 8x4", e2e_dim3(gx, gy, 1), e2e_dim3(bx, by, 1),
                    0, args))
        goto out;
    for (unsigned cy = 0; cy < gy; cy++)
        for (unsigned cx = 0; cx < gx; cx++)
            for (unsigned ty = 0; ty < by; ty++)
                for (unsigned tx = 0; tx < bx; tx++) {
                    if ((tx + ty) % 5 != 0)
                        continue;
                    unsigned t = tx + bx * ty, g = (cx + gx * cy) * tpb + t;
                    snprintf(line, sizeof line, "cta(%u,%u) tid(%u,%u) v=%d\n", cx, cy, tx, ty,
                             vals[g] + (int32_t)t);
                    text_add(&exp, line);
                }
    gs = sorted_lines(cap.buf ? cap.buf : "");
    es = sorted_lines(exp.buf);
    if (gs && es)
        check_text("printf_grid (lines sorted)", gs, es);
    free(gs);
    free(es);
    gs = es = NULL;

    capture_reset(&cap);
    exp.len = 0;
    exp.buf[0] = 0;
    if (!e2e_launch(dev, kl, "printf_loop block 32", e2e_dim3(1, 1, 1), e2e_dim3(32, 1, 1), 0,
                    NULL))
        goto out;
    for (unsigned t = 0; t < 32; t++) {
        for (unsigned kk = 0; kk < t % 4; kk++) {
            snprintf(line, sizeof line, "t%u k%u\n", t, kk);
            text_add(&exp, line);
        }
        if (t & 1)
            snprintf(line, sizeof line, "odd %u\n", t);
        else
            snprintf(line, sizeof line, "even %u sq %u\n", t, t * t);
        text_add(&exp, line);
    }
    gs = sorted_lines(cap.buf ? cap.buf : "");
    es = sorted_lines(exp.buf);
    if (gs && es)
        check_text("printf_loop (lines sorted)", gs, es);
    CHECK_MSG(cap.partial == 0, "%d callback calls without a whole line", cap.partial);
out:
    free(gs);
    free(es);
    e2e_free(dev, dv);
    e2e_device_destroy(dev);
    free(cap.buf);
}

/* Output not yet synchronized is delivered when the device is destroyed. */
static void test_printf_at_destroy(void)
{
    capture cap = {0};
    lockstep_device *dev = printf_device(&cap);
    lockstep_module *mod = e2e_load(dev, "printf.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "printf_loop");
    if (k && E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(2, 1, 1), 0,
                                              NULL, NULL))) {
        e2e_device_destroy(dev);
        dev = NULL;
        char *gs = sorted_lines(cap.buf ? cap.buf : "");
        if (gs)
            check_text("printf_loop block 2, delivered by lockstep_device_destroy (sorted)", gs,
                       "even 0 sq 0\nodd 1\nt1 k0\n");
        free(gs);
    }
    e2e_device_destroy(dev);
    free(cap.buf);
}

/* A printf is one warp instruction in both modes: in timing mode the
 * serial step runs the built-in call, and counts it in the launch's
 * warp_insts as functional mode does (it once went only into the mix). */
static void test_printf_counted(void)
{
    uint64_t insts[2] = {0, 0}, mix[2] = {0, 0};
    for (int timing = 0; timing < 2; timing++) {
        capture cap = {0};
        lockstep_config *cfg = NULL;
        lockstep_device *dev = NULL;
        if (!E2E_OK(NULL, lockstep_config_create(&cfg)))
            return;
        CHECK(lockstep_config_set(cfg, "-lockstep_mode", timing ? "timing" : "functional") ==
              LOCKSTEP_SUCCESS);
        CHECK(lockstep_device_create(cfg, &dev) == LOCKSTEP_SUCCESS);
        lockstep_config_destroy(cfg);
        if (!dev)
            return;
        lockstep_device_set_printf_output(dev, capture_fn, &cap);
        lockstep_module *mod = e2e_load(dev, "printf.ptx");
        lockstep_kernel *k = e2e_kernel(dev, mod, "printf_loop");
        lockstep_launch_stats st;
        if (k && E2E_OK(dev, lockstep_launch_args(dev, k, e2e_dim3(1, 1, 1), e2e_dim3(2, 1, 1), 0,
                                                  NULL, &st))) {
            insts[timing] = st.warp_insts;
            for (int c = 0; c < LOCKSTEP_MIX_COUNT; c++)
                mix[timing] += st.mix[c];
        }
        e2e_device_destroy(dev);
        free(cap.buf);
    }
    CHECK_MSG(insts[0] > 0 && insts[0] == insts[1],
              "printf_loop: %llu warp instructions in functional mode, %llu in timing mode",
              (unsigned long long)insts[0], (unsigned long long)insts[1]);
    CHECK_MSG(mix[1] == insts[1], "timing mode: the mix sums to %llu, warp_insts is %llu",
              (unsigned long long)mix[1], (unsigned long long)insts[1]);
}

int main(void)
{
    RUN(test_printf_formats);
    RUN(test_printf_counted);
    RUN(test_printf_lanes);
    RUN(test_printf_grid_and_loop);
    RUN(test_printf_at_destroy);
    return test_summary();
}
