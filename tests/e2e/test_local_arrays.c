/*
 * test_local_arrays.c -- end-to-end: per-thread local memory
 * (kernels/local_arrays.cu).
 *
 * local_dyn_index (a 32-int array and an array of mixed-size structs indexed
 * by data) and local_sort (an insertion sort of 12 ints and their 64-bit keys
 * in local arrays) run in three shapes; the reference repeats each thread's
 * work in C.  Output slots of threads past n must keep the fill pattern.
 */
#include "e2e.h"

#define LA_N 32
#define LA_OUTS 6
#define SORT_N 12
#define FILL 0xcd

static const char *const la_names[LA_OUTS] = {
    "chased sum", "arr[(v>>5)&31]", "arr[last idx]", "rec tag+s", "rec i", "rec d*4",
};

typedef struct shape_n {
    e2e_shape s;
    size_t n;
} shape_n;

static const shape_n shapes[] = {
    {{"1-D grid 4, block 128", {4, 1, 1}, {128, 1, 1}}, 500},
    {{"2-D grid 3x2, 2-D block 9x9", {3, 2, 1}, {9, 9, 1}}, 480},
    {{"grid 2, 3-D block 4x4x4", {2, 1, 1}, {4, 4, 4}}, 120},
};
#define N_SHAPES (sizeof shapes / sizeof shapes[0])

static void ref_dyn_index(int32_t v, uint32_t *o)
{
    uint32_t arr[LA_N];
    for (uint32_t k = 0; k < LA_N; k++)
        arr[k] = ((uint32_t)v * (k + 1)) ^ k;
    for (uint32_t k = 0; k < LA_N; k++)
        arr[((uint32_t)v + k * 7) & (LA_N - 1)] += k;
    uint32_t sum = 0, idx = (uint32_t)v & (LA_N - 1);
    for (uint32_t step = 0; step < 20; step++) {
        sum += arr[idx];
        idx = (arr[idx] ^ step) & (LA_N - 1);
    }
    uint32_t k = (uint32_t)v % 4u;
    int8_t tag = (int8_t)(uint8_t)((uint32_t)v + k);
    int16_t s = (int16_t)(uint16_t)((uint32_t)v * k);
    o[0] = sum;
    o[1] = arr[(uint32_t)(v >> 5) & (LA_N - 1)];
    o[2] = arr[idx];
    o[3] = (uint32_t)((int32_t)tag + (int32_t)s);
    o[4] = (uint32_t)v - k;
    o[5] = (uint32_t)v + 4 * k;
}

static void test_local_dyn_index(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "local_arrays.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "local_dyn_index");
    if (!k)
        goto out;
    for (size_t si = 0; si < N_SHAPES; si++) {
        const shape_n *sh = &shapes[si];
        size_t n = sh->n, outs = (size_t)e2e_shape_threads(&sh->s) * LA_OUTS;
        int32_t *in = malloc(n * 4);
        uint32_t *exp = malloc(outs * 4), *got = malloc(outs * 4);
        lockstep_dptr din = 0, dout = 0;
        uint64_t st = 0x10c + si;
        if (!in || !exp || !got)
            goto next;
        memset(exp, FILL, outs * 4);
        for (size_t i = 0; i < n; i++) {
            in[i] = (int32_t)e2e_rand_range(&st, -1000000, 1000000);
            ref_dyn_index(in[i], exp + i * LA_OUTS);
        }
        din = e2e_upload(dev, in, n * 4);
        dout = e2e_alloc(dev, outs * 4);
        if (!din || !dout || !e2e_fill(dev, dout, FILL, outs * 4))
            goto next;
        int nn = (int)n;
        void *args[] = {&din, &dout, &nn};
        if (!e2e_launch(dev, k, sh->s.name, sh->s.grid, sh->s.block, 0, args))
            goto next;
        if (e2e_download(dev, got, dout, outs * 4)) {
            e2e_layout lay = {LA_OUTS, la_names};
            char what[128];
            snprintf(what, sizeof what, "local_dyn_index out, %s", sh->s.name);
            e2e_cmp_u32(what, got, exp, outs, &lay);
        }
    next:
        e2e_free(dev, din);
        e2e_free(dev, dout);
        free(in);
        free(exp);
        free(got);
    }
out:
    e2e_device_destroy(dev);
}

