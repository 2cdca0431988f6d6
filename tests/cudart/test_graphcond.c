/*
 * test_graphcond.c -- CUDA graph conditional nodes, cudaGraphAddNode and
 * the graph allocator's footprint attributes, through the runtime
 * replacement without nvcc (hand-written PTX, tests/cudart/ptx_fatbin.h):
 * IF with one and two bodies, WHILE (bodies built by node APIs and by
 * cudaStreamBeginCaptureToGraph), SWITCH, nested conditionals, defaults
 * and cudaGraphCondAssignDefault, the rules on handles and bodies, every
 * other node type through struct cudaGraphNodeParams (cudaGraphAddNode,
 * cudaGraphNodeSetParams, cudaGraphExecNodeSetParams), and
 * cudaDeviceGetGraphMemAttribute / cudaDeviceSetGraphMemAttribute / trim.
 */
#include <string.h>

#include "cudart/cuda_abi.h"
#include "cudart/cuda_api.h"
#include "ptx_fatbin.h"
#include "test.h"

void **__cudaRegisterFatBinary(void *fatCubin);
void __cudaRegisterFatBinaryEnd(void **handle);
void __cudaRegisterFunction(void **handle, const char *hostFun, char *deviceFun,
                            const char *deviceName, int thread_limit, void *tid, void *bid,
                            void *bDim, void *gDim, int *wSize);

/* The call nvcc emits for cudaGraphSetConditional(handle %rd, value %r). */
#define SET_COND(h, v)                                                                     \
    "  { .reg .b32 temp_param_reg; .param .b64 param0; st.param.b64 [param0+0], " h ";\n" \
    "    .param .b32 param1; st.param.b32 [param1+0], " v ";\n"                          \
    "    call.uni cudaGraphSetConditional, (param0, param1); }\n"

static const char ptx[] =
    ".version 9.0\n.target sm_75\n.address_size 64\n"
    ".extern .func cudaGraphSetConditional(.param .b64 cudaGraphSetConditional_param_0, "
    ".param .b32 cudaGraphSetConditional_param_1);\n"
    /* setc(h, v): the handle's value becomes v */
    ".visible .entry setc(.param .u64 h, .param .u32 v)\n{\n"
    "  .reg .b32 %r<2>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [h]; ld.param.u32 %r1, [v];\n" SET_COND("%rd1", "%r1") "  ret;\n}\n"
    /* add(p, k): p[0] += k */
    ".visible .entry add(.param .u64 p, .param .u32 k)\n{\n"
    "  .reg .b32 %r<3>; .reg .b64 %rd<2>;\n"
    "  ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [k];\n"
    "  ld.global.u32 %r2, [%rd1]; add.u32 %r2, %r2, %r1; st.global.u32 [%rd1], %r2;\n"
    "  ret;\n}\n"
    /* dec(p, h): p[0] -= 1, p[1] += 1, the handle's value becomes p[0] != 0 */
    ".visible .entry dec(.param .u64 p, .param .u64 h)\n{\n"
    "  .reg .b32 %r<4>; .reg .b64 %rd<3>; .reg .pred %p1;\n"
    "  ld.param.u64 %rd1, [p]; ld.param.u64 %rd2, [h];\n"
    "  ld.global.u32 %r1, [%rd1]; sub.u32 %r1, %r1, 1; st.global.u32 [%rd1], %r1;\n"
    "  ld.global.u32 %r2, [%rd1+4]; add.u32 %r2, %r2, 1; st.global.u32 [%rd1+4], %r2;\n"
    "  setp.ne.u32 %p1, %r1, 0; selp.u32 %r3, 1, 0, %p1;\n" SET_COND("%rd2", "%r3")
    "  ret;\n}\n";

static _Alignas(8) unsigned char fatbin[8192];
static fatbin_wrapper wrapper;
static char host_setc, host_add, host_dec; /* stand-ins for the host stubs */

