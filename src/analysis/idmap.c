/* idmap.c - an int64 -> size_t hash map for correlation and external ids.
 * Linear probing, load factor below one half; no deletion is needed. */
#include "config.h"

#include <stdlib.h>

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
