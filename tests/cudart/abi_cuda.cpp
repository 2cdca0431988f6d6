// abi_cuda.cpp -- print the real CUDA runtime's ABI (sizes, offsets, enum
// values) for the same names as abi_ours.c; see abi.sh.
#include <cstddef>
#include <cstdio>

#include <cuda.h>
#include <cuda_runtime.h>
#include <stdint.h>

#include "cudart/cu_results.h"

#include "abi_fields.h"

#define F(s, f) printf("%s.%s %zu\n", #s, #f, offsetof(struct s, f));
#define Z(s) printf("sizeof %s %zu\n", #s, sizeof(struct s));
#define E(e) printf("%s %d\n", #e, (int)(e));

int main()
{
    printf("sizeof cudaDeviceProp %zu\nsizeof cudaFuncAttributes %zu\nsizeof dim3 %zu\n",
           sizeof(struct cudaDeviceProp), sizeof(struct cudaFuncAttributes), sizeof(dim3));
    FIELDS_cudaDeviceProp(F) FIELDS_cudaFuncAttributes(F) FIELDS_cudaChannelFormatDesc(F)
    STRUCTS_MORE(F)
    SIZES(Z)
    ENUMS(E)
    DRV_FIELDS(F)
    DRV_SIZES(Z)
    DRV_ENUMS(E)
#define E2(name, value) E(name)
    CU_RESULTS(E2)
    return 0;
}