static void register_kernels(void)
{
    CHECK(ptx_fatbin(ptx, sizeof ptx, fatbin, sizeof fatbin, &wrapper) == 0);
    void **h = __cudaRegisterFatBinary(&wrapper);
    CHECK(h != NULL);
    __cudaRegisterFunction(h, &host_setc, (char *)"setc", "setc", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(h, &host_add, (char *)"add", "add", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFunction(h, &host_dec, (char *)"dec", "dec", -1, NULL, NULL, NULL, NULL, NULL);
    __cudaRegisterFatBinaryEnd(h);
}

static const dim3 one = {1, 1, 1};

/* A kernel node of g after dep (NULL: a root), added with cudaGraphAddNode. */
static cudaGraphNode_t kernel_node(cudaGraph_t g, cudaGraphNode_t dep, void *fn, void **args)
{
    struct cudaGraphNodeParams p = {.type = cudaGraphNodeTypeKernel};
    p.kernel = (struct cudaKernelNodeParamsV2){fn, one, one, 0, args, NULL};
    cudaGraphNode_t n = NULL;
    CHECK(cudaGraphAddNode(&n, g, dep ? &dep : NULL, NULL, dep ? 1 : 0, &p) == cudaSuccess);
    return n;
}

/* A conditional node of g after dep: its bodies in body[]. */
static cudaGraphNode_t cond_node(cudaGraph_t g, cudaGraphNode_t dep, cudaGraphConditionalHandle h,
                                 int type, unsigned size, cudaGraph_t *body)
{
    struct cudaGraphNodeParams p = {.type = cudaGraphNodeTypeConditional};
    p.conditional.handle = h;
    p.conditional.type = type;
    p.conditional.size = size;
    cudaGraphNode_t n = NULL;
    CHECK(cudaGraphAddNode(&n, g, dep ? &dep : NULL, NULL, dep ? 1 : 0, &p) == cudaSuccess);
    for (unsigned i = 0; i < size; i++)
        body[i] = p.conditional.phGraph_out ? p.conditional.phGraph_out[i] : NULL;
    return n;
}

static unsigned get_u32(const unsigned *d)
{
    unsigned v = 0;
    CHECK(cudaMemcpy(&v, d, 4, cudaMemcpyDeviceToHost) == cudaSuccess);
    return v;
}

static void set_u32(unsigned *d, unsigned v)
{
    CHECK(cudaMemcpy(d, &v, 4, cudaMemcpyHostToDevice) == cudaSuccess);
}

/* IF with two bodies: setc(h, v) then IF(h) { add 1 } else { add 100 }. */
static void test_if(void)
{
    unsigned *d;
    CHECK(cudaMalloc((void **)&d, 4) == cudaSuccess);
    set_u32(d, 0);
    cudaGraph_t g, body[2];
    CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
    cudaGraphConditionalHandle h = 0;
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0) == cudaSuccess && h != 0);
    unsigned v = 1, one_k = 1, hundred = 100;
    void *sargs[] = {&h, &v}, *a1[] = {&d, &one_k}, *a100[] = {&d, &hundred};
    cudaGraphNode_t set = kernel_node(g, NULL, &host_setc, sargs);
    cudaGraphNode_t c = cond_node(g, set, h, cudaGraphCondTypeIf, 2, body);
    CHECK(body[0] && body[1] && body[0] != body[1]);
    kernel_node(body[0], NULL, &host_add, a1);
    kernel_node(body[1], NULL, &host_add, a100);
    int type = -1;
    CHECK(cudaGraphNodeGetType(c, &type) == cudaSuccess && type == cudaGraphNodeTypeConditional);
    /* a body is its node's: it cannot be destroyed by the program */
    CHECK(cudaGraphDestroy(body[0]) == cudaErrorInvalidValue);
    cudaGetLastError();
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK_EQ_U64(get_u32(d), 1);
    /* the value 0 runs the else body */
    struct cudaKernelNodeParams kp = {&host_setc, one, one, 0, sargs, NULL};
    v = 0;
    CHECK(cudaGraphExecKernelNodeSetParams(x, set, &kp) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK_EQ_U64(get_u32(d), 101);
    v = 7; /* any value but 0 is true; the generic setter this time */
    struct cudaGraphNodeParams gp = {.type = cudaGraphNodeTypeKernel};
    gp.kernel = (struct cudaKernelNodeParamsV2){&host_setc, one, one, 0, sargs, NULL};
    CHECK(cudaGraphExecNodeSetParams(x, set, &gp) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK_EQ_U64(get_u32(d), 102);
    /* the generic setters: other types refused, the node's type must match */
    struct cudaGraphNodeParams cp = {.type = cudaGraphNodeTypeConditional};
    CHECK(cudaGraphNodeSetParams(c, &cp) == cudaErrorNotSupported);
    CHECK(cudaGraphExecNodeSetParams(x, c, &cp) == cudaErrorNotSupported);
    struct cudaGraphNodeParams mp = {.type = cudaGraphNodeTypeMemset};
    mp.memset = (struct cudaMemsetParamsV2){d, 0, 0, 4, 1, 1};
    CHECK(cudaGraphNodeSetParams(set, &mp) == cudaErrorInvalidValue);
    CHECK(cudaGraphNodeSetParams(set, NULL) == cudaErrorInvalidValue);
    cudaGetLastError();
    /* the graph's node changed: the executable graph is not */
    v = 0;
    CHECK(cudaGraphNodeSetParams(set, &gp) == cudaSuccess);
    struct cudaKernelNodeParams back;
    CHECK(cudaGraphKernelNodeGetParams(set, &back) == cudaSuccess);
    CHECK(back.func == &host_setc && *(unsigned *)back.kernelParams[1] == 0);
    /* the executable graph is a copy: it runs after the graph is gone */
    CHECK(cudaGraphDestroy(g) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK_EQ_U64(get_u32(d), 103);
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);

    /* IF with one body, and the handle's default assigned at each launch:
     * no kernel sets it */
    CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault) == cudaSuccess);
    cond_node(g, NULL, h, cudaGraphCondTypeIf, 1, body);
    kernel_node(body[0], NULL, &host_add, a1);
    CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
    set_u32(d, 0);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK_EQ_U64(get_u32(d), 2);
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphDestroy(g) == cudaSuccess);

    /* two IF nodes testing one handle, one after the other: both run */
    CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault) == cudaSuccess);
    cudaGraphNode_t first = cond_node(g, NULL, h, cudaGraphCondTypeIf, 1, body);
    kernel_node(body[0], NULL, &host_add, a1);
    cond_node(g, first, h, cudaGraphCondTypeIf, 1, body);
    kernel_node(body[0], NULL, &host_add, a1);
    CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
    set_u32(d, 0);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK_EQ_U64(get_u32(d), 2);
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphDestroy(g) == cudaSuccess);

    /* without cudaGraphCondAssignDefault the value is what was set last: a
     * kernel outside the graph sets it (as the program may) */
    CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, 0) == cudaSuccess);
    cond_node(g, NULL, h, cudaGraphCondTypeIf, 1, body);
    kernel_node(body[0], NULL, &host_add, a1);
    CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
    set_u32(d, 0);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess); /* 0: the handle's word starts at 0 */
    CHECK_EQ_U64(get_u32(d), 0);
    v = 1;
    CHECK(cudaLaunchKernel(&host_setc, one, one, sargs, 0, NULL) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK_EQ_U64(get_u32(d), 2);
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphDestroy(g) == cudaSuccess);
    cudaFree(d);
}

