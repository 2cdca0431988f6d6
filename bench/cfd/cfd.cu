// cfd.cu -- explicit finite-volume solver for the 2-D compressible Euler
// equations on an unstructured triangle mesh (GPUDet's CFD).
//
// Mesh (seeded).  A periodic channel, x in [0, 2) wrapping around, between
// slip walls at y = 0 and y = 1.  The nodes of a W x (H + 1) lattice are
// jittered (wall nodes only along the wall), each quad is cut into two
// triangles along a randomly chosen diagonal, the triangles are numbered in
// a random order and each one's faces start at a random corner.  Cell c's
// face f (f = 0, 1, 2) has a neighbour nbr[f n + c], an outward unit normal
// and a length (the two sides of a face store exactly opposite normals).
// A wall face is encoded as the cell being its own neighbour.
//
// Scheme.  The state of a cell is U = (rho, rho u, rho v, E), kept as a
// float4; p = (GAMMA - 1) (E - rho |u|^2 / 2).  A cell changes by
//     dU/dt = -(1 / area) sum_faces len F_hll(U_cell, U_nb, normal),
// with the HLL flux and Davis' wave-speed bounds
//     sl = min(un_l - a_l, un_r - a_r),  sr = max(un_l + a_l, un_r + a_r),
//     F = (sr+ F_l - sl- F_r + sl- sr+ (U_r - U_l)) / (sr+ - sl-),
//     sl- = min(sl, 0), sr+ = max(sr, 0)
// (which is F_l when sl >= 0 and F_r when sr <= 0).  A wall's neighbour
// state is the cell's own state with the normal velocity reversed, so no
// mass or energy crosses a wall.  Time: the three-stage strong-stability-
// preserving Runge-Kutta scheme of Shu and Osher, with one global step dt set
// by the host from the initial state: 0.8 of the first-order scheme's limit
// min(area / (perimeter x fastest wave speed)), with the wave speed taken
// 25% above its initial maximum.
//
// Kernels.  Per stage: euler_primitives turns each U into (rho, u, v, p);
// euler_stage gathers each of the three neighbours' U and primitives (two
// irregular float4 loads: the primitives save recomputing divisions, and
// taking U itself rather than rebuilding it keeps the two sides of a face
// working on the same numbers, so no bias creeps into the conserved totals),
// evaluates the fluxes and writes U0 + b (U_s + dt L(U_s) - U0), b = 1, 1/4,
// 2/3, into a third buffer (U1, U2, then over U0).  Six short launches per
// step, no barriers, no atomics.
//
// Checks: every cell against an independent CPU solver (double precision,
// a loop over faces, the HLL flux in its three-case form); conservation of
// mass, x momentum and energy (walls are horizontal and the channel is
// periodic, so these totals are invariants of the exact scheme); density
// and pressure positive.
#include "bench.h"
#include <algorithm>
#include <map>
#include <vector>

#define GAMMA 1.4f
#define THREADS 128
#define LX 2.0
#define LY 1.0

__global__ void euler_primitives(const float4 *__restrict__ u, float4 *__restrict__ w, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 c = u[i];
    float vx = c.y / c.x, vy = c.z / c.x;
    w[i] = make_float4(c.x, vx, vy, (GAMMA - 1.0f) * (c.w - 0.5f * (c.y * vx + c.z * vy)));
}

// The HLL flux through a face of unit normal (nx, ny), from the left state
// (conservative u, primitive w, sound speed a) to the right one.
__device__ static inline float4 hll(float4 ul, float4 wl, float al, float4 ur, float4 wr, float ar,
                                    float nx, float ny)
{
    float unl = wl.y * nx + wl.z * ny, unr = wr.y * nx + wr.z * ny;
    float sl = fminf(fminf(unl - al, unr - ar), 0.0f);
    float sr = fmaxf(fmaxf(unl + al, unr + ar), 0.0f);
    float4 fl = make_float4(ul.x * unl, ul.y * unl + wl.w * nx, ul.z * unl + wl.w * ny,
                            (ul.w + wl.w) * unl);
    float4 fr = make_float4(ur.x * unr, ur.y * unr + wr.w * nx, ur.z * unr + wr.w * ny,
                            (ur.w + wr.w) * unr);
    float ss = sl * sr, inv = 1.0f / (sr - sl);
    return make_float4((sr * fl.x - sl * fr.x + ss * (ur.x - ul.x)) * inv,
                       (sr * fl.y - sl * fr.y + ss * (ur.y - ul.y)) * inv,
                       (sr * fl.z - sl * fr.z + ss * (ur.z - ul.z)) * inv,
                       (sr * fl.w - sl * fr.w + ss * (ur.w - ul.w)) * inv);
}

