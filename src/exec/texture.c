/*
 * texture.c -- the texture unit and surface accesses of the functional core:
 * tex, tld4, txq, suld, sust and suq on texture objects (lockstep.h,
 * "Textures and surfaces").
 *
 * Sampling follows the CUDA C++ Programming Guide's texture-fetching
 * appendix: coordinates are normalized or not, each coordinate's address
 * mode (wrap and mirror with normalized coordinates only; clamp; border)
 * maps it into the texture, nearest-texel filtering takes texel floor(x),
 * linear filtering blends the texels around x - 0.5 with weights that are
 * 9-bit fixed point numbers with 8 fractional bits, rounded to nearest.
 * Texels are decoded by format: integers as integers, or as floats in
 * [0, 1] ([-1, 1] signed) with the normalized-float read mode; half and
 * single floats as floats.  A texture with fewer than four channels reads
 * 0 for the missing red, green, blue channels and 1 for a missing alpha.
 * The blend is computed in single precision in a fixed order; it is
 * deterministic, but a GPU's texture unit may round differently in the
 * last bits.
 *
 * A texture is read-only while a kernel runs (CUDA leaves reading texture
 * memory the same kernel writes undefined), so tex and tld4 compute their
 * values when issued; in timing mode they then go to the SM's texture
 * cache as a timing request for the lines of every texel they read
 * (exec_memreq.texels), and their destinations wait for it.  Surface loads
 * and stores are ordinary global loads and stores of the texel's address,
 * through the memory seam like ld and st.
 */
#include <math.h>
#include <string.h>

#include "exec/exec.h"
#include "util/common.h"
#include "util/fpmath.h"

const exec_texture *exec_texture_find(const exec_launch *L, uint64_t handle)
{
    uint32_t idx = (uint32_t)handle;
    if (idx == 0 || idx > L->ntex)
        return NULL;
    const exec_texture *t = &L->tex[idx - 1];
    return t->live && t->gen == (uint32_t)(handle >> 32) ? t : NULL;
}

