/*
 * cuda_drv.h -- the part of the CUDA 13 driver API's binary interface
 * (cuda.h) that lockstep's libcuda.so.1 implements: the enum values and
 * struct layouts programs compile in, and the functions driver.c and
 * drvmodule.c define, under their exported names (cuMemAlloc_v2, ...; the
 * names cuda.h's macros turn a program's calls into).  Written from CUDA
 * 13's published values so the library builds without a CUDA toolkit;
 * tests/cudart/abi.sh compares every value and offset listed in
 * abi_fields.h with the real cuda.h when nvcc is present.
 *
 * The driver and the runtime are one library (libcuda.so.1 is
 * libcudart.so.13): a CUstream is a cudaStream_t, a CUevent a cudaEvent_t,
 * a CUfunction and a CUkernel are the runtime's function entries
 * (cudaKernel_t), a CUgraph a cudaGraph_t.  Contexts, modules and
 * libraries are checked handles of their own.
 */
#ifndef LOCKSTEP_CUDA_DRV_H
#define LOCKSTEP_CUDA_DRV_H

#include <stddef.h>
#include <stdint.h>

#include "cudart/cu_results.h"
#include "cudart/cuda_api.h"

#define CUDRV_API __attribute__((visibility("default")))

typedef int CUresult; /* enum cudaError_enum: CU_RESULTS */
enum {
#define X(name, value) name = value,
    CU_RESULTS(X)
#undef X
};

typedef int CUdevice;
typedef unsigned long long CUdeviceptr;
typedef uint64_t cuuint64_t;
typedef struct drv_context_h *CUcontext;
typedef struct drv_module_h *CUmodule;
typedef struct drv_library_h *CUlibrary;
typedef struct rt_function *CUfunction;
typedef struct rt_function *CUkernel;
typedef cudaStream_t CUstream;
typedef cudaEvent_t CUevent;
typedef cudaGraph_t CUgraph;
typedef cudaGraphExec_t CUgraphExec;
typedef cudaMemPool_t CUmemoryPool;

typedef struct CUuuid_st {
    char bytes[16];
} CUuuid;

typedef void (*CUhostFn)(void *userData);
typedef void (*CUstreamCallback)(CUstream hStream, CUresult status, void *userData);
typedef size_t (*CUoccupancyB2DSize)(int blockSize);

/* cuDeviceGetProperties (deprecated, still exported) */
typedef struct CUdevprop_st {
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    int sharedMemPerBlock;
    int totalConstantMemory;
    int SIMDWidth;
    int memPitch;
    int regsPerBlock;
    int clockRate;
    int textureAlign;
} CUdevprop;

/* cuCtxCreate_v3's and _v4's execution affinity (refused: one device, all of its SMs) */
typedef struct CUexecAffinityParam_st CUexecAffinityParam;
typedef struct CUctxCigParam_st CUctxCigParam;
typedef struct CUctxCreateParams_st {
    CUexecAffinityParam *execAffinityParams;
    int numExecAffinityParams;
    CUctxCigParam *cigParams;
} CUctxCreateParams;

enum {
    CU_CTX_SCHED_AUTO = 0x00,
    CU_CTX_SCHED_SPIN = 0x01,
    CU_CTX_SCHED_YIELD = 0x02,
    CU_CTX_SCHED_BLOCKING_SYNC = 0x04,
    CU_CTX_SCHED_MASK = 0x07,
    CU_CTX_MAP_HOST = 0x08,
    CU_CTX_LMEM_RESIZE_TO_MAX = 0x10,
    CU_CTX_FLAGS_MASK = 0xFF
};

enum { CU_STREAM_DEFAULT = 0x0, CU_STREAM_NON_BLOCKING = 0x1 };
enum { CU_EVENT_DEFAULT = 0x0, CU_EVENT_BLOCKING_SYNC = 0x1, CU_EVENT_DISABLE_TIMING = 0x2,
       CU_EVENT_INTERPROCESS = 0x4 };
enum { CU_MEMHOSTALLOC_PORTABLE = 0x01, CU_MEMHOSTALLOC_DEVICEMAP = 0x02,
       CU_MEMHOSTALLOC_WRITECOMBINED = 0x04 };
