/* graph_memory.cu -- CUDA graph memory nodes: scratch buffers allocated and
 * freed inside graphs, built by stream capture (cudaMallocAsync and
 * cudaFreeAsync across a fork and join) and node by node
 * (cudaGraphAddMemAllocNode / cudaGraphAddMemFreeNode); allocations that
 * outlive their graph and are freed by cudaFree, cudaFreeAsync or another
 * graph; cudaGraphInstantiateFlagAutoFreeOnLaunch; the graph allocator's
 * attributes around cudaDeviceGraphMemTrim; and the documented errors.
 * Every result against a CPU reference. */
#include "common.cuh"

static const int N = 3000;
static const int B = 128;
static const int G = (N + B - 1) / B;
static const size_t BYTES = N * sizeof(int);

__global__ void affine(const int *in, int *out, int n, int a, int b)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * in[i] + b;
}

__global__ void ramp(int *out, int n, int base)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = base + i;
}

/* out[i] = 3 x[i] - y[n-1-i] */
__global__ void mix(const int *x, const int *y, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 3 * x[i] - y[n - 1 - i];
}

__global__ void add_into(int *acc, const int *src, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        acc[i] += src[i];
}

static unsigned long long attr(cudaGraphMemAttributeType a)
{
    unsigned long long v = 0;
    CHECK(cudaDeviceGetGraphMemAttribute(0, a, &v));
    return v;
}

static int count_type(cudaGraph_t g, cudaGraphNodeType want)
{
    size_t n = 0;
    CHECK(cudaGraphGetNodes(g, NULL, &n));
    cudaGraphNode_t *nodes = (cudaGraphNode_t *)malloc(n * sizeof *nodes);
    CHECK(cudaGraphGetNodes(g, nodes, &n));
    int k = 0;
    for (size_t i = 0; i < n; i++) {
        cudaGraphNodeType t;
        CHECK(cudaGraphNodeGetType(nodes[i], &t));
        k += t == want;
    }
    free(nodes);
    return k;
}

static cudaMemAllocNodeParams alloc_params(size_t bytes)
{
    cudaMemAllocNodeParams p;
    memset(&p, 0, sizeof p);
    p.poolProps.allocType = cudaMemAllocationTypePinned;
    p.poolProps.location.type = cudaMemLocationTypeDevice;
    p.poolProps.location.id = 0;
    p.bytesize = bytes;
    return p;
}

static cudaKernelNodeParams kernel_params(void *func, void **args)
{
    cudaKernelNodeParams kp = {};
    kp.func = func;
    kp.gridDim = dim3(G);
    kp.blockDim = dim3(B);
    kp.kernelParams = args;
    return kp;
}

/* Captured: t1 = input; t2 = 2 t1 + 1; forked stream: t3 = 7 - t2;
 * t1 freed, t4 = ramp from 1000; joined: t2 = mix(t3, t4), copied out. */
