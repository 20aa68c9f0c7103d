#!/bin/sh
# memory_words.sh - review22g item 12: the Memory section's words follow
# the run's producer and what its records hold.
#  - a Kineto trace whose CPU records all say 'Total Reserved': 0 (Kineto
#    writes 0 for the CPU, which has no caching allocator) beside 8 B
#    allocated: the CPU's reserve is not recorded (summary null, the KPI
#    "–" saying so), not "0 B"; its GPU's 4096 B reserve stays;
#  - an Nsight Systems export without memory events is told nsys's own
#    switch (--cuda-memory-usage=true, its no_memory note), never
#    torch.profiler's profile_memory=True; a Kineto trace without memory
#    events keeps profile_memory=True.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "memory words" "python3 with its sqlite3 module is needed"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" <<'PY'
import json, sys
d = sys.argv[1]
def X(cat, name, ts, dur, **kw):
    e = {"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": 1,
         "ts": ts, "dur": dur, "args": {}}
    e.update(kw)
    return e
def mem(ts, dev_type, dev_id, b, addr, total, reserved):
    return {"ph": "i", "s": "t", "name": "[memory]", "pid": 1, "tid": 1,
            "ts": ts, "args": {"Device Type": dev_type, "Device Id": dev_id,
                               "Bytes": b, "Addr": addr,
                               "Total Allocated": total,
                               "Total Reserved": reserved}}
props = [{"id": 0, "name": "NVIDIA A100-SXM4-80GB", "totalGlobalMem": 85e9,
          "computeMajor": 8, "computeMinor": 0, "numSms": 108}]
ev = [X("user_annotation", "ProfilerStep#1", 0, 100),
      X("cpu_op", "aten::add", 10, 20),
      X("cuda_runtime", "cudaLaunchKernel", 12, 5, args={"correlation": 1}),
      {"ph": "X", "cat": "kernel", "name": "add_kernel", "pid": 0, "tid": 7,
       "ts": 20, "dur": 30, "args": {"device": 0, "stream": 7,
                                      "correlation": 1}},
      mem(11, 0, -1, 8, 100, 8, 0), mem(13, 1, 0, 2048, 200, 2048, 4096),
      mem(25, 0, -1, -8, 100, 0, 0), mem(40, 1, 0, -2048, 200, 0, 4096)]
json.dump({"deviceProperties": props, "traceEvents": ev},
          open(d + "/mem.pt.trace.json", "w"))
json.dump({"deviceProperties": props,
           "traceEvents": [e for e in ev if e["name"] != "[memory]"]},
          open(d + "/nomem.pt.trace.json", "w"))
# the GPU's records without 'Total Reserved': no reserve to draw
for e in ev:
    if e["name"] == "[memory]":
        e["args"].pop("Total Reserved")
json.dump({"deviceProperties": props, "traceEvents": ev},
          open(d + "/nores.pt.trace.json", "w"))
PY
python3 - "$PR_SRCDIR/tests/data/nsys/basic.sql" "$T_DIR/basic.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.executescript(open(sys.argv[1]).read())
db.commit()
PY

"$PR_BIN" --quiet --input "$T_DIR/mem.pt.trace.json" --json "$T_DIR/mem.json" \
    --html "$T_DIR/mem.html" 2> "$T_DIR/err"
if python3 - "$T_DIR/mem.json" > "$T_DIR/why" <<'PY'
import json, sys
m = {x["device"]: x for x in json.load(open(sys.argv[1]))["runs"][0]["memory"]["devices"]}
got = ((m["CPU"]["peak_allocated_bytes"], m["CPU"]["peak_reserved_bytes"]),
       (m["GPU0"]["peak_allocated_bytes"], m["GPU0"]["peak_reserved_bytes"]))
if got != ((8, None), (2048, 4096)):
    print(got)
    sys.exit(1)
PY
then ok "CPU reserve all 0: not recorded (null); GPU0's 4096 B kept"
else not_ok "memory devices: $(cat "$T_DIR/why") $(head -c 200 "$T_DIR/err")"; fi
kpi=$(tr -d '\n' < "$T_DIR/mem.html" | grep -o 'CPU peak reserved</div>.\{0,200\}')
case $kpi in
*'k-value">–</div>'*'not recorded'*) ok "HTML: the CPU reserve KPI says not recorded" ;;
*) not_ok "HTML: CPU peak reserved KPI: $kpi" ;;
esac

# review 32g #9: the CPU's 8 B curve is not drawn (under 1 MiB: noise),
# the GPU's is, with its reserve line; without a recorded reserve the
# chart has no "Reserved" legend entry
sed 's/<wbr>//g' "$T_DIR/mem.html" > "$T_DIR/mem.txt"
check "HTML: no chart of the CPU's 8 B; the GPU's chart with its reserve" \
    sh -c "! grep -q 'Memory over time: CPU' '$T_DIR/mem.txt' &&
        grep -q 'Memory over time: GPU0' '$T_DIR/mem.txt' &&
        grep -q '>Reserved<' '$T_DIR/mem.txt'"
"$PR_BIN" --quiet --input "$T_DIR/nores.pt.trace.json" \
    --html "$T_DIR/nores.html" 2> "$T_DIR/err"
check "HTML: no reserve recorded, no Reserved legend entry" \
    sh -c "grep -q 'Memory over time: GPU0' '$T_DIR/nores.html' &&
        ! grep -q '>Reserved<' '$T_DIR/nores.html'"
"$PR_BIN" --quiet --input "$T_DIR/basic.sqlite" --html "$T_DIR/nsys.html" \
    2> "$T_DIR/err"
if grep -q "nsys profile --cuda-memory-usage=true" "$T_DIR/nsys.html" &&
   ! grep -q "profile_memory=True" "$T_DIR/nsys.html"; then
    ok "nsys export: nsys's own switch, not profile_memory=True"
else
    not_ok "nsys export: $(grep -o '[^>]*memory events[^<]*' "$T_DIR/nsys.html" | head -2)"
fi
"$PR_BIN" --quiet --input "$T_DIR/nomem.pt.trace.json" \
    --html "$T_DIR/nomem.html" 2> "$T_DIR/err"
if grep -q "No memory events in this trace (profile_memory=True records them)" \
        "$T_DIR/nomem.html"; then
    ok "Kineto trace: profile_memory=True"
else
    not_ok "Kineto trace: $(grep -o '[^>]*memory events[^<]*' "$T_DIR/nomem.html" | head -2)"
fi
echo "1..$T_N"
