#!/bin/sh
# source_paths_relative.sh - issue #30 #1: torch_npu's "Call stack" gives
# absolute paths ("/home/<user>/imagenet_script/main.py(354): train"), so
# the report's source tables read "/home/<user>/imagenet_script/main.py:
# 354 (train)" on every row, the stacks repeated the folder in every frame
# and the PDF broke the names ("main.\npy:354").  Kineto's traces give a
# script run from its folder as "resnet50_profiler_api.py:46 (<module>)".
# Now the tables (HTML and PDF) drop the folder all of the user's frames
# share and say it once above them; the summary JSON and the HTML's links
# keep the full paths.  Frames that share no folder (one relative, one
# absolute) are shown as they are, with no such line.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "relative source paths" "no python3"
    echo "1..$T_N"
    exit 0
fi

# mk DIR STACK1 STACK2: a trace_view whose two operators have those stacks
mk() {
    mkdir -p "$1"
    python3 - "$1/trace_view.json" "$2" "$3" << 'PY'
import json, sys
out, s1, s2 = (a.replace('\\r\\n', '\r\n') for a in sys.argv[1:4])
def op(name, ts, stack, conn):
    return {"ph": "X", "name": name, "pid": 100, "tid": 100, "ts": "%.3f" % ts,
            "dur": 20.0, "cat": "cpu_op",
            "args": {"Sequence number": -1, "Fwd thread id": 0,
                     "Call stack": stack}}
def task(name, ts, conn):
    return {"ph": "X", "name": name, "pid": 800, "tid": 3, "ts": "%.3f" % ts,
            "dur": 5.0, "args": {"Model Id": 4294967295,
            "Task Type": "AI_VECTOR_CORE", "Stream Id": 3, "Task Id": conn,
            "Batch Id": 0, "Subtask Id": 4294967295, "connection_id": conn}}
def acl(ts, conn):
    return {"ph": "X", "name": "AscendCL@aclnnAdd", "pid": 10002, "tid": 100,
            "ts": "%.3f" % ts, "dur": 10.0, "args": {"Thread Id": 100,
            "Mode": "ACL_OP", "level": "acl", "id": "aclnnAdd",
            "connection_id": conn}}
ev = [
 {"ph": "M", "name": "process_name", "pid": 100, "tid": 0, "args": {"name": "Python"}},
 {"ph": "M", "name": "process_labels", "pid": 100, "tid": 0, "args": {"labels": "CPU"}},
 {"ph": "M", "name": "process_name", "pid": 800, "tid": 0, "args": {"name": "Ascend Hardware"}},
 {"ph": "M", "name": "thread_name", "pid": 800, "tid": 3, "args": {"name": "Stream 3"}},
 {"ph": "M", "name": "process_labels", "pid": 800, "tid": 0, "args": {"labels": "NPU"}},
 {"ph": "M", "name": "process_name", "pid": 10002, "tid": 0, "args": {"name": "CANN"}},
 {"ph": "M", "name": "thread_name", "pid": 10002, "tid": 100, "args": {"name": "Thread 100"}},
 op("aten::add", 1000, s1, 1), acl(1002, 1), task("aclnnAdd_AddAiCore_Add", 1010, 1),
 op("aten::mul", 1100, s2, 2), acl(1102, 2), task("aclnnMul_MulAiCore_Mul", 1110, 2)]
json.dump(ev, open(out, "w"))
PY
}

mk "$T_DIR/abs" \
    "/home/u/proj/train.py(42): step;\r\n/home/u/proj/train.py(90): main;\r\n" \
    "/home/u/proj/lib/model.py(7): forward;\r\n/home/u/proj/train.py(91): main;\r\n"
mk "$T_DIR/mixed" \
    "train.py(42): step;\r\n" \
    "/home/u/proj/lib/model.py(7): forward;\r\n"
for m in abs mixed; do
    "$PR_BIN" -q --input "$T_DIR/$m/trace_view.json" --json "$T_DIR/$m.json" \
        --html "$T_DIR/$m.html" --pdf "$T_DIR/$m.pdf" 2> "$T_DIR/$m.err"
    check "$m: read" [ $? -eq 0 ]
done

check "abs: the JSON keeps the full paths" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
loc = sorted(s['location'] for s in r['sources'])
assert loc == ['/home/u/proj/lib/model.py:7 (forward)',
               '/home/u/proj/train.py:42 (step)'], loc
st = sorted(s['stack'] for s in r['source_stacks'])
assert st[0] == '/home/u/proj/lib/model.py(7): forward; /home/u/proj/train.py(91): main', st
" "$T_DIR/abs.json"
# the HTML's cells: the text after the <a ...> of the location cell
check "abs: HTML cells relative to /home/u/proj/, said once, links full" \
    python3 -c "
import html, re, sys
s = open(sys.argv[1]).read()
t = html.unescape(re.sub(r'<wbr>', '', s))
assert t.count('Paths below are relative to /home/u/proj/,') == 1, 'no note'
cells = re.findall(r'<td class=\"name\" data-v=\"([^\"]*)\"', t)
assert 'train.py:42 (step)' in cells and 'lib/model.py:7 (forward)' in cells, cells
assert 'lib/model.py(7): forward; train.py(91): main' in t, 'stack'
assert not [c for c in cells if c.startswith('/home/u/proj/')], cells
assert 'href=\"file:///home/u/proj/train.py' in s, 'link'
" "$T_DIR/abs.html"
check "mixed: no shared folder, paths as they are, no note" python3 -c "
import html, re, sys
t = html.unescape(re.sub(r'<wbr>', '', open(sys.argv[1]).read()))
assert 'Paths below are relative' not in t
assert '/home/u/proj/lib/model.py:7 (forward)' in t and 'train.py:42 (step)' in t
" "$T_DIR/mixed.html"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext -layout "$T_DIR/abs.pdf" "$T_DIR/abs.txt"
    check "abs: PDF rows relative, the folder said once" sh -c \
        "grep -q '^ *train.py:42 (step)' '$T_DIR/abs.txt' &&
         grep -q '^ *lib/model.py:7 (forward)' '$T_DIR/abs.txt' &&
         grep -q 'Paths below are relative to /home/u/proj/' '$T_DIR/abs.txt' &&
         ! grep -q '/home/u/proj/train.py' '$T_DIR/abs.txt'"
else
    skip "PDF rows" "no pdftotext"
fi
echo "1..$T_N"
