/* contract.c - the summary contract as data (contract.h): one table of
 * fields per object of the tree, walked once. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "profreport/contract.h"
#include "profreport/keys.h"

enum {
    T_NUM = 1,
    T_STR = 2,
    T_NULL = 4,
    T_BOOL = 8,
    T_OBJ = 16,
    T_ARR = 32, /* an array of objects of `sub` (or of anything if NULL) */
    NONNEG = 64 /* with T_NUM: never below 0 (a time, a count, bytes) */
};

#define NUMQ (T_NUM | T_NULL) /* a figure that may be unknown */
#define CNT (T_NUM | NONNEG)  /* a count, known */
#define AMTQ (NUMQ | NONNEG)  /* a time or amount that may be unknown */
#define STRQ (T_STR | T_NULL)

struct field {
    const char *key;
    unsigned types;
    const struct field *sub; /* T_OBJ: its fields; T_ARR: each element's */
};

#define END                                                                    \
    {                                                                          \
        NULL, 0, NULL                                                          \
    }

static const struct field breakdown[] = {{PR_K_KERNEL, AMTQ, NULL},
                                         {PR_K_MEMCPY, AMTQ, NULL},
                                         {PR_K_MEMSET, AMTQ, NULL},
                                         {PR_K_COMMUNICATION, AMTQ, NULL},
                                         {PR_K_RUNTIME, AMTQ, NULL},
                                         {PR_K_DATALOADER, AMTQ, NULL},
                                         {PR_K_CPU_EXEC, AMTQ, NULL},
                                         /* the step less its parts:
                                            below 0 where they overlap */
                                         {PR_K_OTHER, NUMQ, NULL},
                                         END};

static const struct field step[] = {{PR_K_NAME, STRQ, NULL},
                                    {PR_K_START_US, NUMQ, NULL},
                                    {PR_K_DURATION_US, AMTQ, NULL},
                                    {PR_K_BREAKDOWN_US, T_OBJ, breakdown},
                                    END};

static const struct field step_summary[] = {
    {PR_K_COUNT, CNT, NULL},
    {PR_K_MEAN_US, AMTQ, NULL},
    {PR_K_MEDIAN_US, AMTQ, NULL},
    {PR_K_P90_US, NUMQ, NULL},
    {PR_K_MIN_US, AMTQ, NULL},
    {PR_K_MAX_US, AMTQ, NULL},
    {PR_K_BREAKDOWN_US, T_OBJ | T_NULL, breakdown},
    END};

static const struct field gpu_metric[] = {
    {PR_K_DEVICE, T_NUM | T_STR, NULL},
    {PR_K_UTILIZATION_PCT, AMTQ, NULL},
    {PR_K_EST_SM_EFFICIENCY_PCT, AMTQ, NULL},
    {PR_K_EST_ACHIEVED_OCCUPANCY_PCT, AMTQ, NULL},
    {PR_K_KERNEL_TIME_US, AMTQ, NULL},
    END};

static const struct field op[] = {{PR_K_NAME, T_STR, NULL},
                                  {PR_K_CALLS, CNT, NULL},
                                  {PR_K_DEVICE_SELF_US, AMTQ, NULL},
                                  {PR_K_DEVICE_TOTAL_US, AMTQ, NULL},
                                  {PR_K_HOST_SELF_US, AMTQ, NULL},
                                  {PR_K_HOST_TOTAL_US, AMTQ, NULL},
                                  END};

static const struct field op_shape[] = {{PR_K_NAME, T_STR, NULL},
                                        {PR_K_INPUT_SHAPES, STRQ, NULL},
                                        {PR_K_CALLS, CNT, NULL},
                                        {PR_K_DEVICE_SELF_US, AMTQ, NULL},
                                        {PR_K_DEVICE_TOTAL_US, AMTQ, NULL},
                                        {PR_K_HOST_SELF_US, AMTQ, NULL},
                                        {PR_K_HOST_TOTAL_US, AMTQ, NULL},
                                        END};