/* WHILE: its body runs dec until the counter is 0; built by a node API,
 * then by capturing a stream into the body. */
static void test_while(void)
{
    unsigned *d;
    CHECK(cudaMalloc((void **)&d, 8) == cudaSuccess);
    for (int captured = 0; captured < 2; captured++) {
        cudaGraph_t g, body[1];
        CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
        cudaGraphConditionalHandle h;
        CHECK(cudaGraphConditionalHandleCreate(&h, g, 1, cudaGraphCondAssignDefault) ==
              cudaSuccess);
        cond_node(g, NULL, h, cudaGraphCondTypeWhile, 1, body);
        void *args[] = {&d, &h};
        if (!captured) {
            kernel_node(body[0], NULL, &host_dec, args);
        } else {
            cudaStream_t s;
            CHECK(cudaStreamCreate(&s) == cudaSuccess);
            CHECK(cudaStreamBeginCaptureToGraph(s, body[0], NULL, NULL, 0,
                                                cudaStreamCaptureModeGlobal) == cudaSuccess);
            int status = 0;
            cudaGraph_t cg = NULL;
            CHECK(cudaStreamGetCaptureInfo(s, &status, NULL, &cg, NULL, NULL, NULL) ==
                  cudaSuccess);
            CHECK(status == cudaStreamCaptureStatusActive && cg == body[0]);
            CHECK(cudaLaunchKernel(&host_dec, one, one, args, 0, s) == cudaSuccess);
            /* a host function cannot go into a body: the capture is invalidated */
            cudaGraph_t out = NULL;
            CHECK(cudaStreamEndCapture(s, &out) == cudaSuccess && out == body[0]);
            size_t n = 0;
            CHECK(cudaGraphGetNodes(body[0], NULL, &n) == cudaSuccess && n == 1);
            CHECK(cudaStreamDestroy(s) == cudaSuccess);
        }
        cudaGraphExec_t x;
        CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
        unsigned init[2] = {5, 0}, got[2];
        CHECK(cudaMemcpy(d, init, 8, cudaMemcpyHostToDevice) == cudaSuccess);
        CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
        CHECK(cudaMemcpy(got, d, 8, cudaMemcpyDeviceToHost) == cudaSuccess);
        CHECK_EQ_U64(got[0], 0);
        CHECK_EQ_U64(got[1], 5);
        /* the default 1 again at the next launch: three more rounds */
        set_u32(d, 3);
        CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
        CHECK(cudaMemcpy(got, d, 8, cudaMemcpyDeviceToHost) == cudaSuccess);
        CHECK_EQ_U64(got[0], 0);
        CHECK_EQ_U64(got[1], 8);
        CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
        CHECK(cudaGraphDestroy(g) == cudaSuccess);
    }
    cudaFree(d);
}

/* SWITCH of three bodies; a value past the last runs none.  Body 1 holds a
 * nested IF on a handle of the outer graph. */