enum { CU_MEM_ATTACH_GLOBAL = 0x1, CU_MEM_ATTACH_HOST = 0x2, CU_MEM_ATTACH_SINGLE = 0x4 };
enum { CU_MEMORYTYPE_HOST = 0x01, CU_MEMORYTYPE_DEVICE = 0x02, CU_MEMORYTYPE_ARRAY = 0x03,
       CU_MEMORYTYPE_UNIFIED = 0x04 };

/* cuLaunchKernel's `extra` array */
#define CU_LAUNCH_PARAM_END ((void *)0x00)
#define CU_LAUNCH_PARAM_BUFFER_POINTER ((void *)0x01)
#define CU_LAUNCH_PARAM_BUFFER_SIZE ((void *)0x02)

/* cuLaunchKernelEx */
typedef int CUlaunchAttributeID;
enum { CU_LAUNCH_ATTRIBUTE_IGNORE = 0, CU_LAUNCH_ATTRIBUTE_COOPERATIVE = 2,
       CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION = 4, CU_LAUNCH_ATTRIBUTE_PRIORITY = 8 };
typedef union CUlaunchAttributeValue_union {
    char pad[64];
    int cooperative;
    struct {
        unsigned int x, y, z;
    } clusterDim;
    int priority;
} CUlaunchAttributeValue;
typedef struct CUlaunchAttribute_st {
    CUlaunchAttributeID id;
    char pad[8 - sizeof(CUlaunchAttributeID)];
    CUlaunchAttributeValue value;
} CUlaunchAttribute;
typedef struct CUlaunchConfig_st {
    unsigned int gridDimX, gridDimY, gridDimZ;
    unsigned int blockDimX, blockDimY, blockDimZ;
    unsigned int sharedMemBytes;
    CUstream hStream;
    CUlaunchAttribute *attrs;
    unsigned int numAttrs;
} CUlaunchConfig;

typedef int CUfunction_attribute;
enum {
    CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 0,
    CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES = 1,
    CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES = 2,
    CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES = 3,
    CU_FUNC_ATTRIBUTE_NUM_REGS = 4,
    CU_FUNC_ATTRIBUTE_PTX_VERSION = 5,
    CU_FUNC_ATTRIBUTE_BINARY_VERSION = 6,
    CU_FUNC_ATTRIBUTE_CACHE_MODE_CA = 7,
    CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES = 8,
    CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT = 9,
    CU_FUNC_ATTRIBUTE_CLUSTER_SIZE_MUST_BE_SET = 10,
    CU_FUNC_ATTRIBUTE_CLUSTER_SCHEDULING_POLICY_PREFERENCE = 15,
    CU_FUNC_ATTRIBUTE_MAX = 16
};
typedef int CUfunc_cache; /* CU_FUNC_CACHE_PREFER_NONE 0 ... PREFER_EQUAL 3 */
typedef int CUlimit;      /* CU_LIMIT_STACK_SIZE 0 ... the runtime's cudaLimit values */
enum { CU_LIMIT_STACK_SIZE = 0, CU_LIMIT_PRINTF_FIFO_SIZE = 1, CU_LIMIT_MALLOC_HEAP_SIZE = 2,
       CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH = 3, CU_LIMIT_DEV_RUNTIME_PENDING_LAUNCH_COUNT = 4,
       CU_LIMIT_MAX = 10 };
