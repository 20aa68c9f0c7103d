/* idmap.c - int64 -> size_t and int64 -> uint32 hash maps for correlation
 * and external ids.  Linear probing, load factor below one half (three
 * quarters for the 32-bit map, whose slots are smaller); no deletion is
 * needed. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"

void
pr_idmap_free(struct pr_idmap *m)
{
    free(m->keys);
    free(m->vals);
    free(m->used);
    m->keys = NULL;
    m->vals = NULL;
    m->used = NULL;
    m->n = m->cap = 0;
}

static size_t
slot_of(int64_t key, size_t cap)
{
    uint64_t h = (uint64_t)key * 0x9e3779b97f4a7c15u;

    return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

size_t
pr_idmap_get(const struct pr_idmap *m, int64_t key)
{
    size_t i;

    if (m->cap == 0)
        return PR_NONE;
    for (i = slot_of(key, m->cap); m->used[i]; i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == key)
            return m->vals[i];
    }
    return PR_NONE;
}

static void
put_raw(struct pr_idmap *m, int64_t key, size_t val)
{
    size_t i;

    for (i = slot_of(key, m->cap); m->used[i]; i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == key) {
            m->vals[i] = val;
            return;
        }
    }
    m->used[i] = 1;
    m->keys[i] = key;
    m->vals[i] = val;
    m->n++;
}

static enum pr_status
rehash(struct pr_idmap *m, size_t cap)
{
    struct pr_idmap old = *m;
    size_t i;

    m->keys = calloc(cap, sizeof(*m->keys));
    m->vals = calloc(cap, sizeof(*m->vals));
    m->used = calloc(cap, 1);
    if (m->keys == NULL || m->vals == NULL || m->used == NULL) {
        free(m->keys);
        free(m->vals);
        free(m->used);
        *m = old;
        return PR_E_NOMEM;
    }
    m->cap = cap;
    m->n = 0;
    for (i = 0; i < old.cap; i++) {
        if (old.used[i])
            put_raw(m, old.keys[i], old.vals[i]);
    }
    pr_idmap_free(&old);
    return PR_OK;
}

enum pr_status
pr_idmap_put(struct pr_idmap *m, int64_t key, size_t val, struct pr_error *err)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;

        if (cap < m->cap || rehash(m, cap) != PR_OK)
            return pr_error_set(err, PR_E_NOMEM, "out of memory (id map)");
    }
    put_raw(m, key, val);
    return PR_OK;
}

void
pr_idmap32_free(struct pr_idmap32 *m)
{
    free(m->keys);
    free(m->vals);
    m->keys = NULL;
    m->vals = NULL;
    m->n = m->cap = 0;
}

uint32_t
pr_idmap32_get(const struct pr_idmap32 *m, int64_t key)
{
    size_t i;

    if (m->cap == 0)
        return PR_IDMAP32_NONE;
    for (i = slot_of(key, m->cap); m->vals[i] != PR_IDMAP32_NONE;
         i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == key)
            return m->vals[i];
    }
    return PR_IDMAP32_NONE;
}

static void
put32_raw(struct pr_idmap32 *m, int64_t key, uint32_t val)
{
    size_t i;

    for (i = slot_of(key, m->cap); m->vals[i] != PR_IDMAP32_NONE;
         i = (i + 1) & (m->cap - 1)) {
        if (m->keys[i] == key) {
            m->vals[i] = val;
            return;
        }
    }
    m->keys[i] = key;
    m->vals[i] = val;
    m->n++;
}

static enum pr_status
rehash32(struct pr_idmap32 *m, size_t cap)
{
    struct pr_idmap32 old = *m;
    size_t i;

    m->keys = malloc(cap * sizeof(*m->keys));
    m->vals = malloc(cap * sizeof(*m->vals));
    if (m->keys == NULL || m->vals == NULL) {
        free(m->keys);
        free(m->vals);
        *m = old;
        return PR_E_NOMEM;
    }
    memset(m->vals, 0xff, cap * sizeof(*m->vals)); /* all PR_IDMAP32_NONE */
    m->cap = cap;
    m->n = 0;
    for (i = 0; i < old.cap; i++) {
        if (old.vals[i] != PR_IDMAP32_NONE)
            put32_raw(m, old.keys[i], old.vals[i]);
    }
    pr_idmap32_free(&old);
    return PR_OK;
}

/* The capacity that holds n entries at a load of at most three quarters. */
static size_t
cap32_for(size_t n)
{
    size_t cap = 64;

    while (cap / 4 * 3 < n && cap * 2 > cap)
        cap *= 2;
    return cap / 4 * 3 < n ? 0 : cap;
}

enum pr_status
pr_idmap32_reserve(struct pr_idmap32 *m, size_t n, struct pr_error *err)
{
    size_t cap = cap32_for(n);

    if (cap == 0)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (id map)");
    if (cap <= m->cap)
        return PR_OK;
    if (rehash32(m, cap) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (id map)");
    return PR_OK;
}

enum pr_status
pr_idmap32_put(struct pr_idmap32 *m, int64_t key, uint32_t val,
               struct pr_error *err)
{
    if (val == PR_IDMAP32_NONE)
        return pr_error_set(err, PR_E_LIMIT, "id map value out of range");
    if (m->n + 1 > m->cap / 4 * 3 &&
        pr_idmap32_reserve(m, m->n + 1 > m->cap ? m->n + 1 : m->cap, err) !=
            PR_OK)
        return PR_E_NOMEM;
    put32_raw(m, key, val);
    return PR_OK;
}
