/* html.c - the HTML layout of the figure model (figures.h): every section's
 * figures become a view tree (formatted cells, pre-rendered SVG charts)
 * that templates/sections.mustache lays out, inside report.html for the
 * main report and the diff and trend pages for theirs.  Reads only the
 * summary (DESIGN.md); escaping is left to the template engine ({{x}}) and
 * to the SVG backend, so trace strings are never inserted raw. */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/detail.h"
#include "profreport/escape.h"
#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/render.h"
#include "profreport/sget.h"
#include "profreport/shorten.h"
#include "profreport/svg.h"
#include "profreport/tmpl.h"

#define NAME_CHARS 96 /* table cells show this much of a name */

/* --- small cJSON helpers: every add checks for out-of-memory once */

static cJSON *
track(struct pr_html_view *v, cJSON *item)
{
    if (item == NULL)
        v->oom = 1;
    return item;
}

static void
add_str(struct pr_html_view *v, cJSON *obj, const char *key, const char *s)
{
    if (obj != NULL)
        (void)track(v, cJSON_AddStringToObject(obj, key, s ? s : ""));
}

static void
add_bool(struct pr_html_view *v, cJSON *obj, const char *key, int b)
{
    if (obj != NULL)
        (void)track(v, cJSON_AddBoolToObject(obj, key, b ? 1 : 0));
}

static cJSON *
add_obj(struct pr_html_view *v, cJSON *obj, const char *key)
{
    return obj ? track(v, cJSON_AddObjectToObject(obj, key)) : NULL;
}

static cJSON *
add_arr(struct pr_html_view *v, cJSON *obj, const char *key)
{
    return obj ? track(v, cJSON_AddArrayToObject(obj, key)) : NULL;
}

static cJSON *
push_obj(struct pr_html_view *v, cJSON *arr)
{
    cJSON *o;

    if (arr == NULL)
        return NULL;
    o = track(v, cJSON_CreateObject());
    if (o != NULL)
        cJSON_AddItemToArray(arr, o);
    return o;
}

/* --- tables */

/* A cell's text as markup: escaped, with a <wbr> after each run of
 * identifier separators (. _ / : ,) so that a long kernel name, rule or
 * class ("cublas.sgemm", "tensor_core") may wrap at its own boundaries
 * instead of widening its column past the page (review 25u #9); copy,
 * find and the filter still see the text unchanged. */
static void
add_wrappable(struct pr_html_view *v, cJSON *obj, const char *key,
              const char *s, int wrap)
{
    struct pr_buf b;
    size_t i, start = 0, n = strlen(s);
    int ok = 1;

    pr_buf_init(&b, 0);
    for (i = 0; i < n && ok; i++) {
        int sep = strchr("._/:,", s[i]) != NULL;
        int next_sep = i + 1 < n && strchr("._/:,", s[i + 1]) != NULL;

        if (!wrap || !sep || next_sep || i + 1 == n)
            continue;
        /* never inside a number ("MTE2-bound 0.98", "1,024") */
        if (isdigit((unsigned char)s[i + 1]) && i > 0 &&
            isdigit((unsigned char)s[i - 1]))
            continue;
        ok = pr_escape_html(&b, s + start, i + 1 - start) == PR_OK &&
             pr_buf_adds(&b, "<wbr>") == PR_OK;
        start = i + 1;
    }
    if (ok && start < n)
        ok = pr_escape_html(&b, s + start, n - start) == PR_OK;
    if (!ok)
        v->oom = 1;
    else
        add_str(v, obj, key, b.len > 0 ? b.data : "");
    pr_buf_free(&b);
}

/* A name cell: its shown form (table_view's, NULL: the name shortener's
 * in NAME_CHARS characters), the full name in the tooltip and in data-v
 * (what sorting and the filter read). */