typedef int CUdevice_attribute; /* the runtime's cudaDeviceAttr values, and a few more */
enum {
    CU_DEVICE_ATTRIBUTE_CAN_TEX2D_GATHER = 44,
    CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED = 102,
    CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED = 103,
    CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED = 104,
    CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED = 105,
    CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED = 107,
    CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED = 110,
    CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_ALGORITHM_MASK = 136,
    CU_DEVICE_ATTRIBUTE_MEM_DECOMPRESS_MAXIMUM_LENGTH = 137,
    CU_DEVICE_ATTRIBUTE_HOST_ALLOC_DMA_BUF_SUPPORTED = 146,
    CU_DEVICE_ATTRIBUTE_MAX = 148
};
typedef int CUpointer_attribute;
enum {
    CU_POINTER_ATTRIBUTE_CONTEXT = 1,
    CU_POINTER_ATTRIBUTE_MEMORY_TYPE = 2,
    CU_POINTER_ATTRIBUTE_DEVICE_POINTER = 3,
    CU_POINTER_ATTRIBUTE_HOST_POINTER = 4,
    CU_POINTER_ATTRIBUTE_IS_MANAGED = 8,
    CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL = 9,
    CU_POINTER_ATTRIBUTE_RANGE_START_ADDR = 11,
    CU_POINTER_ATTRIBUTE_RANGE_SIZE = 12,
    CU_POINTER_ATTRIBUTE_MAPPED = 13
};

/* JIT options (cuModuleLoadDataEx, cuLibraryLoadData): the log buffers and
 * the wall time are answered, every other option is accepted and ignored
 * (there is no compilation to steer: PTX is decoded, not compiled). */
typedef int CUjit_option;
enum {
    CU_JIT_WALL_TIME = 2,
    CU_JIT_INFO_LOG_BUFFER = 3,
    CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4,
    CU_JIT_ERROR_LOG_BUFFER = 5,
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
    CU_JIT_NUM_OPTIONS = 35
};
typedef int CUlibraryOption;
typedef int CUmoduleLoadingMode;
enum { CU_MODULE_EAGER_LOADING = 0x1, CU_MODULE_LAZY_LOADING = 0x2 };
typedef int CUfunctionLoadingState;
enum { CU_FUNCTION_LOADING_STATE_UNLOADED = 0, CU_FUNCTION_LOADING_STATE_LOADED = 1 };
typedef int CUstreamCaptureMode;
typedef int CUstreamCaptureStatus;

/* cuGetProcAddress */
typedef int CUdriverProcAddressQueryResult;
enum { CU_GET_PROC_ADDRESS_SUCCESS = 0, CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND = 1,
       CU_GET_PROC_ADDRESS_VERSION_NOT_SUFFICIENT = 2 };
enum { CU_GET_PROC_ADDRESS_DEFAULT = 0, CU_GET_PROC_ADDRESS_LEGACY_STREAM = 1 << 0,
       CU_GET_PROC_ADDRESS_PER_THREAD_DEFAULT_STREAM = 1 << 1 };

#define CUDA_DRIVER_VERSION 13000 /* what cuDriverGetVersion reports: CUDA 13.0 */

/* ---- the functions lockstep implements, as exported ---------------------------------- */

/* initialization, versions, errors, entry points (driver.c) */
CUDRV_API CUresult cuInit(unsigned int Flags);
CUDRV_API CUresult cuDriverGetVersion(int *driverVersion);
CUDRV_API CUresult cuGetErrorString(CUresult error, const char **pStr);
CUDRV_API CUresult cuGetErrorName(CUresult error, const char **pStr);
CUDRV_API CUresult cuGetProcAddress(const char *symbol, void **pfn, int cudaVersion,
                                    cuuint64_t flags);
CUDRV_API CUresult cuGetProcAddress_v2(const char *symbol, void **pfn, int cudaVersion,
                                       cuuint64_t flags,
                                       CUdriverProcAddressQueryResult *symbolStatus);
CUDRV_API CUresult cuGetProcAddress_v2_ptsz(const char *symbol, void **pfn, int cudaVersion,
                                            cuuint64_t flags,
                                            CUdriverProcAddressQueryResult *symbolStatus);
CUDRV_API CUresult cuProfilerStart(void);
CUDRV_API CUresult cuProfilerStop(void);

/* devices */
CUDRV_API CUresult cuDeviceGet(CUdevice *device, int ordinal);
CUDRV_API CUresult cuDeviceGetCount(int *count);
CUDRV_API CUresult cuDeviceGetName(char *name, int len, CUdevice dev);
CUDRV_API CUresult cuDeviceGetUuid(CUuuid *uuid, CUdevice dev);
CUDRV_API CUresult cuDeviceGetUuid_v2(CUuuid *uuid, CUdevice dev);
CUDRV_API CUresult cuDeviceTotalMem_v2(size_t *bytes, CUdevice dev);
CUDRV_API CUresult cuDeviceGetAttribute(int *pi, CUdevice_attribute attrib, CUdevice dev);
CUDRV_API CUresult cuDeviceComputeCapability(int *major, int *minor, CUdevice dev);

