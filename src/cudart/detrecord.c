/*
 * detrecord.c -- one run as `lockstep detcheck` sees it (docs/DETERMINISM.md).
 *
 * With LOCKSTEP_DET_RECORD=PATH in the environment (detcheck sets it for
 * each run it starts), the runtime writes to PATH, one line per event:
 *
 *   lockstep-det-record 1
 *   launch N STATUS CYCLES MEMHASH KERNEL   after each launch: its cycles (0
 *                                           in functional mode) and a hash of
 *                                           every cudaMalloc'd (or live
 *                                           graph) allocation,
 *   lalloc BASE SIZE HASH                   then each allocation's own hash
 *   copy N BYTES HASH OFFSET                every device-to-host copy, its
 *                                           bytes at OFFSET of PATH.mem
 *   alloc BASE SIZE HASH OFFSET             at exit, each live cudaMalloc'd
 *                                           allocation; its bytes at OFFSET of
 *                                           PATH.mem (OFFSET -1: past the cap)
 *   end                                     the run reached its exit handler
 *
 * Hashes are util/hash.h's, in hex.  Allocations are walked in address
 * order, which the allocator makes the same in every run of a program.
 * PATH.mem holds at most LOCKSTEP_DET_RECORD_CAP bytes (default 64 MiB):
 * the copies' bytes and the allocations' at exit, in that order, while
 * they fit.
 */
#include "cudart/detrecord.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/device_int.h"
#include "util/hash.h"

static FILE *rec, *mem;
static uint64_t nlaunch, ncopy, mem_off, mem_cap;
static unsigned char *buf;
enum { CHUNK = 1 << 20 };

int detrec_open(void)
{
    const char *path = getenv("LOCKSTEP_DET_RECORD");
    if (!path || !*path || rec)
        return rec != NULL;
    rec = fopen(path, "w");
    size_t n = strlen(path);
    char *mpath = malloc(n + 5);
    buf = malloc(CHUNK);
    if (!rec || !mpath || !buf) {
        fprintf(stderr, "lockstep: cannot write the determinism record %s\n", path);
        if (rec)
            fclose(rec);
        rec = NULL;
        free(mpath);
        return 0;
    }
    memcpy(mpath, path, n);
    memcpy(mpath + n, ".mem", 5);
    mem = fopen(mpath, "wb");
    free(mpath);
    const char *cap = getenv("LOCKSTEP_DET_RECORD_CAP");
    mem_cap = 64ull << 20;
    if (cap && *cap) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(cap, &end, 10);
        if (errno || *end || cap[0] < '0' || cap[0] > '9')
            fprintf(stderr, "lockstep: LOCKSTEP_DET_RECORD_CAP '%s' is not a number of bytes; "
                            "the record keeps the default 64 MiB\n", cap);
        else
            mem_cap = v;
    }
    fprintf(rec, "lockstep-det-record 1\n");
    fflush(rec);
    return 1;
}

/* Hash size bytes of device memory at base (and append them to the .mem
 * file if dump); the hash, and *off the offset they went to (-1: not). */
static uint64_t hash_device(lockstep_device *dev, lockstep_dptr base, size_t size, int dump,
                            long long *off)
{
    uint64_t h = HASH_INIT;
    int keep = dump && mem && mem_off + size <= mem_cap;
    if (off)
        *off = keep ? (long long)mem_off : -1;
    for (size_t done = 0; done < size;) {
        size_t k = size - done < CHUNK ? size - done : CHUNK;
        if (lockstep_memcpy_dtoh(dev, buf, base + done, k) != LOCKSTEP_SUCCESS)
            memset(buf, 0, k);
        h = hash_bytes(h, buf, k);
        if (keep && fwrite(buf, 1, k, mem) != k) {
            keep = 0;
            fclose(mem);
            mem = NULL;
            if (off)
                *off = -1;
        }
        done += k;
    }
    if (keep)
        mem_off += size;
    return hash_final(h, size);
}

void detrec_launch(lockstep_device *dev, const char *kernel, int status, uint64_t cycles)
{
    if (!rec)
        return;
    uint64_t h = HASH_INIT, one[64];
    lockstep_dptr base = 0, bases[64];
    size_t size, sizes[64], n = 0, total = 0;
    /* the per-allocation lines follow the launch line: the first 64 */
    while (!device_next_user_allocation(dev, base, &base, &size)) {
        uint64_t a = hash_device(dev, base, size, 0, NULL);
        h = hash_mix(h, a);
        if (n < 64) {
            bases[n] = base;
            sizes[n] = size;
            one[n++] = a;
        }
        total++;
    }
    fprintf(rec, "launch %llu %d %llu %016llx %s\n", (unsigned long long)nlaunch++, status,
            (unsigned long long)cycles, (unsigned long long)hash_final(h, total), kernel);
    for (size_t k = 0; k < n; k++)
        fprintf(rec, "lalloc %llx %zu %016llx\n", (unsigned long long)bases[k], sizes[k],
                (unsigned long long)one[k]);
    fflush(rec);
}

void detrec_copy(const void *host, size_t n)
{
    if (!rec)
        return;
    uint64_t h = hash_final(hash_bytes(HASH_INIT, host, n), n);
    long long off = -1;
    if (mem && mem_off + n <= mem_cap) {
        if (fwrite(host, 1, n, mem) == n) {
            off = (long long)mem_off;
            mem_off += n;
        } else { /* no more bytes: the offsets would be wrong */
            fclose(mem);
            mem = NULL;
        }
    }
    fprintf(rec, "copy %llu %zu %016llx %lld\n", (unsigned long long)ncopy++, n,
            (unsigned long long)h, off);
}

void detrec_finish(lockstep_device *dev)
{
    if (!rec)
        return;
    lockstep_dptr base = 0;
    size_t size;
    while (dev && !device_next_user_allocation(dev, base, &base, &size)) {
        long long off;
        uint64_t h = hash_device(dev, base, size, 1, &off);
        fprintf(rec, "alloc %llx %zu %016llx %lld\n", (unsigned long long)base, size,
                (unsigned long long)h, off);
    }
    fprintf(rec, "end\n");
    fclose(rec);
    rec = NULL;
    if (mem)
        fclose(mem);
    mem = NULL;
    free(buf);
    buf = NULL;
}
