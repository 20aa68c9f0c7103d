/* peaks.c - the device peak table: parse data/devices.json (installed,
 * compiled in, or a --device-spec file), match a trace's device by name or
 * compute capability, apply the command-line overrides.  Which peak an op
 * is held to is decided here too; the roofline itself is roofline.c. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "profreport/peaks.h"

#define MAX_TABLE_BYTES (1 << 20) /* a device table is a few KiB */
#define MAX_ENTRIES 1024
#define MAX_MATCH 8
#define MATCH_LEN 48

struct peak_entry {
    char name[64];
    char source[512];
    char match[MAX_MATCH][MATCH_LEN]; /* lower case */
    int n_match;
    int cc_major, cc_minor; /* -1 when not given */
    int cap_default;
    int amd;
    int from_user;
    int match_all;                /* a --device-spec for every device */
    double tflops[PR_PEAK_COUNT]; /* NaN = null */
    double gbps;
};

struct pr_peak_table {
    struct peak_entry *e; /* owned */
    size_t n;
};

static const char *const peak_keys[PR_PEAK_COUNT] = {
    "fp64",        "fp32",       "tf32_tensor", "fp16_tensor",
    "bf16_tensor", "fp8_tensor", "int8_tensor",
};

const char *
pr_peaks_key(enum pr_peak_kind k)
{
    return ((int)k >= 0 && k < PR_PEAK_COUNT) ? peak_keys[k] : "unknown";
}

void
pr_peaks_table_free(struct pr_peak_table *t)
{
    if (!t)
        return;
    free(t->e);
    free(t);
}

size_t
pr_peaks_table_count(const struct pr_peak_table *t)
{
    return t ? t->n : 0;
}

/* ------------------------------------------------------------------ parse */

/* A peak value: a finite number >= 0, or null (NaN). */
static enum pr_status
read_rate(const cJSON *v, const char *what, const char *entry, double *out,
          struct pr_error *err)
{
    *out = NAN;
    if (!v || cJSON_IsNull(v))
        return PR_OK;
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < 0)
        return pr_error_set(err, PR_E_FORMAT,
                            "device table: \"%s\": %s is not a number >= 0",
                            entry, what);
    *out = v->valuedouble;
    return PR_OK;
}

static enum pr_status
read_tflops(const cJSON *obj, struct peak_entry *e, struct pr_error *err)
{
    const cJSON *it;
    int k;

    for (k = 0; k < PR_PEAK_COUNT; k++)
        e->tflops[k] = NAN;
    if (!obj || cJSON_IsNull(obj))
        return PR_OK;
    if (!cJSON_IsObject(obj))
        return pr_error_set(err, PR_E_FORMAT,
                            "device table: \"%s\": "
                            "peak_tflops is not an object",
                            e->name);
    cJSON_ArrayForEach(it, obj)
    {
        for (k = 0; k < PR_PEAK_COUNT; k++) {
            if (strcmp(it->string, peak_keys[k]) == 0)
                break;
        }
        if (k == PR_PEAK_COUNT)
            return pr_error_set(err, PR_E_FORMAT,
                                "device table: \"%s\": "
                                "unknown peak \"%s\"",
                                e->name, it->string);
        if (read_rate(it, it->string, e->name, &e->tflops[k], err) != PR_OK)
            return PR_E_FORMAT;
    }
    return PR_OK;
}

static enum pr_status
read_match(const cJSON *arr, struct peak_entry *e, struct pr_error *err)
{
    const cJSON *it;
    size_t i, len;

    if (!arr)
        return PR_OK;
    if (!cJSON_IsArray(arr))
        return pr_error_set(err, PR_E_FORMAT,
                            "device table: \"%s\": "
                            "match is not a list",
                            e->name);
    cJSON_ArrayForEach(it, arr)
    {
        if (!cJSON_IsString(it) || e->n_match == MAX_MATCH)
            return pr_error_set(err, PR_E_FORMAT,
                                "device table: \"%s\": "
                                "match needs at most %d strings",
                                e->name, MAX_MATCH);
        len = strlen(it->valuestring);
        if (len == 0 || len >= MATCH_LEN)
            return pr_error_set(err, PR_E_FORMAT,
                                "device table: \"%s\": "
                                "match \"%s\" is empty or too long",
                                e->name, it->valuestring);
        for (i = 0; i <= len; i++)
            e->match[e->n_match][i] =
                (char)tolower((unsigned char)it->valuestring[i]);
        e->n_match++;
    }
    return PR_OK;
}