/* contexts */
CUDRV_API CUresult cuDevicePrimaryCtxRetain(CUcontext *pctx, CUdevice dev);
CUDRV_API CUresult cuDevicePrimaryCtxRelease(CUdevice dev);
CUDRV_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice dev);
CUDRV_API CUresult cuDevicePrimaryCtxReset(CUdevice dev);
CUDRV_API CUresult cuDevicePrimaryCtxReset_v2(CUdevice dev);
CUDRV_API CUresult cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned int flags);
CUDRV_API CUresult cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned int flags);
CUDRV_API CUresult cuDevicePrimaryCtxGetState(CUdevice dev, unsigned int *flags, int *active);
CUDRV_API CUresult cuCtxCreate_v2(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUDRV_API CUresult cuCtxCreate_v4(CUcontext *pctx, CUctxCreateParams *ctxCreateParams,
                                  unsigned int flags, CUdevice dev);
CUDRV_API CUresult cuCtxDestroy_v2(CUcontext ctx);
CUDRV_API CUresult cuCtxPushCurrent_v2(CUcontext ctx);
CUDRV_API CUresult cuCtxPopCurrent_v2(CUcontext *pctx);
CUDRV_API CUresult cuCtxSetCurrent(CUcontext ctx);
CUDRV_API CUresult cuCtxGetCurrent(CUcontext *pctx);
CUDRV_API CUresult cuCtxGetDevice(CUdevice *device);
CUDRV_API CUresult cuCtxGetFlags(unsigned int *flags);
CUDRV_API CUresult cuCtxGetId(CUcontext ctx, unsigned long long *ctxId);
CUDRV_API CUresult cuCtxGetApiVersion(CUcontext ctx, unsigned int *version);
CUDRV_API CUresult cuCtxSynchronize(void);
CUDRV_API CUresult cuCtxSetLimit(CUlimit limit, size_t value);
CUDRV_API CUresult cuCtxGetLimit(size_t *pvalue, CUlimit limit);
CUDRV_API CUresult cuCtxGetStreamPriorityRange(int *leastPriority, int *greatestPriority);

/* modules, libraries, functions and kernels (drvmodule.c) */
CUDRV_API CUresult cuModuleLoad(CUmodule *module, const char *fname);
CUDRV_API CUresult cuModuleLoadData(CUmodule *module, const void *image);
CUDRV_API CUresult cuModuleLoadDataEx(CUmodule *module, const void *image, unsigned int numOptions,
                                      CUjit_option *options, void **optionValues);
CUDRV_API CUresult cuModuleLoadFatBinary(CUmodule *module, const void *fatCubin);
CUDRV_API CUresult cuModuleUnload(CUmodule hmod);
CUDRV_API CUresult cuModuleGetFunction(CUfunction *hfunc, CUmodule hmod, const char *name);
CUDRV_API CUresult cuModuleGetGlobal_v2(CUdeviceptr *dptr, size_t *bytes, CUmodule hmod,
                                        const char *name);
CUDRV_API CUresult cuModuleGetFunctionCount(unsigned int *count, CUmodule mod);
CUDRV_API CUresult cuModuleGetLoadingMode(CUmoduleLoadingMode *mode);
CUDRV_API CUresult cuLibraryLoadData(CUlibrary *library, const void *code, CUjit_option *jitOptions,
                                     void **jitOptionsValues, unsigned int numJitOptions,
                                     CUlibraryOption *libraryOptions, void **libraryOptionValues,
                                     unsigned int numLibraryOptions);
CUDRV_API CUresult cuLibraryLoadFromFile(CUlibrary *library, const char *fileName,
                                         CUjit_option *jitOptions, void **jitOptionsValues,
                                         unsigned int numJitOptions,
                                         CUlibraryOption *libraryOptions,
                                         void **libraryOptionValues,
                                         unsigned int numLibraryOptions);
CUDRV_API CUresult cuLibraryUnload(CUlibrary library);
CUDRV_API CUresult cuLibraryGetKernel(CUkernel *pKernel, CUlibrary library, const char *name);
CUDRV_API CUresult cuLibraryGetModule(CUmodule *pMod, CUlibrary library);
CUDRV_API CUresult cuLibraryGetGlobal(CUdeviceptr *dptr, size_t *bytes, CUlibrary library,
                                      const char *name);
CUDRV_API CUresult cuKernelGetFunction(CUfunction *pFunc, CUkernel kernel);
CUDRV_API CUresult cuFuncGetAttribute(int *pi, CUfunction_attribute attrib, CUfunction hfunc);
CUDRV_API CUresult cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value);
CUDRV_API CUresult cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config);
CUDRV_API CUresult cuFuncGetName(const char **name, CUfunction hfunc);

