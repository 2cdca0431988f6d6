/*
 * memcpy2d.c -- pitched memory and the 2-D and 3-D copies and fills of the
 * CUDA runtime: cudaMallocPitch, cudaMalloc3D, cudaMemcpy2D/3D (+Async),
 * cudaMemset2D/3D (+Async).
 *
 * Every one of them is a set of linear rows, run through runtime.c's one
 * copy and one fill (cudart_copy, cudart_fill), so the checks, the
 * simulated clock and the statistics are those of linear copies.  Graphs
 * keep a 2-D copy as the 3-D parameters (cudart_params2d), and a capturing
 * stream records the copy instead of running it.  A CUDA array in a copy is
 * its rows (texture.c), bounds-checked against its size.
 */
#include <stdint.h>
#include <string.h>

#include "cudart/cuda_api.h"
#include "cudart/runtime.h"

/* The pitch cudaMallocPitch gives: rows start on this many bytes, as on the
 * GPUs lockstep's configurations model (cudaDeviceProp.textureAlignment). */
#define PITCH_ALIGN 512

struct cudaMemcpy3DParms cudart_params2d(void *dst, size_t dpitch, const void *src,
                                         size_t spitch, size_t width, size_t height, int kind)
{
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = (struct cudaPitchedPtr){(void *)(uintptr_t)src, spitch, width, height};
    p.dstPtr = (struct cudaPitchedPtr){dst, dpitch, width, height};
    p.extent = (struct cudaExtent){width, height, 1};
    p.kind = kind;
    return p;
}

/* Copy extent.width bytes x height rows x depth slices between two pitched
 * pointers, from the positions given (lock held). */
/* Does [pos, pos + n) fit in [0, size)?  (No overflow.) */
static int fits(size_t pos, size_t n, size_t size) { return n <= size && pos <= size - n; }

/* The copy between two pitched pointers; a side with `slices` (an array's
 * slices or layers; 0 for a plain pointer) is bounds-checked in rows and
 * slices too. */
static cudaError_t copy_pitched(const struct cudaMemcpy3DParms *p, size_t sslices, size_t dslices)
{
    const struct cudaPitchedPtr *s = &p->srcPtr, *d = &p->dstPtr;
    size_t w = p->extent.width, h = p->extent.height, depth = p->extent.depth;
    if (!w || !h || !depth)
        return cudaSuccess;
    if (!s->ptr || !d->ptr)
        return cudaErrorInvalidValue;
    if (!fits(p->srcPos.x, w, s->pitch) || !fits(p->dstPos.x, w, d->pitch))
        return cudaErrorInvalidPitchValue;
    /* a slice of a pitched pointer holds ysize rows (2-D copies: height) */
    size_t sy = s->ysize ? s->ysize : h, dy = d->ysize ? d->ysize : h;
    if (((sslices || depth > 1) && !fits(p->srcPos.y, h, sy)) ||
        ((dslices || depth > 1) && !fits(p->dstPos.y, h, dy)) ||
        (sslices && !fits(p->srcPos.z, depth, sslices)) ||
        (dslices && !fits(p->dstPos.z, depth, dslices)))
        return cudaErrorInvalidValue;
    for (size_t z = 0; z < depth; z++)
        for (size_t y = 0; y < h; y++) {
            size_t so, dof;
            /* offsets of far-out positions on host memory must not wrap */
            if (__builtin_mul_overflow(p->srcPos.z + z, sy, &so) ||
                __builtin_add_overflow(so, p->srcPos.y + y, &so) ||
                __builtin_mul_overflow(so, s->pitch, &so) ||
                __builtin_add_overflow(so, p->srcPos.x, &so) ||
                __builtin_mul_overflow(p->dstPos.z + z, dy, &dof) ||
                __builtin_add_overflow(dof, p->dstPos.y + y, &dof) ||
                __builtin_mul_overflow(dof, d->pitch, &dof) ||
                __builtin_add_overflow(dof, p->dstPos.x, &dof) ||
                (uintptr_t)s->ptr + so < (uintptr_t)s->ptr || (uintptr_t)d->ptr + dof < (uintptr_t)d->ptr)
                return cudaErrorInvalidValue;
            cudaError_t e = cudart_copy((char *)d->ptr + dof, (const char *)s->ptr + so, w, p->kind);
            if (e)
                return e;
        }
    return cudaSuccess;
}

/* Copy extent.width bytes x height rows x depth slices between two pitched
 * pointers or CUDA arrays, from the positions given (lock held). */
