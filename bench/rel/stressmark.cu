// stressmark.cu -- Sheaffer et al.'s memory stressmark (papers/
// redundancy-recovery-gpgpu.txt, section 4.2.1 and Table 2) as a CUDA
// program, for the DMR evaluation (bench/rel/dmr_eval.py).
//
// One thread per element of a D x D domain.  Each thread makes R texture
// reads (R = 0, 1, 2, 4, 8 or 16) of a D x D float image at fixed offsets
// around its element, as the paper's fragment programs do: the reads are
// issued two at a time and used at once with the running result by a
// multiply-add (one read alone: a multiply-add with a constant), so every
// fetched value is used; then the same seven arithmetic operations the
// 0-read program is made of, and one store of the result.  It is a worst
// case for the memory system, and its neighbouring threads share texels,
// so a texture cache that both copies of a redundant pair use sees hits
// the other copy brought in.
//
//     stressmark [--domain D] [--reads R] [--seed N] [--size small|medium|large]
//
// --size picks D (64, 256, 512) when --domain is not given; R defaults to 4.
// The result is checked bit for bit against the same arithmetic on the CPU
// (every operation rounded on its own: __fmaf_rn / __fmul_rn / __fadd_rn
// against fmaf / float operations) and the last line is bench.h's
//     RESULT check=pass|fail hash=...
#include "bench.h"
#include <vector>

#define BLOCK 16
#define MAX_READS 16

// Texel offsets, the reads' order: the 3 x 3 neighbourhood first, then
// farther (the image is addressed with clamping at its edges).
__host__ __device__ static inline void read_offset(int i, int *dx, int *dy)
{
    const int ox[MAX_READS] = {0, 1, 0, -1, 0, 1, -1, 1, -1, 2, 0, -2, 0, 2, -2, 2};
    const int oy[MAX_READS] = {0, 0, 1, 0, -1, 1, 1, -1, -1, 0, 2, 0, -2, 2, -2, -2};
    *dx = ox[i];
    *dy = oy[i];
}

// The seven closing operations, the whole of the 0-read program's work.
__host__ __device__ static inline float closing(float v, float x, float y)
{
#ifdef __CUDA_ARCH__
    v = __fmaf_rn(v, 0.75f, x);
    v = __fmul_rn(v, 1.0009765625f);
    v = __fadd_rn(v, y);
    v = __fmaf_rn(v, v, -0.25f);
    v = __fmul_rn(v, 0.5f);
    v = __fadd_rn(v, 0.125f);
    v = __fmaf_rn(v, 0.9375f, 1.0f);
#else
    v = fmaf(v, 0.75f, x);
    v = v * 1.0009765625f;
    v = v + y;
    v = fmaf(v, v, -0.25f);
    v = v * 0.5f;
    v = v + 0.125f;
    v = fmaf(v, 0.9375f, 1.0f);
#endif
    return v;
}

template <int R> __global__ void stress(cudaTextureObject_t img, float *out, int d)
{
    int x = blockIdx.x * BLOCK + threadIdx.x, y = blockIdx.y * BLOCK + threadIdx.y;
    if (x >= d || y >= d)
        return;
    float fx = x + 0.5f, fy = y + 0.5f;
    float acc = (x & 7) * 0.0625f;
    if (R == 1) {
        acc = __fmaf_rn(tex2D<float>(img, fx, fy), 0.5f, acc);
    } else {
#pragma unroll
        for (int i = 0; i < R; i += 2) {
            int ax, ay, bx, by;
            read_offset(i, &ax, &ay);
            read_offset(i + 1, &bx, &by);
            float a = tex2D<float>(img, fx + ax, fy + ay);
            float b = tex2D<float>(img, fx + bx, fy + by);
            acc = __fmaf_rn(a, b, acc);
        }
    }
    out[y * d + x] = closing(acc, x * 0.001953125f, y * 0.001953125f);
}

static float texel(const std::vector<float> &img, int d, int x, int y)
{
    x = x < 0 ? 0 : x >= d ? d - 1 : x;
    y = y < 0 ? 0 : y >= d ? d - 1 : y;
    return img[(size_t)y * d + x];
}

