/*
 * cuda_api.h -- declarations of the CUDA runtime functions runtime.c
 * implements (the subset of CUDA 13's cuda_runtime_api.h, with lockstep's
 * ABI types from cuda_abi.h).  Every other export is a stub (stubs.c).
 */
#ifndef LOCKSTEP_CUDA_API_H
#define LOCKSTEP_CUDA_API_H

#include <stddef.h>

#include "cudart/cuda_abi.h"

#define CUDART_API __attribute__((visibility("default")))

CUDART_API void **__cudaRegisterFatBinary(void *fatCubin);
CUDART_API void __cudaRegisterFatBinaryEnd(void **handle);
CUDART_API void __cudaUnregisterFatBinary(void **handle);
CUDART_API char __cudaInitModule(void **handle);
CUDART_API void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                                       const char *deviceName, int thread_limit, void *tid,
                                       void *bid, void *bDim, void *gDim, int *wSize);
CUDART_API void __cudaRegisterVar(void **handle, char *hostVar, char *deviceAddress,
                                  const char *deviceName, int ext, size_t size, int constant,
                                  int global);
CUDART_API void __cudaRegisterManagedVar(void **handle, void **hostVarPtrAddress,
                                         char *deviceAddress, const char *deviceName, int ext,
                                         size_t size, int constant, int global);
CUDART_API unsigned __cudaPushCallConfiguration(dim3 gridDim, dim3 blockDim, size_t sharedMem,
                                                void *stream);
CUDART_API cudaError_t __cudaPopCallConfiguration(dim3 *gridDim, dim3 *blockDim, size_t *sharedMem,
                                                  void *stream);
CUDART_API cudaError_t __cudaGetKernel(cudaKernel_t *kernel, const void *hostFun);
CUDART_API cudaError_t __cudaLaunchKernel(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                          void **args, size_t sharedMem, cudaStream_t stream);
CUDART_API cudaError_t __cudaLaunchKernel_ptsz(cudaKernel_t kernel, dim3 gridDim, dim3 blockDim,
                                               void **args, size_t sharedMem, cudaStream_t stream);
CUDART_API cudaError_t cudaLaunchKernel(const void *func, dim3 gridDim, dim3 blockDim, void **args,
                                        size_t sharedMem, cudaStream_t stream);
CUDART_API cudaError_t cudaLaunchKernel_ptsz(const void *func, dim3 gridDim, dim3 blockDim,
                                             void **args, size_t sharedMem, cudaStream_t stream);