/* memory (driver.c) */
CUDRV_API CUresult cuMemGetInfo_v2(size_t *free, size_t *total);
CUDRV_API CUresult cuMemAlloc_v2(CUdeviceptr *dptr, size_t bytesize);
CUDRV_API CUresult cuMemFree_v2(CUdeviceptr dptr);
CUDRV_API CUresult cuMemAllocHost_v2(void **pp, size_t bytesize);
CUDRV_API CUresult cuMemFreeHost(void *p);
CUDRV_API CUresult cuMemHostAlloc(void **pp, size_t bytesize, unsigned int Flags);
CUDRV_API CUresult cuMemHostGetDevicePointer_v2(CUdeviceptr *pdptr, void *p, unsigned int Flags);
CUDRV_API CUresult cuMemAllocManaged(CUdeviceptr *dptr, size_t bytesize, unsigned int flags);
CUDRV_API CUresult cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
CUDRV_API CUresult cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
                                 CUstream hStream);
CUDRV_API CUresult cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void *srcHost, size_t ByteCount);
CUDRV_API CUresult cuMemcpyDtoH_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
CUDRV_API CUresult cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                                   size_t ByteCount);
CUDRV_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void *srcHost,
                                        size_t ByteCount, CUstream hStream);
CUDRV_API CUresult cuMemcpyDtoHAsync_v2(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount,
                                        CUstream hStream);
CUDRV_API CUresult cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                                        size_t ByteCount, CUstream hStream);
CUDRV_API CUresult cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CUDRV_API CUresult cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N);
CUDRV_API CUresult cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N);
CUDRV_API CUresult cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N,
                                   CUstream hStream);
CUDRV_API CUresult cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N,
                                    CUstream hStream);
CUDRV_API CUresult cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N,
                                    CUstream hStream);

/* launches */
CUDRV_API CUresult cuLaunchKernel(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                  unsigned int gridDimZ, unsigned int blockDimX,
                                  unsigned int blockDimY, unsigned int blockDimZ,
                                  unsigned int sharedMemBytes, CUstream hStream,
                                  void **kernelParams, void **extra);
CUDRV_API CUresult cuLaunchKernel_ptsz(CUfunction f, unsigned int gridDimX, unsigned int gridDimY,
                                       unsigned int gridDimZ, unsigned int blockDimX,
                                       unsigned int blockDimY, unsigned int blockDimZ,
                                       unsigned int sharedMemBytes, CUstream hStream,
                                       void **kernelParams, void **extra);
CUDRV_API CUresult cuLaunchCooperativeKernel(CUfunction f, unsigned int gridDimX,
                                             unsigned int gridDimY, unsigned int gridDimZ,
                                             unsigned int blockDimX, unsigned int blockDimY,
                                             unsigned int blockDimZ, unsigned int sharedMemBytes,
                                             CUstream hStream, void **kernelParams);
CUDRV_API CUresult cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void *userData);

/* streams, events, graphs */
CUDRV_API CUresult cuStreamCreate(CUstream *phStream, unsigned int Flags);
CUDRV_API CUresult cuStreamCreateWithPriority(CUstream *phStream, unsigned int flags,
                                              int priority);
