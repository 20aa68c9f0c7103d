#!/bin/sh
# typed_tables.sh - issue #34: the communication, distributed, step-phase,
# step-trace, timeline, module, temporal-breakdown, diagnostics, tensor-core
# finding, memory-device, GPU-metric, layer and job tables are typed rows
# (rows.def), written through the one writer in schema.def's row order and read back by the
# loader, which refuses a damaged row with its path.  A hand-made NCCL job of two ranks (rank 1 computes 700 us a
# step against rank 0's 300 us and waits 100 us in its all-reduce, rank 0
# 500 us: rank 1 is the straggler) gives communication.per_step/ops and
# distributed.workers/comm_ops/stragglers; ../shared's torch_npu
# text_level1 the links, link types, HCCL ops and the job's link groups;
# MindSpore's 4-rank pipeline cluster the pipeline's stages; text_level1
# and the TensorBoard plugin's resnet50 (its GPU's tensor-core findings and
# memory devices), MindSpore's run 3 (its step trace) and msprof's
# torch_npu output (a skipped-files diagnostic) the rest.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "communication rows" "no python3"
    echo "1..$T_N"
    exit 0
fi
mkdir -p "$T_DIR/job"
python3 - "$T_DIR/job" << 'PY'
import json, sys
d = sys.argv[1]
for rank, comp, comm in ((0, 300, 500), (1, 700, 100)):
    ev = []
    for i in range(2):
        t0 = 1000 + 2000 * i
        ev.append({"ph": "X", "cat": "user_annotation", "name":
                   "ProfilerStep#%d" % (i + 1), "pid": 1, "tid": 1,
                   "ts": t0, "dur": 1900})
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1,
                   "tid": 1, "ts": t0 + 10, "dur": 50})
        ev.append({"ph": "X", "cat": "kernel", "name": "ampere_sgemm_128x64_nn",
                   "pid": 0, "tid": 7, "ts": t0 + 100, "dur": comp,
                   "args": {"device": 0, "stream": 7}})
        ev.append({"ph": "X", "cat": "kernel",
                   "name": "ncclKernel_AllReduce_RING_LL_Sum_float",
                   "pid": 0, "tid": 8, "ts": t0 + 150 + comp, "dur": comm,
                   "args": {"device": 0, "stream": 8}})
    json.dump({"distributedInfo": {"backend": "nccl", "rank": rank,
                                   "world_size": 2},
               "traceEvents": ev},
              open("%s/worker%d.1700000000000.pt.trace.json" % (d, rank), "w"))
PY
"$PR_BIN" -q --input "$T_DIR/job" --json "$T_DIR/job.json"
check "two NCCL ranks: summary written (exit $?)" [ -s "$T_DIR/job.json" ]

# rows FILE PATH...: each table at PATH has rows, keys in schema order;
# refused FILE PATH KEY: the loader refuses FILE with PATH's first row's KEY
# set to a string, naming the row and key
. "$PR_SRCDIR/tests/cli/lib/typed.sh"

for p in "runs[].communication.per_step[]" "runs[].communication.ops[]" \
    "distributed.workers[]" "distributed.comm_ops[]" \
    "distributed.stragglers[]"; do
    check "  $p: rows, keys in schema order" rows "$T_DIR/job.json" "$p"
done
check "  rank 1 is the straggler" python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))['distributed']['stragglers']
assert [r['rank'] for r in s] == [1], s
" "$T_DIR/job.json"
"$PR_BIN" diff -q -b "$T_DIR/job.json" -i "$T_DIR/job.json" > /dev/null 2>&1
rc=$?
check "  the saved summary loads as a diff's baseline (exit $rc)" [ "$rc" -eq 0 ]
check "  a per-step time as text is refused, with its row" \
    refused "$T_DIR/job.json" "runs[].communication.per_step[]" overlap_us
check "  an op's call count as text is refused" \
    refused "$T_DIR/job.json" "runs[].communication.ops[]" calls
check "  a worker's steps as text is refused" \
    refused "$T_DIR/job.json" "distributed.workers[]" steps
check "  a job collective's mean as text is refused" \
    refused "$T_DIR/job.json" "distributed.comm_ops[]" mean_us
