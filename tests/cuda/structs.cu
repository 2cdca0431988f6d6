/* structs.cu -- structures passed to kernels by value.
 *
 * A particle-update workload whose parameters arrive as structs: one with
 * mixed member types in an order that forces padding (char, double, short,
 * int, float, bool, unsigned long long) and an int array member; a nested
 * struct holding a float3, an array of small structs and pointers; a large
 * struct (a 64-float table and a length, 260 bytes); and a mix of struct
 * and scalar arguments around them.  The kernel writes back what it saw of
 * every member, so a wrong offset or size in the parameter buffer shows as
 * the member it corrupted. */
#include "common.cuh"

#include <stdint.h>

struct Mixed {
    char tag;
    double scale;
    short bias;
    int idx[5];
    float offset;
    bool negate;
    unsigned long long mask;
};

struct Bounds {
    float3 lo, hi;
};

struct Pair {
    short a;
    char b;
};

struct Nested {
    Bounds box;
    Pair pairs[3];
    const float *pos;  /* device pointers inside a struct */
    float *out;
    int n;
};

struct Table {
    float w[64];
    int len;
};

/* Writes every member of m into echo[0..11] (as doubles). */
__global__ void echo_mixed(Mixed m, double *echo)
{
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        echo[0] = m.tag;
        echo[1] = m.scale;
        echo[2] = m.bias;
        for (int k = 0; k < 5; k++)
            echo[3 + k] = m.idx[k];
        echo[8] = m.offset;
        echo[9] = m.negate ? 1.0 : 0.0;
        echo[10] = (double)(m.mask >> 32);
        echo[11] = (double)(m.mask & 0xffffffffull);
    }
}

/* out[i] = f(in[i]) using every member of m. */
__global__ void transform(int pre, Mixed m, const int *in, double *out, int n, char post)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        double v = in[i] * m.scale + m.bias + m.offset + m.idx[i % 5] + m.tag + pre + post;
        if ((m.mask >> (i % 64)) & 1)
            v = -v;
        out[i] = m.negate ? -v : v;
    }
}

/* Clamps particles to the box and mixes in the pairs. */
__global__ void clamp_particles(Nested p, float scale)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < p.n) {
        float x = p.pos[3 * i], y = p.pos[3 * i + 1], z = p.pos[3 * i + 2];
        x = fminf(fmaxf(x, p.box.lo.x), p.box.hi.x);
        y = fminf(fmaxf(y, p.box.lo.y), p.box.hi.y);
        z = fminf(fmaxf(z, p.box.lo.z), p.box.hi.z);
        const Pair &q = p.pairs[i % 3];
        p.out[i] = (x + y + z) * scale + q.a - q.b;
    }
}

/* A 64-tap table lookup: out[i] = w[i % len] * (i + 1). */
__global__ void lookup(Table t, float *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = t.w[i % t.len] * (float)(i + 1);
}

