#!/bin/sh
# op_summary_path.sh - an msprof export of op_summary alone (no timeline,
# no host record: CANN 8's mindstudio_profiler_output with op_summary and
# task_time) has no host work on its critical path (hunt30 #8).  The
# reader draws each task's operator and a zero-length launch at the
# task's start (the MindSpore builder's drawn launches, trace.h
# drawn_launches); the path chained those as host calls, so the gaps
# between launches, two of three kernels and the Task Wait between them
# among them, read "host work 68%".  A wait between two tasks of a stream
# with no host record is idle with no recorded cause; tasks stay kernels.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "op_summary path" "no python3"
    echo "1..$T_N"
    exit 0
fi
# three MIX_AIC tasks on one stream, 87.1, 86.8 and 86.8 ms, 6.96 and
# 6.56 ms of Task Wait between them (the columns CANN 8 writes, trimmed)
D="$T_DIR/PROF_000001_1/mindstudio_profiler_output"
mkdir -p "$D"
cat > "$D/op_summary_20260605161737.csv" << 'CSV'
Device_id,Model ID,Task ID,Stream ID,Op Name,OP Type,OP State,Task Type,Task Start Time(us),Task Duration(us),Task Wait Time(us),Block Dim,Mix Block Dim
0,4294967295,0,1756,main_kernel,main_kernel,dynamic,MIX_AIC,1780676244313289.000	,87139.380,0,256,512
0,4294967295,1,1756,main_kernel,main_kernel,dynamic,MIX_AIC,1780676244407387.120	,86808.420,6958.620000,256,512
0,4294967295,2,1756,main_kernel,main_kernel,dynamic,MIX_AIC,1780676244500755.880	,86846.720,6560.580000,256,512
CSV
"$PR_BIN" -q --input "$T_DIR/PROF_000001_1" --json "$T_DIR/o.json" \
    2> "$T_DIR/o.err"
check "an op_summary-only export is read" [ $? -eq 0 ]
check "its path: the three kernels and the 13.5 ms of Task Wait as idle; no host work" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
k = r['critical_path']['by_kind_us']
assert k['host_op'] == 0 and k['launch'] == 0, k
assert abs(k['kernel'] - 260794.52) < 0.01, k
assert abs(k['idle'] - 13519.2) < 0.5, k  # the gaps from µs-rounded ends
assert r['critical_path']['bound'] == 'device', r['critical_path']['bound']
" "$T_DIR/o.json"
"$PR_BIN" --input "$T_DIR/PROF_000001_1" > "$T_DIR/o.term" 2> /dev/null
check "the verdict names no host work" \
    sh -c "grep -q 'compute tasks 95%' '$T_DIR/o.term' && ! grep -q 'host work' '$T_DIR/o.term'"

if shared_report ops msprof/extra/msinsight_op_summary; then
    check "msinsight_op_summary (an extract): still no path, no host share" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
cp = r['critical_path']
assert cp['no_path_reason'] == 'task_list_extract', cp['no_path_reason']
" "$T_DIR/ops.json"
fi
echo "1..$T_N"
