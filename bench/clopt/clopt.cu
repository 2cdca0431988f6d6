// clopt.cu -- cloth simulation with an interleaved work distribution
// (GPUDet's "CLopt"; bench/cl is the same simulation distributed
// block-wise).
//
// The simulation, its exact CPU check and the driver are cl's, in
// bench/cl/cloth.cuh.  Work distribution (the only difference from cl): the
// grid has P / CHUNK threads, T in all, and thread t handles particles t,
// t + T, t + 2T, ...  Neighbouring lanes of a warp touch neighbouring
// addresses, so the loads and stores coalesce.  GPUDet reports this version
// 30% faster than CL on its baseline and much cheaper under GPUDet (fewer,
// fuller store-buffer entries).
#include "../cl/cloth.cuh"

// One time step, interleaved: with T threads, thread t owns particles
// t, t + T, t + 2T, ...
__global__ void cloth_step(const float *px, const float *py, const float *pz, float *qx, float *qy,
                           float *qz, int w, int h, float spacing)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, p = w * h;
    int stride = gridDim.x * blockDim.x;
    for (int i = t; i < p; i += stride)
        particle_step(px, py, pz, qx, qy, qz, i, w, h, spacing);
}

int main(int argc, char **argv)
{
    return cloth_main(argc, argv, "clopt", "interleaved");
}
