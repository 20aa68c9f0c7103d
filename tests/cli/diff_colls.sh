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
    grep -Eq '^nccl:all_reduce +4 -> 4 +100 µs +150 µs +\+50\.0% +4\.00 MiB -> 4\.00 MiB ' \
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
# review 27 #10b: the runs' own notes on what their utilization counts
# as busy go under the figures, what it counts said once
COLUMNS=100 "$PR_BIN" diff "$T_DIR/a.json" "$T_DIR/b.json" 2> /dev/null |
    tr '\n' ' ' > "$T_DIR/u.txt"
check "the utilization row's note: each run's communication points" \
    grep -q 'gpu.utilization GPU 0 counts communication kernels as busy: baseline of 20.0% busy, 20.0 points are communication kernels alone (NCCL waiting and transferring); current of 32.5% busy, 32.5 points' \
    "$T_DIR/u.txt"
check "the Markdown's table" \
    grep -q '^| `nccl:all_reduce` | 4 -> 4 | 100 µs | 150 µs | +50.0% | 4.00 MiB -> 4.00 MiB |' "$T_DIR/d.md"
check "the HTML's" grep -q 'Collectives (mean time per call)' "$T_DIR/d.html"

# part of the calls sized or timed (review26g #5): the current run adds an
# all_reduce kernel without its host call (no size) and a host call
# without its kernel (not timed): 6 calls, 5 sized, 5 timed, 4 both
python3 - "$T_DIR/p.json" << 'PY'
import json, sys
k = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)"
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 1, "tid": 1, "ts": 0, "dur": 3000, "args": {}}]
for i in range(4):
    t = 10 + i * 300
    ev.append({"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce",
               "pid": 1, "tid": 1, "ts": t, "dur": 20,
               "args": {"External id": 100 + i, "Input Dims": [[262144]],
                        "Input type": ["float"]}})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
               "pid": 1, "tid": 1, "ts": t + 2, "dur": 5,
               "args": {"correlation": 10 + i, "External id": 100 + i}})
    ev.append({"ph": "X", "cat": "kernel", "name": k, "pid": 0, "tid": 7,
               "ts": t + 30, "dur": 150,
               "args": {"correlation": 10 + i, "External id": 100 + i,
                        "device": 0, "stream": 7}})
ev.append({"ph": "X", "cat": "kernel", "name": k, "pid": 0, "tid": 7,
           "ts": 1500, "dur": 150,
           "args": {"correlation": 99, "device": 0, "stream": 7}})
ev.append({"ph": "X", "cat": "user_annotation", "name": "nccl:all_reduce",
           "pid": 1, "tid": 1, "ts": 1800, "dur": 20,
           "args": {"External id": 200, "Input Dims": [[262144]],
                    "Input type": ["float"]}})
json.dump({"distributedInfo": {"backend": "nccl", "rank": 0,
                               "world_size": 2},
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY
COLUMNS=200 "$PR_BIN" diff "$T_DIR/a.json" "$T_DIR/p.json" > "$T_DIR/p.txt" \
    2> /dev/null
check "part sized: calls say how many the mean is over: 4 -> 6 (5 timed)" \
    grep -Eq '^nccl:all_reduce +4 -> 6 \(5 timed\) +100 µs +150 µs ' \
    "$T_DIR/p.txt"
check "  bytes of the sized calls with their count, not a dash" \
    grep -Eq ' 4\.00 MiB -> 5\.00 MiB \(5/6\) ' "$T_DIR/p.txt"
check "  a note says what each figure is over" \
    grep -q '^nccl:all_reduce, current: 5 of its 6 calls have a size in the trace; its bytes are of those 5, its algbw and busbw over the 4 both sized and timed, its time per call over all 5 timed\.' \
    "$T_DIR/p.txt"

# review 27 #7: a 2-rank job whose all_reduce per call falls on rank 0
# (100 -> 60 us) and rises on rank 1 (50 -> 150 us): the wait moved
# between ranks; the note gives the fastest rank's 50 -> 60 us (+20%)
mkdir -p "$T_DIR/jb" "$T_DIR/jc"
python3 - "$T_DIR" << 'PY'
import json, sys
def rank(path, r, us):
    k = "ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*)"
    ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
           "pid": 1, "tid": 1, "ts": 0, "dur": 2000, "args": {}}]
    for i in range(4):
        t = 10 + i * 300
        ev.append({"ph": "X", "cat": "user_annotation",
                   "name": "nccl:all_reduce", "pid": 1, "tid": 1, "ts": t,
                   "dur": 20, "args": {"External id": 100 + i}})
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                   "ts": t + 2, "dur": 5,
                   "args": {"correlation": 10 + i, "External id": 100 + i}})
        ev.append({"ph": "X", "cat": "kernel", "name": k, "pid": 0,
                   "tid": 7, "ts": t + 30, "dur": us,
                   "args": {"correlation": 10 + i, "External id": 100 + i,
                            "device": r, "stream": 7}})
    json.dump({"distributedInfo": {"backend": "nccl", "rank": r,
                                   "world_size": 2},
               "traceEvents": ev}, open(path, "w"))