CUDART_API cudaError_t cudaGetLastError(void);
CUDART_API cudaError_t cudaPeekAtLastError(void);
CUDART_API const char *cudaGetErrorString(cudaError_t error);
CUDART_API const char *cudaGetErrorName(cudaError_t error);
CUDART_API cudaError_t cudaMalloc(void **devPtr, size_t size);
CUDART_API cudaError_t cudaFree(void *devPtr);
CUDART_API cudaError_t cudaMallocHost(void **ptr, size_t size);
CUDART_API cudaError_t cudaHostAlloc(void **pHost, size_t size, unsigned int flags);
CUDART_API cudaError_t cudaMallocManaged(void **devPtr, size_t size, unsigned int flags);
CUDART_API cudaError_t cudaFreeHost(void *ptr);
CUDART_API cudaError_t cudaHostGetDevicePointer(void **pDevice, void *pHost, unsigned int flags);
CUDART_API cudaError_t cudaMemcpy(void *dst, const void *src, size_t count, int kind);
CUDART_API cudaError_t cudaMemcpy_ptds(void *dst, const void *src, size_t count, int kind);
CUDART_API cudaError_t cudaMemcpyAsync(void *dst, const void *src, size_t count, int kind,
                                       cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpyAsync_ptsz(void *dst, const void *src, size_t count, int kind,
                                            cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                    size_t width, size_t height, int kind);
CUDART_API cudaError_t cudaMemset(void *devPtr, int value, size_t count);
CUDART_API cudaError_t cudaMemsetAsync(void *devPtr, int value, size_t count, cudaStream_t stream);
CUDART_API cudaError_t cudaMemsetAsync_ptsz(void *devPtr, int value, size_t count,
                                            cudaStream_t stream);
CUDART_API cudaError_t cudaMemset_ptds(void *devPtr, int value, size_t count);
CUDART_API cudaError_t cudaMemcpyToSymbol(const void *symbol, const void *src, size_t count,
                                          size_t offset, int kind);
CUDART_API cudaError_t cudaMemcpyFromSymbol(void *dst, const void *symbol, size_t count,
                                            size_t offset, int kind);
CUDART_API cudaError_t cudaMemcpyToSymbolAsync(const void *symbol, const void *src, size_t count,
                                               size_t offset, int kind, cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const void *symbol, size_t count,
                                                 size_t offset, int kind, cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpyToSymbol_ptds(const void *symbol, const void *src, size_t count,
                                               size_t offset, int kind);
CUDART_API cudaError_t cudaMemcpyFromSymbol_ptds(void *dst, const void *symbol, size_t count,
                                                 size_t offset, int kind);
CUDART_API cudaError_t cudaMemcpyToSymbolAsync_ptsz(const void *symbol, const void *src,
                                                    size_t count, size_t offset, int kind,
                                                    cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpyFromSymbolAsync_ptsz(void *dst, const void *symbol, size_t count,
                                                      size_t offset, int kind, cudaStream_t stream);
CUDART_API cudaError_t cudaGetSymbolAddress(void **devPtr, const void *symbol);
CUDART_API cudaError_t cudaGetSymbolSize(size_t *size, const void *symbol);
CUDART_API cudaError_t cudaMemGetInfo(size_t *free, size_t *total);
CUDART_API cudaError_t cudaDeviceSynchronize(void);
CUDART_API cudaError_t cudaThreadSynchronize(void);
CUDART_API cudaError_t cudaStreamCreate(cudaStream_t *pStream);
CUDART_API cudaError_t cudaStreamCreateWithFlags(cudaStream_t *pStream, unsigned int flags);
CUDART_API cudaError_t cudaStreamCreateWithPriority(cudaStream_t *pStream, unsigned int flags,
                                                    int priority);
CUDART_API cudaError_t cudaStreamDestroy(cudaStream_t stream);
CUDART_API cudaError_t cudaStreamSynchronize(cudaStream_t stream);
CUDART_API cudaError_t cudaStreamSynchronize_ptsz(cudaStream_t stream);
CUDART_API cudaError_t cudaStreamQuery(cudaStream_t stream);
CUDART_API cudaError_t cudaStreamQuery_ptsz(cudaStream_t stream);
CUDART_API cudaError_t cudaStreamGetFlags(cudaStream_t stream, unsigned int *flags);
CUDART_API cudaError_t cudaStreamGetFlags_ptsz(cudaStream_t stream, unsigned int *flags);
CUDART_API cudaError_t cudaStreamGetPriority(cudaStream_t stream, int *priority);
CUDART_API cudaError_t cudaStreamGetPriority_ptsz(cudaStream_t stream, int *priority);
CUDART_API cudaError_t cudaStreamWaitEvent(cudaStream_t stream, cudaEvent_t event,
                                           unsigned int flags);
CUDART_API cudaError_t cudaStreamWaitEvent_ptsz(cudaStream_t stream, cudaEvent_t event,
                                                unsigned int flags);
CUDART_API cudaError_t cudaEventCreate(cudaEvent_t *event);
CUDART_API cudaError_t cudaEventCreateWithFlags(cudaEvent_t *event, unsigned int flags);
CUDART_API cudaError_t cudaEventDestroy(cudaEvent_t event);
CUDART_API cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream);
CUDART_API cudaError_t cudaEventRecord_ptsz(cudaEvent_t event, cudaStream_t stream);
CUDART_API cudaError_t cudaEventRecordWithFlags(cudaEvent_t event, cudaStream_t stream,
                                                unsigned int flags);
CUDART_API cudaError_t cudaEventSynchronize(cudaEvent_t event);
CUDART_API cudaError_t cudaEventQuery(cudaEvent_t event);
CUDART_API cudaError_t cudaEventElapsedTime(float *ms, cudaEvent_t start, cudaEvent_t end);
CUDART_API cudaError_t cudaGetDeviceCount(int *count);
CUDART_API cudaError_t cudaGetDevice(int *device);
CUDART_API cudaError_t cudaSetDevice(int device);
CUDART_API cudaError_t cudaSetDeviceFlags(unsigned int flags);
CUDART_API cudaError_t cudaGetDeviceProperties(struct cudaDeviceProp *prop, int device);
CUDART_API cudaError_t cudaDeviceGetAttribute(int *value, int attr, int device);
CUDART_API cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, const void *func);
CUDART_API cudaError_t cudaFuncSetCacheConfig(const void *func, int cacheConfig);
CUDART_API cudaError_t cudaFuncSetAttribute(const void *func, int attr, int value);
CUDART_API cudaError_t cudaDeviceSetCacheConfig(int cacheConfig);
CUDART_API cudaError_t cudaDeviceGetCacheConfig(int *cacheConfig);
CUDART_API cudaError_t cudaDeviceSetLimit(int limit, size_t value);
CUDART_API cudaError_t cudaDeviceGetLimit(size_t *value, int limit);
CUDART_API cudaError_t cudaDeviceReset(void);
CUDART_API cudaError_t cudaDriverGetVersion(int *driverVersion);
CUDART_API cudaError_t cudaRuntimeGetVersion(int *runtimeVersion);
CUDART_API struct cudaChannelFormatDesc cudaCreateChannelDesc(int x, int y, int z, int w, int f);
CUDART_API cudaError_t cudaProfilerStart(void);
CUDART_API cudaError_t cudaProfilerStop(void);

CUDART_API cudaError_t cudaStreamBeginCapture(cudaStream_t stream, int mode);
CUDART_API cudaError_t cudaStreamBeginCapture_ptsz(cudaStream_t stream, int mode);
CUDART_API cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t *pGraph);
CUDART_API cudaError_t cudaStreamEndCapture_ptsz(cudaStream_t stream, cudaGraph_t *pGraph);
CUDART_API cudaError_t cudaStreamIsCapturing(cudaStream_t stream, int *pCaptureStatus);
CUDART_API cudaError_t cudaStreamIsCapturing_ptsz(cudaStream_t stream, int *pCaptureStatus);
CUDART_API cudaError_t cudaStreamGetCaptureInfo(cudaStream_t stream, int *captureStatus_out,
                                                unsigned long long *id_out, cudaGraph_t *graph_out,
                                                const cudaGraphNode_t **dependencies_out,
                                                const void **edgeData_out,
                                                size_t *numDependencies_out);
