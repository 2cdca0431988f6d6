/*
 * cuda_abi.h -- the part of the CUDA 13 runtime's binary interface that
 * lockstep's replacement libcudart implements: the numeric values of the
 * enums programs compile into themselves, and the layouts of the structs
 * they read.  Written from the CUDA 13 headers' published values so the
 * library builds without a CUDA toolkit; tests/cudart/abi_check.cpp
 * compares every value and offset with the real headers when nvcc is
 * present.
 */
#ifndef LOCKSTEP_CUDA_ABI_H
#define LOCKSTEP_CUDA_ABI_H

#include <stddef.h>
#include <stdint.h>

typedef int cudaError_t; /* enum cudaError: values below */

#include "util/cuda_errors.h"

enum {
#define X(name, value, text) name = value,
    CUDA_ERRORS(X)
#undef X
};

typedef struct dim3 {
    unsigned int x, y, z;
} dim3;

typedef struct rt_stream *cudaStream_t;
typedef struct rt_event *cudaEvent_t;
typedef struct rt_function *cudaKernel_t;
#define CUDA_STREAM_LEGACY ((cudaStream_t)0x1)
#define CUDA_STREAM_PER_THREAD ((cudaStream_t)0x2)

enum cudaMemcpyKind {
    cudaMemcpyHostToHost = 0,
    cudaMemcpyHostToDevice = 1,
    cudaMemcpyDeviceToHost = 2,
    cudaMemcpyDeviceToDevice = 3,
    cudaMemcpyDefault = 4
};

enum { cudaStreamNonBlocking = 0x01 };
enum { cudaEventBlockingSync = 0x01, cudaEventDisableTiming = 0x02 };
enum {
    cudaLimitStackSize = 0,
    cudaLimitPrintfFifoSize = 1,
    cudaLimitMallocHeapSize = 2,
    cudaLimitDevRuntimeSyncDepth = 3,
    cudaLimitDevRuntimePendingLaunchCount = 4
};

typedef struct cudaUUID_t {
    char bytes[16];
} cudaUUID_t;

/* CUDA 13 layout */
struct cudaDeviceProp {
    char name[256];
    cudaUUID_t uuid;
    char luid[8];
    unsigned int luidDeviceNodeMask;
    size_t totalGlobalMem;
    size_t sharedMemPerBlock;
    int regsPerBlock;
    int warpSize;
    size_t memPitch;
    int maxThreadsPerBlock;
    int maxThreadsDim[3];
    int maxGridSize[3];
    size_t totalConstMem;
    int major;
    int minor;
    size_t textureAlignment;
    size_t texturePitchAlignment;
    int multiProcessorCount;
    int integrated;
    int canMapHostMemory;
    int maxTexture1D;
    int maxTexture1DMipmap;
    int maxTexture2D[2];
    int maxTexture2DMipmap[2];
    int maxTexture2DLinear[3];
    int maxTexture2DGather[2];
    int maxTexture3D[3];
    int maxTexture3DAlt[3];
    int maxTextureCubemap;
    int maxTexture1DLayered[2];
    int maxTexture2DLayered[3];
    int maxTextureCubemapLayered[2];
    int maxSurface1D;
    int maxSurface2D[2];
    int maxSurface3D[3];
    int maxSurface1DLayered[2];
    int maxSurface2DLayered[3];
    int maxSurfaceCubemap;
    int maxSurfaceCubemapLayered[2];
    size_t surfaceAlignment;
    int concurrentKernels;
    int ECCEnabled;
    int pciBusID;
    int pciDeviceID;
    int pciDomainID;
    int tccDriver;
    int asyncEngineCount;
    int unifiedAddressing;
    int memoryBusWidth;
    int l2CacheSize;
    int persistingL2CacheMaxSize;
    int maxThreadsPerMultiProcessor;
    int streamPrioritiesSupported;
    int globalL1CacheSupported;
    int localL1CacheSupported;
    size_t sharedMemPerMultiprocessor;
    int regsPerMultiprocessor;
    int managedMemory;
    int isMultiGpuBoard;
    int multiGpuBoardGroupID;
    int hostNativeAtomicSupported;
    int pageableMemoryAccess;
    int concurrentManagedAccess;
    int computePreemptionSupported;
    int canUseHostPointerForRegisteredMem;
    int cooperativeLaunch;
    size_t sharedMemPerBlockOptin;
    int pageableMemoryAccessUsesHostPageTables;
    int directManagedMemAccessFromHost;
    int maxBlocksPerMultiProcessor;
    int accessPolicyMaxWindowSize;
    size_t reservedSharedMemPerBlock;
    int hostRegisterSupported;
    int sparseCudaArraySupported;
    int hostRegisterReadOnlySupported;
    int timelineSemaphoreInteropSupported;
    int memoryPoolsSupported;
    int gpuDirectRDMASupported;
    unsigned int gpuDirectRDMAFlushWritesOptions;
    int gpuDirectRDMAWritesOrdering;
    unsigned int memoryPoolSupportedHandleTypes;
    int deferredMappingCudaArraySupported;
    int ipcEventSupported;
    int clusterLaunch;
    int unifiedFunctionPointers;
    int deviceNumaConfig;
    int deviceNumaId;
    int mpsEnabled;
    int hostNumaId;
    unsigned int gpuPciDeviceID;
    unsigned int gpuPciSubsystemID;
    int hostNumaMultinodeIpcSupported;
    int reserved[56];
};

