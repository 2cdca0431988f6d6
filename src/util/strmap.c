/*
 * strmap.c -- the hash map of strmap.h: FNV-1a over the key and scope,
 * linear probing, load factor at most one half.
 */
#include "util/strmap.h"

#include <stdlib.h>
#include <string.h>

void strmap_init(strmap *m)
{
    m->slots = NULL;
    m->cap = m->n = 0;
}

void strmap_free(strmap *m)
{
    free(m->slots);
    strmap_init(m);
}

static uint64_t hash(const char *key, uint32_t scope)
{
    uint64_t h = 1469598103934665603ull;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 1099511628211ull;
    h = (h ^ scope) * 1099511628211ull;
    return h ^ (h >> 29);
}

static strmap_slot *find(strmap_slot *slots, size_t cap, const char *key, uint32_t scope)
{
    size_t i = (size_t)hash(key, scope) & (cap - 1);
    for (;;) {
        strmap_slot *s = &slots[i];
        if (!s->key || (s->scope == scope && strcmp(s->key, key) == 0))
            return s;
        i = (i + 1) & (cap - 1);
    }
}

int strmap_put(strmap *m, const char *key, uint32_t scope, uint32_t value)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        strmap_slot *slots = calloc(cap, sizeof *slots);
        if (!slots)
            return -1;
        for (size_t i = 0; i < m->cap; i++)
            if (m->slots[i].key)
                *find(slots, cap, m->slots[i].key, m->slots[i].scope) = m->slots[i];
        free(m->slots);
        m->slots = slots;
        m->cap = cap;
    }
    strmap_slot *s = find(m->slots, m->cap, key, scope);
    if (!s->key)
        m->n++;
    s->key = key;
    s->scope = scope;
    s->value = value;
    return 0;
}

int strmap_get(const strmap *m, const char *key, uint32_t scope, uint32_t *value)
{
    if (!m->cap)
        return 0;
    strmap_slot *s = find(m->slots, m->cap, key, scope);
    if (!s->key)
        return 0;
    *value = s->value;
    return 1;
}
