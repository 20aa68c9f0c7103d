#!/bin/sh
# typed_objects.sh - issue #34: the distributed and job single objects (a
# run's hccl, npu_memory, op_compile, communication and late_peer;
# distributed and its pipeline; the job and its step_us, slowest, median
# and heatmap; a merge's rank_form note) are typed rows (rows.def),
# written through the one writer in schema.def's row order and read back
# by the loader (pr_rows_read_one), which refuses a damaged value with its
# path (exit 2).  A hand-made NCCL trace, ../shared's torch_npu
# text_level1 (an HCCL table, NPU memory, online compilation, a job whose
# late rank is missing), MindSpore's 4-rank pipeline cluster and CANN 6's
# two ranks (their late peer) give them.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "typed single objects" "no python3"
    if shared_summary cann6 msprof/mindinsight_cann6_PROF; then
    check "CANN 6: runs[].late_peer, keys in schema order" \
        rows "$T_DIR/cann6.json" "runs[].late_peer"
    check "  late_peer's rank as 0.5 is refused" \
        refused "$T_DIR/cann6.json" "runs[].late_peer" rank 0.5
    check "  late_peer's group_us as text is refused" \
        refused "$T_DIR/cann6.json" "runs[].late_peer" group_us '"x"'
else
    skip "CANN 6's late peer" "no ../shared"
fi
echo "1..$T_N"
    exit 0
fi

# rows, refused (FILE PATH KEY [VALUE]): tests/cli/lib/typed.sh
. "$PR_SRCDIR/tests/cli/lib/typed.sh"
# loads FILE: the saved summary, undamaged, loads as a diff's baseline
# (exit 0; 4 for a run without steps, whose step gate has nothing to
# compare: review 22g #1)
loads() {
    "$PR_BIN" diff -q -b "$1" -i "$1" > /dev/null 2>&1
    rc=$?
    [ $rc -eq 0 ] || [ $rc -eq 4 ]
}

# A hand-made NCCL trace without per-link traffic (the whole trace one
# step): its communication row leaves links and link_types out, and loads.
mkdir -p "$T_DIR/nolink"
python3 - "$T_DIR/nolink/w.pt.trace.json" << 'PY'
import json, sys
ev = [{"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_nn",
       "pid": 0, "tid": 7, "ts": 100, "dur": 300,
       "args": {"device": 0, "stream": 7}},
      {"ph": "X", "cat": "kernel",
       "name": "ncclKernel_AllReduce_RING_LL_Sum_float", "pid": 0,
       "tid": 8, "ts": 500, "dur": 200, "args": {"device": 0, "stream": 8}}]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PR_BIN" -q --input "$T_DIR/nolink" --json "$T_DIR/nolink.json" 2> /dev/null
check "an NCCL trace: communication without links or link types" \
    python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['runs'][0]['communication']
assert c['other_us'] == 100 and c['ops'][0]['calls'] == 1, c
assert 'links' not in c and 'link_types' not in c, c
" "$T_DIR/nolink.json"
check "  its keys in schema order" rows "$T_DIR/nolink.json" --subset \
    "runs[].communication"
check "  it loads" loads "$T_DIR/nolink.json"
check "  a note as a number is refused" \
    refused "$T_DIR/nolink.json" "runs[].communication" note 5

