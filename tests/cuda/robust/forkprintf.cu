// forkprintf.cu -- device printf output still pending when the program
// forks: the child must not print it again (nor write statistics).
#include <cstdio>
#include <cstdlib>
#include <sys/wait.h>
#include <unistd.h>

__global__ void hello() { printf("hello from thread %d\n", threadIdx.x); }

int main()
{
    hello<<<1, 2>>>();
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0)
        exit(0); /* runs the exit handlers of the child */
    int st;
    waitpid(pid, &st, 0);
    cudaDeviceSynchronize();
    printf("child exited with %d\n", WEXITSTATUS(st));
    return 0;
}
