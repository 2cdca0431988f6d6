/*
 * texture.c -- CUDA arrays, texture objects and surface objects.
 *
 * A CUDA array is device memory holding texels row by row (its layout is
 * opaque to programs, so the plainest one serves): a row of width x texel
 * bytes, rows one after another, slices and layers after that.  Arrays are
 * checked handles (H_ARRAY), like streams.  Copies to and from arrays are
 * pitched copies of those rows (memcpy2d.c's cudart_copy3d, which turns an
 * array into a pitched pointer with cudart_array_pitched).
 *
 * cudaCreateTextureObject and cudaCreateSurfaceObject describe the
 * resource (an array, linear memory, or pitched 2-D memory) and the
 * sampling (address modes, filtering, read mode, normalized coordinates,
 * border color) to the device (lockstep_texture_create), whose handle is
 * the object kernels receive.  The CUDA descriptions are kept beside it
 * for cudaGetTextureObjectResourceDesc and friends.
 *
 * A cube-map array (cudaArrayCubemap) is a layered 2-D array of six square
 * faces per cube, sampled with tex.cube / tex.acube.
 *
 * Not supported, each with a message: mipmapped arrays, resource views,
 * sRGB conversion, anisotropic filtering, and the special channel formats
 * (block-compressed, NV12, the *Normalized*X* kinds).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cudart/cuda_api.h"
#include "cudart/runtime.h"

struct rt_array {
    void *handle;             /* its cudaArray_t */
    lockstep_dptr base;
    struct cudaChannelFormatDesc desc;
    size_t width, height, depth; /* as allocated: height 0 for 1-D, depth 0 for 2-D */
    unsigned flags;
    size_t elem;              /* texel bytes */
};

/* The CUDA descriptions of a live texture or surface object. */
typedef struct obj_desc {
    unsigned long long handle;
    struct cudaResourceDesc res;
    struct cudaTextureDesc tex;
    int surface;
} obj_desc;

static obj_desc *objs;
static size_t nobjs, capobjs;
static struct rt_array **arrays; /* the live arrays (for cudaDeviceReset) */
static size_t narrays, caparrays;

/* ---- arrays ------------------------------------------------------------------------- */

/* Channels and bits of a channel descriptor: 0, or -1 (said why). */
static int channel_layout(const struct cudaChannelFormatDesc *d, int *channels, int *bits,
                          const char *who)
{
    int b[4] = {d->x, d->y, d->z, d->w}, n = 0;
    while (n < 4 && b[n])
        n++;
    for (int i = n; i < 4; i++)
        if (b[i]) {
            cudart_say("%s: channel %d is used after an unused one", who, i);
            return -1;
        }
    for (int i = 1; i < n; i++)
        if (b[i] != b[0]) {
            cudart_say("%s: channels of different sizes (%d and %d bits) are not supported by "
                       "lockstep",
                       who, b[0], b[i]);
            return -1;
        }
    if (d->f > cudaChannelFormatKindFloat) {
        cudart_say("%s: channel format kind %d is not supported by lockstep (signed, unsigned "
                   "and float channels are)",
                   who, d->f);
        return -1;
    }
    if (n == 0 || n == 3 || (b[0] != 8 && b[0] != 16 && b[0] != 32) ||
        (d->f == cudaChannelFormatKindFloat && b[0] == 8)) {
        cudart_say("%s: a texel of %d channels of %d bits (kind %d) is not a valid format", who, n,
                   n ? b[0] : 0, d->f);
        return -1;
    }
    *channels = n;
    *bits = b[0];
    return 0;
}

