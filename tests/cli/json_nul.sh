#!/bin/sh
# json_nul.sh - a \u0000 (NUL) inside a JSON string (issue #35): cJSON
# would cut the name there ("aten::mm\u0000x" read as "aten::mm"), and no
# profiler writes one, so every JSON reader refuses the file: exit 2, a
# message naming the file and the byte of the escape, no output.  An
# escaped backslash before "u0000" is no NUL, and is read.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "NUL in JSON names" "python3 is needed to build the inputs"
    echo "1..$T_N"
    exit 0
fi
D=$PR_SRCDIR/tests/data
W=$T_DIR/w
mkdir -p "$W"

# nul SRC OUT OLD NEW: OUT is SRC with OLD replaced by NEW (once); prints
# the byte offset of the first backslash-u0000 in OUT
nul() {
    python3 - "$@" <<'PY'
import sys
src, out, old, new = sys.argv[1:5]
t = open(src, "rb").read()
assert old.encode() in t, old
t = t.replace(old.encode(), new.encode(), 1)
open(out, "wb").write(t)
print(t.find(b"\\u0000"))
PY
}

# refused NAME INPUT OFFSET: the run exits 2 naming the byte, writes nothing
refused() {
    rm -f "$W/o.json"
    "$PR_BIN" -q --input "$2" --json "$W/o.json" 2> "$T_DIR/err"
    rc=$?
    check "$1: exit 2 ($rc)" [ $rc -eq 2 ]
    check "  names byte $3 and the NUL ($(head -c 240 "$T_DIR/err"))" \
        grep -q "byte $3: .*a string holds \\\\u0000 (a NUL character)" \
        "$T_DIR/err"
    check "  no output" [ ! -e "$W/o.json" ]
}

# --- Kineto: an operator's name
K=$T_DIR/k.json
cat > "$K" <<'JSON'
{"traceEvents": [
 {"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1", "pid": 1, "tid": 1, "ts": 100, "dur": 900},
 {"ph": "X", "cat": "cpu_op", "name": "aten::mm", "pid": 1, "tid": 1, "ts": 110, "dur": 50}
]}
JSON
at=$(nul "$K" "$T_DIR/kn.pt.trace.json" '"aten::mm"' '"aten::mm\u0000evil"')
refused "kineto: a name with \\u0000" "$T_DIR/kn.pt.trace.json" "$at"
check "  and the event's number" grep -q "event 1: " "$T_DIR/err"
at=$(nul "$K" "$T_DIR/kk.pt.trace.json" '"cat": "cpu_op"' '"c\u0000t": "cpu_op"')
refused "kineto: a key with \\u0000" "$T_DIR/kk.pt.trace.json" "$at"
# in a folder: a trace, refused, is an error, not a skip
mkdir -p "$T_DIR/kdir"
cp "$T_DIR/kn.pt.trace.json" "$T_DIR/kdir/"
cp "$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz" "$T_DIR/kdir/w0.pt.trace.json.gz"
"$PR_BIN" -q --input "$T_DIR/kdir" --json "$W/o.json" 2> "$T_DIR/err"
rc=$?
check "kineto: in a folder beside a good trace: still exit 2 ($rc)" [ $rc -eq 2 ]
check "  no output" [ ! -e "$W/o.json" ]
# an escaped backslash, then u0000: a name of 14 characters, read whole
nul "$K" "$T_DIR/kb.pt.trace.json" '"aten::mm"' '"aten::mm\\u0000"' > /dev/null
"$PR_BIN" -q --input "$T_DIR/kb.pt.trace.json" --json "$W/o.json" 2> "$T_DIR/err"
check "kineto: a backslash before u0000 is no NUL: exit 0 ($?)" [ -s "$W/o.json" ]
check "  the name read whole" python3 -c "
import json, sys
ops = json.load(open(sys.argv[1]))['runs'][0]['operators']
sys.exit(not any(o['name'] == 'aten::mm\\\\u0000' for o in ops))" "$W/o.json"

# --- MegEngine timeline: an event's name
M=$D/megengine/v1_6.chrome_timeline.json
at=$(nul "$M" "$T_DIR/m.chrome_timeline.json" '"name":"' '"name":"\u0000')
refused "megengine: a name with \\u0000" "$T_DIR/m.chrome_timeline.json" "$at"

# --- msprof: a task's name in the chrome-format timeline
MP=$D/hostile/msprof
MT=PROF_000001_20260101000000000_HOSTILEMINIMALAA/device_0/timeline/msprof_0_1_1.json
rm -rf "$T_DIR/mp" && cp -R "$MP" "$T_DIR/mp" && chmod -R u+w "$T_DIR/mp"
at=$(nul "$MP/$MT" "$T_DIR/mp/$MT" '"MatMul"' '"Mat\u0000Mul"')
refused "msprof timeline: a task name with \\u0000" "$T_DIR/mp" "$at"
check "  naming the timeline file" grep -q "msprof_0_1_1.json" "$T_DIR/err"

# --- MindSpore's Ascend timeline: an operator's name
rm -rf "$T_DIR/ms" && cp -R "$D/mindspore/data_queue" "$T_DIR/ms" &&
    chmod -R u+w "$T_DIR/ms"
at=$(nul "$D/mindspore/data_queue/ascend_timeline_display_0.json" \
    "$T_DIR/ms/ascend_timeline_display_0.json" '"Conv2D-op5"' '"Conv2D\u0000-op5"')
refused "mindspore timeline: a name with \\u0000" "$T_DIR/ms" "$at"

# --- torch_npu trace_view.json (the shared sample, copied)
P=$PR_SHARED/traces/torch_npu/text_level1/rank0_ascend_pt
if [ -f "$P/ASCEND_PROFILER_OUTPUT/trace_view.json" ]; then
    rm -rf "$T_DIR/npu" && mkdir -p "$T_DIR/npu" &&
        cp -R "$P" "$T_DIR/npu/rank0_ascend_pt" && chmod -R u+w "$T_DIR/npu"
    at=$(nul "$P/ASCEND_PROFILER_OUTPUT/trace_view.json" \
        "$T_DIR/npu/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json" \
        '"name": "' '"name": "\u0000')
    refused "torch_npu trace_view.json: a name with \\u0000" \
        "$T_DIR/npu/rank0_ascend_pt" "$at"
else
    skip "torch_npu trace_view.json with a NUL" "no $P"
fi

# --- a saved summary: a kernel's name
"$PR_BIN" -q --input "$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz" \
    --json "$T_DIR/s.json"
at=$(python3 - "$T_DIR/s.json" "$T_DIR/sn.json" <<'PY'
import json, sys
t = open(sys.argv[1]).read()
k = json.loads(t)['runs'][0]['kernels'][0]['name']
old = json.dumps(k)
assert old in t
t = t.replace(old, json.dumps(k[:3] + "\0" + k[3:]), 1)
open(sys.argv[2], "w").write(t)
print(t.find("\\u0000"))
PY
)
refused "saved summary: a kernel name with \\u0000" "$T_DIR/sn.json" "$at"
check "  naming the summary" grep -q "sn.json: byte $at" "$T_DIR/err"
"$PR_BIN" diff "$T_DIR/s.json" "$T_DIR/sn.json" > /dev/null 2> "$T_DIR/err"
rc=$?
check "diff with that summary: exit 2 ($rc)" [ $rc -eq 2 ]
check "  naming the byte" grep -q "sn.json: byte $at: a string holds" "$T_DIR/err"

echo "1..$T_N"
