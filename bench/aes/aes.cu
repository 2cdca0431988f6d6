// aes.cu -- AES-128 encryption in ECB mode, one 16-byte block per thread
// (GPUDet's "AES"), written from FIPS-197.
//
// The host builds the S-box from its definition (multiplicative inverse in
// GF(2^8) followed by the affine map of FIPS-197 section 5.1.1), the four
// round tables T0..T3 (SubBytes, ShiftRows and MixColumns of one column
// folded into table look-ups: T0[x] = (2s, s, s, 3s) for s = S[x], T1..T3
// its byte rotations) and the key schedule (section 5.2).  The tables go to
// __constant__ memory; each block first copies them into shared memory and
// meets at a barrier, because the look-ups are data dependent and constant
// memory serialises lanes that read different addresses.  The round keys
// stay in __constant__ memory (every lane reads the same word).  A thread
// then runs the 10 rounds on its block, the state held as four big-endian
// column words.
//
// Checks: the FIPS-197 Appendix C.1 known answer (key 000102..0f, plaintext
// 00112233..ff -> 69c4e0d86a7b0430d8cdb78070b4c55a), encrypted by the same
// kernel, and a seeded buffer under a seeded key, compared byte for byte
// with a CPU implementation that follows the specification's byte-wise
// steps (SubBytes, ShiftRows, MixColumns with xtime, AddRoundKey) and
// shares nothing with the kernel but the S-box and the key schedule.
#include <vector>

#include "bench.h"

__constant__ uint32_t c_te[4][256];
__constant__ uint32_t c_sbox[256];
__constant__ uint32_t c_rk[44];

// Byte i (0 = most significant) of a big-endian column word.
#define BYTE(w, i) (((w) >> (24 - 8 * (i))) & 0xff)

// Swap the bytes of a word: memory order <-> big-endian column word.
__device__ static inline uint32_t bswap(uint32_t x)
{
    return __byte_perm(x, 0, 0x0123);
}

// Encrypt nblocks 16-byte blocks from in to out (ECB).
__global__ void aes_encrypt(const uint4 *in, uint4 *out, int nblocks)
{
    __shared__ uint32_t te[4][256];
    __shared__ uint32_t sbox[256];
    for (int k = threadIdx.x; k < 256; k += blockDim.x) {
        te[0][k] = c_te[0][k];
        te[1][k] = c_te[1][k];
        te[2][k] = c_te[2][k];
        te[3][k] = c_te[3][k];
        sbox[k] = c_sbox[k];
    }
    __syncthreads();
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= nblocks)
        return;
    uint4 b = in[i];
    uint32_t s0 = bswap(b.x) ^ c_rk[0], s1 = bswap(b.y) ^ c_rk[1];
    uint32_t s2 = bswap(b.z) ^ c_rk[2], s3 = bswap(b.w) ^ c_rk[3];
    // Rounds 1-9: column c of the result takes row r from column c + r
    // (ShiftRows), through table T_r.
    for (int r = 1; r < 10; r++) {
        uint32_t t0 = te[0][BYTE(s0, 0)] ^ te[1][BYTE(s1, 1)] ^ te[2][BYTE(s2, 2)] ^
                      te[3][BYTE(s3, 3)] ^ c_rk[4 * r];
        uint32_t t1 = te[0][BYTE(s1, 0)] ^ te[1][BYTE(s2, 1)] ^ te[2][BYTE(s3, 2)] ^
                      te[3][BYTE(s0, 3)] ^ c_rk[4 * r + 1];
        uint32_t t2 = te[0][BYTE(s2, 0)] ^ te[1][BYTE(s3, 1)] ^ te[2][BYTE(s0, 2)] ^
                      te[3][BYTE(s1, 3)] ^ c_rk[4 * r + 2];
        uint32_t t3 = te[0][BYTE(s3, 0)] ^ te[1][BYTE(s0, 1)] ^ te[2][BYTE(s1, 2)] ^
                      te[3][BYTE(s2, 3)] ^ c_rk[4 * r + 3];
        s0 = t0;
        s1 = t1;
        s2 = t2;
        s3 = t3;
    }
    // Round 10: SubBytes and ShiftRows only.