static cudaError_t array_new(cudaArray_t *out, const struct cudaChannelFormatDesc *desc,
                             size_t w, size_t h, size_t d, unsigned flags, const char *who)
{
    if (!out || !desc || !w)
        return cudaErrorInvalidValue;
    if (flags & ~(unsigned)(cudaArrayLayered | cudaArraySurfaceLoadStore | cudaArrayCubemap |
                            cudaArrayTextureGather))
        return cudaErrorInvalidValue;
    if ((flags & cudaArrayCubemap) &&
        (w != h || !d || d % 6 || (!(flags & cudaArrayLayered) && d != 6))) {
        cudart_say("%s: a cube map is square (width = height) with a depth of 6 (a multiple of 6 "
                   "when layered), not %zu x %zu x %zu",
                   who, w, h, d);
        return cudaErrorInvalidValue;
    }
    int ch, bits;
    if (channel_layout(desc, &ch, &bits, who))
        return cudaErrorInvalidChannelDescriptor;
    if ((flags & cudaArrayLayered) && !d)
        return cudaErrorInvalidValue;
    struct rt_array *a = calloc(1, sizeof *a);
    if (!a)
        return cudaErrorMemoryAllocation;
    a->desc = *desc;
    a->width = w;
    a->height = h;
    a->depth = d;
    a->flags = flags;
    a->elem = (size_t)ch * (size_t)bits / 8;
    size_t rows = (h ? h : 1) * (d ? d : 1);
    if (w > SIZE_MAX / a->elem || rows > SIZE_MAX / (w * a->elem)) {
        free(a);
        return cudaErrorMemoryAllocation;
    }
    if (lockstep_malloc(cudart_device(), w * a->elem * rows, &a->base) != LOCKSTEP_SUCCESS) {
        free(a);
        return cudaErrorMemoryAllocation;
    }
    if (narrays == caparrays) {
        size_t c = caparrays ? 2 * caparrays : 16;
        struct rt_array **v = realloc(arrays, c * sizeof *v);
        if (!v) {
            lockstep_free(cudart_device(), a->base);
            free(a);
            return cudaErrorMemoryAllocation;
        }
        arrays = v;
        caparrays = c;
    }
    if (!(a->handle = cudart_handle_new(H_ARRAY, a))) {
        lockstep_free(cudart_device(), a->base);
        free(a);
        return cudaErrorMemoryAllocation;
    }
    arrays[narrays++] = a;
    *out = a->handle;
    return cudaSuccess;
}

static void array_forget(struct rt_array *a)
{
    for (size_t i = 0; i < narrays; i++)
        if (arrays[i] == a) {
            arrays[i] = arrays[--narrays];
            break;
        }
    cudart_handle_free(a->handle, H_ARRAY);
    free(a);
}

void cudart_texture_reset(void)
{
    /* the device freed the memory: every array handle and texture or
     * surface object ends with it */
    for (size_t i = 0; i < nobjs; i++)
        lockstep_texture_destroy(cudart_device(), objs[i].handle);
    nobjs = 0;
    while (narrays)
        array_forget(arrays[narrays - 1]);
}

static struct rt_array *array_of(const void *h) { return cudart_handle_obj(h, H_ARRAY); }

int cudart_array_pitched(cudaArray_t h, struct cudaPitchedPtr *p, size_t *elem, size_t *slices)
{
    struct rt_array *a = array_of(h);
    if (!a)
        return -1;
    *slices = a->depth ? a->depth : 1;
    *p = (struct cudaPitchedPtr){(void *)(uintptr_t)a->base, a->width * a->elem, a->width,
                                 a->height ? a->height : 1};
    *elem = a->elem;
    return 0;
}

CUDART_API cudaError_t cudaMallocArray(cudaArray_t *array, const struct cudaChannelFormatDesc *desc,
                                       size_t width, size_t height, unsigned int flags)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    return cudart_leave(array_new(array, desc, width, height, 0, flags & ~1u, "cudaMallocArray"));
}

CUDART_API cudaError_t cudaMalloc3DArray(cudaArray_t *array,
                                         const struct cudaChannelFormatDesc *desc,
                                         struct cudaExtent extent, unsigned int flags)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    return cudart_leave(array_new(array, desc, extent.width, extent.height, extent.depth, flags,
                                  "cudaMalloc3DArray"));
}

CUDART_API cudaError_t cudaFreeArray(cudaArray_t array)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    if (!array)
        return cudart_leave(cudaSuccess);
    struct rt_array *a = array_of(array);
    if (!a)
        return cudart_leave(cudaErrorInvalidValue);
    lockstep_status st = lockstep_free(cudart_device(), a->base);
    array_forget(a);
    return cudart_leave(st == LOCKSTEP_SUCCESS ? cudaSuccess : cudaErrorInvalidValue);
}

