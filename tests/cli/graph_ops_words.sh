#!/bin/sh
# graph_ops_words.sh - launches.graph_kernels counts every device operation
# a graph launch ran (kernels, memsets, copies); graph_fills and
# graph_copies split it, and the Host and device section says
# "N operations (K kernels, F fills, C copies)", not "N kernels" (issue #29
# #3: hta_diff_test's "12 graph launches ran 5046 kernels" beside a stream
# whose kernels rose by 4,464: the rest were 576 memsets and 6 memcpys).
#
# Hand-made: two cudaGraphLaunch calls, each running 3 kernels, 2 memsets
# and 1 DtoD copy on stream 7: 12 operations, 6 kernels, 4 fills, 2
# copies.  A graph of kernels alone keeps "ran N kernels".
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "graph operation words" "no python3"
    echo "1..$T_N"
    exit 0
fi

# trace FILE mixed|kernels
trace() {
    python3 - "$@" << 'PY'
import json, sys
mixed = sys.argv[2] in ("mixed", "big")
big = sys.argv[2] == "big"
def x(cat, name, pid, tid, ts, dur, **a):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": a}
ev = [x("user_annotation", "ProfilerStep#1", 1, 1, 0, 9000 if big else 2000)]
for g in range(1 if big else 2):
    t, corr = 100 + 800 * g, 10 + g
    ev.append(x("cuda_runtime", "cudaGraphLaunch", 1, 1, t, 20,
                correlation=corr, **{"External id": corr}))
    ops = [("kernel", "graph_kernel_%d" % i) for i in range(1100 if big else 3)]
    if big:
        ops += [("gpu_memset", "Memset (Device)"),
                ("gpu_memcpy", "Memcpy DtoD (Device -> Device)")]
    elif mixed:
        ops += [("gpu_memset", "Memset (Device)"),
                ("gpu_memset", "Memset (Device)"),
                ("gpu_memcpy", "Memcpy DtoD (Device -> Device)")]
    for i, (cat, name) in enumerate(ops):
        a = {"device": 0, "stream": 7, "correlation": corr,
             "External id": corr}
        if cat == "gpu_memcpy":
            a["bytes"] = 1 << 20
        ev.append(x(cat, name, 0, 7, t + 50 + (6 if big else 40) * i,
                    4 if big else 30, **a))
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(sys.argv[1], "w"))
PY
}

trace "$T_DIR/m.json" mixed
"$PR_BIN" -q --input "$T_DIR/m.json" --json "$T_DIR/m.s.json" \
    --html "$T_DIR/m.html"
set -- $(python3 - "$T_DIR/m.s.json" << 'PY'
import json, sys
l = json.load(open(sys.argv[1]))["runs"][0]["launches"]
print(l.get("graph_launches"), l.get("graph_kernels"), l.get("graph_fills"),
      l.get("graph_copies"))
PY
)
check "two graph launches ($1)" test "$1" = 2
check "graph_kernels counts all 12 operations ($2)" test "$2" = 12
check "graph_fills: the 4 memsets ($3)" test "$3" = 4
check "graph_copies: the 2 copies ($4)" test "$4" = 2
check "the section splits the operations" \
    grep -q "2 graph launches ran 12 operations (6 kernels, 4 fills, 2 copies)" \
    "$T_DIR/m.html"
check "not 12 kernels" sh -c '! grep -q "ran 12 kernels" "$1"' _ \
    "$T_DIR/m.html"

trace "$T_DIR/k.json" kernels
"$PR_BIN" -q --input "$T_DIR/k.json" --json "$T_DIR/k.s.json" \
    --html "$T_DIR/k.html"
check "kernels alone: ran 6 kernels" \
    grep -q "2 graph launches ran 6 kernels\." "$T_DIR/k.html"

# counts of 1,000 or more read with the same separators throughout
# (issue #30 #5: "5046 operations (4,464 kernels, 576 fills, 6 copies)")
trace "$T_DIR/b.json" big
"$PR_BIN" -q --input "$T_DIR/b.json" --json "$T_DIR/b.s.json" \
    --html "$T_DIR/b.html"
check "one separator style: 1,102 operations (1,100 kernels, 1 fill, 1 copy)" \
    grep -q "1 graph launch ran 1,102 operations (1,100 kernels, 1 fill, 1 copy)" \
    "$T_DIR/b.html"
echo "1..$T_N"
