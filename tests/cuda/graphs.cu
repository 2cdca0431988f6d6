/* graphs.cu -- CUDA graphs, built explicitly and by stream capture, launched
 * repeatedly, with parameters changed on the executable graph, updated from
 * another graph, and nested; each result against a CPU reference. */
#include "common.cuh"

__global__ void axpb(float *v, int n, float a, float b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = a * v[i] + b;
}

__global__ void add_into(float *dst, const float *src, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        dst[i] += src[i];
}

static const int N = 1000;
static const int B = 128;
static const int G = (N + B - 1) / B;

static int host_calls;
static void CUDART_CB count_call(void *arg) { host_calls += (int)(size_t)arg; }

static void cpu_axpb(float *v, float a, float b)
{
    for (int i = 0; i < N; i++)
        v[i] = a * v[i] + b;
}

static int differ(const float *a, const float *b)
{
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += a[i] != b[i];
    return bad;
}

/* copy in -> axpb -> axpb -> copy out -> host node, built node by node */
static void explicit_graph(void)
{
    float *d, in[N], out[N], ref[N];
    for (int i = 0; i < N; i++)
        in[i] = (float)(i % 50);
    CHECK(cudaMalloc(&d, N * sizeof(float)));
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t up, k1, k2, down, host;
    CHECK(cudaGraphAddMemcpyNode1D(&up, g, NULL, 0, d, in, sizeof in, cudaMemcpyHostToDevice));
    int n = N;
    float a1 = 2.0f, b1 = 1.0f, a2 = 0.5f, b2 = 3.0f;
    void *args1[] = {&d, &n, &a1, &b1};
    cudaKernelNodeParams kp = {};
    kp.func = (void *)axpb;
    kp.gridDim = dim3(G);
    kp.blockDim = dim3(B);
    kp.kernelParams = args1;
    CHECK(cudaGraphAddKernelNode(&k1, g, &up, 1, &kp));
    void *args2[] = {&d, &n, &a2, &b2};
    kp.kernelParams = args2;
    CHECK(cudaGraphAddKernelNode(&k2, g, &k1, 1, &kp));
    CHECK(cudaGraphAddMemcpyNode1D(&down, g, &k2, 1, out, d, sizeof out, cudaMemcpyDeviceToHost));
    cudaHostNodeParams hp = {count_call, (void *)1};
    CHECK(cudaGraphAddHostNode(&host, g, &down, 1, &hp));
    /* the arguments were copied when the node was made */
    a1 = 100.0f;

    size_t count = 0, roots = 0;
    CHECK(cudaGraphGetNodes(g, NULL, &count));
    CHECK(cudaGraphGetRootNodes(g, NULL, &roots));
    check_int("explicit graph: five nodes", 5, (long long)count);
    check_int("explicit graph: one root", 1, (long long)roots);
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(k2, &t));
    check_int("explicit graph: node type", cudaGraphNodeTypeKernel, t);

    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s));
    host_calls = 0;
    for (int rep = 0; rep < 3; rep++)
        CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    memcpy(ref, in, sizeof in);
    cpu_axpb(ref, 2.0f, 1.0f);
    cpu_axpb(ref, 0.5f, 3.0f);
    check_int("explicit graph: three launches, same result each time", 0, differ(ref, out));
    check_int("explicit graph: the host node ran per launch", 3, host_calls);

    /* new parameters on the executable graph only */
    float a3 = -1.0f, b3 = 0.25f;
    void *args3[] = {&d, &n, &a3, &b3};
    kp.kernelParams = args3;
    CHECK(cudaGraphExecKernelNodeSetParams(x, k2, &kp));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    memcpy(ref, in, sizeof in);
    cpu_axpb(ref, 2.0f, 1.0f);
    cpu_axpb(ref, -1.0f, 0.25f);
    check_int("cudaGraphExecKernelNodeSetParams", 0, differ(ref, out));

    /* the graph itself still has the old parameters: a fresh instance shows it */
    cudaGraphExec_t x2;
    CHECK(cudaGraphInstantiate(&x2, g, 0));
    CHECK(cudaGraphLaunch(x2, s));
    CHECK(cudaStreamSynchronize(s));
    memcpy(ref, in, sizeof in);
    cpu_axpb(ref, 2.0f, 1.0f);
    cpu_axpb(ref, 0.5f, 3.0f);
    check_int("the graph keeps its own parameters", 0, differ(ref, out));

    /* cudaGraphExecUpdate from a graph of the same shape */
    cudaGraph_t g2;
    CHECK(cudaGraphClone(&g2, g));
    cudaGraphNode_t nodes[5];
    count = 5;
    CHECK(cudaGraphGetNodes(g2, nodes, &count));
    float a4 = 3.0f, b4 = -2.0f;
    void *args4[] = {&d, &n, &a4, &b4};
    kp.kernelParams = args4;
    CHECK(cudaGraphKernelNodeSetParams(nodes[1], &kp));
    cudaGraphExecUpdateResultInfo info;
    CHECK(cudaGraphExecUpdate(x, g2, &info));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    memcpy(ref, in, sizeof in);
    cpu_axpb(ref, 3.0f, -2.0f);
    cpu_axpb(ref, 0.5f, 3.0f);
    check_int("cudaGraphExecUpdate", 0, differ(ref, out));

    /* an update that changes the topology is refused */
    cudaGraphNode_t extra;
    CHECK(cudaGraphAddEmptyNode(&extra, g2, NULL, 0));
    check_int("cudaGraphExecUpdate refuses a new topology", cudaErrorGraphExecUpdateFailure,
              cudaGraphExecUpdate(x, g2, &info));
    check_int("  and says why", cudaGraphExecUpdateErrorTopologyChanged, info.result);
    cudaGetLastError();

    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphExecDestroy(x2));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(g2));
    check_int("a destroyed graph is refused", cudaErrorInvalidValue, cudaGraphDestroy(g));
    cudaGetLastError();
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(d));
}

