/* row_keys.h - the keys a saved summary's step, operator and kernel rows
 * hold (the loader's contract; diff reads these tables as typed rows,
 * rows.h), for the hand-made summaries of the diff tests: null where a
 * test gives no value (a nameless step, no breakdown). */
#ifndef TESTS_DIFF_ROW_KEYS_H
#define TESTS_DIFF_ROW_KEYS_H

#include <stddef.h>

#include <cjson/cJSON.h>

static inline void
step_keys(cJSON *o)
{
    static const char *const cats[] = {"kernel",        "memcpy",  "memset",
                                       "communication", "runtime", "dataloader",
                                       "cpu_exec",      "other"};
    cJSON *b = cJSON_AddObjectToObject(o, "breakdown_us");
    size_t k;

    cJSON_AddNullToObject(o, "name");
    cJSON_AddNullToObject(o, "start_us");
    for (k = 0; k < sizeof(cats) / sizeof(cats[0]); k++)
        cJSON_AddNullToObject(b, cats[k]);
}

static inline void
kernel_keys(cJSON *o)
{
    cJSON_AddNullToObject(o, "operator");
    cJSON_AddNumberToObject(o, "calls", 0);
    cJSON_AddNullToObject(o, "mean_us");
    cJSON_AddNullToObject(o, "min_us");
    cJSON_AddNullToObject(o, "max_us");
}

static inline void
op_keys(cJSON *o)
{
    cJSON_AddNumberToObject(o, "calls", 0);
    cJSON_AddNullToObject(o, "device_total_us");
    cJSON_AddNullToObject(o, "host_self_us");
    cJSON_AddNullToObject(o, "host_total_us");
}

#endif
