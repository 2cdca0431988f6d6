/* textures.cu -- texture and surface objects over linear memory, pitched
 * memory and CUDA arrays (1-D, 2-D, 3-D, layered, cube maps), fetched with every
 * address mode, point and linear filtering, normalized coordinates and the
 * normalized-float read mode, gathered, and written and read as surfaces;
 * each result against a CPU implementation of the CUDA programming guide's
 * texture-fetching rules.  Coordinates and texel values are chosen so that
 * every blend is exact in single precision (fractions that are multiples of
 * 1/8, small integer texels), so the results do not depend on how a texture
 * unit rounds. */
#include <math.h>

#include "common.cuh"

static const int W = 16, H = 8, D = 4, LAYERS = 3;

/* ---- the CPU reference -------------------------------------------------------------------- */

static int addr(int mode, int i, int n, bool normalized)
{
    if (!normalized && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror))
        mode = cudaAddressModeClamp;
    switch (mode) {
    case cudaAddressModeWrap: return ((i % n) + n) % n;
    case cudaAddressModeMirror: {
        int p = ((i % (2 * n)) + 2 * n) % (2 * n);
        return p < n ? p : 2 * n - 1 - p;
    }
    case cudaAddressModeBorder: return i < 0 || i >= n ? -1 : i;
    default: return i < 0 ? 0 : i >= n ? n - 1 : i;
    }
}

static float fold(int mode, float u, bool normalized, int n)
{
    if (!normalized)
        return u;
    if (mode == cudaAddressModeWrap)
        u -= floorf(u);
    else if (mode == cudaAddressModeMirror) {
        float f = floorf(u);
        u -= f;
        if (fmodf(f, 2.0f) != 0.0f)
            u = 1.0f - u;
    }
    return u * (float)n;
}

/* f(x, y) of a 2-D image of floats with the given modes (border: 0) */
static float ref2d(const float *img, int w, int h, float x, float y, int mode, bool linear,
                   bool normalized)
{
    float tx = fold(mode, x, normalized, w), ty = fold(mode, y, normalized, h);
    auto at = [&](int i, int j) -> float {
        int a = addr(mode, i, w, normalized), b = addr(mode, j, h, normalized);
        return a < 0 || b < 0 ? 0.0f : img[b * w + a];
    };
    if (!linear)
        return at((int)floorf(tx), (int)floorf(ty));
    float xb = tx - 0.5f, yb = ty - 0.5f;
    int i = (int)floorf(xb), j = (int)floorf(yb);
    float a = xb - floorf(xb), b = yb - floorf(yb);
    return (1 - a) * (1 - b) * at(i, j) + a * (1 - b) * at(i + 1, j) + (1 - a) * b * at(i, j + 1) +
           a * b * at(i + 1, j + 1);
}

/* ---- kernels -------------------------------------------------------------------------------- */

__global__ void fetch1d(cudaTextureObject_t t, int n, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex1Dfetch<float>(t, i - 4); /* 4 before and after the buffer: zeros */
}

__global__ void sample2d(cudaTextureObject_t t, const float2 *at, int n, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2D<float>(t, at[i].x, at[i].y);
}

__global__ void sample2d_uchar4(cudaTextureObject_t t, int w, int h, uchar4 *out)
{
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h)
        out[y * w + x] = tex2D<uchar4>(t, x + 0.5f, y + 0.5f);
}

__global__ void sample2d_norm(cudaTextureObject_t t, int w, int h, float *out)
{
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h)
        out[y * w + x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

__global__ void sample3d(cudaTextureObject_t t, const float4 *at, int n, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex3D<float>(t, at[i].x, at[i].y, at[i].z);
}

__global__ void sample_layered(cudaTextureObject_t t, const float2 *at, int n, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n * LAYERS)
        out[i] = tex2DLayered<float>(t, at[i % n].x, at[i % n].y, i / n);
}

