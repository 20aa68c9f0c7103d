#!/bin/sh
# critpath_peer_wait.sh - review 7 finding 1: an HCCL collective whose own
# Notify Wait tasks take half its time or more waits for another rank,
# and ends when that rank's notify comes, not when this rank is ready
# (torch_npu/text_level1: hcom_allReduce__586_0_1 waits 78.8 ms of its
# 79.1 ms; both traced ranks end it together).  The replay keeps its
# measured end (critpath.c peer_waits), so work saved before it on this
# rank lengthens the wait instead of shortening the step.
# Hand-made torch_npu trace_view.json, whatif_replays.sh's aclop step
# with a 1000 µs hcom_allReduce on HCCL's group row at 752-1752 µs, 2 µs
# after Conv2D1 ends, and its Notify Wait (on "Ascend Hardware" stream 4
# and HCCL's plane) from 755 µs; the host's sync ends at 1755 µs, the
# step at 1760 µs.  Replayed with the aclop call at the aclnn call's 10
# us, Conv2D1 ends at 180 µs and the all-reduce starts at 182 µs:
#  - wait 400 µs (under half the operator): it is this rank's work and
#    ends at 1182 µs, the step at 1190 µs: 570 µs saved (32.39%), the
#    op_compile finding's gain;
#  - wait 990 µs (more than half): it ends at its measured 1752 µs, no
#    earlier than its start plus its 10 µs of non-wait time: nothing
#    saved; op_compile is not ranked (review 8 #4): the communication
#    finding leads with the peer note, bounds its own levers by the 10
#    us and binary kernels by the calls' 570 µs once the late rank is on
#    time, and accumulation is not replayed (review 8 #5); the verdict
#    says the other rank sets the step.  The replay stays exact in both.
. "$PR_SRCDIR/tests/lib.sh"
# the trace builders the HCCL tests share (tests/cli/lib/hccl_trace.py)
PYTHONPATH="$PR_SRCDIR/tests/cli/lib${PYTHONPATH:+:$PYTHONPATH}"
export PYTHONPATH

if ! command -v python3 > /dev/null 2>&1; then
    skip "a collective that waits for another rank" "no python3"
    echo "1..$T_N"
    exit 0
fi

# mk DIR WAIT_US
mk() {
    mkdir -p "$1/r_ascend_pt/ASCEND_PROFILER_OUTPUT"
    python3 - "$1/r_ascend_pt/ASCEND_PROFILER_OUTPUT/trace_view.json" \
        "$2" << 'PY'
import json, sys
wait = float(sys.argv[2])
from hccl_trace import A, proc, task, thread  # tests/cli/lib
ev = [A("ProfilerStep#1", 100, 100, 0, 1760, "cpu_op"),
      A("aten::conv2d", 100, 100, 10, 20, "cpu_op",
        **{"Sequence number": 1, "Fwd thread id": 0}),
      # a training step: a backward op beside the forward (a run without
      # one is inference, whose collectives no accumulation replays)
      A("aten::convolution_backward", 100, 100, 32, 2, "cpu_op"),
      A("AscendCL@aclrtSynchronizeDevice", 800, 100, 40, 1715),
      A("AscendCL@aclnnMm", 800, 200, 10, 10),
      A("AscendCL@aclopCompileAndExecute", 800, 200, 60, 580),
      A("AscendCL@opCompile", 800, 200, 62, 20),
      task("aclnnMm_MatMulV2_MatMulV2", 30, 20, 9),
      task("trans_TransData_0", 300, 10, 10, "AI_VECTOR_CORE"),
      task("Conv2D1", 650, 100, 11),
      A("hcom_allReduce__1_0_1", 950, 0, 752, 1000),
      task("Notify Wait", 755, wait, 12, "Notify Wait", 4),
      A("Notify_Wait", 950, 1, 755, wait,
        **{"task type": "Notify_Wait", "stream id": 4}),
      proc(100, "Python"), proc(800, "CANN"),
      proc(900, "Ascend Hardware"), proc(950, "HCCL"),
      thread(950, 0, "Group 0 Communication"), thread(950, 1, "Plane 0"),
      {"ph": "M", "name": "process_labels", "pid": 900, "tid": 0,
       "args": {"labels": "NPU 0"}}]
json.dump(ev, open(sys.argv[1], "w"))
PY
}