CUDRV_API CUresult cuStreamDestroy_v2(CUstream hStream);
CUDRV_API CUresult cuStreamSynchronize(CUstream hStream);
CUDRV_API CUresult cuStreamQuery(CUstream hStream);
CUDRV_API CUresult cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned int Flags);
CUDRV_API CUresult cuStreamGetFlags(CUstream hStream, unsigned int *flags);
CUDRV_API CUresult cuStreamGetPriority(CUstream hStream, int *priority);
CUDRV_API CUresult cuEventCreate(CUevent *phEvent, unsigned int Flags);
CUDRV_API CUresult cuEventRecord(CUevent hEvent, CUstream hStream);
CUDRV_API CUresult cuEventQuery(CUevent hEvent);
CUDRV_API CUresult cuEventSynchronize(CUevent hEvent);
CUDRV_API CUresult cuEventDestroy_v2(CUevent hEvent);
CUDRV_API CUresult cuEventElapsedTime(float *pMilliseconds, CUevent hStart, CUevent hEnd);
CUDRV_API CUresult cuEventElapsedTime_v2(float *pMilliseconds, CUevent hStart, CUevent hEnd);

/* other names of the functions above (driver.c): older API versions, and
 * the per-thread default stream's */
CUDRV_API CUresult cuCtxCreate(CUcontext *pctx, unsigned int flags, CUdevice dev);
CUDRV_API CUresult cuCtxDestroy(CUcontext ctx);
CUDRV_API CUresult cuCtxPushCurrent(CUcontext ctx);
CUDRV_API CUresult cuCtxPopCurrent(CUcontext *pctx);
CUDRV_API CUresult cuCtxGetDevice_v2(CUdevice *device, CUcontext ctx);
CUDRV_API CUresult cuCtxSynchronize_v2(CUcontext ctx);
CUDRV_API CUresult cuDeviceGetPCIBusId(char *pciBusId, int len, CUdevice dev);
CUDRV_API CUresult cuDeviceCanAccessPeer(int *canAccessPeer, CUdevice dev, CUdevice peerDev);
CUDRV_API CUresult cuStreamDestroy(CUstream hStream);
CUDRV_API CUresult cuEventDestroy(CUevent hEvent);
CUDRV_API CUresult cuStreamAddCallback(CUstream hStream, CUstreamCallback callback,
                                       void *userData, unsigned int flags);
CUDRV_API CUresult cuStreamAddCallback_ptsz(CUstream hStream, CUstreamCallback callback,
                                            void *userData, unsigned int flags);
CUDRV_API CUresult cuLaunchKernelEx(const CUlaunchConfig *config, CUfunction f,
                                    void **kernelParams, void **extra);
CUDRV_API CUresult cuLaunchKernelEx_ptsz(const CUlaunchConfig *config, CUfunction f,
                                         void **kernelParams, void **extra);
CUDRV_API CUresult cuLaunchCooperativeKernel_ptsz(CUfunction f, unsigned int gridDimX,
                                                  unsigned int gridDimY, unsigned int gridDimZ,
                                                  unsigned int blockDimX, unsigned int blockDimY,
                                                  unsigned int blockDimZ,
                                                  unsigned int sharedMemBytes, CUstream hStream,
                                                  void **kernelParams);
CUDRV_API CUresult cuLaunchHostFunc_ptsz(CUstream hStream, CUhostFn fn, void *userData);
CUDRV_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, CUfunction func,
                                                               int blockSize,
                                                               size_t dynamicSMemSize);
CUDRV_API CUresult cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int *numBlocks,
                                                                        CUfunction func,
                                                                        int blockSize,
                                                                        size_t dynamicSMemSize,
                                                                        unsigned int flags);
CUDRV_API CUresult cuMemcpy_ptds(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount);
CUDRV_API CUresult cuMemcpyAsync_ptsz(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount,
                                      CUstream hStream);
CUDRV_API CUresult cuMemcpyHtoD_v2_ptds(CUdeviceptr dstDevice, const void *srcHost,
                                        size_t ByteCount);