static void captured_pipeline(void)
{
    int *in, *out, ref[N];
    CHECK(cudaMallocHost(&in, BYTES));
    CHECK(cudaMallocHost(&out, BYTES));
    cudaStream_t s1, s2;
    CHECK(cudaStreamCreateWithFlags(&s1, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking));
    cudaEvent_t fork, join;
    CHECK(cudaEventCreate(&fork));
    CHECK(cudaEventCreate(&join));
    unsigned long long used0 = attr(cudaGraphMemAttrUsedMemCurrent);

    cudaGraph_t g;
    int *t1, *t2, *t3, *t4;
    CHECK(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal));
    CHECK(cudaMallocAsync(&t1, BYTES, s1));
    CHECK(cudaMallocAsync(&t2, BYTES, s1));
    CHECK(cudaMemcpyAsync(t1, in, BYTES, cudaMemcpyHostToDevice, s1));
    affine<<<G, B, 0, s1>>>(t1, t2, N, 2, 1);
    CHECK_LAUNCH();
    CHECK(cudaEventRecord(fork, s1));
    CHECK(cudaStreamWaitEvent(s2, fork, 0));
    CHECK(cudaMallocAsync(&t3, BYTES, s2));
    affine<<<G, B, 0, s2>>>(t2, t3, N, -1, 7);
    CHECK_LAUNCH();
    CHECK(cudaEventRecord(join, s2));
    CHECK(cudaFreeAsync(t1, s1));
    CHECK(cudaMallocAsync(&t4, BYTES, s1));
    ramp<<<G, B, 0, s1>>>(t4, N, 1000);
    CHECK_LAUNCH();
    CHECK(cudaStreamWaitEvent(s1, join, 0));
    mix<<<G, B, 0, s1>>>(t3, t4, t2, N);
    CHECK_LAUNCH();
    CHECK(cudaMemcpyAsync(out, t2, BYTES, cudaMemcpyDeviceToHost, s1));
    CHECK(cudaFreeAsync(t2, s1));
    CHECK(cudaFreeAsync(t3, s1));
    CHECK(cudaFreeAsync(t4, s1));
    CHECK(cudaStreamEndCapture(s1, &g));

    check_true("capture: the allocations are distinct while they may be live",
               t1 != t2 && t2 != t3 && t3 != t4 && t2 != t4 && t1 != t3);
    check_int("capture: nothing allocated until the graph runs", (long long)used0,
              (long long)attr(cudaGraphMemAttrUsedMemCurrent));
    check_int("capture: four allocation nodes", 4, count_type(g, cudaGraphNodeTypeMemAlloc));
    check_int("capture: four free nodes", 4, count_type(g, cudaGraphNodeTypeMemFree));

    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    unsigned long long used1 = 0;
    for (int round = 0; round < 3; round++) {
        for (int i = 0; i < N; i++)
            in[i] = (i * 7 + round * 13) % 101 - 50;
        for (int i = 0; i < N; i++)
            ref[i] = 3 * (7 - (2 * in[i] + 1)) - (1000 + N - 1 - i);
        CHECK(cudaGraphLaunch(x, s1));
        CHECK(cudaStreamSynchronize(s1));
        char what[80];
        snprintf(what, sizeof what, "capture: launch %d against the CPU", round + 1);
        check_array_exact(what, ref, out, N);
        /* freed, the memory stays mapped behind the graph's addresses until
         * a trim: a relaunch needs none more */
        unsigned long long used = attr(cudaGraphMemAttrUsedMemCurrent);
        if (round == 0)
            used1 = used;
        check_true("capture: the graph's memory stays after its frees", used > used0);
        check_int("capture: a relaunch needs no more memory", (long long)used1, (long long)used);
    }
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaEventDestroy(fork));
    CHECK(cudaEventDestroy(join));
    CHECK(cudaStreamDestroy(s1));
    CHECK(cudaStreamDestroy(s2));
    CHECK(cudaFreeHost(in));
    CHECK(cudaFreeHost(out));
}

/* Node by node: a = ramp; acc += a; free a; b (after the free) = copy of
 * host data; acc += 5 b - 2; free b.  acc lives outside the graph. */
