#!/bin/sh
# critpath_stream_wait.sh - issue #29: a device stream waiting for another
# stream of its device is stream_wait, device time; only a host call
# blocked on the device is sync_wait, host time.
#
# Hand-made 400 us step: cudaLaunchKernel (10-15) of a 100 us sgemm on
# stream 7 (20-120), cudaEventRecord behind it, cudaStreamWaitEvent with
# its "Stream Wait Event" record on stream 9, a launch (22-27) of a 60 us
# kernel on stream 9 that starts at 300: 180 us after the sgemm it waits
# for ended, a wait on the device.  The host blocks in
# cudaDeviceSynchronize (30-365) until 5 us after that kernel ends, then
# works to 400.  Path: 20 host/launch + 100 sgemm + 180 stream wait + 60
# kernel + 5 sync + 35 host.  The 180 us are stream_wait (not sync_wait:
# sync_wait is the sync's own 5 us), and they count on the device side:
# device 340 against host 60, bound "device" (with the wait counted as the
# host's, host 240 against kernel 160 read "host").  The host_sync what-if
# removes only the host's blocking call, never the device's wait: the
# step still ends with stream 9's kernel at 360.
# The same trace with the kernel starting at 121 waits 1 us on stream 9;
# its sync is still 5 us and the host's 224 us of work bound it.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "stream waits on the critical path" "no python3"
    echo "1..$T_N"
    exit 0
fi

# make FILE START_US: the trace above with the stream 9 kernel at START_US
make() {
    python3 - "$@" << 'PY'
import json, sys
s = float(sys.argv[2])
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
def K(name, ts, dur, corr, stream=7):
    return X("kernel", name, ts, dur, pid=0, tid=stream, correlation=corr,
             device=0, stream=stream)
def launch(ts, dur, corr, name="cudaLaunchKernel"):
    return X("cuda_runtime", name, ts, dur, correlation=corr)
ev = [X("user_annotation", "ProfilerStep#1", 0, 400),
      launch(10, 5, 1), K("volta_sgemm_128x64_nn", 20, 100, 1),
      launch(16, 2, 2, "cudaEventRecord"),
      launch(19, 2, 3, "cudaStreamWaitEvent"),
      X("cuda_sync", "Stream Wait Event", 19, 1, pid=0, tid=9,
        correlation=3, stream=9),
      launch(22, 5, 4), K("vectorized_elementwise_kernel", s, 60, 4, 9),
      X("cuda_runtime", "cudaDeviceSynchronize", 30, s + 65 - 30,
        correlation=5)]
json.dump({"traceEvents": ev}, open(sys.argv[1], "w"))
PY
}

cat > "$T_DIR/cp.py" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
cp = r["critical_path"]
s = cp["steps"][0]
k = s["by_kind_us"]
top = {(t["name"], t["kind"]): t["us"] for t in s["top"]}
w = {x["id"]: x for x in cp["what_if"] or []}
ok = eval(" ".join(sys.argv[2].split()))
if not ok:
    print(json.dumps(s, indent=1), json.dumps(w.get("host_sync")),
          file=sys.stderr)
sys.exit(0 if ok else 1)
PY
cp() { python3 "$T_DIR/cp.py" "$T_DIR/$1.json" "$2"; }

make "$T_DIR/wait.pt.trace.json" 300
make "$T_DIR/near.pt.trace.json" 121
for c in wait near; do
    "$PR_BIN" -q --input "$T_DIR/$c.pt.trace.json" --json "$T_DIR/$c.json" \
        --html "$T_DIR/$c.html"
    check "$c: report written (exit $?)" [ -s "$T_DIR/$c.json" ]
done

check "wait: the 400 us step replays whole, its kinds add up to it" \
    cp wait "s['length_us'] == 400 and s['replay_error_pct'] == 0 and
             sum(k.values()) == s['length_us']"
check "wait: the 180 us on stream 9 are a stream wait" \
    cp wait "k['stream_wait'] == 180 and
             top[('(stream waits for another stream)', 'stream_wait')] == 180"
check "wait: sync_wait is the blocking call's own 5 us only" \
    cp wait "k['sync_wait'] == 5 and
             top[('cudaDeviceSynchronize', 'sync_wait')] == 5"
check "wait: the stream wait is device time: bound by the device, not the host" \
    cp wait "k['kernel'] == 160 and s['bound'] == 'device' and
             cp['bound'] == 'device'"
# without the blocking call the host's last 35 us overlap the device, the
# step still ends when stream 9's kernel does, at 360 (40 us saved)
check "wait: the host_sync what-if saves none of the device's wait" \
    cp wait "w['host_sync']['step_us'] == 360 and
             w['host_sync']['gain_us'] == 40"
check "wait: the run's mean kinds carry stream_wait too" \
    cp wait "cp['by_kind_us']['stream_wait'] == 180 and
             cp['by_kind_us']['sync_wait'] == 5"
check "wait: the report's path table has a Stream wait column" \
    grep -q "Stream wait, ms" "$T_DIR/wait.html"
check "near: a 1 us stream wait, the sync still 5 us, the host's 224 us bound it" \
    cp near "k['stream_wait'] == 1 and k['sync_wait'] == 5 and
             k['host_op'] == 224 and s['bound'] == 'host' and
             sum(k.values()) == s['length_us']"

"$PR_BIN" table --kind critical-path --csv \
    --input "$T_DIR/wait.json" > "$T_DIR/wait.csv" 2> "$T_DIR/wait.err"
check "table: the critical-path CSV has a stream_wait column of 180" \
    python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and 'stream_wait_us' in rows[0], rows
assert float(rows[0]['stream_wait_us']) == 180, rows[0]
assert float(rows[0]['sync_wait_us']) == 5, rows[0]
" "$T_DIR/wait.csv"
echo "1..$T_N"
