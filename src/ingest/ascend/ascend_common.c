/* ascend_common.c - the Ascend vocabulary mapped onto the model once, for
 * every Ascend reader (ascend_common.h).  The tables follow CANN's own
 * names as torch_npu, msprof and MindSpore write them
 * (shared/spec/other-producers.md §2.1-2.3). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "../internal.h"
#include "ascend_common.h"
#include "profreport/checked.h"
#include "profreport/parse.h"

#define INFO_MAX ((size_t)16 << 20)

static const struct {
    const char *name;
    enum pr_ascend_task cls;
} task_types[] = {
    {"SDMA", PR_ASCEND_TASK_COPY},
    {"SDMA_SQE", PR_ASCEND_TASK_COPY},
    {"PCIE_DMA_SQE", PR_ASCEND_TASK_COPY},
    {"MEMCPY_ASYNC", PR_ASCEND_TASK_COPY},
    {"Memcpy", PR_ASCEND_TASK_COPY},
    {"Notify Wait", PR_ASCEND_TASK_SYNC},
    {"Notify Record", PR_ASCEND_TASK_SYNC},
    {"Notify_Wait", PR_ASCEND_TASK_SYNC},
    {"Notify_Record", PR_ASCEND_TASK_SYNC},
    {"Write Value", PR_ASCEND_TASK_SYNC},
    {"Event Record", PR_ASCEND_TASK_SYNC},
    {"Event Wait", PR_ASCEND_TASK_SYNC},
    /* CANN <= 6 timelines (msprof PROF_*) spell them in capitals */
    {"NOTIFY_WAIT", PR_ASCEND_TASK_SYNC},
    {"NOTIFY_RECORD", PR_ASCEND_TASK_SYNC},
    {"EVENT_RECORD", PR_ASCEND_TASK_SYNC},
    {"EVENT_WAIT", PR_ASCEND_TASK_SYNC},
    {"EVENT_RESET", PR_ASCEND_TASK_SYNC},
    /* a reduction done by the copy engine as it copies (HCCL's inline
       reduce): memory traffic, part of a collective on its streams */
    {"REDUCE_ASYNC", PR_ASCEND_TASK_COPY},
    {"REDUCE_ASYNC_V2", PR_ASCEND_TASK_COPY},
    {"HCCL", PR_ASCEND_TASK_COMM},
    {"COMMUNICATION", PR_ASCEND_TASK_COMM},
    /* the runtime's own tasks (CANN's rtTaskType names, as the DB's
       TASK.taskType, msprof's Task Type and task_time's kernel_type write
       them): the profiler's start/stop marks, a stream's timeout setting,
       a model's bookkeeping; they run no kernel */
    {"PROFILING_ENABLE", PR_ASCEND_TASK_OTHER},
    {"PROFILING_DISABLE", PR_ASCEND_TASK_OTHER},
    {"TASK_TIMEOUT_SET", PR_ASCEND_TASK_OTHER},
    {"MODEL_MAINTAINCE", PR_ASCEND_TASK_OTHER},
    {"MODEL_EXECUTE", PR_ASCEND_TASK_OTHER},
};

enum pr_ascend_task
pr_ascend_task_class(const char *t)
{
    size_t i, n = strlen(t);

    for (i = 0; i < sizeof(task_types) / sizeof(task_types[0]); i++)
        if (strcmp(t, task_types[i].name) == 0)
            return task_types[i].cls;
    if (n > 4 && strcmp(t + n - 4, "_SQE") == 0 && strcmp(t, "DSA_SQE") != 0)
        return PR_ASCEND_TASK_SYNC;
    return PR_ASCEND_TASK_COMPUTE;
}

enum pr_kind
pr_ascend_task_kind(enum pr_ascend_task c)
{
    switch (c) {
    case PR_ASCEND_TASK_COPY:
        return PR_KIND_COPY;
    case PR_ASCEND_TASK_SYNC: /* a stream's wait, not the host's */
        return PR_KIND_DEVICE_SYNC;
    case PR_ASCEND_TASK_OTHER: /* bookkeeping: not a kernel, not a task */
        return PR_KIND_OTHER;
    case PR_ASCEND_TASK_COMPUTE:
    case PR_ASCEND_TASK_COMM:
    default:
        return PR_KIND_DEVICE_TASK;
    }
}

static const struct {
    const char *name;
    enum pr_unit unit;
} units[] = {
    {"AI_CORE", PR_UNIT_MATRIX},
    {"AIC", PR_UNIT_MATRIX},
    {"AI_VECTOR_CORE", PR_UNIT_VECTOR},
    {"AIV", PR_UNIT_VECTOR},
    {"MIX_AIC", PR_UNIT_MIX_MATRIX},
    {"MIX_AIV", PR_UNIT_MIX_VECTOR},
    {"AI_CPU", PR_UNIT_CPU},
    {"AICPU", PR_UNIT_CPU},
    {"DSA_SQE", PR_UNIT_OTHER},
    {"HCCL", PR_UNIT_COMM},
    {"COMMUNICATION", PR_UNIT_COMM},
    {"FFTS_PLUS", PR_UNIT_OTHER},
};