static void test_switch_and_nesting(void)
{
    unsigned *d;
    CHECK(cudaMalloc((void **)&d, 4) == cudaSuccess);
    cudaGraph_t g, body[3], inner[1];
    CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
    cudaGraphConditionalHandle h, hin;
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0) == cudaSuccess);
    CHECK(cudaGraphConditionalHandleCreate(&hin, g, 1, cudaGraphCondAssignDefault) ==
          cudaSuccess);
    CHECK(h != hin);
    unsigned v = 0, k[3] = {1, 10, 100}, k1000 = 1000;
    void *sargs[] = {&h, &v}, *a[3][2] = {{&d, &k[0]}, {&d, &k[1]}, {&d, &k[2]}};
    void *a1000[] = {&d, &k1000};
    cudaGraphNode_t set = kernel_node(g, NULL, &host_setc, sargs);
    cond_node(g, set, h, cudaGraphCondTypeSwitch, 3, body);
    for (int i = 0; i < 3; i++)
        kernel_node(body[i], NULL, &host_add, a[i]);
    cond_node(body[1], NULL, hin, cudaGraphCondTypeIf, 1, inner);
    kernel_node(inner[0], NULL, &host_add, a1000);
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
    struct cudaKernelNodeParams kp = {&host_setc, one, one, 0, sargs, NULL};
    unsigned expect = 0, adds[6] = {1, 1010, 100, 0, 0, 0};
    set_u32(d, 0);
    for (v = 0; v < 6; v++) {
        CHECK(cudaGraphExecKernelNodeSetParams(x, set, &kp) == cudaSuccess);
        CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
        expect += adds[v];
        CHECK_EQ_U64(get_u32(d), expect);
    }
    /* a graph holding conditional nodes cannot be cloned, nor updated */
    cudaGraph_t cl;
    CHECK(cudaGraphClone(&cl, g) == cudaErrorNotSupported);
    cudaGetLastError();
    cudaGraphExecUpdateResultInfo info;
    CHECK(cudaGraphExecUpdate(x, g, &info) == cudaErrorGraphExecUpdateFailure);
    CHECK(info.result == cudaGraphExecUpdateErrorNotSupported);
    cudaGetLastError();
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphDestroy(g) == cudaSuccess);
    cudaFree(d);
}

static void host_fn(void *p) { (void)p; }

/* What conditional nodes refuse, each with an error. */
static void test_cond_errors(void)
{
    cudaGraph_t g, g2, body[2];
    CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
    CHECK(cudaGraphCreate(&g2, 0) == cudaSuccess);
    cudaGraphConditionalHandle h, h2;
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0) == cudaSuccess);
    CHECK(cudaGraphConditionalHandleCreate(&h2, g2, 0, 0) == cudaSuccess);
    CHECK(cudaGraphConditionalHandleCreate(NULL, g, 0, 0) == cudaErrorInvalidValue);
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 2) == cudaErrorInvalidValue);
    CHECK(cudaGraphConditionalHandleCreate(&h, NULL, 0, 0) == cudaErrorInvalidValue);
    cudaGetLastError();
    struct cudaGraphNodeParams p = {.type = cudaGraphNodeTypeConditional};
    cudaGraphNode_t n;
    p.conditional = (struct cudaConditionalNodeParams){0x1234, cudaGraphCondTypeIf, 1, NULL};
    CHECK(cudaGraphAddNode(&n, g, NULL, NULL, 0, &p) == cudaErrorInvalidValue); /* made up */
    p.conditional.handle = h2; /* another graph's */
    CHECK(cudaGraphAddNode(&n, g, NULL, NULL, 0, &p) == cudaErrorInvalidValue);
    p.conditional = (struct cudaConditionalNodeParams){h, cudaGraphCondTypeIf, 3, NULL};
    CHECK(cudaGraphAddNode(&n, g, NULL, NULL, 0, &p) == cudaErrorInvalidValue);
    p.conditional = (struct cudaConditionalNodeParams){h, cudaGraphCondTypeWhile, 2, NULL};
    CHECK(cudaGraphAddNode(&n, g, NULL, NULL, 0, &p) == cudaErrorInvalidValue);
    p.conditional = (struct cudaConditionalNodeParams){h, cudaGraphCondTypeSwitch, 0, NULL};
    CHECK(cudaGraphAddNode(&n, g, NULL, NULL, 0, &p) == cudaErrorInvalidValue);
    p.conditional = (struct cudaConditionalNodeParams){h, 7, 1, NULL};
    CHECK(cudaGraphAddNode(&n, g, NULL, NULL, 0, &p) == cudaErrorInvalidValue);
    cudaGetLastError();
    cond_node(g, NULL, h, cudaGraphCondTypeIf, 2, body);
    /* a handle may serve several nodes (they test one value) */
    p.conditional = (struct cudaConditionalNodeParams){h, cudaGraphCondTypeIf, 1, NULL};
    CHECK(cudaGraphAddNode(&n, g, NULL, NULL, 0, &p) == cudaSuccess);
    /* a body holds kernel, memcpy, memset, empty, child graph and conditional nodes only */
    struct cudaHostNodeParams hp = {host_fn, NULL};
    CHECK(cudaGraphAddHostNode(&n, body[0], NULL, 0, &hp) == cudaErrorNotSupported);
    cudaEvent_t ev;
    CHECK(cudaEventCreate(&ev) == cudaSuccess);
    CHECK(cudaGraphAddEventRecordNode(&n, body[1], NULL, 0, ev) == cudaErrorNotSupported);
    cudaGetLastError();
    CHECK(cudaGraphAddEmptyNode(&n, body[0], NULL, 0) == cudaSuccess);
    /* a child graph holding a host node cannot go into a body either */
    cudaGraph_t child;
    CHECK(cudaGraphCreate(&child, 0) == cudaSuccess);
    CHECK(cudaGraphAddHostNode(&n, child, NULL, 0, &hp) == cudaSuccess);
    CHECK(cudaGraphAddChildGraphNode(&n, body[1], NULL, 0, child) == cudaErrorNotSupported);
    cudaGetLastError();
    /* nor can a graph with a conditional node become a child graph */
    CHECK(cudaGraphAddChildGraphNode(&n, g2, NULL, 0, g) == cudaErrorNotSupported);
    cudaGetLastError();
    /* a capture into a body refuses a host function and is invalidated */
    cudaStream_t s;
    CHECK(cudaStreamCreate(&s) == cudaSuccess);
    CHECK(cudaStreamBeginCaptureToGraph(s, body[1], NULL, NULL, 0, cudaStreamCaptureModeGlobal) ==
          cudaSuccess);
    CHECK(cudaLaunchHostFunc(s, host_fn, NULL) == cudaErrorStreamCaptureUnsupported);
    cudaGraph_t out = NULL;
    CHECK(cudaStreamEndCapture(s, &out) == cudaErrorStreamCaptureInvalidated);
    cudaGetLastError();
    /* nor can an executable graph holding a host node be launched into it */
    cudaGraphExec_t cx, gx;
    CHECK(cudaGraphInstantiate(&cx, child, 0) == cudaSuccess);
    CHECK(cudaStreamBeginCaptureToGraph(s, body[1], NULL, NULL, 0, cudaStreamCaptureModeGlobal) ==
          cudaSuccess);
    CHECK(cudaGraphLaunch(cx, s) == cudaErrorStreamCaptureUnsupported);
    CHECK(cudaStreamEndCapture(s, &out) == cudaErrorStreamCaptureInvalidated);
    /* and a graph holding conditional nodes launched into a capture cannot
     * become its child graph */
    CHECK(cudaGraphInstantiate(&gx, g, 0) == cudaSuccess);
    CHECK(cudaStreamBeginCapture(s, cudaStreamCaptureModeGlobal) == cudaSuccess);
    CHECK(cudaGraphLaunch(gx, s) == cudaErrorNotSupported);
    CHECK(cudaStreamEndCapture(s, &out) == cudaErrorStreamCaptureInvalidated);
    cudaGetLastError();
    CHECK(cudaGraphExecDestroy(cx) == cudaSuccess);
    CHECK(cudaGraphExecDestroy(gx) == cudaSuccess);
    CHECK(cudaStreamDestroy(s) == cudaSuccess);
    /* programmatic edges are not supported */
    cudaGraphEdgeData ed = {0, 0, cudaGraphDependencyTypeProgrammatic, {0}};
    cudaGraphNode_t e1, e2;
    CHECK(cudaGraphAddEmptyNode(&e1, g2, NULL, 0) == cudaSuccess);
    struct cudaGraphNodeParams ep = {.type = cudaGraphNodeTypeEmpty};
    CHECK(cudaGraphAddNode(&e2, g2, &e1, &ed, 1, &ep) == cudaErrorNotSupported);
    cudaGetLastError();
    CHECK(cudaGraphAddNode(&e2, g2, &e1, NULL, 1, &ep) == cudaSuccess);
    CHECK(cudaGraphDestroy(child) == cudaSuccess);
    CHECK(cudaEventDestroy(ev) == cudaSuccess);
    CHECK(cudaGraphDestroy(g) == cudaSuccess);
    CHECK(cudaGraphDestroy(g2) == cudaSuccess);
}

