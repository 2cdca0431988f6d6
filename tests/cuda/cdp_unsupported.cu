/* cdp_unsupported.cu -- bad input: device code calling a function of CUDA's
 * device runtime that lockstep does not provide (a device-side 3-D copy,
 * cudaMemcpy3DAsync).  The program loads and runs; the call stops the
 * kernel, lockstep names the function on stderr, and the next synchronizing
 * call returns the error: the program prints its name and exits 3.  On a
 * GPU the copy works and the program exits 0.  Built with
 *     nvcc -cudart shared -O2 -rdc=true -lcudadevrt */
#include "common.cuh"

__global__ void copy3d(cudaPitchedPtr dst, cudaPitchedPtr src)
{
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = src;
    p.dstPtr = dst;
    p.extent.width = 16;
    p.extent.height = 2;
    p.extent.depth = 1;
    p.kind = cudaMemcpyDeviceToDevice;
    cudaMemcpy3DAsync(&p, 0);
}

int main()
{
    char *a, *b;
    CHECK(cudaMalloc(&a, 64));
    CHECK(cudaMalloc(&b, 64));
    CHECK(cudaMemset(a, 1, 64));
    copy3d<<<1, 1>>>(make_cudaPitchedPtr(b, 32, 16, 2), make_cudaPitchedPtr(a, 32, 16, 2));
    cudaError_t e = cudaDeviceSynchronize();
    printf("cudaDeviceSynchronize: %s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 3;
}