static void
copy_str(char *dst, size_t cap, const cJSON *v, const char *dflt)
{
    snprintf(dst, cap, "%s", cJSON_IsString(v) ? v->valuestring : dflt);
}

static void
read_capability(const cJSON *v, struct peak_entry *e)
{
    int ma, mi;

    e->cc_major = e->cc_minor = -1;
    if (cJSON_IsString(v) && sscanf(v->valuestring, "%d.%d", &ma, &mi) == 2) {
        e->cc_major = ma;
        e->cc_minor = mi;
    }
}

static enum pr_status
read_entry(const cJSON *o, struct peak_entry *e, struct pr_error *err)
{
    const cJSON *vendor = cJSON_GetObjectItemCaseSensitive(o, "vendor");

    memset(e, 0, sizeof(*e));
    if (!cJSON_IsObject(o))
        return pr_error_set(err, PR_E_FORMAT,
                            "device table: an entry is not an object");
    copy_str(e->name, sizeof(e->name),
             cJSON_GetObjectItemCaseSensitive(o, "name"), "device-spec");
    copy_str(e->source, sizeof(e->source),
             cJSON_GetObjectItemCaseSensitive(o, "source"), "");
    e->amd = cJSON_IsString(vendor) && strcmp(vendor->valuestring, "amd") == 0;
    e->cap_default =
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "capability_default"));
    read_capability(cJSON_GetObjectItemCaseSensitive(o, "compute_capability"),
                    e);
    if (read_match(cJSON_GetObjectItemCaseSensitive(o, "match"), e, err) !=
            PR_OK ||
        read_tflops(cJSON_GetObjectItemCaseSensitive(o, "peak_tflops"), e,
                    err) != PR_OK)
        return PR_E_FORMAT;
    return read_rate(cJSON_GetObjectItemCaseSensitive(o, "peak_gbps"),
                     "peak_gbps", e->name, &e->gbps, err);
}

static struct pr_peak_table *
table_new(size_t n, struct pr_error *err)
{
    struct pr_peak_table *t = calloc(1, sizeof(*t));

    if (t && n > 0)
        t->e = calloc(n, sizeof(*t->e));
    if (!t || (n > 0 && !t->e)) {
        pr_peaks_table_free(t);
        pr_error_set(err, PR_E_NOMEM, "device table: out of memory");
        return NULL;
    }
    return t;
}

/* {"devices": [...]} or a single object for every device. */
static struct pr_peak_table *
table_from_json(const cJSON *root, int from_user, struct pr_error *err)
{
    const cJSON *devs = cJSON_GetObjectItemCaseSensitive(root, "devices");
    const cJSON *it;
    struct pr_peak_table *t;
    int single = !devs;
    size_t n = single ? 1 : (size_t)cJSON_GetArraySize(devs);

    if (!single && !cJSON_IsArray(devs)) {
        pr_error_set(err, PR_E_FORMAT, "device table: devices is not a list");
        return NULL;
    }
    if (n > MAX_ENTRIES) {
        pr_error_set(err, PR_E_LIMIT, "device table: more than %d devices",
                     MAX_ENTRIES);
        return NULL;
    }
    t = table_new(n, err);
    if (!t)
        return NULL;
    for (it = single ? root : devs->child; it && t->n < n; it = it->next) {
        if (read_entry(it, &t->e[t->n], err) != PR_OK) {
            pr_peaks_table_free(t);
            return NULL;
        }
        t->e[t->n].from_user = from_user;
        t->e[t->n].match_all = single;
        t->n++;
        if (single)
            break;
    }
    return t;
}

struct pr_peak_table *
pr_peaks_table_parse(const char *json, size_t len, int from_user,
                     struct pr_error *err)
{
    cJSON *root = cJSON_ParseWithLength(json, len);
    struct pr_peak_table *t;

