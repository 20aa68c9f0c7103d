#!/bin/sh
# loader_idle.sh - device idle inside the DataLoader's next()
# (temporal_breakdown[].idle_dataloader_us/_pct, hostdev.c; the Host and
# device section's words, sec_hostdev.c; review 22g item 8: tb_plugin's
# resnet50_num_workers_0 spends 77% of its idle there, and the section
# told it to launch faster, with CUDA graphs).  A hand-made trace of two
# 100 ms steps: the DataLoader's next() holds the first 60 ms of each,
# then 30 launches of 1 ms kernels; the same trace with a 60 ms host
# operator in place of the DataLoader range keeps the launch words.  Then tb_plugin's trace (../shared).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "data loader idle" "no python3"
    echo "1..$T_N"
    exit 0
fi

# mk FILE LOADER: LOADER 1 records the DataLoader's next() ranges, 0 an
# operator over the same time (host work the trace explains)
mk() {
    python3 - "$1" "$2" << 'PY'
import json, sys
path, loader = sys.argv[1], sys.argv[2] == "1"
ms = 1000.0
ev = []
def x(cat, name, tid, ts, dur, pid=7, **args):
    ev.append({"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
               "ts": ts, "dur": dur, "args": args})
ext = 0
for k in range(2):
    t0 = k * 100 * ms
    x("user_annotation", "ProfilerStep#%d" % (k + 1), 1, t0, 100 * ms)
    if loader:
        x("user_annotation",
          "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__", 1,
          t0, 60 * ms)
    else:
        x("cpu_op", "aten::index_select", 1, t0, 60 * ms)
    for i in range(30):
        ext += 1
        ts = t0 + 60 * ms + i * 1.2 * ms
        x("cpu_op", "aten::relu", 1, ts, 1 * ms, **{"External id": ext})
        x("cuda_runtime", "cudaLaunchKernel", 1, ts + 10, 20,
          **{"External id": ext, "correlation": ext})
        x("kernel", "relu_kernel", 0, ts + 40, 1 * ms, pid=0,
          **{"External id": ext, "correlation": ext, "device": 0,
             "stream": 7})
json.dump({"schemaVersion": 1,
           "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-40GB",
                                 "computeMajor": 8, "computeMinor": 0,
                                 "numSms": 108}],
           "traceEvents": ev}, open(path, "w"))
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

mk "$T_DIR/dl.json" 1
mk "$T_DIR/nodl.json" 0
for f in dl nodl; do
    "$PR_BIN" -q --input "$T_DIR/$f.json" --json "$T_DIR/$f.s.json" \
        --html "$T_DIR/$f.html"
done
check "summary written" [ -s "$T_DIR/dl.s.json" ]
# both steps' 60 ms of loading lie inside the steps' window, all idle
u=$(field "$T_DIR/dl.s.json" "round(r['temporal_breakdown'][0]['idle_dataloader_us'])")
check "idle inside the DataLoader's next(): 2 x 60 ms ($u us)" test "$u" = 120000
p=$(field "$T_DIR/dl.s.json" "r['temporal_breakdown'][0]['idle_dataloader_pct'] > 50")
check "most of the idle is the data loader's" test "$p" = True
u=$(field "$T_DIR/nodl.s.json" "r['temporal_breakdown'][0]['idle_dataloader_us']")
check "no DataLoader range: none (got $u)" test "$u" = 0
check "the section says the device waited for its input" \
    grep -q "lies inside the DataLoader&#39;s next(): it waited for its input, not for kernel launches\|lies inside the DataLoader's next(): it waited for its input, not for kernel launches" "$T_DIR/dl.html"
check "and gives no launch remedy without the launch evidence" \
    test "$(sed -n '/<section id="host-device">/,/<\/section>/p' "$T_DIR/dl.html" | grep -c 'CUDA graphs (mode=')" = 0
check "without the loader the launch words stay" \
    grep -q "the CPU did not launch work fast enough" "$T_DIR/nodl.html"

if ! have_shared; then
    skip "tb_plugin ResNet-50" "no ../shared/traces"
    echo "1..$T_N"
    exit 0
fi
if shared_report rn tb_plugin/resnet50_num_workers_0; then
    check "resnet50: 77% of the first span's idle inside the DataLoader" \
        test "$(field "$T_DIR/rn.json" "round(r['temporal_breakdown'][0]['idle_dataloader_pct'])")" = 77
    check "resnet50: the section gives data-loader advice, not CUDA graphs" \
        test "$(sed -n '/<section id="host-device">/,/<\/section>/p' "$T_DIR/rn.html" | grep -c 'of its idle time (356 ms of 462 ms) lies inside the DataLoader')-$(sed -n '/<section id="host-device">/,/<\/section>/p' "$T_DIR/rn.html" | grep -c 'CUDA graphs (mode=')" = 1-0
else
    skip "tb_plugin ResNet-50" "no tb_plugin/resnet50_num_workers_0"
fi
echo "1..$T_N"