enum pr_copy_dir
pr_ascend_copy_dir(const char *d)
{
    static const struct {
        const char *text;
        enum pr_copy_dir dir;
    } dirs[] = {{"host to device", PR_DIR_H2D},
                {"device to host", PR_DIR_D2H},
                {"device to device", PR_DIR_D2D},
                /* RT_MEMCPY_ADDR_DEVICE_TO_DEVICE: a device-to-device
                 * copy whose source and destination addresses are
                 * read from device memory (rtMemcpyAsyncPtr, GE's
                 * zero-copy tasks; HCCL: "Level-2 address copy, device
                 * to device") */
                {"addr device to device", PR_DIR_D2D},
                {"host to host", PR_DIR_H2H}};
    size_t i, n;

    for (i = 0; d != NULL && i < sizeof(dirs) / sizeof(dirs[0]); i++) {
        n = strlen(dirs[i].text);
        if (strncmp(d, dirs[i].text, n) == 0 &&
            (d[n] == '\0' || strcmp(d + n, " ex") == 0))
            return dirs[i].dir;
    }
    return PR_DIR_UNKNOWN;
}

enum pr_unit
pr_ascend_unit(const char *core)
{
    size_t i;

    for (i = 0; i < sizeof(units) / sizeof(units[0]); i++)
        if (strcmp(core, units[i].name) == 0)
            return units[i].unit;
    return PR_UNIT_UNKNOWN;
}

static const struct {
    const char *name; /* without "DT_", upper case */
    struct pr_ascend_dtype d;
} dtypes[] = {
    {"FLOAT", {"float", "Float", 4}},
    {"FLOAT32", {"float", "Float", 4}},
    {"FP32", {"float", "Float", 4}},
    {"FLOAT16", {"c10::Half", "Half", 2}},
    {"FP16", {"c10::Half", "Half", 2}},
    {"BF16", {"c10::BFloat16", "BFloat16", 2}},
    {"BFLOAT16", {"c10::BFloat16", "BFloat16", 2}},
    {"BFP16", {"c10::BFloat16", "BFloat16", 2}},
    {"DOUBLE", {"double", "Double", 8}},
    {"FLOAT64", {"double", "Double", 8}},
    {"FP64", {"double", "Double", 8}},
    {"INT64", {"long int", "Long", 8}},
    {"UINT64", {"unsigned long", "Long", 8}},
    {"INT32", {"int", "Int", 4}},
    {"UINT32", {"unsigned int", "Int", 4}},
    {"INT16", {"short int", "Short", 2}},
    {"UINT16", {"unsigned short", "Short", 2}},
    {"INT8", {"signed char", "Char", 1}},
    {"UINT8", {"unsigned char", "Byte", 1}},
    {"BOOL", {"bool", "Bool", 1}},
    {"COMPLEX64", {"c10::complex<float>", "ComplexFloat", 8}},
    {"COMPLEX128", {"c10::complex<double>", "ComplexDouble", 16}},
};

int
pr_ascend_dtype(const char *name, size_t len, struct pr_ascend_dtype *out)
{
    size_t i;

    if (len >= 3 && strncasecmp(name, "DT_", 3) == 0) {
        name += 3;
        len -= 3;
    }
    for (i = 0; i < sizeof(dtypes) / sizeof(dtypes[0]); i++) {
        if (strlen(dtypes[i].name) == len &&
            strncasecmp(name, dtypes[i].name, len) == 0) {
            *out = dtypes[i].d;
            return 1;
        }
    }
    return 0;
}

/* ------------------------------------------------------------ lists */

/* Entries are separated by ';': n separators make n + 1 entries, so
 * "64;\r\n" is [64] and an empty entry.  The entry starting at s[i] ends
 * at *k (the next ';' or len); [*b, *e) is it without the blanks, quotes
 * and "\r\n" around it. */
static void
entry_at(const char *s, size_t len, size_t i, size_t *k, size_t *b, size_t *e)
{
    *k = i;
    while (*k < len && s[*k] != ';')
        (*k)++;
    *b = i;
    *e = *k;
    while (*b < *e && strchr(" \t\r\n\"", s[*b]) != NULL)
        (*b)++;
    while (*e > *b && strchr(" \t\r\n\"", s[*e - 1]) != NULL)
        (*e)--;
}

/* One tensor's dimensions ("32,3,224,224"; "" for a scalar): numbers
 * >= 0 within int64, separated by commas.  0 for anything else. */
static int
dims_ok(const char *s, size_t n)
{
    size_t i = 0, j;
    int64_t v;

    if (n == 0)
        return 1;
    for (;;) {
        for (j = i; j < n && s[j] != ','; j++)
            ;
        while (i < j && s[i] == ' ')
            i++;
        if (!pr_fld_parse_int64(s + i, j - i, &v) || v < 0)
            return 0;
        if (j == n)
            return 1;
        i = j + 1;
    }
}