#define LAST(a, b, c, d)                                                                           \
    ((sbox[BYTE(a, 0)] << 24) | (sbox[BYTE(b, 1)] << 16) | (sbox[BYTE(c, 2)] << 8) |               \
     sbox[BYTE(d, 3)])
    uint4 o;
    o.x = bswap(LAST(s0, s1, s2, s3) ^ c_rk[40]);
    o.y = bswap(LAST(s1, s2, s3, s0) ^ c_rk[41]);
    o.z = bswap(LAST(s2, s3, s0, s1) ^ c_rk[42]);
    o.w = bswap(LAST(s3, s0, s1, s2) ^ c_rk[43]);
#undef LAST
    out[i] = o;
}

// ---- the host side: tables, key schedule, byte-wise reference ----

// Multiplication in GF(2^8) modulo x^8 + x^4 + x^3 + x + 1.
static uint8_t xtime(uint8_t a)
{
    return (uint8_t)((a << 1) ^ (a & 0x80 ? 0x1b : 0));
}
static uint8_t gmul(uint8_t a, uint8_t b)
{
    uint8_t p = 0;
    for (; b; b >>= 1, a = xtime(a))
        if (b & 1)
            p ^= a;
    return p;
}

// The S-box by its definition: b = inverse(x) (0 for 0), then
// b_i ^ b_{i+4} ^ b_{i+5} ^ b_{i+6} ^ b_{i+7} ^ c_i with c = 0x63.
static void make_sbox(uint8_t sbox[256])
{
    for (int x = 0; x < 256; x++) {
        uint8_t inv = 0;
        for (int y = 1; y < 256 && x; y++)
            if (gmul((uint8_t)x, (uint8_t)y) == 1) {
                inv = (uint8_t)y;
                break;
            }
        uint8_t s = 0x63;
        for (int i = 0; i < 8; i++) {
            int bits = inv >> i ^ inv >> ((i + 4) & 7) ^ inv >> ((i + 5) & 7) ^
                       inv >> ((i + 6) & 7) ^ inv >> ((i + 7) & 7);
            s ^= (uint8_t)((bits & 1) << i);
        }
        sbox[x] = s;
    }
}

// KeyExpansion for a 128-bit key: 44 big-endian words.
static void expand_key(const uint8_t key[16], const uint8_t sbox[256], uint32_t w[44])
{
    for (int i = 0; i < 4; i++)
        w[i] = (uint32_t)key[4 * i] << 24 | key[4 * i + 1] << 16 | key[4 * i + 2] << 8 |
               key[4 * i + 3];
    uint8_t rcon = 1;
    for (int i = 4; i < 44; i++) {
        uint32_t t = w[i - 1];
        if (i % 4 == 0) {
            t = t << 8 | t >> 24; // RotWord
            t = (uint32_t)sbox[t >> 24] << 24 | sbox[(t >> 16) & 0xff] << 16 |
                sbox[(t >> 8) & 0xff] << 8 | sbox[t & 0xff]; // SubWord
            t ^= (uint32_t)rcon << 24;
            rcon = xtime(rcon);
        }
        w[i] = w[i - 4] ^ t;
    }
}

// The reference cipher, byte by byte as FIPS-197 section 5.1 writes it;
// state[r + 4c] is row r, column c.
static void cpu_encrypt(const uint8_t in[16], uint8_t out[16], const uint8_t sbox[256],
                        const uint32_t w[44])
{
    uint8_t s[16], t[16];
    auto add_round_key = [&](int round) {
        for (int c = 0; c < 4; c++)
            for (int r = 0; r < 4; r++)
                s[r + 4 * c] ^= (uint8_t)(w[4 * round + c] >> (24 - 8 * r));
    };
    memcpy(s, in, 16);
    add_round_key(0);
    for (int round = 1; round <= 10; round++) {
        for (int k = 0; k < 16; k++) // SubBytes
            s[k] = sbox[s[k]];
        for (int c = 0; c < 4; c++) // ShiftRows: row r moves left by r
            for (int r = 0; r < 4; r++)
                t[r + 4 * c] = s[r + 4 * ((c + r) % 4)];
        memcpy(s, t, 16);
        if (round < 10)
            for (int c = 0; c < 4; c++) { // MixColumns
                uint8_t *a = s + 4 * c, b0 = a[0], b1 = a[1], b2 = a[2], b3 = a[3];
                a[0] = (uint8_t)(xtime(b0) ^ xtime(b1) ^ b1 ^ b2 ^ b3);
                a[1] = (uint8_t)(b0 ^ xtime(b1) ^ xtime(b2) ^ b2 ^ b3);
                a[2] = (uint8_t)(b0 ^ b1 ^ xtime(b2) ^ xtime(b3) ^ b3);
                a[3] = (uint8_t)(xtime(b0) ^ b0 ^ b1 ^ b2 ^ xtime(b3));
            }
        add_round_key(round);
    }
    memcpy(out, s, 16);
}

