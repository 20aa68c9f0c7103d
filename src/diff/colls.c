/* colls.c - the collectives of a pair of runs side by side (review24
 * item 3 of the diff's brief): each collective type of either run's
 * communication.ops (nccl:all_reduce, hccl:broadcast ...) with its calls,
 * bytes, mean time per call and, where its calls were sized, algorithm
 * and bus bandwidth, baseline and current, and the change of the time
 * per call, as the kernel and operator tables compare theirs; the calls
 * each figure is over (timed_calls, sized_calls, bw_calls) with them.  Kept in
 * pair["collectives"]; a pair whose runs have no collective has none. */
#include "config.h"

#include <math.h>
#include <string.h>

#include "internal.h"
#include "profreport/sget.h"

#define NOMEM(err) pr_error_set(err, PR_E_NOMEM, "out of memory")

static const cJSON *
op_named(const cJSON *ops, const char *name)
{
    const cJSON *o;

    cJSON_ArrayForEach(o, ops)
    {
        if (pr_sget_is(pr_sget_str(o, PR_K_NAME), name))
            return o;
    }
    return NULL;
}

/* The figures of one side (o NULL: the side lacks the collective): 0 on
 * out-of-memory. */
static int
side(cJSON *row, const cJSON *o, const char *calls, const char *bytes,
     const char *us, const char *algbw, const char *busbw, const char *group,
     const char *timed, const char *sized, const char *sized_bytes,
     const char *bw_calls)
{
    return pr_dj_add_num(row, bw_calls,
                         o ? pr_sget_num(o, PR_K_BW_CALLS) : NAN) &&
           pr_dj_add_num(row, timed,
                         o ? pr_sget_num(o, PR_K_TIMED_CALLS) : NAN) &&
           pr_dj_add_num(row, sized,
                         o ? pr_sget_num(o, PR_K_SIZED_CALLS) : NAN) &&
           pr_dj_add_num(row, sized_bytes,
                         o ? pr_sget_num(o, PR_K_SIZED_BYTES) : NAN) &&
           pr_dj_add_num(row, group,
                         o ? pr_sget_num(o, PR_K_GROUP_SIZE) : NAN) &&
           pr_dj_add_num(row, calls, o ? pr_sget_num(o, PR_K_CALLS) : NAN) &&
           pr_dj_add_num(row, bytes,
                         o ? pr_sget_num(o, PR_K_TOTAL_BYTES) : NAN) &&
           pr_dj_add_num(row, us, o ? pr_sget_num(o, PR_K_MEAN_US) : NAN) &&
           pr_dj_add_num(row, algbw,
                         o ? pr_sget_num(o, PR_K_ALGBW_GBPS) : NAN) &&
           pr_dj_add_num(row, busbw, o ? pr_sget_num(o, PR_K_BUSBW_GBPS) : NAN);
}

/* One row: the collective `name`, ob and oc its rows on each side (one
 * may be NULL). */
static int
coll_row(cJSON *arr, const char *name, const cJSON *ob, const cJSON *oc)
{
    cJSON *row = cJSON_CreateObject();
    double b = pr_sget_num(ob, PR_K_MEAN_US), c = pr_sget_num(oc, PR_K_MEAN_US);
    const char *status = ob == NULL ? "new" : oc == NULL ? "vanished" : "both";

    if (row == NULL || !cJSON_AddItemToArray(arr, row)) {
        cJSON_Delete(row);
        return 0;
    }
    return cJSON_AddStringToObject(row, PR_K_NAME, name) != NULL &&
           cJSON_AddStringToObject(row, "status", status) != NULL &&
           side(row, ob, "calls_baseline", "bytes_baseline", "baseline_us",
                "algbw_baseline_gbps", "busbw_baseline_gbps",
                "group_size_baseline", "timed_calls_baseline",
                "sized_calls_baseline", "sized_bytes_baseline",
                "bw_calls_baseline") &&
           side(row, oc, "calls_current", "bytes_current", "current_us",
                "algbw_current_gbps", "busbw_current_gbps",
                "group_size_current", "timed_calls_current",
                "sized_calls_current", "sized_bytes_current",
                "bw_calls_current") &&
           pr_dj_add_num(row, "delta_us",
                         ob != NULL && oc != NULL ? c - b : NAN) &&
           pr_dj_add_num(
               row, "delta_pct",
               ob != NULL && oc != NULL && b > 0 ? 100.0 * (c / b - 1.0) : NAN);
}

enum pr_status
pr_dcollectives_pair(cJSON *pair, const cJSON *rb, const cJSON *rc,
                     struct pr_error *err)
{
    const cJSON *ob = pr_sget(pr_sget(rb, PR_K_COMMUNICATION), PR_K_OPS);
    const cJSON *oc = pr_sget(pr_sget(rc, PR_K_COMMUNICATION), PR_K_OPS);
    const cJSON *o;
    cJSON *arr;

