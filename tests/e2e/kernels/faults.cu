// faults.cu -- end-to-end kernels that fault on purpose (driver: test_faults.c).
//
// Each faulting statement stands alone on a line marked with a FAULT_* tag
// in a trailing comment; the driver finds the tag in this file and expects
// lockstep_device_last_fault() to report exactly that line (from the PTX
// .loc directives nvcc writes with -lineinfo).
//
// oob_store:       one thread (CTA 1, thread 5) stores far past the end of its
//                  allocation -> LOCKSTEP_ERROR_ILLEGAL_ADDRESS.
// oob_in_callee:   the same inside a __noinline__ function, so the fault names
//                  the callee as the function and the kernel as the kernel.
// misaligned_load: one thread (CTA (0,1), thread 3) loads an int from an odd
//                  byte offset (a char pointer cast to int *)
//                  -> LOCKSTEP_ERROR_MISALIGNED_ADDRESS.
// barrier_deadlock: in a block of 64 threads, __syncthreads() under
//                  if (threadIdx.x < 16): half of warp 0 waits at the barrier
//                  while the rest of warp 0 and all of warp 1 go past it (CUDA
//                  leaves a __syncthreads that not every thread reaches
//                  undefined) -> LOCKSTEP_ERROR_BARRIER_DEADLOCK.
// spin_forever:    while (*flag) {} on a volatile global the host set to 1
//                  and nobody clears -> LOCKSTEP_ERROR_INSN_LIMIT under a small
//                  -lockstep_max_warp_insts.
// trap_kernel:     thread 7 calls __trap() -> LOCKSTEP_ERROR_TRAP.
// assert_kernel:   assert() fails for one element -> LOCKSTEP_ERROR_ASSERT.
// ok_kernel:       a correct kernel, run after every fault to show the device
//                  still works.
#include <cassert>

extern "C" __global__ void oob_store(int *p, int n)
{
    unsigned t = threadIdx.x;
    if (t < (unsigned)n)
        p[t] = (int)t;
    if (blockIdx.x == 1 && t == 5)
        p[n + (1 << 24)] = 42; // FAULT_OOB
}

extern "C" __device__ __noinline__ void store_at(int *p, long long idx, int v)
{
    p[idx] = v; // FAULT_CALLEE
}

extern "C" __global__ void oob_in_callee(int *p, int n)
{
    unsigned t = threadIdx.x;
    long long idx = (blockIdx.x == 0 && t == 9) ? (long long)n + (1 << 24) : (long long)t;
    store_at(p, idx, 7);
}

extern "C" __global__ void misaligned_load(const char *buf, int *out)
{
    unsigned t = threadIdx.x;
    int off = (blockIdx.y == 1 && t == 3) ? 1 : 0;
    const int *ip = (const int *)(buf + 4 * t + off);
    out[t] = *ip; // FAULT_MISALIGNED
}

extern "C" __global__ void barrier_deadlock(int *out)
{
    unsigned t = threadIdx.x;
    if (t < 16u)
        __syncthreads(); // FAULT_BARRIER
    out[t] = (int)t;
}

extern "C" __global__ void spin_forever(volatile int *flag, int *out)
{
    while (*flag) { // FAULT_SPIN
    }
    out[threadIdx.x] = 1;
}

extern "C" __global__ void trap_kernel(int *out)
{
    unsigned t = threadIdx.x;
    if (t == 7)
        __trap(); // FAULT_TRAP
    out[t] = (int)t;
}

extern "C" __global__ void assert_kernel(const int *in, int *out, int n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < (unsigned)n) {
        assert(in[t] >= 0); // FAULT_ASSERT
        out[t] = in[t] * 2;
    }
}

extern "C" __global__ void ok_kernel(int *out, int n)
{
    unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t < (unsigned)n)
        out[t] = (int)t * 3 + 1;
}