CUDART_API cudaError_t cudaStreamGetCaptureInfo_ptsz(cudaStream_t stream, int *captureStatus_out,
                                                     unsigned long long *id_out,
                                                     cudaGraph_t *graph_out,
                                                     const cudaGraphNode_t **dependencies_out,
                                                     const void **edgeData_out,
                                                     size_t *numDependencies_out);
CUDART_API cudaError_t cudaThreadExchangeStreamCaptureMode(int *mode);
CUDART_API cudaError_t cudaStreamBeginCaptureToGraph(cudaStream_t stream, cudaGraph_t graph_h,
                                                     const cudaGraphNode_t *dependencies,
                                                     const void *dependencyData,
                                                     size_t numDependencies, int mode);
CUDART_API cudaError_t cudaStreamBeginCaptureToGraph_ptsz(cudaStream_t stream, cudaGraph_t graph_h,
                                                          const cudaGraphNode_t *dependencies,
                                                          const void *dependencyData,
                                                          size_t numDependencies, int mode);
CUDART_API cudaError_t cudaStreamUpdateCaptureDependencies(cudaStream_t stream,
                                                           cudaGraphNode_t *dependencies,
                                                           const void *dependencyData,
                                                           size_t numDependencies,
                                                           unsigned int flags);
CUDART_API cudaError_t cudaStreamUpdateCaptureDependencies_ptsz(cudaStream_t stream,
                                                                cudaGraphNode_t *dependencies,
                                                                const void *dependencyData,
                                                                size_t numDependencies,
                                                                unsigned int flags);