// One Runge-Kutta stage: out = u0 + blend * (us + dt L(us) - u0).  The last
// stage writes over u0 (each thread reads its own cell of u0 before writing
// it, and gathers neighbours only from us and w), so u0 and out are not
// __restrict__; us is never written during the stage.
__global__ void euler_stage(const float4 *u0, const float4 *__restrict__ us, const float4 *__restrict__ w,
                            const int *__restrict__ nbr, const float2 *__restrict__ nrm,
                            const float *__restrict__ len, const float *__restrict__ inv_area,
                            float4 *out, int n, float dt, float blend)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n)
        return;
    float4 ul = us[i], wl = w[i];
    float al = sqrtf(GAMMA * wl.w / wl.x);
    float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
    for (int f = 0; f < 3; f++) {
        int j = nbr[f * n + i];
        float2 nv = nrm[f * n + i];
        float4 ur, wr;
        float ar = al;
        if (j == i) {   // wall: the mirror state, normal velocity reversed
            float un = wl.y * nv.x + wl.z * nv.y;
            wr = make_float4(wl.x, wl.y - 2.0f * un * nv.x, wl.z - 2.0f * un * nv.y, wl.w);
            ur = make_float4(ul.x, wr.x * wr.y, wr.x * wr.z, ul.w);
        } else {        // gather the neighbour's state
            ur = us[j];
            wr = w[j];
            ar = sqrtf(GAMMA * wr.w / wr.x);
        }
        float4 fx = hll(ul, wl, al, ur, wr, ar, nv.x, nv.y);
        float l = len[f * n + i];
        sum.x += l * fx.x;
        sum.y += l * fx.y;
        sum.z += l * fx.z;
        sum.w += l * fx.w;
    }
    float k = dt * inv_area[i];
    float4 b = u0[i];
    out[i] = make_float4(b.x + blend * (ul.x - k * sum.x - b.x), b.y + blend * (ul.y - k * sum.y - b.y),
                         b.z + blend * (ul.z - k * sum.z - b.z), b.w + blend * (ul.w - k * sum.w - b.w));
}

struct mesh {
    int n;
    std::vector<int> nbr;          // [f * n + c]
    std::vector<float2> nrm;       // outward unit normals
    std::vector<float> len, inv_area;
    std::vector<double> cx, cy;    // centroids (for the initial state)
};