static int
add_dims(struct pr_buf *out, const char *s, size_t n)
{
    size_t i = 0, j;
    int fail = pr_buf_addc(out, '[') != PR_OK;

    while (i < n && !fail) {
        for (j = i; j < n && s[j] != ','; j++)
            ;
        if (i > 0)
            fail |= pr_buf_add(out, ", ", 2) != PR_OK;
        while (i < j && s[i] == ' ')
            i++;
        fail |= pr_buf_add(out, s + i, j - i) != PR_OK;
        i = j + 1;
    }
    fail |= pr_buf_addc(out, ']') != PR_OK;
    return fail ? -1 : 1;
}

/* Cut blanks and the quotes a CSV's triple quoting leaves around it. */
static void
trim_outer(const char **s, size_t *len)
{
    while (*len > 0 && strchr(" \t\"", (*s)[*len - 1]) != NULL)
        (*len)--;
    while (*len > 0 && strchr(" \t\"", (*s)[0]) != NULL) {
        (*s)++;
        (*len)--;
    }
}

int
pr_ascend_shapes(const char *s, size_t len, struct pr_buf *out)
{
    size_t i, k, b, e;
    int fail;

    trim_outer(&s, &len);
    if (len == 0 || (len == 3 && memcmp(s, "N/A", 3) == 0))
        return 0;
    for (i = 0;; i = k + 1) {
        entry_at(s, len, i, &k, &b, &e);
        if (!dims_ok(s + b, e - b))
            return 0;
        if (k == len)
            break;
    }
    fail = pr_buf_addc(out, '[') != PR_OK;
    for (i = 0; !fail; i = k + 1) {
        entry_at(s, len, i, &k, &b, &e);
        if (i > 0)
            fail |= pr_buf_add(out, ", ", 2) != PR_OK;
        fail |= add_dims(out, s + b, e - b) < 0;
        if (k == len)
            break;
    }
    fail |= pr_buf_addc(out, ']') != PR_OK;
    return fail ? -1 : 1;
}

int
pr_ascend_names(const char *s, size_t len, int torch_names, struct pr_buf *out)
{
    size_t i, k, b, e;
    struct pr_ascend_dtype d;
    int fail;

    trim_outer(&s, &len);
    fail = pr_buf_addc(out, '[') != PR_OK;
    for (i = 0; len > 0 && !fail; i = k + 1) {
        const char *w;
        size_t n;

        entry_at(s, len, i, &k, &b, &e);
        w = s + b;
        n = e - b;
        if (torch_names && pr_ascend_dtype(w, n, &d)) {
            w = d.torch;
            n = strlen(w);
        }
        if (i > 0)
            fail |= pr_buf_add(out, ", ", 2) != PR_OK;
        fail |= pr_buf_addc(out, '\'') != PR_OK ||
                pr_buf_add(out, w, n) != PR_OK ||
                pr_buf_addc(out, '\'') != PR_OK;
        if (k == len)
            break;
    }
    fail |= pr_buf_addc(out, ']') != PR_OK;
    return fail ? -1 : 1;
}

/* ------------------------------------------------------------ HCCL */

static const struct {
    const char *op; /* after "hcom_", lower case, up to '_' */
    const char *coll;
} hcom_ops[] = {
    {"allreduce", "allreduce"},
    {"allgather", "allgather"},
    {"allgatherv", "allgather"},
    {"reducescatter", "reducescatter"},
    {"reducescatterv", "reducescatter"},
    {"alltoall", "alltoall"},
    {"alltoallv", "alltoall"},
    {"alltoallvc", "alltoall"},
    {"broadcast", "broadcast"},
    {"reduce", "reduce"},
    {"send", "send"},
    {"receive", "recv"},
    {"batchsendrecv", "sendrecv"},
    {"barrier", "barrier"},
    {"scatter", "scatter"},
    {"gather", "gather"},
};

const char *
pr_ascend_collective(const char *name)
{
    size_t n, i;

    if (strncmp(name, "hcom_", 5) != 0)
        return NULL;
    name += 5;
    n = strcspn(name, "_");
    for (i = 0; i < sizeof(hcom_ops) / sizeof(hcom_ops[0]); i++)
        if (strlen(hcom_ops[i].op) == n &&
            strncasecmp(name, hcom_ops[i].op, n) == 0)
            return hcom_ops[i].coll;
    return NULL;
}

const char *
pr_ascend_hccl_row(const char *name, char *buf, size_t n)
{
    size_t len;
    const char *g = pr_parse_hccl_group(name, &len);

    if (g != NULL)
        snprintf(buf, n, "HCCL group %.*s", (int)len, g);
    else
        snprintf(buf, n, "HCCL");
    return buf;
}