static uint32_t f32bits(float f)
{
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static float f32of(uint32_t u)
{
    float f;
    memcpy(&f, &u, 4);
    return f;
}

/* Does the texture deliver floats (float texels, or the normalized read
 * mode) rather than integers? */
static int returns_float(const lockstep_texture_desc *d)
{
    return d->kind == LOCKSTEP_TEX_FLOAT || (d->read_normalized && d->bits < 32);
}

static uint32_t texel_bytes(const lockstep_texture_desc *d)
{
    return (uint32_t)d->channels * d->bits / 8;
}

static uint64_t texel_addr(const lockstep_texture_desc *d, int64_t x, int64_t y, int64_t z,
                           uint32_t layer)
{
    return d->base + (uint64_t)layer * d->layer_stride + (uint64_t)z * d->slice_stride +
           (uint64_t)y * d->pitch + (uint64_t)x * texel_bytes(d);
}

/* One channel's raw bits, decoded: a float's bits, or an integer. */
static uint32_t decode_channel(const lockstep_texture_desc *d, const uint8_t *p)
{
    uint32_t raw = 0;
    memcpy(&raw, p, d->bits / 8); /* little-endian host */
    switch (d->kind) {
    case LOCKSTEP_TEX_FLOAT:
        if (d->bits == 16)
            return (uint32_t)fp_cvt_f2f(raw, FP_F16, FP_F32, FP_RN, 0, 0);
        return raw;
    case LOCKSTEP_TEX_SIGNED: {
        int32_t v = d->bits == 8 ? (int8_t)raw : d->bits == 16 ? (int16_t)raw : (int32_t)raw;
        if (d->read_normalized && d->bits < 32) {
            float m = d->bits == 8 ? 127.0f : 32767.0f, f = (float)v / m;
            return f32bits(f < -1.0f ? -1.0f : f);
        }
        return (uint32_t)v;
    }
    default:
        if (d->read_normalized && d->bits < 32)
            return f32bits((float)raw / (d->bits == 8 ? 255.0f : 65535.0f));
        return raw;
    }
}

/* The four channels of one texel (missing ones: 0, 0, 0, 1), read from
 * device memory; its address goes to the list when there is one. */
static void fetch_texel(exec_launch *L, const lockstep_texture_desc *d, int64_t x, int64_t y,
                        int64_t z, uint32_t layer, uint32_t out[4], exec_texels *list)
{
    uint8_t buf[16];
    uint64_t a = texel_addr(d, x, y, z, layer);
    uint32_t n = texel_bytes(d);
    exec_global_read(L, a, buf, n);
    if (list && list->n < EXEC_MAX_TEXELS)
        list->a[list->n++] = a;
    int fl = returns_float(d);
    for (int c = 0; c < 4; c++)
        out[c] = c < d->channels ? decode_channel(d, buf + c * (d->bits / 8))
                                 : c == 3 ? (fl ? f32bits(1.0f) : 1u) : 0u;
}

/* The border color in the texture's return format. */
static void border_texel(const lockstep_texture_desc *d, uint32_t out[4])
{
    for (int c = 0; c < 4; c++)
        out[c] = returns_float(d) ? f32bits(d->border[c]) : (uint32_t)(int32_t)d->border[c];
}

/* An integer texel index under an address mode: the index to read, or -1
 * for the border. */
static int64_t address_index(int mode, int64_t i, uint32_t n, int normalized)
{
    if (!normalized && (mode == LOCKSTEP_TEX_WRAP || mode == LOCKSTEP_TEX_MIRROR))
        mode = LOCKSTEP_TEX_CLAMP; /* wrap and mirror need normalized coordinates */
    switch (mode) {
    case LOCKSTEP_TEX_WRAP: {
        int64_t r = i % (int64_t)n;
        return r < 0 ? r + n : r;
    }
    case LOCKSTEP_TEX_MIRROR: {
        int64_t p = i % (2 * (int64_t)n);
        if (p < 0)
            p += 2 * (int64_t)n;
        return p < (int64_t)n ? p : 2 * (int64_t)n - 1 - p;
    }
    case LOCKSTEP_TEX_BORDER: return i < 0 || i >= (int64_t)n ? -1 : i;
    default: return i < 0 ? 0 : i >= (int64_t)n ? (int64_t)n - 1 : i;
    }
}

/* A float coordinate in texel units: normalized coordinates are scaled,
 * after wrap or mirror folds them into [0, 1). */
static float texel_coord(const lockstep_texture_desc *d, int dim, float u)
{
    uint32_t n = dim == 0 ? d->width : dim == 1 ? d->height : d->depth;
    if (!d->normalized_coords)
        return u;
    if (d->address[dim] == LOCKSTEP_TEX_WRAP)
        u = u - floorf(u);
    else if (d->address[dim] == LOCKSTEP_TEX_MIRROR) {
        float f = floorf(u);
        u = u - f;
        if (fmodf(f, 2.0f) != 0.0f)
            u = 1.0f - u;
    }
    return u * (float)n;
}

/* Clamp a float before it becomes an integer index. */
static int64_t floor_index(float x)
{
    if (!(x > -1e9f))
        return -1000000000;
    if (x > 1e9f)
        return 1000000000;
    return (int64_t)floorf(x);
}

typedef struct sample_pt {
    int64_t i[3];         /* texel index per dimension (after the address mode), -1: border */
} sample_pt;

/* Read texel (ix, iy, iz) of the footprint, or the border. */
static void read_at(exec_launch *L, const lockstep_texture_desc *d, const int64_t idx[3],
                    uint32_t layer, uint32_t out[4], exec_texels *list)
{
    if (idx[0] < 0 || idx[1] < 0 || idx[2] < 0) {
        border_texel(d, out);
        return;
    }
    fetch_texel(L, d, idx[0], idx[1], idx[2], layer, out, list);
}

/* The 9-bit weight of a fraction: 8 fractional bits, rounded to nearest. */
static float weight(float frac)
{
    return floorf(frac * 256.0f + 0.5f) / 256.0f;
}

void exec_tex_sample(exec_launch *L, const lockstep_texture_desc *d, const float coord[3],
                     const int32_t icoord[3], int integer_coords, uint32_t layer,
                     int gather, int comp, uint32_t out[4], exec_texels *list)
{
    int dims = d->dims;
    if (d->layers && layer >= d->layers)
        layer = d->layers - 1;
    if (d->buffer || integer_coords) {
        /* texel indices, no filtering: outside a buffer reads zeros,
         * outside an image follows the address mode */
        int64_t idx[3] = {0, 0, 0};
        for (int k = 0; k < dims; k++) {
            uint32_t n = k == 0 ? d->width : k == 1 ? d->height : d->depth;
            if (d->buffer) {
                if (icoord[k] < 0 || (uint32_t)icoord[k] >= n) {
                    out[0] = out[1] = out[2] = out[3] = 0;
                    return;
                }
                idx[k] = icoord[k];
            } else {
                idx[k] = address_index(d->address[k], icoord[k], n, 0);
            }
        }
        read_at(L, d, idx, layer, out, list);
        return;
    }
    float x[3] = {0, 0, 0};
    for (int k = 0; k < dims; k++)
        x[k] = texel_coord(d, k, coord[k]);
    uint32_t size[3] = {d->width, d->height, d->depth};
    if (!d->linear_filter && !gather) {
        int64_t idx[3] = {0, 0, 0};
        for (int k = 0; k < dims; k++)
            idx[k] = address_index(d->address[k], floor_index(x[k]), size[k], d->normalized_coords);
        read_at(L, d, idx, layer, out, list);
        return;
    }
    /* the footprint: 2, 4 or 8 texels around x - 0.5 */
    int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    float w[3] = {0, 0, 0};
    for (int k = 0; k < dims; k++) {
        float xb = x[k] - 0.5f;
        int64_t i0 = floor_index(xb);
        w[k] = weight(xb - floorf(xb));
        lo[k] = address_index(d->address[k], i0, size[k], d->normalized_coords);
        hi[k] = address_index(d->address[k], i0 + 1, size[k], d->normalized_coords);
    }
    if (gather) {
        /* tld4: one channel of the 2x2 footprint, in the order
         * (i0, j1), (i1, j1), (i1, j0), (i0, j0) */
        const int64_t (*pick)[2] = (const int64_t[4][2]){{0, 1}, {1, 1}, {1, 0}, {0, 0}};
        for (int q = 0; q < 4; q++) {
            int64_t idx[3] = {pick[q][0] ? hi[0] : lo[0], pick[q][1] ? hi[1] : lo[1], 0};
            uint32_t t[4];
            read_at(L, d, idx, layer, t, list);
            out[q] = t[comp];
        }
        return;
    }
    float acc[4] = {0, 0, 0, 0};
    int corners = 1 << dims;
    for (int q = 0; q < corners; q++) {
        int64_t idx[3] = {0, 0, 0};
        float wt = 1.0f;
        for (int k = 0; k < dims; k++) {
            int up = (q >> k) & 1;
            idx[k] = up ? hi[k] : lo[k];
            wt *= up ? w[k] : 1.0f - w[k];
        }
        uint32_t t[4];
        read_at(L, d, idx, layer, t, list);
        for (int c = 0; c < 4; c++)
            acc[c] += wt * f32of(t[c]);
    }
    for (int c = 0; c < 4; c++)
        out[c] = f32bits(acc[c]);
}

uint32_t exec_cube_face(const lockstep_texture_desc *d, float c[3])
{
    /* the CUDA C++ Programming Guide's cubemap fetch table: the coordinate
     * of largest magnitude picks the face (ties: x before y before z), the
     * other two, divided by it, the point on the face */
    float x = c[0], y = c[1], z = c[2], ax = fabsf(x), ay = fabsf(y), az = fabsf(z);
    uint32_t face;
    float sc, tc, ma;
    if (ax >= ay && ax >= az) {
        face = x >= 0 ? 0 : 1;
        ma = ax;
        sc = x >= 0 ? -z : z;
        tc = -y;
    } else if (ay >= az) {
        face = y >= 0 ? 2 : 3;
        ma = ay;
        sc = x;
        tc = y >= 0 ? z : -z;
    } else {
        face = z >= 0 ? 4 : 5;
        ma = az;
        sc = z >= 0 ? x : -x;
        tc = -y;
    }
    float s = ma > 0 ? (sc / ma + 1.0f) * 0.5f : 0.5f, t = ma > 0 ? (tc / ma + 1.0f) * 0.5f : 0.5f;
    if (!d->normalized_coords) {
        s *= (float)d->width;
        t *= (float)d->height;
    }
    c[0] = s;
    c[1] = t;
    c[2] = 0;
    return face;
}

uint32_t exec_tex_query(const lockstep_texture_desc *d, int query)
{
    switch (query) {
    case TXQ_WIDTH: return d->width;
    case TXQ_HEIGHT: return d->height;
    case TXQ_DEPTH: return d->depth;
    case TXQ_NORMALIZED_COORDS: return d->normalized_coords;
    case TXQ_FILTER_MODE: return d->linear_filter;
    case TXQ_ADDR_MODE_0: return d->address[0];
    case TXQ_ADDR_MODE_1: return d->address[1];
    case TXQ_ADDR_MODE_2: return d->address[2];
    case TXQ_ARRAY_SIZE: return d->layers;
    case TXQ_NUM_MIPMAP_LEVELS: return 1;
    case TXQ_NUM_SAMPLES: return 0;
    default: return 0;
    }
}

int exec_surface_addr(const lockstep_texture_desc *d, int64_t xbytes, int64_t y, int64_t z,
                      int64_t layer, uint32_t size, int clamp_mode, uint64_t *addr)
{
    uint64_t row = (uint64_t)d->width * texel_bytes(d);
    uint32_t rows = d->dims >= 2 ? d->height : 1, slices = d->dims >= 3 ? d->depth : 1;
    uint32_t nl = d->layers ? d->layers : 1;
    int out = xbytes < 0 || (uint64_t)xbytes + size > row || y < 0 || y >= rows || z < 0 ||
              z >= slices || layer < 0 || layer >= nl;
    if (out) {
        if (clamp_mode != SURF_CLAMP)
            return clamp_mode == SURF_ZERO ? 1 : -1;
        xbytes = xbytes < 0 ? 0 : (uint64_t)xbytes + size > row ? (int64_t)(row - size) : xbytes;
        y = y < 0 ? 0 : y >= rows ? rows - 1 : y;
        z = z < 0 ? 0 : z >= slices ? slices - 1 : z;
        layer = layer < 0 ? 0 : layer >= nl ? nl - 1 : layer;
    }
    if (xbytes % size)
        return -2; /* misaligned */
    *addr = d->base + (uint64_t)layer * d->layer_stride + (uint64_t)z * d->slice_stride +
            (uint64_t)y * d->pitch + (uint64_t)xbytes;
    return 0;
}