static const struct field kernel[] = {
    {PR_K_NAME, T_STR, NULL},   {PR_K_OPERATOR, STRQ, NULL},
    {PR_K_CALLS, CNT, NULL},    {PR_K_TOTAL_US, AMTQ, NULL},
    {PR_K_MEAN_US, AMTQ, NULL}, {PR_K_MIN_US, AMTQ, NULL},
    {PR_K_MAX_US, AMTQ, NULL},  END};

static const struct field tensor_cores[] = {
    {PR_K_TC_KERNEL_TIME_PCT, AMTQ, NULL}, END};

static const struct field mem_device[] = {
    {PR_K_DEVICE, T_STR, NULL},
    {PR_K_PEAK_ALLOCATED_BYTES, NUMQ, NULL},
    {PR_K_PEAK_RESERVED_BYTES, NUMQ, NULL},
    END};

static const struct field memory[] = {
    {PR_K_DEVICES, T_ARR, mem_device}, {PR_K_OPERATORS, T_ARR, NULL}, END};

static const struct field run[] = {
    {PR_K_WORKER, T_STR, NULL},
    {PR_K_SPAN, STRQ, NULL},
    {PR_K_RANK, AMTQ, NULL},
    {PR_K_DEVICES, T_ARR, NULL},
    {PR_K_STEPS, T_ARR, step},
    {PR_K_STEP_SUMMARY, T_OBJ, step_summary},
    {PR_K_GPU_METRICS, T_ARR, gpu_metric},
    {PR_K_OPERATORS, T_ARR, op},
    {PR_K_OPERATORS_BY_SHAPE, T_ARR, op_shape},
    {PR_K_KERNELS, T_ARR, kernel},
    {PR_K_TENSOR_CORES, T_OBJ | T_NULL, tensor_cores},
    {PR_K_MEMORY, T_OBJ | T_NULL, memory}, /* null: no memory profile */
    {PR_K_RECOMMENDATIONS, T_ARR, NULL},
    END};

static const struct field tool[] = {
    {PR_K_NAME, T_STR, NULL}, {PR_K_VERSION, T_STR, NULL}, END};

static const struct field top[] = {{PR_K_SCHEMA_VERSION, T_NUM, NULL},
                                   {PR_K_TOOL, T_OBJ, tool},
                                   {PR_K_INPUTS, T_ARR, NULL},
                                   {PR_K_RUNS, T_ARR, run},
                                   {PR_K_DISTRIBUTED, T_OBJ | T_NULL, NULL},
                                   END};

static unsigned
type_of(const cJSON *v)
{
    if (cJSON_IsNumber(v))
        return T_NUM;
    if (cJSON_IsString(v))
        return T_STR;
    if (cJSON_IsNull(v))
        return T_NULL;
    if (cJSON_IsBool(v))
        return T_BOOL;
    if (cJSON_IsObject(v))
        return T_OBJ;
    return T_ARR;
}

static const char *
type_name(unsigned t)
{
    switch (t) {
    case T_NUM:
        return "a number";
    case T_STR:
        return "a string";
    case T_NULL:
        return "null";
    case T_BOOL:
        return "a boolean";
    case T_OBJ:
        return "an object";
    default:
        return "an array";
    }
}

/* "a number or null" for the types of a field. */
static void
expected(unsigned types, char *out, size_t cap)
{
    unsigned t;
    size_t len = 0;

    out[0] = '\0';
    for (t = T_NUM; t <= T_ARR; t <<= 1) {
        if (!(types & t))
            continue;
        len = strlen(out);
        snprintf(out + len, cap - len, "%s%s", len ? " or " : "", type_name(t));
    }
}

static enum pr_status check_object(const cJSON *o, const struct field *f,
                                   char *path, size_t len, size_t cap,
                                   struct pr_error *err);

