#!/bin/sh
# ddp_logging_syncs.sh - review 28g #4: the event syncs of DDP's own
# runtime-stats logging (DistributedDataParallel.forward reading its
# timers: cudaEventSynchronize x2 + cudaEventElapsedTime, on DDP's first
# iterations) are not the loop's to remove.
#
# A hand-made launch-bound A100 run of two steps (ten 20 us launches of
# 3 us kernels each, as whatif.sh's "graphs"), each step ending in a
# DistributedDataParallel.forward range that holds two cudaEventSynchronize
# and one cudaEventElapsedTime.  Known answers:
#  ddp:    synchronization.calls' cudaEventSynchronize row counts 4, 4 of
#          them DDP's logging; the launch advice says no "remove them
#          first", and names DDP's runtime-stats logging, 2 a step.
#  noddp:  the same syncs with no DDP range: ddp_logging_count 0, and the
#          advice says the loop's 4 syncs (2 a step) go first.
#  notime: the DDP range without the elapsed-time read: the syncs are the
#          loop's (not DDP's logging).
# And hta_nccl: its 24 cudaEventSynchronize are DDP's logging (8 a step).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "DDP logging syncs" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
def K(name, ts, dur, corr):
    return X("kernel", name, ts, dur, pid=0, tid=7, correlation=corr,
             device=0, stream=7)
def call(ts, dur, corr, name="cudaLaunchKernel"):
    return X("cuda_runtime", name, ts, dur, correlation=corr)
A100 = [{"id": 0, "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8,
         "computeMinor": 0, "numSms": 108}]

def run(ddp, elapsed):
    ev, corr = [], 0
    for s in range(2):
        t0 = 300 * s
        ev.append(X("user_annotation", "ProfilerStep#%d" % (s + 1), t0, 230))
        for i in range(10):
            corr += 1
            ev.append(call(t0 + 20 * i, 20, corr))
            ev.append(K("vectorized_elementwise_kernel", t0 + 20 * i + 15, 3,
                        corr))
        if ddp:
            ev.append(X("user_annotation", "DistributedDataParallel.forward",
                        t0 + 200, 20))
        for j, name in enumerate(["cudaEventSynchronize",
                                  "cudaEventSynchronize"] +
                                 (["cudaEventElapsedTime"] if elapsed else [])):
            corr += 1
            ev.append(call(t0 + 201 + 3 * j, 2, corr, name))
    return {"deviceProperties": A100, "traceEvents": ev}

for name, ddp, el in (("ddp", 1, 1), ("noddp", 0, 1), ("notime", 1, 0)):
    json.dump(run(ddp, el), open("%s/%s.pt.trace.json" % (d, name), "w"))
PY

for c in ddp noddp notime; do
    "$PR_BIN" -q -i "$T_DIR/$c.pt.trace.json" --json "$T_DIR/$c.json" \
        2> "$T_DIR/$c.err"
    check "$c: summary written (exit $?)" [ -s "$T_DIR/$c.json" ]
done

# syncs.py FILE COUNT DDP WANT NOTWANT: the cudaEventSynchronize row counts
# COUNT, DDP of them DDP's logging; the launch advice holds WANT and not
# NOTWANT ("" for none)
cat > "$T_DIR/syncs.py" << 'PY'
import json, sys
f, n, ddp, want, notwant = sys.argv[1:6]
r = json.load(open(f))["runs"][0]
row = [c for c in r["synchronization"]["calls"]
       if c["name"] == "cudaEventSynchronize"][0]
assert row["count"] == int(n) and row["ddp_logging_count"] == int(ddp), row
t = [x["text"] for x in r["recommendations"] if x["id"] == "launch_bound"][0]
assert want in t, t
assert not notwant or notwant not in t, t
PY
check "DDP's logging syncs: counted apart, not to remove" python3 \
    "$T_DIR/syncs.py" "$T_DIR/ddp.json" 4 4 \
    "The 4 event synchronizations inside DistributedDataParallel.forward (2 a step) are DDP's own runtime-stats logging" \
    "remove them first"
check "no DDP range: the loop's syncs go first, per step" python3 \
    "$T_DIR/syncs.py" "$T_DIR/noddp.json" 4 0 \
    "the loop holds 4 synchronizing calls (cudaEventSynchronize 4, 2 a step): remove them first" \
    "DDP"
check "DDP range without an elapsed-time read: the loop's syncs" python3 \
    "$T_DIR/syncs.py" "$T_DIR/notime.json" 4 0 "remove them first" \
    "runtime-stats"

if have_shared && shared_summary nccl hta/nccl_parser_config/nccl_data.json.gz; then
    check "hta_nccl: its 24 event syncs are DDP's logging, 8 a step" python3 \
        "$T_DIR/syncs.py" "$T_DIR/nccl.json" 24 24 \
        "The 24 event synchronizations inside DistributedDataParallel.forward (8 a step) are DDP's own runtime-stats logging" \
        "remove them first"
else
    skip "hta_nccl: DDP's logging syncs" "no shared traces"
fi

echo "1..$T_N"
