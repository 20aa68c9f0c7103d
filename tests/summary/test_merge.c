/* test_merge.c - the streaming merge of saved summaries (merge.h): the
 * job views built over lite runs equal those over the whole runs, the
 * whole runs come back exactly, and what cannot be merged is refused;
 * the same store fed whole runs of traces (issue #33) gives the same
 * bits as their saved summaries, and a run's rank form (rank_form.h)
 * keeps its tables' totals. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include <math.h>

#include "profreport/contract.h"
#include "profreport/jtext.h"
#include "profreport/merge.h"
#include "profreport/pipeline.h"
#include "profreport/rank_form.h"
#include "profreport/saved.h"
#include "profreport/schema.h"
#include "profreport/summary.h"

#define RANKS 5

struct fx {
    char dir[64];
    char path[RANKS][96];
    const char *paths[RANKS];
};

/* Rank r of a job: the example rank's summary renamed, its step times
 * and operator times scaled by a factor whose products have no short
 * decimal form (a 15-digit round trip would move them). */
static void
make_rank(const cJSON *base, int r, const char *path)
{
    cJSON *s = cJSON_Duplicate(base, 1), *run, *el;
    double f = 1.0 + r / 7.0;
    char name[32], *text;
    FILE *fp;

    assert_non_null(s);
    snprintf(name, sizeof(name), "rank%d", r);
    run = cJSON_GetArrayItem(cJSON_GetObjectItem(s, "runs"), 0);
    cJSON_ReplaceItemInObject(run, "worker", cJSON_CreateString(name));
    cJSON_ReplaceItemInObject(run, "rank", cJSON_CreateNumber(r));
    cJSON_ReplaceItemInObject(run, "world_size", cJSON_CreateNumber(RANKS));
    cJSON_ArrayForEach(el, cJSON_GetObjectItem(run, "steps"))
        cJSON_SetNumberValue(
            cJSON_GetObjectItem(el, "duration_us"),
            cJSON_GetObjectItem(el, "duration_us")->valuedouble * f);
    cJSON_ArrayForEach(el, cJSON_GetObjectItem(run, "operators")) if (
        cJSON_IsNumber(cJSON_GetObjectItem(el, "device_self_us")))
        cJSON_SetNumberValue(
            cJSON_GetObjectItem(el, "device_self_us"),
            cJSON_GetObjectItem(el, "device_self_us")->valuedouble * f);
    text = cJSON_Print(s);
    assert_non_null(text);
    fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
    cJSON_free(text);
    cJSON_Delete(s);
}

static int
setup(void **state)
{
    static struct fx fx;
    const char *src = getenv("PR_SRCDIR");
    char trace[512];
    const char *in[1] = {trace};
    struct pr_error err = {0};
    cJSON *base = NULL;
    int r;

    snprintf(trace, sizeof(trace),
             "%s/examples/ddp_run/rank0.1714525200123.pt.trace.json.gz",
             src ? src : ".");
    snprintf(fx.dir, sizeof(fx.dir), "/tmp/test_merge.XXXXXX");
    if (mkdtemp(fx.dir) == NULL ||
        pr_pipeline_summary(in, 1, 1, 0, &base, &err) != PR_OK)
        return -1;
    for (r = 0; r < RANKS; r++) {
        snprintf(fx.path[r], sizeof(fx.path[r]), "%s/r%d.json", fx.dir, r);
        fx.paths[r] = fx.path[r];
        make_rank(base, r, fx.path[r]);
    }
    cJSON_Delete(base);
    *state = &fx;
    return 0;
}

static int
teardown(void **state)
{
    struct fx *fx = *state;
    int r;

    for (r = 0; r < RANKS; r++)
        unlink(fx->path[r]);
    rmdir(fx->dir);
    return 0;
}

/* The old merge: every whole tree held, runs joined in order. */
static cJSON *
whole_merge(const struct fx *fx)
{
    struct pr_error err = {0};
    cJSON *job = NULL, *doc, *run;
    int r;

    for (r = 0; r < RANKS; r++) {
        assert_int_equal(pr_saved_load(fx->paths[r], 0, &doc, &err), PR_OK);
        if (job == NULL) {
            job = doc;
            continue;
        }
        while ((run = cJSON_DetachItemFromArray(
                    cJSON_GetObjectItem(doc, "runs"), 0)) != NULL)
            cJSON_AddItemToArray(cJSON_GetObjectItem(job, "runs"), run);
        while ((run = cJSON_DetachItemFromArray(
                    cJSON_GetObjectItem(doc, "inputs"), 0)) != NULL)
            cJSON_AddItemToArray(cJSON_GetObjectItem(job, "inputs"), run);
        cJSON_Delete(doc);
    }
    assert_int_equal(pr_summary_finish(job, &err), PR_OK);
    return job;
}

