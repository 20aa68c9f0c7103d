/* session.c - the in-memory store of captured activity: a capped array of
 * records whose strings are interned copies, plus device properties.  The
 * writer (convert.c) reads it; the collector fills it. */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/buf.h"
#include "profreport/record.h"

#define DEFAULT_MAX_RECORDS ((size_t)16 << 20)

struct pr_record_session *
pr_record_session_new(size_t max_records)
{
    struct pr_record_session *s = calloc(1, sizeof(*s));

    if (s == NULL)
        return NULL;
    s->max = max_records ? max_records : DEFAULT_MAX_RECORDS;
    s->strs = pr_strtab_new_text();
    if (s->strs == NULL) {
        free(s);
        return NULL;
    }
    return s;
}

void
pr_record_session_free(struct pr_record_session *s)
{
    if (s == NULL)
        return;
    free(s->recs);
    free(s->devs);
    pr_strtab_free(s->strs);
    free(s);
}

void
pr_record_session_clear(struct pr_record_session *s)
{
    s->n = 0;
    s->dropped = 0;
}

/* A stable copy of `name` (NULL stays NULL); NULL on out-of-memory. */
static const char *
keep_name(struct pr_record_session *s, const char *name, int *failed)
{
    uint32_t id;

    *failed = 0;
    if (name == NULL)
        return NULL;
    id = pr_strtab_intern(s->strs, name, strlen(name));
    if (id == PR_STR_NONE) {
        *failed = 1;
        return NULL;
    }
    return pr_strtab_get(s->strs, id);
}

enum pr_status
pr_record_session_add(struct pr_record_session *s, const struct pr_rec *r,
                      struct pr_error *err)
{
    struct pr_rec *dst;
    int failed;

    if (s->n >= s->max) {
        s->dropped++;
        return pr_error_set(err, PR_E_LIMIT, "record limit of %zu reached",
                            s->max);
    }
    if (pr_grow((void **)&s->recs, &s->cap, s->n + 1, sizeof(*s->recs)) !=
        PR_OK) {
        s->dropped++;
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    dst = &s->recs[s->n];
    *dst = *r;
    dst->name = keep_name(s, r->name, &failed);
    if (failed) {
        s->dropped++;
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    }
    s->n++;
    return PR_OK;
}

enum pr_status
pr_record_session_add_device(struct pr_record_session *s,
                             const struct pr_record_device *d,
                             struct pr_error *err)
{
    size_t i;

    for (i = 0; i < s->n_devs; i++) {
        if (s->devs[i].id == d->id) {
            s->devs[i] = *d;
            return PR_OK;
        }
    }
    if (pr_grow((void **)&s->devs, &s->cap_devs, s->n_devs + 1,
                sizeof(*s->devs)) != PR_OK)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    s->devs[s->n_devs++] = *d;
    return PR_OK;
}

void
pr_record_session_dropped(struct pr_record_session *s, uint64_t n)
{
    s->dropped += n;
}

size_t
pr_record_session_count(const struct pr_record_session *s)
{
    return s->n;
}
