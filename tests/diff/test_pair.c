/* test_pair.c - which current run pairs with which baseline run
 * (src/diff/pair.c): the same rank, else the same worker, else the same
 * position, first untaken in order; checked by hand on small jobs and
 * against the straightforward O(n^2) rule on large random ones. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "../../src/diff/internal.h"
#include "profreport/diff_stats.h"

#define NONE SIZE_MAX

/* A runs array from "rank:worker" words (rank "-" = null, worker "-" =
 * none). */
static cJSON *
runs_of(const char *const *spec, size_t n)
{
    cJSON *arr = cJSON_CreateArray();
    size_t i;

    for (i = 0; i < n; i++) {
        cJSON *r = cJSON_CreateObject();
        char rank[32], worker[32];
        assert_int_equal(sscanf(spec[i], "%31[^:]:%31s", rank, worker), 2);
        if (strcmp(rank, "-") == 0)
            cJSON_AddNullToObject(r, "rank");
        else
            cJSON_AddNumberToObject(r, "rank", (double)atoi(rank));
        if (strcmp(worker, "-") != 0)
            cJSON_AddStringToObject(r, "worker", worker);
        cJSON_AddItemToArray(arr, r);
    }
    return arr;
}

/* A summary whose runs are `runs` (borrowed: delete it first). */
static cJSON *
summary_of(cJSON *runs)
{
    cJSON *s = cJSON_CreateObject();

    assert_non_null(s);
    assert_true(cJSON_AddItemReferenceToObject(s, "runs", runs));
    return s;
}

/* Pair base against cur (runs arrays) as summaries. */
static enum pr_status
pair(cJSON *rb, cJSON *rc, struct pr_dpairs *p, struct pr_error *err)
{
    cJSON *sb = summary_of(rb), *sc = summary_of(rc);
    enum pr_status st = pr_dpair_runs(sb, sc, p, err);

    cJSON_Delete(sb);
    cJSON_Delete(sc);
    return st;
}

static void
expect_pairs(const char *const *b, size_t nb, const char *const *c, size_t nc,
             const size_t *want)
{
    cJSON *rb = runs_of(b, nb), *rc = runs_of(c, nc);
    struct pr_dpairs p;
    struct pr_error err;
    size_t i;

    pr_error_clear(&err);
    assert_int_equal(pair(rb, rc, &p, &err), PR_OK);
    assert_int_equal(p.nb, nb);
    for (i = 0; i < nb; i++)
        if (p.with[i] != want[i])
            fail_msg("baseline run %zu paired with %zu, want %zu", i, p.with[i],
                     want[i]);
    pr_dpairs_free(&p);
    cJSON_Delete(rb);
    cJSON_Delete(rc);
}

static void
test_by_rank_worker_position(void **state)
{
    const char *b1[] = {"0:w0", "1:w1", "2:w2"}, *c1[] = {"2:x", "0:y", "1:z"};
    const size_t w1[] = {1, 2, 0};
    /* no ranks: by worker name, then by position */
    const char *b2[] = {"-:a", "-:b", "-:q"}, *c2[] = {"-:b", "-:a", "-:r"};
    const size_t w2[] = {1, 0, 2};
    /* a repeated rank pairs in order; an unknown rank falls to the name */
    const char *b3[] = {"0:a", "0:b", "7:c"}, *c3[] = {"0:b", "0:a", "3:c"};
    const size_t w3[] = {0, 1, 2};
    /* a name of its own and no run at its position: no pair */
    const char *b4[] = {"-:y", "-:x"}, *c4[] = {"-:y"};
    const size_t w4[] = {0, NONE};

    (void)state;
    expect_pairs(b1, 3, c1, 3, w1);
    expect_pairs(b2, 3, c2, 3, w2);
    expect_pairs(b3, 3, c3, 3, w3);
    expect_pairs(b4, 2, c4, 1, w4);
}

static void
test_single_runs_always_pair(void **state)
{
    const char *b[] = {"0:n1"}, *c[] = {"3:n2"};
    const size_t w[] = {0};
    const char *b2[] = {"0:n1"}, *c2[] = {"3:n2", "4:n3"};
    const size_t w2[] = {0};

    (void)state;
    expect_pairs(b, 1, c, 1, w);
    expect_pairs(b2, 1, c2, 2, w2); /* by position, not by the one-run rule */
}

/* The rule as written before pair.c, O(n^2). */
static size_t
reference(const cJSON *rb, size_t pos, const cJSON *const *c, size_t nc,
          const unsigned char *taken)
{
    const cJSON *rank = cJSON_GetObjectItemCaseSensitive(rb, "rank");
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(rb, "worker");
    size_t i, by_worker = NONE;

    for (i = 0; i < nc; i++) {
        const cJSON *rr = cJSON_GetObjectItemCaseSensitive(c[i], "rank");
        const cJSON *wc = cJSON_GetObjectItemCaseSensitive(c[i], "worker");
        if (!taken[i] && cJSON_IsNumber(rank) && cJSON_IsNumber(rr) &&
            rank->valuedouble == rr->valuedouble)
            return i;
        if (!taken[i] && by_worker == NONE && cJSON_IsString(w) &&
            cJSON_IsString(wc) && strcmp(w->valuestring, wc->valuestring) == 0)
            by_worker = i;
    }
    if (by_worker != NONE)
        return by_worker;
    return pos < nc && !taken[pos] ? pos : NONE;
}

