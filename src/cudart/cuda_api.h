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

#endif