static void explicit_graph(void)
{
    int *acc, host[N], got[N], ref[N];
    CHECK(cudaMalloc(&acc, BYTES));
    CHECK(cudaMemset(acc, 0, BYTES));
    for (int i = 0; i < N; i++)
        host[i] = (i % 17) - 8;

    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t alloc_a, ramp_a, add_a, free_a, alloc_b, copy_b, affine_b, add_b, free_b;
    cudaMemAllocNodeParams ap = alloc_params(BYTES);
    CHECK(cudaGraphAddMemAllocNode(&alloc_a, g, NULL, 0, &ap));
    int *a = (int *)ap.dptr;
    int n = N, base = 10;
    void *ramp_args[] = {&a, &n, &base};
    cudaKernelNodeParams kp = kernel_params((void *)ramp, ramp_args);
    CHECK(cudaGraphAddKernelNode(&ramp_a, g, &alloc_a, 1, &kp));
    void *add_a_args[] = {&acc, &a, &n};
    kp = kernel_params((void *)add_into, add_a_args);
    CHECK(cudaGraphAddKernelNode(&add_a, g, &ramp_a, 1, &kp));
    CHECK(cudaGraphAddMemFreeNode(&free_a, g, &add_a, 1, a));
    ap = alloc_params(BYTES);
    CHECK(cudaGraphAddMemAllocNode(&alloc_b, g, &free_a, 1, &ap));
    int *b = (int *)ap.dptr;
    CHECK(cudaGraphAddMemcpyNode1D(&copy_b, g, &alloc_b, 1, b, host, BYTES,
                                   cudaMemcpyHostToDevice));
    int five = 5, minus2 = -2;
    void *affine_args[] = {&b, &b, &n, &five, &minus2};
    kp = kernel_params((void *)affine, affine_args);
    CHECK(cudaGraphAddKernelNode(&affine_b, g, &copy_b, 1, &kp));
    void *add_b_args[] = {&acc, &b, &n};
    kp = kernel_params((void *)add_into, add_b_args);
    CHECK(cudaGraphAddKernelNode(&add_b, g, &affine_b, 1, &kp));
    CHECK(cudaGraphAddMemFreeNode(&free_b, g, &add_b, 1, b));

    cudaGraphNodeType t;
    CHECK(cudaGraphNodeGetType(alloc_b, &t));
    check_int("explicit: allocation node type", cudaGraphNodeTypeMemAlloc, t);
    CHECK(cudaGraphNodeGetType(free_b, &t));
    check_int("explicit: free node type", cudaGraphNodeTypeMemFree, t);
    cudaMemAllocNodeParams back;
    CHECK(cudaGraphMemAllocNodeGetParams(alloc_b, &back));
    check_true("explicit: the allocation node's address and size",
               back.dptr == b && back.bytesize == BYTES &&
                   back.poolProps.location.type == cudaMemLocationTypeDevice);
    void *freed = NULL;
    CHECK(cudaGraphMemFreeNodeGetParams(free_a, &freed));
    check_true("explicit: the free node's address", freed == a);

    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    for (int i = 0; i < N; i++)
        ref[i] = 0;
    for (int round = 0; round < 2; round++) {
        CHECK(cudaGraphLaunch(x, 0));
        CHECK(cudaDeviceSynchronize());
        for (int i = 0; i < N; i++)
            ref[i] += (10 + i) + (5 * host[i] - 2);
        CHECK(cudaMemcpy(got, acc, BYTES, cudaMemcpyDeviceToHost));
        char what[80];
        snprintf(what, sizeof what, "explicit: launch %d against the CPU", round + 1);
        check_array_exact(what, ref, got, N);
    }
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    CHECK(cudaFree(acc));
}

/* alloc o -> ramp(o, base): no free node, so o outlives the launch */
static cudaGraph_t escaping_graph(int **o, int *base)
{
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t alloc, fill;
    cudaMemAllocNodeParams ap = alloc_params(BYTES);
    CHECK(cudaGraphAddMemAllocNode(&alloc, g, NULL, 0, &ap));
    *o = (int *)ap.dptr;
    static int n = N;
    void *args[] = {o, &n, base};
    cudaKernelNodeParams kp = kernel_params((void *)ramp, args);
    CHECK(cudaGraphAddKernelNode(&fill, g, &alloc, 1, &kp));
    return g;
}

/* Reads o (a live graph allocation) from outside the graph: o*3 - 1. */
static void check_outside(const char *what, const int *o, int base, int *dev_out)
{
    int got[N], ref[N];
    affine<<<G, B>>>(o, dev_out, N, 3, -1);
    CHECK_LAUNCH();
    CHECK(cudaMemcpy(got, dev_out, BYTES, cudaMemcpyDeviceToHost));
    for (int i = 0; i < N; i++)
        ref[i] = 3 * (base + i) - 1;
    check_array_exact(what, ref, got, N);
}

