#!/bin/sh
# broadcast_bytes.sh - issue #29 (memory-bound operators): the bytes of a
# broadcast (expanded) input.  PyTorch's backward of mean divides
# grad.expand(sizes): tb_resnet50's aten::div [[32, 2048, 7, 7], []] in
# MeanBackward1 [[32, 2048, 1, 1]] reads 65,536 distinct floats, but its
# shapes count 3,211,264, so it sat at 118.9% of a V100's 900 GB/s,
# marked cache_resident (its 25.7 MB per call cannot sit in a 6 MiB L2).
#
# Hand-made V100 traces (900 GB/s, 6 MiB L2), one kernel per call:
# 1. PyTorch >= 2.1 (Input Strides recorded):
#    a. aten::div [[32, 2048, 7, 7], []] strides [[2048, 1, 0, 0], []] in
#       MeanBackward1, 24 us: the input counts 32 * 2048 floats, bytes
#       4 * (65,536 + 3,211,264) = 13,107,200, 546 GB/s, 60.7%, no mark;
#    b. aten::sum [[4, 8, 2]] strides [[1, 1, 0]] (an overlapping view of
#       1 + 3 + 7 = 11 floats, under the 32 of the non-zero dims): 44 bytes
#       read;
#    c. aten::mul [[1024, 1024], [1024, 1024]] twice, one call with strides
#       [[1024, 1], [0, 1]] and one without: calls that disagree keep the
#       shapes' bytes, 3 * 4 MiB per call.
# 2. PyTorch 1.8 (no strides):
#    a. aten::div [[32, 2048, 7, 7], []] in MeanBackward1 [[32, 2048, 1, 1]]
#       (nested in an aten::div, as 1.8 records it), 24 us: 25,690,112
#       bytes counted, 1,070 GB/s, 118.9%: broadcast_input, roofline_pct
#       null; the same on its operators[] row;
#    b. aten::div [[32, 512, 14, 14], []] outside any backward node, same
#       bytes and time: no evidence of a broadcast, so not broadcast_input
#       (the cache rule's cache_resident, as before);
#    c. aten::relu_ [[32, 256, 7, 7]], 3.2 MB at 3 us (1,070 GB/s), within
#       the L2: cache_resident.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "broadcast inputs' bytes" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" << 'PY'
import json, os, sys
d = sys.argv[1]
V100 = [{"id": 0, "name": "Tesla V100-SXM2-16GB", "computeMajor": 7,
         "computeMinor": 0, "numSms": 80, "totalGlobalMem": 16945709056}]
K = "void at::native::vectorized_elementwise_kernel<4, Fn>(int, Fn, Arr)"

def trace(calls, path):
    ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
           "pid": 1, "tid": 1, "ts": 0, "dur": 5000, "args": {}}]
    st = {"corr": 100, "kts": 20, "ext": 0, "ts": 10}
    for c in calls:
        ts = st["ts"]
        for depth, p in enumerate(c.get("parents", [])):
            ev.append({"ph": "X", "cat": "cpu_op", "name": p[0], "pid": 1,
                       "tid": 1, "ts": ts - 3 + depth, "dur": 60 - 2 * depth,
                       "args": {"Input Dims": p[1],
                                "Input type": p[2] if len(p) > 2
                                else ["float"] * len(p[1])}})
        st["ext"] += 1
        st["corr"] += 1
        args = {"External id": st["ext"], "Input Dims": c["dims"],
                "Input type": c["types"]}
        if "strides" in c:
            args["Input Strides"] = c["strides"]
        ev.append({"ph": "X", "cat": "cpu_op", "name": c["name"], "pid": 1,
                   "tid": 1, "ts": ts, "dur": 40, "args": args})
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": ts + 1, "dur": 2,
                   "args": {"correlation": st["corr"],
                            "External id": st["ext"]}})
        ev.append({"ph": "X", "cat": "kernel", "name": K, "pid": 0,
                   "tid": 7, "ts": st["kts"], "dur": c["us"],
                   "args": {"correlation": st["corr"], "device": 0,
                            "stream": 7, "External id": st["ext"]}})
        st["kts"] += c["us"] + 5
        st["ts"] += 100
    json.dump({"schemaVersion": 1, "deviceProperties": V100,
               "traceEvents": ev}, open(path, "w"))

BIG = [[32, 2048, 7, 7], []]
MEAN2 = [("autograd::engine::evaluate_function: MeanBackward1",
          [[32, 2048, 1, 1]]), ("MeanBackward1", [[32, 2048, 1, 1]])]
