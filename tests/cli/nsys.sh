#!/bin/sh
# nsys.sh - Nsight Systems exports end to end: each real export in
# ../shared/traces/nsys gives the kernel count, kernel time, top kernel and
# step count that Python's sqlite3 module computes from the same file (one
# run per process, in device order), `diff` on the before/after pair
# compares the two GPUs pairwise, and what is not readable (a damaged
# database, an unrelated one, a .nsys-rep) is refused with exit 2 and the
# file's name.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "nsys exports" "python3 with its sqlite3 module is needed"
    echo "1..$T_N"
    exit 0
fi

# refused inputs: built here, so they run without ../shared
python3 - "$T_DIR/unrelated.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.executescript("CREATE TABLE settings (key TEXT, value TEXT);"
                 "INSERT INTO settings VALUES ('theme', 'dark');")
db.commit()
PY
{ printf 'SQLite format 3\000'; head -c 8192 /dev/zero | tr '\000' 'x'; } \
    > "$T_DIR/damaged.sqlite"
printf 'not really a report' > "$T_DIR/run.nsys-rep"
for f in unrelated.sqlite damaged.sqlite run.nsys-rep; do
    "$PR_BIN" --quiet --input "$T_DIR/$f" --json "$T_DIR/no.json" \
        2> "$T_DIR/err"
    rc=$?
    if [ $rc -eq 2 ] && grep -q "$f" "$T_DIR/err" && [ ! -e "$T_DIR/no.json" ]
    then ok "$f: refused with exit 2, named"
    else not_ok "$f: exit $rc ($(head -c 200 "$T_DIR/err"))"; fi
done
if grep -q "nsys export --type sqlite" "$T_DIR/err"; then
    ok "run.nsys-rep: the export command is given"
else
    not_ok "run.nsys-rep: no export command in: $(head -c 200 "$T_DIR/err")"
fi

# the hand-made 2-GPU export: an fp32 FFMA GEMM under aten::mm is a
# tensor-core finding (its dtype comes from the kernel's name), and each
# run lists what its export cannot give
python3 - "$PR_SRCDIR/tests/data/nsys/basic.sql" "$T_DIR/basic.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.executescript(open(sys.argv[1]).read())
db.commit()
PY
if "$PR_BIN" --quiet --input "$T_DIR/basic.sqlite" --json "$T_DIR/basic.json" \
        2> "$T_DIR/err" &&
   python3 - "$T_DIR/basic.json" > "$T_DIR/why" <<'PY'
import json, sys
runs = json.load(open(sys.argv[1]))["runs"]
bad = []
f = runs[0]["tensor_cores"]["findings"]
if [(x["operator"], x["reason_id"], x["dtype"]) for x in f] != \
        [("aten::mm", "tf32_matmul_off", "fp32")]:
    bad.append("findings %s" % f)
gaps = [[(d["kind"], d["count"]) for d in r["diagnostics"]
         if d["kind"].startswith(("no_", "dtype_"))] for r in runs]
# (a near-empty capture's low utilization is a gap too: no_workload)
want = [[("no_shapes", 1), ("dtype_from_kernel", 1), ("no_memory", 0),
         ("no_workload", 1)],
        [("no_operators", 0), ("no_comm_bytes", 1), ("no_memory", 0)]]
if gaps != want:
    bad.append("gaps %s" % gaps)
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
then ok "basic.sqlite: fp32 GEMM without TF32 found; gaps listed"
else not_ok "basic.sqlite: $(cat "$T_DIR/why") $(head -c 200 "$T_DIR/err")"; fi

# issue #28: the same export without input shapes (emit_nvtx without
# record_shapes): the FFMA kernel itself says fp32 without TF32, the
# finding names it, and no advice asks to record shapes
sed 's/, sizes = \[\[64, 512\], \[512, 1000\]\], input_op_ids = \[(1, 0), (2, 0)\]//' \
    "$PR_SRCDIR/tests/data/nsys/basic.sql" > "$T_DIR/noshapes.sql"
python3 - "$T_DIR/noshapes.sql" "$T_DIR/noshapes.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.executescript(open(sys.argv[1]).read())
db.commit()
PY
if "$PR_BIN" --quiet --input "$T_DIR/noshapes.sqlite" \
        --json "$T_DIR/noshapes.json" 2> "$T_DIR/err" &&
   python3 - "$T_DIR/noshapes.json" > "$T_DIR/why" <<'PY'
import json, sys
f = json.load(open(sys.argv[1]))["runs"][0]["tensor_cores"]["findings"]
bad = []
if [(x["operator"], x["reason_id"], x["dtype"]) for x in f] != \
        [("aten::mm", "tf32_matmul_off", "fp32")]:
    bad.append("findings %s" % f)
