/* pdf.c - the PDF layout of the main report: a title page (what was read,
 * which workers and devices), then every section of the section table
 * (sections.c) laid out by pdf_doc.c with a bookmark each, and "page N of
 * M" footers.  What a section shows is decided once, in sections.c, for
 * the HTML report too. */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "profreport/chart.h"
#include "profreport/detail.h"
#include "profreport/figures.h"
#include "profreport/keys.h"
#include "profreport/pdf_doc.h"
#include "profreport/render.h"
#include "profreport/sget.h"

/* ---- title page ------------------------------------------------------- */

static const struct pr_col worker_dev_cols[] = {
    {"worker", PR_K_WORKER, "Worker", PR_FMT_NAME, 1.4, NULL, PR_COL_BOTH},
    {"span", PR_K_SPAN, "Span", PR_FMT_TEXT, 1, NULL, PR_COL_BOTH},
    {"rank", PR_K_RANK, "Rank", PR_FMT_TEXT, 0.5, NULL, PR_COL_BOTH},
    {"device", PR_K_DEVICE, "Device", PR_FMT_NAME, 2.4, NULL, PR_COL_BOTH},
    {"arch", PR_K_ARCHITECTURE, "Arch", PR_FMT_TEXT, 0.6, NULL, PR_COL_BOTH},
    {"memory", PR_K_MEMORY_BYTES, "Memory", PR_FMT_BYTES, 0.8, NULL,
     PR_COL_BOTH},
    {NULL, NULL, NULL, PR_FMT_TEXT, 0, NULL, 0},
};

/* The title page's columns not to show: Span unless two runs of a
 * worker need it told apart, Rank unless a run has one (else each says
 * "-" in every row). */
static const char *const *
worker_dev_hidden(const cJSON *runs)
{
    static const char *const span[] = {"span", NULL};
    static const char *const rank[] = {"rank", NULL};
    static const char *const both[] = {"span", "rank", NULL};
    int ranked = pr_fig_rows_have(runs, PR_K_RANK);
    int spans = pr_sget_spans_matter(runs);

    return spans && ranked ? NULL : spans ? rank : ranked ? span : both;
}

/* Copy `v` (may be NULL: nothing to copy) into r[key]; 0 on failure. */
static int
add_copy(cJSON *r, const char *key, const cJSON *v)
{
    cJSON *c;

    if (v == NULL)
        return 1;
    c = cJSON_Duplicate(v, 1);
    return c != NULL && cJSON_AddItemToObject(r, key, c);
}

/* The title page's row for one device of a run (dev may be NULL). */
static cJSON *
worker_device_row(const cJSON *run, const cJSON *dev)
{
    cJSON *r = cJSON_CreateObject();
    char name[200];

    if (r == NULL)
        return NULL;
    if (dev == NULL)
        snprintf(
            name, sizeof(name), "%s",
            pr_sget_run_device_unrecorded(run) == 2
                ? "GPU, not recorded (NCCL calls)" /* device_not_recorded */
            : pr_fig_run_host_only(run) ? "CPU only"
                                        : PR_PDF_DASH);
    else /* named GPUs of no recorded work say so, as the HTML header's
            Devices do (dist_unavail: 8 A100s, sm_80, 39.6 GiB each,
            read as GPUs that ran) */
        snprintf(
            name, sizeof(name), "%.0f: %.150s%s",
            isnan(pr_sget_num(dev, PR_K_ID)) ? -1 : pr_sget_num(dev, PR_K_ID),
            pr_fig_device_name(dev) ? pr_fig_device_name(dev) : "?",
            pr_sget_run_device_unrecorded(run) ? " (no device work recorded)"
                                               : "");
    if (!add_copy(r, PR_K_WORKER, pr_sget(run, PR_K_WORKER)) ||
        !add_copy(r, PR_K_SPAN, pr_sget(run, PR_K_SPAN)) ||
        !add_copy(r, PR_K_RANK, pr_sget(run, PR_K_RANK)) ||
        !add_copy(r, PR_K_ARCHITECTURE, pr_sget(dev, PR_K_ARCHITECTURE)) ||
        !add_copy(r, PR_K_MEMORY_BYTES, pr_sget(dev, PR_K_MEMORY_BYTES)) ||
        cJSON_AddStringToObject(r, PR_K_DEVICE, name) == NULL) {
        cJSON_Delete(r);
        return NULL;
    }
    return r;
}

/* One row per (run, device) for the title page; a run without devices
 * gets one row.  Returns an owned array, NULL on out-of-memory. */