static void
name_text(struct pr_html_view *v, cJSON *cell, const char *name,
          const char *form)
{
    char shown[PR_SHORTEN_CAP(NAME_CHARS)];

    if (form == NULL)
        form = pr_shorten(name, NAME_CHARS, shown, sizeof(shown));
    add_str(v, cell, "c_t", form);
    add_wrappable(v, cell, "c_h", form, 1);
    add_str(v, cell, "c_full", strcmp(form, name) != 0 ? name : "");
}

static const char *
cell_class(const struct pr_col *c, const cJSON *row, const char *text)
{
    if (c->fmt == PR_FMT_CHANGE) {
        int dir = pr_fig_change_dir(row, text);
        return dir > 0 ? "num up" : dir < 0 ? "num down" : "num";
    }
    if (c->fmt == PR_FMT_VERDICT)
        return pr_sget_is(text, "FAIL") || pr_sget_is(text, "fail")
                   ? "verdict-cell fail"
               : pr_sget_is(text, "skipped") ? "verdict-cell skip"
                                             : "verdict-cell pass";
    if (pr_col_numeric(c->fmt))
        return "num";
    return c->fmt == PR_FMT_NAME ? "name" : "";
}

/* A source location cell links to its file at its line (--source-link),
 * when the row says which file and line it is; a PR_COL_LINK cell to the
 * part of the report its row's "href" names. */
static void
source_href(struct pr_html_view *v, cJSON *cell, const cJSON *row,
            const struct pr_col *c)
{
    char href[PR_SOURCE_LINK_MAX + 3 * 4096];
    const char *file = pr_sget_str(row, PR_K_FILE);
    double line = pr_sget_num(row, PR_K_LINE);

    const char *anchor = NULL;
    char key[48];

    if (c->show & PR_COL_LINK) {
        snprintf(key, sizeof(key), "href_%s", c->id);
        anchor = pr_sget_str(row, key);
    }
    if (anchor != NULL && anchor[0] == '#') {
        /* a part of this report, its job's where it has several
           (review 15 #6: ms_fixtures' "#recommendations" beside its
           sections job1-recommendations, job2-...) */
        snprintf(href, sizeof(href), "#%s%s",
                 v->id_prefix != NULL ? v->id_prefix : "", anchor + 1);
        add_str(v, cell, "c_href", href);
        return;
    }
    if (v->source_link == NULL || strcmp(c->key, PR_K_LOCATION) != 0 ||
        file == NULL)
        return;
    if (pr_source_link(v->source_link, file,
                       line >= 1 && line < 1e9 ? (long)line : 0, href,
                       sizeof(href)))
        add_str(v, cell, "c_href", href);
}

static void
cell(struct pr_html_view *v, cJSON *cells, const cJSON *row,
     const struct pr_col *c, const char *form, const char *sub)
{
    cJSON *o = push_obj(v, cells);
    const cJSON *val = pr_sget_path(row, c->key);
    char buf[64], sort[40] = "";
    const char *text = pr_fig_cell(row, c, buf, sizeof(buf));

    if (o == NULL)
        return;
    const cJSON *by = pr_sget(pr_sget(row, PR_FIG_SORT_BY), c->key);

    if (cJSON_IsNumber(val) && isfinite(val->valuedouble))
        snprintf(sort, sizeof(sort), "%.10g", val->valuedouble);
    else if (cJSON_IsNumber(by) && isfinite(by->valuedouble))
        snprintf(sort, sizeof(sort), "%.10g", by->valuedouble);
    else if (cJSON_IsBool(val))
        snprintf(sort, sizeof(sort), "%d", cJSON_IsTrue(val));
    add_str(v, o, "c_cls", cell_class(c, row, text));
    source_href(v, o, row, c);
    if (sub != NULL)
        add_str(v, o, "c_sub", sub);
    if (c->fmt == PR_FMT_NAME && cJSON_IsString(val)) {
        add_str(v, o, "c_v", val->valuestring);
        name_text(v, o, val->valuestring, form);
        return;
    }
    add_str(v, o, "c_v", sort[0] ? sort : cJSON_IsString(val) ? text : "");
    add_str(v, o, "c_t", text);
    add_wrappable(v, o, "c_h", text,
                  !pr_col_numeric(c->fmt) && c->fmt != PR_FMT_CHANGE &&
                      c->fmt != PR_FMT_VERDICT);
}

