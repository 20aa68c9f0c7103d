/* testjson.h - checked lookups into summary objects for the analysis tests:
 * a missing key or a wrong type fails the test with the key's name instead
 * of crashing on NULL.  Include after <cmocka.h> and <cjson/cJSON.h>. */
#ifndef PROFREPORT_TESTJSON_H
#define PROFREPORT_TESTJSON_H

static inline const cJSON *
get(const cJSON *o, const char *key)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    if (v == NULL)
        fail_msg("no key \"%s\"", key);
    return v;
}

static inline double
num(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);

    if (!cJSON_IsNumber(v))
        fail_msg("\"%s\" is not a number", key);
    return v->valuedouble;
}

static inline const char *
str(const cJSON *o, const char *key)
{
    const cJSON *v = get(o, key);

    if (!cJSON_IsString(v))
        fail_msg("\"%s\" is not a string", key);
    return v->valuestring;
}

static inline const cJSON *
at(const cJSON *o, const char *key, int i)
{
    const cJSON *v = cJSON_GetArrayItem(get(o, key), i);

    if (v == NULL)
        fail_msg("no %s[%d]", key, i);
    return v;
}

#endif