cat > "$T_DIR/pw.py" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
mode = sys.argv[2]
cp = r["critical_path"]
s = cp["steps"][0]
w = {x["id"]: x for x in cp["what_if"] or []}
recs = {x["id"]: x for x in (r["recommendations"] + r.get("observations", []))}
oc = recs.get("op_compile", {})
fail = []
if s["replay_error_pct"] != 0 or s["length_us"] != 1760:
    fail.append("replay %r" % s)
if mode == "self":
    a = w.get("aclop_binary", {})
    if abs(a.get("gain_us", 0) - 570) > 0.01 or \
            abs(a.get("gain_pct", 0) - 32.386) > 0.01:
        fail.append("aclop_binary %r" % a)
    if oc.get("gain_us") != a.get("gain_us") or cp["peer_wait_note"]:
        fail.append("op_compile %r, note %r" % (oc, cp["peer_wait_note"]))
    if "gradient_accumulation" not in w:  # replayed: no peer wait
        fail.append("what_if %r" % sorted(w))
else:
    a = w.get("aclop_binary")
    if a is not None and a["gain_pct"] >= 1:
        fail.append("aclop_binary %r" % a)
    note = cp["peer_wait_note"] or ""
    if "hcom_allReduce__1_0_1, spent 0.99 ms of its 1.00 ms in them" not in note:
        fail.append("note %r" % note)
    # review 8 #4: no gain on the path, no ranked op_compile finding
    if oc:
        fail.append("op_compile %r" % oc)
    c = recs.get("communication", {})
    f = r["verdict"]["findings"]
    t = c.get("text", "")
    if not t.startswith(note) or [x["id"] for x in f] != ["communication"]:
        fail.append("communication %r, findings %r" % (c, f))
    # review 8 #1, #6: the levers on the collective save at most its
    # 10 µs outside the 990 µs wait, once the late rank is on time; no
    # bandwidth; binary kernels then save at most the aclop calls' time
    # on the path, the 570 µs the 400 µs case replays
    for want in ("save at most 10 µs a step on this rank",
                 "saves at most half of the 10 µs",
                 "saves at most 570 µs a step once the late rank is on time"):
        if want not in t:
            fail.append("no %r in %r" % (want, t))
    if "bandwidth" in t or c.get("bound_us") != 990:
        fail.append("communication %r" % c)
    # review 8 #5: the changes every rank makes are not replayed on a
    # step that waits for another rank
    if "gradient_accumulation" in w or "low_gpu_utilization" in w:
        fail.append("what_if %r" % sorted(w))
    if "Notify Wait for another rank" not in r["verdict"]["text"]:
        fail.append("verdict %r" % r["verdict"]["text"])
print("\n".join(fail) if fail else "ok")
PY

for x in 400:self 990:peer; do
    us=${x%:*}
    m=${x#*:}
    mk "$T_DIR/w$us" "$us"
    if "$PR_BIN" -q --input "$T_DIR/w$us/r_ascend_pt" \
        --json "$T_DIR/w$us.json"; then
        res=$(python3 "$T_DIR/pw.py" "$T_DIR/w$us.json" "$m")
    else
        res="exit $?"
    fi
    [ "$res" = ok ] || echo "# $res"
    case $m in
    self) d="a ${us} µs wait is this rank's: the aclop replay saves 570 µs" ;;
    *) d="a ${us} µs wait of 1000 is for another rank: no gain on this rank" ;;
    esac
    check "$d" [ "$res" = ok ]
done