static cJSON *
worker_device_rows(const cJSON *runs)
{
    cJSON *rows = cJSON_CreateArray();
    const cJSON *run, *dev;

    if (rows == NULL)
        return NULL;
    cJSON_ArrayForEach(run, runs)
    {
        dev = pr_sget_first(run, PR_K_DEVICES);
        do {
            cJSON *r = worker_device_row(run, dev);
            if (r == NULL || !cJSON_AddItemToArray(rows, r)) {
                cJSON_Delete(r);
                cJSON_Delete(rows);
                return NULL;
            }
            dev = dev ? dev->next : NULL;
        } while (dev != NULL);
    }
    return rows;
}

/* Who wrote an input of a format (inputs[].format), as the cover names
 * them; a format not listed reads as a profiler's. */
static const char *
producer_of(const char *format)
{
    static const struct {
        const char *prefix, *producer;
    } names[] = {
        {"kineto", "PyTorch profiler"},
        {"chrome", "PyTorch profiler"},
        {"autograd", "PyTorch profiler"},
        {"ascend", "Ascend profiler"}, /* torch_npu's or MindSpore's */
        {"msprof", "msprof"},
        {"mindspore", "MindSpore profiler"},
        {"nsys", "Nsight Systems"},
        {"megengine", "MegEngine profiler"},
    };
    size_t i;

    for (i = 0; format != NULL && i < sizeof(names) / sizeof(names[0]); i++)
        if (strncmp(format, names[i].prefix, strlen(names[i].prefix)) == 0)
            return names[i].producer;
    return "profiler";
}

/* "PyTorch profiler traces, analysed by profreport": the producers of
 * the inputs, each once, in the order of the inputs; more than two are
 * counted, so that the line fits the page. */
static void
subtitle(const cJSON *inputs, char *buf, size_t cap)
{
    const char *seen[8];
    size_t n = 0, i, len = 0, tl = 0;
    const cJSON *in;
    char tls[64] = "";

    buf[0] = '\0';
    cJSON_ArrayForEach(in, inputs)
    {
        const char *p = producer_of(pr_sget_str(in, PR_K_FORMAT));
        /* a memory timeline is no trace, and its producer is named
           (review 21 #12): "torch.profiler memory timelines" */
        if (strcmp(pr_sget_str_or(in, PR_K_FORMAT, ""), "memory_timeline") ==
            0) {
            tl++;
            continue;
        }
        for (i = 0; i < n && strcmp(seen[i], p) != 0; i++)
            ;
        if (i < n || n == sizeof(seen) / sizeof(seen[0]))
            continue;
        seen[n++] = p;
    }
    if (tl > 0)
        snprintf(tls, sizeof(tls), "%storch.profiler memory timeline%s",
                 n > 0 ? " and " : "", tl == 1 ? "" : "s");
    if (n > 2) {
        snprintf(buf, cap, "Traces of %zu profilers%s, analysed by profreport",
                 n, tls);
        return;
    }
    for (i = 0; i < n && len < cap; i++)
        len += (size_t)snprintf(buf + len, cap - len, "%s%s",
                                i == 0      ? ""
                                : i + 1 < n ? ", "
                                            : " and ",
                                seen[i]);
    if (len < cap && n == 0 && tl > 0)
        snprintf(buf, cap, "%s, analysed by profreport", tls);
    else if (len < cap)
        snprintf(buf + len, cap - len, "%s traces%s, analysed by profreport",
                 n == 0 ? "Profiler" : "", tls);
}

/* A summary an older profreport wrote, on the cover, where page 1 is
 * read (review 19 #10): the first run's note, which names the views it
 * lacks and what to do; each run's own is in Data quality. */
static void
older_cover(struct pr_pdf_doc *d, const cJSON *runs)
{
    const cJSON *run;
    const char *note = NULL;
    char line[160];
    size_t n = 0;

    cJSON_ArrayForEach(run, runs)
    {
        const char *t = pr_sget_older_note(run);

        if (t != NULL && n++ == 0)
            note = t;
    }
    if (note == NULL)
        return;
    if (n > 1)
        snprintf(line, sizeof(line),
                 "written by an older profreport (%zu runs; the first's "
                 "note below, each run's in Data quality)",
                 n);
    pr_pdf_doc_info_line(d, "Summary",
                         n > 1 ? line : "written by an older profreport");
    pr_pdf_doc_skip(d, 2);
    pr_pdf_doc_paragraph(d, 90, note, PR_PDF_BODY_SIZE, PR_PDF_C_TEXT);
}