check "  a straggler's rank as text is refused" \
    refused "$T_DIR/job.json" "distributed.stragglers[]" rank
for p in "job.per_rank[]" "job.operators[]" "job.kernels[]" \
    "job.heatmap.rows[]"; do
    check "  $p: rows, keys in schema order" rows "$T_DIR/job.json" "$p"
done
# a GPU's occupancy_unknown_launches/_kernel_pct are written only where
# some launch has no occupancy in the trace (review25g #1): every other
# key is there, in schema order
check "  runs[].gpu_metrics[]: rows, keys in schema order" \
    rows "$T_DIR/job.json" --subset "runs[].gpu_metrics[]"
check "  runs[].gpu_metrics[]: only the unknown-occupancy pair left out" \
    python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    for g in r['gpu_metrics']:
        assert len(g) == 8 and 'occupancy_unknown_launches' not in g, g
" "$T_DIR/job.json"
check "  a rank's has_steps as text is refused" \
    refused "$T_DIR/job.json" "job.per_rank[]" has_steps
check "  a job operator's ranks as text are refused" \
    refused "$T_DIR/job.json" "job.operators[]" ranks
check "  a job kernel's max as text is refused" \
    refused "$T_DIR/job.json" "job.kernels[]" max_total_us
check "  a heatmap row's run count as text is refused" \
    refused "$T_DIR/job.json" "job.heatmap.rows[]" runs
check "  a GPU's utilization as text is refused" \
    refused "$T_DIR/job.json" "runs[].gpu_metrics[]" utilization_pct

if shared_summary npu torch_npu/text_level1; then
    for p in "runs[].communication.links[]" \
        "runs[].communication.link_types[]" "runs[].hccl.ops[]" \
        "distributed.link_types[]" "distributed.link_groups[]" \
        "distributed.link_groups[].links[]"; do
        check "torch_npu text_level1: $p, keys in schema order" \
            rows "$T_DIR/npu.json" "$p"
    done
    check "  a link's bytes as text is refused" \
        refused "$T_DIR/npu.json" "runs[].communication.links[]" bytes
    check "  an HCCL op's wait as text is refused" \
        refused "$T_DIR/npu.json" "runs[].hccl.ops[]" wait_us
    check "  a job link's time as text is refused" \
        refused "$T_DIR/npu.json" "distributed.link_groups[].links[]" time_us
    for p in "runs[].step_phases.steps[]" "runs[].modules[]" \
        "runs[].timeline.lanes[]" "runs[].temporal_breakdown[]" \
        "runs[].diagnostics[]" "runs[].memory.devices[]"; do
        check "torch_npu text_level1: $p, keys in schema order" \
            rows "$T_DIR/npu.json" "$p"
    done
    check "  its NPU device rows name their kind" python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))['runs'][0]['devices']
assert d and all(x.get('kind') == 'npu' for x in d), d
" "$T_DIR/npu.json"
    # every key but the four a guess fitted to an export's figures writes
    # (clock_mhz, peak_scale, peak_half_rate, peak_gbps_source: review22g
    # item 5), which an NPU row leaves out
    check "  device rows, keys in schema order" \
        rows "$T_DIR/npu.json" --subset "runs[].devices[]"
    check "  device rows: every key but a fitted guess's" python3 -c "
import json, sys
fit = {'clock_mhz', 'peak_scale', 'peak_half_rate', 'peak_gbps_source'}
for d in json.load(open(sys.argv[1]))['runs'][0]['devices']:
    assert len(d) == 16 and not fit & set(d), sorted(d)
" "$T_DIR/npu.json"
    check "  Ascend HF32 findings: on_cube_pct, no evidence kernel" \
        rows "$T_DIR/npu.json" --subset "runs[].tensor_cores.findings[]"
    check "  a step phase as text is refused" \
        refused "$T_DIR/npu.json" "runs[].step_phases.steps[]" free_us
    check "  a module's calls as text are refused" \
        refused "$T_DIR/npu.json" "runs[].modules[]" calls
    check "  a lane's spans as text are refused" \
        refused "$T_DIR/npu.json" "runs[].timeline.lanes[]" spans
    check "  a device's idle share as text is refused" \
        refused "$T_DIR/npu.json" "runs[].temporal_breakdown[]" idle_pct
    check "  a diagnostic's count as text is refused" \
        refused "$T_DIR/npu.json" "runs[].diagnostics[]" count
    check "  a finding's device time as text is refused" \
        refused "$T_DIR/npu.json" "runs[].tensor_cores.findings[]" device_us
