#!/bin/sh
# host_cards.sh - a host-only run's Overview cards and device words
# (review24 #2, #7).
#
# In operators: the share of the step's host time inside a recorded
# operator or collective (host_coverage), not the breakdown's CPU exec.
# A 10 ms step with aten::add 0.5 ms, aten::copy_ 3 ms and .item() 2 ms
# is 55.0% in operators; with a gloo:all_reduce of 8 ms beside aten::add
# (HTA's cpu_only: 85% of its step in gloo) 85.0%, where the breakdown's
# CPU exec reads 5.0% (communication takes the collective, Other the
# 1.5 ms in no call).  HTML and PDF say the same; a summary without host coverage gets
# the breakdown's share titled "CPU exec", never "In operators".
#
# runs[].device_not_recorded: "nccl_calls" for a host-only run with NCCL
# collectives (rank_non_gpu), "devices_named" for one whose
# deviceProperties name a GPU it records no work of, null for a CPU-only
# run; the HTML and PDF Devices cell is read from it (a summary whose key
# says null reads "CPU only", one whose key says nccl_calls reads "GPU,
# not recorded (NCCL calls)"), and a summary older than the key is judged
# from its collectives as before.  The PDF cover's rows of named GPUs say
# "(no device work recorded)" as the HTML header does (dist_unavail's 8
# A100s read as GPUs that ran).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    skip "host-only cards" "python3 is needed"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" <<'PY'
import json, sys, os
d = sys.argv[1]
def X(cat, name, ts, dur, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": 1,
            "ts": ts, "dur": dur, "args": args}
step = X("user_annotation", "ProfilerStep#1", 0, 10000)
add = X("cpu_op", "aten::add", 100, 500,
        **{"Input Dims": [[1024], [1024]], "Input type": ["float", "float"]})
cpu = [step, add,
       X("cpu_op", "aten::copy_", 1000, 3000,
         **{"Input Dims": [[123], [123], []],
            "Input type": ["long", "long", "Scalar"]}),
       X("cpu_op", "aten::_local_scalar_dense", 5000, 2000,
         **{"Input Dims": [[]], "Input type": ["long"]})]
gloo = [step, add,
        X("user_annotation", "gloo:all_reduce", 1000, 8000,
          **{"Input Dims": [[262144]], "Input type": ["float"]})]
nccl = cpu + [X("user_annotation", "nccl:all_reduce", 8000, 300,
                **{"Input Dims": [[262144]], "Input type": ["float"]})]
dev = {"id": 0, "name": "NVIDIA A100-SXM4-80GB",
       "totalGlobalMem": 85899345920, "computeMajor": 8, "computeMinor": 0,
       "numSms": 108}
json.dump({"traceEvents": cpu}, open(os.path.join(d, "cpu.json"), "w"))
json.dump({"traceEvents": gloo}, open(os.path.join(d, "gloo.json"), "w"))
json.dump({"traceEvents": nccl}, open(os.path.join(d, "nccl.json"), "w"))
json.dump({"traceEvents": cpu, "deviceProperties": [dev]},
          open(os.path.join(d, "devs.json"), "w"))
PY
for c in cpu gloo nccl devs; do
    if ! "$PR_BIN" --quiet --input "$T_DIR/$c.json" --json "$T_DIR/$c.s.json" \
            --html "$T_DIR/$c.html" --pdf "$T_DIR/$c.pdf" 2> "$T_DIR/err"; then
        not_ok "run $c: $(head -c 200 "$T_DIR/err")"
        echo "1..$T_N"
        exit 0
    fi
done

# card NAME HTML: the card's value and sub-line, "98.7%|of the ..."
card() {
    python3 - "$1" "$2" <<'PY'
import re, sys
h = open(sys.argv[2]).read()
m = re.search(r'<div class="k-label">%s</div><div class="k-value">([^<]*)'
              r'</div><div class="k-sub">([^<]*)</div>' % re.escape(sys.argv[1]),
              h)
print("%s|%s" % (m.group(1), m.group(2).replace("&#39;", "'")) if m else "")
PY
}