static void test_local_sort(void)
{
    lockstep_device *dev = e2e_device();
    lockstep_module *mod = e2e_load(dev, "local_arrays.ptx");
    lockstep_kernel *k = e2e_kernel(dev, mod, "local_sort");
    if (!k)
        goto out;
    for (size_t si = 0; si < N_SHAPES; si++) {
        const shape_n *sh = &shapes[si];
        size_t n = sh->n, outs = (size_t)e2e_shape_threads(&sh->s) * SORT_N;
        int32_t *in = malloc(n * 4);
        uint32_t *exp = malloc(outs * 4), *got = malloc(outs * 4);
        uint64_t *kexp = malloc(outs * 8), *kgot = malloc(outs * 8);
        lockstep_dptr din = 0, dout = 0, dk = 0;
        uint64_t st = 0x50f + si;
        if (!in || !exp || !got || !kexp || !kgot)
            goto next;
        for (size_t i = 0; i < n; i++) /* few distinct values, so ties happen */
            in[i] = (int32_t)e2e_rand_range(&st, -40, 40);
        memset(exp, FILL, outs * 4);
        memset(kexp, FILL, outs * 8);
        for (size_t g = 0; g < n; g++) {
            int32_t a[SORT_N];
            int64_t keys[SORT_N];
            for (int kk = 0; kk < SORT_N; kk++) {
                a[kk] = in[(g + (size_t)kk * 37) % n];
                keys[kk] = (int64_t)a[kk] * 1000003 - kk;
            }
            for (int kk = 1; kk < SORT_N; kk++) {
                int32_t x = a[kk];
                int64_t kx = keys[kk];
                int j = kk - 1;
                while (j >= 0 && a[j] > x) {
                    a[j + 1] = a[j];
                    keys[j + 1] = keys[j];
                    j--;
                }
                a[j + 1] = x;
                keys[j + 1] = kx;
            }
            for (int kk = 0; kk < SORT_N; kk++) {
                exp[g * SORT_N + kk] = (uint32_t)a[kk];
                kexp[g * SORT_N + kk] = (uint64_t)keys[kk];
            }
        }
        din = e2e_upload(dev, in, n * 4);
        dout = e2e_alloc(dev, outs * 4);
        dk = e2e_alloc(dev, outs * 8);
        if (!din || !dout || !dk || !e2e_fill(dev, dout, FILL, outs * 4) ||
            !e2e_fill(dev, dk, FILL, outs * 8))
            goto next;
        int nn = (int)n;
        void *args[] = {&din, &dout, &dk, &nn};
        if (!e2e_launch(dev, k, sh->s.name, sh->s.grid, sh->s.block, 0, args))
            goto next;
        if (e2e_download(dev, got, dout, outs * 4) && e2e_download(dev, kgot, dk, outs * 8)) {
            e2e_layout lay = {SORT_N, NULL};
            char what[128];
            snprintf(what, sizeof what, "local_sort values, %s", sh->s.name);
            e2e_cmp_u32(what, got, exp, outs, &lay);
            snprintf(what, sizeof what, "local_sort 64-bit keys, %s", sh->s.name);
            e2e_cmp_u64(what, kgot, kexp, outs, &lay);
        }
    next:
        e2e_free(dev, din);
        e2e_free(dev, dout);
        e2e_free(dev, dk);
        free(in);
        free(exp);
        free(got);
        free(kexp);
        free(kgot);
    }
out:
    e2e_device_destroy(dev);
}

int main(void)
{
    RUN(test_local_dyn_index);
    RUN(test_local_sort);
    return test_summary();
}