// Upload the key schedule, encrypt `in` on the GPU, return the ciphertext.
static std::vector<uint8_t> gpu_encrypt(const std::vector<uint8_t> &in, const uint32_t rk[44],
                                        int *launches)
{
    int nblocks = (int)(in.size() / 16);
    std::vector<uint8_t> out(in.size());
    uint4 *d_in, *d_out;
    CUDA_CHECK(cudaMemcpyToSymbol(c_rk, rk, 44 * sizeof(uint32_t)));
    CUDA_CHECK(cudaMalloc(&d_in, in.size()));
    CUDA_CHECK(cudaMalloc(&d_out, in.size()));
    CUDA_CHECK(cudaMemcpy(d_in, in.data(), in.size(), cudaMemcpyHostToDevice));
    const int block = 256;
    aes_encrypt<<<(nblocks + block - 1) / block, block>>>(d_in, d_out, nblocks);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, in.size(), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    ++*launches;
    return out;
}

int main(int argc, char **argv)
{
    bench_args args = bench_parse(argc, argv);
    int nblocks = bench_pick(args, 1 << 16, 1 << 19, 1 << 22);

    uint8_t sbox[256];
    make_sbox(sbox);
    uint32_t te[4][256], sbox32[256];
    for (int x = 0; x < 256; x++) {
        uint32_t s = sbox[x], s2 = xtime((uint8_t)s), s3 = s2 ^ s;
        te[0][x] = s2 << 24 | s << 16 | s << 8 | s3; // column (2s, s, s, 3s)
        for (int r = 1; r < 4; r++)
            te[r][x] = te[r - 1][x] >> 8 | te[r - 1][x] << 24; // rotated down by r rows
        sbox32[x] = s;
    }
    CUDA_CHECK(cudaMemcpyToSymbol(c_te, te, sizeof te));
    CUDA_CHECK(cudaMemcpyToSymbol(c_sbox, sbox32, sizeof sbox32));
    int launches = 0;

    // FIPS-197 Appendix C.1.
    static const uint8_t kat_ct[16] = {0x69, 0xc4, 0xe0, 0xd8, 0x6a, 0x7b, 0x04, 0x30,
                                       0xd8, 0xcd, 0xb7, 0x80, 0x70, 0xb4, 0xc5, 0x5a};
    uint8_t kat_key[16];
    std::vector<uint8_t> kat_pt(16);
    for (int k = 0; k < 16; k++) {
        kat_key[k] = (uint8_t)k;
        kat_pt[k] = (uint8_t)(0x11 * k);
    }
    uint32_t rk[44];
    expand_key(kat_key, sbox, rk);
    std::vector<uint8_t> kat_got = gpu_encrypt(kat_pt, rk, &launches);
    uint8_t kat_cpu[16];
    cpu_encrypt(kat_pt.data(), kat_cpu, sbox, rk);
    bool kat_ok = !memcmp(kat_got.data(), kat_ct, 16) && !memcmp(kat_cpu, kat_ct, 16);

    // A seeded key and buffer.
    bench_rng rng(args.seed);
    uint8_t key[16];
    for (int k = 0; k < 16; k++)
        key[k] = (uint8_t)rng.below(256);
    std::vector<uint8_t> pt((size_t)nblocks * 16);
    for (size_t k = 0; k < pt.size(); k += 8) {
        uint64_t r = rng.next();
        memcpy(&pt[k], &r, 8);
    }
    expand_key(key, sbox, rk);
    std::vector<uint8_t> ct = gpu_encrypt(pt, rk, &launches);
    int wrong = 0;
    for (int i = 0; i < nblocks; i++) {
        uint8_t want[16];
        cpu_encrypt(&pt[16 * (size_t)i], want, sbox, rk);
        wrong += memcmp(want, &ct[16 * (size_t)i], 16) != 0;
    }

    printf("aes: AES-128 ECB, %d blocks (%d KiB), %d launches; FIPS-197 C.1 %s\n", nblocks,
           nblocks / 64, launches, kat_ok ? "ok" : "WRONG");
    printf("aes: %d blocks differ from the CPU reference\n", wrong);
    uint64_t h = bench_hash(kat_got.data(), 16);
    h = bench_hash(ct.data(), ct.size(), h);
    return bench_result(kat_ok && wrong == 0, h);
}
