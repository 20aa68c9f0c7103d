#!/bin/sh
# shared_traces.sh - every real trace in ../shared/traces gives a summary
# with the right event count (counts from Python's json module), sensible
# totals (each step's breakdown adds up to its duration), and the files that
# are not profiler traces are refused with exit 2.
. "$PR_SRCDIR/tests/lib.sh"

if ! have_shared; then
    skip "real traces" "no $PR_SHARED/traces (../shared is absent)"
    echo "1..$T_N"
    exit 0
fi
S=$PR_SHARED/traces

# path  expected-events
while read -r f n; do
    out=$T_DIR/out.json
    rm -f "$out"
    if "$PR_BIN" --quiet --input "$S/$f" --json "$out" 2> "$T_DIR/err"; then
        if grep -Eq "\"events\":[[:space:]]*$n," "$out"; then
            ok "$f: $n events"
        else
            not_ok "$f: expected $n events, got $(grep -E '"events"' "$out" | head -1)"
        fi
        if command -v python3 >/dev/null 2>&1; then
            if python3 - "$out" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
bad = []
for run in s["runs"]:
    for st in run["steps"] or []:
        tot = sum(st["breakdown_us"].values())
        if abs(tot - st["duration_us"]) > 1e-3 * max(1.0, st["duration_us"]):
            bad.append((st["name"], tot, st["duration_us"]))
    for k in ("worker", "span", "devices", "steps", "step_summary", "operators",
              "operators_by_shape", "kernels", "gpu_metrics", "tensor_cores",
              "memory", "recommendations"):
        if k not in run:
            bad.append(("missing key", k))
sys.exit(1 if bad else 0)
PY
            then ok "$f: breakdown adds up, keys present"
            else not_ok "$f: breakdown or keys wrong"; fi
        fi
    else
        not_ok "$f: exit $? ($(head -c 200 "$T_DIR/err"))"
    fi
done <<'LIST'
hta/call_stack/backward_thread.json 7
hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz 30
hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz 1408
hta/critical_path/cuda_event_sync/event_sync_trace.json.gz 92
hta/critical_path/cuda_event_sync_multi_stream/event_sync_trace.json.gz 149
hta/critical_path/end_to_end/simple_add/input/trace.json.gz 1348
hta/critical_path/end_to_end/simple_add/output/overlaid_critical_path_trace.json.gz 1732
hta/critical_path/simple_add/benchmark_result_493459_1694039959_trace.json.gz 1348
hta/df_index_resolver/df_index_resolver.json.gz 216092
hta/distributed_info_unavailable/distributed_info_not_found.json.gz 2467
hta/execution_trace/benchmark_simple_add_trace.json.gz 111
hta/mixed_files/rank_non_gpu.json.gz 2467
hta/nccl_parser_config/nccl_data.json.gz 40573
hta/rank_non_gpu/rank_non_gpu.json.gz 2467
hta/rank_unavailable/rank_not_found.json.gz 2467
hta/timeline_analysis/sampled_rank-0.json.gz 4855
hta/trace_diff/control/control.json.gz 109123
hta/trace_diff/test/test.json.gz 105167
hta/trace_file_list/inference_rank_1.json.gz 54
hta/trace_filter/sampled_rank-0.json.gz 4855
hta/trace_filter/sampled_rank-1.json.gz 4720
tb_plugin/resnet50_num_workers_0/worker0.1623143089861.pt.trace.json.gz 75718
tb_plugin/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz 75718
mindspore/ascend_run1/timeline_display_1.json 6359
mindspore/ascend_run2/ascend_timeline_display_1.json 112
msprof/torch_npu_ascend_profiler_output/trace_view.json 3670
LIST

# not profiler traces: refused with exit 2 and a clear message
for f in hta/execution_trace/benchmark_simple_add_et.json.gz \
         mindspore/ascend_run1/timeline_summary_1.json; do
    "$PR_BIN" --quiet --input "$S/$f" --json "$T_DIR/no.json" 2> "$T_DIR/err"
    rc=$?
    if [ $rc -eq 2 ] &&
       grep -q "not a profiler trace\|a PyTorch execution trace" "$T_DIR/err" &&
       [ ! -e "$T_DIR/no.json" ]; then
        ok "$f refused"
    else
        not_ok "$f: exit $rc, $(head -c 200 "$T_DIR/err")"
    fi
done

# a run folder: the plugin's worker and span names, runs sorted
"$PR_BIN" --quiet --input "$S/tb_plugin/resnet50_num_workers_0" --json "$T_DIR/run.json" 2> "$T_DIR/err"
check "run folder: exit 0" [ $? -eq 0 ]
check "run folder: worker0 with span 1623143089861" grep -q '"span":[[:space:]]*"1623143089861"' "$T_DIR/run.json"
check "run folder: two inputs" [ "$(grep -c '"path":' "$T_DIR/run.json")" -eq 2 ]

# byte-identical JSON for the same input
"$PR_BIN" --quiet --input "$S/hta/trace_filter/sampled_rank-0.json.gz" --json "$T_DIR/a.json"
"$PR_BIN" --quiet --input "$S/hta/trace_filter/sampled_rank-0.json.gz" --json "$T_DIR/b.json"
check "same input, byte-identical JSON" cmp -s "$T_DIR/a.json" "$T_DIR/b.json"

# two ranks: a distributed section
"$PR_BIN" --quiet --input "$S/hta/trace_filter" --json "$T_DIR/dist.json" 2> "$T_DIR/err"
check "two ranks: exit 0" [ $? -eq 0 ]
if command -v python3 >/dev/null 2>&1; then
    check "two ranks: distributed section with 2 workers" python3 -c "
import json,sys
d=json.load(open('$T_DIR/dist.json'))['distributed']
sys.exit(0 if d and len(d['workers'])==2 else 1)"
fi

echo "1..$T_N"