CUDART_API cudaError_t cudaGraphCreate(cudaGraph_t *pGraph, unsigned int flags);
CUDART_API cudaError_t cudaGraphDestroy(cudaGraph_t h);
CUDART_API cudaError_t cudaGraphClone(cudaGraph_t *pGraphClone, cudaGraph_t originalGraph);
CUDART_API cudaError_t cudaGraphAddKernelNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                              const cudaGraphNode_t *pDependencies,
                                              size_t numDependencies,
                                              const struct cudaKernelNodeParams *pNodeParams);
CUDART_API cudaError_t cudaGraphAddMemcpyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                              const cudaGraphNode_t *pDependencies,
                                              size_t numDependencies,
                                              const struct cudaMemcpy3DParms *pCopyParams);
CUDART_API cudaError_t cudaGraphAddMemcpyNode1D(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                                const cudaGraphNode_t *pDependencies,
                                                size_t numDependencies, void *dst,
                                                const void *src, size_t count, int kind);
CUDART_API cudaError_t cudaGraphAddMemsetNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                              const cudaGraphNode_t *pDependencies,
                                              size_t numDependencies,
                                              const struct cudaMemsetParams *pMemsetParams);
CUDART_API cudaError_t cudaGraphAddHostNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                            const cudaGraphNode_t *pDependencies,
                                            size_t numDependencies,
                                            const struct cudaHostNodeParams *pNodeParams);
CUDART_API cudaError_t cudaGraphAddChildGraphNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                                  const cudaGraphNode_t *pDependencies,
                                                  size_t numDependencies, cudaGraph_t childGraph);
CUDART_API cudaError_t cudaGraphAddEmptyNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                             const cudaGraphNode_t *pDependencies,
                                             size_t numDependencies);
CUDART_API cudaError_t cudaGraphAddEventRecordNode(cudaGraphNode_t *pGraphNode,
                                                   cudaGraph_t graph_h,
                                                   const cudaGraphNode_t *pDependencies,
                                                   size_t numDependencies, cudaEvent_t event);
CUDART_API cudaError_t cudaGraphAddEventWaitNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                                 const cudaGraphNode_t *pDependencies,
                                                 size_t numDependencies, cudaEvent_t event);
CUDART_API cudaError_t cudaGraphConditionalHandleCreate(cudaGraphConditionalHandle *pHandle_out,
                                                        cudaGraph_t graph_h,
                                                        unsigned int defaultLaunchValue,
                                                        unsigned int flags);
CUDART_API cudaError_t cudaGraphAddNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                        const cudaGraphNode_t *pDependencies,
                                        const void *dependencyData, size_t numDependencies,
                                        struct cudaGraphNodeParams *nodeParams);
CUDART_API cudaError_t cudaGraphNodeSetParams(cudaGraphNode_t node_h,
                                              struct cudaGraphNodeParams *nodeParams);
CUDART_API cudaError_t cudaGraphExecNodeSetParams(cudaGraphExec_t hx, cudaGraphNode_t node_h,
                                                  struct cudaGraphNodeParams *nodeParams);
CUDART_API cudaError_t cudaGraphAddDependencies(cudaGraph_t graph_h, const cudaGraphNode_t *from,
                                                const cudaGraphNode_t *to, const void *edgeData,
                                                size_t numDependencies);
CUDART_API cudaError_t cudaGraphGetNodes(cudaGraph_t graph_h, cudaGraphNode_t *nodes,
                                         size_t *numNodes);
CUDART_API cudaError_t cudaGraphGetRootNodes(cudaGraph_t graph_h, cudaGraphNode_t *pRootNodes,
                                             size_t *pNumRootNodes);
CUDART_API cudaError_t cudaGraphNodeGetType(cudaGraphNode_t h, int *pType);
CUDART_API cudaError_t cudaGraphChildGraphNodeGetGraph(cudaGraphNode_t h, cudaGraph_t *pGraph);
CUDART_API cudaError_t cudaGraphKernelNodeGetParams(cudaGraphNode_t h,
                                                    struct cudaKernelNodeParams *p);
CUDART_API cudaError_t cudaGraphKernelNodeSetParams(cudaGraphNode_t h,
                                                    const struct cudaKernelNodeParams *p);