d = sys.argv[1]
rank(d + "/jb/rank0.pt.trace.json", 0, 100)
rank(d + "/jb/rank1.pt.trace.json", 1, 50)
rank(d + "/jc/rank0.pt.trace.json", 0, 60)
rank(d + "/jc/rank1.pt.trace.json", 1, 150)
PY
COLUMNS=100 "$PR_BIN" diff "$T_DIR/jb" "$T_DIR/jc" 2> /dev/null |
    tr '\n' ' ' > "$T_DIR/j.txt"
check "opposite signs across ranks: said under the table, the fastest rank's change" \
    grep -q 'nccl:all_reduce: its time per call changed +200.0% on rank1 and -40.0% on rank0: a call lasts until the slowest rank arrives, .* the fastest rank.s time per call, 50.0 µs (rank1) -> 60.0 µs (rank0), +20.0%' \
    "$T_DIR/j.txt"
# issue #29: the fastest rank's time still holds its wait in the calls
# another rank reached last (nsys_before -> after: 253 -> 330 us, +30.1%,
# beside a transit of ~180 us a call on both sides): not "the closest to
# the transfer's change"
check "  the fastest rank's time is not called the transfer's change" \
    sh -c "grep -q 'still holds that rank.s own wait in the calls another rank reached last, so its change is not the transfer.s alone' '$T_DIR/j.txt' && ! grep -q 'closest to the transfer' '$T_DIR/j.txt'"
"$PR_BIN" diff -q "$T_DIR/jb" "$T_DIR/jc" --json "$T_DIR/j.json" \
    --markdown "$T_DIR/j.md" > /dev/null 2>&1
check "  the JSON keeps it on each rank's row, the Markdown says it" \
    sh -c "python3 -c \"
import json, sys
for p in json.load(open(sys.argv[1]))['runs']:
    k = p['collectives'][0]['rank_skew']
    assert round(k['fastest_delta_pct'], 1) == 20.0, k
