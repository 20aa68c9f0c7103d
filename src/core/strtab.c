/* strtab.c - open-addressing hash table over strings stored in large chunks.
 * Ids index an offset array; text lives in chunks that never move. */
#include "config.h"

#include <stdio.h>
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
    size_t hcap;      /* hashes allocated (may lag cap after a failure) */
    size_t nslots;
    char **chunks;
    size_t nchunks, chunkcap;
    size_t used;       /* bytes used in the last chunk */
    size_t chunk_size; /* size of the last chunk */
    size_t bytes;
    size_t repaired; /* entries made from text that was not UTF-8 */
    size_t cut;      /* entries made from text longer than PR_TEXT_MAX */
    int text;        /* repairs ill-formed UTF-8 (pr_strtab_new_text) */
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
pr_strtab_new_text(void)
{
    struct pr_strtab *t = pr_strtab_new();

    if (t != NULL)
        t->text = 1;
    return t;
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

static uint32_t
find_raw(const struct pr_strtab *t, const char *s, size_t len)
{
    size_t j = lookup(t, s, len, hash(s, len));

    return t->slots[j] ? t->slots[j] - 1 : PR_STR_NONE;
}

static uint32_t
intern_raw(struct pr_strtab *t, const char *s, size_t len)
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
    if (t->hcap < t->cap) { /* grown apart: ents may have grown alone */
        uint32_t *nh = realloc(t->hashes, t->cap * sizeof(uint32_t));
        if (nh == NULL)
            return PR_STR_NONE;
        t->hashes = nh;
        t->hcap = t->cap;
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

/* Length of the well-formed UTF-8 sequence at s (1 to 4), or 0 when it
 * is not one; *bad is then the length of its longest well-formed prefix
 * (at least 1): the bytes that one U+FFFD replaces (Unicode's "maximal
 * subpart" practice).  Overlong forms, surrogates and code points past
 * U+10FFFF are not UTF-8. */
static size_t
utf8_seq(const unsigned char *s, size_t n, size_t *bad)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xbf;
    size_t want, i;

    *bad = 1;
    if (c < 0x80)
        return 1;
    if (c < 0xc2 || c > 0xf4)
        return 0;
    want = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    if (c == 0xe0)
        lo = 0xa0;
    else if (c == 0xed)
        hi = 0x9f;
    else if (c == 0xf0)
        lo = 0x90;
    else if (c == 0xf4)
        hi = 0x8f;
    for (i = 1; i < want; i++) {
        if (i >= n || s[i] < (i == 1 ? lo : 0x80) ||
            s[i] > (i == 1 ? hi : 0xbf))
            return 0;
        *bad = i + 1;
    }
    return want;
}

/* Whether s holds only well-formed UTF-8 (ASCII eight bytes at a time). */
static int
utf8_ok(const char *s, size_t len)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t i = 0, k, bad;
    uint64_t w;

    while (i < len) {
        if (i + 8 <= len) {
            memcpy(&w, u + i, 8);
            if ((w & 0x8080808080808080ull) == 0) {
                i += 8;
                continue;
            }
        }
        k = utf8_seq(u + i, len - i, &bad);
        if (k == 0)
            return 0;
        i += k;
    }
    return 1;
}

/* A copy of s with each ill-formed part replaced by U+FFFD, its length in
 * *out_len; NULL when memory runs out. */
static char *
repair(const char *s, size_t len, size_t *out_len)
{
    const unsigned char *u = (const unsigned char *)s;
    char *fix;
    size_t i = 0, o = 0, k, bad;

    if (len > SIZE_MAX / 3 || (fix = malloc(len * 3 + 1)) == NULL)
        return NULL;
    while (i < len) {
        k = utf8_seq(u + i, len - i, &bad);
        if (k > 0) {
            memcpy(fix + o, s + i, k);
            o += k;
            i += k;
        } else {
            memcpy(fix + o, "\xef\xbf\xbd", 3);
            o += 3;
            i += bad;
        }
    }
    *out_len = o;
    return fix;
}

/* Intern text that is not UTF-8 with each ill-formed part replaced by
 * U+FFFD: summaries are JSON text, which strict readers want as UTF-8. */
static uint32_t
intern_repaired(struct pr_strtab *t, const char *s, size_t len)
{
    size_t o, before = t->n;
    char *fix = repair(s, len, &o);
    uint32_t id;

    if (fix == NULL)
        return PR_STR_NONE;
    id = intern_raw(t, fix, o);
    free(fix);
    t->repaired += id != PR_STR_NONE && t->n > before;
    return id;
}

/* Text longer than PR_TEXT_MAX as a text table keeps it: its first bytes,
 * cut at a character's start, and how many bytes were cut, so that a name
 * of 100 MB (a hostile CSV field, issue #35) is not copied into every
 * table and report that shows it.  NULL when memory runs out. */
static char *
cut_text(const char *s, size_t len, size_t *out_len)
{
    size_t keep = PR_TEXT_MAX - 64, n;
    char *c = malloc(PR_TEXT_MAX + 1);

    if (c == NULL)
        return NULL;
    while (keep > 0 && ((unsigned char)s[keep] & 0xc0) == 0x80)
        keep--; /* not inside a UTF-8 sequence */
    memcpy(c, s, keep);
    n = (size_t)snprintf(c + keep, PR_TEXT_MAX + 1 - keep,
                         "\xe2\x80\xa6 [%zu bytes cut]", len - keep);
    *out_len = keep + n;
    return c;
}

static uint32_t
intern_text(struct pr_strtab *t, const char *s, size_t len)
{
    if (!utf8_ok(s, len))
        return intern_repaired(t, s, len);
    return intern_raw(t, s, len);
}

uint32_t
pr_strtab_intern(struct pr_strtab *t, const char *s, size_t len)
{
    size_t o, before = t->n;
    char *c;
    uint32_t id;

    if (!t->text)
        return intern_raw(t, s, len);
    if (len <= PR_TEXT_MAX)
        return intern_text(t, s, len);
    if ((c = cut_text(s, len, &o)) == NULL)
        return PR_STR_NONE;
    id = intern_text(t, c, o);
    free(c);
    t->cut += id != PR_STR_NONE && t->n > before;
    return id;
}

/* A text table holds the repaired form, so text that is not UTF-8 is
 * looked up the way it would have been interned. */
uint32_t
pr_strtab_find(const struct pr_strtab *t, const char *s, size_t len)
{
    size_t o;
    char *fix;
    uint32_t id;

    if (t->text && len > PR_TEXT_MAX) {
        if ((fix = cut_text(s, len, &o)) == NULL)
            return PR_STR_NONE;
        id = pr_strtab_find(t, fix, o);
        free(fix);
        return id;
    }
    if (!t->text || utf8_ok(s, len))
        return find_raw(t, s, len);
    if ((fix = repair(s, len, &o)) == NULL)
        return PR_STR_NONE;
    id = find_raw(t, fix, o);
    free(fix);
    return id;
}

size_t
pr_strtab_repaired(const struct pr_strtab *t)
{
    return t == NULL ? 0 : t->repaired;
}

size_t
pr_strtab_cut(const struct pr_strtab *t)
{
    return t == NULL ? 0 : t->cut;
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