/* The job views over lite runs are those over the whole runs, and each
 * lite run gives back its whole run, number for number. */
static void
test_lite_views_equal_whole(void **state)
{
    struct fx *fx = *state;
    struct pr_error err = {0};
    struct pr_merge *m = NULL;
    cJSON *lite = NULL, *whole = whole_merge(fx);
    const cJSON *run, *full, *w;
    int i = 0;

    assert_int_equal(pr_merge_load(fx->paths, RANKS, 0, &lite, &m, &err),
                     PR_OK);
    assert_int_equal(pr_summary_finish(lite, &err), PR_OK);
    assert_true(cJSON_IsObject(cJSON_GetObjectItem(whole, "job")));
    assert_true(cJSON_Compare(cJSON_GetObjectItem(lite, "job"),
                              cJSON_GetObjectItem(whole, "job"), 1));
    assert_true(cJSON_IsObject(cJSON_GetObjectItem(whole, "distributed")));
    assert_true(cJSON_Compare(cJSON_GetObjectItem(lite, "distributed"),
                              cJSON_GetObjectItem(whole, "distributed"), 1));
    assert_true(cJSON_Compare(cJSON_GetObjectItem(lite, "inputs"),
                              cJSON_GetObjectItem(whole, "inputs"), 1));
    cJSON_ArrayForEach(run, cJSON_GetObjectItem(lite, "runs"))
    {
        w = cJSON_GetArrayItem(cJSON_GetObjectItem(whole, "runs"), i++);
        assert_null(cJSON_GetObjectItem(run, "operators_by_shape"));
        assert_int_equal(pr_merge_run(m, run, &full, &err), PR_OK);
        assert_non_null(full);
        assert_true(cJSON_Compare(full, w, 1));
    }
    assert_int_equal(i, RANKS);
    /* an item that is no lite run is printed as it is */
    assert_int_equal(pr_merge_run(m, lite, &full, &err), PR_OK);
    assert_null(full);
    cJSON_Delete(lite);
    cJSON_Delete(whole);
    pr_merge_free(m);
}

/* lite holds exactly the members of whole (an object of the schema's
 * `object`) whose rows are flagged LITE: an array or object whose
 * elements' object has LITE rows of its own holds only those, row by
 * row; any other LITE member is whole's (a null number may be left out:
 * absent and null read alike).  *kept, *dropped count the members. */
static void
check_lite(const cJSON *lite, const cJSON *whole, enum pr_schema_object object,
           int *kept, int *dropped)
{
    const cJSON *c, *got, *a, *b;
    const struct pr_schema_row *row;

    cJSON_ArrayForEach(c, lite)
        assert_non_null(cJSON_GetObjectItemCaseSensitive(whole, c->string));
    cJSON_ArrayForEach(c, whole)
    {
        row = pr_schema_find(object, c->string);
        if (row == NULL)
            fail_msg("%s: no row in the schema", c->string);
        got = cJSON_GetObjectItemCaseSensitive(lite, c->string);
        if (!(row->flags & PR_SF_LITE)) {
            if (got != NULL)
                fail_msg("%s: kept, but not LITE", c->string);
            ++*dropped;
            continue;
        }
        if (got == NULL && cJSON_IsNull(c))
            continue;
        if (got == NULL)
            fail_msg("%s: LITE, but not kept", c->string);
        ++*kept;
        if (row->child == PR_SO_NONE ||
            !pr_schema_has_flag(row->child, PR_SF_LITE)) {
            assert_true(cJSON_Compare(got, c, 1));
        } else if (cJSON_IsArray(c)) {
            assert_int_equal(cJSON_GetArraySize(got), cJSON_GetArraySize(c));
            for (a = got->child, b = c->child; b != NULL;
                 a = a->next, b = b->next)
                check_lite(a, b, row->child, kept, dropped);
        } else {
            check_lite(got, c, row->child, kept, dropped);
        }
    }
}