// Builds the seeded periodic channel mesh of 2 w h triangles.
static mesh make_mesh(int w, int h, bench_rng &rng)
{
    double dx = LX / w, dy = LY / h;
    std::vector<double> px((size_t)w * (h + 1)), py(px.size());
    for (int j = 0; j <= h; j++)
        for (int i = 0; i < w; i++) {
            px[(size_t)j * w + i] = (i + 0.4 * (rng.unitd() - 0.5)) * dx;
            py[(size_t)j * w + i] = (j == 0 || j == h) ? j * dy : (j + 0.4 * (rng.unitd() - 0.5)) * dy;
        }
    mesh m;
    m.n = 2 * w * h;
    int n = m.n;
    std::vector<int> order(n);
    for (int c = 0; c < n; c++)
        order[c] = c;
    for (int c = n - 1; c > 0; c--)
        std::swap(order[c], order[rng.below(c + 1)]);
    m.nbr.assign((size_t)3 * n, -1);
    m.nrm.resize((size_t)3 * n);
    m.len.resize((size_t)3 * n);
    m.inv_area.resize(n);
    m.cx.resize(n);
    m.cy.resize(n);
    std::map<std::pair<int, int>, std::pair<int, int>> seen;   // edge -> (cell, face)
    int t = 0;
    for (int j = 0; j < h; j++)
        for (int i = 0; i < w; i++) {
            // Corners (node id, x unwrapped across the periodic seam, y).
            int id[4] = {j * w + i, j * w + (i + 1) % w, (j + 1) * w + (i + 1) % w, (j + 1) * w + i};
            double x[4], y[4];
            for (int k = 0; k < 4; k++) {
                x[k] = px[id[k]] + ((k == 1 || k == 2) && i + 1 == w ? LX : 0.0);
                y[k] = py[id[k]];
            }
            static const int cut[2][2][3] = {{{0, 1, 2}, {0, 2, 3}}, {{0, 1, 3}, {1, 2, 3}}};
            int d = rng.below(2);
            for (int half = 0; half < 2; half++, t++) {
                int c = order[t], rot = rng.below(3);
                int v[3];
                for (int k = 0; k < 3; k++)
                    v[k] = cut[d][half][(k + rot) % 3];
                double area2 = (x[v[1]] - x[v[0]]) * (y[v[2]] - y[v[0]]) -
                               (x[v[2]] - x[v[0]]) * (y[v[1]] - y[v[0]]);
                if (!(area2 > 0.1 * dx * dy)) {
                    fprintf(stderr, "cfd: degenerate triangle\n");
                    exit(2);
                }
                m.inv_area[c] = (float)(2.0 / area2);
                m.cx[c] = (x[v[0]] + x[v[1]] + x[v[2]]) / 3.0;
                m.cy[c] = (y[v[0]] + y[v[1]] + y[v[2]]) / 3.0;
                for (int f = 0; f < 3; f++) {
                    int a = v[f], b = v[(f + 1) % 3];
                    double ex = x[b] - x[a], ey = y[b] - y[a], l = std::sqrt(ex * ex + ey * ey);
                    size_t s = (size_t)f * n + c;
                    std::pair<int, int> key(std::min(id[a], id[b]), std::max(id[a], id[b]));
                    auto it = seen.find(key);
                    if (it == seen.end()) {
                        seen[key] = std::make_pair(c, f);
                        m.nbr[s] = c;   // a wall until the other side turns up
                        m.nrm[s] = make_float2((float)(ey / l), (float)(-ex / l));
                        m.len[s] = (float)l;
                    } else {
                        int oc = it->second.first, of = it->second.second;
                        size_t o = (size_t)of * n + oc;
                        m.nbr[s] = oc;
                        m.nbr[o] = c;
                        m.nrm[s] = make_float2(-m.nrm[o].x, -m.nrm[o].y);
                        m.len[s] = m.len[o];
                        seen.erase(it);
                    }
                }
            }
        }
    return m;   // the edges left in `seen` lie on the walls
}

// ---- CPU reference (double; written independently of the kernels) ----
struct cons {
    double r, mx, my, e;
};

static double cpu_pressure(const cons &q)
{
    return 0.4 * (q.e - 0.5 * (q.mx * q.mx + q.my * q.my) / q.r);
}

// Physical flux of q through a unit normal.
static cons cpu_flux(const cons &q, double nx, double ny)
{
    double p = cpu_pressure(q), un = (q.mx * nx + q.my * ny) / q.r;
    return {q.r * un, q.mx * un + p * nx, q.my * un + p * ny, (q.e + p) * un};
}

static cons cpu_hll(const cons &l, const cons &r, double nx, double ny)
{
    double unl = (l.mx * nx + l.my * ny) / l.r, unr = (r.mx * nx + r.my * ny) / r.r;
    double cl = std::sqrt(1.4 * cpu_pressure(l) / l.r), cr = std::sqrt(1.4 * cpu_pressure(r) / r.r);
    double sl = std::min(unl - cl, unr - cr), sr = std::max(unl + cl, unr + cr);
    cons fl = cpu_flux(l, nx, ny), fr = cpu_flux(r, nx, ny);
    if (sl >= 0.0)
        return fl;
    if (sr <= 0.0)
        return fr;
    double k = 1.0 / (sr - sl);
    return {(sr * fl.r - sl * fr.r + sl * sr * (r.r - l.r)) * k,
            (sr * fl.mx - sl * fr.mx + sl * sr * (r.mx - l.mx)) * k,
            (sr * fl.my - sl * fr.my + sl * sr * (r.my - l.my)) * k,
            (sr * fl.e - sl * fr.e + sl * sr * (r.e - l.e)) * k};
}