/* Append ".key" or "[i]" to path at len; returns the new length. */
static size_t
extend(char *path, size_t len, size_t cap, const char *key, int index)
{
    int w = key != NULL
                ? snprintf(path + len, cap - len, "%s%s", len ? "." : "", key)
                : snprintf(path + len, cap - len, "[%d]", index);

    if (w < 0 || (size_t)w >= cap - len)
        return cap - 1; /* cut: the message shows a shortened path */
    return len + (size_t)w;
}

static enum pr_status
check_value(const cJSON *v, const struct field *f, char *path, size_t len,
            size_t cap, struct pr_error *err)
{
    unsigned t = type_of(v);
    char want[96];
    const cJSON *e;
    int i = 0;

    if (!(f->types & t)) {
        expected(f->types, want, sizeof(want));
        return pr_error_set(err, PR_E_FORMAT, "%s: expected %s, got %s", path,
                            want, type_name(t));
    }
    /* cJSON reads 1e999 as infinity: no figure of a summary is one */
    if (t == T_NUM && !isfinite(v->valuedouble))
        return pr_error_set(err, PR_E_FORMAT,
                            "%s: expected a finite number, got %s", path,
                            v->valuedouble > 0 ? "a number beyond 1e308"
                                               : "a number below -1e308");
    if (t == T_NUM && (f->types & NONNEG) && v->valuedouble < 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "%s: %g, but a time, count or size is never "
                            "negative: the summary was edited or damaged",
                            path, v->valuedouble);
    if (t == T_OBJ && f->sub != NULL)
        return check_object(v, f->sub, path, len, cap, err);
    if (t != T_ARR || f->sub == NULL)
        return PR_OK;
    cJSON_ArrayForEach(e, v)
    {
        size_t n = extend(path, len, cap, NULL, i++);
        enum pr_status st;
        if (!cJSON_IsObject(e))
            return pr_error_set(err, PR_E_FORMAT,
                                "%s: expected an object, got %s", path,
                                type_name(type_of(e)));
        st = check_object(e, f->sub, path, n, cap, err);
        path[len] = '\0';
        if (st != PR_OK)
            return st;
    }
    return PR_OK;
}

static enum pr_status
check_object(const cJSON *o, const struct field *f, char *path, size_t len,
             size_t cap, struct pr_error *err)
{
    for (; f->key != NULL; f++) {
        const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, f->key);
        size_t n;
        enum pr_status st;

        if (v == NULL)
            return pr_error_set(err, PR_E_FORMAT, "%s%smissing key \"%s\"",
                                path, len ? ": " : "", f->key);
        n = extend(path, len, cap, f->key, 0);
        st = check_value(v, f, path, n, cap, err);
        path[len] = '\0';
        if (st != PR_OK)
            return st;
    }
    return PR_OK;
}

enum pr_status
pr_contract_check(const cJSON *sum, struct pr_error *err)
{
    const cJSON *ver, *name;
    char path[160] = "";

    if (!cJSON_IsObject(sum))
        return pr_error_set(err, PR_E_FORMAT, "not a JSON object");
    ver = cJSON_GetObjectItemCaseSensitive(sum, PR_K_SCHEMA_VERSION);
    if (cJSON_IsNumber(ver) && ver->valuedouble != PR_CONTRACT_SCHEMA)
        return pr_error_set(err, PR_E_FORMAT,
                            "unsupported schema_version %g (this build "
                            "reads %d)",
                            ver->valuedouble, PR_CONTRACT_SCHEMA);
    if (check_object(sum, top, path, 0, sizeof(path), err) != PR_OK)
        return PR_E_FORMAT;
    name = cJSON_GetObjectItemCaseSensitive(
        cJSON_GetObjectItemCaseSensitive(sum, PR_K_TOOL), PR_K_NAME);
    if (strcmp(name->valuestring, "profreport") != 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "tool.name: \"%.60s\", not \"profreport\"",
                            name->valuestring);
    return PR_OK;
}