    if (!root || !cJSON_IsObject(root)) {
        cJSON_Delete(root);
        pr_error_set(err, PR_E_FORMAT, "device table: not a JSON object");
        return NULL;
    }
    t = table_from_json(root, from_user, err);
    cJSON_Delete(root);
    return t;
}

struct pr_peak_table *
pr_peaks_table_load(const char *path, int from_user, struct pr_error *err)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t n = 0;
    struct pr_peak_table *t = NULL;

    if (!f) {
        pr_error_set(err, PR_E_IO, "%s: cannot open device table", path);
        return NULL;
    }
    buf = malloc(MAX_TABLE_BYTES + 1);
    if (!buf) {
        pr_error_set(err, PR_E_NOMEM, "%s: out of memory", path);
        goto done;
    }
    n = fread(buf, 1, MAX_TABLE_BYTES + 1, f);
    if (ferror(f) || n > MAX_TABLE_BYTES) {
        pr_error_set(err, ferror(f) ? PR_E_IO : PR_E_LIMIT,
                     "%s: cannot read device table (or over 1 MiB)", path);
        goto done;
    }
    t = pr_peaks_table_parse(buf, n, from_user, err);
    if (!t)
        pr_error_prefix(err, "%s: ", path);
done:
    free(buf);
    fclose(f);
    return t;
}

/* a's entries, then b's; frees both. */
static struct pr_peak_table *
table_concat(struct pr_peak_table *a, struct pr_peak_table *b,
             struct pr_error *err)
{
    struct pr_peak_table *t = table_new(a->n + b->n, err);

    if (t) {
        if (a->n)
            memcpy(t->e, a->e, a->n * sizeof(*t->e));
        if (b->n)
            memcpy(t->e + a->n, b->e, b->n * sizeof(*t->e));
        t->n = a->n + b->n;
    }
    pr_peaks_table_free(a);
    pr_peaks_table_free(b);
    return t;
}

/* The installed table when readable, else the compiled-in one. */
static struct pr_peak_table *
builtin_table(struct pr_error *err)
{
    struct pr_error ignored = {PR_OK, ""};
    struct pr_peak_table *t;

    t = pr_peaks_table_load(PR_DATADIR "/devices.json", 0, &ignored);
    if (t)
        return t;
    return pr_peaks_table_parse((const char *)pr_peaks_builtin_json,
                                pr_peaks_builtin_json_len, 0, err);
}

struct pr_peak_table *
pr_peaks_table_open(const struct pr_analysis_opts *o, struct pr_error *err)
{
    struct pr_peak_table *user = NULL, *base;

    if (o && o->device_spec) {
        user = pr_peaks_table_load(o->device_spec, 1, err);
        if (!user)
            return NULL;
    }
    base = builtin_table(err);
    if (!base || !user) {
        pr_peaks_table_free(user);
        return base;
    }
    return table_concat(user, base, err);
}

/* ----------------------------------------------------------------- lookup */

static int
is_word_char(char c)
{
    return isalnum((unsigned char)c);
}

/* pat occurs in name (both lower case) with no letter or digit right
 * before or after it, so "a10" does not match "a100". */
static int
word_match(const char *name, const char *pat)
{
    size_t len = strlen(pat);
    const char *p = name;

    while ((p = strstr(p, pat)) != NULL) {
        int left = p == name || !is_word_char(p[-1]);
        int right = !is_word_char(p[len]);

        if (left && right)
            return 1;
        p++;
    }
    return 0;
}

/* Longest matching pattern among entries with from_user == user. */
static const struct peak_entry *
best_name_match(const struct pr_peak_table *t, const char *lname, int user)
{
    const struct peak_entry *best = NULL;
    size_t i, best_len = 0;
    int j;

    for (i = 0; i < t->n; i++) {
        const struct peak_entry *e = &t->e[i];

        if (e->from_user != user)
            continue;
        for (j = 0; j < e->n_match; j++) {
            size_t len = strlen(e->match[j]);

            if (len > best_len && word_match(lname, e->match[j])) {
                best = e;
                best_len = len;
            }
        }
    }
    return best;
}

static const struct peak_entry *
user_match_all(const struct pr_peak_table *t)
{
    size_t i;

    for (i = 0; i < t->n; i++) {
        if (t->e[i].from_user && t->e[i].match_all)
            return &t->e[i];
    }
    return NULL;
}

