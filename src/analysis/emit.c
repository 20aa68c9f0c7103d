/* emit.c - sticky-error cJSON builders for the analyses, and the tensor
 * core name lists (spec 10.1, 10.2) that several analyses share. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "profreport/tensorcore.h"

#include "internal.h"

static void
add(cJSON *o, const char *key, cJSON *item, int *ok)
{
    if (item == NULL) {
        *ok = 0;
        return;
    }
    if (key == NULL ? !cJSON_AddItemToArray(o, item)
                    : !cJSON_AddItemToObject(o, key, item)) {
        cJSON_Delete(item);
        *ok = 0;
    }
}

void
pr_emit_num(cJSON *o, const char *key, double v, int *ok)
{
    if (*ok)
        add(o, key, cJSON_CreateNumber(v), ok);
}

void
pr_emit_us(cJSON *o, const char *key, int64_t ns, int *ok)
{
    pr_emit_num(o, key, (double)ns / 1000.0, ok);
}

void
pr_emit_str(cJSON *o, const char *key, const char *s, int *ok)
{
    if (*ok)
        add(o, key, s ? cJSON_CreateString(s) : cJSON_CreateNull(), ok);
}

void
pr_emit_null(cJSON *o, const char *key, int *ok)
{
    if (*ok)
        add(o, key, cJSON_CreateNull(), ok);
}

void
pr_emit_bool(cJSON *o, const char *key, int b, int *ok)
{
    if (*ok)
        add(o, key, cJSON_CreateBool(b), ok);
}

void
pr_emit_num_or_null(cJSON *o, const char *key, double v, int *ok)
{
    if (isnan(v))
        pr_emit_null(o, key, ok);
    else
        pr_emit_num(o, key, v, ok);
}

void
pr_emit_finite(cJSON *o, const char *key, double v, int *ok)
{
    if (isfinite(v))
        pr_emit_num(o, key, v, ok);
    else
        pr_emit_null(o, key, ok);
}

static cJSON *
add_container(cJSON *parent, const char *key, cJSON *c, int *ok)
{
    if (!*ok) {
        cJSON_Delete(c);
        return NULL;
    }
    add(parent, key, c, ok);
    return *ok ? c : NULL;
}

cJSON *
pr_emit_obj(cJSON *parent, const char *key, int *ok)
{
    return add_container(parent, key, cJSON_CreateObject(), ok);
}

cJSON *
pr_emit_arr(cJSON *parent, const char *key, int *ok)
{
    return add_container(parent, key, cJSON_CreateArray(), ok);
}

/* Tensor-core names live in tensorcore.c: the plugin's lists (10.1, 10.2)
 * plus the modern kernel patterns and eligible ops the plugin lacks
 * (docs/differences.md).  These two keep the older call sites short. */
int
pr_tc_op_eligible(const char *name)
{
    return pr_tensorcore_op_eligible(name, NULL);
}

int
pr_tc_kernel_uses(const char *name)
{
    return pr_tensorcore_kernel(name) != PR_TC_NONE;
}