/* CANN's API calls that put work on a stream, by the names AscendCL and
 * the runtime give them (acl.h, acl_rt.h, acl_op.h, aclnn_*.h; msprof's
 * node level): the single-operator and aclnn executions (aclnnXxx but
 * not aclnnXxxGetWorkspaceSize, aclopExecute*, aclopCompileAndExecute*,
 * aclopExecWithHandle), the model executions (aclmdlExecute*), copies
 * and sets (aclrtMemcpy*, aclrtMemset*), event records and waits
 * (aclrtRecordEvent, aclrtStreamWaitEvent, which queue a task), kernel
 * launches (aclrtLaunch*, rtKernelLaunch*, the node level's "launch",
 * Launch_*), and HCCL's collectives (hcom_*, Hccl*).  Device queries,
 * syncs, descriptors, tiling and compile steps launch nothing: a task
 * that shares their connection id is not theirs. */
int
pr_ascend_api_launches(const char *name)
{
    static const char *const pre[] = {"aclopExecute",
                                      "aclopCompileAndExecute",
                                      "aclopExecWithHandle",
                                      "aclmdlExecute",
                                      "aclrtMemcpy",
                                      "aclrtMemset",
                                      "aclrtLaunch",
                                      "aclrtRecordEvent",
                                      "aclrtStreamWaitEvent",
                                      "rtKernelLaunch",
                                      "rtLaunch",
                                      "Launch_",
                                      "hcom_",
                                      "Hccl"};
    size_t i, n;

    if (name == NULL)
        return 0;
    if (strcmp(name, "launch") == 0)
        return 1;
    n = strlen(name);
    if (strncmp(name, "aclnn", 5) == 0)
        return n < 16 || strcmp(name + n - 16, "GetWorkspaceSize") != 0;
    for (i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
        if (strncmp(name, pre[i], strlen(pre[i])) == 0)
            return 1;
    return 0;
}

int
pr_ascend_is_pmu_col(const char *name)
{
    return strncmp(name, "aic_", 4) == 0 || strncmp(name, "aiv_", 4) == 0 ||
           strcmp(name, "aicore_time(us)") == 0;
}

/* ------------------------------------------------------------ world */

enum pr_status
pr_ascend_world_from_links(struct pr_trace *t, struct pr_error *err)
{
    int64_t top = -1;
    size_t i;
    char note[400];

    for (i = 0; i < t->n_links; i++) {
        if (t->links[i].src > top)
            top = t->links[i].src;
        if (t->links[i].dst > top)
            top = t->links[i].dst;
    }
    if (top < 0)
        return PR_OK;
    t->world_size = top + 1 > t->rank + 1 ? top + 1 : t->rank + 1;
    t->world_source = "communication groups";
    t->world_floor = 1;
    snprintf(note, sizeof(note),
             "at least %lld: this rank's communication links "
             "(communication_matrix.json) name ranks up to %lld%s, and no "
             "file here states the world or lists a group's members (no "
             "world_size in profiler_info, no world group in "
             "profiler_metadata.json's parallel_group_info): the job may "
             "hold more ranks",
             (long long)t->world_size, (long long)top,
             t->rank > top ? ", below this rank's own" : "");
    t->world_note = pr_strtab_intern(t->strs, note, strlen(note));
    return t->world_note == PR_STR_NONE
               ? pr_error_set(err, PR_E_NOMEM, "out of memory")
               : PR_OK;
}

/* ------------------------------------------------------------ info */

static void
copy_str(const cJSON *o, const char *key, char *dst, size_t cap)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);

    if (cJSON_IsString(v))
        snprintf(dst, cap, "%s", v->valuestring);
}

static enum pr_status
info_rank(const cJSON *v, int64_t *rank, struct pr_error *err)
{
    int64_t r;

    if (v == NULL || cJSON_IsNull(v))
        return PR_OK;
    if (pr_fld_int(v, 0, INT32_MAX, &r) != PR_FLD_OK)
        return pr_error_set(err, PR_E_FORMAT,
                            "rank_id is not a rank (a number >= 0, or a "
                            "string holding one)");
    *rank = r;
    return PR_OK;
}

enum pr_status
pr_ascend_info_parse(const char *text, size_t len, struct pr_ascend_info *out,
                     struct pr_error *err)
{
    cJSON *o;
    const cJSON *cfg;
    enum pr_status st;
    int64_t ws = -1;

    memset(out, 0, sizeof(*out));
    out->rank = out->world_size = -1;
    if ((st = pr_ascend_json_text(text, len, err)) != PR_OK)
        return st;
    errno = 0; /* a failed allocation, not bad text, when ENOMEM */
    o = cJSON_ParseWithLength(text, len);
    if (o == NULL && errno == ENOMEM)
        return pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (!cJSON_IsObject(o)) {
        cJSON_Delete(o);
        return pr_error_set(err, PR_E_FORMAT, "not a JSON object");
    }
    st = info_rank(cJSON_GetObjectItemCaseSensitive(o, "rank_id"), &out->rank,
                   err);
    copy_str(o, "cann_version", out->cann, sizeof(out->cann));
    copy_str(o, "torch_npu_version", out->torch_npu, sizeof(out->torch_npu));
    cfg = cJSON_GetObjectItemCaseSensitive(o, "config");
    cfg = cJSON_GetObjectItemCaseSensitive(cfg, "experimental_config");
    copy_str(cfg, "_profiler_level", out->profiler_level,
             sizeof(out->profiler_level));
    if (pr_fld_int(cJSON_GetObjectItemCaseSensitive(o, "world_size"), 1,
                   INT32_MAX, &ws) == PR_FLD_OK)
        out->world_size = ws;
    cJSON_Delete(o);
    return st;
}

