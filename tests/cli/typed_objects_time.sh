#!/bin/sh
# typed_objects_time.sh - issue #34: the time family's single objects of a
# run (step_summary, data_quality, timeline, synchronization, copies,
# launches, host_coverage, host_cpu, step_phases, step_trace,
# data_pipeline and the objects below them) are typed rows (rows.def), written
# through the one writer in schema.def's row order, and the loader reads
# them back whole: a saved summary whose object holds a damaged value (a
# key the contract does not require, so only the typed reader sees it) is
# refused with its path, exit 2.  A hand-made Kineto step pair (a GEMM
# launched by aten::mm, a pageable HtoD copy, a memset and a device
# synchronize in each of two 1.9 ms ProfilerSteps; the first kernel starts
# 100 us into its step) gives the step summary, data quality, timeline,
# synchronization, copies, launches and host coverage; shared samples
# (skipped without ../shared) the graph wrapper, host CPU and the
# producer's step table and step trace split, and MindSpore's data
# pipeline.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "typed single objects" "no python3"
    echo "1..$T_N"
    exit 0
fi
# rows, refused and two_steps (the hand-made summary $T_DIR/one.json)
. "$PR_SRCDIR/tests/cli/lib/typed.sh"
two_steps

check "  step_summary, every key in schema order" \
    rows "$T_DIR/one.json" "runs[].step_summary"
# the first kernel waits 70 us after its launch on an idle device: no
# backlog (review 30g #2; a busy device's is step_backlog_idle.sh's)
check "  its first step has no backlog (the device was idle in the wait)" \
    python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))['runs'][0]['step_summary']
assert s['first_step_backlog_us'] is None and s['count'] == 2, s
" "$T_DIR/one.json"
check "  a step summary's clipped steps as text are refused" \
    refused "$T_DIR/one.json" "runs[].step_summary" clipped_steps
check "  a step summary's fractional step count is refused" \
    refused "$T_DIR/one.json" "runs[].step_summary" count 1.5
check "  a step summary's basis as a number is refused" \
    refused "$T_DIR/one.json" "runs[].step_summary" basis 3

check "  data_quality, its noted counts in schema order" \
    rows "$T_DIR/one.json" --subset "runs[].data_quality"
check "  a data-quality count as text is refused" \
    refused "$T_DIR/one.json" "runs[].data_quality" unknown_cat
check "  the replay error as text is refused" \
    refused "$T_DIR/one.json" "runs[].data_quality" \
    critical_path_replay_error_pct

check "  timeline, every key in schema order" \
    rows "$T_DIR/one.json" "runs[].timeline"
check "  the timeline's event count as text is refused" \
    refused "$T_DIR/one.json" "runs[].timeline" n_events
check "  the timeline's step as a number is refused" \
    refused "$T_DIR/one.json" "runs[].timeline" step 1

check "  synchronization, every key in schema order" \
    rows "$T_DIR/one.json" "runs[].synchronization"
check "  two device syncs of 200 us each: host_us 400 in the calls" \
    python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))['runs'][0]['synchronization']
c = [r for r in s['calls'] if r['name'] == 'cudaDeviceSynchronize']
assert c and c[0]['host_us'] == 400 and c[0]['count'] == 2, s
" "$T_DIR/one.json"
check "  a sync's host time as text is refused" \
    refused "$T_DIR/one.json" "runs[].synchronization" host_us
check "  the sync method as a number is refused" \
    refused "$T_DIR/one.json" "runs[].synchronization" method 0

check "  copies and their memset, keys in schema order" \
    rows "$T_DIR/one.json" --subset "runs[].copies" "runs[].copies.memset"
check "  two 1 MiB copies, two 4 KiB fills" python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['runs'][0]['copies']
assert c['count'] == 2 and c['bytes'] == 2097152, c
assert c['memset'] == {'count': 2, 'bytes': 8192, 'duration_us': 20}, c
" "$T_DIR/one.json"
check "  the copies' byte count as text is refused" \
    refused "$T_DIR/one.json" "runs[].copies" bytes
check "  the memset's duration as text is refused" \
    refused "$T_DIR/one.json" "runs[].copies.memset" duration_us

check "  launches, their delay and slowest launch, keys in schema order" \
    rows "$T_DIR/one.json" "runs[].launches" \
    "runs[].launches.launch_delay_us" "runs[].launches.slowest_launch"
check "  a launch's delay: the GEMM starts 70 us after its call returns" \
    python3 -c "
import json, sys
l = json.load(open(sys.argv[1]))['runs'][0]['launches']
assert l['kernels_with_launch'] == 2 and l['launch_delay_us']['max'] == 70, l
assert l['slowest_launch']['kernel'] == 'ampere_sgemm_128x64_nn', l
" "$T_DIR/one.json"
check "  the CUDA-graphs flag as a number is refused" \
    refused "$T_DIR/one.json" "runs[].launches" cuda_graphs 1