int main(void)
{
    Mixed m;
    memset(&m, 0, sizeof m);
    m.tag = 'A';
    m.scale = 0.75;
    m.bias = -12;
    for (int k = 0; k < 5; k++)
        m.idx[k] = (k + 1) * 100;
    m.offset = 0.5f;
    m.negate = true;
    m.mask = 0x8000000100000005ull;

    /* Echo of every member. */
    {
        double *decho, echo[12];
        CHECK(cudaMalloc(&decho, sizeof echo));
        echo_mixed<<<1, 32>>>(m, decho);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(echo, decho, sizeof echo, cudaMemcpyDeviceToHost));
        const double exp[12] = {65, 0.75, -12, 100, 200, 300, 400, 500, 0.5, 1,
                                (double)0x80000001u, 5};
        check_array_near("every member of a padded struct passed by value", exp, echo, 12, 0.0);
        CHECK(cudaFree(decho));
    }

    /* The struct between scalar arguments. */
    {
        const int n = 4000;
        int *in = (int *)malloc(n * sizeof(int));
        double *ref = (double *)malloc(n * sizeof(double)), *got = (double *)malloc(n * sizeof(double));
        for (int i = 0; i < n; i++)
            in[i] = i * 3 - 2000;
        const int pre = 7;
        const char post = 3;
        for (int i = 0; i < n; i++) {
            double v = in[i] * m.scale + m.bias + m.offset + m.idx[i % 5] + m.tag + pre + post;
            if ((m.mask >> (i % 64)) & 1)
                v = -v;
            ref[i] = m.negate ? -v : v;
        }
        int *din;
        double *dout;
        CHECK(cudaMalloc(&din, n * sizeof(int)));
        CHECK(cudaMalloc(&dout, n * sizeof(double)));
        CHECK(cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice));
        transform<<<(n + 191) / 192, 192>>>(pre, m, din, dout, n, post);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got, dout, n * sizeof(double), cudaMemcpyDeviceToHost));
        check_array_near("struct between scalar arguments", ref, got, n, 0.0);

        /* A second launch with changed members must see the new values. */
        Mixed m2 = m;
        m2.negate = false;
        m2.idx[2] = -1;
        m2.mask = 0;
        for (int i = 0; i < n; i++)
            ref[i] = in[i] * m2.scale + m2.bias + m2.offset + m2.idx[i % 5] + m2.tag + pre + post;
        transform<<<(n + 191) / 192, 192>>>(pre, m2, din, dout, n, post);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got, dout, n * sizeof(double), cudaMemcpyDeviceToHost));
        check_array_near("second launch with a modified struct copy", ref, got, n, 0.0);
        CHECK(cudaFree(din));
        CHECK(cudaFree(dout));
        free(in);
        free(ref);
        free(got);
    }

    /* Nested struct with a float3 pair, an array of structs and pointers. */
    {
        const int n = 3333;
        float *pos = (float *)malloc(3 * n * sizeof(float));
        float *ref = (float *)malloc(n * sizeof(float)), *got = (float *)malloc(n * sizeof(float));
        for (int i = 0; i < 3 * n; i++)
            pos[i] = (float)((i * 13) % 64 - 32) * 0.25f;
        Nested p;
        memset(&p, 0, sizeof p);
        p.box.lo = make_float3(-4.0f, -2.5f, 0.0f);
        p.box.hi = make_float3(3.0f, 5.0f, 1.5f);
        p.pairs[0].a = 1000;
        p.pairs[0].b = 1;
        p.pairs[1].a = -300;
        p.pairs[1].b = -7;
        p.pairs[2].a = 42;
        p.pairs[2].b = 100;
        p.n = n;
        float *dpos, *dout;
        CHECK(cudaMalloc(&dpos, 3 * n * sizeof(float)));
        CHECK(cudaMalloc(&dout, n * sizeof(float)));
        CHECK(cudaMemcpy(dpos, pos, 3 * n * sizeof(float), cudaMemcpyHostToDevice));
        p.pos = dpos;
        p.out = dout;
        const float scale = 4.0f;
        for (int i = 0; i < n; i++) {
            float x = fminf(fmaxf(pos[3 * i], p.box.lo.x), p.box.hi.x);
            float y = fminf(fmaxf(pos[3 * i + 1], p.box.lo.y), p.box.hi.y);
            float z = fminf(fmaxf(pos[3 * i + 2], p.box.lo.z), p.box.hi.z);
            ref[i] = (x + y + z) * scale + p.pairs[i % 3].a - p.pairs[i % 3].b;
        }
        clamp_particles<<<(n + 63) / 64, 64>>>(p, scale);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
        check_array_near("nested struct with float3, struct array and pointers", ref, got, n, 0.0);
        CHECK(cudaFree(dpos));
        CHECK(cudaFree(dout));
        free(pos);
        free(ref);
        free(got);
    }

    /* A large struct parameter. */
    {
        const int n = 2048;
        Table t;
        for (int k = 0; k < 64; k++)
            t.w[k] = (float)(k - 32) * 0.5f;
        t.len = 61;
        float *ref = (float *)malloc(n * sizeof(float)), *got = (float *)malloc(n * sizeof(float));
        for (int i = 0; i < n; i++)
            ref[i] = t.w[i % t.len] * (float)(i + 1);
        float *dout;
        CHECK(cudaMalloc(&dout, n * sizeof(float)));
        lookup<<<n / 128, 128>>>(t, dout, n);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
        check_array_near("260-byte struct with a 64-float array member", ref, got, n, 0.0);
        CHECK(cudaFree(dout));
        free(ref);
        free(got);
    }
    return finish();
}