CUDART_API cudaError_t cudaArrayGetInfo(struct cudaChannelFormatDesc *desc,
                                        struct cudaExtent *extent, unsigned int *flags,
                                        cudaArray_t array)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    struct rt_array *a = array_of(array);
    if (!a)
        return cudart_leave(cudaErrorInvalidValue);
    if (desc)
        *desc = a->desc;
    if (extent)
        *extent = (struct cudaExtent){a->width, a->height, a->depth};
    if (flags)
        *flags = a->flags;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGetChannelDesc(struct cudaChannelFormatDesc *desc, cudaArray_t array)
{
    return cudaArrayGetInfo(desc, NULL, NULL, array);
}

/* ---- copies to and from arrays ---------------------------------------------------------- */

/* A 2-D copy with an array on one side, as 3-D parameters (positions and
 * widths in bytes on the array side: CUDA's 2-D array copies count bytes). */
static cudaError_t array_copy2d(cudaArray_t dst_a, size_t dx, size_t dy, void *dst, size_t dpitch,
                                cudaArray_t src_a, size_t sx, size_t sy, const void *src,
                                size_t spitch, size_t width, size_t height, int kind,
                                cudaStream_t stream, int sync)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    if (!cudart_stream_valid(stream))
        return cudart_leave(cudaErrorInvalidResourceHandle);
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    size_t elem = 1, ss = 0, ds = 0;
    if (dst_a) {
        if (cudart_array_pitched(dst_a, &p.dstPtr, &elem, &ds))
            return cudart_leave(cudaErrorInvalidValue);
        p.dstPos = (struct cudaPos){dx, dy, 0};
        p.srcPtr = (struct cudaPitchedPtr){(void *)(uintptr_t)src, spitch, width, height};
    } else {
        if (cudart_array_pitched(src_a, &p.srcPtr, &elem, &ss))
            return cudart_leave(cudaErrorInvalidValue);
        p.srcPos = (struct cudaPos){sx, sy, 0};
        p.dstPtr = (struct cudaPitchedPtr){dst, dpitch, width, height};
    }
    p.extent = (struct cudaExtent){width, height, 1};
    p.kind = kind;
    if (graph_capturing(stream))
        return cudart_leave(sync ? graph_capture_refuse(stream) : graph_capture_copy(stream, &p));
    e = cudart_copy2d_arrays(&p, ss, ds);
    if (sync)
        cudart_sync_point();
    return cudart_leave(e);
}

CUDART_API cudaError_t cudaMemcpy2DToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                           const void *src, size_t spitch, size_t width,
                                           size_t height, int kind)
{
    return array_copy2d(dst, wOffset, hOffset, NULL, 0, NULL, 0, 0, src, spitch, width, height,
                        kind, NULL, 1);
}

CUDART_API cudaError_t cudaMemcpy2DToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                const void *src, size_t spitch, size_t width,
                                                size_t height, int kind)
{
    return cudaMemcpy2DToArray(dst, wOffset, hOffset, src, spitch, width, height, kind);
}

CUDART_API cudaError_t cudaMemcpy2DToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                                const void *src, size_t spitch, size_t width,
                                                size_t height, int kind, cudaStream_t stream)
{
    return array_copy2d(dst, wOffset, hOffset, NULL, 0, NULL, 0, 0, src, spitch, width, height,
                        kind, stream, 0);
}