/* A lite run is its whole run's LITE members (schema.def): a LITE key
 * survives the merge (world_size; a step's breakdown_us.communication),
 * one that is not LITE does not (gpu_metrics; the step's other parts). */
static void
test_lite_is_schema_lite(void **state)
{
    struct fx *fx = *state;
    struct pr_error err = {0};
    struct pr_merge *m = NULL;
    cJSON *lite = NULL;
    const cJSON *run, *full, *step;
    int kept = 0, dropped = 0;

    assert_int_equal(pr_merge_load(fx->paths, RANKS, 0, &lite, &m, &err),
                     PR_OK);
    cJSON_ArrayForEach(run, cJSON_GetObjectItem(lite, "runs"))
    {
        assert_int_equal(pr_merge_run(m, run, &full, &err), PR_OK);
        assert_non_null(full);
        check_lite(run, full, PR_SO_RUNS, &kept, &dropped);
        assert_true(cJSON_IsNumber(cJSON_GetObjectItem(run, "world_size")));
        assert_non_null(cJSON_GetObjectItem(full, "gpu_metrics"));
        assert_null(cJSON_GetObjectItem(run, "gpu_metrics"));
        step = cJSON_GetArrayItem(cJSON_GetObjectItem(run, "steps"), 0);
        assert_non_null(cJSON_GetObjectItem(
            cJSON_GetObjectItem(step, "breakdown_us"), "communication"));
        assert_null(cJSON_GetObjectItem(
            cJSON_GetObjectItem(step, "breakdown_us"), "kernel"));
        assert_non_null(cJSON_GetObjectItem(
            cJSON_GetObjectItem(
                cJSON_GetArrayItem(cJSON_GetObjectItem(full, "steps"), 0),
                "breakdown_us"),
            "kernel"));
    }
    assert_true(kept > 0);
    assert_true(dropped > 0);
    cJSON_Delete(lite);
    pr_merge_free(m);
}

/* A report view holds references to the lite runs: expanding it puts
 * whole copies in the view and leaves the summary's lite runs alone. */
static void
test_expand_view(void **state)
{
    struct fx *fx = *state;
    struct pr_error err = {0};
    struct pr_merge *m = NULL;
    cJSON *lite = NULL, *view = cJSON_CreateArray(), *runs;

    assert_int_equal(pr_merge_load(fx->paths, RANKS, 0, &lite, &m, &err),
                     PR_OK);
    runs = cJSON_GetObjectItem(lite, "runs");
    cJSON_AddItemReferenceToArray(view, cJSON_GetArrayItem(runs, 1));
    cJSON_AddItemReferenceToArray(view, cJSON_GetArrayItem(runs, 3));
    assert_int_equal(pr_merge_expand(m, view, &err), PR_OK);
    assert_int_equal(cJSON_GetArraySize(view), 2);
    assert_non_null(
        cJSON_GetObjectItem(cJSON_GetArrayItem(view, 0), "operators_by_shape"));
    assert_string_equal(
        cJSON_GetObjectItem(cJSON_GetArrayItem(view, 1), "worker")->valuestring,
        "rank3");
    assert_null(
        cJSON_GetObjectItem(cJSON_GetArrayItem(runs, 1), "operators_by_shape"));
    cJSON_Delete(view);
    /* every run made whole in place */
    assert_int_equal(pr_merge_expand(m, runs, &err), PR_OK);
    assert_non_null(
        cJSON_GetObjectItem(cJSON_GetArrayItem(runs, 4), "operators_by_shape"));
    cJSON_Delete(lite);
    pr_merge_free(m);
}

/* Each lite run with the one member a table reads made whole: "key",
 * or "key.sub" whose parent it creates (replacing a lite member that is
 * no object); a member the whole run lacks goes; the rest stays lite. */
