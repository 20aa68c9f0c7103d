/* test_headers.c - every public header in one translation unit (issue #34):
 * no two headers declare the same type or macro differently, and each
 * brings what it needs.  tests/cli/style.sh fails when a header of
 * include/profreport is missing from the list below. */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "profreport/analysis.h"
#include "profreport/args.h"
#include "profreport/attribution.h"
#include "profreport/blockdim.h"
#include "profreport/buf.h"
#include "profreport/canvas.h"
#include "profreport/chart.h"
#include "profreport/checked.h"
#include "profreport/clock.h"
#include "profreport/cmd.h"
#include "profreport/comm.h"
#include "profreport/contract.h"
#include "profreport/critpath.h"
#include "profreport/cube.h"
#include "profreport/detail.h"
#include "profreport/devices.h"
#include "profreport/diff.h"
#include "profreport/diff_match.h"
#include "profreport/diff_rules.h"
#include "profreport/diff_stats.h"
#include "profreport/discover.h"
#include "profreport/distributed.h"
#include "profreport/dtype.h"
#include "profreport/error.h"
#include "profreport/escape.h"
#include "profreport/evsort.h"
#include "profreport/figures.h"
#include "profreport/flops.h"
#include "profreport/formats.h"
#include "profreport/gpu_util.h"
#include "profreport/hints.h"
#include "profreport/host_cpu.h"
#include "profreport/hostdev.h"
#include "profreport/job.h"
#include "profreport/jobs.h"
#include "profreport/jtext.h"
#include "profreport/kclass.h"
#include "profreport/kernel_calls.h"
#include "profreport/kernels.h"
#include "profreport/keys.h"
#include "profreport/launch.h"
#include "profreport/layers.h"
#include "profreport/memory.h"
#include "profreport/memtl.h"
#include "profreport/merge.h"
#include "profreport/modules.h"
#include "profreport/near.h"
#include "profreport/occupancy.h"
#include "profreport/op_stats.h"
#include "profreport/ops.h"
#include "profreport/parse.h"
#include "profreport/pdf_canvas.h"
#include "profreport/pdf_doc.h"
#include "profreport/peaks.h"
#include "profreport/phases.h"
#include "profreport/pipeline.h"
#include "profreport/pmu.h"
#include "profreport/producer.h"
#include "profreport/progress.h"
#include "profreport/pylaunch.h"
#include "profreport/ranges.h"
#include "profreport/rank_form.h"
#include "profreport/reader.h"
#include "profreport/recommend.h"
#include "profreport/record.h"
#include "profreport/render.h"
#include "profreport/roofline.h"
#include "profreport/rows.h"
#include "profreport/saved.h"
#include "profreport/schema.h"
#include "profreport/sget.h"
#include "profreport/shapes.h"
#include "profreport/shorten.h"
#include "profreport/sink.h"
#include "profreport/sources.h"
#include "profreport/stages.h"
#include "profreport/steps.h"
#include "profreport/strtab.h"
#include "profreport/summary.h"
#include "profreport/svg.h"
#include "profreport/syncs.h"
#include "profreport/table.h"
#include "profreport/task.h"
#include "profreport/tensorcore.h"
#include "profreport/timeline.h"
#include "profreport/tlview.h"
#include "profreport/tmpl.h"
#include "profreport/trace.h"
#include "profreport/tree.h"
#include "profreport/trend.h"
#include "profreport/whatif.h"

/* The two types that once clashed keep their own names. */
static void
test_types_apart(void **state)
{
    enum pr_axis_unit axis = PR_UNIT_US;
    enum pr_unit engine = PR_UNIT_MATRIX;
    struct pr_record_device rd = {0};
    struct pr_rec_device ad = {0};

    (void)state;
    assert_int_not_equal((int)axis, 0);
    assert_int_not_equal((int)engine, 0);
    assert_true(sizeof rd > 0 && sizeof ad > 0);
}

int
main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_types_apart),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