/* fork/join capture over two streams, a memset node, a child graph */
static void captured_graph(void)
{
    float *x, *y, hx[N], hy[N], out[N], ref[N];
    for (int i = 0; i < N; i++) {
        hx[i] = (float)(i % 7);
        hy[i] = (float)(i % 3);
    }
    CHECK(cudaMalloc(&x, N * sizeof(float)));
    CHECK(cudaMalloc(&y, N * sizeof(float)));
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreate(&s1));
    CHECK(cudaStreamCreate(&s2));
    cudaEvent_t fork, joined;
    CHECK(cudaEventCreate(&fork));
    CHECK(cudaEventCreate(&joined));

    CHECK(cudaMemset(x, 0, N * sizeof(float)));
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    cudaStreamCaptureStatus st;
    CHECK(cudaStreamIsCapturing(s1, &st));
    check_int("s1 is capturing", cudaStreamCaptureStatusActive, st);
    CHECK(cudaMemcpyAsync(x, hx, sizeof hx, cudaMemcpyHostToDevice, s1));
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    CHECK(cudaStreamIsCapturing(s2, &st));
    check_int("s2 joined the capture", cudaStreamCaptureStatusActive, st);
    /* s2: y = hy * 2 + 1 ; s1: x = x * 3 */
    CHECK(cudaMemcpyAsync(y, hy, sizeof hy, cudaMemcpyHostToDevice, s2));
    axpb<<<G, B, 0, s2>>>(y, N, 2.0f, 1.0f);
    axpb<<<G, B, 0, s1>>>(x, N, 3.0f, 0.0f);
    CHECK(cudaEventRecord(joined, s2));
    CHECK(cudaStreamWaitEvent(s1, joined, 0));
    add_into<<<G, B, 0, s1>>>(x, y, N);
    CHECK(cudaLaunchHostFunc(s1, count_call, (void *)10));
    CHECK(cudaMemcpyAsync(out, x, sizeof out, cudaMemcpyDeviceToHost, s1));
    cudaGraph_t g;
    CHECK(cudaStreamEndCapture(s1, &g));
    CHECK(cudaStreamIsCapturing(s2, &st));
    check_int("the capture ended for s2 too", cudaStreamCaptureStatusNone, st);
    size_t count = 0, roots = 0;
    CHECK(cudaGraphGetNodes(g, NULL, &count));
    CHECK(cudaGraphGetRootNodes(g, NULL, &roots));
    check_int("captured graph: seven nodes", 7, (long long)count);
    check_int("captured graph: one root", 1, (long long)roots);

    /* nothing ran while capturing */
    float probe = -1;
    CHECK(cudaMemcpy(&probe, x + 5, sizeof probe, cudaMemcpyDeviceToHost));
    check_true("captured work did not run during the capture", probe == 0.0f);

    cudaGraphExec_t xg;
    CHECK(cudaGraphInstantiate(&xg, g, 0));
    host_calls = 0;
    CHECK(cudaGraphLaunch(xg, s1));
    CHECK(cudaStreamSynchronize(s1));
    for (int i = 0; i < N; i++)
        ref[i] = hx[i] * 3.0f + (hy[i] * 2.0f + 1.0f);
    check_int("fork/join capture result", 0, differ(ref, out));
    check_int("captured host function ran", 10, host_calls);

    /* the captured graph as a child of another, after a memset node of
     * 4-byte elements (x = 1.5f everywhere, then the child overwrites x) */
    cudaGraph_t parent;
    CHECK(cudaGraphCreate(&parent, 0));
    cudaMemsetParams mp = {};
    mp.dst = y;
    mp.elementSize = 4;
    float onehalf = 1.5f;
    memcpy(&mp.value, &onehalf, 4);
    mp.width = N;
    mp.height = 1;
    cudaGraphNode_t ms, child;
    CHECK(cudaGraphAddMemsetNode(&ms, parent, NULL, 0, &mp));
    CHECK(cudaGraphAddChildGraphNode(&child, parent, &ms, 1, g));
    cudaGraphExec_t xp;
    CHECK(cudaGraphInstantiate(&xp, parent, 0));
    CHECK(cudaGraphLaunch(xp, s2));
    CHECK(cudaStreamSynchronize(s2));
    check_int("child graph node", 0, differ(ref, out));
    float ycheck[N];
    CHECK(cudaMemcpy(ycheck, y, sizeof ycheck, cudaMemcpyDeviceToHost));
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += ycheck[i] != hy[i] * 2.0f + 1.0f;
    check_int("the child graph ran after the memset node", 0, bad);

    /* a graph launched into a capture becomes a child node */
    cudaGraph_t outer;
    CHECK(cudaStreamBeginCapture(s2, cudaStreamCaptureModeRelaxed));
    CHECK(cudaGraphLaunch(xg, s2));
    CHECK(cudaStreamEndCapture(s2, &outer));
    cudaGraphNode_t on[1];
    count = 1;
    CHECK(cudaGraphGetNodes(outer, on, &count));
    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(on[0], &t));
    check_int("cudaGraphLaunch during a capture records a child graph", cudaGraphNodeTypeGraph, t);

    /* an operation a capture cannot hold invalidates it */
    cudaGraph_t broken;
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    axpb<<<G, B, 0, s1>>>(x, N, 1.0f, 0.0f);
    check_int("cudaStreamSynchronize is refused during a capture",
              cudaErrorStreamCaptureUnsupported, cudaStreamSynchronize(s1));
    CHECK(cudaStreamIsCapturing(s1, &st));
    check_int("  and invalidates it", cudaStreamCaptureStatusInvalidated, st);
    check_int("  so that ending it fails", cudaErrorStreamCaptureInvalidated,
              cudaStreamEndCapture(s1, &broken));
    cudaGetLastError();
    CHECK(cudaStreamIsCapturing(s1, &st));
    check_int("  and the stream is no longer capturing", cudaStreamCaptureStatusNone, st);

    check_int("ending a capture that was not begun", cudaErrorIllegalState,
              cudaStreamEndCapture(s1, &outer));
    cudaGetLastError();
    check_int("the legacy stream cannot be captured", cudaErrorStreamCaptureUnsupported,
              cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal));
    cudaGetLastError();

    CHECK(cudaGraphExecDestroy(xg));
    CHECK(cudaGraphExecDestroy(xp));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaGraphDestroy(parent));
    CHECK(cudaGraphDestroy(outer));
    CHECK(cudaEventDestroy(fork));
    CHECK(cudaEventDestroy(joined));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaFree(x));
    CHECK(cudaFree(y));
}