struct cudaFuncAttributes {
    size_t sharedSizeBytes;
    size_t constSizeBytes;
    size_t localSizeBytes;
    int maxThreadsPerBlock;
    int numRegs;
    int ptxVersion;
    int binaryVersion;
    int cacheModeCA;
    int maxDynamicSharedSizeBytes;
    int preferredShmemCarveout;
    int clusterDimMustBeSet;
    int requiredClusterWidth;
    int requiredClusterHeight;
    int requiredClusterDepth;
    int clusterSchedulingPolicyPreference;
    int nonPortableClusterSizeAllowed;
    int reserved[16];
};

struct cudaChannelFormatDesc {
    int x, y, z, w;
    int f; /* enum cudaChannelFormatKind */
};

/* cudaDeviceAttr values lockstep answers (the others give cudaErrorInvalidValue) */
enum {
    cudaDevAttrMaxThreadsPerBlock = 1, cudaDevAttrMaxBlockDimX = 2, cudaDevAttrMaxBlockDimY = 3,
    cudaDevAttrMaxBlockDimZ = 4, cudaDevAttrMaxGridDimX = 5, cudaDevAttrMaxGridDimY = 6,
    cudaDevAttrMaxGridDimZ = 7, cudaDevAttrMaxSharedMemoryPerBlock = 8,
    cudaDevAttrTotalConstantMemory = 9, cudaDevAttrWarpSize = 10, cudaDevAttrMaxPitch = 11,
    cudaDevAttrMaxRegistersPerBlock = 12, cudaDevAttrClockRate = 13,
    cudaDevAttrTextureAlignment = 14, cudaDevAttrGpuOverlap = 15,
    cudaDevAttrMultiProcessorCount = 16, cudaDevAttrKernelExecTimeout = 17,
    cudaDevAttrIntegrated = 18, cudaDevAttrCanMapHostMemory = 19, cudaDevAttrComputeMode = 20,
    cudaDevAttrConcurrentKernels = 31, cudaDevAttrEccEnabled = 32, cudaDevAttrPciBusId = 33,
    cudaDevAttrPciDeviceId = 34, cudaDevAttrTccDriver = 35, cudaDevAttrMemoryClockRate = 36,
    cudaDevAttrGlobalMemoryBusWidth = 37, cudaDevAttrL2CacheSize = 38,
    cudaDevAttrMaxThreadsPerMultiProcessor = 39, cudaDevAttrAsyncEngineCount = 40,
    cudaDevAttrUnifiedAddressing = 41, cudaDevAttrPciDomainId = 50,
    cudaDevAttrComputeCapabilityMajor = 75, cudaDevAttrComputeCapabilityMinor = 76,
    cudaDevAttrStreamPrioritiesSupported = 78, cudaDevAttrGlobalL1CacheSupported = 79,
    cudaDevAttrLocalL1CacheSupported = 80, cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
    cudaDevAttrMaxRegistersPerMultiprocessor = 82, cudaDevAttrManagedMemory = 83,
    cudaDevAttrIsMultiGpuBoard = 84, cudaDevAttrMultiGpuBoardGroupID = 85,
    cudaDevAttrConcurrentManagedAccess = 89, cudaDevAttrCooperativeLaunch = 95,
    cudaDevAttrMaxSharedMemoryPerBlockOptin = 97, cudaDevAttrMaxBlocksPerMultiprocessor = 106,
    cudaDevAttrMemoryPoolsSupported = 115
};