/* A row of a tree table carries its depth (data-depth, which the script
 * folds by) and indents its first cell by it; returns r. */
static cJSON *
tree_row(struct pr_html_view *v, cJSON *r, const struct pr_fig_table *ft,
         const cJSON *row)
{
    double d = ft->depth_key ? pr_sget_num(row, ft->depth_key) : NAN;
    char depth[24], indent[24];

    if (r == NULL || !(d >= 0 && d < 1e6))
        return r;
    snprintf(depth, sizeof(depth), "%.0f", d);
    snprintf(indent, sizeof(indent), "%.0f", fmin(d, 8)); /* as the PDF */
    add_str(v, r, "r_depth", depth);
    add_str(v, r, "r_indent", indent);
    return r;
}

/* The shown forms of the name columns of rows[0..n) (n_cols columns):
 * forms[r * n_cols + c], told apart within each column (issue #32: two
 * kernels never read as one; a tree's labels keep their leaf), NULL for
 * other columns.  NULL on
 * out-of-memory (or no rows). */
static char **
name_forms(const struct pr_fig_table *ft, const cJSON **rows, size_t n,
           size_t n_cols)
{
    size_t all = n + (size_t)pr_sget_len(ft->names_from);
    char **forms = n ? calloc(n * n_cols, sizeof(*forms)) : NULL;
    const char **names = n ? calloc(all, sizeof(*names)) : NULL;
    const struct pr_col *c;
    const cJSON *it;
    size_t i, r;

    for (i = 0; forms && names && (c = pr_fig_table_col(ft, i)); i++) {
        if (c->fmt != PR_FMT_NAME)
            continue;
        for (r = 0; r < n; r++) {
            const cJSON *val = pr_sget_path(rows[r], c->key);
            names[r] = cJSON_IsString(val) ? val->valuestring : "";
        }
        cJSON_ArrayForEach(it, ft->names_from) /* the rest of the list */
        {
            names[r++] = pr_sget_str_or(it, PR_K_NAME, "");
        }
        if (ft->depth_key != NULL && i == 0 /* a tree's labels: paths */
                ? pr_shorten_labels(names, n, n, NAME_CHARS, forms + i, n_cols)
                : pr_shorten_names(names, all, n, NAME_CHARS, forms + i,
                                   n_cols)) {
            pr_shorten_free(forms, n * n_cols);
            free(forms);
            forms = NULL;
        }
    }
    if (names == NULL) {
        free(forms);
        forms = NULL;
    }
    free(names);
    return forms;
}