else
    skip "torch_npu text_level1's link and HCCL rows" "no ../shared"
fi
if shared_summary tb tb_plugin/resnet50_num_workers_0; then
    check "TensorBoard resnet50: tensor-core findings name their kernel" \
        rows "$T_DIR/tb.json" --subset "runs[].tensor_cores.findings[]"
    check "  no GPU finding has on_cube_pct, each has evidence_kernel" \
        python3 -c "
import json, sys
f = json.load(open(sys.argv[1]))['runs'][0]['tensor_cores']['findings']
assert f and all('evidence_kernel' in x and 'on_cube_pct' not in x for x in f)
" "$T_DIR/tb.json"
    check "  memory devices, keys in schema order" \
        rows "$T_DIR/tb.json" "runs[].memory.devices[]"
    check "  a device's allocations as text are refused" \
        refused "$T_DIR/tb.json" "runs[].memory.devices[]" allocations
    check "  devices, keys in schema order" \
        rows "$T_DIR/tb.json" --subset "runs[].devices[]"
    check "  a Kineto trace names no device kind: the row leaves it out" \
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))['runs'][0]['devices']
assert d and all('kind' not in x and 'peak_match' in x for x in d), d
" "$T_DIR/tb.json"
    check "  a device's id as text is refused" \
        refused "$T_DIR/tb.json" "runs[].devices[]" id
    check "  layers, keys in schema order (forward_/backward_ columns)" \
        rows "$T_DIR/tb.json" "runs[].layers[]"
    check "  a layer's forward device time as text is refused" \
        refused "$T_DIR/tb.json" "runs[].layers[]" forward_device_us
else
    skip "resnet50's findings and memory devices" "no ../shared"
fi
# shared_table NAME INPUT PATH KEY WHAT: a shared input's table at PATH,
# keys in schema order, and its first row's KEY as text refused
shared_table() {
    if shared_summary "$1" "$2"; then
        check "$5: $3, keys in schema order" rows "$T_DIR/$1.json" "$3"
        check "  its $4 as text is refused" refused "$T_DIR/$1.json" "$3" "$4"
    else
        skip "$5's $3" "no ../shared"
    fi
}
shared_table ms3 mindspore/extra/run_3_profiler "runs[].step_trace.steps[]" \
    tail_us "MindSpore run 3"
# a folder of a trace and a CSV of no known table (the msprof torch_npu
# output's kernel_details tables are read now: review 20 #5)
mkdir -p "$T_DIR/skipdir"
printf 'a,b\n1,2\n' > "$T_DIR/skipdir/notes.csv"
if have_shared &&
    cp "$PR_SHARED/traces/msprof/torch_npu_ascend_profiler_output/trace_view.json" \
        "$T_DIR/skipdir/" &&
    "$PR_BIN" -q -i "$T_DIR/skipdir" --json "$T_DIR/out.json" 2> /dev/null; then
    check "a folder with a skipped file: its skipped-files diagnostic is a row" \
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]), object_pairs_hook=lambda p: p)
runs = dict(d)['runs']
rows = [r for run in runs for r in dict(run)['diagnostics']
        if dict(r)['kind'] == 'skipped_files']
assert rows and all([k for k, _ in r] == ['kind', 'count', 'text']
                    for r in rows), rows
" "$T_DIR/out.json"
else
    skip "the skipped-files diagnostic" "no ../shared"
fi
shared_table pipe mindspore/extra/cluster_4rank_pipeline \
    "distributed.pipeline.stages[]" bubble_us "MindSpore 4-rank pipeline"
shared_table cann6 msprof/mindinsight_cann6_PROF \
    "runs[].late_peer.waits[]" wait_us "CANN 6 late peer's waits"
echo "1..$T_N"