elif not (f[0]["evidence_kernel"] or "").startswith(
        "sm80_xmma_gemm_f32f32_f32f32_f32_tn_n_"):
    bad.append("evidence %s" % f[0]["evidence_kernel"])
elif "its kernel sm80_xmma_gemm_f32f32" not in f[0]["reason"] or \
        "record_shapes" in f[0]["advice"]:
    bad.append("text %s / %s" % (f[0]["reason"], f[0]["advice"]))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
then ok "no shapes: the FFMA kernel is the TF32 finding's evidence"
else not_ok "no shapes: $(cat "$T_DIR/why") $(head -c 200 "$T_DIR/err")"; fi

# issue #29: the session's length (ANALYSIS_DETAILS.duration) against the
# span of a process's activity.  basic.sql's pid 100 is active from 1 us to
# past 100 us (its steps), pid 200 for under 35 us: a 1 s session is said
# for both, with its length, the span and their ratio; a 105 us one only
# for pid 200 (pid 100's activity fills over 90% of it).
for dur in 1000000000 105000; do
    { cat "$PR_SRCDIR/tests/data/nsys/basic.sql"
      echo "CREATE TABLE ANALYSIS_DETAILS (globalVid INTEGER, duration INTEGER,"
      echo "  startTime INTEGER, stopTime INTEGER);"
      echo "INSERT INTO ANALYSIS_DETAILS VALUES (1, $dur, 0, $dur);"
    } > "$T_DIR/details.sql"
    rm -f "$T_DIR/details.sqlite"
    python3 - "$T_DIR/details.sql" "$T_DIR/details.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.executescript(open(sys.argv[1]).read())
db.commit()
PY
    if "$PR_BIN" --quiet --input "$T_DIR/details.sqlite" \
            --json "$T_DIR/details.json" 2> "$T_DIR/err" &&
       python3 - "$T_DIR/details.json" "$dur" > "$T_DIR/why" <<'PY'
import json, re, sys
runs = json.load(open(sys.argv[1]))["runs"]
cap = int(sys.argv[2])
want = {"gpu0 pid 100": cap > 200000, "gpu1 pid 200": True}
bad = []
for r in runs:
    d = [x["text"] for x in r["diagnostics"] if x["kind"] == "capture_window"]
    if not want[r["worker"]]:
        if d:
            bad.append("%s: said %s" % (r["worker"], d))
        continue
    m = re.search(r"ran ([0-9.]+) (ms|\u00b5s) .* spans ([0-9.]+) (ms|\u00b5s) "
                  r"of it \(([0-9.]+)%\)", d[0] if d else "")
    unit = {"ms": 1e6, "\u00b5s": 1e3}
    if not m:
        bad.append("%s: no capture_window in %s" % (r["worker"], d))
        continue
    ran = float(m.group(1)) * unit[m.group(2)]
    span = float(m.group(3)) * unit[m.group(4)]
    if abs(ran - cap) > 0.001 * cap or span > 0.9 * cap or \
            abs(float(m.group(5)) - 100 * span / cap) > 0.2:
        bad.append("%s: %s" % (r["worker"], d[0]))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
    then ok "ANALYSIS_DETAILS $dur ns: the session against the activity said as it is"
    else not_ok "ANALYSIS_DETAILS $dur ns: $(cat "$T_DIR/why") $(head -c 200 "$T_DIR/err")"; fi
done

# review 20 finding 6: without step ranges the window is the whole
# capture, from the process's first event (capture.sql's driver call at
# 1 us) to its last (the copy ending at 27 us), the kernel launched before
# the host's record began inside it: 26 us from 0, 12 us of kernels
python3 - "$PR_SRCDIR/tests/data/nsys/capture.sql" "$T_DIR/capture.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.executescript(open(sys.argv[1]).read())
db.commit()
PY
if "$PR_BIN" --quiet --input "$T_DIR/capture.sqlite" \
        --json "$T_DIR/capture.json" 2> "$T_DIR/err" &&
   python3 - "$T_DIR/capture.json" > "$T_DIR/why" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
s = r["steps"]
got = [(x["name"], x["start_us"], x["duration_us"], x["breakdown_us"]["kernel"],
        x["breakdown_us"]["memcpy"]) for x in s]
want = [("capture", 0, 26, 12, 1)]
print("" if got == want else "steps %s, want %s" % (got, want))
sys.exit(0 if got == want else 1)
PY
then ok "no step ranges: the window is the whole capture, every kernel in it"
else not_ok "no step ranges: $(cat "$T_DIR/why") $(head -c 200 "$T_DIR/err")"; fi

if ! have_shared; then
    skip "real nsys exports" "no $PR_SHARED/traces (../shared is absent)"
    echo "1..$T_N"
    exit 0
