/*
 * props.c -- what the simulated GPU says about itself through
 * cudaGetDeviceProperties and cudaDeviceGetAttribute, derived from the
 * device's configuration (SM count, threads per SM, memory sizes, clocks,
 * bus width, L2 size), plus the
 * internal hooks the runtime needs.  Compute capability 7.5 matches the
 * PTX target lockstep's tests use; timing configs (a later issue) refine it.
 */
#include <stdint.h>
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
    /* one name in both modes: a program's output must not depend on the mode */
    snprintf(p->name, sizeof p->name, "lockstep simulated GPU");
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
    /* work runs when it is issued (docs/CUDART.md): kernels of different
     * streams never overlap, nor copies with kernels, and the device says so */
    p->concurrentKernels = 0;
    p->asyncEngineCount = 0;
    p->unifiedAddressing = 1;
    p->memoryBusWidth = (int)c.bus_bits;
    p->l2CacheSize = c.l2_bytes > INT32_MAX ? INT32_MAX : (int)c.l2_bytes;
    p->maxThreadsPerMultiProcessor = (int)c.threads_per_sm;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = c.shmem_per_sm;
    p->regsPerMultiprocessor = (int)c.regs_per_sm;
    p->managedMemory = 1;
    p->concurrentManagedAccess = 0;
    p->sharedMemPerBlockOptin = c.max_cta_shared_optin;
    p->maxBlocksPerMultiProcessor = (int)c.ctas_per_sm;
    p->cooperativeLaunch = 1;     /* cudaLaunchCooperativeKernel, grid.sync() */
    p->hostRegisterSupported = 1; /* cudaHostRegister */
    p->canUseHostPointerForRegisteredMem = 1; /* registered memory at its own address */
    p->hostNativeAtomicSupported = 0;
    p->pageableMemoryAccess = 0;
    p->directManagedMemAccessFromHost = 1; /* managed memory is host memory */
    p->computePreemptionSupported = 0;
    /* texture and surface limits: compute capability 7.x's (CUDA C++
     * Programming Guide, "Technical Specifications per Compute Capability") */
    p->maxTexture1D = 131072;
    p->maxTexture2D[0] = 131072;
    p->maxTexture2D[1] = 65536;
    p->maxTexture2DLinear[0] = 131072;
    p->maxTexture2DLinear[1] = 65000;
    p->maxTexture2DLinear[2] = 2097120;
    p->maxTexture2DGather[0] = p->maxTexture2DGather[1] = 32768;
    p->maxTexture3D[0] = p->maxTexture3D[1] = p->maxTexture3D[2] = 16384;
    p->maxTexture1DLayered[0] = 32768;
    p->maxTexture1DLayered[1] = 2048;
    p->maxTexture2DLayered[0] = p->maxTexture2DLayered[1] = 32768;
    p->maxTexture2DLayered[2] = 2048;
    p->maxSurface1D = 32768;
    p->maxSurface2D[0] = 131072;
    p->maxSurface2D[1] = 65536;
    p->maxSurface3D[0] = p->maxSurface3D[1] = p->maxSurface3D[2] = 16384;
    p->maxSurface1DLayered[0] = 32768;
    p->maxSurface1DLayered[1] = 2048;
    p->maxSurface2DLayered[0] = p->maxSurface2DLayered[1] = 32768;
    p->maxSurface2DLayered[2] = 2048;
    p->maxTextureCubemap = 32768;
    p->maxTextureCubemapLayered[0] = 32768;
    p->maxTextureCubemapLayered[1] = 2046;
    p->maxSurfaceCubemap = 32768;
    p->maxSurfaceCubemapLayered[0] = 32768;
    p->maxSurfaceCubemapLayered[1] = 2046;
    p->surfaceAlignment = 512;
    p->memoryPoolsSupported = 1;  /* cudaMallocAsync and the cudaMemPool family */
    p->pciBusID = 0;
    p->pciDeviceID = 0;
}