static void
table_view(struct pr_html_view *v, cJSON *t, const struct pr_fig_table *ft,
           size_t top)
{
    const struct pr_col *c;
    cJSON *hdr = add_arr(v, t, "cols"), *body = add_arr(v, t, "rows");
    const cJSON *row = cJSON_IsArray(ft->rows) ? ft->rows->child : ft->rows;
    size_t shown, total, i, n = 0, n_cols = 0, r;
    char id[32], caption[160], **forms;
    const cJSON **rows;

    pr_fig_table_count(ft, top, &shown, &total);
    snprintf(id, sizeof(id), "t%zu", ++v->n_tables);
    add_str(v, t, "id", id);
    pr_fig_table_caption(ft, top, caption, sizeof(caption));
    add_str(v, t, "caption", caption);
    add_str(v, t, "more", shown < total ? "Raise --top to see more." : "");
    add_bool(v, t, "tree", ft->depth_key != NULL);
    for (i = 0; (c = pr_fig_table_col(ft, i)) != NULL; i++) {
        cJSON *h = push_obj(v, hdr);
        add_str(v, h, "h_label", c->label);
        add_bool(v, h, "h_num", pr_col_numeric(c->fmt));
        add_str(v, h, "h_help", c->help);
    }
    rows = calloc(shown ? shown : 1, sizeof(*rows));
    for (; rows != NULL && row != NULL && n < shown;
         row = cJSON_IsArray(ft->rows) ? row->next : NULL) {
        if (cJSON_IsObject(row) &&
            !(ft->require && isnan(pr_sget_num(row, ft->require))))
            rows[n++] = row;
    }
    for (i = 0; (c = pr_fig_table_col(ft, i)) != NULL; i++)
        n_cols++;
    forms = name_forms(ft, rows, n, n_cols);
    if (rows == NULL || (forms == NULL && n > 0))
        v->oom = 1;
    for (r = 0; r < n && !v->oom; r++) {
        cJSON *cells =
            add_arr(v, tree_row(v, push_obj(v, body), ft, rows[r]), "cells");
        int subbed = ft->sub_key == NULL;
        for (i = 0; (c = pr_fig_table_col(ft, i)) != NULL; i++) {
            cell(v, cells, rows[r], c, forms[r * n_cols + i],
                 !subbed && c->fmt == PR_FMT_NAME
                     ? pr_sget_str(rows[r], ft->sub_key)
                     : NULL);
            subbed |= c->fmt == PR_FMT_NAME;
        }
    }
    if (forms != NULL)
        pr_shorten_free(forms, n * n_cols);
    free(forms);
    free(rows);
}

/* --- blocks */

static void
chart_view(struct pr_html_view *v, cJSON *arr, const struct pr_fig_chart *ch)
{
    cJSON *o = push_obj(v, arr);
    struct pr_buf b;
    struct pr_svg svg;
    struct pr_canvas c;
    struct pr_chart_box box = {8, 8, ch->w - 16, ch->h - 16};

    pr_buf_init(&b, 0);
    pr_svg_begin(&svg, &c, &b, ch->w, ch->h, ch->label);
    ch->draw(&c, &box, ch->spec);
    if (pr_svg_end(&svg, &c) != PR_OK)
        v->oom = 1;
    else
        add_str(v, o, "ch_svg", b.data);
    add_bool(v, o, "ch_wide", ch->w >= 900);
    pr_buf_free(&b);
}

static void
kpis_view(struct pr_html_view *v, cJSON *o, const struct pr_block *b)
{
    cJSON *arr = add_arr(v, add_obj(v, o, "b_kpis"), "kp");
    size_t i;

    for (i = 0; i < b->n; i++) {
        cJSON *k = push_obj(v, arr);
        add_str(v, k, "kp_label", b->kpis[i].label);
        add_str(v, k, "kp_value", b->kpis[i].value);
        add_str(v, k, "kp_sub", b->kpis[i].sub);
        add_bool(v, k, "kp_na", b->kpis[i].na);
    }
}

static void
items_view(struct pr_html_view *v, cJSON *o, const cJSON *items)
{
    cJSON *arr = add_arr(v, add_obj(v, o, "b_items"), "it");
    const cJSON *it;

    cJSON_ArrayForEach(it, items)
    {
        cJSON *e = push_obj(v, arr);
        add_str(v, e, "it_sev", pr_sget_str_or(it, "sev", "info"));
        add_str(v, e, "it_title", pr_sget_str(it, PR_K_TITLE));
        add_str(v, e, "it_text", pr_sget_str(it, PR_K_TEXT));
        add_str(v, e, "it_code", pr_sget_str(it, "code"));
    }
}

static void
block_view(struct pr_html_view *v, cJSON *blocks, const struct pr_block *b,
           size_t top)
{
    static const char *const text_keys[] = {"b_head", "b_note", "b_text"};
    cJSON *o = push_obj(v, blocks), *ch;
    size_t i;

    switch (b->kind) {
    case PR_BLOCK_HEADING:
    case PR_BLOCK_NOTE:
    case PR_BLOCK_TEXT:
        add_str(v, o, text_keys[b->kind], b->text);
        break;
    case PR_BLOCK_KPIS:
        kpis_view(v, o, b);
        break;
    case PR_BLOCK_CHARTS:
        ch = add_obj(v, o, "b_charts");
        add_bool(v, ch, "ch_two", b->n == 2);
        ch = add_arr(v, ch, "ch");
        for (i = 0; i < b->n && !v->oom; i++)
            chart_view(v, ch, b->charts[i]);
        break;
    case PR_BLOCK_TABLE:
        table_view(v, add_obj(v, o, "b_table"), &b->table, top);
        break;
    case PR_BLOCK_ITEMS:
        items_view(v, o, b->own);
        break;
    }
}

