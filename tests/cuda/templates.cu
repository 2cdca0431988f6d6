/* templates.cu -- C++ templates in device code.
 *
 * A templated kernel (a*x + b*y) instantiated for int, float and double; a
 * templated map kernel taking a templated device functor by value (square,
 * affine with state, clamp), also instantiated for several element types; a
 * block reduction templated on the element type, an operation functor and a
 * non-type block-size parameter (sum, max, min); and a device function
 * template with an explicit specialization.  Each instantiation is a
 * distinct mangled kernel in the module, so the runtime must find each by
 * its host stub.  Inputs are small integers, so every result is exact. */
#include "common.cuh"

#include <limits.h>

template <typename T>
__global__ void axpby(T a, const T *x, T b, const T *y, T *out, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = a * x[i] + b * y[i];
}

template <typename T> struct Square {
    __host__ __device__ T operator()(T v) const { return v * v; }
};

template <typename T> struct Affine {
    T mul, add;
    __host__ __device__ T operator()(T v) const { return v * mul + add; }
};

template <typename T> struct Clamp {
    T lo, hi;
    __host__ __device__ T operator()(T v) const { return v < lo ? lo : (v > hi ? hi : v); }
};

template <typename T, typename F>
__global__ void map(const T *in, T *out, int n, F f)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        out[i] = f(in[i]);
}

struct SumOp {
    template <typename T> __host__ __device__ T operator()(T a, T b) const { return a + b; }
    template <typename T> __host__ __device__ static T identity() { return T(0); }
};
struct MaxOp {
    template <typename T> __host__ __device__ T operator()(T a, T b) const { return a > b ? a : b; }
    template <typename T> __host__ __device__ static T identity() { return T(-1000000); }
};
struct MinOp {
    template <typename T> __host__ __device__ T operator()(T a, T b) const { return a < b ? a : b; }
    template <typename T> __host__ __device__ static T identity() { return T(1000000); }
};

/* One partial result per block; BLOCK is a compile-time block size. */
template <typename T, typename Op, int BLOCK>
__global__ void reduce(const T *in, T *partial, int n)
{
    __shared__ T s[BLOCK];
    Op op;
    T acc = Op::template identity<T>();
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK)
        acc = op(acc, in[i]);
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
        if (threadIdx.x < stride)
            s[threadIdx.x] = op(s[threadIdx.x], s[threadIdx.x + stride]);
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = s[0];
}

/* A device function template and its specialization for double. */
template <typename T> __device__ T tag_value(T v) { return v + T(1); }
template <> __device__ double tag_value<double>(double v) { return v * 2.0; }

template <typename T>
__global__ void apply_tag(T *v, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] = tag_value(v[i]);
}