/* ---- 2-D and 3-D copies ---- */
struct cudaPitchedPtr {
    void *ptr;
    size_t pitch, xsize, ysize;
};
struct cudaExtent {
    size_t width, height, depth;
};
struct cudaPos {
    size_t x, y, z;
};
typedef struct rt_array *cudaArray_t;
struct cudaMemcpy3DParms {
    cudaArray_t srcArray;
    struct cudaPos srcPos;
    struct cudaPitchedPtr srcPtr;
    cudaArray_t dstArray;
    struct cudaPos dstPos;
    struct cudaPitchedPtr dstPtr;
    struct cudaExtent extent;
    int kind; /* enum cudaMemcpyKind */
};

/* ---- CUDA arrays, textures and surfaces ---- */
enum { cudaChannelFormatKindSigned = 0, cudaChannelFormatKindUnsigned = 1,
       cudaChannelFormatKindFloat = 2, cudaChannelFormatKindNone = 3 };
enum { cudaArrayDefault = 0, cudaArrayLayered = 1, cudaArraySurfaceLoadStore = 2,
       cudaArrayCubemap = 4, cudaArrayTextureGather = 8 };
enum { cudaResourceTypeArray = 0, cudaResourceTypeMipmappedArray = 1,
       cudaResourceTypeLinear = 2, cudaResourceTypePitch2D = 3 };
enum { cudaAddressModeWrap = 0, cudaAddressModeClamp = 1, cudaAddressModeMirror = 2,
       cudaAddressModeBorder = 3 };
enum { cudaFilterModePoint = 0, cudaFilterModeLinear = 1 };
enum { cudaReadModeElementType = 0, cudaReadModeNormalizedFloat = 1 };
typedef unsigned long long cudaTextureObject_t;
typedef unsigned long long cudaSurfaceObject_t;
struct cudaResourceDesc {
    int resType; /* enum cudaResourceType */
    union {
        struct {
            cudaArray_t array;
        } array;
        struct {
            void *mipmap;
        } mipmap;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t sizeInBytes;
        } linear;
        struct {
            void *devPtr;
            struct cudaChannelFormatDesc desc;
            size_t width, height, pitchInBytes;
        } pitch2D;
        struct {
            int reserved[32];
        } reserved;
    } res;
    unsigned int flags;
};
struct cudaTextureDesc {
    int addressMode[3]; /* enum cudaTextureAddressMode */
    int filterMode;     /* enum cudaTextureFilterMode */
    int readMode;       /* enum cudaTextureReadMode */
    int sRGB;
    float borderColor[4];
    int normalizedCoords;
    unsigned int maxAnisotropy;
    int mipmapFilterMode;
    float mipmapLevelBias, minMipmapLevelClamp, maxMipmapLevelClamp;
    int disableTrilinearOptimization;
    int seamlessCubemap;
};
struct cudaResourceViewDesc {
    int format;
    size_t width, height, depth;
    unsigned int firstMipmapLevel, lastMipmapLevel, firstLayer, lastLayer;
    unsigned int reserved[16];
};

/* ---- pointer attributes, launch attributes ---- */
enum { cudaMemoryTypeUnregistered = 0, cudaMemoryTypeHost = 1, cudaMemoryTypeDevice = 2,
       cudaMemoryTypeManaged = 3 };
struct cudaPointerAttributes {
    int type; /* enum cudaMemoryType */
    int device;
    void *devicePointer;
    void *hostPointer;
    long reserved[8];
};
enum { cudaLaunchAttributeIgnore = 0, cudaLaunchAttributeCooperative = 2,
       cudaLaunchAttributeClusterDimension = 4, cudaLaunchAttributePriority = 8 };
typedef union cudaLaunchAttributeValue {
    char pad[64];
    int cooperative;
    int priority;
    struct {
        unsigned int x, y, z;
    } clusterDim;
} cudaLaunchAttributeValue;
typedef struct cudaLaunchAttribute_st {
    int id; /* enum cudaLaunchAttributeID */
    char pad[4];
    cudaLaunchAttributeValue val;
} cudaLaunchAttribute;
typedef struct cudaLaunchConfig_st {
    dim3 gridDim, blockDim;
    size_t dynamicSmemBytes;
    cudaStream_t stream;
    cudaLaunchAttribute *attrs;
    unsigned int numAttrs;
} cudaLaunchConfig_t;
enum { cudaSharedMemBankSizeDefault = 0, cudaSharedMemBankSizeFourByte = 1,
       cudaSharedMemBankSizeEightByte = 2 };

/* ---- host memory, callbacks, occupancy ---- */
enum { cudaHostRegisterDefault = 0, cudaHostRegisterPortable = 1, cudaHostRegisterMapped = 2,
       cudaHostRegisterIoMemory = 4, cudaHostRegisterReadOnly = 8 };
enum { cudaHostAllocDefault = 0, cudaHostAllocPortable = 1, cudaHostAllocMapped = 2,
       cudaHostAllocWriteCombined = 4 };