static int host_count;
static void host_inc(void *p) { host_count += (int)(intptr_t)p; }

/* Every other node type through cudaGraphAddNode. */
static void test_add_node_generic(void)
{
    unsigned *d;
    CHECK(cudaMalloc((void **)&d, 256) == cudaSuccess);
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
    cudaGraphNode_t n[12];
    struct cudaGraphNodeParams p;
    /* memset d[0..63] = 2 */
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemset;
    p.memset = (struct cudaMemsetParamsV2){d, 0, 2, 4, 64, 1};
    CHECK(cudaGraphAddNode(&n[0], g, NULL, NULL, 0, &p) == cudaSuccess);
    /* kernel: d[0] += 5 */
    unsigned five = 5;
    void *args[] = {&d, &five};
    n[1] = kernel_node(g, n[0], &host_add, args);
    /* memcpy d[0] -> d[1] */
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemcpy;
    p.memcpy.copyParams.srcPtr = (struct cudaPitchedPtr){d, 4, 1, 1};
    p.memcpy.copyParams.dstPtr = (struct cudaPitchedPtr){d + 1, 4, 1, 1};
    p.memcpy.copyParams.extent = (struct cudaExtent){4, 1, 1};
    p.memcpy.copyParams.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaGraphAddNode(&n[2], g, &n[1], NULL, 1, &p) == cudaSuccess);
    /* host, empty */
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeHost;
    p.host = (struct cudaHostNodeParamsV2){host_inc, (void *)3};
    CHECK(cudaGraphAddNode(&n[3], g, &n[2], NULL, 1, &p) == cudaSuccess);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeEmpty;
    CHECK(cudaGraphAddNode(&n[4], g, &n[3], NULL, 1, &p) == cudaSuccess);
    /* event record and wait */
    cudaEvent_t ev;
    CHECK(cudaEventCreate(&ev) == cudaSuccess);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeEventRecord;
    p.eventRecord.event = ev;
    CHECK(cudaGraphAddNode(&n[5], g, &n[4], NULL, 1, &p) == cudaSuccess);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeWaitEvent;
    p.eventWait.event = ev;
    CHECK(cudaGraphAddNode(&n[6], g, &n[5], NULL, 1, &p) == cudaSuccess);
    /* a graph allocation, a kernel on it, a copy out of it, its free */
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemAlloc;
    p.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
    p.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
    p.alloc.bytesize = 64;
    CHECK(cudaGraphAddNode(&n[7], g, &n[6], NULL, 1, &p) == cudaSuccess);
    unsigned *ga = p.alloc.dptr;
    CHECK(ga != NULL);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemset;
    p.memset = (struct cudaMemsetParamsV2){ga, 0, 40, 4, 1, 1};
    cudaGraphNode_t ms;
    CHECK(cudaGraphAddNode(&ms, g, &n[7], NULL, 1, &p) == cudaSuccess);
    void *gargs[] = {&ga, &five};
    n[8] = kernel_node(g, ms, &host_add, gargs);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemcpy;
    p.memcpy.copyParams.srcPtr = (struct cudaPitchedPtr){ga, 4, 1, 1};
    p.memcpy.copyParams.dstPtr = (struct cudaPitchedPtr){d + 2, 4, 1, 1};
    p.memcpy.copyParams.extent = (struct cudaExtent){4, 1, 1};
    p.memcpy.copyParams.kind = cudaMemcpyDeviceToDevice;
    CHECK(cudaGraphAddNode(&n[9], g, &n[8], NULL, 1, &p) == cudaSuccess);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemFree;
    p.free.dptr = ga;
    CHECK(cudaGraphAddNode(&n[10], g, &n[9], NULL, 1, &p) == cudaSuccess);
    /* a child graph, cloned: d[3] += 5 */
    cudaGraph_t child;
    CHECK(cudaGraphCreate(&child, 0) == cudaSuccess);
    unsigned *d3 = d + 3;
    void *cargs[] = {&d3, &five};
    kernel_node(child, NULL, &host_add, cargs);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeGraph;
    p.graph = (struct cudaChildGraphNodeParams){child, cudaGraphChildGraphOwnershipClone};
    CHECK(cudaGraphAddNode(&n[11], g, &n[10], NULL, 1, &p) == cudaSuccess);
    int type = -1;
    for (int i = 0; i < 12; i++) {
        static const int want[12] = {
            cudaGraphNodeTypeMemset,      cudaGraphNodeTypeKernel,     cudaGraphNodeTypeMemcpy,
            cudaGraphNodeTypeHost,        cudaGraphNodeTypeEmpty,      cudaGraphNodeTypeEventRecord,
            cudaGraphNodeTypeWaitEvent,   cudaGraphNodeTypeMemAlloc,   cudaGraphNodeTypeKernel,
            cudaGraphNodeTypeMemcpy,      cudaGraphNodeTypeMemFree,    cudaGraphNodeTypeGraph};
        CHECK(cudaGraphNodeGetType(n[i], &type) == cudaSuccess);
        CHECK_EQ_INT(type, want[i]);
    }
    /* refused: external semaphores, a made-up type, reserved fields */
    memset(&p, 0, sizeof p);
    cudaGraphNode_t bad;
    p.type = cudaGraphNodeTypeExtSemaphoreSignal;
    CHECK(cudaGraphAddNode(&bad, g, NULL, NULL, 0, &p) == cudaErrorNotSupported);
    p.type = 99;
    CHECK(cudaGraphAddNode(&bad, g, NULL, NULL, 0, &p) == cudaErrorInvalidValue);
    p.type = cudaGraphNodeTypeEmpty;
    p.reserved2 = 1;
    CHECK(cudaGraphAddNode(&bad, g, NULL, NULL, 0, &p) == cudaErrorInvalidValue);
    CHECK(cudaGraphAddNode(&bad, g, NULL, NULL, 0, NULL) == cudaErrorInvalidValue);
    cudaGetLastError();
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
    host_count = 0;
    for (int round = 1; round <= 2; round++) {
        CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
        unsigned h[4];
        CHECK(cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost) == cudaSuccess);
        CHECK_EQ_U64(h[0], 7);
        CHECK_EQ_U64(h[1], 7);
        CHECK_EQ_U64(h[2], 45);
        CHECK_EQ_U64(h[3], 7); /* the memset wrote 2 again */
        CHECK_EQ_INT(host_count, 3 * round);
    }
    CHECK(cudaEventQuery(ev) == cudaSuccess);
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphDestroy(g) == cudaSuccess);

    /* a graph with memory nodes moved into its child graph node */
    cudaGraph_t mg, outer;
    CHECK(cudaGraphCreate(&mg, 0) == cudaSuccess);
    CHECK(cudaGraphCreate(&outer, 0) == cudaSuccess);
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemAlloc;
    p.alloc.poolProps.allocType = cudaMemAllocationTypePinned;
    p.alloc.poolProps.location.type = cudaMemLocationTypeDevice;
    p.alloc.bytesize = 64;
    cudaGraphNode_t an, mn;
    CHECK(cudaGraphAddNode(&an, mg, NULL, NULL, 0, &p) == cudaSuccess);
    ga = p.alloc.dptr;
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeMemset;
    p.memset = (struct cudaMemsetParamsV2){ga, 0, 9, 4, 1, 1};
    CHECK(cudaGraphAddNode(&mn, mg, &an, NULL, 1, &p) == cudaSuccess);
    /* cloning it is refused; moving it is not */
    CHECK(cudaGraphAddChildGraphNode(&bad, outer, NULL, 0, mg) == cudaErrorNotSupported);
    cudaGetLastError();
    memset(&p, 0, sizeof p);
    p.type = cudaGraphNodeTypeGraph;
    p.graph = (struct cudaChildGraphNodeParams){mg, cudaGraphChildGraphOwnershipMove};
    cudaGraphNode_t cn;
    CHECK(cudaGraphAddNode(&cn, outer, NULL, NULL, 0, &p) == cudaSuccess);
    cudaGraph_t got = NULL;
    CHECK(cudaGraphChildGraphNodeGetGraph(cn, &got) == cudaSuccess && got == mg);
    CHECK(cudaGraphDestroy(mg) == cudaErrorInvalidValue); /* the node's now */
    cudaGetLastError();
    CHECK(cudaGraphInstantiate(&x, outer, cudaGraphInstantiateFlagAutoFreeOnLaunch) ==
          cudaSuccess);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK_EQ_U64(get_u32(ga), 9);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess); /* the last allocation freed first */
    CHECK_EQ_U64(get_u32(ga), 9);
    CHECK(cudaFree(ga) == cudaSuccess);
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphDestroy(outer) == cudaSuccess);
    CHECK(cudaGraphDestroy(child) == cudaSuccess);
    CHECK(cudaEventDestroy(ev) == cudaSuccess);
    CHECK(cudaDeviceGraphMemTrim(0) == cudaSuccess);
    cudaFree(d);
}