static void outliving_allocations(void)
{
    int *dev_out, *o, base = 40;
    CHECK(cudaMalloc(&dev_out, BYTES));
    cudaStream_t s;
    CHECK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
    cudaGraph_t g = escaping_graph(&o, &base);
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    CHECK(cudaGraphDestroy(g)); /* the executable graph keeps the allocation's address */

    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    check_outside("outliving: read after the launch, outside the graph", o, base, dev_out);
    check_true("outliving: the allocation counts as used",
               attr(cudaGraphMemAttrUsedMemCurrent) >= BYTES);
    check_err("outliving: relaunch while the allocation is live", cudaErrorInvalidValue,
              cudaGraphLaunch(x, s));
    cudaGetLastError();
    unsigned long long live = attr(cudaGraphMemAttrUsedMemCurrent);
    CHECK(cudaFree(o));
    check_int("outliving: after cudaFree the memory stays until a trim", (long long)live,
              (long long)attr(cudaGraphMemAttrUsedMemCurrent));

    CHECK(cudaGraphLaunch(x, s)); /* the same address again */
    CHECK(cudaStreamSynchronize(s));
    check_outside("outliving: relaunched after cudaFree", o, base, dev_out);
    check_int("outliving: the relaunch reuses the memory", (long long)live,
              (long long)attr(cudaGraphMemAttrUsedMemCurrent));
    CHECK(cudaFreeAsync(o, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaDeviceGraphMemTrim(0));
    check_int("outliving: freed by cudaFreeAsync and trimmed", 0,
              (long long)attr(cudaGraphMemAttrUsedMemCurrent));

    /* freed by a free node of another graph */
    cudaGraph_t fg;
    cudaGraphNode_t fn;
    CHECK(cudaGraphCreate(&fg, 0));
    CHECK(cudaGraphAddMemFreeNode(&fn, fg, NULL, 0, o));
    cudaGraphExec_t fx;
    CHECK(cudaGraphInstantiate(&fx, fg, 0));
    CHECK(cudaGraphDestroy(fg));
    CHECK(cudaGraphLaunch(x, s));
    CHECK(cudaStreamSynchronize(s));
    check_outside("outliving: relaunched after cudaFreeAsync", o, base, dev_out);
    CHECK(cudaGraphLaunch(fx, s));
    CHECK(cudaStreamSynchronize(s));
    CHECK(cudaDeviceGraphMemTrim(0));
    check_int("outliving: freed by another graph's free node and trimmed", 0,
              (long long)attr(cudaGraphMemAttrUsedMemCurrent));
    CHECK(cudaGraphExecDestroy(fx));
    CHECK(cudaGraphExecDestroy(x));

    /* auto-free on launch: each launch frees the last one's allocation */
    base = 700;
    g = escaping_graph(&o, &base);
    CHECK(cudaGraphInstantiateWithFlags(&x, g, cudaGraphInstantiateFlagAutoFreeOnLaunch));
    for (int round = 0; round < 3; round++) {
        CHECK(cudaGraphLaunch(x, s));
        CHECK(cudaStreamSynchronize(s));
        char what[80];
        snprintf(what, sizeof what, "auto-free: launch %d", round + 1);
        check_outside(what, o, 700, dev_out);
    }
    unsigned long long used = attr(cudaGraphMemAttrUsedMemCurrent);
    check_true("auto-free: one allocation live, not three", used >= BYTES && used < 2 * BYTES);
    CHECK(cudaDeviceGraphMemTrim(0));
    check_true("trim keeps the memory of a live allocation",
               attr(cudaGraphMemAttrReservedMemCurrent) >= attr(cudaGraphMemAttrUsedMemCurrent));
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphDestroy(g));
    check_outside("auto-free: live after its graphs are destroyed", o, 700, dev_out);
    CHECK(cudaFree(o));
    CHECK(cudaStreamDestroy(s));
    CHECK(cudaFree(dev_out));
}

