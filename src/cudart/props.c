/*
 * props.c -- what the simulated GPU says about itself through
 * cudaGetDeviceProperties and cudaDeviceGetAttribute, derived from the
 * device's configuration (SM count, threads per SM, memory sizes), plus the
 * internal hooks the runtime needs.  Compute capability 7.5 matches the
 * PTX target lockstep's tests use; timing configs (a later issue) refine it.
 */
#include <stdio.h>
#include <string.h>

#include "core/device_int.h"
#include "cudart/runtime.h"

unsigned cudart_num_sms(lockstep_device *dev)
{
    device_shape sh;
    device_get_shape(dev, &sh);
    return sh.sms;
}

void cudart_fill_properties(lockstep_device *dev, struct cudaDeviceProp *p)
{
    device_shape c;
    device_get_shape(dev, &c);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "lockstep simulated GPU (functional)");
    memcpy(p->uuid.bytes, "lockstep-sim-gpu", 16);
    p->totalGlobalMem = (size_t)c.device_memory;
    p->sharedMemPerBlock = c.max_cta_shared;
    p->regsPerBlock = (int)c.regs_per_sm;
    p->warpSize = 32;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = (int)c.max_cta_threads;
    p->maxThreadsDim[0] = 1024;
    p->maxThreadsDim[1] = 1024;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = 2147483647;
    p->maxGridSize[1] = 65535;
    p->maxGridSize[2] = 65535;
    p->totalConstMem = 65536;
    p->major = 7;
    p->minor = 5;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->multiProcessorCount = (int)c.sms;
    p->canMapHostMemory = 1;
    p->concurrentKernels = 1;
    p->asyncEngineCount = 2;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = 384;
    p->l2CacheSize = 786432;
    p->maxThreadsPerMultiProcessor = (int)c.threads_per_sm;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = c.shmem_per_sm;
    p->regsPerMultiprocessor = (int)c.regs_per_sm;
    p->managedMemory = 1;
    p->concurrentManagedAccess = 0;
    p->sharedMemPerBlockOptin = c.max_cta_shared;
    p->maxBlocksPerMultiProcessor = (int)c.ctas_per_sm;
    p->cooperativeLaunch = 1;     /* cudaLaunchCooperativeKernel, grid.sync() */
    p->memoryPoolsSupported = 1;  /* cudaMallocAsync and the cudaMemPool family */
    p->pciBusID = 0;
    p->pciDeviceID = 0;
}

int cudart_attribute(lockstep_device *dev, int attr, int *v)
{
    struct cudaDeviceProp p;
    cudart_fill_properties(dev, &p);
    switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *v = p.maxThreadsPerBlock; return 0;
    case cudaDevAttrMaxBlockDimX: *v = p.maxThreadsDim[0]; return 0;
    case cudaDevAttrMaxBlockDimY: *v = p.maxThreadsDim[1]; return 0;
    case cudaDevAttrMaxBlockDimZ: *v = p.maxThreadsDim[2]; return 0;
    case cudaDevAttrMaxGridDimX: *v = p.maxGridSize[0]; return 0;
    case cudaDevAttrMaxGridDimY: *v = p.maxGridSize[1]; return 0;
    case cudaDevAttrMaxGridDimZ: *v = p.maxGridSize[2]; return 0;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = (int)p.sharedMemPerBlock; return 0;
    case cudaDevAttrTotalConstantMemory: *v = (int)p.totalConstMem; return 0;
    case cudaDevAttrWarpSize: *v = 32; return 0;
    case cudaDevAttrMaxPitch: *v = (int)p.memPitch; return 0;
    case cudaDevAttrMaxRegistersPerBlock: *v = p.regsPerBlock; return 0;
    case cudaDevAttrClockRate: *v = 1000000; return 0; /* kHz: the functional clock */
    case cudaDevAttrTextureAlignment: *v = (int)p.textureAlignment; return 0;
    case cudaDevAttrGpuOverlap: *v = 1; return 0;
    case cudaDevAttrMultiProcessorCount: *v = p.multiProcessorCount; return 0;
    case cudaDevAttrKernelExecTimeout: *v = 0; return 0;
    case cudaDevAttrIntegrated: *v = 0; return 0;
    case cudaDevAttrCanMapHostMemory: *v = 1; return 0;
    case cudaDevAttrComputeMode: *v = 0; return 0;
    case cudaDevAttrConcurrentKernels: *v = 1; return 0;
    case cudaDevAttrEccEnabled: *v = 0; return 0;
    case cudaDevAttrPciBusId: case cudaDevAttrPciDeviceId: case cudaDevAttrPciDomainId: *v = 0; return 0;
    case cudaDevAttrTccDriver: *v = 0; return 0;
    case cudaDevAttrMemoryClockRate: *v = 1000000; return 0;
    case cudaDevAttrGlobalMemoryBusWidth: *v = p.memoryBusWidth; return 0;
    case cudaDevAttrL2CacheSize: *v = p.l2CacheSize; return 0;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = p.maxThreadsPerMultiProcessor; return 0;
    case cudaDevAttrAsyncEngineCount: *v = p.asyncEngineCount; return 0;
    case cudaDevAttrUnifiedAddressing: *v = 1; return 0;
    case cudaDevAttrComputeCapabilityMajor: *v = p.major; return 0;
    case cudaDevAttrComputeCapabilityMinor: *v = p.minor; return 0;
    case cudaDevAttrStreamPrioritiesSupported: *v = 0; return 0;
    case cudaDevAttrGlobalL1CacheSupported: case cudaDevAttrLocalL1CacheSupported: *v = 1; return 0;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = (int)p.sharedMemPerMultiprocessor; return 0;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *v = p.regsPerMultiprocessor; return 0;
    case cudaDevAttrManagedMemory: *v = 1; return 0;
    case cudaDevAttrIsMultiGpuBoard: case cudaDevAttrMultiGpuBoardGroupID: *v = 0; return 0;
    case cudaDevAttrConcurrentManagedAccess: *v = 0; return 0;
    case cudaDevAttrCooperativeLaunch: *v = 1; return 0;
    case cudaDevAttrMemoryPoolsSupported: *v = 1; return 0;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (int)p.sharedMemPerBlockOptin; return 0;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *v = p.maxBlocksPerMultiProcessor; return 0;
    default: return -1;
    }
}

int cudart_set_option(lockstep_device *dev, const char *name, const char *value)
{
    return device_set_option(dev, name, value) == LOCKSTEP_SUCCESS ? 0 : -1;
}

void cudart_free_user_allocations(lockstep_device *dev) { device_free_user_allocations(dev); }

void *cudart_device_host_view(lockstep_device *dev, lockstep_dptr addr, size_t size)
{
    return device_host_view(dev, addr, size);
}