CUDART_API cudaError_t cudaMemcpy2DToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset,
                                                     size_t hOffset, const void *src,
                                                     size_t spitch, size_t width, size_t height,
                                                     int kind, cudaStream_t stream)
{
    return cudaMemcpy2DToArrayAsync(dst, wOffset, hOffset, src, spitch, width, height, kind,
                                    cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaMemcpy2DFromArray(void *dst, size_t dpitch, cudaArray_t src,
                                             size_t wOffset, size_t hOffset, size_t width,
                                             size_t height, int kind)
{
    return array_copy2d(NULL, 0, 0, dst, dpitch, src, wOffset, hOffset, NULL, 0, width, height,
                        kind, NULL, 1);
}

CUDART_API cudaError_t cudaMemcpy2DFromArray_ptds(void *dst, size_t dpitch, cudaArray_t src,
                                                  size_t wOffset, size_t hOffset, size_t width,
                                                  size_t height, int kind)
{
    return cudaMemcpy2DFromArray(dst, dpitch, src, wOffset, hOffset, width, height, kind);
}

CUDART_API cudaError_t cudaMemcpy2DFromArrayAsync(void *dst, size_t dpitch, cudaArray_t src,
                                                  size_t wOffset, size_t hOffset, size_t width,
                                                  size_t height, int kind, cudaStream_t stream)
{
    return array_copy2d(NULL, 0, 0, dst, dpitch, src, wOffset, hOffset, NULL, 0, width, height,
                        kind, stream, 0);
}

CUDART_API cudaError_t cudaMemcpy2DFromArrayAsync_ptsz(void *dst, size_t dpitch, cudaArray_t src,
                                                       size_t wOffset, size_t hOffset,
                                                       size_t width, size_t height, int kind,
                                                       cudaStream_t stream)
{
    return cudaMemcpy2DFromArrayAsync(dst, dpitch, src, wOffset, hOffset, width, height, kind,
                                      cudart_ptsz(stream));
}

/* The deprecated linear forms: count bytes from (wOffset, hOffset) on,
 * wrapping rows as the array's rows do. */
static cudaError_t array_copy_linear(cudaArray_t a_h, size_t wOffset, size_t hOffset, void *host,
                                     size_t count, int kind, int to_array, cudaStream_t stream,
                                     int sync)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    struct rt_array *a = array_of(a_h);
    if (!a)
        return cudart_leave(cudaErrorInvalidValue);
    size_t row = a->width * a->elem, start = hOffset * row + wOffset;
    size_t total = row * (a->height ? a->height : 1) * (a->depth ? a->depth : 1);
    if (wOffset > row || start > total || count > total - start)
        return cudart_leave(cudaErrorInvalidValue);
    if (!cudart_stream_valid(stream))
        return cudart_leave(cudaErrorInvalidResourceHandle);
    void *dev = (void *)(uintptr_t)(a->base + start);
    if (graph_capturing(stream)) {
        struct cudaMemcpy3DParms p = cudart_params2d(to_array ? dev : host, count,
                                                     to_array ? host : dev, count, count, 1, kind);
        return cudart_leave(sync ? graph_capture_refuse(stream) : graph_capture_copy(stream, &p));
    }
    e = to_array ? cudart_copy(dev, host, count, kind) : cudart_copy(host, dev, count, kind);
    if (sync)
        cudart_sync_point();
    return cudart_leave(e);
}

CUDART_API cudaError_t cudaMemcpyToArray(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                         const void *src, size_t count, int kind)
{
    return array_copy_linear(dst, wOffset, hOffset, (void *)(uintptr_t)src, count, kind, 1, NULL,
                             1);
}

CUDART_API cudaError_t cudaMemcpyFromArray(void *dst, cudaArray_t src, size_t wOffset,
                                           size_t hOffset, size_t count, int kind)
{
    return array_copy_linear(src, wOffset, hOffset, dst, count, kind, 0, NULL, 1);
}

CUDART_API cudaError_t cudaMemcpyToArrayAsync(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                              const void *src, size_t count, int kind,
                                              cudaStream_t stream)
{
    return array_copy_linear(dst, wOffset, hOffset, (void *)(uintptr_t)src, count, kind, 1,
                             stream, 0);
}

CUDART_API cudaError_t cudaMemcpyFromArrayAsync(void *dst, cudaArray_t src, size_t wOffset,
                                                size_t hOffset, size_t count, int kind,
                                                cudaStream_t stream)
{
    return array_copy_linear(src, wOffset, hOffset, dst, count, kind, 0, stream, 0);
}

/* Between two arrays (positions and widths in bytes, as the 2-D forms). */
CUDART_API cudaError_t cudaMemcpy2DArrayToArray(cudaArray_t dst, size_t wOffsetDst,
                                                size_t hOffsetDst, cudaArray_t src,
                                                size_t wOffsetSrc, size_t hOffsetSrc,
                                                size_t width, size_t height, int kind)
{
    if (kind != cudaMemcpyDeviceToDevice && kind != cudaMemcpyDefault)
        return cudart_error(cudaErrorInvalidMemcpyDirection);
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    struct cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    size_t es, ed, ss, ds;
    if (cudart_array_pitched(src, &p.srcPtr, &es, &ss) ||
        cudart_array_pitched(dst, &p.dstPtr, &ed, &ds))
        return cudart_leave(cudaErrorInvalidValue);
    p.srcPos = (struct cudaPos){wOffsetSrc, hOffsetSrc, 0};
    p.dstPos = (struct cudaPos){wOffsetDst, hOffsetDst, 0};
    p.extent = (struct cudaExtent){width, height, 1};
    p.kind = cudaMemcpyDeviceToDevice;
    e = cudart_copy2d_arrays(&p, ss, ds);
    cudart_sync_point();
    return cudart_leave(e);
}

CUDART_API cudaError_t cudaMemcpy2DArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                                     size_t hOffsetDst, cudaArray_t src,
                                                     size_t wOffsetSrc, size_t hOffsetSrc,
                                                     size_t width, size_t height, int kind)
{
    return cudaMemcpy2DArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, width,
                                    height, kind);
}

