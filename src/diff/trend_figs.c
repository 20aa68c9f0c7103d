/* trend_figs.c - the trend report's line charts, built once from the trend
 * tree for both layouts (figs.c hands them to the HTML, as SVG, and to
 * PDF pages), so the two cannot drift apart (issue #10).  Nights sit on an
 * integer axis labelled with their input's name, and a value a night does
 * not have is a gap in its line, never a 0 (issue #15). */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "profreport/sget.h"

#define NAME_MAX_BYTES 96 /* a tick label; the chart shortens it further */

/* One chart before it is filled: where its values are in each night. */
struct source {
    const char *title;
    enum pr_axis_unit unit;
    const char *group; /* object of the night holding the keys; NULL = it */
    const char *keys[PR_DTREND_SERIES];
    const char *names[PR_DTREND_SERIES];
    size_t n_series;
    int mark; /* mark the latest crossed night on series 0 */
    const struct pr_category *cats; /* colours of the series, or NULL */
};

static const struct source step_chart = {
    "Step time",     PR_UNIT_US, NULL, {"step_mean_us", "step_p90_us"},
    {"mean", "p90"}, 2,          1,    NULL};
static const struct source memory_chart = {"Memory peak",
                                           PR_UNIT_BYTES,
                                           NULL,
                                           {"memory_peak_bytes"},
                                           {"peak allocated"},
                                           1,
                                           0,
                                           NULL};

/* "rank-0.1700000000.pt.trace.json.gz" -> "rank-0.1700000000": the file
 * kind says nothing about the night. */
static void
night_name(const char *label, char *out)
{
    static const char *const tails[] = {".pt.trace.json.gz", ".pt.trace.json",
                                        ".json.gz", ".json", ".gz"};
    size_t len = strlen(label ? label : "");

    for (size_t i = 0; i < sizeof(tails) / sizeof(*tails); i++) {
        size_t t = strlen(tails[i]);
        if (len > t && strcmp(label + len - t, tails[i]) == 0) {
            len -= t;
            break;
        }
    }
    snprintf(out, NAME_MAX_BYTES, "%.*s", (int)len, label ? label : "");
}

/* nights[i][group][key] for every night, NAN where it is unknown. */
static void
values(const cJSON *nights, const char *group, const char *key, double *y)
{
    const cJSON *n;
    size_t i = 0;

    cJSON_ArrayForEach(n, nights)
    {
        const cJSON *o = group ? pr_sget(n, group) : n;
        y[i++] = pr_sget_num(o, key); /* NAN when absent or null */
    }
}

/* Chart k from its source: series over the nights, and the mark. */
static void
chart(struct pr_dtrend_figs *f, const cJSON *nights, const struct source *src)
{
    struct pr_chart_lines *c = &f->charts[f->n];
    double *y = f->y + f->n * PR_DTREND_SERIES * f->n_nights;
    const cJSON *night;
    size_t k, i = 0;

    for (k = 0; k < src->n_series; k++) {
        values(nights, src->group, src->keys[k], y + k * f->n_nights);
        f->series[f->n][k] = (struct pr_chart_series){
            src->names[k],
            f->x,
            y + k * f->n_nights,
            f->n_nights,
            src->cats ? src->cats[k].color : PR_COLOR_NONE,
            0,
            0,
            0};
    }
    memset(c, 0, sizeof(*c));
    c->title = src->title;
    c->series = f->series[f->n];
    c->n_series = src->n_series;
    c->x_unit = PR_UNIT_COUNT;
    c->y_unit = src->unit;
    c->x_label = "night";
    c->x_names = (const char *const *)f->names;
    c->n_x_names = f->n_nights;
    cJSON_ArrayForEach(night, nights)
    {
        if (src->mark && i > 0 && cJSON_IsTrue(pr_sget(night, "crossed")) &&
            isfinite(y[i])) {
            snprintf(f->mark, sizeof(f->mark), "crossed (night %zu)", i + 1);
            c->mark_x = f->x[i];
            c->mark_y = y[i];
            c->mark_label = f->mark;
        }
        i++;
    }
    f->n++;
}

/* The x positions 1..n and the tick names; 0, or -1 on out-of-memory. */
static int
nights_axis(struct pr_dtrend_figs *f, const cJSON *nights)
{
    const cJSON *night;
    size_t i = 0, n = f->n_nights + 1; /* never a zero-size allocation */

    f->x = calloc(n, sizeof(*f->x));
    f->y = calloc(n * PR_DTREND_CHARTS * PR_DTREND_SERIES, sizeof(*f->y));
    f->names = calloc(n, sizeof(*f->names));
    f->name_buf = calloc(n, NAME_MAX_BYTES);
    if (f->x == NULL || f->y == NULL || f->names == NULL || f->name_buf == NULL)
        return -1;
    cJSON_ArrayForEach(night, nights)
    {
        f->x[i] = (double)(i + 1);
        f->names[i] = f->name_buf + i * NAME_MAX_BYTES;
        night_name(pr_sget_str(night, PR_K_LABEL), f->names[i]);
        i++;
    }
    return 0;
}