static void
expand_member(const struct fx *fx, const char *path, const char *parent)
{
    struct pr_error err = {0};
    struct pr_merge *m = NULL;
    cJSON *lite = NULL, *whole = whole_merge(fx), *runs, *run;
    const cJSON *w, *got;
    int i = 0;

    assert_int_equal(pr_merge_load(fx->paths, RANKS, 0, &lite, &m, &err),
                     PR_OK);
    runs = cJSON_GetObjectItem(lite, "runs");
    run = cJSON_GetArrayItem(runs, 2);
    cJSON_DeleteItemFromObject(run, parent);
    cJSON_AddItemToObject(run, parent, cJSON_CreateString("not the run's"));
    assert_int_equal(pr_merge_expand_member(m, runs, path, &err), PR_OK);
    cJSON_ArrayForEach(run, runs)
    {
        w = cJSON_GetArrayItem(cJSON_GetObjectItem(whole, "runs"), i++);
        got = strcmp(path, parent) == 0
                  ? cJSON_GetObjectItem(run, path)
                  : cJSON_GetObjectItem(cJSON_GetObjectItem(run, parent),
                                        strchr(path, '.') + 1);
        assert_non_null(got);
        assert_true(cJSON_Compare(
            got,
            strcmp(path, parent) == 0
                ? cJSON_GetObjectItem(w, path)
                : cJSON_GetObjectItem(cJSON_GetObjectItem(w, parent),
                                      strchr(path, '.') + 1),
            1));
        assert_null(cJSON_GetObjectItem(run, "operators_by_shape"));
        assert_non_null(cJSON_GetObjectItem(run, "step_summary"));
    }
    assert_int_equal(i, RANKS);
    cJSON_Delete(lite);
    cJSON_Delete(whole);
    pr_merge_free(m);
}

static void
test_expand_member(void **state)
{
    const struct fx *fx = *state;
    struct pr_error err = {0};
    struct pr_merge *m = NULL;
    cJSON *lite = NULL, *run;
    const cJSON *full;

    expand_member(fx, "operators", "operators");
    expand_member(fx, "attribution.kernels", "attribution");
    /* a member no whole run has is removed; the runs are done with */
    assert_int_equal(pr_merge_load(fx->paths, RANKS, 0, &lite, &m, &err),
                     PR_OK);
    run = cJSON_GetArrayItem(cJSON_GetObjectItem(lite, "runs"), 0);
    cJSON_AddItemToObject(run, "no_such", cJSON_CreateTrue());
    assert_int_equal(pr_merge_expand_member(
                         m, cJSON_GetObjectItem(lite, "runs"), "no_such", &err),
                     PR_OK);
    assert_null(cJSON_GetObjectItem(run, "no_such"));
    assert_int_equal(pr_merge_run(m, run, &full, &err), PR_OK);
    assert_null(full);
    cJSON_Delete(lite);
    pr_merge_free(m);
}

/* A rank file rewritten between the merge and the writing of its run is
 * named, never written as another run. */
static void
test_changed_file(void **state)
{
    struct fx *fx = *state;
    struct pr_error err = {0};
    struct pr_merge *m = NULL;
    cJSON *lite = NULL, *doc = NULL;
    const cJSON *full;
    char saved[128];

    assert_int_equal(pr_merge_load(fx->paths, RANKS, 0, &lite, &m, &err),
                     PR_OK);
    snprintf(saved, sizeof(saved), "%s.bak", fx->path[2]);
    assert_int_equal(rename(fx->path[2], saved), 0);
    assert_int_equal(pr_saved_load(fx->paths[0], 0, &doc, &err), PR_OK);
    {
        char *text = cJSON_Print(doc);
        FILE *fp = fopen(fx->path[2], "w");
        assert_non_null(fp);
        fputs(text, fp);
        fclose(fp);
        cJSON_free(text);
    }
    cJSON_Delete(doc);
    assert_int_equal(
        pr_merge_run(m,
                     cJSON_GetArrayItem(cJSON_GetObjectItem(lite, "runs"), 2),
                     &full, &err),
        PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "changed while being merged"));
    assert_non_null(strstr(err.msg, fx->path[2]));
    assert_int_equal(rename(saved, fx->path[2]), 0);
    cJSON_Delete(lite);
    pr_merge_free(m);
}

/* One rank given twice: refused, both files named, nothing returned. */
static void
test_duplicate_run(void **state)
{
    struct fx *fx = *state;
    struct pr_error err = {0};
    struct pr_merge *m = NULL;
    cJSON *lite = NULL;
    const char *twice[3] = {fx->paths[0], fx->paths[1], fx->paths[0]};

    assert_int_equal(pr_merge_load(twice, 3, 0, &lite, &m, &err), PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "both hold run 'rank0'"));
    assert_null(lite);
    assert_null(m);
}

