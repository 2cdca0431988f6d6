/* graph_conditional.cu -- CUDA graph conditional nodes (CUDA 12.3+): a
 * WHILE loop that runs Collatz steps on a vector until every element is 1,
 * its graph built by stream capture with the conditional node added to
 * the capture's graph and its body captured into the body graph
 * (cudaStreamBeginCaptureToGraph); an IF/else and a SWITCH whose value the
 * device computes from the data (cudaGraphSetConditional), built node by
 * node with cudaGraphAddNode; a SWITCH nested in a WHILE body; handle
 * defaults (cudaGraphCondAssignDefault); and the documented errors.
 * Every result against a CPU reference. */
#include "common.cuh"

static const int N = 300;
static const int B = 128;
static const int G = (N + B - 1) / B;

/* One Collatz step on every element still above 1; *more counts those
 * still above 1 afterwards, steps[i] the steps element i took. */
__global__ void collatz_step(unsigned *x, unsigned *steps, unsigned *more, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || x[i] <= 1)
        return;
    x[i] = x[i] & 1 ? 3 * x[i] + 1 : x[i] / 2;
    steps[i]++;
    if (x[i] > 1)
        atomicAdd(more, 1u);
}

/* The loop goes on while an element is above 1; the count starts again. */
__global__ void loop_test(unsigned *more, unsigned *rounds, cudaGraphConditionalHandle h)
{
    cudaGraphSetConditional(h, *more != 0);
    *more = 0;
    (*rounds)++;
}

/* sum of x (one block's worth of atomics) */
__global__ void sum(const unsigned *x, unsigned *s, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        atomicAdd(s, x[i]);
}

/* IF: the sum is odd; SWITCH: the sum mod 5 (4 bodies: 4 runs none) */
__global__ void decide(const unsigned *s, cudaGraphConditionalHandle hif,
                       cudaGraphConditionalHandle hsw)
{
    cudaGraphSetConditional(hif, *s & 1);
    cudaGraphSetConditional(hsw, *s % 5);
}

__global__ void affine(unsigned *x, int n, unsigned a, unsigned b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        x[i] = a * x[i] + b;
}

/* a SWITCH in a WHILE body: round r picks body r % 3, the loop runs `limit` rounds */
__global__ void pick(unsigned *round, unsigned limit, cudaGraphConditionalHandle hw,
                     cudaGraphConditionalHandle hs)
{
    unsigned r = (*round)++;
    cudaGraphSetConditional(hs, r % 3);
    cudaGraphSetConditional(hw, r + 1 < limit);
}

static cudaGraphNode_t add_kernel(cudaGraph_t g, const cudaGraphNode_t *dep, size_t ndep,
                                  void *func, dim3 grid, dim3 block, void **args)
{
    cudaGraphNodeParams p = {cudaGraphNodeTypeKernel};
    p.kernel.func = func;
    p.kernel.gridDim = grid;
    p.kernel.blockDim = block;
    p.kernel.kernelParams = args;
    cudaGraphNode_t n;
    CHECK(cudaGraphAddNode(&n, g, dep, NULL, ndep, &p));
    return n;
}

static cudaGraphNode_t add_cond(cudaGraph_t g, const cudaGraphNode_t *dep, size_t ndep,
                                cudaGraphConditionalHandle h, cudaGraphConditionalNodeType type,
                                unsigned size, cudaGraph_t *bodies)
{
    cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
    p.conditional.handle = h;
    p.conditional.type = type;
    p.conditional.size = size;
    cudaGraphNode_t n;
    CHECK(cudaGraphAddNode(&n, g, dep, NULL, ndep, &p));
    for (unsigned i = 0; i < size; i++)
        bodies[i] = p.conditional.phGraph_out[i];
    return n;
}