CUDART_API cudaError_t cudaGraphMemcpyNodeGetParams(cudaGraphNode_t h, struct cudaMemcpy3DParms *p);
CUDART_API cudaError_t cudaGraphMemcpyNodeSetParams(cudaGraphNode_t h,
                                                    const struct cudaMemcpy3DParms *p);
CUDART_API cudaError_t cudaGraphMemsetNodeGetParams(cudaGraphNode_t h, struct cudaMemsetParams *p);
CUDART_API cudaError_t cudaGraphMemsetNodeSetParams(cudaGraphNode_t h,
                                                    const struct cudaMemsetParams *p);
CUDART_API cudaError_t cudaGraphHostNodeGetParams(cudaGraphNode_t h, struct cudaHostNodeParams *p);
CUDART_API cudaError_t cudaGraphHostNodeSetParams(cudaGraphNode_t h,
                                                  const struct cudaHostNodeParams *p);
CUDART_API cudaError_t cudaGraphInstantiate(cudaGraphExec_t *pGraphExec, cudaGraph_t graph_h,
                                            unsigned long long flags);
CUDART_API cudaError_t cudaGraphInstantiateWithFlags(cudaGraphExec_t *pGraphExec,
                                                     cudaGraph_t graph_h, unsigned long long flags);
CUDART_API cudaError_t cudaGraphExecDestroy(cudaGraphExec_t h);
CUDART_API cudaError_t cudaGraphLaunch(cudaGraphExec_t h, cudaStream_t stream);
CUDART_API cudaError_t cudaGraphLaunch_ptsz(cudaGraphExec_t h, cudaStream_t stream);
CUDART_API cudaError_t cudaGraphUpload(cudaGraphExec_t h, cudaStream_t stream);
CUDART_API cudaError_t cudaGraphUpload_ptsz(cudaGraphExec_t h, cudaStream_t stream);
CUDART_API cudaError_t cudaGraphExecKernelNodeSetParams(cudaGraphExec_t hx, cudaGraphNode_t node_h,
                                                        const struct cudaKernelNodeParams *p);
CUDART_API cudaError_t cudaGraphExecMemcpyNodeSetParams(cudaGraphExec_t hx, cudaGraphNode_t node_h,
                                                        const struct cudaMemcpy3DParms *p);
CUDART_API cudaError_t cudaGraphExecMemsetNodeSetParams(cudaGraphExec_t hx, cudaGraphNode_t node_h,
                                                        const struct cudaMemsetParams *p);
CUDART_API cudaError_t cudaGraphExecHostNodeSetParams(cudaGraphExec_t hx, cudaGraphNode_t node_h,
                                                      const struct cudaHostNodeParams *p);
CUDART_API cudaError_t cudaGraphExecUpdate(cudaGraphExec_t hx, cudaGraph_t hg,
                                           cudaGraphExecUpdateResultInfo *info);
CUDART_API cudaError_t cudaGraphExecGetFlags(cudaGraphExec_t h, unsigned long long *flags);
CUDART_API cudaError_t cudaGraphAddMemAllocNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                                const cudaGraphNode_t *pDependencies,
                                                size_t numDependencies,
                                                struct cudaMemAllocNodeParams *nodeParams);
CUDART_API cudaError_t cudaGraphMemAllocNodeGetParams(cudaGraphNode_t h,
                                                      struct cudaMemAllocNodeParams *p);
CUDART_API cudaError_t cudaGraphAddMemFreeNode(cudaGraphNode_t *pGraphNode, cudaGraph_t graph_h,
                                               const cudaGraphNode_t *pDependencies,
                                               size_t numDependencies, void *dptr);
CUDART_API cudaError_t cudaGraphMemFreeNodeGetParams(cudaGraphNode_t h, void *dptr_out);
CUDART_API cudaError_t cudaDeviceGraphMemTrim(int device);
CUDART_API cudaError_t cudaDeviceGetGraphMemAttribute(int device, int attr, void *value);
CUDART_API cudaError_t cudaDeviceSetGraphMemAttribute(int device, int attr, void *value);
CUDART_API cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height);
CUDART_API cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent);
CUDART_API cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
                                         size_t width, size_t height, int kind);
CUDART_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                         size_t width, size_t height, int kind,
                                         cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
                                              size_t spitch, size_t width, size_t height, int kind,
                                              cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p);