fi
S=$PR_SHARED/traces/nsys

for f in mock mfu_2gpu_before mfu_2gpu_after; do
    out=$T_DIR/$f.json
    if ! "$PR_BIN" --quiet --input "$S/$f.sqlite" --json "$out" \
            2> "$T_DIR/err"; then
        not_ok "$f: exit $? ($(head -c 200 "$T_DIR/err"))"
        continue
    fi
    if python3 - "$S/$f.sqlite" "$out" > "$T_DIR/why" <<'PY'
import json, re, sqlite3, sys
db = sqlite3.connect("file:%s?immutable=1" % sys.argv[1], uri=True)
s = json.load(open(sys.argv[2]))
q = lambda sql: db.execute(sql).fetchall()
M = 0xFFFFFF
# processes with kernels, launches or NVTX ranges, each a run
procs = {}
for (g,) in q("SELECT DISTINCT globalPid FROM CUPTI_ACTIVITY_KIND_KERNEL"):
    procs[g & ~M] = 1
for (g,) in q("SELECT DISTINCT globalTid FROM CUPTI_ACTIVITY_KIND_RUNTIME"):
    procs[g & ~M] = 1
has_nvtx = q("SELECT count(*) FROM sqlite_master WHERE name = 'NVTX_EVENTS'")[0][0]
if has_nvtx:
    for (g,) in q("SELECT DISTINCT globalTid FROM NVTX_EVENTS "
                  "WHERE eventType IN (59, 60)"):
        procs[g & ~M] = 1
bad = []
runs = s["runs"]
if len(runs) != len(procs):
    bad.append("runs: %d, want %d" % (len(runs), len(procs)))
step_re = re.compile(r"(^|[ _-])(step|iteration|iter|profilerstep)"
                     r"([ _#:=-]*[0-9]+)?$", re.I)