# --- In operators: recorded host time, not CPU exec ---
got=$(card "In operators" "$T_DIR/cpu.html")
if [ "$got" = "55.0%|of the step's host time inside a recorded operator or collective" ]
then ok "cpu: In operators 55.0% of the step's host time (5.5 of 10 ms recorded)"
else not_ok "cpu: In operators card: '$got'"; fi
got=$(card "In operators" "$T_DIR/gloo.html")
if [ "$got" = "85.0%|of the step's host time inside a recorded operator or collective" ]
then ok "gloo: In operators 85.0% (aten::add and gloo:all_reduce: 8.5 of 10 ms)"
else not_ok "gloo: In operators card: '$got'"; fi
check "gloo: the breakdown's CPU exec, which the card used to show, is 5% (aten::add alone)" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
b = r['step_summary']['breakdown_us']
assert b['cpu_exec'] == 500 and b['communication'] == 8000, b
assert r['host_coverage']['unrecorded_pct'] == 15.0, r['host_coverage']
" "$T_DIR/gloo.s.json"
if grep -q "(CPU exec)" "$T_DIR/cpu.html" "$T_DIR/gloo.html"
then not_ok "a card still says '(CPU exec)'"
else ok "no card says 'In operators ... (CPU exec)'"; fi
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext -layout "$T_DIR/gloo.pdf" "$T_DIR/gloo.txt"
    check "gloo PDF: In operators 85.0%, its sub-line as in the HTML" \
        python3 -c "
import re, sys
t = re.sub(r'\s+', ' ', open(sys.argv[1]).read())
assert re.search(r'In operators .{0,60}85\.0%', t), t[:1500]
assert 'inside a recorded' in t and 'operator or collective' in t, t[:1500]
assert 'CPU exec)' not in t, t[:1500]
" "$T_DIR/gloo.txt"
else
    skip "gloo PDF: In operators" "no pdftotext"
fi

# a summary without host coverage: the breakdown's share, titled CPU exec
python3 - "$T_DIR/gloo.s.json" "$T_DIR/gloo.nocov.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
s["runs"][0]["host_coverage"] = None
json.dump(s, open(sys.argv[2], "w"))
PY
if "$PR_BIN" -q --input "$T_DIR/gloo.nocov.json" --html "$T_DIR/nocov.html" \
        2> "$T_DIR/err"; then
    got=$(card "CPU exec" "$T_DIR/nocov.html")
    none=$(card "In operators" "$T_DIR/nocov.html")
    case $got in
    "5.0%|of the mean step: host time outside the data loader,"*)
        if [ -z "$none" ]; then ok "no host coverage: the card is CPU exec 5.0%, not In operators"
        else not_ok "no host coverage: still In operators '$none'"; fi ;;
    *) not_ok "no host coverage: CPU exec card '$got'" ;;
    esac
else
    not_ok "render the summary without host coverage: $(head -c 200 "$T_DIR/err")"
fi

# --- device_not_recorded ---
check "device_not_recorded: nccl_calls / null (CPU only) / devices_named" \
    python3 -c "
import json, sys
want = {'nccl': 'nccl_calls', 'cpu': None, 'gloo': None,
        'devs': 'devices_named'}
for c, w in want.items():
    r = json.load(open(sys.argv[1] + '/' + c + '.s.json'))['runs'][0]
    assert r['host_only'] is True, (c, r['host_only'])
    assert r['device_kind'] is None, (c, r['device_kind'])
    assert 'device_not_recorded' in r, c
    assert r['device_not_recorded'] == w, (c, r['device_not_recorded'])
" "$T_DIR"
check "Devices cells: NCCL run 'GPU, not recorded', named GPU '(no device work recorded)', CPU run 'CPU only'" \
    sh -c 'grep -q "Devices</dt><dd>GPU, not recorded (NCCL calls)</dd>" "$1/nccl.html" &&
           grep -q "Devices</dt><dd>NVIDIA A100-SXM4-80GB (no device work recorded)</dd>" "$1/devs.html" &&
           grep -q "Devices</dt><dd>CPU only</dd>" "$1/cpu.html"' _ "$T_DIR"