/* --- sections and pages */

enum pr_status
pr_html_view_init(struct pr_html_view *v, struct pr_error *err)
{
    memset(v, 0, sizeof(*v));
    v->root = cJSON_CreateObject();
    v->sections = v->root ? cJSON_AddArrayToObject(v->root, "sections") : NULL;
    if (v->sections == NULL) {
        cJSON_Delete(v->root);
        v->root = NULL;
        return pr_error_set(err, PR_E_NOMEM, "html: out of memory");
    }
    return PR_OK;
}

void
pr_html_view_section(struct pr_html_view *v, const char *id, const char *title,
                     const struct pr_figs *f)
{
    cJSON *s = push_obj(v, v->sections), *parts = add_arr(v, s, "parts");
    size_t p, b;

    if (f->failed)
        v->oom = 1;
    add_str(v, s, "s_id", id);
    add_str(v, s, "s_title", title);
    for (p = 0; p < f->n_parts && !v->oom; p++) {
        const struct pr_part *part = &f->parts[p];
        cJSON *po = push_obj(v, parts), *blocks;
        add_str(v, po, "p_label", part->label);
        add_str(v, po, "p_sub", part->sub);
        blocks = add_arr(v, po, "blocks");
        for (b = 0; b < part->n_blocks && !v->oom; b++)
            block_view(v, blocks, &part->blocks[b], f->top);
    }
}

/* What partial() reads and says: the template folder, and whether a
 * partial failed for want of memory (not a missing partial). */
struct partial_ctx {
    const char *dir;
    int oom;
};

static char *
partial(const char *name, void *user)
{
    struct partial_ctx *p = user;
    struct pr_error e;
    char *text = NULL;
    size_t len;

    pr_error_clear(&e);
    if (pr_tmpl_load(name, p->dir, &text, &len, &e) != PR_OK) {
        /* Mustache: a missing partial renders as nothing; out of
           memory is an error, never a report without the part */
        p->oom |= e.code == PR_E_NOMEM;
        return NULL;
    }
    return text;
}

enum pr_status
pr_html_view_render(struct pr_html_view *v, const char *tmpl_name,
                    const char *template_dir, struct pr_buf *out,
                    struct pr_error *err)
{
    char *tmpl = NULL;
    size_t len = 0;
    enum pr_status st;
    struct partial_ctx pc = {template_dir, 0};

    if (v->oom)
        return pr_error_set(err, PR_E_NOMEM, "html: out of memory");
    st = pr_tmpl_load(tmpl_name, template_dir, &tmpl, &len, err);
    if (st != PR_OK)
        return st;
    st = pr_tmpl_render(tmpl, len, v->root, partial, &pc, out, err);
    if (st == PR_OK && pc.oom)
        st = pr_error_set(err, PR_E_NOMEM, "out of memory");
    if (st != PR_OK)
        pr_error_prefix(err, "%s: ", tmpl_name);
    free(tmpl);
    return st;
}

void
pr_html_view_free(struct pr_html_view *v)
{
    cJSON_Delete(v->root);
    memset(v, 0, sizeof(*v));
}

/* --- the main report */

/* Unix time -> "YYYY-MM-DDTHH:MM:SSZ" without gmtime() (banned: it uses
 * static storage); days-to-civil after H. Hinnant. */
