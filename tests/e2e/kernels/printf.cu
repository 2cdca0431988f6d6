// printf.cu -- end-to-end kernels for device-side printf (driver: test_printf.c).
//
// printf_formats: one thread prints every kind of argument nvcc packs into
//   the vprintf argument buffer (int, unsigned, long long, unsigned long long,
//   short and char promoted to int, float promoted to double, double, string
//   addresses from a parameter and from a literal, a pointer) with flags,
//   widths and precisions, a line with no arguments, infinities and %%.
//   The driver formats the same lines with the host's snprintf and compares
//   the text exactly (the %p line only by its shape).
// printf_lanes: the threads of one partial warp print in lane order, first
//   under a bounds check (divergence), then all of them.
// printf_grid: some threads of several 2-D CTAs print; the driver sorts the
//   lines, so the check does not depend on the order of CTAs.
// printf_loop: printf inside a loop with a per-lane trip count and on both
//   sides of a divergent branch; compared after sorting.
#include <cstdio>
#include "common.cuh"

extern "C" __global__ void printf_formats(int i, unsigned u, long long ll,
                                          unsigned long long ull, float f, double d, char c,
                                          const char *str, const int *ptr)
{
    if (e2e_gtid() != 0)
        return;
    printf("hello from the device\n");
    printf("int %d %i %5d|%-5d|%05d %+d\n", i, i, i, i, i, i);
    printf("unsigned %u %x %X %#x %o %#o\n", u, u, u, u, u, u);
    printf("long %ld %lld %llu %llx %lu\n", (long)ll, ll, ull, ull, (unsigned long)ull);
    printf("short %hd %hu char %c%c%c\n", (short)i, (unsigned short)u, c, c + 1, 'z');
    printf("float %f %.3f %10.4f|%-10.2f|%e %E %g %G\n", f, f, f, f, f, f, f, f);
    printf("double %f %.10f %.3e %g %+.2e %08.3f\n", d, d, d, d, d, d);
    printf("string [%s] [%10s] [%-10s] [%.3s] [%s]\n", str, str, str, str, "literal");
    printf("special %f %f %.1f 100%%\n", __int_as_float(0x7f800000),
           __longlong_as_double(0xfff0000000000000ll), -0.0);
    printf("ptr=%p\n", ptr);
    printf("mixed %d %f %s %lld %c %u %e\n", i, d, str, ll, c, u, f);
}

extern "C" __global__ void printf_lanes(const int *vals, int n)
{
    unsigned t = threadIdx.x;
    if (t < (unsigned)n)
        printf("lane %2u val %d hex %08x\n", t, vals[t], (unsigned)vals[t]);
    printf("second %u of %u\n", t, blockDim.x);
}

extern "C" __global__ void printf_grid(const int *vals)
{
    unsigned t = e2e_tid_in_block();
    if ((threadIdx.x + threadIdx.y) % 5u == 0u)
        printf("cta(%u,%u) tid(%u,%u) v=%d\n", blockIdx.x, blockIdx.y, threadIdx.x, threadIdx.y,
               vals[e2e_gtid()] + (int)t);
}

extern "C" __global__ void printf_loop(void)
{
    unsigned t = threadIdx.x;
    for (unsigned k = 0; k < t % 4u; k++)
        printf("t%u k%u\n", t, k);
    if (t & 1u)
        printf("odd %u\n", t);
    else
        printf("even %u sq %u\n", t, t * t);
}