/* Numbers as cJSON reads back its own print of them. */
static void
test_jtext_num(void **state)
{
    double v[] = {0.0,
                  -0.0,
                  1.0,
                  -3.0,
                  0.1,
                  1.0 / 3.0,
                  2.0 / 3.0 * 1e7,
                  123456.78901234567,
                  1e300,
                  -1e-300,
                  4294967296.5,
                  2147483647.0,
                  2147483648.0,
                  -2147483649.0,
                  1e15 + 0.3,
                  0.30000000000000004,
                  5e-324,
                  1.7976931348623157e308};
    unsigned long x = 88172645463325252UL;
    size_t i;

    (void)state;
    for (i = 0; i < sizeof(v) / sizeof(v[0]) + 2000; i++) {
        double d, got, want;
        cJSON *n, *back;
        char *text;
        if (i < sizeof(v) / sizeof(v[0])) {
            d = v[i];
        } else { /* xorshift: values with every kind of digit string */
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            d = (double)(x % 100000000) / (double)(1 + x % 9973) *
                (x % 3 == 0   ? 1e-3
                 : x % 3 == 1 ? 1.0
                              : 1e6);
        }
        n = cJSON_CreateNumber(d);
        text = cJSON_PrintUnformatted(n);
        back = cJSON_Parse(text);
        want = back->valuedouble;
        got = pr_jtext_num(d);
        assert_memory_equal(&got, &want, sizeof(got));
        /* the exact text reads back to the same bits */
        {
            struct pr_buf b;
            cJSON *again;
            pr_buf_init(&b, 0);
            assert_true(pr_jtext_put(&b, n));
            again = cJSON_Parse(b.data);
            assert_memory_equal(&again->valuedouble, &d, sizeof(d) - 0 * 1);
            cJSON_Delete(again);
            pr_buf_free(&b);
        }
        cJSON_free(text);
        cJSON_Delete(back);
        cJSON_Delete(n);
    }
    assert_true(isnan(pr_jtext_num(NAN)));
}

/* The sum of a column over a table's rows. */
static double
col_sum(const cJSON *rows, const char *key)
{
    const cJSON *r;
    double t = 0;

    cJSON_ArrayForEach(r, rows)
    {
        const cJSON *v = cJSON_GetObjectItem(r, key);
        if (cJSON_IsNumber(v))
            t += v->valuedouble;
    }
    return t;
}

/* The rank form of the first run of fx's second file, parsed; *doc the
 * file (the caller's to free), *whole its run. */
static cJSON *
rank_form_of(const struct fx *fx, cJSON **doc, const cJSON **whole)
{
    struct pr_error err = {0};
    struct pr_buf b;
    cJSON *form;

    assert_int_equal(pr_saved_load(fx->paths[1], 0, doc, &err), PR_OK);
    *whole = cJSON_GetArrayItem(cJSON_GetObjectItem(*doc, "runs"), 0);
    pr_buf_init(&b, 0);
    assert_true(pr_rank_form_text(*whole, &b));
    form = cJSON_Parse(b.data);
    pr_buf_free(&b);
    assert_non_null(form);
    return form;
}

/* A run's rank form: the larger rows, one "(other)" row with the rest,
 * totals whole, the long members null, and a summary of it still meets
 * the contract. */