__global__ void gather(cudaTextureObject_t t, const float2 *at, int n, float4 *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = tex2Dgather<float4>(t, at[i].x, at[i].y, 0);
}

/* surfaces: write x * 100 + y + frame, read back the neighbour with .zero */
/* direction (x, y, z) per probe; cubes > 0: texCubemapLayered over the cubes */
__global__ void sample_cube(cudaTextureObject_t t, const float4 *dir, int n, int cubes, float *out)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n * (cubes ? cubes : 1))
        out[i] = cubes ? texCubemapLayered<float>(t, dir[i % n].x, dir[i % n].y, dir[i % n].z, i / n)
                       : texCubemap<float>(t, dir[i % n].x, dir[i % n].y, dir[i % n].z);
}

__global__ void surf_write(cudaSurfaceObject_t s, int w, int h, int frame)
{
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h)
        surf2Dwrite(x * 100 + y + frame, s, x * (int)sizeof(int), y);
}

__global__ void surf_read(cudaSurfaceObject_t s, int w, int h, int *out)
{
    int x = threadIdx.x, y = blockIdx.x;
    if (x < w && y < h) {
        int v = surf2Dread<int>(s, (x + 1) * (int)sizeof(int), y, cudaBoundaryModeZero);
        int c = surf2Dread<int>(s, (x + 1) * (int)sizeof(int), y, cudaBoundaryModeClamp);
        out[y * w + x] = v * 10000 + c;
    }
}

/* ---- tests ------------------------------------------------------------------------------- */

static cudaTextureDesc tdesc(int mode, bool linear, bool normalized, int read = cudaReadModeElementType)
{
    cudaTextureDesc t;
    memset(&t, 0, sizeof t);
    t.addressMode[0] = t.addressMode[1] = t.addressMode[2] = (cudaTextureAddressMode)mode;
    t.filterMode = linear ? cudaFilterModeLinear : cudaFilterModePoint;
    t.readMode = (cudaTextureReadMode)read;
    t.normalizedCoords = normalized;
    return t;
}

static void linear_buffer(void)
{
    const int n = 40;
    float h[n], *d, *out, got[n + 8], want[n + 8];
    for (int i = 0; i < n; i++)
        h[i] = (float)(i * 3 + 1);
    CHECK(cudaMalloc(&d, sizeof h));
    CHECK(cudaMalloc(&out, sizeof got));
    CHECK(cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeLinear;
    r.res.linear.devPtr = d;
    r.res.linear.desc = cudaCreateChannelDesc<float>();
    r.res.linear.sizeInBytes = sizeof h;
    cudaTextureDesc t = tdesc(cudaAddressModeClamp, false, false);
    cudaTextureObject_t tex;
    CHECK(cudaCreateTextureObject(&tex, &r, &t, NULL));
    fetch1d<<<1, n + 8>>>(tex, n + 8, out);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, out, sizeof got, cudaMemcpyDeviceToHost));
    for (int i = 0; i < n + 8; i++)
        want[i] = i - 4 >= 0 && i - 4 < n ? h[i - 4] : 0.0f;
    check_array_exact("tex1Dfetch on linear memory, zeros outside", want, got, n + 8);
    cudaResourceDesc back;
    CHECK(cudaGetTextureObjectResourceDesc(&back, tex));
    check_true("cudaGetTextureObjectResourceDesc", back.res.linear.devPtr == d &&
                                                       back.res.linear.sizeInBytes == sizeof h);
    CHECK(cudaDestroyTextureObject(tex));
    CHECK(cudaFree(d));
    CHECK(cudaFree(out));
}

/* Coordinates on a grid of eighths around and beyond the image. */
static int make_coords(float2 *at, bool normalized)
{
    int n = 0;
    for (int j = -3; j <= H * 8 + 3; j += 5)
        for (int i = -5; i <= W * 8 + 5; i += 3) {
            float x = i / 8.0f, y = j / 8.0f;
            at[n++] = normalized ? make_float2(x / W, y / H) : make_float2(x, y);
        }
    return n;
}