/* The text of a small JSON file (at most INFO_MAX) into `text`. */
static enum pr_status
read_small(const char *path, struct pr_buf *text, struct pr_error *err)
{
    struct pr_source *src = NULL;
    const char *p;
    size_t n;
    enum pr_status st = pr_source_open(path, INFO_MAX, 0, &src, err);

    while (st == PR_OK && (st = pr_source_next(src, &p, &n, err)) == PR_OK &&
           n > 0)
        if (pr_buf_add(text, p, n) != PR_OK)
            st = pr_error_set(err, PR_E_LIMIT, "larger than %zu MiB",
                              INFO_MAX >> 20);
    pr_source_close(src);
    return st;
}

enum pr_status
pr_ascend_info_read(const char *path, struct pr_ascend_info *out,
                    struct pr_error *err)
{
    struct pr_buf text;
    enum pr_status st;

    pr_buf_init(&text, INFO_MAX);
    st = read_small(path, &text, err);
    if (st == PR_OK)
        st = pr_ascend_info_parse(text.data ? text.data : "", text.len, out,
                                  err);
    pr_buf_free(&text);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

/* ------------------------------------------------------------ world */

/* The size of a world group's global_ranks: n when they are 0..n-1, each
 * once, and hold `rank` (-1: not checked); -1 otherwise. */
static int64_t
ranks_size(const cJSON *ranks, int64_t rank)
{
    int n = cJSON_GetArraySize(ranks);
    const cJSON *v;
    unsigned char *seen;
    int64_t r;
    int found = rank < 0, ok = 1;

    if (n <= 0 || n > (1 << 24) || (seen = calloc((size_t)n, 1)) == NULL)
        return -1;
    cJSON_ArrayForEach(v, ranks)
    {
        if (pr_fld_int(v, 0, n - 1, &r) != PR_FLD_OK || seen[r]) {
            ok = 0;
            break;
        }
        seen[r] = 1;
        found |= r == rank;
    }
    free(seen);
    return ok && found ? n : -1;
}

/* The world's group among parallel_group_info's (torch_npu names it
 * "default_group", MindSpore "hccl_world_group"): its size, else -1. */
static int64_t
world_of(const cJSON *groups, int64_t rank)
{
    const cJSON *g;

    cJSON_ArrayForEach(g, groups)
    {
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(g, "group_name");
        const cJSON *ranks =
            cJSON_GetObjectItemCaseSensitive(g, "global_ranks");

        if (cJSON_IsString(name) && cJSON_IsArray(ranks) &&
            (strcmp(name->valuestring, "default_group") == 0 ||
             strcmp(name->valuestring, "hccl_world_group") == 0))
            return ranks_size(ranks, rank);
    }
    return -1;
}

int64_t
pr_ascend_group_world(const char *text, size_t len, int64_t rank)
{
    cJSON *o = cJSON_ParseWithLength(text, len), *inner = NULL;
    int64_t w = -1;

    if (cJSON_IsString(o)) /* the object's text, as a string */
        inner = cJSON_Parse(o->valuestring);
    if (cJSON_IsObject(inner ? inner : o))
        w = world_of(inner ? inner : o, rank);
    cJSON_Delete(inner);
    cJSON_Delete(o);
    return w;
}

enum pr_status
pr_ascend_metadata_world(const char *path, int64_t rank, int64_t *world,
                         struct pr_error *err)
{
    struct pr_buf text;
    struct pr_error ignored;
    enum pr_status st = PR_OK;
    cJSON *o = NULL, *g;
    char *s;