/* WHILE, by stream capture: collatz_step + loop_test until every element is 1. */
static void captured_collatz(void)
{
    unsigned *x, *steps, *more, *rounds;
    CHECK(cudaMalloc(&x, N * sizeof *x));
    CHECK(cudaMalloc(&steps, N * sizeof *steps));
    CHECK(cudaMalloc(&more, sizeof *more));
    CHECK(cudaMalloc(&rounds, sizeof *rounds));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

    cudaGraph_t g, body;
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal));
    CHECK(cudaMemsetAsync(steps, 0, N * sizeof *steps, s));
    CHECK(cudaMemsetAsync(more, 0, sizeof *more, s));
    CHECK(cudaMemsetAsync(rounds, 0, sizeof *rounds, s));
    cudaStreamCaptureStatus status;
    const cudaGraphNode_t *deps;
    size_t ndeps;
    CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, &g, &deps, NULL, &ndeps));
    check_int("capture: active", cudaStreamCaptureStatusActive, status);
    cudaGraphConditionalHandle h;
    /* the loop is entered every launch: default 1 */
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault));
    cudaGraphNode_t loop = add_cond(g, deps, ndeps, h, cudaGraphCondTypeWhile, 1, &body);
    CHECK(cudaStreamUpdateCaptureDependencies(s, &loop, NULL, 1,
                                              cudaStreamSetCaptureDependencies));
    cudaGraph_t got;
    CHECK(cudaStreamEndCapture(s, &got));
    check_true("capture: the graph the loop was added to", got == g);

    CHECK(cudaStreamBeginCaptureToGraph(s, body, NULL, NULL, 0, cudaStreamCaptureModeGlobal));
    collatz_step<<<G, B, 0, s>>>(x, steps, more, N);
    CHECK_LAUNCH();
    loop_test<<<1, 1, 0, s>>>(more, rounds, h);
    CHECK_LAUNCH();
    CHECK(cudaStreamEndCapture(s, NULL));
    size_t nbody = 0;
    CHECK(cudaGraphGetNodes(body, NULL, &nbody));
    check_int("capture into the body: two kernel nodes", 2, (long long)nbody);

    cudaGraphExec_t xg;
    CHECK(cudaGraphInstantiate(&xg, g, 0));
    unsigned in[N], out[N], st[N], ref_steps[N];
    for (int round = 0; round < 2; round++) {
        unsigned maxsteps = 0;
        for (int i = 0; i < N; i++) {
            in[i] = round == 0 ? (unsigned)i + 1 : (unsigned)(i * 37 % 97) + 1;
            unsigned v = in[i], k = 0;
            while (v > 1) {
                v = v & 1 ? 3 * v + 1 : v / 2;
                k++;
            }
            ref_steps[i] = k;
            if (k > maxsteps)
                maxsteps = k;
        }
        CHECK(cudaMemcpy(x, in, sizeof in, cudaMemcpyHostToDevice));
        CHECK(cudaGraphLaunch(xg, s));
        CHECK(cudaStreamSynchronize(s));
        CHECK(cudaMemcpy(out, x, sizeof out, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(st, steps, sizeof st, cudaMemcpyDeviceToHost));
        unsigned ones[N], r = 0;
        for (int i = 0; i < N; i++)
            ones[i] = 1;
        CHECK(cudaMemcpy(&r, rounds, sizeof r, cudaMemcpyDeviceToHost));
        char what[80];
        snprintf(what, sizeof what, "collatz %d: every element reaches 1", round + 1);
        check_array_exact(what, ones, out, N);
        snprintf(what, sizeof what, "collatz %d: steps per element", round + 1);
        check_array_exact(what, ref_steps, st, N);
        snprintf(what, sizeof what, "collatz %d: loop rounds", round + 1);
        check_int(what, maxsteps, r);
    }
    CHECK(cudaGraphExecDestroy(xg));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(x));
    CHECK(cudaFree(steps));
    CHECK(cudaFree(more));
    CHECK(cudaFree(rounds));
}