static void
test_rank_form(void **state)
{
    struct fx *fx = *state;
    struct pr_error err = {0};
    cJSON *doc = NULL, *form, *run;
    const cJSON *whole, *rows, *r, *other;
    const char *tables[] = {"operators", "operators_by_shape", "kernels"};
    const char *cols[] = {"calls", "device_self_us", "host_self_us",
                          "total_us"};
    size_t t, k, n_rows;

    form = rank_form_of(fx, &doc, &whole);
    assert_true(pr_rank_form_is(form));
    assert_false(pr_rank_form_is(whole));
    for (t = 0; t < 3; t++) {
        rows = cJSON_GetObjectItem(form, tables[t]);
        n_rows = (size_t)cJSON_GetArraySize(rows);
        other = cJSON_GetArrayItem(rows, (int)n_rows - 1);
        assert_true(n_rows > 1);
        /* the example rank has rows below the share in every table */
        assert_string_equal(cJSON_GetObjectItem(other, "name")->valuestring,
                            PR_RANK_FORM_OTHER);
        assert_int_equal(
            cJSON_GetObjectItem(other, "other_rows")->valueint + n_rows - 1,
            cJSON_GetArraySize(cJSON_GetObjectItem(whole, tables[t])));
        for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
            double a = col_sum(rows, cols[k]),
                   w = col_sum(cJSON_GetObjectItem(whole, tables[t]), cols[k]);
            assert_true(fabs(a - w) <= 1e-9 * fabs(w));
        }
        /* every row kept holds at least the share of the sort column */
        cJSON_ArrayForEach(r, rows)
        {
            const char *c = t == 2 ? "total_us" : "device_self_us";
            double v = cJSON_GetObjectItem(r, c)->valuedouble;
            double h = t == 0
                           ? cJSON_GetObjectItem(r, "host_self_us")->valuedouble
                           : 0;
            if (r == other)
                break;
            assert_true(
                v >= 0.01 * col_sum(cJSON_GetObjectItem(whole, tables[t]), c) ||
                h >= 0.01 * col_sum(cJSON_GetObjectItem(whole, tables[t]),
                                    "host_self_us"));
            assert_null(cJSON_GetObjectItem(r, "roofline_mark"));
        }
    }
    assert_true(cJSON_IsNull(cJSON_GetObjectItem(form, "timeline")));
    assert_int_equal(
        cJSON_GetArraySize(cJSON_GetObjectItem(
            cJSON_GetObjectItem(form, "tensor_cores"), "findings")),
        0);
    assert_true(cJSON_Compare(cJSON_GetObjectItem(form, "steps"),
                              cJSON_GetObjectItem(whole, "steps"), 1));
    assert_true(cJSON_Compare(cJSON_GetObjectItem(form, "communication"),
                              cJSON_GetObjectItem(whole, "communication"), 1));
    /* a summary of rank forms is still a summary */
    run = cJSON_DetachItemFromArray(cJSON_GetObjectItem(doc, "runs"), 0);
    cJSON_AddItemToArray(cJSON_GetObjectItem(doc, "runs"), form);
    assert_int_equal(pr_contract_check(doc, &err), PR_OK);
    cJSON_Delete(run);
    cJSON_Delete(doc);
}

/* The keys of row flagged RANK in object's rows, in row's order, or
 * (all) every key of row. */
static void
rank_keys(const cJSON *row, enum pr_schema_object object, int all, char *buf,
          size_t cap)
{
    const cJSON *m;
    size_t len = 0;

    buf[0] = '\0';
    cJSON_ArrayForEach(m, row)
    {
        const struct pr_schema_row *r = pr_schema_find(object, m->string);
        int n;
        if (!all && (r == NULL || !(r->flags & PR_SF_RANK)))
            continue;
        n = snprintf(buf + len, cap - len, "%s,", m->string);
        assert_true(n > 0 && (size_t)n < cap - len);
        len += (size_t)n;
    }
}

/* A rank form keeps what schema.def flags RANK: a run's member that is
 * not RANK is null (the timeline, the layers), one that is keeps its
 * value (steps whole, the operator and kernel tables cut), and a table's
 * kept row holds its whole row's RANK keys, in order. */
static void
test_rank_form_is_schema_rank(void **state)
{
    struct fx *fx = *state;
    cJSON *doc = NULL, *form;
    const cJSON *whole, *c;
    char want[2000], got[2000];
    int kept = 0, nulled = 0, cut = 0;

    form = rank_form_of(fx, &doc, &whole);
    cJSON_ArrayForEach(c, whole)
    {
        const struct pr_schema_row *row = pr_schema_find(PR_SO_RUNS, c->string);
        const cJSON *f = cJSON_GetObjectItem(form, c->string);
        assert_non_null(f);
        if (row == NULL || !(row->flags & PR_SF_RANK)) {
            if (!cJSON_IsNull(f))
                fail_msg("%s: kept, but not RANK", c->string);
            nulled += !cJSON_IsNull(c);
            continue;
        }
        if (cJSON_IsNull(f) && !cJSON_IsNull(c))
            fail_msg("%s: RANK, but null", c->string);
        kept++;
        if (row->child == PR_SO_NONE || !cJSON_IsArray(c) ||
            !pr_schema_has_flag(row->child, PR_SF_RANK))
            continue;
        /* the largest row is kept: its RANK keys, nothing else */
        rank_keys(c->child, row->child, 0, want, sizeof(want));
        rank_keys(f->child, row->child, 1, got, sizeof(got));
        assert_string_equal(got, want);
        cut++;
    }
    assert_true(kept >= 20);
    assert_true(nulled > 0);
    assert_int_equal(cut, 3); /* operators, by shape, kernels */
    cJSON_Delete(form);
    cJSON_Delete(doc);
}

