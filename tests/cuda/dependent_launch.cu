// dependent_launch.cu -- programmatic dependent launch, built for sm_90
// (tests/cuda/run.sh adds -arch=sm_90), as thrust and CUB use it there: a
// producer signals cudaTriggerProgrammaticLaunchCompletion()
// (griddepcontrol.launch_dependents), its consumer is launched with
// cudaLaunchAttributeProgrammaticStreamSerialization and waits in
// cudaGridDependencySynchronize() (griddepcontrol.wait) before it reads.
// Also: cudaFuncGetAttributes reports the PTX target the kernels were built
// for (90), which CUB checks before it launches anything.
#include "common.cuh"

__global__ void produce(int *data, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        data[i] = 3 * i + 1;
    cudaTriggerProgrammaticLaunchCompletion();
}

__global__ void consume(const int *data, int *out, int n)
{
    cudaGridDependencySynchronize();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = data[n - 1 - i] * 2;
}

int main()
{
    const int n = 1000;
    int *data, *out;
    CHECK(cudaMalloc(&data, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    produce<<<(n + 127) / 128, 128>>>(data, n);
    CHECK_LAUNCH();

    cudaLaunchConfig_t cfg = {};
    cfg.gridDim = dim3((n + 127) / 128);
    cfg.blockDim = dim3(128);
    cudaLaunchAttribute attr[1];
    attr[0].id = cudaLaunchAttributeProgrammaticStreamSerialization;
    attr[0].val.programmaticStreamSerializationAllowed = 1;
    cfg.attrs = attr;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, consume, (const int *)data, out, n));
    CHECK(cudaDeviceSynchronize());

    static int got[n], want[n];
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++)
        want[i] = (3 * (n - 1 - i) + 1) * 2;
    check_array_exact("the dependent grid reads what its producer wrote", want, got, n);

    cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, consume));
    check_int("cudaFuncGetAttributes: ptxVersion is the PTX target (sm_90)", 90, fa.ptxVersion);
    return finish();
}