static void
iso_utc(int64_t t, char *buf, size_t n)
{
    int64_t days = t / 86400, sec = t % 86400;
    int64_t z, era, doe, yoe, y, doy, mp, d, m;

    if (sec < 0) {
        sec += 86400;
        days--;
    }
    z = days + 719468;
    era = (z >= 0 ? z : z - 146096) / 146097;
    doe = z - era * 146097;
    yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    y = yoe + era * 400;
    doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    mp = (5 * doy + 2) / 153;
    d = doy - (153 * mp + 2) / 5 + 1;
    m = mp < 10 ? mp + 3 : mp - 9;
    y += m <= 2;
    snprintf(buf, n, "%04lld-%02lld-%02lldT%02lld:%02lld:%02lldZ", (long long)y,
             (long long)m, (long long)d, (long long)(sec / 3600),
             (long long)(sec / 60 % 60), (long long)(sec % 60));
}

/* Append `item` to the list in buf (", " between), the first `max`
 * items only; returns the count so far. */
static size_t
list_add(char *buf, size_t cap, size_t count, size_t max, const char *item)
{
    size_t len = strlen(buf);

    if (count < max)
        snprintf(buf + len, cap - len, "%s%s", len ? ", " : "", item);
    return count + 1;
}

/* " and N more" after a list of the first `max` of `count`. */
static void
list_end(char *buf, size_t cap, size_t count, size_t max)
{
    size_t len = strlen(buf);

    if (count > max)
        snprintf(buf + len, cap - len, " and %zu more", count - max);
}

#define HEADER_ITEMS 4 /* runs or jobs the header names */

