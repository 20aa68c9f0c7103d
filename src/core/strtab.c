/* strtab.c - open-addressing hash table over strings stored in large chunks.
 * Ids index an offset array; text lives in chunks that never move. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "profreport/buf.h"
#include "profreport/strtab.h"

#define CHUNK_BYTES (1u << 20)

struct entry {
    const char *s;
    uint32_t len;
};

struct pr_strtab {
    struct entry *ents; /* by id */
    size_t n, cap;
    uint32_t *slots;  /* id + 1, 0 = empty */
    uint32_t *hashes; /* hash by id */
    size_t nslots;
    char **chunks;
    size_t nchunks, chunkcap;
    size_t used;       /* bytes used in the last chunk */
    size_t chunk_size; /* size of the last chunk */
    size_t bytes;
};

static uint32_t
hash(const char *s, size_t len)
{
    /* FNV-1a, 32 bit */
    uint32_t h = 2166136261u;
    size_t i;

    for (i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static char *
store(struct pr_strtab *t, const char *s, size_t len)
{
    char *p;

    if (t->nchunks == 0 || t->used + len + 1 > t->chunk_size) {
        size_t sz = len + 1 > CHUNK_BYTES ? len + 1 : CHUNK_BYTES;
        if (pr_grow((void **)&t->chunks, &t->chunkcap, t->nchunks + 1,
                    sizeof(char *)) != PR_OK)
            return NULL;
        p = malloc(sz);
        if (p == NULL)
            return NULL;
        t->chunks[t->nchunks++] = p;
        t->used = 0;
        t->chunk_size = sz;
        t->bytes += sz;
    }
    p = t->chunks[t->nchunks - 1] + t->used;
    memcpy(p, s, len);
    p[len] = '\0';
    t->used += len + 1;
    return p;
}

static int
rehash(struct pr_strtab *t, size_t nslots)
{
    uint32_t *slots = calloc(nslots, sizeof(uint32_t));
    size_t i;

    if (slots == NULL)
        return 0;
    for (i = 0; i < t->n; i++) {
        size_t j = t->hashes[i] & (nslots - 1);
        while (slots[j])
            j = (j + 1) & (nslots - 1);
        slots[j] = (uint32_t)i + 1;
    }
    free(t->slots);
    t->slots = slots;
    t->nslots = nslots;
    return 1;
}

struct pr_strtab *
pr_strtab_new(void)
{
    struct pr_strtab *t = calloc(1, sizeof(*t));

    if (t == NULL)
        return NULL;
    if (!rehash(t, 1024) || pr_strtab_intern(t, "", 0) != PR_STR_EMPTY) {
        pr_strtab_free(t);
        return NULL;
    }
    return t;
}

void
pr_strtab_free(struct pr_strtab *t)
{
    size_t i;

    if (t == NULL)
        return;
    for (i = 0; i < t->nchunks; i++)
        free(t->chunks[i]);
    free(t->chunks);
    free(t->ents);
    free(t->hashes);
    free(t->slots);
    free(t);
}

static size_t
lookup(const struct pr_strtab *t, const char *s, size_t len, uint32_t h)
{
    size_t j = h & (t->nslots - 1);

    while (t->slots[j]) {
        uint32_t id = t->slots[j] - 1;
        if (t->hashes[id] == h && t->ents[id].len == len &&
            memcmp(t->ents[id].s, s, len) == 0)
            return j;
        j = (j + 1) & (t->nslots - 1);
    }
    return j;
}

uint32_t
pr_strtab_find(const struct pr_strtab *t, const char *s, size_t len)
{
    size_t j = lookup(t, s, len, hash(s, len));

    return t->slots[j] ? t->slots[j] - 1 : PR_STR_NONE;
}

uint32_t
pr_strtab_intern(struct pr_strtab *t, const char *s, size_t len)
{
    uint32_t h = hash(s, len);
    size_t j;
    char *p;

    if ((t->n + 1) * 2 > t->nslots && !rehash(t, t->nslots * 2))
        return PR_STR_NONE;
    j = lookup(t, s, len, h);
    if (t->slots[j])
        return t->slots[j] - 1;
    if (len >= UINT32_MAX || t->n >= UINT32_MAX - 1)
        return PR_STR_NONE;
    if (pr_grow((void **)&t->ents, &t->cap, t->n + 1, sizeof(*t->ents)) !=
        PR_OK)
        return PR_STR_NONE;
    {
        uint32_t *nh = realloc(t->hashes, t->cap * sizeof(uint32_t));
        if (nh == NULL)
            return PR_STR_NONE;
        t->hashes = nh;
    }
    p = store(t, s, len);
    if (p == NULL)
        return PR_STR_NONE;
    t->ents[t->n].s = p;
    t->ents[t->n].len = (uint32_t)len;
    t->hashes[t->n] = h;
    t->slots[j] = (uint32_t)t->n + 1;
    t->n++;
    return (uint32_t)t->n - 1;
}

const char *
pr_strtab_get(const struct pr_strtab *t, uint32_t id)
{
    if (t == NULL || id >= t->n)
        return "";
    return t->ents[id].s;
}

size_t
pr_strtab_len(const struct pr_strtab *t, uint32_t id)
{
    if (t == NULL || id >= t->n)
        return 0;
    return t->ents[id].len;
}

size_t
pr_strtab_count(const struct pr_strtab *t)
{
    return t->n;
}

size_t
pr_strtab_bytes(const struct pr_strtab *t)
{
    return t->bytes + t->cap * (sizeof(struct entry) + 4) + t->nslots * 4;
}