trace([
    {"name": "aten::div", "dims": BIG, "types": ["float", "Scalar"],
     "strides": [[2048, 1, 0, 0], []], "us": 24, "parents": MEAN2},
    {"name": "aten::sum", "dims": [[4, 8, 2]], "types": ["float"],
     "strides": [[1, 1, 0]], "us": 2},
    {"name": "aten::mul", "dims": [[1024, 1024], [1024, 1024]],
     "types": ["float", "float"], "strides": [[1024, 1], [0, 1]], "us": 20},
    {"name": "aten::mul", "dims": [[1024, 1024], [1024, 1024]],
     "types": ["float", "float"], "us": 20},
], os.path.join(d, "strides.json"))
# PyTorch 1.8: the aten::div MeanBackward1 calls runs an inner aten::div
trace([
    {"name": "aten::div", "dims": BIG, "types": ["float", "Scalar"],
     "us": 24, "parents": [("MeanBackward1", [[32, 2048, 1, 1]]),
                           ("aten::div", BIG, ["float", "Scalar"])]},
    {"name": "aten::div", "dims": [[32, 512, 14, 14], []],
     "types": ["float", "Scalar"], "us": 24},
    {"name": "aten::relu_", "dims": [[32, 256, 7, 7]], "types": ["float"],
     "us": 3},
], os.path.join(d, "nostrides.json"))
PY

run() { # name: the summary of $T_DIR/name.json
    "$PR_BIN" --quiet --input "$T_DIR/$1.json" --json "$T_DIR/$1.out.json" \
        2> "$T_DIR/$1.err"
}

if run strides && python3 - "$T_DIR/strides.out.json" > "$T_DIR/why" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
rows = {(o["name"], o["input_shapes"]): o
        for o in s["runs"][0]["operators_by_shape"]}
bad = []
def want(key, **kv):
    o = rows.get(key)
    if o is None:
        bad.append("no row %s %s" % key)
        return
    for k, v in kv.items():
        got = o.get(k)
        if isinstance(v, float) and isinstance(got, (int, float)):
            if abs(got - v) > 0.05:
                bad.append("%s %s: %s %s, want %s" % (key + (k, got, v)))
        elif got != v:
            bad.append("%s %s: %s %s, want %s" % (key + (k, got, v)))
want(("aten::div", "[[32, 2048, 7, 7], []]"), bytes=13107200,
     roofline_mark=None, roofline_pct=60.7)
want(("aten::sum", "[[4, 8, 2]]"), bytes=44)
want(("aten::mul", "[[1024, 1024], [1024, 1024]]"), bytes=2 * 3 * 4194304)
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
then ok "Input Strides: a stride-0 (broadcast) input counts its distinct elements"
else not_ok "Input Strides: $(cat "$T_DIR/why") $(head -c 300 "$T_DIR/strides.err")"; fi

if run nostrides && python3 - "$T_DIR/nostrides.out.json" > "$T_DIR/why" << 'PY'
import json, sys
s = json.load(open(sys.argv[1]))
run = s["runs"][0]
rows = {(o["name"], o["input_shapes"]): o for o in run["operators_by_shape"]}
names = {o["name"]: o for o in run["operators"]}
bad = []
def want(o, what, **kv):
    if o is None:
        bad.append("no row %s" % what)
        return
    for k, v in kv.items():
        got = o.get(k)
        ok = abs(got - v) <= 0.05 if isinstance(v, float) and \
            isinstance(got, (int, float)) else got == v
        if not ok:
            bad.append("%s %s: %s, want %s" % (what, k, got, v))
div = rows.get(("aten::div", "[[32, 2048, 7, 7], []]"))
want(div, "div in MeanBackward1", bytes=25690112,
     roofline_mark="broadcast_input", roofline_pct=None, bound="memory")
if div and not abs(div["achieved_gbps"] - 25690112 / 24e-6 / 1e9) < 0.5:
    bad.append("div GB/s %s" % div["achieved_gbps"])
want(rows.get(("aten::div", "[[32, 512, 14, 14], []]")), "div outside",
     bytes=25690112, roofline_mark="cache_resident")
want(rows.get(("aten::relu_", "[[32, 256, 7, 7]]")), "relu_",
     roofline_mark="cache_resident")
# aten::div by name: both shapes, one of them a broadcast: no % of roof
want(names.get("aten::div"), "aten::div by name",
     roofline_mark="broadcast_input", roofline_pct=None)
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
then ok "no strides: MeanBackward's expanded input is broadcast_input, other points keep their marks"
else not_ok "no strides: $(cat "$T_DIR/why") $(head -c 300 "$T_DIR/nostrides.err")"; fi

# the reports say what the mark means
if "$PR_BIN" --quiet --input "$T_DIR/nostrides.json" --html "$T_DIR/n.html" \
        2> "$T_DIR/err" &&
   grep -q 'broadcast_input (more bytes counted than moved' "$T_DIR/n.html"; then
    ok "HTML: the Mark column's tooltip explains broadcast_input"
else not_ok "HTML: no broadcast_input in the Mark tooltip $(head -c 200 "$T_DIR/err")"; fi

echo "1..$T_N"
