// cl.cu -- cloth simulation with a block-wise work distribution (GPUDet's
// "CL"; bench/clopt is the same simulation distributed for coalescing).
//
// The simulation, its exact CPU check and the driver are in cloth.cuh,
// shared with clopt.  Work distribution (the only difference from clopt):
// the grid has P / CHUNK threads and thread t handles the CHUNK consecutive
// particles t*CHUNK ... t*CHUNK + CHUNK - 1.  Neighbouring lanes of a warp
// touch addresses CHUNK floats apart, so the loads and stores are
// uncoalesced: GPUDet's example of store-buffer entries swollen by sparse
// writes.
#include "cloth.cuh"

// One time step, block-wise: thread t owns particles [t*CHUNK, t*CHUNK + CHUNK).
__global__ void cloth_step(const float *px, const float *py, const float *pz, float *qx, float *qy,
                           float *qz, int w, int h, float spacing)
{
    int t = blockIdx.x * blockDim.x + threadIdx.x, p = w * h;
    for (int c = 0; c < CHUNK; c++) {
        int i = t * CHUNK + c;
        if (i < p)
            particle_step(px, py, pz, qx, qy, qz, i, w, h, spacing);
    }
}

int main(int argc, char **argv)
{
    return cloth_main(argc, argv, "cl", "block-wise");
}
