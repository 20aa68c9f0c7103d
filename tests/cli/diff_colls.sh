#!/bin/sh
# diff_colls.sh - the diff's collectives table: each collective type of
# either run (communication.ops) with its calls, bytes, time per call and
# its change, algbw and busbw, baseline -> current, in the terminal, the
# Markdown and the HTML, and pair["collectives"] in the JSON.  Hand-made:
# 4 nccl:all_reduce calls of 1 MiB, 100 us each in the baseline and 150
# us in the current run, which also runs one nccl:broadcast.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "diff collectives" "no python3"
    echo "1..$T_N"
    exit 0
fi

gen() { # FILE KERNEL_US BROADCAST(0/1)
    python3 - "$@" << 'PY'
import json, sys
path, us, bcast = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "1"
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 1, "tid": 1, "ts": 0, "dur": 2000, "args": {}}]
calls = [("nccl:all_reduce",
          "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)", us)] * 4
if bcast:
    calls.append(("nccl:broadcast",
                  "ncclKernel_Broadcast_RING_LL_Sum_int8_t(ncclDevComm*)", 50))
for i, (op, k, d) in enumerate(calls):
    t = 10 + i * 300
    ev.append({"ph": "X", "cat": "user_annotation", "name": op,
               "pid": 1, "tid": 1, "ts": t, "dur": 20,
               "args": {"External id": 100 + i, "Input Dims": [[262144]],
                        "Input type": ["float"]}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
               "pid": 1, "tid": 1, "ts": t + 2, "dur": 5,
               "args": {"correlation": 10 + i, "External id": 100 + i}})
    ev.append({"ph": "X", "cat": "kernel", "name": k,
               "pid": 0, "tid": 7, "ts": t + 30, "dur": d,
               "args": {"correlation": 10 + i, "External id": 100 + i,
                        "device": 0, "stream": 7}})
json.dump({"distributedInfo": {"backend": "nccl", "rank": 0,
                               "world_size": 2},
           "traceEvents": ev}, open(path, "w"))
PY
}
gen "$T_DIR/a.json" 100 0
gen "$T_DIR/b.json" 150 1

COLUMNS=200 "$PR_BIN" diff "$T_DIR/a.json" "$T_DIR/b.json" > "$T_DIR/d.txt" \
    2> /dev/null
check "the terminal has a collectives table" \
    grep -q '^Collectives (mean time per call)$' "$T_DIR/d.txt"
check "  all_reduce: 4 -> 4 calls of 4 MiB, 100 -> 150 us a call (+50%)" \
    grep -Eq '^nccl:all_reduce +4 -> 4 +4\.00 MiB -> 4\.00 MiB +100 µs +150 µs +\+50\.0% ' \
    "$T_DIR/d.txt"
check "  and its bandwidths, baseline -> current" \
    grep -Eq '^nccl:all_reduce .* [0-9.]+ -> [0-9.]+ +[0-9.]+ -> [0-9.]+$' "$T_DIR/d.txt"
check "  the broadcast only the current run has: new" \
    grep -Eq '^nccl:broadcast +– -> 1 .* new ' "$T_DIR/d.txt"
"$PR_BIN" diff -q "$T_DIR/a.json" "$T_DIR/b.json" --json "$T_DIR/d.json" \
    --markdown "$T_DIR/d.md" --html "$T_DIR/d.html" > /dev/null 2>&1
check "the JSON keeps the pair's collectives" python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['runs'][0]['collectives']
r = {x['name']: x for x in c}
a = r['nccl:all_reduce']
assert (a['calls_baseline'], a['calls_current']) == (4, 4), a
assert (a['baseline_us'], a['current_us']) == (100, 150), a
assert abs(a['delta_pct'] - 50) < 1e-9 and a['status'] == 'both', a
assert r['nccl:broadcast']['status'] == 'new', r
" "$T_DIR/d.json"
check "the Markdown's table" \
    grep -q '^| nccl:all\\_reduce | 4 -> 4 | 4.00 MiB -> 4.00 MiB | 100 µs | 150 µs | +50.0% |' "$T_DIR/d.md"
check "the HTML's" grep -q 'Collectives (mean time per call)' "$T_DIR/d.html"

# runs without collectives: no table
"$PR_BIN" diff -b "$PR_SRCDIR/tests/data/diff/base.json" \
    -i "$PR_SRCDIR/tests/data/diff/slow.json" > "$T_DIR/n.txt" 2> /dev/null
check "runs without collectives: no collectives table" \
    sh -c "! grep -q '^Collectives' '$T_DIR/n.txt'"

# the HTA trace_diff pair: all_to_all 3.11 -> 3.54 ms a call, all_reduce
# 18 -> 21 calls, 1.83 -> 4.38 ms, a send_recv only the test run has
H=$PR_SHARED/traces/hta/trace_diff
if [ -f "$H/control/control.json.gz" ] && [ -f "$H/test/test.json.gz" ]; then
    COLUMNS=200 "$PR_BIN" diff "$H/control/control.json.gz" \
        "$H/test/test.json.gz" > "$T_DIR/h.txt" 2> /dev/null
    check "trace_diff: all_to_all 42 -> 42 calls, 3.11 -> 3.54 ms (+13.7%)" \
        grep -Eq '^nccl:all_to_all +42 -> 42 +3\.60 GiB -> 3\.58 GiB +3\.11 ms +3\.54 ms +\+13\.7% ' \
        "$T_DIR/h.txt"
    check "  all_reduce 18 -> 21 calls, +140.0% a call" \
        grep -Eq '^nccl:all_reduce +18 -> 21 .* 1\.83 ms +4\.38 ms +\+140\.0% ' "$T_DIR/h.txt"
    check "  send_recv new" grep -Eq '^nccl:send_recv +– -> 1 .* new ' "$T_DIR/h.txt"
else
    skip "trace_diff collectives" "no $H"
fi
echo "1..$T_N"