struct cpu_face {
    int a, b;   // b < 0: wall of cell a
    double nx, ny, len;
};

// dq/dt of every cell, accumulated face by face.
static void cpu_rate(const std::vector<cons> &q, const std::vector<cpu_face> &faces,
                     const std::vector<double> &area, std::vector<cons> &rate)
{
    for (auto &x : rate)
        x = {0, 0, 0, 0};
    for (const cpu_face &f : faces) {
        const cons &l = q[f.a];
        cons r;
        if (f.b < 0) {
            double un = (l.mx * f.nx + l.my * f.ny) / l.r;   // reflect the normal velocity
            r = {l.r, l.mx - 2.0 * l.r * un * f.nx, l.my - 2.0 * l.r * un * f.ny, l.e};
        } else {
            r = q[f.b];
        }
        cons fl = cpu_hll(l, r, f.nx, f.ny);
        rate[f.a].r -= f.len * fl.r / area[f.a];
        rate[f.a].mx -= f.len * fl.mx / area[f.a];
        rate[f.a].my -= f.len * fl.my / area[f.a];
        rate[f.a].e -= f.len * fl.e / area[f.a];
        if (f.b >= 0) {
            rate[f.b].r += f.len * fl.r / area[f.b];
            rate[f.b].mx += f.len * fl.mx / area[f.b];
            rate[f.b].my += f.len * fl.my / area[f.b];
            rate[f.b].e += f.len * fl.e / area[f.b];
        }
    }
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int w = bench_pick(args, 64, 128, 512), h = w / 2;
    int steps = bench_pick(args, 12, 24, 24);

    bench_rng rng(args.seed);
    mesh m = make_mesh(w, h, rng);
    int n = m.n;

    // Initial state: a Mach 0.6 stream along the channel (rho 1, p 1/GAMMA,
    // so the sound speed is 1), three isentropic pressure pulses of +-20..40%
    // and a gentle cross-flow that vanishes at the walls.
    double bx[3], by[3], amp[3];
    for (int k = 0; k < 3; k++) {
        bx[k] = LX * rng.unitd();
        by[k] = LY * (0.2 + 0.6 * rng.unitd());
        amp[k] = (rng.below(2) ? 1.0 : -1.0) * (0.2 + 0.2 * rng.unitd());
    }
    std::vector<float4> u(n);
    for (int c = 0; c < n; c++) {
        double s = 1.0;
        for (int k = 0; k < 3; k++) {
            double ddx = std::fabs(m.cx[c] - bx[k]);
            ddx = std::min(ddx, LX - ddx);   // periodic distance
            double ddy = m.cy[c] - by[k];
            s += amp[k] * std::exp(-(ddx * ddx + ddy * ddy) / (0.12 * 0.12));
        }
        s = std::max(s, 0.3);
        double p = s / 1.4, rho = std::pow(s, 1.0 / 1.4);
        double vx = 0.6, vy = 0.05 * std::sin(2.0 * M_PI * m.cx[c] / LX) * std::sin(M_PI * m.cy[c] / LY);
        u[c] = make_float4((float)rho, (float)(rho * vx), (float)(rho * vy),
                           (float)(p / 0.4 + 0.5 * rho * (vx * vx + vy * vy)));
    }
    // The time step: CFL 0.8 of area / (perimeter * fastest wave), the wave
    // speed taken 25% above its initial maximum.
    double wave = 0, geo = 1e30;
    for (int c = 0; c < n; c++) {
        double r = u[c].x, vx = u[c].y / r, vy = u[c].z / r;
        double p = 0.4 * (u[c].w - 0.5 * r * (vx * vx + vy * vy));
        wave = std::max(wave, std::sqrt(vx * vx + vy * vy) + std::sqrt(1.4 * p / r));
        double per = m.len[c] + m.len[(size_t)n + c] + m.len[(size_t)2 * n + c];
        geo = std::min(geo, 1.0 / (m.inv_area[c] * per));
    }
    float dt = (float)(0.8 * geo / (1.25 * wave));

    float4 *d_u0, *d_u1, *d_u2, *d_w;
    int *d_nbr;
    float2 *d_nrm;
    float *d_len, *d_ia;
    CUDA_CHECK(cudaMalloc(&d_u0, n * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_u1, n * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_u2, n * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_w, n * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_nbr, 3 * n * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_nrm, 3 * n * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&d_len, 3 * n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_ia, n * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_u0, u.data(), n * sizeof(float4), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_nbr, m.nbr.data(), 3 * n * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_nrm, m.nrm.data(), 3 * n * sizeof(float2), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_len, m.len.data(), 3 * n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ia, m.inv_area.data(), n * sizeof(float), cudaMemcpyHostToDevice));
    int blocks = (n + THREADS - 1) / THREADS, launches = 0;
    const float blend[3] = {1.0f, 0.25f, 2.0f / 3.0f};
    for (int it = 0; it < steps; it++)
        for (int st = 0; st < 3; st++) {
            float4 *src = st == 0 ? d_u0 : st == 1 ? d_u1 : d_u2;   // U0, U1, U2
            float4 *dst = st == 0 ? d_u1 : st == 1 ? d_u2 : d_u0;   // U1, U2, new U0
            euler_primitives<<<blocks, THREADS>>>(src, d_w, n);
            CUDA_CHECK(cudaGetLastError());
            euler_stage<<<blocks, THREADS>>>(d_u0, src, d_w, d_nbr, d_nrm, d_len, d_ia, dst, n, dt,
                                             blend[st]);
            CUDA_CHECK(cudaGetLastError());
            launches += 2;
        }
    std::vector<float4> out(n);
    CUDA_CHECK(cudaMemcpy(out.data(), d_u0, n * sizeof(float4), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_u0));
    CUDA_CHECK(cudaFree(d_u1));
    CUDA_CHECK(cudaFree(d_u2));
    CUDA_CHECK(cudaFree(d_w));
    CUDA_CHECK(cudaFree(d_nbr));
    CUDA_CHECK(cudaFree(d_nrm));
    CUDA_CHECK(cudaFree(d_len));
    CUDA_CHECK(cudaFree(d_ia));
    printf("cfd: %d triangles (%d x %d quads, shuffled), %d steps x 3 stages of dt %.3g, %d launches\n",
           n, w, h, steps, dt, launches);

    // CPU reference: the faces once each, then the three stages in double.
    std::vector<cpu_face> faces;
    std::vector<double> area(n);
    for (int c = 0; c < n; c++) {
        area[c] = 1.0 / (double)m.inv_area[c];
        for (int f = 0; f < 3; f++) {
            size_t s = (size_t)f * n + c;
            int o = m.nbr[s];
            if (o == c)
                faces.push_back({c, -1, m.nrm[s].x, m.nrm[s].y, m.len[s]});
            else if (c < o)
                faces.push_back({c, o, m.nrm[s].x, m.nrm[s].y, m.len[s]});
        }
    }
    std::vector<cons> q0(n), q1(n), q2(n), rate(n);
    for (int c = 0; c < n; c++)
        q0[c] = {u[c].x, u[c].y, u[c].z, u[c].w};
    const double h_dt = dt;
    for (int it = 0; it < steps; it++) {
        cpu_rate(q0, faces, area, rate);
        for (int c = 0; c < n; c++)
            q1[c] = {q0[c].r + h_dt * rate[c].r, q0[c].mx + h_dt * rate[c].mx,
                     q0[c].my + h_dt * rate[c].my, q0[c].e + h_dt * rate[c].e};
        cpu_rate(q1, faces, area, rate);
        for (int c = 0; c < n; c++)
            q2[c] = {0.75 * q0[c].r + 0.25 * (q1[c].r + h_dt * rate[c].r),
                     0.75 * q0[c].mx + 0.25 * (q1[c].mx + h_dt * rate[c].mx),
                     0.75 * q0[c].my + 0.25 * (q1[c].my + h_dt * rate[c].my),
                     0.75 * q0[c].e + 0.25 * (q1[c].e + h_dt * rate[c].e)};
        cpu_rate(q2, faces, area, rate);
        for (int c = 0; c < n; c++)
            q0[c] = {q0[c].r / 3.0 + 2.0 / 3.0 * (q2[c].r + h_dt * rate[c].r),
                     q0[c].mx / 3.0 + 2.0 / 3.0 * (q2[c].mx + h_dt * rate[c].mx),
                     q0[c].my / 3.0 + 2.0 / 3.0 * (q2[c].my + h_dt * rate[c].my),
                     q0[c].e / 3.0 + 2.0 / 3.0 * (q2[c].e + h_dt * rate[c].e)};
    }

    // Check 1: every variable of every cell against the CPU, relative to
    // that variable's largest initial magnitude (both momenta: that of the
    // momentum vector).
    double scale[4] = {0, 0, 0, 0};
    for (int c = 0; c < n; c++) {
        scale[0] = std::max(scale[0], (double)std::fabs(u[c].x));
        scale[1] = std::max(scale[1], std::sqrt((double)u[c].y * u[c].y + (double)u[c].z * u[c].z));
        scale[2] = scale[1];
        scale[3] = std::max(scale[3], (double)std::fabs(u[c].w));
    }
    double maxerr = 0, moved = 0;
    bool pass = true, positive = true;
    double tot0[4] = {0, 0, 0, 0}, tot1[4] = {0, 0, 0, 0};
    for (int c = 0; c < n; c++) {
        const float *g = &out[c].x, *g0 = &u[c].x;
        const double want[4] = {q0[c].r, q0[c].mx, q0[c].my, q0[c].e};
        for (int v = 0; v < 4; v++) {
            double e = std::fabs(g[v] - want[v]) / scale[v];
            maxerr = std::max(maxerr, e);
            moved = std::max(moved, std::fabs((double)g[v] - g0[v]) / scale[v]);
            if (!(e <= 1e-5))
                pass = false;
            tot0[v] += area[c] * g0[v];
            tot1[v] += area[c] * g[v];
        }
        double r = out[c].x, p = 0.4 * (out[c].w - 0.5 * (out[c].y * out[c].y + out[c].z * out[c].z) / r);
        if (!(r > 0 && p > 0))
            positive = false;
    }
    // Check 2: the totals of mass, x momentum and energy (sum of area * U)
    // may move only by rounding: unbiased errors of about an ulp of a cell's
    // area * U per stage, independent from cell to cell, which add up like a
    // random walk; tolerance six times its spread,
    // 6 sqrt(cells * stages) * 2^-22 * max(area |U|).  (y momentum is not
    // conserved: the walls push on it.)
    double cons_tol[4], big[4] = {0, 0, 0, 0};
    for (int c = 0; c < n; c++)
        for (int v = 0; v < 4; v++)
            big[v] = std::max(big[v], area[c] * std::max(std::fabs((&u[c].x)[v]), std::fabs((&out[c].x)[v])));
    bool conserved = true;
    for (int v = 0; v < 4; v++) {
        cons_tol[v] = 6.0 * std::sqrt(3.0 * n * steps) * std::ldexp(1.0, -22) * big[v];
        if (v != 2 && !(std::fabs(tot1[v] - tot0[v]) <= cons_tol[v]))
            conserved = false;
    }
    printf("max |gpu - cpu| / scale = %.3g (tolerance 1e-5; the state moved by up to %.3g)\n",
           maxerr, moved);
    printf("totals moved: mass %.3g, x momentum %.3g, energy %.3g (tolerances %.3g, %.3g, %.3g)%s\n",
           tot1[0] - tot0[0], tot1[1] - tot0[1], tot1[3] - tot0[3], cons_tol[0], cons_tol[1],
           cons_tol[3], positive ? "" : "; density or pressure NOT POSITIVE");
    pass = pass && conserved;
    pass = pass && positive;
    return bench_result(pass, bench_hash(out.data(), n * sizeof(float4)));
}