/* The whole runs of fx's files with numbers no short decimal holds, as
 * an analysis would give them before they are printed. */
static cJSON *
unprinted(const struct fx *fx, int r)
{
    struct pr_error err = {0};
    cJSON *doc = NULL, *run, *el;

    assert_int_equal(pr_saved_load(fx->paths[r], 0, &doc, &err), PR_OK);
    run = cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0);
    cJSON_ArrayForEach(el, cJSON_GetObjectItem(run, "kernels"))
        cJSON_SetNumberValue(cJSON_GetObjectItem(el, "total_us"),
                             cJSON_GetObjectItem(el, "total_us")->valuedouble *
                                 (1.0 + 1.0 / 3.0));
    cJSON_SetNumberValue(
        cJSON_GetObjectItem(cJSON_GetObjectItem(run, "step_summary"),
                            "mean_us"),
        cJSON_GetObjectItem(cJSON_GetObjectItem(run, "step_summary"), "mean_us")
                ->valuedouble *
            (1.0 + 1.0 / 3.0));
    return doc;
}

struct loads {
    const struct fx *fx;
    int calls;
};

/* Input r again: its unprinted runs (a trace analysed again). */
static enum pr_status
load_again(void *ctx, size_t r, cJSON **doc, struct pr_error *err)
{
    struct loads *l = ctx;

    (void)err;
    l->calls++;
    *doc = unprinted(l->fx, (int)r);
    return PR_OK;
}

/* text of it with 17 digits: equal texts are equal bits */
static char *
exact(const cJSON *it)
{
    struct pr_buf b;

    pr_buf_init(&b, 0);
    assert_true(pr_jtext_put(&b, it));
    return pr_buf_take(&b, &(size_t){0});
}

/* The store fed whole runs as the analysis makes them gives the job
 * views and rank forms of their saved summaries, bit for bit; the runs
 * marked whole come back (held, or loaded again when the store held
 * none), the others as rank forms. */