static uint64_t attr(int a)
{
    uint64_t v = ~0ull;
    CHECK(cudaDeviceGetGraphMemAttribute(0, a, &v) == cudaSuccess);
    return v;
}

/* A graph allocating `bytes` and, if with_free, freeing it. */
static cudaGraphExec_t alloc_graph(size_t bytes, int with_free, void **ptr)
{
    cudaGraph_t g;
    CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
    struct cudaMemAllocNodeParams p;
    memset(&p, 0, sizeof p);
    p.poolProps.allocType = cudaMemAllocationTypePinned;
    p.poolProps.location.type = cudaMemLocationTypeDevice;
    p.bytesize = bytes;
    cudaGraphNode_t a, f;
    CHECK(cudaGraphAddMemAllocNode(&a, g, NULL, 0, &p) == cudaSuccess);
    if (with_free)
        CHECK(cudaGraphAddMemFreeNode(&f, g, &a, 1, p.dptr) == cudaSuccess);
    *ptr = p.dptr;
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
    CHECK(cudaGraphDestroy(g) == cudaSuccess);
    return x;
}

/* The footprint: physical memory stays with the graph allocator, mapped
 * behind a graph's addresses, until cudaDeviceGraphMemTrim; graphs whose
 * allocations are not live at once share it. */
