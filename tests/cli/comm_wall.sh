#!/bin/sh
# comm_wall.sh - collectives in flight together (issue #31): the table's
# algbw/busbw are nccl-tests' per-call definitions (a call's bytes over
# its own time); communication.ops[] also gives the calls' wall time (the
# union of their intervals), the most in flight at once and their bytes
# over that wall time.  A hand-made Gloo trace with two 1 MiB all-reduces
# on two threads, [0, 100) and [50, 150) ms, and HTA's cpu_only.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "collectives in flight" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR/g.json" << 'PY'
import json, sys
ms = 1000.0
def ar(tid, ts):
    return {"ph": "X", "cat": "user_annotation", "name": "gloo:all_reduce",
            "pid": 1, "tid": tid, "ts": ts * ms, "dur": 100 * ms,
            "args": {"Input Dims": [[262144]], "Input type": ["float"]}}
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 1, "tid": 1, "ts": 0, "dur": 160 * ms, "args": {}},
      {"ph": "X", "cat": "cpu_op", "name": "aten::add_", "pid": 1, "tid": 1,
       "ts": 1 * ms, "dur": 1 * ms, "args": {}},
      ar(10, 0), ar(11, 50)]
json.dump({"distributedInfo": {"backend": "gloo", "rank": 0,
                               "world_size": 2},
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PR_BIN" -q --input "$T_DIR/g.json" --json "$T_DIR/g.s.json"
# op KEY: that key of the first run's gloo:all_reduce row
op() {
    python3 - "$T_DIR/g.s.json" "$1" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
o = [o for o in r["communication"]["ops"] if o["name"] == "gloo:all_reduce"][0]
v = o[sys.argv[2]]
print(v if v is None else round(float(v), 6))
PY
}
check "two calls, 2 MiB" test "$(op total_bytes)" = "2097152.0"
# per call: 2 MiB over 200 ms of call time
check "algbw per call: bytes over the calls' own time ($(op algbw_gbps))" \
    test "$(op algbw_gbps)" = "$(python3 -c 'print(round(2097152 / 200e6, 6))')"
check "wall time: the union, 150 ms ($(op wall_us))" \
    test "$(op wall_us)" = "150000.0"
check "two in flight at once" test "$(op in_flight_max)" = "2.0"
check "together: bytes over the wall time ($(op wall_gbps))" \
    test "$(op wall_gbps)" = "$(python3 -c 'print(round(2097152 / 150e6, 6))')"

# the same calls one after the other: one in flight, wall = algbw
sed 's/"ts": 50000.0/"ts": 100000.0/' "$T_DIR/g.json" > "$T_DIR/s.json"
"$PR_BIN" -q --input "$T_DIR/s.json" --json "$T_DIR/g.s.json"
check "in a row: one in flight" test "$(op in_flight_max)" = "1.0"
check "in a row: together = per call" test "$(op wall_gbps)" = "$(op algbw_gbps)"

if shared_report cpu hta/cpu_only; then
    check "cpu_only: the note says per call and together" \
        grep -q "up to 2 calls in flight at once" "$T_DIR/cpu.html"
    check "cpu_only: no 0.0 GB/s for a slow link" \
        sh -c "! grep -q '>0.0 GB/s<' '$T_DIR/cpu.html'"
else
    skip "cpu_only" "no ../shared/traces/hta/cpu_only"
fi
echo "1..$T_N"