/* The capability default of the device's vendor (AMD parts report gfx
 * versions as 9.x, which must not select a Hopper entry). */
static const struct peak_entry *
capability_match(const struct pr_peak_table *t, const char *lname, int major,
                 int minor)
{
    int amd = strstr(lname, "amd") || strstr(lname, "instinct") ||
              strstr(lname, "radeon");
    size_t i;

    if (major < 0)
        return NULL;
    for (i = 0; i < t->n; i++) {
        const struct peak_entry *e = &t->e[i];

        if (e->cap_default && e->amd == amd && e->cc_major == major &&
            e->cc_minor == minor)
            return e;
    }
    return NULL;
}

static void
lower_copy(char *dst, size_t cap, const char *src)
{
    size_t i;

    for (i = 0; src && src[i] && i + 1 < cap; i++)
        dst[i] = (char)tolower((unsigned char)src[i]);
    dst[i] = '\0';
}

static const struct peak_entry *
find_entry(const struct pr_peak_table *t, const char *name, int major,
           int minor, enum pr_peak_match *how)
{
    char lname[256];
    const struct peak_entry *e;

    *how = PR_MATCH_NONE;
    if (!t)
        return NULL;
    lower_copy(lname, sizeof(lname), name);
    e = best_name_match(t, lname, 1);
    if (e) {
        *how = PR_MATCH_NAME;
        return e;
    }
    e = user_match_all(t);
    if (e) {
        *how = PR_MATCH_ALL;
        return e;
    }
    e = best_name_match(t, lname, 0);
    if (e) {
        *how = PR_MATCH_NAME;
        return e;
    }
    e = capability_match(t, lname, major, minor);
    if (e)
        *how = PR_MATCH_CAPABILITY;
    return e;
}

static void
apply_overrides(const struct pr_analysis_opts *o, struct pr_peaks *out)
{
    int k;

    if (!o)
        return;
    if (o->peak_tflops > 0) {
        for (k = 0; k < PR_PEAK_COUNT; k++)
            out->tflops[k] = o->peak_tflops;
        out->origin = PR_PEAK_CLI;
    }
    if (o->peak_gbps > 0) {
        out->gbps = o->peak_gbps;
        out->origin = PR_PEAK_CLI;
    }
}

void
pr_peaks_lookup(const struct pr_peak_table *t, const struct pr_analysis_opts *o,
                const char *name, int cc_major, int cc_minor,
                struct pr_peaks *out)
{
    const struct peak_entry *e;
    int k;

    memset(out, 0, sizeof(*out));
    for (k = 0; k < PR_PEAK_COUNT; k++)
        out->tflops[k] = NAN;
    out->gbps = NAN;
    e = find_entry(t, name, cc_major, cc_minor, &out->match);
    if (e) {
        memcpy(out->tflops, e->tflops, sizeof(out->tflops));
        out->gbps = e->gbps;
        out->origin = e->from_user ? PR_PEAK_CLI : PR_PEAK_TABLE;
        snprintf(out->entry, sizeof(out->entry), "%s", e->name);
        snprintf(out->source, sizeof(out->source), "%s", e->source);
    }
    apply_overrides(o, out);
}

double
pr_peaks_compute(const struct pr_peaks *p, enum pr_dtype dt,
                 int on_tensor_cores)
{
    if (dt == PR_DT_FP64)
        return p->tflops[PR_PEAK_FP64];
    if (!on_tensor_cores)
        return p->tflops[PR_PEAK_FP32];
    switch (dt) {
    case PR_DT_FP32:
    case PR_DT_TF32:
        return p->tflops[PR_PEAK_TF32];
    case PR_DT_FP16:
        return p->tflops[PR_PEAK_FP16];
    case PR_DT_BF16:
        return p->tflops[PR_PEAK_BF16];
    case PR_DT_FP8:
        return p->tflops[PR_PEAK_FP8];
    case PR_DT_INT8:
    case PR_DT_UINT8:
        return p->tflops[PR_PEAK_INT8];
    default:
        return p->tflops[PR_PEAK_FP32];
    }
}