int cudart_attribute(lockstep_device *dev, int attr, int *v)
{
    struct cudaDeviceProp p;
    cudart_fill_properties(dev, &p);
    device_shape shape;
    device_get_shape(dev, &shape);
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
    case cudaDevAttrClockRate: *v = (int)shape.core_khz; return 0; /* kHz, the config's core clock */
    case cudaDevAttrTextureAlignment: *v = (int)p.textureAlignment; return 0;
    case cudaDevAttrGpuOverlap: *v = 0; return 0;
    case cudaDevAttrMultiProcessorCount: *v = p.multiProcessorCount; return 0;
    case cudaDevAttrKernelExecTimeout: *v = 0; return 0;
    case cudaDevAttrIntegrated: *v = 0; return 0;
    case cudaDevAttrCanMapHostMemory: *v = 1; return 0;
    case cudaDevAttrComputeMode: *v = 0; return 0;
    case cudaDevAttrConcurrentKernels: *v = p.concurrentKernels; return 0;
    case cudaDevAttrEccEnabled: *v = 0; return 0;
    case cudaDevAttrPciBusId: case cudaDevAttrPciDeviceId: case cudaDevAttrPciDomainId: *v = 0; return 0;
    case cudaDevAttrTccDriver: *v = 0; return 0;
    case cudaDevAttrMemoryClockRate: *v = (int)shape.dram_khz; return 0;
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
    /* textures and surfaces (mipmaps: 0, not supported) */
    case 21: *v = p.maxTexture1D; return 0;
    case 22: *v = p.maxTexture2D[0]; return 0;
    case 23: *v = p.maxTexture2D[1]; return 0;
    case 24: case 25: case 26: *v = p.maxTexture3D[attr - 24]; return 0;
    case 27: case 28: case 29: *v = p.maxTexture2DLayered[attr - 27]; return 0;
    case 30: *v = (int)p.surfaceAlignment; return 0;
    case 42: case 43: *v = p.maxTexture1DLayered[attr - 42]; return 0;
    case 45: case 46: *v = p.maxTexture2DGather[attr - 45]; return 0;
    case 47: case 48: case 49: *v = 0; return 0; /* no alternate 3-D shape */
    case 51: *v = (int)p.texturePitchAlignment; return 0;
    case 52: *v = p.maxTextureCubemap; return 0;
    case 53: case 54: *v = p.maxTextureCubemapLayered[attr - 53]; return 0;
    case 55: *v = p.maxSurface1D; return 0;
    case 56: case 57: *v = p.maxSurface2D[attr - 56]; return 0;
    case 58: case 59: case 60: *v = p.maxSurface3D[attr - 58]; return 0;
    case 61: case 62: *v = p.maxSurface1DLayered[attr - 61]; return 0;
    case 63: case 64: case 65: *v = p.maxSurface2DLayered[attr - 63]; return 0;
    case 66: *v = p.maxSurfaceCubemap; return 0;
    case 67: case 68: *v = p.maxSurfaceCubemapLayered[attr - 67]; return 0;
    case 69: *v = 1 << 28; return 0; /* MaxTexture1DLinearWidth */
    case 70: case 71: case 72: *v = p.maxTexture2DLinear[attr - 70]; return 0;
    case 73: case 74: case 77: *v = 0; return 0; /* mipmapped textures */
    /* memory and host interplay */
    case 86: *v = 0; return 0;  /* HostNativeAtomicSupported */
    case 87: *v = 2; return 0;  /* SingleToDoublePrecisionPerfRatio */
    case 88: *v = 0; return 0;  /* PageableMemoryAccess */
    case 90: *v = 0; return 0;  /* ComputePreemptionSupported */
    case 91: *v = 1; return 0;  /* CanUseHostPointerForRegisteredMem */
    case 98: *v = 0; return 0;  /* CanFlushRemoteWrites */
    case 99: *v = 1; return 0;  /* HostRegisterSupported */
    case 100: *v = 0; return 0; /* PageableMemoryAccessUsesHostPageTables */
    case 101: *v = 1; return 0; /* DirectManagedMemAccessFromHost */
    case 108: *v = 0; return 0; /* MaxPersistingL2CacheSize: no persisting L2 */
    case 109: *v = 0; return 0; /* MaxAccessPolicyWindowSize */
    case 111: *v = 0; return 0; /* ReservedSharedMemoryPerBlock */
    case 112: case 113: case 114: *v = 0; return 0; /* sparse arrays, read-only registration, timeline semaphores */
    case 116: case 117: case 118: *v = 0; return 0; /* GPUDirect RDMA */
    case 119: *v = 0; return 0; /* MemoryPoolSupportedHandleTypes: no IPC */
    case 120: *v = 0; return 0; /* ClusterLaunch */
    case 121: *v = 0; return 0; /* DeferredMappingCudaArraySupported */
    case 125: *v = 0; return 0; /* IpcEventSupport */
    case 126: *v = 1; return 0; /* MemSyncDomainCount */
    case 130: *v = 0; return 0; /* NumaConfig: none */
    case 131: case 134: *v = -1; return 0; /* NumaId, HostNumaId */
    case 133: *v = 0; return 0; /* MpsEnabled */
    case 135: case 138: *v = 0; return 0; /* D3D12 / Vulkan CIG */
    case 139: case 140: *v = 0; return 0; /* PCI ids */
    case 142: case 143: case 144: *v = 0; return 0; /* host NUMA / host memory pools */
    case 147: *v = 0; return 0; /* OnlyPartialHostNativeAtomicSupported */
    default: return -1;
    }
}

int cudart_set_option(lockstep_device *dev, const char *name, const char *value)
{
    return device_set_option(dev, name, value) == LOCKSTEP_SUCCESS ? 0 : -1;
}

void cudart_free_user_allocations(lockstep_device *dev)
{
    device_free_user_allocations(dev);
    device_reset_module_vars(dev); /* (host memory: a failure leaves old values) */
}

void *cudart_device_host_view(lockstep_device *dev, lockstep_dptr addr, size_t size)
{
    return device_host_view(dev, addr, size);
}
