/* test_merge.c - the streaming merge of saved summaries (merge.h): the
 * job views built over lite runs equal those over the whole runs, the
 * whole runs come back exactly, and what cannot be merged is refused. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "profreport/merge.h"
#include "profreport/pipeline.h"
#include "profreport/saved.h"
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
        pr_pipeline_summary(in, 1, 1, &base, &err) != PR_OK)
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
        assert_int_equal(pr_saved_load(fx->paths[r], &doc, &err), PR_OK);
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

    assert_int_equal(pr_merge_load(fx->paths, RANKS, &lite, &m, &err), PR_OK);
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

/* A report view holds references to the lite runs: expanding it puts
 * whole copies in the view and leaves the summary's lite runs alone. */
static void
test_expand_view(void **state)
{
    struct fx *fx = *state;
    struct pr_error err = {0};
    struct pr_merge *m = NULL;
    cJSON *lite = NULL, *view = cJSON_CreateArray(), *runs;

    assert_int_equal(pr_merge_load(fx->paths, RANKS, &lite, &m, &err), PR_OK);
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

    assert_int_equal(pr_merge_load(fx->paths, RANKS, &lite, &m, &err), PR_OK);
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
    assert_int_equal(pr_merge_load(fx->paths, RANKS, &lite, &m, &err), PR_OK);
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

    assert_int_equal(pr_merge_load(fx->paths, RANKS, &lite, &m, &err), PR_OK);
    snprintf(saved, sizeof(saved), "%s.bak", fx->path[2]);
    assert_int_equal(rename(fx->path[2], saved), 0);
    assert_int_equal(pr_saved_load(fx->paths[0], &doc, &err), PR_OK);
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

    assert_int_equal(pr_merge_load(twice, 3, &lite, &m, &err), PR_E_FORMAT);
    assert_non_null(strstr(err.msg, "both hold run 'rank0'"));
    assert_null(lite);
    assert_null(m);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_lite_views_equal_whole),
        cmocka_unit_test(test_expand_view),
        cmocka_unit_test(test_expand_member),
        cmocka_unit_test(test_changed_file),
        cmocka_unit_test(test_duplicate_run),
    };

    return cmocka_run_group_tests(tests, setup, teardown);
}
