/* emit.c - sticky-error cJSON builders for the analyses, the run's
 * data-quality notes (one collector, written once), and the tensor
 * core name lists (spec 10.1, 10.2) that several analyses share. */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/cube.h"
#include "profreport/keys.h"
#include "profreport/rows.h"
#include "profreport/sget.h"
#include "profreport/tensorcore.h"

#include "internal.h"

size_t
pr_append(char *buf, size_t cap, size_t len, const char *fmt, ...)
{
    va_list ap;
    int n;

    if (len >= cap)
        return len;
    va_start(ap, fmt);
    n = vsnprintf(buf + len, cap - len, fmt, ap);
    va_end(ap);
    return n < 0 ? len : len + (size_t)n;
}

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

enum pr_status
pr_emit_put(cJSON *run, const char *key, cJSON *item, const char *what,
            struct pr_error *err)
{
    if (item == NULL)
        return pr_error_set(err, PR_E_NOMEM, "out of memory (%s)", what);
    if (pr_sput(run, key, item))
        return PR_OK;
    cJSON_Delete(item);
    return pr_error_set(err, PR_E_NOMEM, "out of memory (%s)", what);
}

enum pr_status
pr_emit_put_all(cJSON *run, const char *const *keys, cJSON **items, size_t n,
                const char *what, struct pr_error *err)
{
    enum pr_status st = PR_OK;
    size_t i;

    for (i = 0; i < n; i++)
        if (items[i] == NULL)
            st = pr_error_set(err, PR_E_NOMEM, "out of memory (%s)", what);
    for (i = 0; i < n; i++) {
        if (st == PR_OK)
            st = pr_emit_put(run, keys[i], items[i], what, err);
        else
            cJSON_Delete(items[i]);
        items[i] = NULL;
    }
    return st;
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

/* ------------------------------------------------ data-quality notes */

void
pr_notes_free(struct pr_notes *n)
{
    size_t i;

    for (i = 0; i < n->n_rows; i++) {
        free(n->rows[i].kind);
        free(n->rows[i].text);
    }
    free(n->rows);
    free(n->counts);
    memset(n, 0, sizeof(*n));
}

/* Room for one more element of *v (n used of *cap, each size bytes). */
static int
grow(void **v, size_t n, size_t *cap, size_t size)
{
    size_t cap2 = *cap ? 2 * *cap : 8;
    void *p;

    if (n < *cap)
        return 1;
    if (cap2 > SIZE_MAX / size || (p = realloc(*v, cap2 * size)) == NULL)
        return 0;
    *v = p;
    *cap = cap2;
    return 1;
}

void
pr_notes_count(struct pr_notes *n, const char *key, double v)
{
    void *p = n->counts;

    if (n->failed ||
        !grow(&p, n->n_counts, &n->cap_counts, sizeof(*n->counts))) {
        n->failed = 1;
        return;
    }
    n->counts = p;
    n->counts[n->n_counts].key = key;
    n->counts[n->n_counts++].v = v;
}

void
pr_notes_row(struct pr_notes *n, const char *kind, size_t count,
             const char *text)
{
    void *p = n->rows;
    struct pr_note_row *r;

    if (n->failed || !grow(&p, n->n_rows, &n->cap_rows, sizeof(*n->rows))) {
        n->failed = 1;
        return;
    }
    n->rows = p;
    r = &n->rows[n->n_rows];
    r->kind = strdup(kind);
    r->text = strdup(text);
    r->count = count;
    if (r->kind == NULL || r->text == NULL) {
        free(r->kind);
        free(r->text);
        n->failed = 1;
        return;
    }
    n->n_rows++;
}

enum pr_status
pr_notes_emit(const struct pr_notes *n, cJSON *run, struct pr_error *err)
{
    cJSON *d = cJSON_GetObjectItemCaseSensitive(run, PR_K_DIAGNOSTICS);
    const struct pr_rows_objinfo *o = pr_rows_object(PR_RO_RUNS_DATA_QUALITY);
    struct pr_row_data_quality dq = {.absent = 0};
    int ok = !n->failed;
    size_t i;

    /* the counts noted, as the data-quality row's columns; the others
       left out */
    for (i = 0; i < o->n_fields; i++)
        pr_rows_omit(PR_RO_RUNS_DATA_QUALITY, &dq, o->fields[i].row);
    for (i = 0; ok && i < n->n_counts; i++)
        if (!pr_rows_set_num(PR_RO_RUNS_DATA_QUALITY, &dq, n->counts[i].key,
                             n->counts[i].v))
            return pr_error_set(err, PR_E_FORMAT,
                                "data quality: no column for count %s",
                                n->counts[i].key);
    if (ok) {
        cJSON *row = pr_rows_row(PR_RO_RUNS_DATA_QUALITY, &dq);
        ok = pr_sput(run, PR_K_DATA_QUALITY, row);
        if (!ok)
            cJSON_Delete(row);
    }
    if (ok && !cJSON_IsArray(d)) {
        d = cJSON_CreateArray();
        ok = pr_sput(run, PR_K_DIAGNOSTICS, d);
        if (!ok)
            cJSON_Delete(d);
    }
    for (i = 0; ok && i < n->n_rows; i++) {
        struct pr_row_diagnostic row = {
            n->rows[i].kind, (int64_t)n->rows[i].count, n->rows[i].text};

        ok = pr_rows_write(d, PR_RO_RUNS_DIAGNOSTICS, &row, 1);
    }
    return ok ? PR_OK
              : pr_error_set(err, PR_E_NOMEM, "out of memory (data quality)");
}

/* A recommendation's typed row (rows.def) with its id, severity and
 * text; gain_us, gain_pct and bound_us NAN (null where kept); every other
 * column left out until pr_rec_keep keeps it. */
void
pr_rec_init(struct pr_row_recommendation *r, const char *id,
            const char *severity, const char *text)
{
    const struct pr_rows_objinfo *o =
        pr_rows_object(PR_RO_RUNS_RECOMMENDATIONS);
    size_t k;

    memset(r, 0, sizeof(*r));
    r->id = id;
    r->severity = severity;
    r->text = text;
    r->gain_us = r->gain_pct = r->bound_us = NAN;
    for (k = 0; k < o->n_fields; k++) {
        enum pr_schema_rowid id_k = o->fields[k].row;
        if (id_k != PR_SR_RUNS_RECOMMENDATIONS_PR_K_ID &&
            id_k != PR_SR_RUNS_RECOMMENDATIONS_PR_K_SEVERITY &&
            id_k != PR_SR_RUNS_RECOMMENDATIONS_PR_K_TEXT)
            pr_rows_omit(PR_RO_RUNS_RECOMMENDATIONS, r, id_k);
    }
}

/* Write the column of schema row `id` of r after all. */
void
pr_rec_keep(struct pr_row_recommendation *r, enum pr_schema_rowid id)
{
    const struct pr_rows_objinfo *o =
        pr_rows_object(PR_RO_RUNS_RECOMMENDATIONS);
    size_t k;

    for (k = 0; k < o->n_fields && k < 64; k++)
        if (o->fields[k].row == id)
            r->absent &= ~((uint64_t)1 << k);
}

/* r added to arr; the object, NULL when out of memory. */
cJSON *
pr_emit_one(cJSON *parent, const char *key, enum pr_rows_object ro,
            const void *row, int *ok)
{
    cJSON *o = *ok && parent != NULL ? pr_rows_row(ro, row) : NULL;

    /* set as pr_sput sets it: a key already there keeps its place */
    if (o == NULL || !pr_sput(parent, key, o)) {
        cJSON_Delete(o);
        *ok = 0;
        return NULL;
    }
    return o;
}

cJSON *
pr_emit_rec_row(cJSON *arr, const struct pr_row_recommendation *r)
{
    cJSON *o = arr != NULL ? pr_rows_row(PR_RO_RUNS_RECOMMENDATIONS, r) : NULL;

    if (o != NULL && !cJSON_AddItemToArray(arr, o)) {
        cJSON_Delete(o);
        o = NULL;
    }
    return o;
}

cJSON *
pr_emit_rec(cJSON *arr, const char *id, const char *severity, const char *text,
            const char *gain_note, int null_gain)
{
    struct pr_row_recommendation r;

    pr_rec_init(&r, id, severity, text);
    r.gain_note = gain_note;
    if (gain_note != NULL)
        pr_rec_keep(&r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_NOTE);
    if (null_gain) {
        pr_rec_keep(&r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_US);
        pr_rec_keep(&r, PR_SR_RUNS_RECOMMENDATIONS_PR_K_GAIN_PCT);
    }
    return pr_emit_rec_row(arr, &r);
}

/* An evidence row of a recommendation (rows.def): name and time, and the
 * whole time where not NAN (a peer-bound collective's).  0 when out of
 * memory. */
int
pr_emit_evidence(cJSON *ev, const char *name, double us, double total_us)
{
    struct pr_row_rec_evidence e = {0};

    e.name = name;
    e.us = us;
    e.total_us = total_us;
    if (isnan(total_us))
        pr_rows_omit(PR_RO_RUNS_RECOMMENDATIONS_EVIDENCE, &e,
                     PR_SR_RUNS_RECOMMENDATIONS_EVIDENCE_PR_K_TOTAL_US);
    return ev != NULL &&
           pr_rows_write(ev, PR_RO_RUNS_RECOMMENDATIONS_EVIDENCE, &e, 1);
}

/* Tensor-core names live in tensorcore.c: the plugin's lists (10.1, 10.2)
 * plus the modern kernel patterns and eligible ops the plugin lacks
 * (docs/differences.md).  These two keep the older call sites short. */
int
pr_tc_op_eligible(const char *name)
{
    /* and Ascend's: CANN operator types and aclnn operators of the Cube */
    return pr_tensorcore_op_eligible(name, NULL) || pr_cube_op_type(name);
}

const char *
pr_run_window(const cJSON *run)
{
    return pr_sget_run_is_capture(run) ? "capture" : "step";
}

int
pr_run_host_step(const cJSON *run)
{
    const cJSON *ss = pr_sget(run, PR_K_STEP_SUMMARY);

    return pr_sget_is(pr_sget_str(ss, PR_K_BASIS), "npu_device") &&
           pr_sget_num(ss, PR_K_HOST_MEAN_US) > pr_sget_num(ss, PR_K_MEAN_US);
}

const char *
pr_run_gain_window(const cJSON *run)
{
    return pr_run_host_step(run) ? "host step" : pr_run_window(run);
}

/* Whether the run is a PyTorch program: its framework says so, or an
 * operator of it is ATen's (an Nsight Systems export of a PyTorch run
 * names no framework but records aten:: ranges).  0: a program whose
 * trace shows no PyTorch (a CUDA C++ code under nsys, review 28h #11),
 * whose advice names no torch API. */
int
pr_run_is_torch(const cJSON *run)
{
    const cJSON *o;

    if (pr_sget_is(pr_sget_str(run, PR_K_FRAMEWORK), "pytorch"))
        return 1;
    cJSON_ArrayForEach(o, pr_sget(run, PR_K_OPERATORS))
    {
        const char *name = pr_sget_str(o, PR_K_NAME);

        if (name != NULL && strncmp(name, "aten::", 6) == 0)
            return 1;
    }
    return 0;
}

/* Whether the trace shows no framework at all: no framework named, no
 * PyTorch operator, no NPU (a CUDA C++ or MPI program under Nsight
 * Systems, review 28h #8, #11): its advice speaks of no batch. */
int
pr_run_no_framework(const cJSON *run)
{
    return pr_sget_str(run, PR_K_FRAMEWORK) == NULL && !pr_run_is_torch(run) &&
           !pr_run_on_npu(run);
}

/* The share of the run's launched kernels that a graph launch issued
 * (runs[].launches: graph_kernels less the graphs' fills and copies,
 * graph_fills and graph_copies, over them and kernels_with_launch, which
 * counts the other kernels, memory operations apart); 0 when it has
 * none. */
double
pr_run_graph_share(const cJSON *run)
{
    const cJSON *l = pr_sget(run, PR_K_LAUNCHES);
    double g = pr_sget_num(l, PR_K_GRAPH_KERNELS);
    double k = pr_sget_num(l, PR_K_KERNELS_WITH_LAUNCH);
    double fills = pr_sget_num(l, PR_K_GRAPH_FILLS);
    double copies = pr_sget_num(l, PR_K_GRAPH_COPIES);

    g -= (fills > 0 ? fills : 0) + (copies > 0 ? copies : 0);

    if (!(g > 0))
        return 0;
    return g / (g + (k > 0 ? k : 0));
}

/* Whether a device of the run is an NPU (devices[].kind "npu"). */
int
pr_run_on_npu(const cJSON *run)
{
    const cJSON *d;

    cJSON_ArrayForEach(d, pr_sget(run, PR_K_DEVICES))
    {
        if (pr_sget_is(pr_sget_str(d, PR_K_KIND), "npu"))
            return 1;
    }
    return 0;
}

/* Whether the run trains: 1 when an operator or kernel of a backward
 * pass or an optimizer is in it (autograd's *Backward nodes, aten's
 * *_backward ops, torch.optim's Optimizer.step ranges, MindSpore's and
 * CANN's *Grad and *Backprop* operators), 0 when none is though the
 * forward's GEMMs or convolutions are (an inference server: vLLM's
 * execute_model, review 28h #6), -1 when the run cannot tell. */
int
pr_run_trains(const cJSON *run)
{
    static const char *const keys[] = {PR_K_OPERATORS, PR_K_KERNELS};
    static const char *const marks[] = {"ackward", "autograd", "ptimizer",
                                        "Grad", "Backprop"};
    /* a model's forward compute: without one of these the operators
       recorded are too few to tell (hta cpu_only's one aten::empty) */
    static const char *const fwd[] = {"aten::mm",
                                      "aten::addmm",
                                      "aten::linear",
                                      "aten::matmul",
                                      "aten::bmm",
                                      "aten::conv",
                                      "aten::_convolution",
                                      "aten::cudnn_convolution",
                                      "aten::scaled_dot_product"};
    int any_op = 0;
    size_t i, m;
    const cJSON *f;

    cJSON_ArrayForEach(f, pr_sget(run, PR_K_OPERATORS))
    {
        const char *name = pr_sget_str(f, PR_K_NAME);

        for (m = 0; name != NULL && m < sizeof(fwd) / sizeof(fwd[0]); m++)
            any_op |= strncmp(name, fwd[m], strlen(fwd[m])) == 0;
    }

    for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
        const cJSON *o;

        cJSON_ArrayForEach(o, pr_sget(run, keys[i]))
        {
            const char *name = pr_sget_str(o, PR_K_NAME);

            for (m = 0; name != NULL && m < sizeof(marks) / sizeof(marks[0]);
                 m++)
                if (strstr(name, marks[m]) != NULL)
                    return 1;
        }
    }
    return any_op ? 0 : -1;
}