enum { cudaOccupancyDefault = 0, cudaOccupancyDisableCachingOverride = 1 };
enum { /* enum cudaFuncAttribute */
    cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
    cudaFuncAttributePreferredSharedMemoryCarveout = 9,
    cudaFuncAttributeClusterDimMustBeSet = 10,
    cudaFuncAttributeRequiredClusterWidth = 11,
    cudaFuncAttributeRequiredClusterHeight = 12,
    cudaFuncAttributeRequiredClusterDepth = 13,
    cudaFuncAttributeNonPortableClusterSizeAllowed = 14,
    cudaFuncAttributeClusterSchedulingPolicyPreference = 15
};
typedef void (*cudaHostFn_t)(void *userData);
typedef void (*cudaStreamCallback_t)(cudaStream_t stream, cudaError_t status, void *userData);

/* ---- stream-ordered allocation: memory pools ---- */
typedef struct rt_pool *cudaMemPool_t;
enum {
    cudaMemPoolReuseFollowEventDependencies = 1, cudaMemPoolReuseAllowOpportunistic = 2,
    cudaMemPoolReuseAllowInternalDependencies = 3, cudaMemPoolAttrReleaseThreshold = 4,
    cudaMemPoolAttrReservedMemCurrent = 5, cudaMemPoolAttrReservedMemHigh = 6,
    cudaMemPoolAttrUsedMemCurrent = 7, cudaMemPoolAttrUsedMemHigh = 8
};
enum { cudaMemAllocationTypePinned = 1, cudaMemAllocationTypeManaged = 2 };
enum { cudaMemHandleTypeNone = 0 };
enum { cudaMemLocationTypeDevice = 1, cudaMemLocationTypeHost = 2 };
struct cudaMemLocation {
    int type; /* enum cudaMemLocationType */
    int id;
};
struct cudaMemPoolProps {
    int allocType;   /* enum cudaMemAllocationType */
    int handleTypes; /* enum cudaMemAllocationHandleType */
    struct cudaMemLocation location;
    void *win32SecurityAttributes;
    size_t maxSize;
    unsigned short usage;
    unsigned char reserved[54];
};

enum { cudaMemAccessFlagsProtNone = 0, cudaMemAccessFlagsProtRead = 1,
       cudaMemAccessFlagsProtReadWrite = 3 };
struct cudaMemAccessDesc {
    struct cudaMemLocation location;
    int flags; /* enum cudaMemAccessFlags */
};

/* ---- graphs and stream capture ---- */
typedef struct rt_graph *cudaGraph_t;
typedef struct rt_graph_exec *cudaGraphExec_t;
typedef struct rt_graph_node *cudaGraphNode_t;
enum {
    cudaGraphNodeTypeKernel = 0, cudaGraphNodeTypeMemcpy = 1, cudaGraphNodeTypeMemset = 2,
    cudaGraphNodeTypeHost = 3, cudaGraphNodeTypeGraph = 4, cudaGraphNodeTypeEmpty = 5,
    cudaGraphNodeTypeWaitEvent = 6, cudaGraphNodeTypeEventRecord = 7,
    cudaGraphNodeTypeExtSemaphoreSignal = 8, cudaGraphNodeTypeExtSemaphoreWait = 9,
    cudaGraphNodeTypeMemAlloc = 10, cudaGraphNodeTypeMemFree = 11,
    cudaGraphNodeTypeConditional = 13
};
enum {
    cudaGraphInstantiateFlagAutoFreeOnLaunch = 1, cudaGraphInstantiateFlagUpload = 2,
    cudaGraphInstantiateFlagDeviceLaunch = 4, cudaGraphInstantiateFlagUseNodePriority = 8
};
/* graph memory nodes (cudaGraphAddMemAllocNode) and the graph allocator */
struct cudaMemAllocNodeParams {
    struct cudaMemPoolProps poolProps;
    const struct cudaMemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr;
};
enum {
    cudaGraphMemAttrUsedMemCurrent = 0, cudaGraphMemAttrUsedMemHigh = 1,
    cudaGraphMemAttrReservedMemCurrent = 2, cudaGraphMemAttrReservedMemHigh = 3
};
enum { cudaStreamCaptureStatusNone = 0, cudaStreamCaptureStatusActive = 1,
       cudaStreamCaptureStatusInvalidated = 2 };
enum { cudaStreamCaptureModeGlobal = 0, cudaStreamCaptureModeThreadLocal = 1,
       cudaStreamCaptureModeRelaxed = 2 };