/* IF/else and SWITCH, node by node, on a value the device computes. */
static void data_dependent(void)
{
    unsigned *x, *s;
    CHECK(cudaMalloc(&x, N * sizeof *x));
    CHECK(cudaMalloc(&s, sizeof *s));
    cudaGraph_t g, ifb[2], swb[4];
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle hif, hsw;
    CHECK(cudaGraphConditionalHandleCreate(&hif, g, 0, 0));
    CHECK(cudaGraphConditionalHandleCreate(&hsw, g, 0, 0));
    cudaGraphNodeParams mp = {cudaGraphNodeTypeMemset};
    mp.memset.dst = s;
    mp.memset.value = 0;
    mp.memset.elementSize = 4;
    mp.memset.width = 1;
    mp.memset.height = 1;
    cudaGraphNode_t zero, sn, dn;
    CHECK(cudaGraphAddNode(&zero, g, NULL, NULL, 0, &mp));
    int n = N - 1; /* an odd count: adding 7 everywhere changes the sum's parity */
    void *sargs[] = {&x, &s, &n}, *dargs[] = {&s, &hif, &hsw};
    sn = add_kernel(g, &zero, 1, (void *)sum, dim3(G), dim3(B), sargs);
    dn = add_kernel(g, &sn, 1, (void *)decide, dim3(1), dim3(1), dargs);
    cudaGraphNode_t ifn = add_cond(g, &dn, 1, hif, cudaGraphCondTypeIf, 2, ifb);
    add_cond(g, &ifn, 1, hsw, cudaGraphCondTypeSwitch, 4, swb);
    /* odd: x = 3x + 1; even: x = x + 7; switch k: x = x + 100 k (k = 0..3) */
    unsigned a3 = 3, b1 = 1, a1 = 1, b7 = 7, bk[4] = {0, 100, 200, 300};
    void *odd[] = {&x, &n, &a3, &b1}, *even[] = {&x, &n, &a1, &b7};
    add_kernel(ifb[0], NULL, 0, (void *)affine, dim3(G), dim3(B), odd);
    add_kernel(ifb[1], NULL, 0, (void *)affine, dim3(G), dim3(B), even);
    void *swargs[4][4];
    for (int k = 0; k < 4; k++) {
        swargs[k][0] = &x;
        swargs[k][1] = &n;
        swargs[k][2] = &a1;
        swargs[k][3] = &bk[k];
        add_kernel(swb[k], NULL, 0, (void *)affine, dim3(G), dim3(B), swargs[k]);
    }
    cudaGraphExec_t xg;
    CHECK(cudaGraphInstantiate(&xg, g, 0));
    unsigned ref[N], out[N];
    for (int i = 0; i < N; i++)
        ref[i] = (unsigned)(i % 13);
    CHECK(cudaMemcpy(x, ref, sizeof ref, cudaMemcpyHostToDevice));
    int seen_odd = 0, seen_even = 0, seen_sw[5] = {0};
    for (int launch = 0; launch < 12; launch++) {
        unsigned total = 0;
        for (int i = 0; i < n; i++)
            total += ref[i];
        for (int i = 0; i < n; i++)
            ref[i] = total & 1 ? 3 * ref[i] + 1 : ref[i] + 7;
        seen_odd += total & 1;
        seen_even += !(total & 1);
        seen_sw[total % 5]++;
        if (total % 5 < 4)
            for (int i = 0; i < n; i++)
                ref[i] += 100 * (total % 5);
        CHECK(cudaGraphLaunch(xg, 0));
        CHECK(cudaMemcpy(out, x, sizeof out, cudaMemcpyDeviceToHost));
        char what[80];
        snprintf(what, sizeof what, "if/switch: launch %d against the CPU", launch + 1);
        check_array_exact(what, ref, out, N); /* the last element untouched */
    }
    check_true("if/switch: both IF branches, every SWITCH body and no body ran",
               seen_odd && seen_even && seen_sw[0] && seen_sw[1] && seen_sw[2] && seen_sw[3] &&
                   seen_sw[4]);
    CHECK(cudaGraphExecDestroy(xg));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(x));
    CHECK(cudaFree(s));
}

