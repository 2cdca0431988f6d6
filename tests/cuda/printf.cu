/* printf.cu -- device printf, checked line by line against expected output.
 *
 * Every line this program prints is deterministic, and
 * expected/printf.stdout holds them: device printf from one thread with the
 * usual conversions (d i u x X o c s f e g %%, l and ll lengths, width,
 * precision and the - + 0 # space flags, float arguments promoted to
 * double), from the lanes of one warp one after another (__syncwarp between
 * them), from lanes of one converged warp in a single call, from one thread
 * per kernel over a sequence of launches, and a warp-reduction result printed
 * by lane 0 and checked by the host too.  Device output appears when the
 * host synchronizes; the host flushes its own stdout before each launch so
 * the two streams interleave in program order. */
#include "common.cuh"

__device__ const char *const g_names[4] = {"alpha", "beta", "gamma", "delta"};

__global__ void formats(int i, long long ll, double d, float f)
{
    if (blockIdx.x != 0 || threadIdx.x != 0)
        return;
    printf("device: hello from block %d thread %d\n", blockIdx.x, threadIdx.x);
    printf("int: %d %i %u %x %X %o\n", i, -i, (unsigned)i, i, i, i);
    printf("widths: [%5d] [%-5d] [%05d] [%+d] [% d] [%#x] [%#o]\n", i, i, i, i, i, i, i);
    printf("long long: %lld %llu %llx\n", ll, (unsigned long long)ll, (unsigned long long)ll);
    printf("long: %ld %lu\n", (long)-123456789, (unsigned long)987654321);
    printf("double: %f %.3f %10.4f [%-10.2f] %e %.2E %g %g\n", d, d, d, d, d, d, d, 1e-5);
    printf("float: %f %g %.1f\n", f, f, f * 2.0f);
    printf("char/string: %c%c%c [%s] [%8s] [%-8s] [%.3s]\n", 'G', 'P', 'U', "lockstep", "sim",
           "sim", "truncate");
    printf("percent: 100%% done\n");
    printf("no arguments at all\n");
    for (int k = 0; k < 4; k++)
        printf("name[%d] = %s\n", k, g_names[k]);
}

/* Lanes 0..n-1 of warp 0 print one after another. */
__global__ void lanes_in_order(int n)
{
    int lane = threadIdx.x % 32;
    if (threadIdx.x >= 32)
        return;
    for (int l = 0; l < n; l++) {
        if (lane == l)
            printf("lane %2d: square %3d, odd=%s\n", lane, lane * lane, (lane & 1) ? "yes" : "no");
        __syncwarp();
    }
}

/* Four lanes of one converged warp in the same printf call. */
__global__ void lanes_together(void)
{
    if (threadIdx.x < 4)
        printf("together: lane %d of warp 0\n", threadIdx.x);
}

/* Sum over the warp with shuffles; lane 0 prints and stores it. */
__global__ void warp_sum(const int *v, int *out)
{
    int x = v[threadIdx.x];
    for (int off = 16; off > 0; off /= 2)
        x += __shfl_down_sync(0xffffffffu, x, off);
    if (threadIdx.x == 0) {
        printf("warp sum = %d\n", x);
        *out = x;
    }
}

/* One thread of the last block prints its launch number. */
__global__ void numbered(int launch)
{
    if (blockIdx.x == gridDim.x - 1 && threadIdx.x == blockDim.x - 1)
        printf("launch %d: grid %d block %d, last thread reporting\n", launch, gridDim.x,
               blockDim.x);
}

int main(void)
{
    printf("host: before the first kernel\n");
    fflush(stdout);
    formats<<<2, 64>>>(255, -1234567890123LL, 3.14159265358979, 0.1f);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());

    printf("host: lanes one by one\n");
    fflush(stdout);
    lanes_in_order<<<1, 64>>>(10);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());

    printf("host: lanes together\n");
    fflush(stdout);
    lanes_together<<<1, 32>>>();
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());

    printf("host: a sequence of launches\n");
    fflush(stdout);
    for (int k = 0; k < 4; k++) {
        numbered<<<k + 1, 32 * (k + 1) + 3>>>(k);
        CHECK_LAUNCH();
        CHECK(cudaDeviceSynchronize());
    }

    int h[32], *dv, *dout, got = 0, ref = 0;
    for (int k = 0; k < 32; k++) {
        h[k] = k * k - 7 * k;
        ref += h[k];
    }
    CHECK(cudaMalloc(&dv, sizeof h));
    CHECK(cudaMalloc(&dout, sizeof(int)));
    CHECK(cudaMemcpy(dv, h, sizeof h, cudaMemcpyHostToDevice));
    printf("host: warp sum\n");
    fflush(stdout);
    warp_sum<<<1, 32>>>(dv, dout);
    CHECK_LAUNCH();
    /* cudaMemcpy synchronizes too; the device line comes out before it returns. */
    CHECK(cudaMemcpy(&got, dout, sizeof got, cudaMemcpyDeviceToHost));
    check_int("warp sum printed by the device matches the host", ref, got);
    CHECK(cudaFree(dv));
    CHECK(cudaFree(dout));
    printf("host: done\n");
    return finish();
}
