// spin.cu -- a kernel that never ends, for the limits and the exit paths
// (tests/cuda/robust.sh):
//   spin               launch, synchronize, print the error
//   spin exit-thread   another thread calls exit(0) one second into the launch
//   spin exit-signal   a SIGALRM handler calls exit(0) one second into it
//   spin sleep         print "started", then launch (for signals from outside)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <pthread.h>
#include <signal.h>
#include <unistd.h>

__global__ void spin(volatile int *flag, int *out)
{
    while (*flag)
        out[threadIdx.x]++;
}

static void *exit_later(void *)
{
    sleep(1);
    printf("exiting from a thread\n");
    exit(0);
    return nullptr;
}

static void on_alarm(int) { exit(0); }

int main(int argc, char **argv)
{
    const char *how = argc > 1 ? argv[1] : "";
    int *flag, *out;
    cudaMalloc(&flag, 4);
    cudaMalloc(&out, 256 * 4);
    int one = 1;
    cudaMemcpy(flag, &one, 4, cudaMemcpyHostToDevice);
    pthread_t th;
    if (!strcmp(how, "exit-thread"))
        pthread_create(&th, nullptr, exit_later, nullptr);
    if (!strcmp(how, "exit-signal")) {
        signal(SIGALRM, on_alarm);
        alarm(1);
    }
    if (!strcmp(how, "sleep")) {
        printf("started\n");
        fflush(stdout);
    }
    spin<<<4, 64>>>(flag, out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorName(e));
    return e == cudaSuccess ? 0 : 1;
}