/* jobs: [{"name", "path": the name, "runs": [...]}] from "name:i,j"
 * words. */
static cJSON *
jobs_of(const char *const *spec, size_t n)
{
    cJSON *arr = cJSON_CreateArray();
    size_t k;

    for (k = 0; k < n; k++) {
        char name[32], runs[64], *tok, *save = NULL;
        cJSON *j = cJSON_CreateObject(), *ra;
        assert_int_equal(sscanf(spec[k], "%31[^:]:%63s", name, runs), 2);
        cJSON_AddStringToObject(j, "name", name);
        cJSON_AddStringToObject(j, "path", name);
        ra = cJSON_AddArrayToObject(j, "runs");
        for (tok = strtok_r(runs, ",", &save); tok != NULL;
             tok = strtok_r(NULL, ",", &save))
            cJSON_AddItemToArray(ra, cJSON_CreateNumber(strtod(tok, NULL)));
        cJSON_AddItemToArray(arr, j);
    }
    return arr;
}

/* Two summaries of two jobs each (issue #15): a rank pairs within the job
 * of the same name, never with the same rank of another job; with one
 * side of one job, jobs play no part. */
static void
test_within_jobs(void **state)
{
    const char *b[] = {"0:a0", "1:a1", "0:b0", "1:b1"};
    const char *c[] = {"0:b0", "1:b1", "0:c0", "1:a1"};
    const char *jb[] = {"A:0,1", "B:2,3"}, *jc[] = {"B:0,1", "A:2,3"};
    cJSON *rb = runs_of(b, 4), *rc = runs_of(c, 4);
    cJSON *sb = summary_of(rb), *sc = summary_of(rc);
    cJSON *jobs_b = jobs_of(jb, 2), *jobs_c = jobs_of(jc, 2);
    struct pr_dpairs p;
    struct pr_error err;

    (void)state;
    pr_error_clear(&err);
    cJSON_AddItemToObject(sb, "jobs", jobs_b);
    cJSON_AddItemToObject(sc, "jobs", jobs_c);
    assert_int_equal(pr_dpair_runs(sb, sc, &p, &err), PR_OK);
    assert_int_equal(p.with[0], 2); /* A rank 0 -> A's rank 0 (c0) */
    assert_int_equal(p.with[1], 3);
    assert_int_equal(p.with[2], 0); /* B rank 0 -> B's rank 0 */
    assert_int_equal(p.with[3], 1);
    pr_dpairs_free(&p);
    cJSON_DeleteItemFromObject(sc, "jobs");
    assert_int_equal(pr_dpair_runs(sb, sc, &p, &err), PR_OK);
    assert_int_equal(p.with[0], 0); /* one job: rank 0 is the first rank 0 */
    pr_dpairs_free(&p);
    cJSON_Delete(sb);
    cJSON_Delete(sc);
    cJSON_Delete(rb);
    cJSON_Delete(rc);
}

static void
test_random_against_reference(void **state)
{
    enum { N = 600 };
    static char words[2][N][32];
    const char *b[N], *c[N];
    unsigned char taken[N];
    uint64_t s = 3;
    int round;

    (void)state;
    for (round = 0; round < 20; round++) {
        size_t nb = 2 + pr_stats_rand(&s) % (N - 2), i, j, k;
        size_t nc = 2 + pr_stats_rand(&s) % (N - 2);
        size_t spread = 1 + pr_stats_rand(&s) % 50;
        cJSON *rb, *rc;
        const cJSON *cb[N], *cc[N];
        struct pr_dpairs p;
        struct pr_error err;

        for (k = 0; k < 2; k++)
            for (i = 0; i < (k ? nc : nb); i++) {
                uint64_t x = pr_stats_rand(&s);
                char rank[16] = "-", worker[16] = "-";
                if (x % 3 != 0)
                    snprintf(rank, sizeof(rank), "%u",
                             (unsigned)((x >> 8) % spread));
                if (x % 5 != 0)
                    snprintf(worker, sizeof(worker), "w%u",
                             (unsigned)((x >> 20) % spread));
                snprintf(words[k][i], 32, "%s:%s", rank, worker);
                (k ? c : b)[i] = words[k][i];
            }
        rb = runs_of(b, nb);
        rc = runs_of(c, nc);
        for (i = 0; i < nb; i++)
            cb[i] = cJSON_GetArrayItem(rb, (int)i);
        for (i = 0; i < nc; i++)
            cc[i] = cJSON_GetArrayItem(rc, (int)i);
        pr_error_clear(&err);
        assert_int_equal(pair(rb, rc, &p, &err), PR_OK);
        memset(taken, 0, sizeof(taken));
        for (i = 0; i < nb; i++) {
            j = reference(cb[i], i, cc, nc, taken);
            if (p.with[i] != j)
                fail_msg("round %d: run %zu (%s) paired with %zu, want %zu",
                         round, i, b[i], p.with[i], j);
            if (j != NONE)
                taken[j] = 1;
        }
        for (i = 0; i < nc; i++)
            assert_int_equal(p.taken_c[i], taken[i]);
        pr_dpairs_free(&p);
        cJSON_Delete(rb);
        cJSON_Delete(rc);
    }
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_by_rank_worker_position),
        cmocka_unit_test(test_single_runs_always_pair),
        cmocka_unit_test(test_within_jobs),
        cmocka_unit_test(test_random_against_reference),
    };

    return cmocka_run_group_tests(tests, NULL, NULL);
}
