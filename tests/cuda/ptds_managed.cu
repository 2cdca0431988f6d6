// ptds_managed.cu -- built with --default-stream per-thread (tests/cuda/run.sh):
// the per-thread default stream as the null stream of every _ptsz entry point
// (waiting on an event, capture into a graph, one stream id per host thread),
// __managed__ variables with one address for host and device (a kernel given
// the host's pointer, cudaPointerGetAttributes, symbol copies and
// cudaGetSymbolAddress), cudaHostGetFlags, the PCI bus id round trip and peer
// access on a one-device machine.  Prints PASS or the first failing check.
#include <cstdio>
#include <thread>

__managed__ int m_val[4] = {1, 2, 3, 4};
__managed__ int m_count;

__global__ void add(int *p, int k) { p[threadIdx.x] += k; }
__global__ void count() { atomicAdd(&m_count, 1); }

static int failures;
#define CHECK(what, cond)                                                       \
    do {                                                                        \
        if (!(cond)) {                                                          \
            printf("FAIL %s (line %d)\n", what, __LINE__);                      \
            failures++;                                                         \
        }                                                                       \
    } while (0)

int main()
{
    // the per-thread stream waits on an event and can be captured
    cudaEvent_t ev;
    CHECK("event", cudaEventCreate(&ev) == cudaSuccess);
    CHECK("record", cudaEventRecord(ev, 0) == cudaSuccess);
    CHECK("wait event on stream 0", cudaStreamWaitEvent(0, ev, 0) == cudaSuccess);
    int *d;
    CHECK("malloc", cudaMalloc(&d, sizeof(int)) == cudaSuccess);
    CHECK("memset", cudaMemset(d, 0, sizeof(int)) == cudaSuccess);
    CHECK("begin capture", cudaStreamBeginCapture(cudaStreamPerThread,
                                                  cudaStreamCaptureModeGlobal) == cudaSuccess);
    add<<<1, 1, 0, cudaStreamPerThread>>>(d, 1);
    cudaGraph_t g;
    CHECK("end capture", cudaStreamEndCapture(cudaStreamPerThread, &g) == cudaSuccess);
    cudaGraphExec_t x;
    CHECK("instantiate", cudaGraphInstantiate(&x, g, 0) == cudaSuccess);
    CHECK("launch 1", cudaGraphLaunch(x, 0) == cudaSuccess);
    CHECK("launch 2", cudaGraphLaunch(x, 0) == cudaSuccess);
    int v = 0;
    CHECK("copy", cudaMemcpy(&v, d, sizeof v, cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK("the captured graph ran twice", v == 2);
    CHECK("the legacy stream cannot be captured",
          cudaStreamBeginCapture(cudaStreamLegacy, cudaStreamCaptureModeGlobal) ==
              cudaErrorStreamCaptureUnsupported);
    cudaGetLastError();
    unsigned long long id0 = 0, id1 = 0, other = 0;
    CHECK("id", cudaStreamGetId(0, &id0) == cudaSuccess);
    CHECK("id", cudaStreamGetId(cudaStreamPerThread, &id1) == cudaSuccess);
    CHECK("stream 0 is the per-thread stream", id0 == id1);
    std::thread t([&] { cudaStreamGetId(0, &other); });
    t.join();
    CHECK("another thread has its own per-thread stream", other != id0);

    // __managed__ variables: one address on both sides
    add<<<1, 4>>>(m_val, 100);
    CHECK("kernel on the host's pointer", cudaDeviceSynchronize() == cudaSuccess);
    CHECK("values", m_val[0] == 101 && m_val[3] == 104);
    cudaPointerAttributes a;
    CHECK("attributes", cudaPointerGetAttributes(&a, m_val + 1) == cudaSuccess);
    CHECK("managed type", a.type == cudaMemoryTypeManaged);
    count<<<3, 5>>>();
    CHECK("sync", cudaDeviceSynchronize() == cudaSuccess);
    int c = 0;
    CHECK("from symbol", cudaMemcpyFromSymbol(&c, m_count, sizeof c) == cudaSuccess);
    CHECK("count", c == 15 && m_count == 15);
    void *p = nullptr;
    CHECK("symbol address", cudaGetSymbolAddress(&p, m_count) == cudaSuccess);
    CHECK("the symbol's address is the host's", p == (void *)&m_count);
    int back = 0;
    CHECK("device-to-host from it", cudaMemcpy(&back, m_val + 2, sizeof back,
                                               cudaMemcpyDeviceToHost) == cudaSuccess);
    CHECK("value", back == 103);

    // pinned memory flags, PCI bus id, peers
    void *h;
    unsigned flags = 0;
    CHECK("host alloc", cudaHostAlloc(&h, 4096, cudaHostAllocPortable) == cudaSuccess);
    CHECK("host flags", cudaHostGetFlags(&flags, h) == cudaSuccess);
    CHECK("portable and mapped", flags == (cudaHostAllocPortable | cudaHostAllocMapped));
    cudaFreeHost(h);
    char bus[32];
    int dev = -1;
    CHECK("bus id", cudaDeviceGetPCIBusId(bus, sizeof bus, 0) == cudaSuccess);
    CHECK("by bus id", cudaDeviceGetByPCIBusId(&dev, bus) == cudaSuccess && dev == 0);
    CHECK("another bus", cudaDeviceGetByPCIBusId(&dev, "0000:65:00.0") == cudaErrorInvalidDevice);
    CHECK("no peer", cudaDeviceEnablePeerAccess(0, 0) == cudaErrorInvalidDevice);
    CHECK("not enabled", cudaDeviceDisablePeerAccess(0) == cudaErrorPeerAccessNotEnabled);
    cudaGetLastError();
    if (failures)
        return 1;
    printf("PASS\n");
    return 0;
}
