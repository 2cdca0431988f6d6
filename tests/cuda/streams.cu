/* streams.cu -- a chunked pipeline over several streams.
 *
 * The input is cut into chunks; each chunk goes to its own stream as
 * cudaMemcpyAsync (host to device, from pinned memory), cudaMemsetAsync of a
 * scratch buffer, two dependent kernels and cudaMemcpyAsync back, so only
 * in-order execution within each stream gives the right answer.  Streams come
 * from cudaStreamCreate and cudaStreamCreateWithFlags(cudaStreamNonBlocking);
 * the program waits with cudaStreamSynchronize, asks cudaStreamQuery (which
 * must say cudaSuccess once the stream is drained), destroys streams with
 * cudaStreamDestroy (once with work still queued), and checks the legacy
 * default stream's ordering: work on stream 0 finishes before later work on a
 * blocking stream starts, and a blocking cudaMemcpy waits for blocking
 * streams. */
#include "common.cuh"

/* A deliberately busy kernel: each element goes through a few rounds of an
 * integer hash, so a missing dependency would be visible on real hardware. */
__device__ unsigned mix(unsigned v, int rounds)
{
    for (int r = 0; r < rounds; r++)
        v = v * 1664525u + 1013904223u + (v >> 13);
    return v;
}

static unsigned mix_host(unsigned v, int rounds)
{
    for (int r = 0; r < rounds; r++)
        v = v * 1664525u + 1013904223u + (v >> 13);
    return v;
}

__global__ void stage_hash(const unsigned *in, unsigned *out, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = mix(in[i], rounds);
}

/* out[i] += scratch[i] (scratch was filled by cudaMemsetAsync). */
__global__ void stage_add(unsigned *out, const unsigned *scratch, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += scratch[i] ^ (unsigned)i;
}

__global__ void fill_pattern(unsigned *buf, int n, int rounds)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        buf[i] = mix((unsigned)i, rounds);
}

__global__ void plus_one_times_three(const unsigned *in, unsigned *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = (in[i] + 1u) * 3u;
}

