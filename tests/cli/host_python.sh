#!/bin/sh
# host_python.sh - host_coverage's Python frames (hostcov.c, review 32g
# #2): where a step's unrecorded host time lies in the trace's own
# python_function frames, the note ranks the innermost ones by their own
# unrecorded time (the time no child frame or recorded call covers) and
# reads the time as Python; the thread's outermost frame
# (threading.py's _bootstrap) and a helper thread parked in wait name
# nothing.  Hand-made traces whose answers are known.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "host python frames" "no python3"
    echo "1..$T_N"
    exit 0
fi

# mk FILE MODE: a 100 ms step on thread 1 whose first 60 ms are a Python
# frame "preprocess" holding no operator, then "forward" [60, 100) with
# aten::mm [62, 98): 64 ms (64%) of the step unrecorded, 60 of it in
# preprocess, 4 in forward; all under threading.py's _bootstrap and
# run.py's loop.  Thread 2 sits in threading.py's wait the whole step.
# MODE plain: no python_function event at all; sampled: Ev Idx every
# 50th number (the frames of a trace that dropped events).
mk() {
    python3 - "$1" "$2" << 'PY'
import json, sys
path, mode = sys.argv[1], sys.argv[2]
ms = 1000.0
ev = []
def x(cat, name, tid, ts, dur, **args):
    ev.append({"ph": "X", "cat": cat, "name": name, "pid": 7, "tid": tid,
               "ts": ts * ms, "dur": dur * ms, "args": args})
def py(name, tid, ts, dur):
    if mode != "plain":
        x("python_function", name, tid, ts, dur)
py("threading.py(1032): _bootstrap", 1, -5, 110)
py("run.py(10): loop", 1, -4, 108)
x("user_annotation", "ProfilerStep#3", 1, 0, 100)
py("pre.py(5): preprocess", 1, 0.5, 59.5)
py("<built-in method astype of numpy.ndarray object at 0x7f00aa>", 1, 10, 5)
py("<built-in method astype of numpy.ndarray object at 0x7f00bb>", 1, 20, 5)
py("model.py(20): forward", 1, 60, 40)
x("cpu_op", "aten::mm", 1, 62, 36, **{"Input Dims": [[4, 4], [4, 4]]})
py("threading.py(1032): _bootstrap", 2, -5, 110)
py("threading.py(359): wait", 2, -3, 106)
for i, e in enumerate(ev):
    e["args"]["Ev Idx"] = i * 50 if mode == "sampled" else i
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(path, "w"))
PY
}

# field FILE EXPR: a Python expression over the first run (r) of a summary
field() {
    python3 - "$1" "$2" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(eval(sys.argv[2]))
PY
}

for m in py plain sampled; do
    mk "$T_DIR/$m.json" $m
    "$PR_BIN" -q --input "$T_DIR/$m.json" --json "$T_DIR/$m.s.json"
done
h="r['host_coverage']"
check "py: 64% of the step unrecorded" \
    test "$(field "$T_DIR/py.s.json" "float($h['unrecorded_pct'])")" = 64.0
check "py: the Python frames hold all of it" \
    test "$(field "$T_DIR/py.s.json" "float($h['python_pct'])")" = 100.0
# preprocess's own time: its 59.5 ms less astype's 10 (the two objects'
# calls are one frame); astype 10; forward's 4 ms around aten::mm; the
# loop's 0.5 ms before preprocess
check "py: the innermost frames, by their own unrecorded time" \
    test "$(field "$T_DIR/py.s.json" "$h['python_frames']")" = \
    "['pre.py(5): preprocess', '<built-in method astype of numpy.ndarray object>', 'model.py(20): forward']"
check "py: the note names preprocess and its time, not the outer frame" \
    test "$(field "$T_DIR/py.s.json" "all(w in $h['note'] for w in ('Python frames hold 100% of it', 'was there inside Python functions', 'pre.py(5): preprocess (1 call): 49.5 ms a step', 'astype of numpy.ndarray object> (2 calls): 10.0 ms a step', 'model.py(20): forward (1 call): 4.0 ms a step')) and '_bootstrap' not in $h['note'] and 'threading.py(359)' not in $h['note'] and 'cannot say' not in $h['note']")" = True
check "py: the note is the Data quality row" \
    test "$(field "$T_DIR/py.s.json" "[d['text'] for d in r['diagnostics'] if d['kind'] == 'host_unrecorded'] == [$h['note']]")" = True
check "py: the verdict reads it as Python, naming preprocess" \
    test "$(field "$T_DIR/py.s.json" "'inside no recorded operator' not in r['verdict']['text'] or ('the host was in those Python functions' in r['verdict']['text'] and 'pre.py(5): preprocess' in r['verdict']['text'] and 'not in the trace' not in r['verdict']['text'])")" = True
"$PR_BIN" -q --input "$T_DIR/py.json" --html "$T_DIR/py.html"
"$PR_BIN" -q --input "$T_DIR/plain.json" --html "$T_DIR/plain.html"
# the report's host notes follow the summary: Python where its frames
# hold the time, "not in the trace" where the trace has none
words() {
    python3 - "$1" "$2" "$3" << 'PY'
import html, re, sys
t = re.sub(r'\s+', ' ', html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[1]).read().replace('<wbr>', ''))))
print(sys.argv[2] in t and sys.argv[3] not in t)
PY
}
check "py: the report reads the host time as Python" \
    test "$(words "$T_DIR/py.html" "the host was in those Python functions there" "what the host did there is not in the trace")" = True
check "plain: the report keeps 'not in the trace'" \
    test "$(words "$T_DIR/plain.html" "what the host did there is not in the trace" "Python functions")" = True
# without python_function events: as before
check "plain: no Python share, no frames" \
    test "$(field "$T_DIR/plain.s.json" "($h['python_pct'], $h['python_frames'])")" = "(None, None)"
check "plain: the trace cannot say what the host did" \
    test "$(field "$T_DIR/plain.s.json" "'cannot say' in $h['note'] and 'Python frames' not in $h['note']")" = True
check "plain: the verdict keeps 'not in the trace'" \
    test "$(field "$T_DIR/plain.s.json" "'inside no recorded operator' not in r['verdict']['text'] or 'not in the trace' in r['verdict']['text']")" = True
# a trace that dropped events dropped frames: listed, no share read
check "sampled: no Python share read" \
    test "$(field "$T_DIR/sampled.s.json" "$h['python_pct']")" = None
check "sampled: the note still cannot say, and lists the frames kept" \
    test "$(field "$T_DIR/sampled.s.json" "'cannot say' in $h['note'] and 'Innermost Python frames of those kept' in $h['note']")" = True
echo "1..$T_N"
