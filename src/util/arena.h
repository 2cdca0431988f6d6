/*
 * arena.h -- a bump allocator for data that lives and dies together (a
 * parse's AST, a module's strings).  arena_free() releases everything.
 * Allocation failure returns NULL; callers turn that into OUT_OF_MEMORY.
 */
#ifndef LOCKSTEP_ARENA_H
#define LOCKSTEP_ARENA_H

#include <stddef.h>

typedef struct arena_block arena_block;
typedef struct arena {
    arena_block *head;
    size_t used, cap; /* within head */
} arena;

void arena_init(arena *a);
void *arena_alloc(arena *a, size_t n);         /* 16-byte aligned, zeroed */
char *arena_strndup(arena *a, const char *s, size_t n);
void arena_free(arena *a);

#endif