static void image2d(void)
{
    static float img[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            img[y][x] = (float)((x * 7 + y * 3) % 16);
    /* a pitched 2-D allocation and a 2-D array holding the same image */
    float *pd;
    size_t pitch;
    CHECK(cudaMallocPitch(&pd, &pitch, W * sizeof(float), H));
    CHECK(cudaMemcpy2D(pd, pitch, img, W * sizeof(float), W * sizeof(float), H,
                       cudaMemcpyHostToDevice));
    cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
    cudaArray_t arr;
    CHECK(cudaMallocArray(&arr, &cf, W, H));
    CHECK(cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H,
                              cudaMemcpyHostToDevice));
    static float2 at[4000];
    static float got[4000], want[4000];
    float2 *dat;
    float *dout;
    CHECK(cudaMalloc(&dat, sizeof at));
    CHECK(cudaMalloc(&dout, sizeof got));
    static const char *const mode_names[] = {"wrap", "clamp", "mirror", "border"};
    for (int res = 0; res < 2; res++)
        for (int mode = 0; mode < 4; mode++)
            for (int lin = 0; lin < 2; lin++)
                for (int norm = 0; norm < 2; norm++) {
                    if (!norm && (mode == cudaAddressModeWrap || mode == cudaAddressModeMirror))
                        continue; /* those need normalized coordinates */
                    cudaResourceDesc r;
                    memset(&r, 0, sizeof r);
                    if (res == 0) {
                        r.resType = cudaResourceTypePitch2D;
                        r.res.pitch2D.devPtr = pd;
                        r.res.pitch2D.desc = cf;
                        r.res.pitch2D.width = W;
                        r.res.pitch2D.height = H;
                        r.res.pitch2D.pitchInBytes = pitch;
                    } else {
                        r.resType = cudaResourceTypeArray;
                        r.res.array.array = arr;
                    }
                    cudaTextureDesc t = tdesc(mode, lin, norm);
                    cudaTextureObject_t tex;
                    CHECK(cudaCreateTextureObject(&tex, &r, &t, NULL));
                    int n = make_coords(at, norm);
                    CHECK(cudaMemcpy(dat, at, n * sizeof *at, cudaMemcpyHostToDevice));
                    sample2d<<<(n + 127) / 128, 128>>>(tex, dat, n, dout);
                    CHECK_LAUNCH();
                    CHECK(cudaMemcpy(got, dout, n * sizeof *got, cudaMemcpyDeviceToHost));
                    for (int k = 0; k < n; k++)
                        want[k] = ref2d(&img[0][0], W, H, at[k].x, at[k].y, mode, lin, norm);
                    char what[160];
                    snprintf(what, sizeof what, "tex2D on %s memory: %s, %s filtering, %s coordinates",
                             res ? "an array's" : "pitched", mode_names[mode],
                             lin ? "linear" : "point", norm ? "normalized" : "texel");
                    check_array_exact(what, want, got, n);
                    CHECK(cudaDestroyTextureObject(tex));
                }
    /* gather: the red channel of the 2x2 footprint, clamped */
    {
        cudaResourceDesc r;
        memset(&r, 0, sizeof r);
        r.resType = cudaResourceTypeArray;
        r.res.array.array = arr;
        cudaTextureDesc t = tdesc(cudaAddressModeClamp, false, false);
        cudaTextureObject_t tex;
        CHECK(cudaCreateTextureObject(&tex, &r, &t, NULL));
        int n = make_coords(at, false);
        CHECK(cudaMemcpy(dat, at, n * sizeof *at, cudaMemcpyHostToDevice));
        float4 *g4;
        static float4 g[4000];
        CHECK(cudaMalloc(&g4, n * sizeof *g4));
        gather<<<(n + 127) / 128, 128>>>(tex, dat, n, g4);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(g, g4, n * sizeof *g4, cudaMemcpyDeviceToHost));
        int bad = 0;
        for (int k = 0; k < n; k++) {
            int i = (int)floorf(at[k].x - 0.5f), j = (int)floorf(at[k].y - 0.5f);
            auto T = [&](int a, int b) {
                return img[addr(cudaAddressModeClamp, b, H, false)][addr(cudaAddressModeClamp, a, W, false)];
            };
            bad += g[k].x != T(i, j + 1) || g[k].y != T(i + 1, j + 1) || g[k].z != T(i + 1, j) ||
                   g[k].w != T(i, j);
        }
        check_int("tex2Dgather: (i,j+1) (i+1,j+1) (i+1,j) (i,j)", 0, bad);
        CHECK(cudaFree(g4));
        CHECK(cudaDestroyTextureObject(tex));
    }
    CHECK(cudaFree(pd));
    CHECK(cudaFreeArray(arr));
    CHECK(cudaFree(dat));
    CHECK(cudaFree(dout));
}

