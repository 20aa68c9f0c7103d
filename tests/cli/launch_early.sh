#!/bin/sh
# launch_early.sh - review26a #4: a launch delay of work that starts before
# its launch call returns is counted as 0 and said so, with its unit: on
# npu_trace_view 256 of 274 tasks start before their AscendCL call returns,
# and the reports read "Median launch delay 0 ... p90 0" (a bare 0, as if
# launches were instant).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    skip "early launches" "python3 is needed"
    echo "1..$T_N"
    exit 0
fi
# three kernels: two start inside their (long) launch call, one 20 us
# after its call returns
python3 - "$T_DIR" <<'PY'
import json, sys
ev = []
def X(cat, name, ts, dur, tid=1, pid=1, **args):
    ev.append({"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
               "ts": ts, "dur": dur, "args": args})
for i, (call, kern) in enumerate([(10, 15), (100, 105), (200, 250)]):
    X("cpu_op", "aten::mm", call - 2, 40, **{"External id": i + 1})
    X("cuda_runtime", "cudaLaunchKernel", call, 30,
      **{"External id": i + 1, "correlation": i + 1})
    X("kernel", "ampere_sgemm_128x64_nn", kern, 10, tid=7, pid=0,
      **{"External id": i + 1, "correlation": i + 1, "device": 0,
         "stream": 7})
json.dump({"schemaVersion": 1,
           "deviceProperties": [{"id": 0, "name": "NVIDIA A100-SXM4-80GB",
                                 "totalGlobalMem": 85097971712,
                                 "computeMajor": 8, "computeMinor": 0,
                                 "numSms": 108}],
           "traceEvents": ev}, open(sys.argv[1] + "/t.json", "w"))
PY
if "$PR_BIN" -q -i "$T_DIR/t.json" --json "$T_DIR/t.s.json" \
        --html "$T_DIR/t.html" 2>"$T_DIR/err"; then
    check "two of three kernels start before their call returns: counted" \
        python3 -c "
import json, sys
d = json.load(open(sys.argv[1]))['runs'][0]['launches']['launch_delay_us']
assert d['started_before_call_end'] == 2, d
assert d['median'] == 0 and d['max'] == 20, d
" "$T_DIR/t.s.json"
    check "HTML: the 0 has its unit and says what it hides" \
        python3 -c "
import html, re, sys
t = html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[1]).read()))
t = re.sub(r'\s+', ' ', t)
i = t.index('Median launch delay')
s = t[i:i + 300]
assert s.startswith('Median launch delay 0 µs '), s
assert '2 of 3 kernels started before their launch call returned, counted as 0 µs' in s, s
" "$T_DIR/t.html"
else
    sed 's/^/# /' "$T_DIR/err"
    not_ok "two of three kernels start before their call returns: counted"
    not_ok "HTML: the 0 has its unit and says what it hides"
fi
echo "1..$T_N"