check "  the median launch delay as text is refused" \
    refused "$T_DIR/one.json" "runs[].launches.launch_delay_us" median
check "  the slowest launch's step share as text is refused" \
    refused "$T_DIR/one.json" "runs[].launches.slowest_launch" step_pct

# HTA's trace_diff test run wraps its compiled graphs in DtoD copies
if shared_summary hta hta/trace_diff/test; then
    check "HTA trace_diff test: copies.graph_wrapper, keys in schema order" \
        rows "$T_DIR/hta.json" "runs[].copies.graph_wrapper"
    check "  its input bytes as text are refused" \
        refused "$T_DIR/hta.json" "runs[].copies.graph_wrapper" input_bytes
else
    skip "the graph wrapper's copies" "no ../shared"
fi
# nvtx_ops and kernel_calls are an Nsight Systems export's, left out here
check "  host_coverage, keys in schema order" \
    rows "$T_DIR/one.json" --subset "runs[].host_coverage"
check "  all but nvtx_ops and kernel_calls" python3 -c "
import json, sys
h = json.load(open(sys.argv[1]))['runs'][0]['host_coverage']
assert list(h) == ['unrecorded_pct', 'unrecorded_us', 'steps',
                   'kept_events_pct', 'note', 'python_pct',
                   'python_frames'], list(h)
" "$T_DIR/one.json"
check "  85% of a step's host time is in no recorded call" python3 -c "
import json, sys
h = json.load(open(sys.argv[1]))['runs'][0]['host_coverage']
assert h['unrecorded_pct'] == 85 and h['steps'] == 2 and h['note'], h
" "$T_DIR/one.json"
check "  the host coverage's step count as text is refused" \
    refused "$T_DIR/one.json" "runs[].host_coverage" steps
check "  its note as a number is refused" \
    refused "$T_DIR/one.json" "runs[].host_coverage" note 1

# MindSpore's fixtures sample the host's CPUs (machine and process)
if shared_summary msfx mindspore/fixtures; then
    check "MindSpore fixtures: host_cpu and its scopes, keys in schema order" \
        rows "$T_DIR/msfx.json" "runs[].host_cpu" "runs[].host_cpu.machine" \
        "runs[].host_cpu.process"
    check "  its sample count as text is refused" \
        refused "$T_DIR/msfx.json" "runs[].host_cpu" samples
    check "  the machine's I/O share as text is refused" \
        refused "$T_DIR/msfx.json" "runs[].host_cpu.machine" io_pct
    check "  the process's busy share as text is refused" \
        refused "$T_DIR/msfx.json" "runs[].host_cpu.process" busy_pct
else
    skip "the host CPU's objects" "no ../shared"
fi
# MindSpore's run 3 gives its step table (step_phases) and its step trace
# split (step_trace)
if shared_summary ms3 mindspore/extra/run_3_profiler; then
    check "MindSpore run 3: step_phases, its mean and step_trace, keys in order" \
        rows "$T_DIR/ms3.json" "runs[].step_phases" \
        "runs[].step_phases.mean" "runs[].step_trace"
    check "  the phases' skipped steps as text are refused" \
        refused "$T_DIR/ms3.json" "runs[].step_phases" mean_skipped_steps
    check "  a phase's mean as text is refused" \
        refused "$T_DIR/ms3.json" "runs[].step_phases.mean" computing_us
    check "  the step trace's tasks flag as a number is refused" \
        refused "$T_DIR/ms3.json" "runs[].step_trace" tasks 1
    check "  its steps in file as text are refused" \
        refused "$T_DIR/ms3.json" "runs[].step_trace" steps_in_file
else
    skip "the step table and step trace objects" "no ../shared"
fi
if shared_summary ms1 mindspore/ascend_run1; then
    check "MindSpore run 1: data_pipeline, keys in order" \
        rows "$T_DIR/ms1.json" "runs[].data_pipeline"
    check "  the feeding queue's usage as text is refused" \
        refused "$T_DIR/ms1.json" "runs[].data_pipeline" \
        feeding_queue_usage_pct
    check "  the leaf operator as a number is refused" \
        refused "$T_DIR/ms1.json" "runs[].data_pipeline" leaf_op 3
    # a missing key is an older summary's (contract.h): one that may be
    # null reads as unknown, named in the diff's notes, not refused
    check "  a data pipeline without its reading reads it as unknown, named" sh -c '
        python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
del s[\"runs\"][0][\"data_pipeline\"][\"reading\"]
json.dump(s, open(sys.argv[2], \"w\"))
" "$2" "$3/old.json" || exit 1
        "$1" diff -b "$3/old.json" -i "$2" > "$3/d.txt" 2> "$3/err"
        [ $? -ne 2 ] && tr "\n" " " < "$3/d.txt" |
            grep -qF "Keys it did not write read as unknown: data_pipeline (reading)."' \
        sh "$PR_BIN" "$T_DIR/ms1.json" "$T_DIR"
else
    skip "the data pipeline object" "no ../shared"
fi
echo "1..$T_N"