# the renderers read the key: flip it in saved summaries, and drop it (an
# older summary: judged from its collectives)
python3 - "$T_DIR" <<'PY'
import json, sys
d = sys.argv[1]
s = json.load(open(d + "/nccl.s.json"))
s["runs"][0]["device_not_recorded"] = None
json.dump(s, open(d + "/nccl.null.json", "w"))
del s["runs"][0]["device_not_recorded"]
json.dump(s, open(d + "/nccl.old.json", "w"))
s = json.load(open(d + "/cpu.s.json"))
s["runs"][0]["device_not_recorded"] = "nccl_calls"
json.dump(s, open(d + "/cpu.nccl.json", "w"))
PY
for c in nccl.null nccl.old cpu.nccl; do
    "$PR_BIN" -q --input "$T_DIR/$c.json" --html "$T_DIR/$c.html" \
        --pdf "$T_DIR/$c.pdf" 2> "$T_DIR/err" ||
        not_ok "render $c: $(head -c 200 "$T_DIR/err")"
done
check "HTML Devices from the key: null 'CPU only', nccl_calls 'GPU, not recorded', absent judged as before" \
    sh -c 'grep -q "Devices</dt><dd>CPU only</dd>" "$1/nccl.null.html" &&
           grep -q "Devices</dt><dd>GPU, not recorded (NCCL calls)</dd>" "$1/cpu.nccl.html" &&
           grep -q "Devices</dt><dd>GPU, not recorded (NCCL calls)</dd>" "$1/nccl.old.html"' _ "$T_DIR"
if command -v pdftotext > /dev/null 2>&1; then
    for c in nccl.null cpu.nccl nccl; do
        pdftotext -layout "$T_DIR/$c.pdf" "$T_DIR/$c.txt"
    done
    pdftotext -layout "$T_DIR/devs.pdf" "$T_DIR/devs.txt"
    check "PDF cover: a named GPU of no recorded work says so, as the HTML" \
        grep -q "0: NVIDIA A100-SXM4-80GB (no device work recorded)" \
        "$T_DIR/devs.txt"
    pdftotext -layout "$T_DIR/gloo.pdf" "$T_DIR/gloo.txt"
    check "PDF cover: a CPU-only run's row says CPU only, no such words" \
        sh -c 'grep -q "CPU only" "$1" && ! grep -q "no device work recorded" "$1"' _ "$T_DIR/gloo.txt"
    check "PDF cover Devices from the key, as the HTML" \
        sh -c '! grep -q "GPU, not recorded (NCCL calls)" "$1/nccl.null.txt" &&
               grep -q "CPU only" "$1/nccl.null.txt" &&
               grep -q "GPU, not recorded (NCCL calls)" "$1/cpu.nccl.txt" &&
               grep -q "GPU, not recorded (NCCL calls)" "$1/nccl.txt"' _ "$T_DIR"
else
    skip "PDF cover: named GPU" "no pdftotext"
    skip "PDF cover: CPU only" "no pdftotext"
    skip "PDF cover Devices" "no pdftotext"
fi
# the real traces (../shared): HTA's rank_non_gpu (6 nccl:all_to_all, no
# CUDA activity; 63% of its 75.5 ms step in no recorded call: was "In
# operators 98.7%") and cpu_only (gloo; was "In operators 0.0%")
if have_shared &&
    shared_report rng hta/rank_non_gpu/rank_non_gpu.json.gz &&
    shared_report cpuonly hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz; then
    a=$(card "In operators" "$T_DIR/rng.html")
    b=$(card "In operators" "$T_DIR/cpuonly.html")
    if [ "${a%%|*}" = "37.0%" ] && [ "${b%%|*}" = "85.1%" ]
    then ok "rank_non_gpu In operators 37.0%, hta cpu_only 85.1%"
    else not_ok "real cards: rank_non_gpu '$a', cpu_only '$b'"; fi
    check "rank_non_gpu device_not_recorded nccl_calls, cpu_only null" \
        python3 -c "
import json, sys
a = json.load(open(sys.argv[1]))['runs'][0]
b = json.load(open(sys.argv[2]))['runs'][0]
assert a['device_not_recorded'] == 'nccl_calls', a['device_not_recorded']
assert b['device_not_recorded'] is None, b['device_not_recorded']
" "$T_DIR/rng.json" "$T_DIR/cpuonly.json"
else
    skip "real host-only cards" "../shared traces absent"
    skip "real device_not_recorded" "../shared traces absent"
fi
echo "1..$T_N"