/* The deprecated linear form: count bytes, one row (they may not wrap). */
CUDART_API cudaError_t cudaMemcpyArrayToArray(cudaArray_t dst, size_t wOffsetDst,
                                              size_t hOffsetDst, cudaArray_t src, size_t wOffsetSrc,
                                              size_t hOffsetSrc, size_t count, int kind)
{
    return cudaMemcpy2DArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count,
                                    1, kind);
}

CUDART_API cudaError_t cudaMemcpyArrayToArray_ptds(cudaArray_t dst, size_t wOffsetDst,
                                                   size_t hOffsetDst, cudaArray_t src,
                                                   size_t wOffsetSrc, size_t hOffsetSrc,
                                                   size_t count, int kind)
{
    return cudaMemcpyArrayToArray(dst, wOffsetDst, hOffsetDst, src, wOffsetSrc, hOffsetSrc, count,
                                  kind);
}

CUDART_API cudaError_t cudaMemcpyToArray_ptds(cudaArray_t dst, size_t wOffset, size_t hOffset,
                                              const void *src, size_t count, int kind)
{
    return cudaMemcpyToArray(dst, wOffset, hOffset, src, count, kind);
}

CUDART_API cudaError_t cudaMemcpyFromArray_ptds(void *dst, cudaArray_t src, size_t wOffset,
                                                size_t hOffset, size_t count, int kind)
{
    return cudaMemcpyFromArray(dst, src, wOffset, hOffset, count, kind);
}

CUDART_API cudaError_t cudaMemcpyToArrayAsync_ptsz(cudaArray_t dst, size_t wOffset,
                                                   size_t hOffset, const void *src, size_t count,
                                                   int kind, cudaStream_t stream)
{
    return cudaMemcpyToArrayAsync(dst, wOffset, hOffset, src, count, kind, cudart_ptsz(stream));
}

CUDART_API cudaError_t cudaMemcpyFromArrayAsync_ptsz(void *dst, cudaArray_t src, size_t wOffset,
                                                     size_t hOffset, size_t count, int kind,
                                                     cudaStream_t stream)
{
    return cudaMemcpyFromArrayAsync(dst, src, wOffset, hOffset, count, kind, cudart_ptsz(stream));
}

/* ---- texture and surface objects ---------------------------------------------------- */

static obj_desc *obj_find(unsigned long long h)
{
    for (size_t i = 0; i < nobjs; i++)
        if (objs[i].handle == h)
            return &objs[i];
    return NULL;
}

/* The device's description of a resource (and sampling); 0, or the error
 * (said why). */
