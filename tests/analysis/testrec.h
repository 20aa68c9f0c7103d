/* testrec.h - the recommendations' rules on hand-made C tables: struct
 * pr_rec_facts as analysis.c hands it to pr_recommend_fill (the facts
 * known, the rows of the passes, hostdev.c's figures), for the rules
 * pinned in test_hostdev.c and test_roofline.c.  Every figure starts
 * unknown (NaN, no rows), as the passes leave what a trace does not give;
 * a test sets what its rule reads.  The rows are the test's own arrays:
 * pr_rec_facts_free is never called on them. */
#ifndef TESTREC_H
#define TESTREC_H

#include <math.h>
#include <string.h>

#include "profreport/kclass.h"
#include "profreport/recommend.h"

/* A kernels row as kernels.c writes one with only a name, a total, an
 * occupancy and blocks per SM (the rest unknown). */
#define TREC_KERNEL(n, total, occ, bps)                                        \
    {                                                                          \
        .name = (n), .family = NULL, .calls = NAN, .mean_us = NAN,             \
        .total_us = (total), .occupancy_pct = (occ), .blocks_per_sm = (bps),   \
        .tc_used = 0                                                           \
    }

/* facts with nothing known but that they are (analysis.c's rec_facts
 * sets known on every traced run). */
static inline void
trec_facts(struct pr_rec_facts *f)
{
    struct pr_rec_tables *tb = &f->tables;
    struct pr_hostdev_out *hd = &tb->hostdev;
    int c;

    memset(f, 0, sizeof(*f));
    f->known = 1;
    f->dataloader_share = f->comm_share = NAN;
    f->cc_major = -1;
    f->tc_ratio = f->eligible_ratio = f->by_name_ratio = NAN;
    tb->step_mean_us = tb->steps_span_us = NAN;
    for (c = 0; c < PR_CAT_COUNT; c++)
        tb->step_cat_us[c] = NAN;
    tb->main_device = -1;
    tb->tc_pct = tb->eligible_pct = NAN;
    hd->sync_idle_us = hd->host_wait_pct = hd->delay_median_us = NAN;
    hd->idle_host_share = hd->idle_other_share = hd->idle_sync_share = NAN;
    hd->copy_busy_pct = hd->queue_mean = hd->queue_max = NAN;
    hd->slow_launch_us = hd->slow_launch_step_pct = NAN;
    hd->slow_launch_delay_us = NAN;
}

/* A device row with only an id and a kind ("npu", or NULL: a GPU). */
static inline struct pr_rec_device
trec_device(double id, int npu)
{
    struct pr_rec_device d = {id, npu, -1, NAN, NAN, NAN, NAN, NULL};

    return d;
}

/* A gpu_metrics row; kernel_us NaN where the test gives none. */
static inline struct pr_rec_gpu
trec_gpu(double device, double util_pct, double kernel_us)
{
    struct pr_rec_gpu g = {device, util_pct, kernel_us};

    return g;
}

/* What pr_rec_tables_fill derives from the rows: the kernels' families
 * as kernels.c names them (the compiled-in table), the busiest device
 * (pr_gpu_rows_busiest: most kernel time, ties the lowest id) and the
 * operators' total self time. */
static inline void
trec_derive(struct pr_rec_facts *f)
{
    struct pr_rec_tables *tb = &f->tables;
    struct pr_error err = {PR_OK, ""};
    struct pr_kclass_table *kt = pr_kclass_table_builtin(&err);
    struct pr_kclass k;
    double best = -1.0;
    size_t i;

    assert_non_null(kt);
    for (i = 0; i < tb->n_kernels; i++) {
        if (tb->kernels[i].family != NULL || tb->kernels[i].name == NULL)
            continue;
        pr_kclass_lookup(kt, tb->kernels[i].name, &k);
        tb->kernels[i].family = pr_kclass_family_name(k.family);
        tb->kernels[i].tc_used |= pr_kclass_is_matrix(k.math);
    }
    pr_kclass_table_free(kt);
    for (i = 0; tb->main_device < 0 && i < tb->n_gpus; i++) {
        double kt_us = tb->gpus[i].kernel_us;
        if (isfinite(kt_us) && kt_us > best) {
            best = kt_us;
            tb->main_device = (int)tb->gpus[i].device;
        }
    }
    tb->ops_self_us = 0;
    for (i = 0; i < tb->n_ops; i++)
        tb->ops_self_us += tb->ops[i].dev_self_us;
}

/* Run the rules on f (derived first) for *run, a new object holding
 * run_json's members ("{}" for none: what the rules read of the written
 * run, such as launches.slowest_launch's step); the text of
 * recommendation id, or NULL when its rule did not fire.  The caller
 * deletes *run. */
static inline const char *
trec_text(struct pr_rec_facts *f, cJSON **run, const char *run_json,
          const char *id)
{
    struct pr_error err = {PR_OK, ""};
    const cJSON *r;

    *run = cJSON_Parse(run_json);
    assert_non_null(*run);
    trec_derive(f);
    assert_int_equal(pr_recommend_fill(f, *run, &err), PR_OK);
    cJSON_ArrayForEach(
        r, cJSON_GetObjectItemCaseSensitive(*run, "recommendations"))
    {
        if (strcmp(
                cJSON_GetStringValue(cJSON_GetObjectItemCaseSensitive(r, "id")),
                id) == 0)
            return cJSON_GetStringValue(
                cJSON_GetObjectItemCaseSensitive(r, "text"));
    }
    return NULL;
}

#endif
