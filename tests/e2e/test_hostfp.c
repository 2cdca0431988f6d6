/*
 * test_hostfp.c -- a launch's results do not depend on the host program's
 * floating-point environment.
 *
 * lockstep runs inside the CUDA program's process, whose host code may have
 * set another rounding mode (fesetround) or, on x86, the FTZ and DAZ bits
 * (-ffast-math does at start-up).  The interpreter's fast paths use host
 * IEEE arithmetic, so a launch must run in the default environment and give
 * the program's back afterwards.  The kernel below does f32 and f64 add,
 * mul, fma, div, rcp, sqrt and rsqrt on operands chosen so that rounding
 * direction and subnormal flushing would change the bits; the outputs under
 * a hostile environment must equal those under the default one, bit for
 * bit, and the hostile environment must be in place again after the launch.
 */
#include <fenv.h>

#include "e2e.h"

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#define HAVE_MXCSR 1
#endif

static const char *const fp_ptx =
    ".version 7.8\n"
    ".target sm_75\n"
    ".address_size 64\n"
    ".visible .entry k(.param .u64 pa, .param .u64 pb, .param .u64 po, .param .u64 pd)\n"
    "{\n"
    "    .reg .b64 %rd<8>;\n"
    "    .reg .f32 %f<12>;\n"
    "    .reg .f64 %fd<6>;\n"
    "    .reg .b32 %r<2>;\n"
    "    ld.param.u64 %rd1, [pa];\n"
    "    ld.param.u64 %rd2, [pb];\n"
    "    ld.param.u64 %rd3, [po];\n"
    "    ld.param.u64 %rd4, [pd];\n"
    "    mov.u32 %r1, %tid.x;\n"
    "    mul.wide.u32 %rd5, %r1, 4;\n"
    "    add.s64 %rd6, %rd1, %rd5;\n"
    "    ld.global.f32 %f1, [%rd6];\n"
    "    add.s64 %rd6, %rd2, %rd5;\n"
    "    ld.global.f32 %f2, [%rd6];\n"
    "    add.f32 %f3, %f1, %f2;\n"
    "    mul.f32 %f4, %f1, %f2;\n"
    "    fma.rn.f32 %f5, %f1, %f2, %f1;\n"
    "    div.rn.f32 %f6, %f1, %f2;\n"
    "    rcp.rn.f32 %f7, %f2;\n"
    "    sqrt.rn.f32 %f8, %f2;\n"
    "    rsqrt.approx.f32 %f9, %f2;\n"
    "    cvt.f64.f32 %fd1, %f1;\n"
    "    cvt.f64.f32 %fd2, %f2;\n"
    "    mul.f64 %fd3, %fd1, %fd2;\n"
    "    mul.f64 %fd3, %fd3, 0d3800000000000000;\n" /* 2^-127: subnormal-range f64 */
    "    div.rn.f64 %fd4, %fd1, %fd2;\n"
    "    mul.wide.u32 %rd5, %r1, 28;\n"
    "    add.s64 %rd7, %rd3, %rd5;\n"
    "    st.global.f32 [%rd7], %f3;\n"
    "    st.global.f32 [%rd7+4], %f4;\n"
    "    st.global.f32 [%rd7+8], %f5;\n"
    "    st.global.f32 [%rd7+12], %f6;\n"
    "    st.global.f32 [%rd7+16], %f7;\n"
    "    st.global.f32 [%rd7+20], %f8;\n"
    "    st.global.f32 [%rd7+24], %f9;\n"
    "    mul.wide.u32 %rd5, %r1, 16;\n"
    "    add.s64 %rd7, %rd4, %rd5;\n"
    "    st.global.f64 [%rd7], %fd3;\n"
    "    st.global.f64 [%rd7+8], %fd4;\n"
    "    ret;\n"
    "}\n";

enum { N = 256 };

static float a[N], b[N];

/* Run the kernel; outputs into o32 (7 per thread) and o64 (2 per thread). */
static int run(lockstep_device *dev, lockstep_kernel *k, uint32_t *o32, uint64_t *o64)
{
    lockstep_dptr da, db, dout, dd;
    if (!E2E_OK(dev, lockstep_malloc(dev, sizeof a, &da)) ||
        !E2E_OK(dev, lockstep_malloc(dev, sizeof b, &db)) ||
        !E2E_OK(dev, lockstep_malloc(dev, (size_t)N * 7 * 4, &dout)) ||
        !E2E_OK(dev, lockstep_malloc(dev, (size_t)N * 2 * 8, &dd)))
        return 0;
    E2E_OK(dev, lockstep_memcpy_htod(dev, da, a, sizeof a));
    E2E_OK(dev, lockstep_memcpy_htod(dev, db, b, sizeof b));
    void *args[] = {&da, &db, &dout, &dd};
    if (!E2E_OK(dev, lockstep_launch_args(dev, k, (lockstep_dim3){1, 1, 1},
                                          (lockstep_dim3){N, 1, 1}, 0, args, NULL)))
        return 0;
    E2E_OK(dev, lockstep_memcpy_dtoh(dev, o32, dout, (size_t)N * 7 * 4));
    E2E_OK(dev, lockstep_memcpy_dtoh(dev, o64, dd, (size_t)N * 2 * 8));
    return 1;
}