static cudaError_t describe(const struct cudaResourceDesc *r, const struct cudaTextureDesc *t,
                            int surface, lockstep_texture_desc *d, const char *who)
{
    memset(d, 0, sizeof *d);
    const struct cudaChannelFormatDesc *cd;
    d->height = d->depth = 1;
    switch (r->resType) {
    case cudaResourceTypeArray: {
        struct rt_array *a = array_of(r->res.array.array);
        if (!a)
            return cudaErrorInvalidResourceHandle;
        if (surface && !(a->flags & cudaArraySurfaceLoadStore)) {
            cudart_say("%s: the array was not allocated with cudaArraySurfaceLoadStore", who);
            return cudaErrorInvalidValue;
        }
        cd = &a->desc;
        d->base = a->base;
        d->width = (uint32_t)a->width;
        d->pitch = a->width * a->elem;
        int layered = (a->flags & (cudaArrayLayered | cudaArrayCubemap)) != 0;
        d->cubemap = (a->flags & cudaArrayCubemap) != 0; /* six square layers per cube */
        if (layered) {
            d->layers = (uint32_t)a->depth;
            d->dims = a->height ? 2 : 1;
            d->height = a->height ? (uint32_t)a->height : 1;
            d->layer_stride = d->pitch * d->height;
        } else {
            d->dims = a->depth ? 3 : a->height ? 2 : 1;
            d->height = a->height ? (uint32_t)a->height : 1;
            d->depth = a->depth ? (uint32_t)a->depth : 1;
            d->slice_stride = d->pitch * d->height;
        }
        break;
    }
    case cudaResourceTypeLinear:
        if (surface)
            return cudaErrorInvalidValue;
        cd = &r->res.linear.desc;
        d->base = (lockstep_dptr)(uintptr_t)r->res.linear.devPtr;
        d->dims = 1;
        d->buffer = 1;
        break;
    case cudaResourceTypePitch2D:
        if (surface)
            return cudaErrorInvalidValue;
        cd = &r->res.pitch2D.desc;
        d->base = (lockstep_dptr)(uintptr_t)r->res.pitch2D.devPtr;
        d->dims = 2;
        d->width = (uint32_t)r->res.pitch2D.width;
        d->height = (uint32_t)r->res.pitch2D.height;
        d->pitch = r->res.pitch2D.pitchInBytes;
        break;
    case cudaResourceTypeMipmappedArray:
        cudart_say("%s: mipmapped arrays are not supported by lockstep", who);
        return cudaErrorNotSupported;
    default: return cudaErrorInvalidValue;
    }
    int ch, bits;
    if (channel_layout(cd, &ch, &bits, who))
        return cudaErrorInvalidChannelDescriptor;
    d->channels = (uint8_t)ch;
    d->bits = (uint8_t)bits;
    d->kind = cd->f == cudaChannelFormatKindSigned     ? LOCKSTEP_TEX_SIGNED
              : cd->f == cudaChannelFormatKindUnsigned ? LOCKSTEP_TEX_UNSIGNED
                                                       : LOCKSTEP_TEX_FLOAT;
    if (r->resType == cudaResourceTypeLinear) {
        size_t tb = (size_t)ch * bits / 8;
        if (r->res.linear.sizeInBytes / tb > UINT32_MAX)
            return cudaErrorInvalidValue;
        d->width = (uint32_t)(r->res.linear.sizeInBytes / tb);
        d->pitch = r->res.linear.sizeInBytes;
    }
    d->surface = (uint8_t)surface;
    if (!t) {
        d->address[0] = d->address[1] = d->address[2] = LOCKSTEP_TEX_CLAMP;
        return cudaSuccess;
    }
    if (t->sRGB) {
        cudart_say("%s: sRGB conversion is not supported by lockstep", who);
        return cudaErrorNotSupported;
    }
    if (t->maxAnisotropy > 1) {
        cudart_say("%s: anisotropic filtering is not supported by lockstep", who);
        return cudaErrorNotSupported;
    }
    for (int k = 0; k < 3; k++) {
        if (t->addressMode[k] < cudaAddressModeWrap || t->addressMode[k] > cudaAddressModeBorder)
            return cudaErrorInvalidValue;
        d->address[k] = (uint8_t)t->addressMode[k];
    }
    if ((t->filterMode != cudaFilterModePoint && t->filterMode != cudaFilterModeLinear) ||
        (t->readMode != cudaReadModeElementType && t->readMode != cudaReadModeNormalizedFloat))
        return cudaErrorInvalidValue;
    /* linear memory is fetched by index (tex1Dfetch): no filtering, no
     * normalized coordinates */
    d->linear_filter = (uint8_t)(t->filterMode == cudaFilterModeLinear && !d->buffer);
    d->read_normalized = (uint8_t)(t->readMode == cudaReadModeNormalizedFloat);
    d->normalized_coords = (uint8_t)(t->normalizedCoords && !d->buffer);
    memcpy(d->border, t->borderColor, sizeof d->border);
    return cudaSuccess;
}