cudaError_t cudart_copy3d(const struct cudaMemcpy3DParms *p)
{
    if (!p)
        return cudaErrorInvalidValue;
    if (!p->srcArray && !p->dstArray)
        return copy_pitched(p, 0, 0);
    /* an array is a pitched pointer to its rows; with one in the copy, the
     * width and the array side's x position count its texels */
    struct cudaMemcpy3DParms q = *p;
    size_t es = 0, ed = 0, ss = 0, ds = 0;
    if ((p->srcArray && cudart_array_pitched(p->srcArray, &q.srcPtr, &es, &ss)) ||
        (p->dstArray && cudart_array_pitched(p->dstArray, &q.dstPtr, &ed, &ds)))
        return cudaErrorInvalidValue;
    size_t elem = es ? es : ed;
    q.srcArray = q.dstArray = NULL;
    if (__builtin_mul_overflow(q.extent.width, elem, &q.extent.width) ||
        (es && __builtin_mul_overflow(q.srcPos.x, es, &q.srcPos.x)) ||
        (ed && __builtin_mul_overflow(q.dstPos.x, ed, &q.dstPos.x)))
        return cudaErrorInvalidValue;
    return copy_pitched(&q, ss, ds);
}

/* A 2-D copy naming arrays by pitched pointers (their x in bytes): checked
 * against the arrays' rows and slices (lock held). */
cudaError_t cudart_copy2d_arrays(const struct cudaMemcpy3DParms *p, size_t sslices,
                                 size_t dslices)
{
    return copy_pitched(p, sslices, dslices);
}

cudaError_t cudart_fill2d(void *dst, size_t pitch, int value, size_t width, size_t height)
{
    if (!width || !height)
        return cudaSuccess;
    if (width > pitch && height > 1)
        return cudaErrorInvalidPitchValue;
    for (size_t y = 0; y < height; y++) {
        cudaError_t e = cudart_fill((char *)dst + y * pitch, value, width);
        if (e)
            return e;
    }
    return cudaSuccess;
}

/* ---- allocation ---- */

CUDART_API cudaError_t cudaMallocPitch(void **devPtr, size_t *pitch, size_t width, size_t height)
{
    if (!devPtr || !pitch)
        return cudart_error(cudaErrorInvalidValue);
    size_t p = (width + PITCH_ALIGN - 1) / PITCH_ALIGN * PITCH_ALIGN;
    if (p < width || (height && p > SIZE_MAX / height))
        return cudart_error(cudaErrorMemoryAllocation);
    cudaError_t e = cudaMalloc(devPtr, p * height);
    if (e == cudaSuccess)
        *pitch = p;
    return e;
}

CUDART_API cudaError_t cudaMalloc3D(struct cudaPitchedPtr *pitchedDevPtr, struct cudaExtent extent)
{
    if (!pitchedDevPtr)
        return cudart_error(cudaErrorInvalidValue);
    size_t pitch = 0, rows = extent.height * extent.depth;
    if (extent.depth && rows / extent.depth != extent.height)
        return cudart_error(cudaErrorMemoryAllocation);
    void *p = NULL;
    cudaError_t e = cudaMallocPitch(&p, &pitch, extent.width, rows);
    if (e == cudaSuccess)
        *pitchedDevPtr = (struct cudaPitchedPtr){p, pitch, extent.width, extent.height};
    return e;
}

/* ---- copies ---- */

static cudaError_t copy3d(const struct cudaMemcpy3DParms *p, cudaStream_t stream, int sync)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    if (!cudart_stream_valid(stream))
        return cudart_leave(cudaErrorInvalidResourceHandle);
    if (!p)
        return cudart_leave(cudaErrorInvalidValue);
    if (graph_capturing(stream))
        return cudart_leave(sync ? graph_capture_refuse(stream) : graph_capture_copy(stream, p));
    e = cudart_copy3d(p);
    if (sync)
        cudart_sync_point(); /* a blocking copy synchronizes the device */
    return cudart_leave(e);
}

static cudaError_t copy2d(void *dst, size_t dpitch, const void *src, size_t spitch, size_t width,
                          size_t height, int kind, cudaStream_t stream, int sync)
{
    if (width > dpitch || width > spitch)
        return cudart_error(cudaErrorInvalidPitchValue);
    struct cudaMemcpy3DParms p = cudart_params2d(dst, dpitch, src, spitch, width, height, kind);
    return copy3d(&p, stream, sync);
}

CUDART_API cudaError_t cudaMemcpy2D(void *dst, size_t dpitch, const void *src, size_t spitch,
                                    size_t width, size_t height, int kind)
{
    return copy2d(dst, dpitch, src, spitch, width, height, kind, NULL, 1);
}

CUDART_API cudaError_t cudaMemcpy2D_ptds(void *dst, size_t dpitch, const void *src, size_t spitch,
                                         size_t width, size_t height, int kind)
{
    return cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind);
}