static void test_hostile_environment(void)
{
    uint64_t rng = 12345;
    for (int i = 0; i < N; i++) {
        /* subnormal, tiny, ordinary and huge magnitudes, both signs */
        int kind = i % 4;
        float x = (float)(e2e_rand(&rng) % 100000) / 7.0f + 1.0f / 3.0f;
        float y = (float)(e2e_rand(&rng) % 100000) / 11.0f + 1.0f / 7.0f;
        if (kind == 0) {
            x *= 1e-41f; /* subnormal */
            y *= 3e-39f;
        } else if (kind == 1) {
            x *= 1e-20f;
            y *= 1e-19f;
        } else if (kind == 3) {
            x *= 1e30f;
            y *= 1e36f; /* 1/y near the subnormal range */
        }
        a[i] = i & 4 ? -x : x;
        b[i] = y;
    }
    lockstep_device *dev = NULL;
    lockstep_module *mod = NULL;
    lockstep_kernel *k = NULL;
    if (!E2E_OK(NULL, lockstep_device_create(NULL, &dev)))
        return;
    if (!E2E_OK(dev, lockstep_module_load_ptx(dev, fp_ptx, strlen(fp_ptx), "hostfp.ptx", &mod)) ||
        !E2E_OK(dev, lockstep_module_get_kernel(mod, "k", &k))) {
        lockstep_device_destroy(dev);
        return;
    }
    static uint32_t ref32[N * 7], got32[N * 7];
    static uint64_t ref64[N * 2], got64[N * 2];
    int ok = run(dev, k, ref32, ref64);

    /* the hostile environment: rounding up, and on x86 FTZ + DAZ */
    int modes[] = {FE_UPWARD, FE_DOWNWARD, FE_TOWARDZERO};
    for (size_t m = 0; ok && m < sizeof modes / sizeof modes[0]; m++) {
        CHECK(fesetround(modes[m]) == 0);
#ifdef HAVE_MXCSR
        unsigned csr = _mm_getcsr() | 0x8040u;
        _mm_setcsr(csr);
#endif
        memset(got32, 0, sizeof got32);
        memset(got64, 0, sizeof got64);
        int ran = run(dev, k, got32, got64);
        int mode_after = fegetround();
#ifdef HAVE_MXCSR
        unsigned csr_after = _mm_getcsr();
        _mm_setcsr(csr & ~0x8040u);
#endif
        fesetround(FE_TONEAREST);
        CHECK_MSG(mode_after == modes[m], "rounding mode not restored after the launch");
#ifdef HAVE_MXCSR
        CHECK_MSG(csr_after == csr, "MXCSR %#x after the launch, %#x before", csr_after, csr);
#endif
        if (!ran)
            break;
        int bad = 0;
        for (int i = 0; i < N * 7; i++)
            if (got32[i] != ref32[i] && bad++ < 4)
                fprintf(stderr, "  mode %zu: f32 output %d (op %d of a=%a b=%a): %#x, default env gives %#x\n",
                        m, i, i % 7, (double)a[i / 7], (double)b[i / 7], got32[i], ref32[i]);
        for (int i = 0; i < N * 2; i++)
            if (got64[i] != ref64[i] && bad++ < 8)
                fprintf(stderr, "  mode %zu: f64 output %d: %#llx, default env gives %#llx\n", m, i,
                        (unsigned long long)got64[i], (unsigned long long)ref64[i]);
        CHECK_MSG(bad == 0, "%d outputs depend on the host floating-point environment", bad);
    }
    /* the reference itself is right where the host can tell */
    for (int i = 0; i < N; i++) {
        float s;
        memcpy(&s, &ref32[i * 7], 4);
        if (s != a[i] + b[i]) {
            CHECK_MSG(0, "add %d: %a + %a gave %a", i, (double)a[i], (double)b[i], (double)s);
            break;
        }
    }
    lockstep_device_destroy(dev);
}

int main(void)
{
    RUN(test_hostile_environment);
    return test_summary();
}
