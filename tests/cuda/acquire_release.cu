// acquire_release.cu -- synchronisation between CTAs through the scoped
// memory model (sm_70 and later): cuda::atomic_ref release stores and
// acquire loads, a lock taken with an acquire compare-and-swap, and
// cooperative groups' grid.sync() (atom.add.release.gpu and an
// ld.acquire.gpu spin).  In each, a CTA first reads the data line another
// CTA will write, so the line sits in its SM's L1; after the acquire it
// must read the new value, on every configuration.  (The Fermi configs keep
// Fermi's incoherent L1 for membar and plain loads, the instructions Fermi
// had; the acquire operations of the scoped model invalidate it.)
#include <cooperative_groups.h>
#include <cuda/atomic>

#include "common.cuh"

namespace cg = cooperative_groups;
using device_int = cuda::atomic_ref<int, cuda::thread_scope_device>;

// CTA 0 writes data then releases the flag, late; CTA 1 reads data first,
// acquires the flag, then reads data again.
__global__ void message(int *data, int *flag, int *out)
{
    if (blockIdx.x == 1) {
        int before = data[threadIdx.x];
        device_int f(*flag);
        while (f.load(cuda::memory_order_acquire) == 0) {
        }
        out[threadIdx.x] = data[threadIdx.x] + 1000 * before;
    } else {
        for (int d = 0; d < 400; d++)
            __nanosleep(100);
        data[threadIdx.x] = 42;
        __syncthreads();
        if (threadIdx.x == 0)
            device_int(*flag).store(1, cuda::memory_order_release);
    }
}

// Every CTA's thread 0 adds to a plain counter 8 times under a lock taken
// with an acquire CAS and released with a release store; before each turn
// it reads the counter (a plain load), so its L1 holds the line.
__global__ void locked(int *lock, int *counter, int *seen)
{
    if (threadIdx.x != 0)
        return;
    device_int l(*lock);
    int peeked = 0;
    for (int i = 0; i < 8; i++) {
        peeked += counter[0];
        int expect = 0;
        while (!l.compare_exchange_strong(expect, 1, cuda::memory_order_acquire,
                                          cuda::memory_order_relaxed))
            expect = 0;
        counter[0] = counter[0] + 1;
        l.store(0, cuda::memory_order_release);
    }
    seen[blockIdx.x] = peeked;
}

// Each one-warp CTA reads the other's line, the grid syncs, each writes its
// own line, the grid syncs, and each reads the other's again.
__global__ void grid_sync(int *data, int *out)
{
    cg::grid_group g = cg::this_grid();
    int other = 1 - blockIdx.x;
    int before = data[other * 32 + threadIdx.x];
    g.sync();
    data[blockIdx.x * 32 + threadIdx.x] = 100 + before;
    g.sync();
    out[blockIdx.x * 32 + threadIdx.x] = data[other * 32 + threadIdx.x];
}

int main()
{
    int *data, *flag, *out;
    CHECK(cudaMalloc(&data, 256));
    CHECK(cudaMalloc(&flag, 4));
    CHECK(cudaMalloc(&out, 256));
    CHECK(cudaMemset(data, 0, 256));
    CHECK(cudaMemset(flag, 0, 4));
    message<<<2, 32>>>(data, flag, out);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());
    int got[64], want[64];
    CHECK(cudaMemcpy(got, out, 128, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 32; i++)
        want[i] = 42;
    check_array_exact("release store, acquire load: the consumer sees the data", want, got, 32);

    const int ctas = 6;
    int *lock, *counter, *seen;
    CHECK(cudaMalloc(&lock, 4));
    CHECK(cudaMalloc(&counter, 4));
    CHECK(cudaMalloc(&seen, ctas * 4));
    CHECK(cudaMemset(lock, 0, 4));
    CHECK(cudaMemset(counter, 0, 4));
    locked<<<ctas, 32>>>(lock, counter, seen);
    CHECK_LAUNCH();
    CHECK(cudaDeviceSynchronize());
    int total = 0;
    CHECK(cudaMemcpy(&total, counter, 4, cudaMemcpyDeviceToHost));
    check_int("a lock taken with an acquire CAS: every increment counts", ctas * 8, total);

    CHECK(cudaMemset(data, 0, 256));
    void *args[] = {&data, &out};
    CHECK(cudaLaunchCooperativeKernel((void *)grid_sync, 2, 32, args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(got, out, 256, cudaMemcpyDeviceToHost));
    for (int i = 0; i < 64; i++)
        want[i] = 100;
    check_array_exact("grid.sync(): each CTA sees the other's writes", want, got, 64);
    return finish();
}
