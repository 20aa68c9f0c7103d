#!/bin/sh
# job_noise.sh - a job names its slowest rank only from step time that
# says something (review 22g #6).  Hand-made two-rank Kineto traces: (a)
# captures without step markers, 100.000 and 100.008 ms long: no rank has
# steps (ranks_with_steps 0), no slowest or median rank, "no steps:
# captures of ... each, no slowest rank"; (b) 4 steps a rank, means 100.0
# and 100.1 ms (0.1% apart, under the 0.5% floor): the median rank, no
# slowest; (c) means 100 and 110 ms: rank 1 the slowest, as before.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "job noise floor" "no python3"
    echo "1..$T_N"
    exit 0
fi

# gen DIR STEPS MS0 MS1: two ranks, STEPS steps (0: none) of MS each
gen() {
    mkdir -p "$1"
    python3 - "$@" << 'PY'
import json, sys
d, steps = sys.argv[1], int(sys.argv[2])
for rank, ms in enumerate((float(sys.argv[3]), float(sys.argv[4]))):
    us = ms * 1000.0
    ev = []
    for s in range(max(steps, 1)):
        t = s * us
        if steps:
            ev.append({"ph": "X", "cat": "user_annotation",
                       "name": "ProfilerStep#%d" % s, "pid": 1, "tid": 1,
                       "ts": t, "dur": us, "args": {}})
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::add_",
                   "pid": 1, "tid": 1, "ts": t + 1, "dur": 10, "args": {}})
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::mul_",
                   "pid": 1, "tid": 1, "ts": t + us - 11, "dur": 10,
                   "args": {}})
    json.dump({"distributedInfo": {"backend": "nccl", "rank": rank,
                                   "world_size": 2},
               "traceEvents": ev},
              open("%s/rank%d.json" % (d, rank), "w"))
PY
}

# job FILE: ranks_with_steps, spread, slowest's and median's worker
job() {
    python3 - "$1" << 'PY'
import json, sys
j = json.load(open(sys.argv[1]))["job"]
w = lambda o: o["worker"] if o else None
print(j["step_us"]["ranks_with_steps"], round(j["step_us"]["spread_pct"], 3),
      w(j["slowest"]), w(j["median"]), w(j["slowest_by_mean"]))
PY
}

run() {
    "$PR_BIN" -q --input "$T_DIR/$1" --json "$T_DIR/$1.json" \
        --html "$T_DIR/$1.html" 2> /dev/null
    "$PR_BIN" --input "$T_DIR/$1" > "$T_DIR/$1.term" 2> /dev/null
}

gen "$T_DIR/cap" 0 100 100.008
run cap
check "captures: no rank with steps, no slowest or median rank ($(job "$T_DIR/cap.json"))" \
    test "$(job "$T_DIR/cap.json")" = "0 0.008 None None None"
check "captures: the job line names no slowest rank" \
    grep -q "^job: 2 ranks, no steps: captures of 100 ms each (spread 0.0%), no slowest rank$" \
    "$T_DIR/cap.term"
check "captures: the HTML's card names none" \
    grep -q "none: no steps, each rank&#39;s window is its capture" \
    "$T_DIR/cap.html"
# review 28g #3: no chart ranks captures and the table is by rank
check "captures: no capture-time chart or heat map, ranks in order" \
    sh -c '! grep -q "Capture time per rank\|Capture time by rank\|slowest first" "$1" &&
        grep -q "By rank (a capture&#39;s length is its profiler window" "$1"' \
    _ "$T_DIR/cap.html"
check "captures: the HTML names no slowest or median in the detail list" \
    sh -c '! grep -q "(slowest)\|(median)\|slowest rank</div><div class=\"k-value\">[0-9]" "$1"' \
    _ "$T_DIR/cap.html"
# review23g item 8: the 8 us longer capture is not ranked "longest", and the
# spread's caption names no slowest rank beside the card that says none
check "captures: the detail list ranks no capture" \
    sh -c '! grep -q "(longest capture)\|(median capture)" "$1" &&
           grep -q "Full detail below for 2 of 2 ranks (choose with --detail-ranks): rank0 (rank 0), rank1\." "$1"' \
    _ "$T_DIR/cap.html"
check "captures: the spread's caption is the captures', not slowest - fastest" \
    sh -c '! grep -q "(slowest - fastest)" "$1" &&
           grep -q "(longest - shortest capture) / median" "$1"' _ "$T_DIR/cap.html"

gen "$T_DIR/near" 4 100 100.1
run near
check "0.1% apart: the median rank, no slowest ($(job "$T_DIR/near.json"))" \
    test "$(job "$T_DIR/near.json")" = "2 0.1 None rank0 None"
check "0.1% apart: the job line says the floor" \
    grep -q "^job: 2 ranks; no slowest rank: mean steps 100 ms, spread 0.10% across ranks, under the 0.5% noise floor$" \
    "$T_DIR/near.term"

gen "$T_DIR/far" 4 100 110
run far
check "10% apart: rank1 the slowest ($(job "$T_DIR/far.json"))" \
    test "$(job "$T_DIR/far.json")" = "2 10 rank1 rank0 rank1"
check "10% apart: the job line names it" \
    grep -q "^job: 2 ranks; slowest rank rank1 (mean step 110 ms" \
    "$T_DIR/far.term"

echo "1..$T_N"