/* A SWITCH nested in a WHILE body: each round adds a different constant. */
static void nested(void)
{
    unsigned *x, *round;
    CHECK(cudaMalloc(&x, N * sizeof *x));
    CHECK(cudaMalloc(&round, sizeof *round));
    cudaGraph_t g, wb, sb[3];
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphConditionalHandle hw, hs;
    CHECK(cudaGraphConditionalHandleCreate(&hw, g, 1, cudaGraphCondAssignDefault));
    add_cond(g, NULL, 0, hw, cudaGraphCondTypeWhile, 1, &wb);
    CHECK(cudaGraphConditionalHandleCreate(&hs, wb, 0, 0)); /* for the graph its node is in */
    unsigned limit = 10;
    void *pargs[] = {&round, &limit, &hw, &hs};
    cudaGraphNode_t pn = add_kernel(wb, NULL, 0, (void *)pick, dim3(1), dim3(1), pargs);
    add_cond(wb, &pn, 1, hs, cudaGraphCondTypeSwitch, 3, sb);
    int n = N;
    unsigned one = 1, b[3] = {1, 20, 300};
    void *args[3][4];
    for (int k = 0; k < 3; k++) {
        args[k][0] = &x;
        args[k][1] = &n;
        args[k][2] = &one;
        args[k][3] = &b[k];
        add_kernel(sb[k], NULL, 0, (void *)affine, dim3(G), dim3(B), args[k]);
    }
    cudaGraphExec_t xg;
    CHECK(cudaGraphInstantiate(&xg, g, 0));
    CHECK(cudaMemset(x, 0, N * sizeof *x));
    CHECK(cudaMemset(round, 0, sizeof *round));
    CHECK(cudaGraphLaunch(xg, 0));
    unsigned out[N], ref[N], r = 0, add = 0;
    for (unsigned k = 0; k < limit; k++)
        add += b[k % 3];
    for (int i = 0; i < N; i++)
        ref[i] = add;
    CHECK(cudaMemcpy(out, x, sizeof out, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&r, round, sizeof r, cudaMemcpyDeviceToHost));
    check_int("nested: the WHILE ran its rounds", limit, r);
    check_array_exact("nested: each round's SWITCH body", ref, out, N);
    CHECK(cudaGraphExecDestroy(xg));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(x));
    CHECK(cudaFree(round));
}

static void host_noop(void *) {}

static void documented_errors(void)
{
    cudaGraph_t g, other, body[2];
    CHECK(cudaGraphCreate(&g, 0));
    CHECK(cudaGraphCreate(&other, 0));
    cudaGraphConditionalHandle h, ho;
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0));
    CHECK(cudaGraphConditionalHandleCreate(&ho, other, 0, 0));
    cudaGraphNodeParams p = {cudaGraphNodeTypeConditional};
    cudaGraphNode_t n;
    p.conditional.handle = ho;
    p.conditional.type = cudaGraphCondTypeIf;
    p.conditional.size = 1;
    check_err("errors: a handle of another graph", cudaErrorInvalidValue,
              cudaGraphAddNode(&n, g, NULL, NULL, 0, &p));
    p.conditional.handle = h;
    p.conditional.type = cudaGraphCondTypeWhile;
    p.conditional.size = 2;
    check_err("errors: WHILE with two bodies", cudaErrorInvalidValue,
              cudaGraphAddNode(&n, g, NULL, NULL, 0, &p));
    p.conditional.type = cudaGraphCondTypeIf;
    p.conditional.size = 3;
    check_err("errors: IF with three bodies", cudaErrorInvalidValue,
              cudaGraphAddNode(&n, g, NULL, NULL, 0, &p));
    cudaGetLastError();
    add_cond(g, NULL, 0, h, cudaGraphCondTypeIf, 2, body);
    cudaHostNodeParams hp = {host_noop, NULL};
    check_true("errors: a host node in a body is refused",
               cudaGraphAddHostNode(&n, body[0], NULL, 0, &hp) != cudaSuccess);
    cudaGetLastError();
    CHECK(cudaGraphDestroy(other));
    CHECK(cudaGraphDestroy(g));
}

int main(void)
{
    captured_collatz();
    data_dependent();
    nested();
    documented_errors();
    return finish();
}