static void
title_block(struct pr_html_view *v, const cJSON *summary,
            const struct pr_render_opts *o)
{
    cJSON *root = v->root;
    const cJSON *runs = pr_sget(summary, PR_K_RUNS), *r, *job;
    const char *ver =
        o->version ? o->version
                   : pr_sget_str(pr_sget(summary, PR_K_TOOL), PR_K_VERSION);
    char when[80], devs[256] = "", workers[320] = "", name[160];
    size_t nw = 0, nj = 0, len;

    iso_utc(o->generated_at, when, sizeof(when));
    add_str(v, root, "generated", when);
    add_str(v, root, "version", ver ? ver : "unknown");
    cJSON_ArrayForEach(r, runs)
    {
        const char *dev = pr_fig_device_name(pr_sget_first(r, PR_K_DEVICES));

        /* a worker's spans apart: "worker0 (span 1623143089861)"; named
         * for the first few runs only (a name looks at every run) */
        nw = list_add(workers, sizeof(workers), nw, HEADER_ITEMS,
                      nw < HEADER_ITEMS
                          ? pr_sget_run_name(runs, r, name, sizeof(name))
                          : "");
        if (dev != NULL && strstr(devs, dev) == NULL) {
            len = strlen(devs);
            snprintf(devs + len, sizeof(devs) - len, "%s%s", len ? ", " : "",
                     dev);
        }
    }
    list_end(workers, sizeof(workers), nw, HEADER_ITEMS);
    if (nw > 1 && pr_fig_memtl_only(summary)) { /* no ranks: review 18 #5 */
        char list[sizeof(workers) - 48];        /* the head's room */

        memcpy(list, workers, sizeof(list) - 1);
        list[sizeof(list) - 1] = '\0';
        snprintf(workers, sizeof(workers), "%zu memory timelines: %s", nw,
                 list);
    }
    if (cJSON_IsObject(pr_sget(summary, "detail"))) /* a job's view */
        snprintf(workers, sizeof(workers), "%.0f ranks (%zu in detail)",
                 pr_sget_num(pr_sget(summary, "detail"), "of"), nw);
    if (pr_detail_n_jobs(summary) > 0) {         /* the jobs by name */
        size_t tj = pr_sget_memtl_jobs(summary); /* no job: review 18 #6 */
        size_t jn = pr_detail_n_jobs(summary) - tj;
        size_t tl = pr_sget_memtl_runs(summary); /* no run: review 19 #9 */
        size_t nr = nw > tl ? nw - tl : 0;

        char jobs[200] = "", tls[200] = "";
        size_t nt = 0;

        /* the jobs' names after the jobs, the timelines' after the
           timelines: "1 run in 1 job, two_beside; 2 memory timelines:
           a.raw, b.raw", never a job read as a timeline (review 21 #12) */
        cJSON_ArrayForEach(job, pr_sget(summary, PR_K_JOBS))
        {
            const char *jname = pr_sget_str_or(job, PR_K_NAME, "?");
            if (pr_sget_job_is_memtl(summary, job))
                nt = list_add(tls, sizeof(tls), nt, HEADER_ITEMS, jname);
            else
                nj = list_add(jobs, sizeof(jobs), nj, HEADER_ITEMS, jname);
        }
        list_end(jobs, sizeof(jobs), nj, HEADER_ITEMS);
        list_end(tls, sizeof(tls), nt, HEADER_ITEMS);
        len = jn > 0
                  ? (size_t)snprintf(workers, sizeof(workers),
                                     "%zu run%s in %zu job%s%s%s", nr,
                                     nr == 1 ? "" : "s", jn, jn == 1 ? "" : "s",
                                     jn == 1 ? ", " : ": ", jobs)
                  : 0;
        if (tl > 0 && len < sizeof(workers))
            snprintf(workers + len, sizeof(workers) - len,
                     "%s%zu memory timeline%s: %s", len > 0 ? "; " : "", tl,
                     tl == 1 ? "" : "s", tls);
    }
    add_str(v, root, "workers", nw ? workers : "none");
    /* a trace that names its GPUs but records none of their work
       (review22g item 9): "8x NVIDIA A100-PG509-200 (no device work
       recorded)" */
    r = pr_sget_first(summary, PR_K_RUNS);
    if (devs[0] && pr_fig_host_only(summary) && pr_sget_len(runs) == 1) {
        size_t nd = pr_sget_len(pr_sget(r, PR_K_DEVICES));
        char one[sizeof(devs)];

        snprintf(one, sizeof(one), "%s", devs);
        if (nd > 1)
            snprintf(devs, sizeof(devs),
                     "%zux %.200s (no device work recorded)", nd, one);
        else
            snprintf(devs, sizeof(devs), "%.200s (no device work recorded)",
                     one);
    } else if (devs[0] && pr_fig_host_only(summary)) {
        len = strlen(devs);
        snprintf(devs + len, sizeof(devs) - len, " (no device work recorded)");
    }
    add_str(v, root, "devices",
            devs[0] ? devs
            : pr_fig_memtl_only(summary)
                ? (nw > 1 ? "not named (one per timeline)" : "one, not named")
            : pr_fig_host_only(summary) && pr_sget_run_device_unrecorded(r) == 2
                ? "GPU, not recorded (NCCL calls)" /* device_not_recorded */
            : pr_fig_host_only(summary)      ? "CPU only"
            : pr_fig_summary_is_npu(summary) ? "no NPU with events"
                                             : "no GPU");
}

/* The sections of one report view; ids prefixed with `prefix`. */
static void
view_sections(struct pr_html_view *v, const cJSON *view,
              const struct pr_render_opts *o, const char *prefix, int in_job)
{
    struct pr_figs f;
    char id[80];
    size_t i;

    v->id_prefix = prefix;
    for (i = 0; i < pr_report_n_sections && !v->oom; i++) {
        const struct pr_section *s = pr_report_sections[i];
        if (!pr_section_present(s, view))
            continue;
        pr_figs_init(&f, o->top > 0 ? (size_t)o->top : 0);
        pr_figs_section(&f, s, view);
        snprintf(id, sizeof(id), "%s%s", prefix, pr_section_id(s, view));
        pr_html_view_section(v, id, pr_section_title(s, view), &f);
        /* the navigation lists the jobs, not their sections; the last
         * item is the first's prev in cJSON (found by index, it made
         * 1,000 jobs quadratic) */
        if (in_job && v->sections != NULL && v->sections->child != NULL)
            add_bool(v, v->sections->child->prev, "s_in_job", 1);
        pr_figs_free(&f);
    }
    v->id_prefix = NULL; /* the caller's */
}