/* Whether any night has a value at key. */
static int
any_night_has(const cJSON *nights, const char *key)
{
    const cJSON *n;

    cJSON_ArrayForEach(n, nights)
    {
        if (isfinite(pr_sget_num(n, key)))
            return 1;
    }
    return 0;
}

/* Captures without steps (review 25u #3): each device's utilization, a
 * share of the window that its length does not scale (the devices the
 * latest night names), marked where a night crossed a limit. */
static void
utilization_chart(struct pr_dtrend_figs *f, const cJSON *nights)
{
    const cJSON *last =
        cJSON_GetArrayItem(nights, cJSON_GetArraySize(nights) - 1);
    const cJSON *d;
    struct source u = {"Utilization per device (share of each capture)",
                       PR_UNIT_PCT,
                       PR_K_UTILIZATION_PCT,
                       {NULL},
                       {NULL},
                       0,
                       1,
                       NULL};

    cJSON_ArrayForEach(d, pr_sget(last, PR_K_UTILIZATION_PCT))
    {
        if (u.n_series < PR_DTREND_SERIES && d->string != NULL) {
            u.keys[u.n_series] = u.names[u.n_series] = d->string;
            /* an NPU's busy share counts HCCL tasks, waits included */
            if (strncmp(d->string, "NPU", 3) == 0)
                u.title = "Utilization per device (share of each capture; "
                          "an NPU's counts HCCL waits as busy)";
            u.n_series++;
        }
    }
    f->utilization = u.n_series > 0;
    if (u.n_series > 0)
        chart(f, nights, &u);
}

/* Captures without steps: the top kernels' mean device time per call,
 * the figure `diff` compares for them (names shortened for the legend). */
static void
kernels_chart(struct pr_dtrend_figs *f, const cJSON *trend, const cJSON *nights)
{
    const cJSON *name;
    struct source k = {"Top kernels (device time per call)",
                       PR_UNIT_US,
                       "kernels_us_per_call",
                       {NULL},
                       {NULL},
                       0,
                       0,
                       NULL};

    cJSON_ArrayForEach(name, pr_sget(trend, "top_kernels"))
    {
        if (k.n_series < PR_DTREND_SERIES && cJSON_IsString(name)) {
            k.keys[k.n_series] = name->valuestring;
            k.names[k.n_series] =
                pr_shorten(name->valuestring, PR_DTREND_KNAME_CHARS,
                           f->kname[k.n_series], sizeof(f->kname[0]));
            k.n_series++;
        }
    }
    if (k.n_series > 0)
        chart(f, nights, &k);
}

int
pr_dtrend_figs(struct pr_dtrend_figs *f, const cJSON *trend)
{
    const cJSON *nights = pr_sget(trend, "nights");
    const cJSON *name;
    struct source ops = {"Top operators (device time per step)",
                         PR_UNIT_US,
                         "operators_us",
                         {NULL},
                         {NULL},
                         0,
                         0,
                         NULL};
    struct source bd = {
        "Breakdown (mean step)", PR_UNIT_US, "breakdown_us",   {NULL}, {NULL},
        PR_N_BREAKDOWN,          0,          pr_keys_breakdown};
    size_t i;

    memset(f, 0, sizeof(*f));
    f->n_nights = (size_t)cJSON_GetArraySize(nights);
    f->no_steps = cJSON_IsTrue(pr_sget(trend, "no_steps"));
    f->no_memory = !any_night_has(nights, "memory_peak_bytes");
    if (nights_axis(f, nights) != 0)
        return -1;
    /* a run without steps never speaks of steps: its length is the
       profiler's window, which `diff` does not compare (review 25u #3) */
    if (f->no_steps) {
        ops.title = "Top operators (device time per capture)";
        bd.title = "Breakdown per capture (no steps)";
        utilization_chart(f, nights);
    } else {
        chart(f, nights, &step_chart);
    }
    if (!f->no_memory)
        chart(f, nights, &memory_chart);
    /* the categories as the main report names and colours them (keys.h) */
    for (i = 0; i < PR_N_BREAKDOWN; i++) {
        bd.keys[i] = pr_keys_breakdown[i].key;
        bd.names[i] = pr_keys_breakdown[i].label;
    }
    chart(f, nights, &bd);
    cJSON_ArrayForEach(name, pr_sget(trend, "top_operators"))
    {
        if (ops.n_series < PR_DTREND_SERIES && cJSON_IsString(name)) {
            ops.keys[ops.n_series] = ops.names[ops.n_series] =
                name->valuestring;
            ops.n_series++;
        }
    }
    if (ops.n_series > 0)
        chart(f, nights, &ops);
    if (f->no_steps)
        kernels_chart(f, trend, nights);
    return 0;
}

void
pr_dtrend_figs_free(struct pr_dtrend_figs *f)
{
    free(f->x);
    free(f->y);
    free(f->names);
    free(f->name_buf);
    memset(f, 0, sizeof(*f));
}