template <typename T> static T *to_device(const T *h, int n)
{
    T *d;
    CHECK(cudaMalloc(&d, n * sizeof(T)));
    CHECK(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

template <typename T> static void from_device(T *h, const T *d, int n)
{
    CHECK(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
}

/* The axpby and map checks for one element type. */
template <typename T> static void test_type(const char *tname, int n)
{
    T *x = new T[n], *y = new T[n], *ref = new T[n], *got = new T[n];
    for (int i = 0; i < n; i++) {
        x[i] = T(i % 50 - 25);
        y[i] = T((i * 7) % 30);
    }
    T *dx = to_device(x, n), *dy = to_device(y, n), *dout;
    CHECK(cudaMalloc(&dout, n * sizeof(T)));
    char what[128];

    T a = T(3), b = T(-2);
    for (int i = 0; i < n; i++)
        ref[i] = a * x[i] + b * y[i];
    axpby<T><<<(n + 127) / 128, 128>>>(a, dx, b, dy, dout, n);
    CHECK_LAUNCH();
    from_device(got, dout, n);
    snprintf(what, sizeof what, "axpby<%s>", tname);
    check_array_near(what, ref, got, n, 0.0);

    Square<T> sq;
    for (int i = 0; i < n; i++)
        ref[i] = sq(x[i]);
    map<<<7, 64>>>(dx, dout, n, sq);
    CHECK_LAUNCH();
    from_device(got, dout, n);
    snprintf(what, sizeof what, "map<%s, Square> (grid-stride)", tname);
    check_array_near(what, ref, got, n, 0.0);

    Affine<T> af = {T(5), T(-7)};
    for (int i = 0; i < n; i++)
        ref[i] = af(y[i]);
    map<<<(n + 255) / 256, 256>>>(dy, dout, n, af);
    CHECK_LAUNCH();
    from_device(got, dout, n);
    snprintf(what, sizeof what, "map<%s, Affine> (functor state by value)", tname);
    check_array_near(what, ref, got, n, 0.0);

    Clamp<T> cl = {T(-10), T(10)};
    for (int i = 0; i < n; i++)
        ref[i] = cl(x[i]);
    map<<<3, 32>>>(dx, dout, n, cl);
    CHECK_LAUNCH();
    from_device(got, dout, n);
    snprintf(what, sizeof what, "map<%s, Clamp>", tname);
    check_array_near(what, ref, got, n, 0.0);

    for (int i = 0; i < n; i++)
        ref[i] = (sizeof(T) == 8 && T(0.5) != T(0)) ? x[i] * T(2) : x[i] + T(1);
    CHECK(cudaMemcpy(dout, dx, n * sizeof(T), cudaMemcpyDeviceToDevice));
    apply_tag<T><<<(n + 99) / 100, 100>>>(dout, n);
    CHECK_LAUNCH();
    from_device(got, dout, n);
    snprintf(what, sizeof what, "device function template (specialized for double) on %s",
             tname);
    check_array_near(what, ref, got, n, 0.0);

    CHECK(cudaFree(dx));
    CHECK(cudaFree(dy));
    CHECK(cudaFree(dout));
    delete[] x;
    delete[] y;
    delete[] ref;
    delete[] got;
}

/* A two-pass reduction for one (type, op, block) instantiation. */
template <typename T, typename Op, int BLOCK>
static void test_reduce(const char *what, int n)
{
    T *h = new T[n];
    for (int i = 0; i < n; i++)
        h[i] = T((i * 37) % 201 - 100);
    Op op;
    T ref = Op::template identity<T>();
    for (int i = 0; i < n; i++)
        ref = op(ref, h[i]);
    const int blocks = 24;
    T *din = to_device(h, n), *dpart, *dres;
    CHECK(cudaMalloc(&dpart, blocks * sizeof(T)));
    CHECK(cudaMalloc(&dres, sizeof(T)));
    reduce<T, Op, BLOCK><<<blocks, BLOCK>>>(din, dpart, n);
    CHECK_LAUNCH();
    reduce<T, Op, BLOCK><<<1, BLOCK>>>(dpart, dres, blocks);
    CHECK_LAUNCH();
    T got;
    from_device(&got, dres, 1);
    check_array_near(what, &ref, &got, 1, 0.0);
    CHECK(cudaFree(din));
    CHECK(cudaFree(dpart));
    CHECK(cudaFree(dres));
    delete[] h;
}

int main(void)
{
    test_type<int>("int", 3001);
    test_type<float>("float", 2500);
    test_type<double>("double", 1777);
    test_type<long long>("long long", 999);

    test_reduce<int, SumOp, 128>("reduce<int, SumOp, 128>", 20000);
    test_reduce<float, SumOp, 256>("reduce<float, SumOp, 256>", 20000);
    test_reduce<double, SumOp, 64>("reduce<double, SumOp, 64>", 20000);
    test_reduce<int, MaxOp, 32>("reduce<int, MaxOp, 32>", 9999);
    test_reduce<double, MinOp, 512>("reduce<double, MinOp, 512>", 9999);
    test_reduce<float, MaxOp, 1024>("reduce<float, MaxOp, 1024>", 5000);
    return finish();
}