    *world = -1;
    pr_buf_init(&text, INFO_MAX);
    pr_error_clear(&ignored);
    if (read_small(path, &text, &ignored) == PR_OK) {
        st = pr_ascend_json_text(text.data ? text.data : "", text.len, err);
        if (st == PR_OK)
            o = cJSON_ParseWithLength(text.data ? text.data : "", text.len);
    }
    pr_buf_free(&text);
    g = cJSON_GetObjectItemCaseSensitive(o, "parallel_group_info");
    if (cJSON_IsObject(g)) {
        *world = world_of(g, rank);
    } else if (cJSON_IsString(g)) {
        s = g->valuestring;
        *world = pr_ascend_group_world(s, strlen(s), rank);
    }
    cJSON_Delete(o);
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", path);
    return st;
}

enum pr_status
pr_ascend_json_text(const char *text, size_t len, struct pr_error *err)
{
    const char *nul = len > 0 ? memchr(text, '\0', len) : NULL;

    if (nul != NULL)
        return pr_error_set(err, PR_E_FORMAT,
                            "byte %zu: a NUL byte, which JSON text never "
                            "holds: not read",
                            (size_t)(nul - text));
    return pr_json_refuse_nul(text, len, 0, UINT64_MAX, err);
}

/* HCCL's rank fields: 4294967295 is "no peer"; beyond 2^24 a marker. */
#define HCCL_MAX_RANK ((int64_t)1 << 24)

enum pr_status
pr_ascend_hccl_peer(struct pr_trace *t, const char *task_type, int64_t src,
                    int64_t dst, int64_t ts, int64_t dur)
{
    struct pr_hccl_task h;
    int wait = strcmp(task_type, "Notify_Wait") == 0 ||
               strcmp(task_type, "Notify Wait") == 0;

    if (!wait && strcmp(task_type, "Memcpy") != 0 &&
        strcmp(task_type, "Reduce_Inline") != 0 &&
        strcmp(task_type, "RDMASend") != 0)
        return PR_OK;
    if (src < 0 || src >= HCCL_MAX_RANK || dst < 0 || dst >= HCCL_MAX_RANK ||
        dst == src)
        return PR_OK;
    h.ts_ns = ts;
    h.end_ns = pr_sat_add_i64(ts, dur > 0 ? dur : 0);
    h.peer = (int32_t)dst;
    h.wait = (uint8_t)wait;
    return pr_trace_add_hccl(t, &h);
}

/* ------------------------------------------------------------ task rows */

static size_t
row_hash(int64_t stream, int64_t task, int64_t ts, int64_t dur)
{
    uint64_t h = (uint64_t)stream * 0x9e3779b97f4a7c15u;

    h = (h ^ (uint64_t)task) * 0xff51afd7ed558ccdu;
    h = (h ^ (uint64_t)ts) * 0xc4ceb9fe1a85ec53u;
    h = (h ^ (uint64_t)dur) * 0x9e3779b97f4a7c15u;
    return (size_t)(h ^ (h >> 29));
}

static int
row_same(const struct pr_asc_row *x, int64_t stream, int64_t task, int64_t ts,
         int64_t dur)
{
    return x->stream == stream && x->task == task && x->ts == ts &&
           x->dur == dur;
}

/* The slot of that row, or of the empty place it would take. */
static size_t *
row_slot(const struct pr_asc_rows *r, int64_t stream, int64_t task, int64_t ts,
         int64_t dur)
{
    size_t i = row_hash(stream, task, ts, dur) & (r->n_slot - 1);

    while (r->slot[i] != 0 &&
           !row_same(&r->v[r->slot[i] - 1], stream, task, ts, dur))
        i = (i + 1) & (r->n_slot - 1);
    return &r->slot[i];
}

static int
rows_rehash(struct pr_asc_rows *r)
{
    size_t n = r->n_slot ? r->n_slot * 2 : 256, i;
    size_t *old = r->slot;

    r->slot = calloc(n, sizeof(*r->slot));
    if (r->slot == NULL) {
        r->slot = old;
        return 0;
    }
    r->n_slot = n;
    for (i = 0; i < r->n; i++) {
        const struct pr_asc_row *x = &r->v[i];
        *row_slot(r, x->stream, x->task, x->ts, x->dur) = i + 1;
    }
    free(old);
    return 1;
}

static void
note_dup(struct pr_asc_rows *r, const struct pr_asc_row *kept, uint32_t name)
{
    size_t i;

    r->dropped++;
    for (i = 0; i < r->n_dup; i++) {
        struct pr_asc_dup *d = &r->dup[i];

        if (d->stream == kept->stream && d->task == kept->task) {
            d->times++;
            if (name != kept->name && d->other == PR_STR_NONE)
                d->other = name;
            return;
        }
    }
    if (r->n_dup < sizeof(r->dup) / sizeof(r->dup[0]))
        r->dup[r->n_dup++] =
            (struct pr_asc_dup){kept->stream, kept->task, 1, kept->name,
                                name != kept->name ? name : PR_STR_NONE};
}

int
pr_asc_rows_seen(struct pr_asc_rows *r, struct pr_trace *t, int64_t stream,
                 int64_t task, int64_t ts, int64_t dur, int64_t ctx,
                 const char *name)
{
    uint32_t id;
    size_t *s;

    if (stream < 0 || task < 0)
        return 0;
    id = pr_strtab_intern(t->strs, name, strlen(name));
    if (id == PR_STR_NONE)
        return -1;
    if ((r->n + 1) * 2 > r->n_slot && !rows_rehash(r))
        return -1;
    s = row_slot(r, stream, task, ts, dur);
    if (*s != 0) {
        note_dup(r, &r->v[*s - 1], id);
        return 1;
    }
    if (pr_grow((void **)&r->v, &r->cap, r->n + 1, sizeof(*r->v)) != PR_OK)
        return -1;
    r->v[r->n] = (struct pr_asc_row){stream, task, ts, dur, ctx, id};
    *s = ++r->n;
    return 0;
}

static int
cmp_row(const void *a, const void *b)
{
    const struct pr_asc_row *x = a, *y = b;

    if (x->stream != y->stream)
        return x->stream < y->stream ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return (x->task > y->task) - (x->task < y->task);
}

static enum pr_status
note_dups(const struct pr_asc_rows *r, struct pr_trace *t, const char *name)
{
    char text[900];
    size_t i;
    int n;

    if (r->dropped == 0)
        return PR_OK;
    n = snprintf(text, sizeof(text),
                 "%zu duplicate row%s of %s dropped (the Stream ID, Task "
                 "ID, Start Time and Duration of an earlier row: one task, "
                 "listed again):",
                 r->dropped, r->dropped == 1 ? "" : "s", name);
    for (i = 0; i < r->n_dup && n >= 0 && (size_t)n < sizeof(text); i++) {
        const struct pr_asc_dup *d = &r->dup[i];

        n += snprintf(text + n, sizeof(text) - (size_t)n,
                      "%s Task %lld of stream %lld x%zu (%.80s%s%.80s)",
                      i ? ";" : "", (long long)d->task, (long long)d->stream,
                      d->times, pr_trace_str(t, d->name),
                      d->other != PR_STR_NONE ? ", also named " : "",
                      d->other != PR_STR_NONE ? pr_trace_str(t, d->other) : "");
    }
    if (n >= 0 && (size_t)n < sizeof(text) && r->n_dup < r->dropped) {
        size_t named = 0;

        for (i = 0; i < r->n_dup; i++)
            named += r->dup[i].times;
        if (named < r->dropped)
            snprintf(text + n, sizeof(text) - (size_t)n, "; %zu more",
                     r->dropped - named);
    }
    return pr_trace_add_gap(t, "duplicate_task_rows", r->dropped, text);
}

/* What the rows hold as tasks: a row on the Task ID of the row before it
 * on its stream (in start order) is a further context of that task. */
struct asc_tasks {
    size_t tasks, skip; /* tasks; Task IDs skipped between them */
    size_t multi;       /* tasks written on more than one row */
    size_t most;        /* the most rows one task is written on */
    int ctx;            /* every further row has its own Context ID */
    int64_t worst;      /* the stream that skips the most, -1 none */
    size_t worst_tasks, worst_skip;
};

/* Per stream, the Task IDs skipped between tasks in start order. */
static void
count_tasks(struct pr_asc_rows *r, struct asc_tasks *c)
{
    size_t i, tasks = 0, skip = 0, rows = 1;

    memset(c, 0, sizeof(*c));
    c->worst = -1;
    c->ctx = 1;
    if (r->n > 1)
        qsort(r->v, r->n, sizeof(*r->v), cmp_row);
    for (i = 0; i < r->n; i++) {
        const struct pr_asc_row *x = &r->v[i], *p = i ? &r->v[i - 1] : NULL;

        if (p != NULL && p->stream == x->stream && p->task == x->task) {
            /* the same task again: one of its FFTS+ contexts */
            if (x->ctx < 0 || p->ctx < 0 || x->ctx == p->ctx)
                c->ctx = 0;
            if (++rows == 2)
                c->multi++;
            c->most = rows > c->most ? rows : c->most;
        } else {
            if (p != NULL && p->stream == x->stream) {
                int64_t d = ((x->task - p->task) % 65536 + 65536) % 65536;

                skip += d > 1 ? (size_t)(d - 1) : 0;
            }
            tasks++;
            rows = 1;
        }
        if (i + 1 == r->n || r->v[i + 1].stream != x->stream) {
            if (skip > c->worst_skip) {
                c->worst = x->stream;
                c->worst_tasks = tasks;
                c->worst_skip = skip;
            }
            c->tasks += tasks;
            c->skip += skip;
            tasks = skip = 0;
        }
    }
}

enum pr_status
pr_asc_rows_note(struct pr_asc_rows *r, struct pr_trace *t, const char *path)
{
    const char *name = strrchr(path, '/') ? strrchr(path, '/') + 1 : path;
    char text[800], rows[200] = "";
    struct asc_tasks c;

    if (note_dups(r, t, name) != PR_OK)
        return PR_E_NOMEM;
    free(r->slot); /* no more lookups: the rows are sorted now */
    r->slot = NULL;
    r->n_slot = 0;
    count_tasks(r, &c);
    if (c.tasks == 0 || c.skip < PR_ASC_EXTRACT_MIN ||
        (double)c.skip <= PR_ASC_EXTRACT_RATIO * (double)c.tasks)
        return PR_OK;
    t->extract_rows = c.tasks;
    t->extract_lines = r->n;
    t->extract_min = c.tasks + c.skip;
    if (c.multi > 0) /* review24 #6: rows are not tasks */
        snprintf(rows, sizeof(rows), " (%zu rows: %zu task%s %s %s%s)", r->n,
                 c.multi, c.multi == 1 ? "" : "s",
                 c.multi == 1 ? "has" : "have",
                 c.most == 2 ? "two " : "two or more ",
                 c.ctx ? "FFTS+ contexts, a row per Context ID" : "rows");
    snprintf(text, sizeof(text),
             "The file is an extract of the device's tasks, not its "
             "timeline: its %zu tasks with a Stream ID%s skip %zu Task IDs "
             "between them (stream %lld: %zu tasks, %zu ids skipped), so "
             "their streams ran at least %zu tasks (CANN numbers a "
             "stream's tasks one after another). Utilization, idle time "
             "and the critical path are not known from it; the kernel "
             "tables hold the tasks it lists.",
             c.tasks, rows, c.skip, (long long)c.worst, c.worst_tasks,
             c.worst_skip, c.tasks + c.skip);
    return pr_trace_add_gap(t, "task_list_extract", c.tasks, text);
}

void
pr_asc_rows_free(struct pr_asc_rows *r)
{
    free(r->v);
    free(r->slot);
    memset(r, 0, sizeof(*r));
}

/* ------------------------------------------------ operators' threads */

static int
cmp_hop(const void *a, const void *b)
{
    const struct pr_asc_hop *x = a, *y = b;

    if (x->s != y->s)
        return x->s < y->s ? -1 : 1;
    return x->e > y->e ? -1 : (x->e < y->e); /* the outer first */
}

enum pr_status
pr_asc_opthreads_make(const struct pr_trace *t, struct pr_asc_opthreads *o)
{
    int64_t best = -1;
    size_t i, n = 0;

    memset(o, 0, sizeof(*o));
    o->pid = o->tid = PR_STR_NONE;
    for (i = 0; i < t->n_events; i++)
        n += t->events[i].kind == PR_KIND_HOST_OP;
    o->v = malloc((n ? n : 1) * sizeof(*o->v));
    if (o->v == NULL)
        return PR_E_NOMEM;
    for (i = 0; i < t->n_events; i++) {
        const struct pr_event *e = &t->events[i];
        struct pr_asc_hop *h;

        if (e->kind != PR_KIND_HOST_OP)
            continue;
        if (e->dur_ns > best) {
            best = e->dur_ns;
            o->pid = pr_event_pid(t, e);
            o->tid = pr_event_tid(t, e);
        }
        if (e->dur_ns <= 0)
            continue;
        h = &o->v[o->n++];
        h->s = e->ts_ns;
        h->e = pr_sat_add_i64(e->ts_ns, e->dur_ns);
        h->pid = pr_event_pid(t, e);
        h->tid = pr_event_tid(t, e);
    }
    if (o->n > 1)
        qsort(o->v, o->n, sizeof(*o->v), cmp_hop);
    return PR_OK;
}

/* How far back from the last operator to start by ts the search for one
 * still running goes: a thread's nested operators start after their
 * parent, so the innermost is met first; past this many finished ones
 * the record keeps the step's thread. */
#define OPTHREAD_LOOKBACK 512

int
pr_asc_opthreads_at(const struct pr_asc_opthreads *o, int64_t ts, uint32_t *pid,
                    uint32_t *tid)
{
    size_t lo = 0, hi = o->n, k;

    while (lo < hi) { /* the first operator to start after ts */
        size_t mid = lo + (hi - lo) / 2;

        if (o->v[mid].s <= ts)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (k = 0; k < OPTHREAD_LOOKBACK && lo > 0; k++) {
        const struct pr_asc_hop *h = &o->v[--lo];

        if (h->e > ts) {
            *pid = h->pid;
            *tid = h->tid;
            return 1;
        }
    }
    return 0;
}

void
pr_asc_opthreads_free(struct pr_asc_opthreads *o)
{
    free(o->v);
    memset(o, 0, sizeof(*o));
}

/* The length of s[0..n) without a trailing "_<digits>". */
static size_t
drop_instance(const char *s, size_t n)
{
    size_t k = n;

    while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
        k--;
    return k < n && k > 1 && s[k - 1] == '_' ? k - 1 : n;
}

void
pr_asc_ge_name(const char *name, size_t n, char *out, size_t cap)
{
    size_t k;

    if (n >= 6 && strncmp(name, "cann::", 6) == 0) {
        name += 6;
        n -= 6;
    }
    n = drop_instance(name, n);
    if (n > 3 && strncmp(name + n - 3, "_in", 3) == 0)
        n -= 3; /* "ReduceSum7_in_1": ReduceSum7's */
    k = drop_instance(name, n);
    n = k > 0 ? k : n;
    if (n == 0) {
        name = "GE";
        n = 2;
    }
    snprintf(out, cap, "cann::%.*s", (int)n, name);
}