CUDART_API cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p);
CUDART_API cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p,
                                              cudaStream_t stream);
CUDART_API cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
                                    size_t height);
CUDART_API cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width,
                                         size_t height);
CUDART_API cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                         size_t height, cudaStream_t stream);
CUDART_API cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
                                              size_t height, cudaStream_t stream);
CUDART_API cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value,
                                    struct cudaExtent extent);
CUDART_API cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value,
                                         struct cudaExtent extent);
CUDART_API cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
                                         struct cudaExtent extent, cudaStream_t stream);
CUDART_API cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                                              struct cudaExtent extent, cudaStream_t stream);
CUDART_API cudaError_t cudaMallocAsync(void **devPtr, size_t size, cudaStream_t stream);
CUDART_API cudaError_t cudaMallocAsync_ptsz(void **devPtr, size_t size, cudaStream_t stream);
CUDART_API cudaError_t cudaMallocFromPoolAsync(void **ptr, size_t size, cudaMemPool_t memPool,
                                               cudaStream_t stream);
CUDART_API cudaError_t cudaMallocFromPoolAsync_ptsz(void **ptr, size_t size,
                                                    cudaMemPool_t memPool, cudaStream_t stream);
CUDART_API cudaError_t cudaFreeAsync(void *devPtr, cudaStream_t stream);
CUDART_API cudaError_t cudaFreeAsync_ptsz(void *devPtr, cudaStream_t stream);
CUDART_API cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t *memPool, int device);
CUDART_API cudaError_t cudaDeviceGetMemPool(cudaMemPool_t *memPool, int device);
CUDART_API cudaError_t cudaDeviceSetMemPool(int device, cudaMemPool_t memPool);
CUDART_API cudaError_t cudaMemPoolCreate(cudaMemPool_t *memPool,
                                         const struct cudaMemPoolProps *poolProps);
CUDART_API cudaError_t cudaMemPoolDestroy(cudaMemPool_t memPool);
CUDART_API cudaError_t cudaMemPoolTrimTo(cudaMemPool_t memPool, size_t minBytesToKeep);
CUDART_API cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t memPool, int attr, void *value);
CUDART_API cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t memPool, int attr, void *value);
CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks,
                                                                     const void *func,
                                                                     int blockSize,
                                                                     size_t dynamicSMemSize);
CUDART_API cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
    int *numBlocks, const void *func, int blockSize, size_t dynamicSMemSize, unsigned int flags);
CUDART_API cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize,
                                                                 const void *func, int numBlocks,
                                                                 int blockSize);
CUDART_API cudaError_t cudaLaunchCooperativeKernel(const void *func, dim3 gridDim, dim3 blockDim,
                                                   void **args, size_t sharedMem,
                                                   cudaStream_t stream);
CUDART_API cudaError_t cudaLaunchCooperativeKernel_ptsz(const void *func, dim3 gridDim,
                                                        dim3 blockDim, void **args,
                                                        size_t sharedMem, cudaStream_t stream);
CUDART_API cudaError_t cudaHostRegister(void *ptr, size_t size, unsigned int flags);
CUDART_API cudaError_t cudaHostUnregister(void *ptr);
CUDART_API cudaError_t cudaHostGetFlags(unsigned int *pFlags, void *pHost);
CUDART_API cudaError_t cudaLaunchHostFunc(cudaStream_t stream, cudaHostFn_t fn, void *userData);
CUDART_API cudaError_t cudaLaunchHostFunc_ptsz(cudaStream_t stream, cudaHostFn_t fn,
                                               void *userData);
CUDART_API cudaError_t cudaStreamAddCallback(cudaStream_t stream, cudaStreamCallback_t callback,
                                             void *userData, unsigned int flags);
CUDART_API cudaError_t cudaStreamAddCallback_ptsz(cudaStream_t stream,
                                                  cudaStreamCallback_t callback, void *userData,
                                                  unsigned int flags);
CUDART_API cudaError_t cudaDeviceGetStreamPriorityRange(int *leastPriority, int *greatestPriority);

