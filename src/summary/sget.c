/* sget.c - the null-safe summary readers of sget.h. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "profreport/sget.h"

const cJSON *
pr_sget(const cJSON *o, const char *key)
{
    return cJSON_IsObject(o) ? cJSON_GetObjectItemCaseSensitive(o, key) : NULL;
}

const cJSON *
pr_sget_path(const cJSON *o, const char *path)
{
    const char *dot;
    char head[64];
    size_t n;

    while ((dot = strchr(path, '.')) != NULL) {
        n = (size_t)(dot - path);
        if (n >= sizeof(head))
            return NULL;
        memcpy(head, path, n);
        head[n] = '\0';
        o = pr_sget(o, head);
        path = dot + 1;
    }
    return pr_sget(o, path);
}

double
pr_sget_num(const cJSON *o, const char *key)
{
    const cJSON *v = pr_sget(o, key);

    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return NAN;
    return v->valuedouble;
}

const char *
pr_sget_str(const cJSON *o, const char *key)
{
    const cJSON *v = pr_sget(o, key);

    return cJSON_IsString(v) ? v->valuestring : NULL;
}

const char *
pr_sget_str_or(const cJSON *o, const char *key, const char *dflt)
{
    const char *s = pr_sget_str(o, key);

    return s != NULL ? s : dflt;
}

int
pr_sget_true(const cJSON *o, const char *key)
{
    return cJSON_IsTrue(pr_sget(o, key)) ? 1 : 0;
}

size_t
pr_sget_len(const cJSON *a)
{
    int n = cJSON_IsArray(a) ? cJSON_GetArraySize(a) : 0;

    return n > 0 ? (size_t)n : 0;
}

const cJSON *
pr_sget_first(const cJSON *o, const char *key)
{
    const cJSON *a = pr_sget(o, key);

    return cJSON_IsArray(a) ? a->child : NULL;
}

int
pr_sget_is(const char *s, const char *want)
{
    return s != NULL && strcmp(s, want) == 0;
}
