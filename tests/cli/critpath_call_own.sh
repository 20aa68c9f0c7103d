#!/bin/sh
# critpath_call_own.sh - the critical path books a task's launch wait
# from its launch call's start in two parts: the call's own time until it
# returned, by the call's name (host time), and only the rest as the
# launch-to-start delay, as the launch-wait note measures from the return
# (issue #29 #4 follow-up: nsys_mock's cudaMemcpyAsync held the host
# 589.5 us, its DtoH copy started 20.4 us after it returned, and the
# path's top read "(launch-to-start delay) 610 us").
#
# Hand-made A100 trace, three steps: kernel_A on stream 7 [10, 60) us,
# then a cudaMemcpyAsync at 13 us lasting 590 us whose pinned DtoH copy on
# stream 9 starts 20 us after the call returned; a cudaDeviceSynchronize
# waits for the copy, so the copy and its launch are on the path.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "critpath call own time" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
def K(cat, name, ts, dur, corr, stream, **a):
    return X(cat, name, ts, dur, pid=0, tid=stream, correlation=corr,
             device=0, stream=stream, **a)
A100 = [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "computeMajor": 8,
         "computeMinor": 0, "numSms": 108, "totalGlobalMem": 85899345920,
         "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
         "regsPerBlock": 65536, "regsPerMultiprocessor": 65536,
         "warpSize": 32, "sharedMemPerBlock": 49152,
         "sharedMemPerMultiprocessor": 167936}]
ev = []
for s in range(3):
    b, c = s * 10000, s * 10
    ev += [X("user_annotation", "ProfilerStep#%d" % s, b, 9000),
           X("cpu_op", "aten::foo", b + 1, 10),
           X("cuda_runtime", "cudaLaunchKernel", b + 2, 5, correlation=c + 1),
           K("kernel", "kernel_A", b + 10, 50, c + 1, 7),
           X("cpu_op", "aten::copy_", b + 12, 600),
           X("cuda_runtime", "cudaMemcpyAsync", b + 13, 590,
             correlation=c + 4),
           K("gpu_memcpy", "Memcpy DtoH (Device -> Pinned)", b + 623, 100,
             c + 4, 9, bytes=1 << 20),
           X("cuda_runtime", "cudaDeviceSynchronize", b + 605, 120,
             correlation=c + 5)]
json.dump({"deviceProperties": A100, "traceEvents": ev},
          open("%s/t.pt.trace.json" % d, "w"))
PY
"$PR_BIN" -q --input "$T_DIR/t.pt.trace.json" --json "$T_DIR/t.json" \
    --html "$T_DIR/t.html" 2> "$T_DIR/err"
check "summary written (exit $?; $(head -c 200 "$T_DIR/err"))" \
    [ -s "$T_DIR/t.json" ]
python3 -c "
import json, sys
cp = json.load(open(sys.argv[1]))['runs'][0]['critical_path']
for st in cp['steps']:
    for p in st['top']:
        print(st['step'], p['kind'], p['name'], round(p['us']))
" "$T_DIR/t.json" > "$T_DIR/top.txt" 2> "$T_DIR/err"
check "path tops read ($(head -c 200 "$T_DIR/err"))" [ -s "$T_DIR/top.txt" ]
check "the call's own 590 us is the call's, by name ($(grep -i memcpyasync "$T_DIR/top.txt" | head -1))" \
    grep -q "launch cudaMemcpyAsync 590$" "$T_DIR/top.txt"
check "the delay is the 20 us after the call returned ($(grep delay "$T_DIR/top.txt" | head -1))" \
    grep -q "launch (launch-to-start delay) 20$" "$T_DIR/top.txt"
check "no step books the call's time as delay" \
    sh -c '! grep -q "delay) 6[01][0-9]$" "$1"' _ "$T_DIR/top.txt"
# the launch replay's evidence holds the call's time once: the delay is
# the 20 us after the return, not 610 beside the call's 590
python3 -c "
import json, sys
cp = json.load(open(sys.argv[1]))['runs'][0]['critical_path']
for w in cp['what_if']:
    if w['id'] == 'launch_bound':
        for e in w['evidence']:
            print(e['name'], round(e['us']))
" "$T_DIR/t.json" > "$T_DIR/ev.txt" 2> "$T_DIR/err"
check "launch replay's evidence: cudaMemcpyAsync 590, delay 20 ($(tr '\n' ';' < "$T_DIR/ev.txt"))" \
    sh -c 'grep -q "^cudaMemcpyAsync 590$" "$1" && grep -q "^(launch-to-start delay) 20$" "$1"' _ "$T_DIR/ev.txt"
# the cudaDeviceSynchronize on the path: its column is the host's, apart
# from the device's stream waits (issue #30 #2: "Sync, ms" beside
# "Stream wait, ms")
check "the blocking calls' column reads Host sync, ms" \
    grep -q ">Host sync, ms<" "$T_DIR/t.html"
check "no bare Sync column" sh -c '! grep -q ">Sync, ms<" "$1"' _ "$T_DIR/t.html"
# issue #28 #2: the chart's legend and tooltips named the same time
# "Sync wait": one name, the table's, everywhere
check "the chart's legend reads Host sync" grep -q ">Host sync</text>" "$T_DIR/t.html"
check "no Sync wait anywhere" sh -c '! grep -q "Sync wait" "$1"' _ "$T_DIR/t.html"
echo "1..$T_N"