CUDART_API cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                       size_t width, size_t height, unsigned int flags);
CUDART_API cudaError_t cudaMalloc3DArray(cudaArray_t *array,
                                         const struct cudaChannelFormatDesc *desc,
                                         struct cudaExtent extent, unsigned int flags);
CUDART_API cudaError_t cudaFreeArray(cudaArray_t array);
CUDART_API cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc,
                                        struct cudaExtent *extent, unsigned int *flags,
                                        cudaArray_t array);
CUDART_API cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_t array);
CUDART_API cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                           const void *src, size_t spitch, size_t width,
                                           size_t height, int kind);
CUDART_API cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                const void *src, size_t spitch, size_t width,
                                                size_t height, int kind);
CUDART_API cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                const void *src, size_t spitch, size_t width,
                                                size_t height, int kind, cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset,
                                                     size_t hOffset, const void *src,
                                                     size_t spitch, size_t width, size_t height,
                                                     int kind, cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_t src,
                                             size_t wOffset, size_t hOffset, size_t width,
                                             size_t height, int kind);
CUDART_API cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_t src,
                                                  size_t wOffset, size_t hOffset, size_t width,
                                                  size_t height, int kind);
CUDART_API cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_t src,
                                                  size_t wOffset, size_t hOffset, size_t width,
                                                  size_t height, int kind, cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_t src,
                                                       size_t wOffset, size_t hOffset,
                                                       size_t width, size_t height, int kind,
                                                       cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                         const void *src, size_t count, int kind);
CUDART_API cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_t src, size_t wOffset,
                                           size_t hOffset, size_t count, int kind);
CUDART_API cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                              const void *src, size_t count, int kind,
                                              cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_t src, size_t wOffset,
                                                size_t hOffset, size_t count, int kind,
                                                cudaStream_t stream);
CUDART_API cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                               const struct cudaResourceDesc *pResDesc,
                                               const struct cudaTextureDesc *pTexDesc,
                                               const struct cudaResourceViewDesc *pResViewDesc);
CUDART_API cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject);
CUDART_API cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                               const struct cudaResourceDesc *pResDesc);
CUDART_API cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject);
CUDART_API cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                        cudaTextureObject_t texObject);
CUDART_API cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                                       cudaTextureObject_t texObject);
CUDART_API cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                        cudaSurfaceObject_t surfObject);

CUDART_API cudaError_t cudaLaunchKernelExC(const cudaLaunchConfig_t *config, const void *func,
                                           void **args);
CUDART_API cudaError_t cudaLaunchKernelExC_ptsz(const cudaLaunchConfig_t *config,
                                                const void *func, void **args);
CUDART_API cudaError_t cudaFuncGetName(const char **name, const void *func);
CUDART_API cudaError_t cudaPointerGetAttributes(struct cudaPointerAttributes *attributes,
                                                const void *ptr);
CUDART_API cudaError_t cudaMemPrefetchAsync(const void *devPtr, size_t count,
                                            struct cudaMemLocation location, unsigned int flags,
                                            cudaStream_t stream);
CUDART_API cudaError_t cudaMemPrefetchAsync_ptsz(const void *devPtr, size_t count,
                                                 struct cudaMemLocation location,
                                                 unsigned int flags, cudaStream_t stream);
CUDART_API cudaError_t cudaMemAdvise(const void *devPtr, size_t count, int advice,
                                     struct cudaMemLocation location);
CUDART_API cudaError_t cudaGetDeviceFlags(unsigned int *flags);
CUDART_API cudaError_t cudaChooseDevice(int *device, const struct cudaDeviceProp *prop);
CUDART_API cudaError_t cudaDeviceCanAccessPeer(int *canAccessPeer, int device, int peerDevice);
CUDART_API cudaError_t cudaDeviceGetByPCIBusId(int *device, const char *pciBusId);
CUDART_API cudaError_t cudaDeviceEnablePeerAccess(int peerDevice, unsigned int flags);
CUDART_API cudaError_t cudaDeviceDisablePeerAccess(int peerDevice);
CUDART_API cudaError_t cudaDeviceGetPCIBusId(char *pciBusId, int len, int device);
CUDART_API cudaError_t cudaDeviceGetSharedMemConfig(int *pConfig);
CUDART_API cudaError_t cudaDeviceSetSharedMemConfig(int config);
CUDART_API cudaError_t cudaFuncSetSharedMemConfig(const void *func, int config);