CUDRV_API CUresult cuMemcpyDtoH_v2_ptds(void *dstHost, CUdeviceptr srcDevice, size_t ByteCount);
CUDRV_API CUresult cuMemcpyDtoD_v2_ptds(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                                        size_t ByteCount);
CUDRV_API CUresult cuMemcpyHtoDAsync_v2_ptsz(CUdeviceptr dstDevice, const void *srcHost,
                                             size_t ByteCount, CUstream hStream);
CUDRV_API CUresult cuMemcpyDtoHAsync_v2_ptsz(void *dstHost, CUdeviceptr srcDevice,
                                             size_t ByteCount, CUstream hStream);
CUDRV_API CUresult cuMemcpyDtoDAsync_v2_ptsz(CUdeviceptr dstDevice, CUdeviceptr srcDevice,
                                             size_t ByteCount, CUstream hStream);
CUDRV_API CUresult cuMemsetD8_v2_ptds(CUdeviceptr dstDevice, unsigned char uc, size_t N);
CUDRV_API CUresult cuMemsetD16_v2_ptds(CUdeviceptr dstDevice, unsigned short us, size_t N);
CUDRV_API CUresult cuMemsetD32_v2_ptds(CUdeviceptr dstDevice, unsigned int ui, size_t N);
CUDRV_API CUresult cuMemsetD8Async_ptsz(CUdeviceptr dstDevice, unsigned char uc, size_t N,
                                        CUstream hStream);
CUDRV_API CUresult cuMemsetD16Async_ptsz(CUdeviceptr dstDevice, unsigned short us, size_t N,
                                         CUstream hStream);
CUDRV_API CUresult cuMemsetD32Async_ptsz(CUdeviceptr dstDevice, unsigned int ui, size_t N,
                                         CUstream hStream);
CUDRV_API CUresult cuStreamSynchronize_ptsz(CUstream hStream);
CUDRV_API CUresult cuStreamQuery_ptsz(CUstream hStream);
CUDRV_API CUresult cuStreamWaitEvent_ptsz(CUstream hStream, CUevent hEvent, unsigned int Flags);
CUDRV_API CUresult cuStreamGetFlags_ptsz(CUstream hStream, unsigned int *flags);
CUDRV_API CUresult cuStreamGetPriority_ptsz(CUstream hStream, int *priority);
CUDRV_API CUresult cuEventRecord_ptsz(CUevent hEvent, CUstream hStream);

/* a few more queries (driver.c) */
CUDRV_API CUresult cuCtxGetCacheConfig(CUfunc_cache *pconfig);
CUDRV_API CUresult cuCtxSetCacheConfig(CUfunc_cache config);
CUDRV_API CUresult cuMemAllocPitch_v2(CUdeviceptr *dptr, size_t *pPitch, size_t WidthInBytes,
                                      size_t Height, unsigned int ElementSizeBytes);
CUDRV_API CUresult cuStreamGetCtx(CUstream hStream, CUcontext *pctx);
CUDRV_API CUresult cuPointerGetAttribute(void *data, CUpointer_attribute attribute,
                                         CUdeviceptr ptr);

/* the runtime's doors to the driver (driver.c): the driver's entry points,
 * and the function entry (a CUfunction) behind a kernel's host stub */
CUDART_API cudaError_t cudaGetDriverEntryPoint(const char *symbol, void **funcPtr,
                                               unsigned long long flags, int *driverStatus);
CUDART_API cudaError_t cudaGetDriverEntryPoint_ptsz(const char *symbol, void **funcPtr,
                                                    unsigned long long flags, int *driverStatus);
CUDART_API cudaError_t cudaGetDriverEntryPointByVersion(const char *symbol, void **funcPtr,
                                                        unsigned int cudaVersion,
                                                        unsigned long long flags,
                                                        int *driverStatus);
CUDART_API cudaError_t cudaGetDriverEntryPointByVersion_ptsz(const char *symbol, void **funcPtr,
                                                             unsigned int cudaVersion,
                                                             unsigned long long flags,
                                                             int *driverStatus);
CUDART_API cudaError_t cudaGetFuncBySymbol(cudaKernel_t *functionPtr, const void *symbolPtr);
CUDART_API cudaError_t cudaGetKernel(cudaKernel_t *kernelPtr, const void *entryFuncAddr);

#endif
