/* schema.c - the rows of schema.def as C data (schema.h). */
#include "config.h"

#include <string.h>

#include <cjson/cJSON.h>

#include "profreport/keys.h"
#include "profreport/schema.h"

#include "internal.h"

const struct pr_schema_row pr_schema_rows[PR_SR_N] = {
#define PR_SCHEMA_OBJECT(id, parent, path, doc)
#define PR_SCHEMA_KEY(obj, key, types, unit, flags, child, doc)                \
    {PR_SO_##obj, key, types, PR_SU_##unit, flags, PR_SO_##child, doc},
#include "schema.def"
#undef PR_SCHEMA_OBJECT
#undef PR_SCHEMA_KEY
};

static const struct {
    enum pr_schema_object parent;
    const char *path, *doc;
} objects[PR_SO_N] = {
#define PR_SCHEMA_OBJECT(id, parent, path, doc) {PR_SO_##parent, path, doc},
#define PR_SCHEMA_KEY(obj, key, types, unit, flags, child, doc)
#include "schema.def"
#undef PR_SCHEMA_OBJECT
#undef PR_SCHEMA_KEY
};

/* The first row of object or after it: the rows are grouped by object in
 * the enum's order (tests/summary/test_schema.c checks it). */
static size_t
first_row(enum pr_schema_object object)
{
    size_t lo = 0, hi = PR_SR_N;

    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (pr_schema_rows[mid].object < object)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

struct pr_schema_objinfo
pr_schema_object(enum pr_schema_object object)
{
    struct pr_schema_objinfo o = {PR_SO_NONE, "", "", PR_SR_N, 0};

    if ((unsigned)object >= PR_SO_N)
        return o;
    o.parent = objects[object].parent;
    o.path = objects[object].path;
    o.doc = objects[object].doc;
    o.first = first_row(object);
    o.n = first_row((enum pr_schema_object)(object + 1)) - o.first;
    return o;
}

int
pr_schema_has_flag(enum pr_schema_object object, unsigned flags)
{
    struct pr_schema_objinfo o = pr_schema_object(object);
    size_t i;

    for (i = o.first; i < o.first + o.n; i++)
        if ((pr_schema_rows[i].flags & flags) == flags)
            return 1;
    return 0;
}

const struct pr_schema_row *
pr_schema_find(enum pr_schema_object object, const char *key)
{
    struct pr_schema_objinfo o = pr_schema_object(object);
    size_t i;

    for (i = o.first; key != NULL && i < o.first + o.n; i++)
        if (strcmp(pr_schema_rows[i].key, key) == 0)
            return &pr_schema_rows[i];
    return NULL;
}