/* dependencies added afterwards order the nodes, and a cycle is refused */
static void dependencies(void)
{
    float *d, out[N], ref[N];
    CHECK(cudaMalloc(&d, N * sizeof(float)));
    CHECK(cudaMemset(d, 0, N * sizeof(float)));
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    int n = N;
    float a = 2.0f, b1 = 1.0f, b0 = 0.0f;
    cudaKernelNodeParams kp = {};
    kp.func = (void *)axpb;
    kp.gridDim = dim3(G);
    kp.blockDim = dim3(B);
    void *first[] = {&d, &n, &a, &b1};  /* v = 2v + 1 */
    void *second[] = {&d, &n, &a, &b0}; /* v = 2v */
    cudaGraphNode_t k_second, k_first;
    kp.kernelParams = second;
    CHECK(cudaGraphAddKernelNode(&k_second, g, NULL, 0, &kp));
    kp.kernelParams = first;
    CHECK(cudaGraphAddKernelNode(&k_first, g, NULL, 0, &kp));
    /* made second, but runs first: 2*(2*0+1) = 2, not 2*(2*0)+1 = 1 */
    CHECK(cudaGraphAddDependencies(g, &k_first, &k_second, NULL, 1));
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphLaunch(x, 0));
    CHECK(cudaMemcpy(out, d, sizeof out, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        ref[i] = 2.0f;
    check_int("an added dependency orders the nodes", 0, differ(ref, out));
    CHECK(cudaGraphAddDependencies(g, &k_second, &k_first, NULL, 1));
    cudaGraphExec_t bad;
    check_int("a cycle is refused at instantiation", cudaErrorInvalidValue,
              cudaGraphInstantiate(&bad, g, 0));
    cudaGetLastError();
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(d));
}

int main(void)
{
    explicit_graph();
    captured_graph();
    dependencies();
    return finish();
}