enum {
    cudaGraphExecUpdateSuccess = 0, cudaGraphExecUpdateError = 1,
    cudaGraphExecUpdateErrorTopologyChanged = 2, cudaGraphExecUpdateErrorNodeTypeChanged = 3,
    cudaGraphExecUpdateErrorFunctionChanged = 4, cudaGraphExecUpdateErrorParametersChanged = 5,
    cudaGraphExecUpdateErrorNotSupported = 6
};
struct cudaKernelNodeParams {
    void *func;
    dim3 gridDim, blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};
struct cudaMemsetParams {
    void *dst;
    size_t pitch;
    unsigned int value, elementSize;
    size_t width, height;
};
struct cudaHostNodeParams {
    cudaHostFn_t fn;
    void *userData;
};
/* conditional nodes (cudaGraphConditionalHandleCreate, cudaGraphAddNode) */
typedef unsigned long long cudaGraphConditionalHandle;
enum { cudaGraphCondAssignDefault = 1 };
enum { cudaGraphCondTypeIf = 0, cudaGraphCondTypeWhile = 1, cudaGraphCondTypeSwitch = 2 };
struct cudaConditionalNodeParams {
    cudaGraphConditionalHandle handle;
    int type; /* enum cudaGraphConditionalNodeType */
    unsigned int size;
    cudaGraph_t *phGraph_out;
};
/* the generic node parameters of cudaGraphAddNode, cudaGraphNodeSetParams and
 * cudaGraphExecNodeSetParams: a tagged union */
struct cudaKernelNodeParamsV2 {
    void *func;
    dim3 gridDim, blockDim;
    unsigned int sharedMemBytes;
    void **kernelParams;
    void **extra;
};
struct cudaMemcpyNodeParams {
    int flags;
    int reserved[3];
    struct cudaMemcpy3DParms copyParams;
};
struct cudaMemsetParamsV2 {
    void *dst;
    size_t pitch;
    unsigned int value, elementSize;
    size_t width, height;
};
struct cudaHostNodeParamsV2 {
    cudaHostFn_t fn;
    void *userData;
};
enum { cudaGraphChildGraphOwnershipClone = 0, cudaGraphChildGraphOwnershipMove = 1 };
struct cudaChildGraphNodeParams {
    cudaGraph_t graph;
    int ownership; /* enum cudaGraphChildGraphNodeOwnership */
};
struct cudaEventRecordNodeParams {
    cudaEvent_t event;
};
struct cudaEventWaitNodeParams {
    cudaEvent_t event;
};
struct cudaMemAllocNodeParamsV2 {
    struct cudaMemPoolProps poolProps;
    const struct cudaMemAccessDesc *accessDescs;
    size_t accessDescCount;
    size_t bytesize;
    void *dptr;
};
struct cudaMemFreeNodeParams {
    void *dptr;
};
struct cudaGraphNodeParams {
    int type; /* enum cudaGraphNodeType */
    int reserved0[3];
    union {
        long long reserved1[29];
        struct cudaKernelNodeParamsV2 kernel;
        struct cudaMemcpyNodeParams memcpy;
        struct cudaMemsetParamsV2 memset;
        struct cudaHostNodeParamsV2 host;
        struct cudaChildGraphNodeParams graph;
        struct cudaEventWaitNodeParams eventWait;
        struct cudaEventRecordNodeParams eventRecord;
        struct cudaMemAllocNodeParamsV2 alloc;
        struct cudaMemFreeNodeParams free;
        struct cudaConditionalNodeParams conditional;
    };
    long long reserved2;
};
/* edge data: all zero is an ordinary dependency, the only kind lockstep runs */
typedef struct cudaGraphEdgeData_st {
    unsigned char from_port, to_port, type, reserved[5];
} cudaGraphEdgeData;
enum { cudaGraphDependencyTypeDefault = 0, cudaGraphDependencyTypeProgrammatic = 1 };
enum { cudaStreamAddCaptureDependencies = 0, cudaStreamSetCaptureDependencies = 1 };
typedef struct cudaGraphExecUpdateResultInfo_st {
    int result; /* enum cudaGraphExecUpdateResult */
    cudaGraphNode_t errorNode, errorFromNode;
} cudaGraphExecUpdateResultInfo;

#define CUDART_VERSION 13000

/* __fatBinC_Wrapper_t: what __cudaRegisterFatBinary receives */
typedef struct fatbin_wrapper {
    int magic; /* 0x466243b1 */
    int version;
    const unsigned long long *data;
    void *filename_or_fatbins;
} fatbin_wrapper;
#define FATBINC_MAGIC 0x466243B1

#endif
