#!/bin/sh
# device_unrecorded.sh - review23g item 3: a Kineto trace of cpu_op events
# and NCCL collectives but no kernel, copy or runtime call (HTA's
# rank_non_gpu / distributed_info_not_found: nccl:all_to_all x6 and
# record_param_comms, no CUDA activity) is a GPU job whose device side was
# not recorded, not "A CPU-only run": its verdict names no bound (bound
# "unexplained", "not known"), never "Bound by the host" nor "a process
# that launched none", and points at the host calls that waited on the
# unseen GPU (a 123-element aten::copy_ of 3 ms, .item() 2 ms).  The same
# trace without the collective stays "A CPU-only run" bound by the host.
# review24 #2: every part of such a run's report agrees with that verdict:
# critical_path.bound null (not "host"), the cause worded as what the trace
# shows ("CUDA activity not recorded: off in the profiler, or removed from
# the file"), the No-finding line "the device side is not in the trace",
# and the host_unrecorded note (a 20 ms step, 71% in no operator) without
# "a host-bound reading"; the CPU-only twin keeps all three.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    skip "device side not recorded" "python3 is needed"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR/nccl.json" "$T_DIR/cpu.json" "$T_DIR/nccl20.json" \
    "$T_DIR/cpu20.json" <<'PY'
import json, sys
def X(cat, name, ts, dur, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": 1, "tid": 1,
            "ts": ts, "dur": dur, "args": args}
base = [X("user_annotation", "ProfilerStep#1", 0, 10000),
        X("cpu_op", "aten::add", 100, 500,
          **{"Input Dims": [[1024], [1024]], "Input type": ["float", "float"]}),
        X("cpu_op", "aten::copy_", 1000, 3000,
          **{"Input Dims": [[123], [123], []],
             "Input type": ["long", "long", "Scalar"]}),
        X("cpu_op", "aten::_local_scalar_dense", 5000, 2000,
          **{"Input Dims": [[]], "Input type": ["long"]})]
coll = X("user_annotation", "nccl:all_reduce", 8000, 300,
         **{"Input Dims": [[262144]], "Input type": ["float"]})
json.dump({"traceEvents": base + [coll]}, open(sys.argv[1], "w"))
json.dump({"traceEvents": base}, open(sys.argv[2], "w"))
base[0] = X("user_annotation", "ProfilerStep#1", 0, 20000)
json.dump({"traceEvents": base + [coll]}, open(sys.argv[3], "w"))
json.dump({"traceEvents": base}, open(sys.argv[4], "w"))
PY
for c in nccl cpu nccl20 cpu20; do
    if ! "$PR_BIN" --quiet --input "$T_DIR/$c.json" --json "$T_DIR/$c.s.json" \
            --html "$T_DIR/$c.html" > "$T_DIR/$c.term" 2> "$T_DIR/err"; then
        not_ok "run $c: $(head -c 200 "$T_DIR/err")"
        echo "1..$T_N"
        exit 0
    fi
done
if python3 - "$T_DIR/nccl.s.json" > "$T_DIR/why" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
v = r["verdict"]
t = v["text"]
bad = []
if r.get("host_only") is not True:
    bad.append("host_only %s" % r.get("host_only"))
if v.get("bound") != "unexplained":
    bad.append("bound %s" % v.get("bound"))
if not t.startswith("The device side was not recorded (1 step, mean step "
                    "10.0 ms): the trace holds 1 NCCL collective call "
                    "(nccl:all_reduce), which run as GPU kernels, but "
                    "records no device activity"):
    bad.append("lead: %s" % t[:240])
for w in ("what bounds the step is not known",
          "aten::copy_ of 123 elements 3.0 ms",
          "aten::_local_scalar_dense (.item()) 2.0 ms",
          "took 5.0 ms here (50% of the mean step)"):
    if w not in t:
        bad.append("missing %r in %s" % (w, t))
if ("CUDA activity not recorded: off in the profiler, or removed from the "
        "file)") not in t:
    bad.append("cause not worded as what the trace shows: %s" % t)
nf = v.get("no_finding") or ""
if "the device side is not in the trace" not in nf or "shortens" in nf:
    bad.append("no_finding %r" % nf)
if r["critical_path"].get("bound") is not None:
    bad.append("critical_path.bound %r" % r["critical_path"].get("bound"))
for s in r["critical_path"].get("steps") or []:
    if s.get("bound") is not None:  # review 25g #2: the steps' too
        bad.append("critical_path.steps[].bound %r" % s.get("bound"))
for w in ("CPU-only", "Bound by", "launched none", "aten::add",
          "CUDA activity off"):
    if w in t:
        bad.append("says %r: %s" % (w, t))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
then ok "NCCL, no device activity: device side not recorded, no bound, the host's waits named"
else not_ok "NCCL verdict: $(cat "$T_DIR/why")"; fi
if grep -q "CPU-only\|CPU only\|launched none" "$T_DIR/nccl.html" "$T_DIR/nccl.term"
then not_ok "NCCL reports: $(grep -o '.\{60\}CPU.only.\{20\}\|launched none' "$T_DIR/nccl.html" "$T_DIR/nccl.term" | head -2)"
else ok "NCCL reports: no 'CPU-only', 'CPU only' or 'launched none'"; fi
"$PR_BIN" table -i "$T_DIR/nccl.json" --kind critical-path --csv > "$T_DIR/cp.csv" 2>&1
check "NCCL: the critical-path table's CSV names no bound (review 25g #2)" \
    python3 -c "
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r['bound'] == '' for r in rows), rows
" "$T_DIR/cp.csv"
check "NCCL HTML header: the device is a GPU not recorded" \
    grep -q "GPU, not recorded (NCCL calls)" "$T_DIR/nccl.html"
check "no collective: still A CPU-only run bound by the host" python3 -c "
import json, sys
v = json.load(open(sys.argv[1]))['runs'][0]['verdict']
assert v['bound'] == 'host', v
assert v['text'].startswith('A CPU-only run (1 step'), v['text']
" "$T_DIR/cpu.s.json"
check "no collective: the path is the host's, no-finding line unchanged" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['critical_path']['bound'] == 'host', r['critical_path']['bound']
nf = r['verdict'].get('no_finding') or ''
assert 'device side' not in nf, nf
" "$T_DIR/cpu.s.json"
check "NCCL, 71% of the step in no operator: the note gives no host-bound reading" \
    python3 -c "
import json, sys
n = json.load(open(sys.argv[1]))['runs'][0]['host_coverage']['note']
assert 'host-bound reading' not in n, n
assert 'rest on time it does not explain' in n, n
assert 'waits on the GPU, whose activity the trace does not record' in n, n
" "$T_DIR/nccl20.s.json"
check "CPU-only, 71% in no operator: the note keeps the host-bound reading" \
    python3 -c "
import json, sys
n = json.load(open(sys.argv[1]))['runs'][0]['host_coverage']['note']
assert 'a host-bound reading and the host findings would rest on' in n, n
assert 'waits on the GPU' not in n, n
" "$T_DIR/cpu20.s.json"
echo "1..$T_N"