CUDART_API cudaError_t cudaMemcpy2DAsync(void *dst, size_t dpitch, const void *src, size_t spitch,
                                         size_t width, size_t height, int kind,
                                         cudaStream_t stream)
{
    return copy2d(dst, dpitch, src, spitch, width, height, kind, stream, 0);
}

CUDART_API cudaError_t cudaMemcpy2DAsync_ptsz(void *dst, size_t dpitch, const void *src,
                                              size_t spitch, size_t width, size_t height, int kind,
                                              cudaStream_t stream)
{
    return cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaMemcpy3D(const struct cudaMemcpy3DParms *p)
{
    return copy3d(p, NULL, 1);
}

CUDART_API cudaError_t cudaMemcpy3D_ptds(const struct cudaMemcpy3DParms *p)
{
    return cudaMemcpy3D(p);
}

CUDART_API cudaError_t cudaMemcpy3DAsync(const struct cudaMemcpy3DParms *p, cudaStream_t stream)
{
    return copy3d(p, stream, 0);
}

CUDART_API cudaError_t cudaMemcpy3DAsync_ptsz(const struct cudaMemcpy3DParms *p,
                                              cudaStream_t stream)
{
    return cudaMemcpy3DAsync(p, cudart_ptsz(stream));
}

/* ---- fills ---- */

static cudaError_t fill3d(struct cudaPitchedPtr ptr, int value, struct cudaExtent extent,
                          cudaStream_t stream)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    if (!cudart_stream_valid(stream))
        return cudart_leave(cudaErrorInvalidResourceHandle);
    size_t rows = extent.height * extent.depth;
    size_t slice = ptr.ysize ? ptr.ysize : extent.height;
    if (extent.depth > 1 && extent.height > slice)
        return cudart_leave(cudaErrorInvalidValue);
    if (graph_capturing(stream)) {
        if (extent.depth > 1 && slice != extent.height) {
            cudart_say("cudaMemset3DAsync: a capture records a 3-D fill only over whole slices");
            return cudart_leave(graph_capture_refuse(stream));
        }
        struct cudaMemsetParams p = {ptr.ptr, ptr.pitch, (unsigned)value & 0xff, 1,
                                     extent.width, rows};
        return cudart_leave(graph_capture_memset(stream, &p));
    }
    for (size_t z = 0; z < extent.depth && !e; z++)
        e = cudart_fill2d((char *)ptr.ptr + z * slice * ptr.pitch, ptr.pitch, value,
                          extent.width, extent.height);
    return cudart_leave(e);
}

CUDART_API cudaError_t cudaMemset2D(void *devPtr, size_t pitch, int value, size_t width,
                                    size_t height)
{
    return fill3d((struct cudaPitchedPtr){devPtr, pitch, width, height}, value,
                  (struct cudaExtent){width, height, 1}, NULL);
}

CUDART_API cudaError_t cudaMemset2D_ptds(void *devPtr, size_t pitch, int value, size_t width,
                                         size_t height)
{
    return cudaMemset2D(devPtr, pitch, value, width, height);
}

CUDART_API cudaError_t cudaMemset2DAsync(void *devPtr, size_t pitch, int value, size_t width,
                                         size_t height, cudaStream_t stream)
{
    return fill3d((struct cudaPitchedPtr){devPtr, pitch, width, height}, value,
                  (struct cudaExtent){width, height, 1}, stream);
}

CUDART_API cudaError_t cudaMemset2DAsync_ptsz(void *devPtr, size_t pitch, int value, size_t width,
                                              size_t height, cudaStream_t stream)
{
    return cudaMemset2DAsync(devPtr, pitch, value, width, height, cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaMemset3D(struct cudaPitchedPtr pitchedDevPtr, int value,
                                    struct cudaExtent extent)
{
    return fill3d(pitchedDevPtr, value, extent, NULL);
}

CUDART_API cudaError_t cudaMemset3D_ptds(struct cudaPitchedPtr pitchedDevPtr, int value,
                                         struct cudaExtent extent)
{
    return cudaMemset3D(pitchedDevPtr, value, extent);
}

CUDART_API cudaError_t cudaMemset3DAsync(struct cudaPitchedPtr pitchedDevPtr, int value,
                                         struct cudaExtent extent, cudaStream_t stream)
{
    return fill3d(pitchedDevPtr, value, extent, stream);
}

CUDART_API cudaError_t cudaMemset3DAsync_ptsz(struct cudaPitchedPtr pitchedDevPtr, int value,
                                              struct cudaExtent extent, cudaStream_t stream)
{
    return cudaMemset3DAsync(pitchedDevPtr, value, extent, cudart_ptsz(stream));
}