static void formats(void)
{
    /* uchar4 read as integers, and unsigned char read as normalized floats */
    static uchar4 px[H][W];
    static unsigned char gray[H][W];
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            px[y][x] = make_uchar4(x * 16, y * 30, x + y, 255 - x);
            gray[y][x] = (unsigned char)(x * 17);
        }
    cudaChannelFormatDesc c4 = cudaCreateChannelDesc<uchar4>(), c1 = cudaCreateChannelDesc<unsigned char>();
    cudaArray_t a4, a1;
    CHECK(cudaMallocArray(&a4, &c4, W, H));
    CHECK(cudaMallocArray(&a1, &c1, W, H));
    CHECK(cudaMemcpy2DToArray(a4, 0, 0, px, W * 4, W * 4, H, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy2DToArray(a1, 0, 0, gray, W, W, H, cudaMemcpyHostToDevice));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a4;
    cudaTextureDesc t = tdesc(cudaAddressModeClamp, false, false);
    cudaTextureObject_t t4, t1;
    CHECK(cudaCreateTextureObject(&t4, &r, &t, NULL));
    r.res.array.array = a1;
    cudaTextureDesc tn = tdesc(cudaAddressModeClamp, false, false, cudaReadModeNormalizedFloat);
    CHECK(cudaCreateTextureObject(&t1, &r, &tn, NULL));
    uchar4 *o4;
    float *o1;
    CHECK(cudaMalloc(&o4, sizeof px));
    CHECK(cudaMalloc(&o1, W * H * sizeof(float)));
    sample2d_uchar4<<<H, W>>>(t4, W, H, o4);
    sample2d_norm<<<H, W>>>(t1, W, H, o1);
    CHECK_LAUNCH();
    static uchar4 g4[H][W];
    static float g1[H * W], w1[H * W];
    CHECK(cudaMemcpy(g4, o4, sizeof g4, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(g1, o1, sizeof g1, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            bad += memcmp(&g4[y][x], &px[y][x], 4) != 0;
            w1[y * W + x] = gray[y][x] / 255.0f;
        }
    check_int("tex2D<uchar4>: 8-bit channels read as integers", 0, bad);
    check_array_exact("tex2D<float> of unsigned char, cudaReadModeNormalizedFloat", w1, g1, H * W);
    CHECK(cudaDestroyTextureObject(t4));
    CHECK(cudaDestroyTextureObject(t1));
    CHECK(cudaFreeArray(a4));
    CHECK(cudaFreeArray(a1));
    CHECK(cudaFree(o4));
    CHECK(cudaFree(o1));
}

static void volume_and_layers(void)
{
    /* 3-D: trilinear blend of a volume v(x,y,z) = x + 2y + 4z (exact for any
     * weights that are multiples of 1/8) */
    static float vol[D][H][W];
    for (int z = 0; z < D; z++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                vol[z][y][x] = (float)((x * 5 + y * 3 + z * 7) % 13);
    cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
    cudaArray_t a3;
    CHECK(cudaMalloc3DArray(&a3, &cf, make_cudaExtent(W, H, D)));
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(vol, W * sizeof(float), W, H);
    p.dstArray = a3;
    p.extent = make_cudaExtent(W, H, D);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a3;
    cudaTextureDesc t = tdesc(cudaAddressModeClamp, true, false);
    cudaTextureObject_t tex;
    CHECK(cudaCreateTextureObject(&tex, &r, &t, NULL));
    static float4 at[2000];
    static float got[2000], want[2000];
    int n = 0;
    for (int k = -2; k <= D * 8 + 2; k += 7)
        for (int j = -3; j <= H * 8 + 3; j += 9)
            for (int i = -5; i <= W * 8 + 5; i += 11)
                at[n++] = make_float4(i / 8.0f, j / 8.0f, k / 8.0f, 0);
    for (int q = 0; q < n; q++) {
        float xb = at[q].x - 0.5f, yb = at[q].y - 0.5f, zb = at[q].z - 0.5f;
        int i = (int)floorf(xb), j = (int)floorf(yb), k = (int)floorf(zb);
        float a = xb - floorf(xb), b = yb - floorf(yb), c = zb - floorf(zb);
        float s = 0;
        for (int dz = 0; dz < 2; dz++)
            for (int dy = 0; dy < 2; dy++)
                for (int dx = 0; dx < 2; dx++) {
                    float wgt = (dx ? a : 1 - a) * (dy ? b : 1 - b) * (dz ? c : 1 - c);
                    s += wgt * vol[addr(1, k + dz, D, false)][addr(1, j + dy, H, false)]
                                  [addr(1, i + dx, W, false)];
                }
        want[q] = s;
    }
    float4 *dat;
    float *dout;
    CHECK(cudaMalloc(&dat, n * sizeof *dat));
    CHECK(cudaMalloc(&dout, n * sizeof *dout));
    CHECK(cudaMemcpy(dat, at, n * sizeof *at, cudaMemcpyHostToDevice));
    sample3d<<<(n + 127) / 128, 128>>>(tex, dat, n, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dout, n * sizeof *got, cudaMemcpyDeviceToHost));
    check_array_exact("tex3D: trilinear filtering of a 3-D array", want, got, n);
    CHECK(cudaDestroyTextureObject(tex));
    CHECK(cudaFreeArray(a3));
    CHECK(cudaFree(dat));
    CHECK(cudaFree(dout));

    /* layered 2-D: each layer a different image, point sampled */
    static float lay[LAYERS][H][W];
    for (int l = 0; l < LAYERS; l++)
        for (int y = 0; y < H; y++)
            for (int x = 0; x < W; x++)
                lay[l][y][x] = (float)(l * 1000 + y * 16 + x);
    cudaArray_t al;
    CHECK(cudaMalloc3DArray(&al, &cf, make_cudaExtent(W, H, LAYERS), cudaArrayLayered));
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(lay, W * sizeof(float), W, H);
    p.dstArray = al;
    p.extent = make_cudaExtent(W, H, LAYERS);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    r.res.array.array = al;
    cudaTextureDesc tp = tdesc(cudaAddressModeBorder, false, false);
    CHECK(cudaCreateTextureObject(&tex, &r, &tp, NULL));
    static float2 at2[4000];
    static float lg[12000], lw[12000];
    int m = make_coords(at2, false);
    float2 *d2;
    CHECK(cudaMalloc(&d2, m * sizeof *d2));
    CHECK(cudaMalloc(&dout, m * LAYERS * sizeof *dout));
    CHECK(cudaMemcpy(d2, at2, m * sizeof *at2, cudaMemcpyHostToDevice));
    sample_layered<<<(m * LAYERS + 127) / 128, 128>>>(tex, d2, m, dout);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(lg, dout, m * LAYERS * sizeof *lg, cudaMemcpyDeviceToHost));
    for (int q = 0; q < m * LAYERS; q++)
        lw[q] = ref2d(&lay[q / m][0][0], W, H, at2[q % m].x, at2[q % m].y, cudaAddressModeBorder,
                      false, false);
    check_array_exact("tex2DLayered: each layer its own image, border outside", lw, lg,
                      m * LAYERS);
    cudaExtent ext;
    unsigned flags;
    CHECK(cudaArrayGetInfo(NULL, &ext, &flags, al));
    check_true("cudaArrayGetInfo", ext.width == (size_t)W && ext.height == (size_t)H &&
                                       ext.depth == (size_t)LAYERS && flags == cudaArrayLayered);
    CHECK(cudaDestroyTextureObject(tex));
    CHECK(cudaFreeArray(al));
    CHECK(cudaFree(d2));
    CHECK(cudaFree(dout));
}

/* The face and texel a direction picks, as the CUDA C++ Programming
 * Guide's cubemap table has it (the probes avoid ties and texel edges). */
static int cube_texel(float x, float y, float z, int w, int *tx, int *ty)
{
    float ax = fabsf(x), ay = fabsf(y), az = fabsf(z), sc, tc, ma;
    int face;
    if (ax > ay && ax > az) {
        face = x > 0 ? 0 : 1, ma = ax, sc = x > 0 ? -z : z, tc = -y;
    } else if (ay > az) {
        face = y > 0 ? 2 : 3, ma = ay, sc = x, tc = y > 0 ? z : -z;
    } else {
        face = z > 0 ? 4 : 5, ma = az, sc = z > 0 ? x : -x, tc = -y;
    }
    *tx = (int)floorf((sc / ma + 1) / 2 * w);
    *ty = (int)floorf((tc / ma + 1) / 2 * w);
    return face;
}

/* Cube maps (cudaArrayCubemap, alone and layered): every face of every
 * cube its own values; directions toward each face, point sampled. */
static void cubemaps(void)
{
    const int CW = 8, CUBES = 2, N = 6 * 64;
    static float faces[CUBES * 6][CW][CW];
    for (int f = 0; f < CUBES * 6; f++)
        for (int y = 0; y < CW; y++)
            for (int x = 0; x < CW; x++)
                faces[f][y][x] = (float)(f * 100 + y * CW + x);
    /* directions: for each face, a grid of points strictly inside texels */
    static float4 dir[N];
    int n = 0;
    for (int f = 0; f < 6; f++)
        for (int k = 0; k < 64; k++) {
            float u = ((k % 8) + 0.3f + 0.05f * (k / 8)) / 8 * 2 - 1, v = ((k / 8) + 0.6f) / 8 * 2 - 1;
            float d[6][3] = {{1, -v, -u}, {-1, -v, u}, {u, 1, v}, {u, -1, -v}, {u, -v, 1}, {-u, -v, -1}};
            /* a longer vector: the face divides it out */
            dir[n++] = make_float4(2.5f * d[f][0], 2.5f * d[f][1], 2.5f * d[f][2], 0);
        }
    cudaChannelFormatDesc cf = cudaCreateChannelDesc<float>();
    float4 *ddir;
    float *dout;
    CHECK(cudaMalloc(&ddir, sizeof dir));
    CHECK(cudaMalloc(&dout, CUBES * N * sizeof(float)));
    CHECK(cudaMemcpy(ddir, dir, sizeof dir, cudaMemcpyHostToDevice));
    static float got[CUBES * N], want[CUBES * N];
    for (int layered = 0; layered < 2; layered++) {
        int cubes = layered ? CUBES : 1;
        cudaArray_t a;
        CHECK(cudaMalloc3DArray(&a, &cf, make_cudaExtent(CW, CW, 6 * cubes),
                                cudaArrayCubemap | (layered ? cudaArrayLayered : 0)));
        cudaMemcpy3DParms p;
        memset(&p, 0, sizeof p);
        p.srcPtr = make_cudaPitchedPtr(faces, CW * sizeof(float), CW, CW);
        p.dstArray = a;
        p.extent = make_cudaExtent(CW, CW, 6 * cubes);
        p.kind = cudaMemcpyHostToDevice;
        CHECK(cudaMemcpy3D(&p));
        cudaResourceDesc r;
        memset(&r, 0, sizeof r);
        r.resType = cudaResourceTypeArray;
        r.res.array.array = a;
        cudaTextureDesc td = tdesc(cudaAddressModeClamp, false, true);
        cudaTextureObject_t tex;
        CHECK(cudaCreateTextureObject(&tex, &r, &td, NULL));
        sample_cube<<<(cubes * N + 127) / 128, 128>>>(tex, ddir, N, layered ? cubes : 0, dout);
        CHECK_LAUNCH();
        CHECK(cudaMemcpy(got, dout, cubes * N * sizeof(float), cudaMemcpyDeviceToHost));
        for (int q = 0; q < cubes * N; q++) {
            int tx, ty, f = cube_texel(dir[q % N].x, dir[q % N].y, dir[q % N].z, CW, &tx, &ty);
            want[q] = faces[(q / N) * 6 + f][ty][tx];
        }
        check_array_exact(layered ? "texCubemapLayered: two cubes of six faces"
                                  : "texCubemap: six faces",
                          want, got, cubes * N);
        CHECK(cudaDestroyTextureObject(tex));
        CHECK(cudaFreeArray(a));
    }
    cudaArray_t bad;
    check_err("a cube map that is not square", cudaErrorInvalidValue,
              cudaMalloc3DArray(&bad, &cf, make_cudaExtent(CW, CW + 1, 6), cudaArrayCubemap));
    cudaGetLastError();
    int cmw = 0;
    CHECK(cudaDeviceGetAttribute(&cmw, cudaDevAttrMaxTextureCubemapWidth, 0));
    check_true("cudaDevAttrMaxTextureCubemapWidth", cmw > 0);
    CHECK(cudaFree(ddir));
    CHECK(cudaFree(dout));
}

static void surfaces(void)
{
    cudaChannelFormatDesc ci = cudaCreateChannelDesc<int>();
    cudaArray_t a;
    CHECK(cudaMallocArray(&a, &ci, W, H, cudaArraySurfaceLoadStore));
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaSurfaceObject_t s;
    CHECK(cudaCreateSurfaceObject(&s, &r));
    surf_write<<<H, W>>>(s, W, H, 7);
    CHECK_LAUNCH();
    static int back[H][W], want[H][W];
    CHECK(cudaMemcpy2DFromArray(back, W * sizeof(int), a, 0, 0, W * sizeof(int), H,
                                cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++)
            want[y][x] = x * 100 + y + 7;
    check_array_exact("surf2Dwrite, read back from the array", &want[0][0], &back[0][0], W * H);
    int *out;
    CHECK(cudaMalloc(&out, sizeof back));
    surf_read<<<H, W>>>(s, W, H, out);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(back, out, sizeof back, cudaMemcpyDeviceToHost));
    for (int y = 0; y < H; y++)
        for (int x = 0; x < W; x++) {
            int zero = x + 1 < W ? want[y][x + 1] : 0;
            int clamp = want[y][x + 1 < W ? x + 1 : W - 1];
            want[y][x] = zero * 10000 + clamp;
        }
    check_array_exact("surf2Dread with cudaBoundaryModeZero and cudaBoundaryModeClamp",
                      &want[0][0], &back[0][0], W * H);
    CHECK(cudaDestroySurfaceObject(s));
    CHECK(cudaFreeArray(a));
    CHECK(cudaFree(out));
}

int main(void)
{
    linear_buffer();
    image2d();
    formats();
    volume_and_layers();
    cubemaps();
    surfaces();
    return finish();
}
