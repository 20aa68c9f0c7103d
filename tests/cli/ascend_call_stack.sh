#!/bin/sh
# ascend_call_stack.sh - issue #30 #1: torch_npu (with_stack=True) writes
# each operator's Python stack in trace_view.json as Kineto's "Call stack"
# arg (frames "file.py(line): func", each ended by ";\r\n"); the report
# reads it as it reads Kineto's and the db's PYTORCH_CALLCHAINS: the
# operator's source line is the frame's line (the call site), the source
# view's origin is "call_stack".  Before, the Ascend reader dropped the arg:
# a run without python_function events had no source lines at all, and
# one with them (text_level1) showed other lines than its db export.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "ascend call stack" "no python3"
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
{"ph": "X", "name": "aten::add", "pid": 100, "tid": 100, "ts": "1000.000", "dur": 20.0, "cat": "cpu_op", "args": {"Sequence number": -1, "Fwd thread id": 0, "Call stack": "/home/u/train.py(42): step;\r\n/home/u/train.py(90): main;\r\n"}},
{"ph": "X", "name": "aten::mul", "pid": 100, "tid": 100, "ts": "1030.000", "dur": 20.0, "cat": "cpu_op", "args": {"Sequence number": -1, "Fwd thread id": 0}},
{"ph": "X", "name": "AscendCL@aclnnAdd", "pid": 10002, "tid": 100, "ts": "1002.000", "dur": 10.0, "args": {"Thread Id": 100, "Mode": "ACL_OP", "level": "acl", "id": "aclnnAdd", "connection_id": 1}},
{"ph": "X", "name": "aclnnAdd_AddAiCore_Add", "pid": 800, "tid": 3, "ts": "1010.000", "dur": 5.0, "args": {"Model Id": 4294967295, "Task Type": "AI_VECTOR_CORE", "Stream Id": 3, "Task Id": 1, "Batch Id": 0, "Subtask Id": 4294967295, "connection_id": 1}}
]
EOF
"$PR_BIN" -q --input "$D/trace_view.json" --json "$T_DIR/tv.json" \
    --html "$T_DIR/tv.html" 2> "$T_DIR/tv.err"
check "a trace_view with a Call stack arg is read" [ $? -eq 0 ]
check "the operator's source line is its Call stack's first frame" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
v = r['source_view']
assert v['origin'] == 'call_stack', v
assert v['operators_with_stack'] == 1, v
s = r['sources'][0]
assert (s['file'], s['line'], s['function'], s['calls']) == \
    ('/home/u/train.py', 42, 'step', 1), s
assert r['source_stacks'][0]['stack'].startswith(
    '/home/u/train.py(42): step; /home/u/train.py(90): main'), r['source_stacks']
" "$T_DIR/tv.json"
check "the HTML does not ask for with_stack=True" \
    sh -c "! grep -q 'The trace has no stacks' '$T_DIR/tv.html'"

# ---- the text and db exports of one run (text_level1, db_level1) agree
if have_shared && shared_summary npu_text1 torch_npu/text_level1; then
    check "text_level1: source lines from Call stack, main.py:354 (train) first" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['source_view']['origin'] == 'call_stack', r['source_view']
s = r['sources'][0]
assert s['file'].endswith('imagenet_script/main.py') and s['line'] == 354, s
" "$T_DIR/npu_text1.json"
else
    skip "text_level1 source lines" "no $PR_SHARED/traces"
fi
echo "1..$T_N"