\" '$T_DIR/j.json' && grep -q 'the wait moving between ranks' '$T_DIR/j.md'"
# the same signs on both ranks: no such note
COLUMNS=100 "$PR_BIN" diff "$T_DIR/jb" "$T_DIR/jb" > "$T_DIR/j0.txt" 2> /dev/null
check "  no note where the ranks' changes agree" \
    sh -c "! grep -q 'wait moving between ranks' '$T_DIR/j0.txt'"

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
        grep -Eq '^nccl:all_to_all +42 -> 42 +3\.11 ms +3\.54 ms +\+13\.7% +3\.60 GiB -> 3\.58 GiB ' \
        "$T_DIR/h.txt"
    check "  all_reduce 18 -> 21 calls, +140.0% a call" \
        grep -Eq '^nccl:all_reduce +18 -> 21 .* 1\.83 ms +4\.38 ms +\+140\.0% ' "$T_DIR/h.txt"
    check "  send_recv new" grep -Eq '^nccl:send_recv +– -> 1 .* new ' "$T_DIR/h.txt"
    # review26g #1: no number or name cut at 120 or 80 columns; the 120
    # columns keep both bandwidths whole, the group sizes in the note
    for w in 120 80; do
        COLUMNS=$w "$PR_BIN" diff "$H/control/control.json.gz" \
            "$H/test/test.json.gz" 2> /dev/null |
            tee "$T_DIR/h$w.txt.full" |
            sed -n '/^Collectives/,/^$/p;/^nccl:/p' > "$T_DIR/h$w.txt"
        check "trace_diff at $w columns: no cell cut next to a digit or name" \
            sh -c "! grep -q '…' '$T_DIR/h$w.txt' && grep -q '^nccl:all_to_all ' '$T_DIR/h$w.txt' && grep -q '^nccl:all_reduce ' '$T_DIR/h$w.txt'"
    done
    check "  at 120: both bandwidths whole, baseline -> current" \
        grep -Eq '^nccl:all_to_all .* 29\.58 -> 25\.87 +25\.89 -> 12\.94$' \
        "$T_DIR/h120.txt"
    check "  the test run's all_reduce bytes: 18 of 21 calls sized" \
        grep -Eq '^nccl:all_reduce .* 1\.12 GiB -> 1\.12 GiB \(18/21\) ' \
        "$T_DIR/h120.txt"
    check "  the group sizes in the note (wrapped), not in a cell" \
        sh -c "tr '\\n' ' ' < '$T_DIR/h120.txt.full' | grep -q 'Group sizes differ .*nccl:all_to_all 8 -> 2'"
    # a mean occupancy leaving out 14% of kernel time (unknown occupancy)
    # against one leaving out none: not compared
    "$PR_BIN" diff -q "$H/control/control.json.gz" "$H/test/test.json.gz" \
        --json "$T_DIR/h.json" > /dev/null 2>&1
    check "trace_diff: gpu.occupancy not compared (14% vs 0% unknown)" \
        python3 -c "
import json, sys
m = [x for x in json.load(open(sys.argv[1]))['runs'][0]['metrics']
     if x['metric'] == 'gpu.occupancy']
assert m and m[0]['comparable'] is False, m
assert 'leave out 14% (baseline) and 0% (current)' in m[0]['not_comparable'], m
" "$T_DIR/h.json"
    check "  the note: 14.0% of the baseline's kernel time, none of the current's" \
        grep -q "^(a) occupancy not known for 14.0% of the baseline's kernel time, none of the current's" \
        "$T_DIR/h120.txt.full"
else
    skip "trace_diff collectives" "no $H"
fi
# nsys mfu_2gpu before -> after (review26g #5 Also): GPU 1's all_to_all has
# 34 calls, 32 of them timed (the 253 us mean is over those); nothing is
# sized, so no empty bytes/bandwidth columns
N=$PR_SHARED/traces/nsys
if [ -f "$N/mfu_2gpu_before.sqlite" ] && [ -f "$N/mfu_2gpu_after.sqlite" ]; then
    COLUMNS=120 "$PR_BIN" diff "$N/mfu_2gpu_before.sqlite" \
        "$N/mfu_2gpu_after.sqlite" > "$T_DIR/n2.txt" 2> /dev/null
    check "nsys: calls with the timed count: 34 (32 timed) -> 30" \
        grep -Eq '^nccl:all_to_all +34 \(32 timed\) -> 30 +253 µs +788 µs ' \
        "$T_DIR/n2.txt"
    check "  no bytes column where no call is sized" \
        sh -c "! grep -q '^Collective .*Bytes' '$T_DIR/n2.txt'"
    # review 27 #7: all_to_all -38.2% on GPU 0, +210.9% on GPU 1
    check "  all_to_all's opposite signs: the fastest rank's 253 -> 330 us" \
        sh -c "tr '\\n' ' ' < '$T_DIR/n2.txt' | grep -q 'nccl:all_to_all: its time per call changed +210.9% on gpu1 pid 149 and -38.2% on gpu0 pid 148: .* 253 µs (gpu1 pid 145) -> 330 µs (gpu0 pid 148), +30.1%'"
else
    skip "nsys collectives" "no $N"
fi
echo "1..$T_N"
