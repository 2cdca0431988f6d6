/* events.cu -- timing and ordering with CUDA events.
 *
 * A two-stage workload (a producer kernel on one non-blocking stream, a
 * consumer kernel on another) is ordered only by an event: cudaEventRecord on
 * the producer's stream and cudaStreamWaitEvent on the consumer's.  Around it
 * the program times kernels with events from cudaEventCreate and
 * cudaEventCreateWithFlags (default, cudaEventDisableTiming,
 * cudaEventBlockingSync), records on named streams and on stream 0, waits
 * with cudaEventSynchronize, asks cudaEventQuery (cudaSuccess once complete,
 * and for an event never recorded), reads cudaEventElapsedTime (only checked
 * to be finite and not negative: lockstep's clock is simulated) and destroys
 * everything with cudaEventDestroy. */
#include "common.cuh"

/* v[i] = sum over k < i % 64 of (k * k + i): a little work per element. */
__global__ void produce(int *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        int s = 0;
        for (int k = 0; k < i % 64; k++)
            s += k * k + i;
        v[i] = s;
    }
}

/* out[i] = v[i] - v[n - 1 - i]: reads elements other blocks produced. */
__global__ void consume(const int *v, int *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = v[i] - v[n - 1 - i];
}

static int produce_host(int i)
{
    int s = 0;
    for (int k = 0; k < i % 64; k++)
        s += k * k + i;
    return s;
}

static bool ms_ok(float ms) { return isfinite(ms) && ms >= 0.0f; }

int main(void)
{
    const int n = 20000;
    const int block = 160;
    const int grid = (n + block - 1) / block;

    int *dv, *dout, *hout = (int *)malloc(n * sizeof(int)), *ref = (int *)malloc(n * sizeof(int));
    CHECK(cudaMalloc(&dv, n * sizeof(int)));
    CHECK(cudaMalloc(&dout, n * sizeof(int)));
    for (int i = 0; i < n; i++)
        ref[i] = produce_host(i) - produce_host(n - 1 - i);

    cudaEvent_t start, stop, ready, blocking;
    CHECK(cudaEventCreate(&start));
    CHECK(cudaEventCreate(&stop));
    CHECK(cudaEventCreateWithFlags(&ready, cudaEventDisableTiming));
    CHECK(cudaEventCreateWithFlags(&blocking, cudaEventBlockingSync));

    check_err("cudaEventQuery of an event never recorded", cudaSuccess, cudaEventQuery(ready));

    cudaStream_t sp, sc;
    CHECK(cudaStreamCreateWithFlags(&sp, cudaStreamNonBlocking));
    CHECK(cudaStreamCreateWithFlags(&sc, cudaStreamNonBlocking));

    /* Producer / consumer ordered by an event only. */
    CHECK(cudaMemsetAsync(dout, 0, n * sizeof(int), sc));
    CHECK(cudaEventRecord(start, sp));
    produce<<<grid, block, 0, sp>>>(dv, n);
    CHECK_LAUNCH();
    CHECK(cudaEventRecord(ready, sp));
    CHECK(cudaStreamWaitEvent(sc, ready, 0));
    consume<<<grid, block, 0, sc>>>(dv, dout, n);
    CHECK_LAUNCH();
    CHECK(cudaEventRecord(stop, sc));
    CHECK(cudaEventSynchronize(stop));
    check_err("cudaEventQuery after cudaEventSynchronize", cudaSuccess, cudaEventQuery(stop));
    check_err("cudaEventQuery of the cross-stream event", cudaSuccess, cudaEventQuery(ready));
    CHECK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
    check_array_exact("producer/consumer ordered by cudaStreamWaitEvent", ref, hout, n);

    float ms = -1.0f;
    CHECK(cudaEventElapsedTime(&ms, start, stop));
    check_true("cudaEventElapsedTime across two streams is finite and >= 0", ms_ok(ms));

    /* Timing a sequence of launches on the default stream, event by event. */
    {
        cudaEvent_t marks[5];
        for (int k = 0; k < 5; k++)
            CHECK(cudaEventCreate(&marks[k]));
        CHECK(cudaEventRecord(marks[0], 0));
        for (int k = 1; k < 5; k++) {
            produce<<<grid, block>>>(dv, n);
            CHECK_LAUNCH();
            CHECK(cudaEventRecord(marks[k])); /* stream defaults to 0 */
        }
        CHECK(cudaEventSynchronize(marks[4]));
        bool ok = true;
        for (int k = 1; k < 5; k++) {
            float t = -1.0f;
            CHECK(cudaEventElapsedTime(&t, marks[k - 1], marks[k]));
            ok = ok && ms_ok(t);
            CHECK(cudaEventElapsedTime(&t, marks[0], marks[k]));
            ok = ok && ms_ok(t);
        }
        check_true("cudaEventElapsedTime between consecutive default-stream events", ok);
        for (int k = 0; k < 5; k++)
            check_err("cudaEventQuery of a completed marker", cudaSuccess,
                      cudaEventQuery(marks[k]));
        for (int k = 0; k < 5; k++)
            CHECK(cudaEventDestroy(marks[k]));
    }

    /* Re-recording one pair of events in a loop; a blocking-sync event. */
    {
        bool ok = true;
        for (int it = 0; it < 3; it++) {
            CHECK(cudaEventRecord(start, sc));
            consume<<<grid, block, 0, sc>>>(dv, dout, n);
            CHECK_LAUNCH();
            CHECK(cudaEventRecord(stop, sc));
            CHECK(cudaEventRecord(blocking, sc));
            CHECK(cudaEventSynchronize(blocking));
            cudaError_t q = cudaEventQuery(stop);
            ok = ok && q == cudaSuccess;
            float t = -1.0f;
            CHECK(cudaEventElapsedTime(&t, start, stop));
            ok = ok && ms_ok(t);
        }
        check_true("re-recorded events: query and elapsed time each time", ok);
        CHECK(cudaMemcpy(hout, dout, n * sizeof(int), cudaMemcpyDeviceToHost));
        check_array_exact("consumer result after re-recorded events", ref, hout, n);
    }

    /* A query right after recording behind work may say either answer. */
    {
        produce<<<grid, block, 0, sp>>>(dv, n);
        CHECK_LAUNCH();
        CHECK(cudaEventRecord(ready, sp));
        cudaError_t q = cudaEventQuery(ready);
        check_true("cudaEventQuery on pending work is cudaSuccess or cudaErrorNotReady",
                   q == cudaSuccess || q == cudaErrorNotReady, cudaGetErrorName(q));
        CHECK(cudaEventSynchronize(ready));
        check_err("cudaEventQuery after it completed", cudaSuccess, cudaEventQuery(ready));
        /* Clear a possible cudaErrorNotReady so later checks start clean. */
        (void)cudaGetLastError();
    }

    CHECK(cudaEventDestroy(start));
    CHECK(cudaEventDestroy(stop));
    CHECK(cudaEventDestroy(ready));
    CHECK(cudaEventDestroy(blocking));
    CHECK(cudaStreamDestroy(sp));
    CHECK(cudaStreamDestroy(sc));
    CHECK(cudaFree(dv));
    CHECK(cudaFree(dout));
    free(hout);
    free(ref);
    return finish();
}