static void
title_page(struct pr_pdf_doc *d, const cJSON *summary, const char *version)
{
    const cJSON *inputs = pr_sget(summary, PR_K_INPUTS);
    const cJSON *runs = pr_sget(summary, PR_K_RUNS);
    const cJSON *dist = pr_sget(summary, PR_K_DISTRIBUTED);
    struct pr_fig_table t = {.cols = worker_dev_cols, .what = "devices"};
    char line[128], num[48], sub[256];

    subtitle(inputs, sub, sizeof(sub));
    pr_pdf_doc_set_y(d, 150);
    pr_pdf_doc_put(d, PR_PDF_MARGIN_X, 150, "Profile report", 30, 1,
                   PR_PDF_C_TEXT, PR_ANCHOR_START);
    pr_pdf_doc_skip(d, 24);
    pr_pdf_doc_put(d, PR_PDF_MARGIN_X, pr_pdf_doc_y(d), sub, 12, 0,
                   PR_PDF_C_MUTED, PR_ANCHOR_START);
    pr_pdf_doc_skip(d, 16);
    pr_pdf_doc_hline(d, PR_PDF_MARGIN_X,
                     pr_pdf_doc_page_width(d) - PR_PDF_MARGIN_X,
                     pr_pdf_doc_y(d), PR_PDF_C_ACCENT, 2);
    pr_pdf_doc_skip(d, 20);
    pr_pdf_doc_info_line(d, "Generated",
                         pr_pdf_doc_iso_date(d, line, sizeof(line)));
    snprintf(line, sizeof(line), "profreport %s", version);
    pr_pdf_doc_info_line(d, "Tool", line);
    snprintf(line, sizeof(line), "%zu file%s", pr_sget_len(inputs),
             pr_sget_len(inputs) == 1 ? "" : "s");
    pr_pdf_doc_info_line(d, "Inputs", line);
    /* "(worker, span)" only where a worker has two spans to tell apart */
    if (cJSON_IsObject(pr_sget(summary, "detail"))) /* a job's view */
        snprintf(line, sizeof(line), "%.0f%s run%s, %zu in detail",
                 pr_sget_num(pr_sget(summary, "detail"), "of"),
                 pr_sget_spans_matter(runs) ? " (worker, span)" : "",
                 pr_sget_num(pr_sget(summary, "detail"), "of") == 1 ? "" : "s",
                 pr_sget_len(runs));
    else if (pr_fig_memtl_only(summary)) /* no ranks: review 18 #5 */
        snprintf(line, sizeof(line), "%zu memory timeline%s", pr_sget_len(runs),
                 pr_sget_len(runs) == 1 ? "" : "s");
    else if (pr_sget_memtl_runs(summary) > 0) { /* no run: review 19 #9 */
        size_t tl = pr_sget_memtl_runs(summary);
        size_t nr = pr_sget_len(runs) > tl ? pr_sget_len(runs) - tl : 0;

        snprintf(line, sizeof(line), "%zu%s run%s and %zu memory timeline%s",
                 nr, pr_sget_spans_matter(runs) ? " (worker, span)" : "",
                 nr == 1 ? "" : "s", tl, tl == 1 ? "" : "s");
    } else
        snprintf(line, sizeof(line), "%zu%s run%s", pr_sget_len(runs),
                 pr_sget_spans_matter(runs) ? " (worker, span)" : "",
                 pr_sget_len(runs) == 1 ? "" : "s");
    pr_pdf_doc_info_line(d, "Runs", line);
    if (pr_detail_n_jobs(summary) > 0) {
        size_t tj = pr_sget_memtl_jobs(summary);
        size_t tl = pr_sget_memtl_runs(summary);
        size_t nj = pr_detail_n_jobs(summary) - tj;

        /* a memory timeline is no job (review 18 #6); each job and each
         * timeline's part is counted (review 19 #9) */
        if (tj > 0)
            snprintf(line, sizeof(line),
                     "%zu: %zu job%s and %zu memory timeline%s", nj + tj, nj,
                     nj == 1 ? "" : "s", tl, tl == 1 ? "" : "s");
        else
            snprintf(line, sizeof(line), "%zu, one part each%s", nj,
                     nj > 1 ? " (each job's figures are its own)" : "");
        pr_pdf_doc_info_line(d, tj > 0 ? "Parts" : "Jobs", line);
    } else if (cJSON_IsObject(dist) &&
               isnan(pr_sget_num(dist, PR_K_WORLD_SIZE)) &&
               pr_sget_num(dist, PR_K_WORLD_SIZE_AT_LEAST) > 0) {
        /* the links' lower bound, as the terminal and the HTML say it */
        snprintf(line, sizeof(line), "at least %.0f",
                 pr_sget_num(dist, PR_K_WORLD_SIZE_AT_LEAST));
        pr_pdf_doc_info_line(d, "World size", line);
    } else if (cJSON_IsObject(dist)) { /* the number is the world size */
        pr_pdf_doc_info_line(d, "World size",
                             pr_chart_format(pr_sget_num(dist, PR_K_WORLD_SIZE),
                                             PR_UNIT_COUNT, num, sizeof(num)));
    } else if (pr_fig_job_without_view(summary, sub, sizeof(sub))) {
        /* an older summary's view left out: not "no" (review 19 #3); a
           trace's of which no collective was read (msprof_full_db) */
        snprintf(line, sizeof(line), "yes (%.60s): %s", sub,
                 pr_fig_summary_older(summary)
                     ? "no distributed view in this summary"
                     : "no collective read");
        pr_pdf_doc_info_line(d, "Distributed", line);
    } else if (pr_fig_world_unknown(summary)) {
        /* not "no": an older summary that cannot tell (review 21 #3) */
        pr_pdf_doc_info_line(d, "Distributed",
                             "not known (the summary records no world "
                             "size)");
    } else if (pr_fig_memtl_only(summary)) {
        /* not "no": the file names no rank or world size (memtl13) */
        pr_pdf_doc_info_line(d, "Distributed",
                             "not known: a memory timeline names no rank or "
                             "world size");
    } else {
        pr_pdf_doc_info_line(d, "Distributed", "no");
    }
    older_cover(d, runs);
    pr_pdf_doc_skip(d, 14);
    pr_pdf_doc_subheading(d, "Workers and devices", 60);
    t.hide = worker_dev_hidden(runs);
    t.rows = worker_device_rows(runs);
    if (t.rows == NULL) {
        pr_pdf_doc_nomem(d);
        return;
    }
    pr_pdf_doc_fig_table(d, &t);
    cJSON_Delete((cJSON *)(uintptr_t)t.rows); /* built above: ours */
}