static cudaError_t create(unsigned long long *out, const struct cudaResourceDesc *r,
                          const struct cudaTextureDesc *t, int surface, const char *who)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    lockstep_texture_desc d;
    if ((e = describe(r, t, surface, &d, who)))
        return cudart_leave(e);
    if (nobjs == capobjs) {
        size_t c = capobjs ? 2 * capobjs : 16;
        obj_desc *v = realloc(objs, c * sizeof *v);
        if (!v)
            return cudart_leave(cudaErrorMemoryAllocation);
        objs = v;
        capobjs = c;
    }
    uint64_t h;
    if (lockstep_texture_create(cudart_device(), &d, &h) != LOCKSTEP_SUCCESS) {
        cudart_say("%s: %s", who, lockstep_device_last_error(cudart_device()));
        return cudart_leave(cudaErrorInvalidValue);
    }
    obj_desc *o = &objs[nobjs++];
    memset(o, 0, sizeof *o);
    o->handle = h;
    o->res = *r;
    if (t)
        o->tex = *t;
    o->surface = surface;
    *out = h;
    return cudart_leave(cudaSuccess);
}

static cudaError_t destroy(unsigned long long h, int surface)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    obj_desc *o = obj_find(h);
    if (!o || o->surface != surface)
        return cudart_leave(cudaErrorInvalidValue);
    lockstep_texture_destroy(cudart_device(), h);
    *o = objs[--nobjs];
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaCreateTextureObject(cudaTextureObject_t *pTexObject,
                                               const struct cudaResourceDesc *pResDesc,
                                               const struct cudaTextureDesc *pTexDesc,
                                               const struct cudaResourceViewDesc *pResViewDesc)
{
    if (!pTexObject || !pResDesc || !pTexDesc)
        return cudart_error(cudaErrorInvalidValue);
    if (pResViewDesc) {
        cudart_say("cudaCreateTextureObject: resource views are not supported by lockstep");
        return cudart_error(cudaErrorNotSupported);
    }
    return create(pTexObject, pResDesc, pTexDesc, 0, "cudaCreateTextureObject");
}

CUDART_API cudaError_t cudaDestroyTextureObject(cudaTextureObject_t texObject)
{
    return destroy(texObject, 0);
}

CUDART_API cudaError_t cudaCreateSurfaceObject(cudaSurfaceObject_t *pSurfObject,
                                               const struct cudaResourceDesc *pResDesc)
{
    if (!pSurfObject || !pResDesc)
        return cudart_error(cudaErrorInvalidValue);
    if (pResDesc->resType != cudaResourceTypeArray)
        return cudart_error(cudaErrorInvalidValue); /* surfaces are arrays */
    return create(pSurfObject, pResDesc, NULL, 1, "cudaCreateSurfaceObject");
}

CUDART_API cudaError_t cudaDestroySurfaceObject(cudaSurfaceObject_t surfObject)
{
    return destroy(surfObject, 1);
}

static cudaError_t get_desc(unsigned long long h, int surface, struct cudaResourceDesc *r,
                            struct cudaTextureDesc *t)
{
    cudaError_t e = cudart_enter();
    if (e)
        return e;
    obj_desc *o = obj_find(h);
    if (!o || o->surface != surface)
        return cudart_leave(cudaErrorInvalidValue);
    if (r)
        *r = o->res;
    if (t)
        *t = o->tex;
    return cudart_leave(cudaSuccess);
}

CUDART_API cudaError_t cudaGetTextureObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                        cudaTextureObject_t texObject)
{
    if (!pResDesc)
        return cudart_error(cudaErrorInvalidValue);
    return get_desc(texObject, 0, pResDesc, NULL);
}

CUDART_API cudaError_t cudaGetTextureObjectTextureDesc(struct cudaTextureDesc *pTexDesc,
                                                       cudaTextureObject_t texObject)
{
    if (!pTexDesc)
        return cudart_error(cudaErrorInvalidValue);
    return get_desc(texObject, 0, NULL, pTexDesc);
}

CUDART_API cudaError_t cudaGetSurfaceObjectResourceDesc(struct cudaResourceDesc *pResDesc,
                                                        cudaSurfaceObject_t surfObject)
{
    if (!pResDesc)
        return cudart_error(cudaErrorInvalidValue);
    return get_desc(surfObject, 1, pResDesc, NULL);
}
