/* abi_ours.c -- print lockstep's CUDA ABI (sizes, offsets, enum values), the driver API's too; see abi.sh. */
#include <stddef.h>
#include <stdio.h>

#include <stdint.h>

#include "cudart/cuda_abi.h"
#include "cudart/cuda_drv.h"
#include "abi_fields.h"

#define F(s, f) printf("%s.%s %zu\n", #s, #f, offsetof(struct s, f));
#define Z(s) printf("sizeof %s %zu\n", #s, sizeof(struct s));
#define E(e) printf("%s %d\n", #e, (int)(e));

int main(void)
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
