/*
 * arena.c -- the bump allocator of arena.h: a chain of blocks, each at least
 * 64 KiB, carved in 16-byte steps.
 */
#include "util/arena.h"

#include <stdlib.h>
#include <string.h>

struct arena_block {
    arena_block *next;
    size_t size;
    _Alignas(16) unsigned char data[];
};

void arena_init(arena *a)
{
    a->head = NULL;
    a->used = a->cap = 0;
}

void *arena_alloc(arena *a, size_t n)
{
    n = (n + 15) & ~(size_t)15;
    if (n == 0)
        n = 16;
    if (!a->head || a->cap - a->used < n) {
        size_t size = n > 65536 ? n : 65536;
        arena_block *b = malloc(sizeof *b + size);
        if (!b)
            return NULL;
        b->next = a->head;
        b->size = size;
        a->head = b;
        a->used = 0;
        a->cap = size;
    }
    void *p = a->head->data + a->used;
    a->used += n;
    memset(p, 0, n);
    return p;
}

char *arena_strndup(arena *a, const char *s, size_t n)
{
    char *d = arena_alloc(a, n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

void arena_free(arena *a)
{
    arena_block *b = a->head;
    while (b) {
        arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->used = a->cap = 0;
}