/* A job's heading before its sections: "Job 2 of 5: name" and what it
 * holds, as a section of its own that the navigation lists. */
static void
job_heading(struct pr_html_view *v, const cJSON *summary, size_t k, size_t n)
{
    const cJSON *job = cJSON_GetArrayItem(pr_sget(summary, PR_K_JOBS), (int)k);
    cJSON *s = push_obj(v, v->sections);
    char text[800], ext[400], tie[300], id[32];

    snprintf(id, sizeof(id), "job%zu", k + 1);
    add_str(v, s, "s_jid", id);
    /* a memory timeline is a part, not a job (review 18 #6): beside one,
     * every job is a part, counted alike (review 19 #9) */
    snprintf(text, sizeof(text), "%s %zu of %zu: %s",
             pr_sget_memtl_jobs(summary) > 0 ? "Part" : "Job", k + 1, n,
             pr_sget_str_or(job, PR_K_NAME, "?"));
    add_str(v, s, "s_job", text);
    if (pr_sget_job_is_memtl(summary, job)) /* its own part: memtl13 */
        snprintf(ext, sizeof(ext),
                 "a memory timeline (torch.profiler's "
                 "export_memory_timeline_raw)%s%s",
                 pr_sget_memtl_tie(summary, job, tie, sizeof(tie))
                     ? " named after "
                     : "",
                 tie);
    else
        pr_sget_job_extent(job, ext, sizeof(ext));
    snprintf(text, sizeof(text), "%s, from %s", ext,
             pr_sget_str_or(job, PR_K_PATH, "?"));
    add_str(v, s, "s_jsub", text);
    snprintf(text, sizeof(text), "%zu. %s", k + 1,
             pr_sget_str_or(job, PR_K_NAME, "?"));
    add_str(v, s, "s_jnav", text);
}

/* Several jobs: one part per job, each drawn from the job's own view. */
static enum pr_status
job_parts(struct pr_html_view *v, const cJSON *summary,
          const struct pr_render_opts *o, size_t n, struct pr_error *err)
{
    cJSON *base, *view;
    char prefix[32];
    size_t k;
    enum pr_status st;
    struct pr_figs f;
    struct pr_job_set *set;

    add_bool(v, v->root, "has_jobs", 1);
    pr_figs_init(&f, 0);
    pr_detail_jobs_index(&f, summary);
    pr_html_view_section(v, "jobs", "Jobs", &f);
    pr_figs_free(&f);
    st = pr_detail_jobs_open(summary, &set, err);
    for (k = 0; k < n && st == PR_OK && !v->oom; k++) {
        st = pr_detail_job_view(set, k, o->detail_ranks, &base, &view, err);
        if (st != PR_OK)
            break;
        job_heading(v, summary, k, n);
        snprintf(prefix, sizeof(prefix), "job%zu-", k + 1);
        view_sections(v, view, o, prefix, 1);
        cJSON_Delete(view);
        cJSON_Delete(base);
    }
    pr_detail_jobs_close(set);
    return st;
}

enum pr_status
pr_html_render(const cJSON *summary, const struct pr_render_opts *o,
               struct pr_buf *out, struct pr_error *err)
{
    struct pr_html_view v;
    size_t n_jobs = pr_detail_n_jobs(summary);
    enum pr_status st;

    st = pr_html_view_init(&v, err);
    if (st != PR_OK)
        return st;
    v.source_link =
        o->source_link != NULL ? o->source_link : PR_SOURCE_LINK_DEFAULT;
    title_block(&v, summary, o);
    if (n_jobs > 0)
        st = job_parts(&v, summary, o, n_jobs, err);
    else
        view_sections(&v, summary, o, "", 0);
    if (st == PR_OK)
        st = pr_html_view_render(&v, "report.html", o->template_dir, out, err);
    pr_html_view_free(&v);
    return st;
}