static float reference(const std::vector<float> &img, int d, int reads, int x, int y)
{
    float acc = (x & 7) * 0.0625f;
    if (reads == 1) {
        acc = fmaf(texel(img, d, x, y), 0.5f, acc);
    } else {
        for (int i = 0; i < reads; i += 2) {
            int ax, ay, bx, by;
            read_offset(i, &ax, &ay);
            read_offset(i + 1, &bx, &by);
            acc = fmaf(texel(img, d, x + ax, y + ay), texel(img, d, x + bx, y + by), acc);
        }
    }
    return closing(acc, x * 0.001953125f, y * 0.001953125f);
}

static void usage(const char *prog)
{
    fprintf(stderr, "usage: %s [--domain D] [--reads 0|1|2|4|8|16] [--seed N] "
                    "[--size small|medium|large]\n", prog);
    exit(2);
}

int main(int argc, char **argv)
{
    // --domain and --reads are this program's; the rest goes to bench_parse.
    int d = 0, reads = 4;
    std::vector<char *> rest(1, argv[0]);
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--domain") && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || v < 1 || v > 8192)
                usage(argv[0]);
            d = (int)v;
        } else if (!strcmp(argv[i], "--reads") && i + 1 < argc) {
            char *end;
            long v = strtol(argv[++i], &end, 10);
            if (*end || (v != 0 && v != 1 && v != 2 && v != 4 && v != 8 && v != 16))
                usage(argv[0]);
            reads = (int)v;
        } else {
            rest.push_back(argv[i]);
        }
    }
    bench_args args = bench_parse((int)rest.size(), rest.data());
    if (!d)
        d = bench_pick(args, 64, 256, 512);

    bench_rng rng(args.seed);
    std::vector<float> img((size_t)d * d);
    for (auto &v : img)   // multiples of 1/256 in [-1, 1): exact in float
        v = (int)rng.below(512) / 256.0f - 1.0f;

    cudaChannelFormatDesc ch = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CUDA_CHECK(cudaMallocArray(&arr, &ch, d, d));
    CUDA_CHECK(cudaMemcpy2DToArray(arr, 0, 0, img.data(), d * sizeof(float), d * sizeof(float), d,
                                   cudaMemcpyHostToDevice));
    cudaResourceDesc res;
    memset(&res, 0, sizeof res);
    res.resType = cudaResourceTypeArray;
    res.res.array.array = arr;
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = 0;
    cudaTextureObject_t tex;
    CUDA_CHECK(cudaCreateTextureObject(&tex, &res, &td, NULL));

    float *d_out;
    CUDA_CHECK(cudaMalloc(&d_out, (size_t)d * d * sizeof(float)));
    dim3 block(BLOCK, BLOCK), grid((d + BLOCK - 1) / BLOCK, (d + BLOCK - 1) / BLOCK);
    switch (reads) {
    case 0: stress<0><<<grid, block>>>(tex, d_out, d); break;
    case 1: stress<1><<<grid, block>>>(tex, d_out, d); break;
    case 2: stress<2><<<grid, block>>>(tex, d_out, d); break;
    case 4: stress<4><<<grid, block>>>(tex, d_out, d); break;
    case 8: stress<8><<<grid, block>>>(tex, d_out, d); break;
    default: stress<16><<<grid, block>>>(tex, d_out, d); break;
    }
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> out((size_t)d * d);
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));

    size_t bad = 0;
    for (int y = 0; y < d; y++)
        for (int x = 0; x < d; x++) {
            float want = reference(img, d, reads, x, y), got = out[(size_t)y * d + x];
            if (memcmp(&want, &got, sizeof want) && bad++ < 5)
                fprintf(stderr, "element (%d,%d): got %a, want %a\n", x, y, got, want);
        }
    if (bad)
        fprintf(stderr, "%zu of %d elements differ\n", bad, d * d);
    CUDA_CHECK(cudaDestroyTextureObject(tex));
    CUDA_CHECK(cudaFreeArray(arr));
    CUDA_CHECK(cudaFree(d_out));
    bench_result(!bad, bench_hash(out.data(), out.size() * sizeof(float)), NULL);
    return bad ? 1 : 0;
}