for run in runs:
    m = re.search(r"pid (\d+)", run["worker"] or "")
    pid = int(m.group(1)) if m else (next(iter(procs)) >> 24) & M
    ks = q("SELECT k.end - k.start, s.value, k.deviceId "
           "FROM CUPTI_ACTIVITY_KIND_KERNEL k JOIN StringIds s "
           "ON s.id = k.demangledName WHERE (k.globalPid >> 24) & %d = %d"
           % (M, pid))
    n = len(ks)
    total_us = sum(k[0] for k in ks) / 1000.0
    by = {}
    for d, name, _ in ks:
        by[name] = by.get(name, 0) + d
    top = max(by, key=by.get) if by else None
    calls = sum(k["calls"] for k in run["kernels"])
    got_us = sum(k["total_us"] for k in run["kernels"])
    if calls != n:
        bad.append("%s: %d kernels, want %d" % (run["worker"], calls, n))
    if abs(got_us - total_us) > 0.01:
        bad.append("%s: %.3f us of kernels, want %.3f"
                   % (run["worker"], got_us, total_us))
    if run["kernels"] and run["kernels"][0]["name"] != top:
        bad.append("%s: top kernel %.60s, want %.60s"
                   % (run["worker"], run["kernels"][0]["name"], top))
    devs = sorted({k[2] for k in ks})
    util = sorted(g["device"] for g in run["gpu_metrics"])
    if util != devs:
        bad.append("%s: utilization of devices %s, want %s"
                   % (run["worker"], util, devs))
    steps = 0
    if has_nvtx:
        for (text,) in q("SELECT COALESCE(n.text, s.value) FROM NVTX_EVENTS n "
                         "LEFT JOIN StringIds s ON s.id = n.textId WHERE "
                         "n.eventType IN (59, 60) AND n.end IS NOT NULL AND "
                         "(n.globalTid >> 24) & %d = %d" % (M, pid)):
            if text and "op_id = " not in text and step_re.search(text):
                steps += 1
    if len(run["steps"]) != max(steps, 1):
        bad.append("%s: %d steps, want %d"
                   % (run["worker"], len(run["steps"]), max(steps, 1)))
    ops = 0
    if has_nvtx:
        ops = q("SELECT count(*) FROM NVTX_EVENTS n LEFT JOIN StringIds s "
                "ON s.id = n.textId WHERE COALESCE(n.text, s.value) LIKE "
                "'%%, op_id = %%' AND (n.globalTid >> 24) & %d = %d"
                % (M, pid))[0][0]
    # what the export cannot give: emit_nvtx ranges without sizes
    unsized = 0
    if has_nvtx:
        for (text,) in q("SELECT COALESCE(n.text, s.value) FROM NVTX_EVENTS n "
                         "LEFT JOIN StringIds s ON s.id = n.textId WHERE "
                         "n.eventType IN (59, 60) AND n.end IS NOT NULL AND "
                         "(n.globalTid >> 24) & %d = %d" % (M, pid)):
            if text and re.search(r".,( seq| op_id| input_op_ids) = ", text) \
                    and ", sizes = " not in text:
                unsized += 1
    gaps = {d["kind"]: d["count"] for d in run["diagnostics"]}
    if gaps.get("no_shapes", 0) != unsized:
        bad.append("%s: no_shapes %s, want %d"
                   % (run["worker"], gaps.get("no_shapes"), unsized))
    # review 20 finding 6: a run without step ranges is one window, the
    # whole capture: the process's first to last kernel, copy, fill, CUDA
    # call or NVTX range, with all its kernel time (kernel + communication
    # = the union of its kernels on the device)
    if steps == 0 and len(run["steps"]) == 1:
        ev = []
        for tb, col in (("CUPTI_ACTIVITY_KIND_KERNEL", "globalPid"),
                        ("CUPTI_ACTIVITY_KIND_MEMCPY", "globalPid"),
                        ("CUPTI_ACTIVITY_KIND_MEMSET", "globalPid"),
                        ("CUPTI_ACTIVITY_KIND_RUNTIME", "globalTid"),
                        ("NVTX_EVENTS", "globalTid")):
            if q("SELECT count(*) FROM sqlite_master WHERE name = '%s'" % tb)[0][0]:
                ev += q("SELECT min(start), max(COALESCE(end, start)) FROM %s "
                        "WHERE (%s >> 24) & %d = %d" % (tb, col, M, pid))
        lo = min(e[0] for e in ev if e[0] is not None)
        hi = max(e[1] for e in ev if e[1] is not None)
        st = run["steps"][0]
        if abs(st["duration_us"] - (hi - lo) / 1000.0) > 0.01:
            bad.append("%s: window %.3f us, the capture %.3f us"
                       % (run["worker"], st["duration_us"], (hi - lo) / 1000.0))
        iv = sorted(q("SELECT start, end FROM CUPTI_ACTIVITY_KIND_KERNEL "
                      "WHERE (globalPid >> 24) & %d = %d" % (M, pid)))
        union, ce, cs = 0, None, None
        for a0, a1 in iv:
            if ce is None or a0 > ce:
                union += (ce - cs) if ce is not None else 0
                cs, ce = a0, a1
            else:
                ce = max(ce, a1)
        union += (ce - cs) if ce is not None else 0
        b = st["breakdown_us"]
        if abs(b["kernel"] + b["communication"] - union / 1000.0) > 0.01:
            bad.append("%s: kernel %.3f + communication %.3f us, the device's "
                       "kernels %.3f us" % (run["worker"], b["kernel"],
                                            b["communication"], union / 1000.0))
    a = run["attribution"]
    if ops and not (run["operators"] and a["operator_pct"] > 90):
        bad.append("%s: %d emit_nvtx ranges, but %d operators and %s%% of "
                   "kernel time in them" % (run["worker"], ops,
                                            len(run["operators"]),
                                            a["operator_pct"]))
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
    then ok "$f: runs, kernels, kernel time, top kernel, steps, devices"
    else not_ok "$f: $(cat "$T_DIR/why")"; fi
done

# the before/after pair: GPU 0 with GPU 0, GPU 1 with GPU 1
"$PR_BIN" diff --quiet --baseline "$S/mfu_2gpu_before.sqlite" \
    --input "$S/mfu_2gpu_after.sqlite" --json "$T_DIR/diff.json" \
    2> "$T_DIR/err"
rc=$?
# two captures without steps: no step time to gate (exit 4), the kernels
# compared per call (review 22g #1)
if [ $rc -eq 4 ] && python3 - "$T_DIR/diff.json" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
pairs = [(r["baseline"], r["current"]) for r in d["runs"]]
ok = len(pairs) == 2 and all(b.split()[0] == c.split()[0] for b, c in pairs)
ok = ok and any(k.get("status") == "both" and k.get("baseline_us") and k.get("per") == "call" for k in d["kernels"])
fl = [k for k in d["kernels"] if "flash_fwd_kernel" in k["name"]]
ok = ok and len(fl) == 1 and round(fl[0]["calls_baseline"]) == 34 and round(fl[0]["calls_current"]) == 30
ok = ok and abs(fl[0]["delta_pct"]) < 1
sys.exit(0 if ok else 1)
PY
then ok "diff before/after: runs paired by GPU, kernels compared per call (flash_fwd 34 -> 30 calls, under 1% per call)"
else not_ok "diff before/after: exit $rc ($(head -c 200 "$T_DIR/err"))"; fi

echo "1..$T_N"