    if (cJSON_GetArraySize(ob) == 0 && cJSON_GetArraySize(oc) == 0)
        return PR_OK;
    if ((arr = cJSON_AddArrayToObject(pair, "collectives")) == NULL)
        return NOMEM(err);
    cJSON_ArrayForEach(o, ob)
    {
        const char *name = pr_sget_str(o, PR_K_NAME);
        if (name != NULL && !coll_row(arr, name, o, op_named(oc, name)))
            return NOMEM(err);
    }
    cJSON_ArrayForEach(o, oc)
    {
        const char *name = pr_sget_str(o, PR_K_NAME);
        if (name != NULL && op_named(ob, name) == NULL &&
            !coll_row(arr, name, NULL, o))
            return NOMEM(err);
    }
    return PR_OK;
}

/* One collective across the pairs of runs: the largest rise and fall of
 * its time per call and their runs, and its fastest time per call on
 * each side with its run. */
struct skew {
    double up, down; /* delta_pct, the largest of each sign */
    const char *up_run, *down_run;
    double fast[2]; /* least time per call a side */
    const char *fast_run[2];
};

static void
skew_add(struct skew *s, const cJSON *pair, const cJSON *row)
{
    static const char *const us[2] = {"baseline_us", "current_us"};
    static const char *const who[2] = {"baseline", "current"};
    double pct = pr_sget_num(row, "delta_pct");
    int k;

    if (!pr_sget_is(pr_sget_str(row, "status"), "both") ||
        cJSON_IsFalse(pr_sget(row, "comparable")))
        return;
    if (pct > s->up) {
        s->up = pct;
        s->up_run = pr_sget_str(pair, "current");
    }
    if (pct < s->down) {
        s->down = pct;
        s->down_run = pr_sget_str(pair, "current");
    }
    for (k = 0; k < 2; k++) {
        double v = pr_sget_num(row, us[k]);
        if (v > 0 && !(v >= s->fast[k])) {
            s->fast[k] = v;
            s->fast_run[k] = pr_sget_str(pair, who[k]);
        }
    }
}

/* A change per call of this size on one rank and of the other sign on
 * another is the wait moving between ranks (compare.c's comm_runs uses
 * the same 10% for the change lists' peer wait). */
#define SKEW_PCT 10.0

enum pr_status
pr_dcollectives_skew(cJSON *runs, struct pr_error *err)
{
    const cJSON *pair, *row;
    cJSON *pr;

    cJSON_ArrayForEach(pair, runs)
    {
        cJSON_ArrayForEach(row, pr_sget(pair, "collectives"))
        {
            const char *name = pr_sget_str(row, PR_K_NAME);
            struct skew s = {-INFINITY, INFINITY,   NULL,
                             NULL,      {NAN, NAN}, {NULL, NULL}};
            const cJSON *p2, *r2;
            cJSON *o;
            if (name == NULL || pr_sget(row, "rank_skew") != NULL)
                continue;
            cJSON_ArrayForEach(p2, runs)
            {
                cJSON_ArrayForEach(r2, pr_sget(p2, "collectives"))
                {
                    if (pr_sget_is(pr_sget_str(r2, PR_K_NAME), name))
                        skew_add(&s, p2, r2);
                }
            }
            if (!(s.up >= SKEW_PCT && s.down <= -SKEW_PCT) ||
                !(s.fast[0] > 0) || !isfinite(s.fast[1]))
                continue;
            /* the same words on every pair's row of it */
            cJSON_ArrayForEach(pr, runs)
            {
                cJSON *r3;
                cJSON_ArrayForEach(
                    r3, cJSON_GetObjectItemCaseSensitive(pr, "collectives"))
                {
                    if (!pr_sget_is(pr_sget_str(r3, PR_K_NAME), name))
                        continue;
                    o = cJSON_AddObjectToObject(r3, "rank_skew");
                    if (o == NULL || !pr_dj_add_num(o, "up_pct", s.up) ||
                        cJSON_AddStringToObject(
                            o, "up_run", s.up_run ? s.up_run : "?") == NULL ||
                        !pr_dj_add_num(o, "down_pct", s.down) ||
                        cJSON_AddStringToObject(o, "down_run",
                                                s.down_run ? s.down_run
                                                           : "?") == NULL ||
                        !pr_dj_add_num(o, "fastest_baseline_us", s.fast[0]) ||
                        cJSON_AddStringToObject(o, "fastest_baseline_run",
                                                s.fast_run[0] ? s.fast_run[0]
                                                              : "?") == NULL ||
                        !pr_dj_add_num(o, "fastest_current_us", s.fast[1]) ||
                        cJSON_AddStringToObject(o, "fastest_current_run",
                                                s.fast_run[1] ? s.fast_run[1]
                                                              : "?") == NULL ||
                        !pr_dj_add_num(o, "fastest_delta_pct",
                                       100.0 * (s.fast[1] / s.fast[0] - 1.0)))
                        return NOMEM(err);
                }
            }
        }
    }
    return PR_OK;
}