/* ---- document --------------------------------------------------------- */

/* The sections of one report view, their titles prefixed with `prefix`
 * (a job's, when the report holds several). */
static void
view_sections(struct pr_pdf_doc *d, const cJSON *view, const char *prefix,
              const struct pr_section *skip)
{
    struct pr_figs f;
    char title[160];
    size_t i;

    for (i = 0; i < pr_report_n_sections && !pr_pdf_doc_failed(d); i++) {
        if (pr_report_sections[i] == skip ||
            !pr_section_present(pr_report_sections[i], view))
            continue;
        pr_figs_init(&f, (size_t)pr_pdf_doc_top(d));
        pr_figs_section(&f, pr_report_sections[i], view);
        snprintf(title, sizeof(title), "%s%s", prefix,
                 pr_section_title(pr_report_sections[i], view));
        pr_pdf_doc_figs(d, title, &f);
        pr_figs_free(&f);
    }
}

/* Job k of n: a page that opens it (name, folder, ranks), then its
 * sections drawn from the job's own view. */
static void
job_part(struct pr_pdf_doc *d, const struct pr_job_set *set,
         const cJSON *summary, size_t k, size_t n, const char *spec)
{
    const cJSON *job = cJSON_GetArrayItem(pr_sget(summary, PR_K_JOBS), (int)k);
    struct pr_error err;
    cJSON *base, *view;
    char line[600], prefix[32];
    int tl, parts;

    pr_error_clear(&err);
    if (pr_detail_job_view(set, k, spec, &base, &view, &err) != PR_OK) {
        pr_pdf_doc_fail(d, &err);
        return;
    }
    (void)pr_pdf_doc_new_page(d);
    /* a memory timeline is a part, not a job (review 18 #6) */
    tl = pr_sget_job_is_memtl(summary, job);
    parts = pr_sget_memtl_jobs(summary) > 0; /* counted alike: review 19 #9 */
    snprintf(line, sizeof(line), "%s %zu of %zu: %s", parts ? "Part" : "Job",
             k + 1, n, pr_sget_str_or(job, PR_K_NAME, "?"));
    pr_pdf_doc_section(d, line);
    pr_pdf_doc_info_line(d, "Folder", pr_sget_str_or(job, PR_K_PATH, "?"));
    if (tl) {
        /* the line's width: ", shown on its own" was cut to "shown on
           its o..." (the heading says it is a part of its own) */
        pr_pdf_doc_info_line(d, "Kind",
                             "memory timeline (torch.profiler's "
                             "export_memory_timeline_raw)");
        /* the trace its file is named after, by name alone (memtl13) */
        if (pr_sget_memtl_tie(summary, job, line, sizeof(line)))
            pr_pdf_doc_info_line(d, "Named after", line);
    } else {
        pr_sget_job_extent(job, line, sizeof(line));
        /* "Ranks 1 run": no rank is named (review 19 #9) */
        if (pr_sget_len(pr_sget(job, PR_K_RANKS)) == 0)
            pr_pdf_doc_info_line(d, "Runs", line);
        else
            pr_pdf_doc_info_line(d, "Ranks", line);
    }
    pr_pdf_doc_skip(d, 10);
    snprintf(prefix, sizeof(prefix), "%s %zu: ", parts ? "Part" : "Job", k + 1);
    view_sections(d, view, prefix, NULL);
    cJSON_Delete(view);
    cJSON_Delete(base);
}