static void attributes_and_trim(void)
{
    check_true("attributes: the high-water mark saw the largest launch",
               attr(cudaGraphMemAttrUsedMemHigh) >= 3 * BYTES);
    check_true("attributes: the allocator keeps memory after the frees",
               attr(cudaGraphMemAttrReservedMemCurrent) > 0);
    check_true("attributes: reserved high >= reserved",
               attr(cudaGraphMemAttrReservedMemHigh) >= attr(cudaGraphMemAttrReservedMemCurrent));
    CHECK(cudaDeviceGraphMemTrim(0));
    check_int("trim: the memory goes back", 0,
              (long long)attr(cudaGraphMemAttrReservedMemCurrent));
    check_int("trim: nothing is live, so no graph keeps memory", 0,
              (long long)attr(cudaGraphMemAttrUsedMemCurrent));
    unsigned long long zero = 0, seven = 7;
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero));
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero));
    check_int("attributes: high-water marks reset", 0,
              (long long)(attr(cudaGraphMemAttrUsedMemHigh) +
                          attr(cudaGraphMemAttrReservedMemHigh)));
    check_err("attributes: a high-water mark can only be reset to zero", cudaErrorInvalidValue,
              cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &seven));
    check_err("attributes: the current amounts cannot be set", cudaErrorInvalidValue,
              cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero));
    check_err("attributes: device 1 does not exist", cudaErrorInvalidDevice,
              cudaDeviceGetGraphMemAttribute(1, cudaGraphMemAttrUsedMemCurrent, &zero));
    cudaGetLastError();
}

static void documented_errors(void)
{
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0));
    cudaGraphNode_t an, fn, bad;
    cudaMemAllocNodeParams ap = alloc_params(BYTES);
    CHECK(cudaGraphAddMemAllocNode(&an, g, NULL, 0, &ap));
    CHECK(cudaGraphAddMemFreeNode(&fn, g, &an, 1, ap.dptr));
    check_err("errors: freeing an allocation twice in one graph", cudaErrorInvalidValue,
              cudaGraphAddMemFreeNode(&bad, g, &fn, 1, ap.dptr));
    int local = 0;
    check_err("errors: freeing an address no allocation node returned", cudaErrorInvalidValue,
              cudaGraphAddMemFreeNode(&bad, g, &fn, 1, &local));
    cudaGraph_t other;
    CHECK(cudaGraphCreate(&other, 0));
    check_err("errors: another graph freeing an allocation its graph frees",
              cudaErrorInvalidValue, cudaGraphAddMemFreeNode(&bad, other, NULL, 0, ap.dptr));
    ap = alloc_params(0);
    check_err("errors: an allocation of 0 bytes", cudaErrorInvalidValue,
              cudaGraphAddMemAllocNode(&bad, g, NULL, 0, &ap));
    cudaGraphExec_t x, x2;
    CHECK(cudaGraphInstantiate(&x, g, 0));
    check_err("errors: a second executable graph of a graph with memory nodes",
              cudaErrorInvalidValue, cudaGraphInstantiate(&x2, g, 0));
    CHECK(cudaGraphExecDestroy(x));
    CHECK(cudaGraphInstantiate(&x2, g, 0)); /* once the first is gone */
    CHECK(cudaGraphExecDestroy(x2));
    cudaGraph_t clone;
    check_err("errors: cloning a graph with memory nodes", cudaErrorNotSupported,
              cudaGraphClone(&clone, g));
    cudaGraphNode_t child;
    check_err("errors: a graph with memory nodes as a child graph", cudaErrorNotSupported,
              cudaGraphAddChildGraphNode(&child, other, NULL, 0, g));
    cudaGetLastError();
    CHECK(cudaGraphDestroy(other));
    CHECK(cudaGraphDestroy(g));
}

int main(void)
{
    int pools = 0;
    CHECK(cudaDeviceGetAttribute(&pools, cudaDevAttrMemoryPoolsSupported, 0));
    check_int("the device supports memory pools (and so graph memory nodes)", 1, pools);
    captured_pipeline();
    explicit_graph();
    outliving_allocations();
    attributes_and_trim();
    documented_errors();
    return finish();
}
