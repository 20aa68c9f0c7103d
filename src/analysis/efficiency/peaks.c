/* peaks.c - the device peak table: parse data/devices.json (installed,
 * compiled in, or a --device-spec file), match a trace's device by name or
 * compute capability, apply the command-line overrides.  Which peak an op
 * is held to is decided here too; the roofline itself is roofline.c. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "profreport/keys.h"
#include "profreport/peaks.h"

#define MAX_TABLE_BYTES (1 << 20) /* a device table is a few KiB */
#define MAX_ENTRIES 1024
#define MAX_MATCH 8
#define MATCH_LEN 48
#define NAME_LEN 64

struct peak_entry {
    char name[64];
    char source[1024];
    char match[MAX_MATCH][MATCH_LEN]; /* lower case */
    int n_match;
    char names[MAX_MATCH][NAME_LEN]; /* exact names, lower case */
    int n_names;
    char arch[16];          /* "sm_80", "gfx90a"; "" when not given */
    int cus;                /* compute units; -1 when not given */
    double cache;           /* last-level cache bytes; NaN when not given */
    double clock_mhz;       /* boost clock the peaks assume; NaN not given */
    double memory;          /* device memory bytes; NaN when not given */
    int geforce;            /* a GeForce part (half-rate FP32 accumulate) */
    int cc_major, cc_minor; /* -1 when not given */
    int cap_default;
    int guess; /* a family name that does not say which part ran */
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
    "fp64",       "fp32",        "tf32_tensor", "fp16_tensor", "bf16_tensor",
    "fp8_tensor", "int8_tensor", "fp32_matrix", "fp4_tensor",
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

/* A list of at most MAX_MATCH strings, each shorter than len, lower-cased
 * into dst. */
static enum pr_status
read_strings(const cJSON *arr, const char *what, const char *entry, char *dst,
             size_t len, int *n, struct pr_error *err)
{
    const cJSON *it;
    size_t i, l;

    if (!arr)
        return PR_OK;
    if (!cJSON_IsArray(arr))
        return pr_error_set(err, PR_E_FORMAT,
                            "device table: \"%s\": %s is not a list", entry,
                            what);
    cJSON_ArrayForEach(it, arr)
    {
        if (!cJSON_IsString(it) || *n == MAX_MATCH)
            return pr_error_set(err, PR_E_FORMAT,
                                "device table: \"%s\": "
                                "%s needs at most %d strings",
                                entry, what, MAX_MATCH);
        l = strlen(it->valuestring);
        if (l == 0 || l >= len)
            return pr_error_set(err, PR_E_FORMAT,
                                "device table: \"%s\": "
                                "%s \"%s\" is empty or too long",
                                entry, what, it->valuestring);
        for (i = 0; i <= l; i++)
            dst[(size_t)*n * len + i] =
                (char)tolower((unsigned char)it->valuestring[i]);
        (*n)++;
    }
    return PR_OK;
}

static enum pr_status
read_match(const cJSON *o, struct peak_entry *e, struct pr_error *err)
{
    if (read_strings(cJSON_GetObjectItemCaseSensitive(o, "match"), "match",
                     e->name, &e->match[0][0], MATCH_LEN, &e->n_match,
                     err) != PR_OK)
        return PR_E_FORMAT;
    return read_strings(cJSON_GetObjectItemCaseSensitive(o, "names"), "names",
                        e->name, &e->names[0][0], NAME_LEN, &e->n_names, err);
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

/* architecture, compute_units, last_level_cache_bytes: descriptive, so a
 * value of the wrong type reads as not given. */
static void
read_hardware(const cJSON *o, struct peak_entry *e)
{
    const cJSON *cu = cJSON_GetObjectItemCaseSensitive(o, "compute_units");
    const cJSON *c =
        cJSON_GetObjectItemCaseSensitive(o, "last_level_cache_bytes");
    const cJSON *clk = cJSON_GetObjectItemCaseSensitive(o, "boost_clock_mhz");
    const cJSON *mem = cJSON_GetObjectItemCaseSensitive(o, PR_K_MEMORY_BYTES);

    copy_str(e->arch, sizeof(e->arch),
             cJSON_GetObjectItemCaseSensitive(o, PR_K_ARCHITECTURE), "");
    e->cus = cJSON_IsNumber(cu) && cu->valuedouble > 0 && cu->valuedouble < 1e6
                 ? (int)cu->valuedouble
                 : -1;
    e->cache = cJSON_IsNumber(c) && c->valuedouble > 0 ? c->valuedouble : NAN;
    e->clock_mhz =
        cJSON_IsNumber(clk) && clk->valuedouble > 0 && clk->valuedouble < 1e5
            ? clk->valuedouble
            : NAN;
    e->memory =
        cJSON_IsNumber(mem) && mem->valuedouble > 0 ? mem->valuedouble : NAN;
}

/* NVIDIA's GeForce parts run FP16/BF16/TF32/FP8 tensor math with FP32
 * accumulate at half the rate of their datacenter siblings (the Turing,
 * Ampere GA102 and Ada whitepapers' appendices). */
static int
says_geforce(const char *name)
{
    size_t i;
    char l[256];

    for (i = 0; name && name[i] && i + 1 < sizeof(l); i++)
        l[i] = (char)tolower((unsigned char)name[i]);
    l[i] = '\0';
    return strstr(l, "geforce") != NULL;
}

static enum pr_status
read_entry(const cJSON *o, struct peak_entry *e, struct pr_error *err)
{
    const cJSON *vendor = cJSON_GetObjectItemCaseSensitive(o, PR_K_VENDOR);

    memset(e, 0, sizeof(*e));
    if (!cJSON_IsObject(o))
        return pr_error_set(err, PR_E_FORMAT,
                            "device table: an entry is not an object");
    copy_str(e->name, sizeof(e->name),
             cJSON_GetObjectItemCaseSensitive(o, PR_K_NAME), "device-spec");
    copy_str(e->source, sizeof(e->source),
             cJSON_GetObjectItemCaseSensitive(o, PR_K_SOURCE), "");
    e->amd = cJSON_IsString(vendor) && strcmp(vendor->valuestring, "amd") == 0;
    e->geforce = says_geforce(e->name);
    e->cap_default =
        cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "capability_default"));
    e->guess = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "guess"));
    read_capability(
        cJSON_GetObjectItemCaseSensitive(o, PR_K_COMPUTE_CAPABILITY), e);
    read_hardware(o, e);
    if (read_match(o, e, err) != PR_OK ||
        read_tflops(cJSON_GetObjectItemCaseSensitive(o, PR_K_PEAK_TFLOPS), e,
                    err) != PR_OK)
        return PR_E_FORMAT;
    return read_rate(cJSON_GetObjectItemCaseSensitive(o, PR_K_PEAK_GBPS),
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
    const cJSON *devs = cJSON_GetObjectItemCaseSensitive(root, PR_K_DEVICES);
    const cJSON *it;
    struct pr_peak_table *t;
    int single = !devs;
    size_t n = single ? 1 : (size_t)cJSON_GetArraySize(devs);

    if (!single && !cJSON_IsArray(devs)) {
        pr_error_set(err, PR_E_FORMAT, "device table: devices is not a list");
        return NULL;
    }
    /* any other JSON object (a summary, a config) is no device spec; taken
       as one it would match every device with no peaks */
    if (single && !cJSON_GetObjectItemCaseSensitive(root, PR_K_PEAK_TFLOPS) &&
        !cJSON_GetObjectItemCaseSensitive(root, PR_K_PEAK_GBPS)) {
        pr_error_set(err, PR_E_FORMAT,
                     "not a device spec: no \"devices\" list and no "
                     "\"peak_tflops\" or \"peak_gbps\"");
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
    cJSON *root;
    struct pr_peak_table *t;

    errno = 0; /* a failed allocation, not bad text, when ENOMEM */
    root = cJSON_ParseWithLength(json, len);
    if (root == NULL && errno == ENOMEM) {
        pr_error_set(err, PR_E_NOMEM, "out of memory");
        return NULL;
    }
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

/* An entry one of whose exact names is lname, among from_user == user. */
static const struct peak_entry *
exact_match(const struct pr_peak_table *t, const char *lname, int user)
{
    size_t i;
    int j;

    for (i = 0; i < t->n; i++) {
        const struct peak_entry *e = &t->e[i];

        for (j = 0; e->from_user == user && j < e->n_names; j++) {
            if (strcmp(lname, e->names[j]) == 0)
                return e;
        }
    }
    return NULL;
}

/* NVIDIA: the capability default of that compute capability. */
static const struct peak_entry *
nvidia_guess(const struct pr_peak_table *t, int major, int minor)
{
    size_t i;

    for (i = 0; major >= 0 && i < t->n; i++) {
        const struct peak_entry *e = &t->e[i];

        if (e->cap_default && !e->amd && e->cc_major == major &&
            e->cc_minor == minor)
            return e;
    }
    return NULL;
}

/* AMD: an entry of the same architecture and compute-unit count (of
 * those, the one whose memory the device's is, within 10%: the MI300X
 * and MI325X are both gfx942 with 304 CUs, 192 against 256 GB), else the
 * architecture's capability default.  HIP's 9.0 is shared by gfx908 and
 * gfx90a, so without an architecture there is no guess. */
static const struct peak_entry *
amd_guess(const struct pr_peak_table *t, const char *arch, int cus,
          double memory)
{
    const struct peak_entry *dflt = NULL, *first = NULL;
    size_t i;

    for (i = 0; arch && i < t->n; i++) {
        const struct peak_entry *e = &t->e[i];

        if (!e->amd || e->from_user || strcmp(e->arch, arch) != 0)
            continue;
        if (cus > 0 && e->cus == cus) {
            if (memory > 0 && isfinite(e->memory) &&
                fabs(memory - e->memory) <= 0.1 * e->memory)
                return e;
            if (!first)
                first = e;
        }
        if (e->cap_default && !dflt)
            dflt = e;
    }
    return first ? first : dflt;
}

static void
lower_copy(char *dst, size_t cap, const char *src)
{
    size_t i;

    for (i = 0; src && src[i] && i + 1 < cap; i++)
        dst[i] = (char)tolower((unsigned char)src[i]);
    dst[i] = '\0';
}

/* By name: exact, then family. */
static const struct peak_entry *
name_match(const struct pr_peak_table *t, const char *lname, int user,
           enum pr_peak_match *how)
{
    const struct peak_entry *e = exact_match(t, lname, user);

    if (e) {
        *how = PR_MATCH_EXACT;
        return e;
    }
    e = best_name_match(t, lname, user);
    *how = e ? PR_MATCH_FAMILY : PR_MATCH_NONE;
    return e;
}

static const struct peak_entry *
find_entry(const struct pr_peak_table *t, const struct pr_peak_query *q,
           enum pr_peak_match *how)
{
    char lname[256];
    const struct peak_entry *e;

    *how = PR_MATCH_NONE;
    if (!t)
        return NULL;
    lower_copy(lname, sizeof(lname), q->name);
    if ((e = name_match(t, lname, 1, how)) != NULL)
        return e;
    if ((e = user_match_all(t)) != NULL) {
        *how = PR_MATCH_ALL;
        return e;
    }
    if ((e = name_match(t, lname, 0, how)) != NULL)
        return e;
    e = q->amd ? amd_guess(t, q->arch, q->compute_units, q->memory_bytes)
               : nvidia_guess(t, q->cc_major, q->cc_minor);
    if (e)
        *how = PR_MATCH_CAPABILITY;
    return e;
}

/* A guess made from another part, fitted to what the trace states of
 * this one: its SMs x clock against the entry's (the rate per SM and
 * clock is the architecture's), GeForce's half-rate tensor math with FP32
 * accumulate, and the bandwidth the export gives. */
static void
fit_guess(const struct peak_entry *e, const struct pr_peak_query *q,
          struct pr_peaks *out)
{
    static const enum pr_peak_kind halved[] = {PR_PEAK_TF32, PR_PEAK_FP16,
                                               PR_PEAK_BF16, PR_PEAK_FP8};
    size_t k;

    if (q->compute_units > 0 && q->clock_mhz > 0 && e->cus > 0 &&
        isfinite(e->clock_mhz)) {
        out->scale =
            (q->compute_units * q->clock_mhz) / ((double)e->cus * e->clock_mhz);
        for (k = 0; k < PR_PEAK_COUNT; k++)
            out->tflops[k] *= out->scale;
        out->compute_units = q->compute_units;
    }
    if (says_geforce(q->name) && !e->geforce) {
        out->half_rate = 1;
        for (k = 0; k < sizeof(halved) / sizeof(halved[0]); k++)
            out->tflops[halved[k]] /= 2;
    }
    if (q->gbps > 0) {
        out->gbps = q->gbps;
        out->gbps_stated = 1;
    }
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
pr_peaks_lookup_query(const struct pr_peak_table *t,
                      const struct pr_analysis_opts *o,
                      const struct pr_peak_query *q, struct pr_peaks *out)
{
    const struct peak_entry *e;
    int k;

    memset(out, 0, sizeof(*out));
    for (k = 0; k < PR_PEAK_COUNT; k++)
        out->tflops[k] = NAN;
    out->gbps = NAN;
    out->cache_bytes = NAN;
    out->compute_units = -1;
    out->scale = NAN;
    e = find_entry(t, q, &out->match);
    if (e) {
        memcpy(out->tflops, e->tflops, sizeof(out->tflops));
        out->gbps = e->gbps;
        out->cache_bytes = e->cache;
        out->compute_units = e->cus;
        out->origin = e->from_user ? PR_PEAK_CLI
                      : out->match == PR_MATCH_CAPABILITY || e->guess
                          ? PR_PEAK_GUESS
                          : PR_PEAK_TABLE;
        snprintf(out->entry, sizeof(out->entry), "%s", e->name);
        snprintf(out->source, sizeof(out->source), "%s", e->source);
        snprintf(out->arch, sizeof(out->arch), "%s", e->arch);
        if (out->origin == PR_PEAK_GUESS && !e->amd)
            fit_guess(e, q, out);
    }
    apply_overrides(o, out);
}

static int
name_says_amd(const char *name)
{
    char l[256];

    lower_copy(l, sizeof(l), name);
    return strstr(l, "amd") || strstr(l, "instinct") || strstr(l, "radeon");
}

void
pr_peaks_lookup(const struct pr_peak_table *t, const struct pr_analysis_opts *o,
                const char *name, int cc_major, int cc_minor,
                struct pr_peaks *out)
{
    struct pr_peak_query q = {name, cc_major, cc_minor, 0, NULL, -1, 0, 0, 0};

    q.amd = name_says_amd(name);
    pr_peaks_lookup_query(t, o, &q, out);
}

enum pr_peak_kind
pr_peaks_kind(const struct pr_peaks *p, enum pr_dtype dt, int on_tensor_cores)
{
    if (dt == PR_DT_FP64)
        return PR_PEAK_FP64;
    if (!on_tensor_cores)
        return PR_PEAK_FP32;
    switch (dt) {
    case PR_DT_FP32:
    case PR_DT_TF32:
        /* AMD runs fp32 GEMMs on its fp32 MFMA path; NVIDIA uses TF32 */
        return isfinite(p->tflops[PR_PEAK_FP32_MATRIX]) ? PR_PEAK_FP32_MATRIX
                                                        : PR_PEAK_TF32;
    case PR_DT_FP16:
        return PR_PEAK_FP16;
    case PR_DT_BF16:
        return PR_PEAK_BF16;
    case PR_DT_FP8:
        return PR_PEAK_FP8;
    case PR_DT_INT8:
    case PR_DT_UINT8:
        return PR_PEAK_INT8;
    default:
        return PR_PEAK_FP32;
    }
}

double
pr_peaks_compute(const struct pr_peaks *p, enum pr_dtype dt,
                 int on_tensor_cores)
{
    return p->tflops[pr_peaks_kind(p, dt, on_tensor_cores)];
}

const char *
pr_peaks_label(enum pr_peak_kind k)
{
    static const char *const labels[PR_PEAK_COUNT] = {
        "FP64",        "FP32",        "TF32 tensor",
        "FP16 tensor", "BF16 tensor", "FP8 tensor",
        "INT8 tensor", "FP32 matrix", "FP4 tensor",
    };

    return ((int)k >= 0 && k < PR_PEAK_COUNT) ? labels[k] : "unknown";
}

/* One device row's peaks: whether any throughput or bandwidth is known. */
static int
has_a_peak(const cJSON *dev)
{
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(dev, PR_K_PEAK_TFLOPS),
                *v;

    cJSON_ArrayForEach(v, t)
    {
        if (cJSON_IsNumber(v))
            return 1;
    }
    return cJSON_IsNumber(
        cJSON_GetObjectItemCaseSensitive(dev, PR_K_PEAK_GBPS));
}

void
pr_peaks_spec_tally(const cJSON *runs, struct pr_spec_tally *t)
{
    const cJSON *run, *dev, *name, *src;

    cJSON_ArrayForEach(run, runs)
    {
        cJSON_ArrayForEach(dev,
                           cJSON_GetObjectItemCaseSensitive(run, PR_K_DEVICES))
        {
            name = cJSON_GetObjectItemCaseSensitive(dev, PR_K_NAME);
            src = cJSON_GetObjectItemCaseSensitive(dev, PR_K_PEAK_SOURCE);
            if (cJSON_IsString(src) && strcmp(src->valuestring, "cli") == 0) {
                t->matched++;
                t->empty += !has_a_peak(dev);
            }
            if (!cJSON_IsString(name) || name->valuestring[0] == '\0')
                continue;
            /* each name once, a few of them */
            if (strstr(t->seen, name->valuestring) == NULL && t->named < 4 &&
                t->at < sizeof(t->seen))
                t->at += (size_t)snprintf(
                    t->seen + t->at, sizeof(t->seen) - t->at, "%s\"%s\"",
                    t->named++ ? ", " : "", name->valuestring);
        }
    }
}

int
pr_peaks_spec_unused(const struct pr_spec_tally *t, const char *spec, char *buf,
                     size_t n)
{
    size_t n_matched = t->matched, n_empty = t->empty, n_named = t->named;
    const char *seen = t->seen;

    if (n_matched > 0 && n_empty < n_matched)
        return 0;
    if (n_matched > 0)
        snprintf(buf, n,
                 "--device-spec %s: the entry that matched carries no peak "
                 "(give peak_tflops and peak_gbps), so the roofline has none",
                 spec);
    else if (n_named == 0)
        snprintf(buf, n,
                 "--device-spec %s: the traces name no device (no "
                 "deviceProperties), so no entry can match; --peak-tflops "
                 "and --peak-gbps give the peaks directly",
                 spec);
    else
        snprintf(buf, n,
                 "--device-spec %s: no entry matched a device of the traces "
                 "(devices: %s); an entry matches by \"names\" (the exact "
                 "name) or \"match\" (words of it, as in data/devices.json)",
                 spec, seen);
    return 1;
}