static void test_footprint(void)
{
    CHECK(cudaDeviceGraphMemTrim(0) == cudaSuccess);
    uint64_t zero = 0;
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero) == cudaSuccess);
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero) ==
          cudaSuccess);
    CHECK_EQ_U64(attr(cudaGraphMemAttrUsedMemCurrent), 0);
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemCurrent), 0);
    CHECK_EQ_U64(attr(cudaGraphMemAttrUsedMemHigh), 0);
    size_t free0, total;
    CHECK(cudaMemGetInfo(&free0, &total) == cudaSuccess);
    void *pa, *pb, *pc;
    cudaGraphExec_t a = alloc_graph(1000, 1, &pa), b = alloc_graph(1000, 1, &pb);
    CHECK(pa != pb); /* addresses are each graph's own */
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemCurrent), 0); /* nothing until a launch */
    CHECK(cudaGraphLaunch(a, NULL) == cudaSuccess);
    /* freed, but still mapped behind a's address: both stay */
    CHECK_EQ_U64(attr(cudaGraphMemAttrUsedMemCurrent), 1024);
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemCurrent), 1024);
    size_t free1;
    CHECK(cudaMemGetInfo(&free1, &total) == cudaSuccess);
    CHECK_EQ_U64(free0 - free1, 1024);
    /* b reuses that physical memory: nothing more */
    CHECK(cudaGraphLaunch(b, NULL) == cudaSuccess);
    CHECK(cudaGraphLaunch(a, NULL) == cudaSuccess);
    CHECK_EQ_U64(attr(cudaGraphMemAttrUsedMemCurrent), 1024);
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemCurrent), 1024);
    /* an allocation left live needs memory of its own */
    cudaGraphExec_t c = alloc_graph(3000, 0, &pc);
    CHECK(cudaGraphLaunch(c, NULL) == cudaSuccess);
    CHECK_EQ_U64(attr(cudaGraphMemAttrUsedMemCurrent), 3072);
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemCurrent), 3072);
    /* a trim cannot take the live allocation's memory */
    CHECK(cudaDeviceGraphMemTrim(0) == cudaSuccess);
    CHECK_EQ_U64(attr(cudaGraphMemAttrUsedMemCurrent), 3072);
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemCurrent), 3072);
    /* freed: its memory stays until a trim, and the others use it */
    CHECK(cudaFree(pc) == cudaSuccess);
    CHECK_EQ_U64(attr(cudaGraphMemAttrUsedMemCurrent), 3072);
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemCurrent), 3072);
    CHECK(cudaGraphLaunch(a, NULL) == cudaSuccess);
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemCurrent), 3072);
    CHECK_EQ_U64(attr(cudaGraphMemAttrUsedMemHigh), 3072);
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemHigh), 3072);
    CHECK(cudaDeviceGraphMemTrim(0) == cudaSuccess);
    CHECK_EQ_U64(attr(cudaGraphMemAttrUsedMemCurrent), 0);
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemCurrent), 0);
    CHECK(cudaMemGetInfo(&free1, &total) == cudaSuccess);
    CHECK_EQ_U64(free1, free0);
    /* the high marks stay until reset, and restart from the current amount */
    CHECK_EQ_U64(attr(cudaGraphMemAttrUsedMemHigh), 3072);
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero) == cudaSuccess);
    CHECK_EQ_U64(attr(cudaGraphMemAttrUsedMemHigh), 0);
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemHigh), 3072);
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &zero) ==
          cudaSuccess);
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemHigh), 0);
    /* only the high marks can be set, and only to 0 */
    uint64_t v = 5;
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &v) ==
          cudaErrorInvalidValue);
    CHECK(cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero) ==
          cudaErrorInvalidValue);
    CHECK(cudaDeviceGetGraphMemAttribute(0, 9, &v) == cudaErrorInvalidValue);
    cudaGetLastError();
    /* the graph destroyed: its memory stays reserved, mapped behind nothing */
    CHECK(cudaGraphLaunch(b, NULL) == cudaSuccess);
    CHECK(cudaGraphExecDestroy(b) == cudaSuccess);
    CHECK_EQ_U64(attr(cudaGraphMemAttrUsedMemCurrent), 0);
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemCurrent), 1024);
    CHECK(cudaGraphLaunch(a, NULL) == cudaSuccess); /* and is used again */
    CHECK_EQ_U64(attr(cudaGraphMemAttrUsedMemCurrent), 1024);
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemCurrent), 1024);
    CHECK(cudaGraphExecDestroy(a) == cudaSuccess);
    CHECK(cudaGraphExecDestroy(c) == cudaSuccess);
    CHECK(cudaDeviceGraphMemTrim(0) == cudaSuccess);
    CHECK_EQ_U64(attr(cudaGraphMemAttrReservedMemCurrent), 0);
}