if shared_summary npu torch_npu/text_level1; then
    check "torch_npu text_level1: the saved summary loads" loads "$T_DIR/npu.json"
    for p in "runs[].hccl" "runs[].npu_memory" "runs[].op_compile" \
        "distributed"; do
        check "  $p: keys in schema order" rows "$T_DIR/npu.json" "$p"
    done
    # kernel_times is NCCL's/RCCL's only: an NPU run leaves it out
    check "  runs[].communication: keys in schema order" \
        rows "$T_DIR/npu.json" --subset "runs[].communication"
    check "  hccl's rows left out as text are refused" \
        refused "$T_DIR/npu.json" "runs[].hccl" rows_left_out '"x"'
    check "  hccl's ops as an object are refused" \
        refused "$T_DIR/npu.json" "runs[].hccl" ops '{}'
    check "  npu_memory's source as a number is refused" \
        refused "$T_DIR/npu.json" "runs[].npu_memory" source 1
    check "  op_compile's calls as 1.5 are refused" \
        refused "$T_DIR/npu.json" "runs[].op_compile" calls 1.5
    check "  op_compile's total time as null is refused" \
        refused "$T_DIR/npu.json" "runs[].op_compile" total_us null
    check "  communication's overlap as text is refused" \
        refused "$T_DIR/npu.json" "runs[].communication" overlap_us '"x"'
    check "  communication's links as an object are refused" \
        refused "$T_DIR/npu.json" "runs[].communication" links '{}'
    check "  distributed's ranks_present as text is refused" \
        refused "$T_DIR/npu.json" distributed ranks_present '"x"'
    check "  distributed's ranks_complete as a number is refused" \
        refused "$T_DIR/npu.json" distributed ranks_complete 1
    check "  distributed's coverage note as a number is refused" \
        refused "$T_DIR/npu.json" distributed coverage_note 1
    for p in job job.step_us job.slowest job.slowest_by_mean job.median \
        job.heatmap; do
        check "  $p: keys in schema order" rows "$T_DIR/npu.json" "$p"
    done
    check "  the job's coverage note, written once, is distributed's" \
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))
j, n = d['job'], d['distributed']['coverage_note']
assert j['late_rank'] == 5 and j['late_rank_in_report'] is False, j
assert j['coverage_note'] == n and 'the late rank, rank 5, is one of' in n, n
" "$T_DIR/npu.json"
    check "  the job's rank count as text is refused" \
        refused "$T_DIR/npu.json" job ranks '"x"'
    check "  the job's late_rank_in_report as a number is refused" \
        refused "$T_DIR/npu.json" job late_rank_in_report 1
    check "  the job's step_us as an array is refused" \
        refused "$T_DIR/npu.json" job step_us '[]'
    check "  step_us.min_us as text is refused" \
        refused "$T_DIR/npu.json" job.step_us min_us '"x"'
    check "  slowest.run as 1.5 is refused" \
        refused "$T_DIR/npu.json" job.slowest run 1.5
    check "  slowest_by_mean.mean_us as text is refused" \
        refused "$T_DIR/npu.json" job.slowest_by_mean mean_us '"x"'
    check "  median.worker as a number is refused" \
        refused "$T_DIR/npu.json" job.median worker 3
    check "  heatmap.runs_per_row as text is refused" \
        refused "$T_DIR/npu.json" job.heatmap runs_per_row '"x"'
    check "  heatmap.steps as an object is refused" \
        refused "$T_DIR/npu.json" job.heatmap steps '{}'
else
    skip "torch_npu text_level1's single objects" "no ../shared"
fi
if shared_summary pipe mindspore/extra/cluster_4rank_pipeline; then
    # cross_stage_waits is left out where a MindSpore cluster's files name
    # the stages (schema.def): the other keys, all of them, in order
    check "MindSpore 4-rank pipeline: distributed.pipeline, keys in order" \
        rows "$T_DIR/pipe.json" --subset "distributed.pipeline"
    check "  all but cross_stage_waits" python3 -c "
import json, sys
p = json.load(open(sys.argv[1]))['distributed']['pipeline']
assert list(p) == ['method', 'stages', 'slowest_stage', 'finding'], list(p)
" "$T_DIR/pipe.json"
    check "  its slowest stage as 1.5 is refused" \
        refused "$T_DIR/pipe.json" distributed.pipeline slowest_stage 1.5
    check "  its finding as a number is refused" \
        refused "$T_DIR/pipe.json" distributed.pipeline finding 0
    check "  rank_form: keys in schema order" rows "$T_DIR/pipe.json" rank_form
    check "  rank_form's run count as 2.5 is refused" \
        refused "$T_DIR/pipe.json" rank_form rank_form_runs 2.5
    check "  rank_form's full runs as a number are refused" \
        refused "$T_DIR/pipe.json" rank_form full_runs 0
else
    skip "the MindSpore pipeline" "no ../shared"
fi
echo "1..$T_N"