CUDART_API cudaError_t cudaGraphGetEdges(cudaGraph_t graph_h, cudaGraphNode_t *from,
                                         cudaGraphNode_t *to, void *edgeData, size_t *numEdges);
CUDART_API cudaError_t cudaGraphNodeGetDependencies(cudaGraphNode_t node_h,
                                                    cudaGraphNode_t *pDependencies, void *edgeData,
                                                    size_t *pNumDependencies);
CUDART_API cudaError_t cudaGraphNodeGetDependentNodes(cudaGraphNode_t node_h,
                                                      cudaGraphNode_t *pDependentNodes,
                                                      void *edgeData, size_t *pNumDependentNodes);
CUDART_API cudaError_t cudaMemPoolSetAccess(cudaMemPool_t memPool,
                                            const struct cudaMemAccessDesc *descList, size_t count);
CUDART_API cudaError_t cudaMemPoolGetAccess(int *flags, cudaMemPool_t memPool,
                                            struct cudaMemLocation *location);
CUDART_API cudaError_t cudaMemGetDefaultMemPool(cudaMemPool_t *memPool,
                                                struct cudaMemLocation *location, int type);
CUDART_API cudaError_t cudaMemGetMemPool(cudaMemPool_t *memPool, struct cudaMemLocation *location,
                                         int type);
CUDART_API cudaError_t cudaMemSetMemPool(struct cudaMemLocation *location, int type,
                                         cudaMemPool_t memPool);
CUDART_API cudaError_t cudaEventRecordWithFlags_ptsz(cudaEvent_t event, cudaStream_t stream,
                                                     unsigned int flags);
CUDART_API cudaError_t cudaStreamGetId(cudaStream_t hStream, unsigned long long *streamId);
CUDART_API cudaError_t cudaStreamGetId_ptsz(cudaStream_t hStream, unsigned long long *streamId);
CUDART_API cudaError_t cudaStreamGetDevice(cudaStream_t hStream, int *device);
CUDART_API cudaError_t cudaStreamGetDevice_ptsz(cudaStream_t hStream, int *device);
CUDART_API cudaError_t cudaStreamAttachMemAsync(cudaStream_t stream, void *devPtr, size_t length,
                                                unsigned int flags);
CUDART_API cudaError_t cudaStreamAttachMemAsync_ptsz(cudaStream_t stream, void *devPtr,
                                                     size_t length, unsigned int flags);
CUDART_API cudaError_t cudaInitDevice(int device, unsigned int deviceFlags, unsigned int flags);
CUDART_API cudaError_t cudaSetValidDevices(int *device_arr, int len);
CUDART_API cudaError_t cudaMemcpyPeerAsync(void *dst, int dstDevice, const void *src,
                                           int srcDevice, size_t count, cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpyPeer(void *dst, int dstDevice, const void *src, int srcDevice,
                                      size_t count);
CUDART_API cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst,
                                                size_t hOffsetDst, cudaArray_t src,
                                                size_t wOffsetSrc, size_t hOffsetSrc,
                                                size_t width, size_t height, int kind);
CUDART_API cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                                     size_t hOffsetDst, cudaArray_t src,
                                                     size_t wOffsetSrc, size_t hOffsetSrc,
                                                     size_t width, size_t height, int kind);
CUDART_API cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst,
                                              size_t hOffsetDst, cudaArray_t src, size_t wOffsetSrc,
                                              size_t hOffsetSrc, size_t count, int kind);
CUDART_API cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                                   size_t hOffsetDst, cudaArray_t src,
                                                   size_t wOffsetSrc, size_t hOffsetSrc,
                                                   size_t count, int kind);
CUDART_API cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                              const void *src, size_t count, int kind);
CUDART_API cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_t src, size_t wOffset,
                                                size_t hOffset, size_t count, int kind);
CUDART_API cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset,
                                                   size_t hOffset, const void *src, size_t count,
                                                   int kind, cudaStream_t stream);
CUDART_API cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_t src, size_t wOffset,
                                                     size_t hOffset, size_t count, int kind,
                                                     cudaStream_t stream);

#endif
