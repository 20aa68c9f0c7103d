#!/bin/sh
# ascend_copy_tasks.sh - review 28a #10: torch_npu's trace_view.json gives
# an RTS copy task (MEMCPY_ASYNC) Task Type "Other"; its name says it is a
# copy, so it is counted as one (copies.count, the step's Memcpy), not as
# a kernel.  Before, npu_trace_view said "No memory copies in this run."
# under 6 blocking aclrtMemcpy calls, and its 2 MEMCPY_ASYNC tasks
# (2.19 us) sat in the Kernels table.  A compute task of Task Type
# "Other" stays a kernel.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "ascend copy tasks" "no python3"
    echo "1..$T_N"
    exit 0
fi
D=$T_DIR/tv
mkdir -p "$D"
cat > "$D/trace_view.json" << 'EOF'
[
{"ph": "M", "name": "process_name", "pid": 100, "tid": 0, "args": {"name": "Python"}},
{"ph": "M", "name": "process_labels", "pid": 100, "tid": 0, "args": {"labels": "CPU"}},
{"ph": "M", "name": "process_name", "pid": 800, "tid": 0, "args": {"name": "Ascend Hardware"}},
{"ph": "M", "name": "thread_name", "pid": 800, "tid": 3, "args": {"name": "Stream 3"}},
{"ph": "M", "name": "process_labels", "pid": 800, "tid": 0, "args": {"labels": "NPU"}},
{"ph": "M", "name": "process_name", "pid": 10002, "tid": 0, "args": {"name": "CANN"}},
{"ph": "M", "name": "thread_name", "pid": 10002, "tid": 100, "args": {"name": "Thread 100"}},
{"ph": "X", "name": "aten::add", "pid": 100, "tid": 100, "ts": "1000.000", "dur": 20.0, "cat": "cpu_op", "args": {"Sequence number": -1, "Fwd thread id": 0}},
{"ph": "X", "name": "aten::_local_scalar_dense", "pid": 100, "tid": 100, "ts": "1030.000", "dur": 60.0, "cat": "cpu_op", "args": {"Sequence number": -1, "Fwd thread id": 0}},
{"ph": "X", "name": "AscendCL@aclnnAdd", "pid": 10002, "tid": 100, "ts": "1002.000", "dur": 10.0, "args": {"Thread Id": 100, "Mode": "ACL_OP", "level": "acl", "id": "aclnnAdd", "connection_id": 1}},
{"ph": "X", "name": "AscendCL@aclrtMemcpy", "pid": 10002, "tid": 100, "ts": "1032.000", "dur": 50.0, "args": {"Thread Id": 100, "Mode": "ACL_RTS", "level": "acl", "id": "aclrtMemcpy", "connection_id": 2}},
{"ph": "X", "name": "aclnnAdd_AddAiCore_Add", "pid": 800, "tid": 3, "ts": "1010.000", "dur": 5.0, "args": {"Model Id": 4294967295, "Task Type": "Other", "Stream Id": 3, "Task Id": 1, "Batch Id": 0, "Subtask Id": 4294967295, "connection_id": 1}},
{"ph": "X", "name": "MEMCPY_ASYNC", "pid": 800, "tid": 3, "ts": "1040.000", "dur": 2.0, "args": {"Model Id": 4294967295, "Task Type": "Other", "Stream Id": 3, "Task Id": 2, "Batch Id": 0, "Subtask Id": 4294967295, "connection_id": 2}}
]
EOF
"$PR_BIN" -q --input "$D/trace_view.json" --json "$T_DIR/tv.json" \
    --html "$T_DIR/tv.html" 2> "$T_DIR/tv.err"
check "a trace_view with a MEMCPY_ASYNC task is read" [ $? -eq 0 ]
check "MEMCPY_ASYNC of Task Type Other is a copy, the Add task a kernel" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['copies']['count'] == 1, r['copies']
names = [k['name'] for k in r['kernels']]
assert 'MEMCPY_ASYNC' not in names, names
assert any('Add' in n for n in names), names
" "$T_DIR/tv.json"
check "the HTML no longer says no memory copies" \
    sh -c "! grep -q 'No memory copies in this run' '$T_DIR/tv.html'"

if shared_summary npu_tv msprof/torch_npu_ascend_profiler_output/trace_view.json; then
    check "npu_trace_view: its 2 MEMCPY_ASYNC tasks are copies (2.19 us), not kernels" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
c = r['copies']
assert c['count'] == 2, c
assert abs(c['duration_us'] - 2.19) < 0.01, c
assert 'MEMCPY_ASYNC' not in [k['name'] for k in r['kernels']]
" "$T_DIR/npu_tv.json"
else
    skip "npu_trace_view copies" "no $PR_SHARED/traces"
fi
echo "1..$T_N"