static void
store_same_as_saved(const struct fx *fx, size_t hold)
{
    struct pr_error err = {0};
    struct loads l = {fx, 0};
    struct pr_merge *t = pr_merge_new(fx->paths, load_again, &l, hold), *m;
    cJSON *job = NULL, *saved = NULL, *doc;
    char path[RANKS][128];
    const char *paths[RANKS];
    const cJSON *a, *b, *use_a, *use_b;
    char *x, *y;
    int r;

    assert_non_null(t);
    for (r = 0; r < RANKS; r++) {
        doc = unprinted(fx, r);
        if (job == NULL) {
            job = cJSON_Duplicate(doc, 1);
            cJSON_ReplaceItemInObject(job, "runs", cJSON_CreateArray());
        }
        /* its saved summary: the same runs printed */
        snprintf(path[r], sizeof(path[r]), "%s/p%d.json", fx->dir, r);
        paths[r] = path[r];
        x = cJSON_Print(doc);
        {
            FILE *fp = fopen(path[r], "w");
            assert_non_null(fp);
            fputs(x, fp);
            fclose(fp);
        }
        cJSON_free(x);
        assert_int_equal(
            pr_merge_take(t, cJSON_GetObjectItem(doc, "runs"), (size_t)r, &err),
            PR_OK);
        assert_int_equal(cJSON_GetArraySize(cJSON_GetObjectItem(doc, "runs")),
                         0);
        cJSON_Delete(doc);
    }
    assert_int_equal(pr_merge_finish(t, job, &err), PR_OK);
    assert_int_equal(pr_summary_finish(job, &err), PR_OK);
    assert_int_equal(pr_merge_load(paths, RANKS, 0, &saved, &m, &err), PR_OK);
    assert_int_equal(pr_summary_finish(saved, &err), PR_OK);
    x = exact(cJSON_GetObjectItem(job, "job"));
    y = exact(cJSON_GetObjectItem(saved, "job"));
    assert_string_equal(x, y);
    free(x);
    free(y);
    x = exact(cJSON_GetObjectItem(job, "distributed"));
    y = exact(cJSON_GetObjectItem(saved, "distributed"));
    assert_string_equal(x, y);
    free(x);
    free(y);
    /* run 2 whole, the others rank forms, the same from both */
    a = cJSON_GetArrayItem(cJSON_GetObjectItem(job, "runs"), 2);
    b = cJSON_GetArrayItem(cJSON_GetObjectItem(saved, "runs"), 2);
    pr_merge_mark_full(t, a);
    pr_merge_mark_full(m, b);
    assert_int_equal(pr_merge_n_forms(t), RANKS - 1);
    for (r = 0; r < RANKS; r++) {
        a = cJSON_GetArrayItem(cJSON_GetObjectItem(job, "runs"), r);
        b = cJSON_GetArrayItem(cJSON_GetObjectItem(saved, "runs"), r);
        /* what --json writes (a rank form's numbers print alike, though
           those of the trace's run are not yet rounded to their print) */
        assert_int_equal(pr_merge_json_run(t, a, &use_a, &err), PR_OK);
        x = cJSON_PrintUnformatted(use_a);
        assert_int_equal(pr_merge_json_run(m, b, &use_b, &err), PR_OK);
        y = cJSON_PrintUnformatted(use_b);
        if (strcmp(x, y) != 0) {
            size_t at = 0;
            while (x[at] == y[at])
                at++;
            print_message("run %d differs at %zu: ...%.80s\n   vs ...%.80s\n",
                          r, at, x + (at > 40 ? at - 40 : 0),
                          y + (at > 40 ? at - 40 : 0));
        }
        assert_string_equal(x, y);
        assert_int_equal(pr_rank_form_is(use_a), r != 2);
        assert_null(cJSON_GetObjectItem(use_a, "_origin"));
        cJSON_free(x);
        cJSON_free(y);
    }
    assert_int_equal(l.calls, hold > 0 ? 0 : 1);
    /* a job's summary (rank forms) is not merged into a job */
    {
        cJSON *lite = NULL;
        struct pr_merge *m2 = NULL;
        const char *two[2] = {paths[0], paths[1]};
        struct pr_buf fb;
        assert_int_equal(pr_saved_load(paths[1], 0, &doc, &err), PR_OK);
        pr_buf_init(&fb, 0);
        assert_true(pr_rank_form_text(
            cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "runs"), 0), &fb));
        cJSON_ReplaceItemInArray(cJSON_GetObjectItem(doc, "runs"), 0,
                                 cJSON_Parse(fb.data));
        pr_buf_free(&fb);
        x = cJSON_Print(doc);
        {
            FILE *fp = fopen(path[1], "w");
            fputs(x, fp);
            fclose(fp);
        }
        cJSON_free(x);
        cJSON_Delete(doc);
        assert_int_equal(pr_merge_load(two, 2, 0, &lite, &m2, &err),
                         PR_E_FORMAT);
        assert_non_null(strstr(err.msg, "rank form"));
        assert_non_null(strstr(err.msg, paths[1]));
    }
    for (r = 0; r < RANKS; r++)
        unlink(path[r]);
    cJSON_Delete(job);
    cJSON_Delete(saved);
    pr_merge_free(t);
    pr_merge_free(m);
}

static void
test_store_same_as_saved(void **state)
{
    store_same_as_saved(*state, 0);        /* every whole run loaded again */
    store_same_as_saved(*state, 1u << 30); /* every whole run held */
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lite_views_equal_whole),
        cmocka_unit_test(test_lite_is_schema_lite),
        cmocka_unit_test(test_expand_view),
        cmocka_unit_test(test_expand_member),
        cmocka_unit_test(test_changed_file),
        cmocka_unit_test(test_duplicate_run),
        cmocka_unit_test(test_jtext_num),
        cmocka_unit_test(test_rank_form),
        cmocka_unit_test(test_rank_form_is_schema_rank),
        cmocka_unit_test(test_store_same_as_saved),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