static void
build(struct pr_pdf_doc *d, const cJSON *summary, const char *version,
      const char *spec)
{
    size_t k, n_jobs = pr_detail_n_jobs(summary);
    const struct pr_section *first = NULL;
    struct pr_job_set *set = NULL;
    struct pr_error err;
    struct pr_figs f;

    if (pr_pdf_doc_new_page(d) != 0)
        return;
    pr_pdf_doc_bookmark(d, "Title page");
    title_page(d, summary, version);
    /* the verdict (the first section) on the title page: what bounds the
       step and what to fix first is the first thing a reader sees */
    if (n_jobs == 0 && pr_section_present(pr_report_sections[0], summary)) {
        first = pr_report_sections[0];
        pr_pdf_doc_skip(d, 14);
        pr_figs_init(&f, (size_t)pr_pdf_doc_top(d));
        pr_figs_section(&f, first, summary);
        pr_pdf_doc_figs(d, first->title, &f);
        pr_figs_free(&f);
    }
    (void)pr_pdf_doc_new_page(d); /* the title page stands alone */
    if (n_jobs == 0)
        view_sections(d, summary, "", first);
    if (n_jobs > 0) { /* the jobs' index, then a part per job */
        pr_figs_init(&f, (size_t)pr_pdf_doc_top(d));
        pr_detail_jobs_index(&f, summary);
        pr_pdf_doc_figs(d, "Jobs", &f);
        pr_figs_free(&f);
    }
    if (n_jobs > 0 && pr_detail_jobs_open(summary, &set, &err) != PR_OK)
        pr_pdf_doc_fail(d, &err);
    for (k = 0; k < n_jobs && !pr_pdf_doc_failed(d); k++)
        job_part(d, set, summary, k, n_jobs, spec);
    pr_detail_jobs_close(set);
    if (!pr_pdf_doc_failed(d))
        pr_pdf_doc_footers(d, "Profile report", version);
}

enum pr_status
pr_pdf_render(const cJSON *summary, const struct pr_render_opts *o,
              const char *path, struct pr_error *err)
{
    struct pr_error local;
    struct pr_pdf_doc *d = NULL;
    struct pr_pdf_setup s;
    enum pr_status st;
    char title[240] = "Profile report";

    if (err == NULL) {
        pr_error_clear(&local);
        err = &local;
    }
    if (!cJSON_IsObject(summary))
        return pr_error_set(err, PR_E_FORMAT, "summary is not an object");
    memset(&s, 0, sizeof(s));
    /* the HTML's name and its <title>'s runs, so that PDFs attached to
       a CI run tell apart (review 25u #14: every PDF's Title was
       "Profiling report") */
    {
        const cJSON *runs = pr_sget(summary, PR_K_RUNS);
        char name[160];
        int n = cJSON_GetArraySize(runs);

        if (n > 0) {
            snprintf(title, sizeof(title), "Profile report: %s%s",
                     pr_sget_run_name(runs, cJSON_GetArrayItem(runs, 0), name,
                                      sizeof(name)),
                     n > 1 ? " and more" : "");
            if (n > 1) {
                size_t len = strlen(title) - strlen(" and more");

                snprintf(title + len, sizeof(title) - len, " and %d more run%s",
                         n - 1, n == 2 ? "" : "s");
            }
        }
    }
    s.title = title;
    s.version = o->version
                    ? o->version
                    : pr_sget_str(pr_sget(summary, PR_K_TOOL), PR_K_VERSION);
    if (s.version == NULL)
        s.version = "?";
    s.font = o->font;
    s.paper = o->paper;
    s.generated_at = o->generated_at;
    s.top = o->top;
    st = pr_pdf_doc_open(&d, &s, err);
    if (st == PR_OK) {
        build(d, summary, s.version, o->detail_ranks);
        st = pr_pdf_doc_save(d, path);
    }
    pr_pdf_doc_close(d);
    return st;
}