/* A kernel passing a made-up handle faults (a sticky error). */
static void test_bad_handle_in_kernel(void)
{
    unsigned long long h = 0x1234;
    unsigned v = 1;
    void *args[] = {&h, &v};
    CHECK(cudaLaunchKernel(&host_setc, one, one, args, 0, NULL) == cudaSuccess);
    CHECK(cudaDeviceSynchronize() == cudaErrorIllegalAddress);
    CHECK(cudaDeviceReset() == cudaSuccess);
    /* handles work after the reset, and one set by a kernel outside any
     * graph is read by the graph's next launch */
    unsigned *d;
    CHECK(cudaMalloc((void **)&d, 8) == cudaSuccess);
    set_u32(d, 0);
    cudaGraph_t g, body[1];
    CHECK(cudaGraphCreate(&g, 0) == cudaSuccess);
    CHECK(cudaGraphConditionalHandleCreate(&h, g, 0, 0) == cudaSuccess);
    cond_node(g, NULL, h, cudaGraphCondTypeWhile, 1, body);
    void *dargs[] = {&d, &h};
    kernel_node(body[0], NULL, &host_dec, dargs);
    cudaGraphExec_t x;
    CHECK(cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
    set_u32(d, 4);
    CHECK(cudaLaunchKernel(&host_setc, one, one, args, 0, NULL) == cudaSuccess);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess);
    CHECK_EQ_U64(get_u32(d), 0);
    CHECK(cudaGraphLaunch(x, NULL) == cudaSuccess); /* the body left it 0: no round */
    CHECK_EQ_U64(get_u32(d), 0);
    CHECK(cudaGraphExecDestroy(x) == cudaSuccess);
    CHECK(cudaGraphDestroy(g) == cudaSuccess);
    cudaFree(d);
}

int main(void)
{
    RUN(register_kernels);
    RUN(test_if);
    RUN(test_while);
    RUN(test_switch_and_nesting);
    RUN(test_cond_errors);
    RUN(test_add_node_generic);
    RUN(test_footprint);
    RUN(test_bad_handle_in_kernel);
    return test_summary();
}