# review 7 finding 8: msprof's CANN 6 PROF_ folders draw HCCL's waits on
# the hardware streams as NOTIFY_WAIT; AllReduce-op534_0 (41.5 ms on
# rank 0) holds up to 32.75 ms of them on each of four streams.  The
# union of those inside it, from the raw file, is the note's figure; the
# gap before it is no longer "(collective wait, its tasks not read)".
P=$PR_SHARED/traces/msprof/mindinsight_cann6_PROF
if have_shared && [ -e "$P" ]; then
    cat > "$T_DIR/cann6.py" << 'PY'
import glob, json, os, sys
prof, summary = sys.argv[1], sys.argv[2]
s = json.load(open(summary))
fail = []
for dev in sorted(glob.glob(os.path.join(prof, 'PROF_*', 'device_*'))):
    rank = json.load(open(glob.glob(dev + '/info.json.*')[0]))['rank_id']
    ev = json.load(open(glob.glob(dev + '/timeline/msprof_*.json')[0]))
    hw = {e['pid'] for e in ev if e.get('ph') == 'M' and
          e['name'] == 'process_name' and e['args']['name'] == 'Ascend Hardware'}
    ar = [e for e in ev if e.get('ph') == 'X' and 'AllReduce' in e['name']][0]
    a0, a1 = float(ar['ts']), float(ar['ts']) + float(ar['dur'])
    w = sorted((float(e['ts']), float(e['ts']) + float(e['dur']))
               for e in ev if e.get('ph') == 'X' and e['pid'] in hw and
               e['name'] == 'NOTIFY_WAIT' and a0 <= float(e['ts']) < a1)
    cover, at = 0.0, a0
    for b, e in w:
        b, e = max(b, at), min(e, a1)
        if e > b:
            cover += e - b
            at = e
    r = [x for x in s['runs'] if x['worker'] == 'rank%d' % rank][0]
    cp = r['critical_path']
    want = 'spent %.2f ms of its %.2f ms' % (cover / 1e3, float(ar['dur']) / 1e3)
    if cover * 2 < float(ar['dur']) or want not in (cp['peer_wait_note'] or ''):
        fail.append('rank%d: %s, note %r' % (rank, want, cp['peer_wait_note']))
    top = [t['name'] for st in cp['steps'] for t in st['top']]
    if '(collective wait, its tasks not read)' in top:
        fail.append('rank%d: path %r' % (rank, top))
    c = [x for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'communication']
    # review 10 #1: an estimate, the late rank alone on time, or with the
    # rank close behind it (review 11 #3: ranks 2 and 3; late_rank.sh
    # checks both against the raw waits), under the bound, the wait
    lp = r['late_peer']
    est = lp['alone_us'] if lp.get('group_us') is None else lp['group_us']
    # review 31 #6: the capture is the job's first iteration alone, so
    # the finding claims neither figure a step; its note gives the wait
    if not c or c[0].get('gain_us') is not None or c[0].get('bound_us') or \
            not (0 < est < cover) or \
            '%.1f ms' % (cover / 1e3) not in c[0].get('gain_note', ''):
        fail.append('rank%d: communication %r' % (rank, c))
    # review 8 #6: once the late rank is on time, buckets and bytes save
    # at most the all-reduce's time outside its NOTIFY_WAIT (3.1 / 5.0 ms)
    want = 'save at most %.1f ms a step on this rank' % (
        (float(ar['dur']) - cover) / 1e3)
    if c and (want not in c[0]['text'] or 'bandwidth' in c[0]['text']):
        fail.append('rank%d: %r not in %r' % (rank, want, c[0]['text']))
print('\n'.join(fail) if fail else 'ok')
PY
    "$PR_BIN" -q --input "$P" --json "$T_DIR/cann6.json"
    res=$(python3 "$T_DIR/cann6.py" "$P" "$T_DIR/cann6.json")
    [ "$res" = ok ] || echo "# $res"
    check "msprof CANN 6: NOTIFY_WAIT tasks read, the all-reduce waits for another rank" \
        [ "$res" = ok ]
else
    skip "msprof CANN 6 peer waits" "no $P"
fi
echo "1..$T_N"