int main(void)
{
    const int nstreams = 4;
    const int chunk = 3000;
    const int n = nstreams * chunk;
    const int rounds = 16;
    const int block = 96; /* 3 warps */
    const int cgrid = (chunk + block - 1) / block;

    unsigned *hin, *hout;
    CHECK(cudaMallocHost(&hin, n * sizeof(unsigned)));
    CHECK(cudaMallocHost(&hout, n * sizeof(unsigned)));
    for (int i = 0; i < n; i++) {
        hin[i] = (unsigned)i * 2654435761u;
        hout[i] = 0;
    }
    unsigned *din, *dout, *dscratch;
    CHECK(cudaMalloc(&din, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&dout, n * sizeof(unsigned)));
    CHECK(cudaMalloc(&dscratch, n * sizeof(unsigned)));

    cudaStream_t s[nstreams];
    CHECK(cudaStreamCreate(&s[0]));
    CHECK(cudaStreamCreate(&s[1]));
    CHECK(cudaStreamCreateWithFlags(&s[2], cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s[3], cudaStreamNonBlocking));

    /* The pipeline: per stream, H2D, memset, hash, add, D2H. */
    const unsigned char fill[nstreams] = {0x11, 0x22, 0x33, 0x44};
    for (int k = 0; k < nstreams; k++) {
        size_t off = (size_t)k * chunk;
        CHECK(cudaMemcpyAsync(din + off, hin + off, chunk * sizeof(unsigned),
                              cudaMemcpyHostToDevice, s[k]));
        CHECK(cudaMemsetAsync(dscratch + off, fill[k], chunk * sizeof(unsigned), s[k]));
        stage_hash<<<cgrid, block, 0, s[k]>>>(din + off, dout + off, chunk, rounds);
        CHECK_LAUNCH();
        stage_add<<<cgrid, block, 0, s[k]>>>(dout + off, dscratch + off, chunk);
        CHECK_LAUNCH();
        CHECK(cudaMemcpyAsync(hout + off, dout + off, chunk * sizeof(unsigned),
                              cudaMemcpyDeviceToHost, s[k]));
    }
    /* Before synchronizing, a query may say either; it must not fail. */
    cudaError_t q = cudaStreamQuery(s[3]);
    check_true("cudaStreamQuery on a busy stream is cudaSuccess or cudaErrorNotReady",
               q == cudaSuccess || q == cudaErrorNotReady, cudaGetErrorName(q));
    for (int k = 0; k < nstreams; k++)
        CHECK(cudaStreamSynchronize(s[k]));
    for (int k = 0; k < nstreams; k++)
        check_err("cudaStreamQuery after cudaStreamSynchronize", cudaSuccess,
                  cudaStreamQuery(s[k]));

    unsigned *ref = (unsigned *)malloc(n * sizeof(unsigned));
    for (int i = 0; i < n; i++) {
        int k = i / chunk, j = i % chunk;
        unsigned f = fill[k] * 0x01010101u;
        ref[i] = mix_host(hin[i], rounds) + (f ^ (unsigned)j);
    }
    check_array_exact("4-stream pipeline (memcpyAsync, memsetAsync, 2 kernels)", ref, hout, n);

    /* Legacy default stream: a kernel on stream 0, then a kernel on a
     * blocking stream that reads its output, then a blocking cudaMemcpy
     * that must see the second kernel's result. */
    {
        unsigned *da, *db;
        CHECK(cudaMalloc(&da, n * sizeof(unsigned)));
        CHECK(cudaMalloc(&db, n * sizeof(unsigned)));
        CHECK(cudaMemset(db, 0, n * sizeof(unsigned)));
        fill_pattern<<<(n + 127) / 128, 128>>>(da, n, 64);
        CHECK_LAUNCH();
        plus_one_times_three<<<(n + 127) / 128, 128, 0, s[0]>>>(da, db, n);
        CHECK_LAUNCH();
        unsigned *got = (unsigned *)malloc(n * sizeof(unsigned));
        CHECK(cudaMemcpy(got, db, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++)
            ref[i] = (mix_host((unsigned)i, 64) + 1u) * 3u;
        check_array_exact("default stream then blocking stream then cudaMemcpy", ref, got, n);

        /* The same through explicit stream 0 launches and a blocking
         * stream's memset that must wait for them. */
        fill_pattern<<<(n + 127) / 128, 128, 0, 0>>>(da, n, 5);
        CHECK_LAUNCH();
        CHECK(cudaMemsetAsync(da, 0, 100 * sizeof(unsigned), s[1]));
        CHECK(cudaStreamSynchronize(s[1]));
        CHECK(cudaMemcpy(got, da, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++)
            ref[i] = i < 100 ? 0u : mix_host((unsigned)i, 5);
        check_array_exact("stream 0 kernel then blocking-stream memsetAsync", ref, got, n);
        free(got);
        CHECK(cudaFree(da));
        CHECK(cudaFree(db));
    }

    /* A non-blocking stream used on its own, synchronized explicitly. */
    {
        unsigned *dc;
        CHECK(cudaMalloc(&dc, n * sizeof(unsigned)));
        CHECK(cudaMemsetAsync(dc, 0x7f, n * sizeof(unsigned), s[2]));
        plus_one_times_three<<<(n + 255) / 256, 256, 0, s[2]>>>(dc, dc, n);
        CHECK_LAUNCH();
        CHECK(cudaMemcpyAsync(hout, dc, n * sizeof(unsigned), cudaMemcpyDeviceToHost, s[2]));
        CHECK(cudaStreamSynchronize(s[2]));
        for (int i = 0; i < n; i++)
            ref[i] = (0x7f7f7f7fu + 1u) * 3u;
        check_array_exact("non-blocking stream memset, kernel, copy", ref, hout, n);

        /* Destroying a stream with queued work: the work still completes. */
        fill_pattern<<<(n + 255) / 256, 256, 0, s[3]>>>(dc, n, 3);
        CHECK_LAUNCH();
        CHECK(cudaStreamDestroy(s[3]));
        CHECK(cudaDeviceSynchronize());
        CHECK(cudaMemcpy(hout, dc, n * sizeof(unsigned), cudaMemcpyDeviceToHost));
        for (int i = 0; i < n; i++)
            ref[i] = mix_host((unsigned)i, 3);
        check_array_exact("work queued before cudaStreamDestroy completes", ref, hout, n);
        CHECK(cudaFree(dc));
    }

    for (int k = 0; k < 3; k++)
        CHECK(cudaStreamDestroy(s[k]));
    CHECK(cudaFree(din));
    CHECK(cudaFree(dout));
    CHECK(cudaFree(dscratch));
    CHECK(cudaFreeHost(hin));
    CHECK(cudaFreeHost(hout));
    free(ref);
    return finish();
}
