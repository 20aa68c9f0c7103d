#!/bin/sh
# mindspore_coverage.sh - the review's finding 4 (issue #30) on
# ../shared/traces/mindspore/ascend_run1 (Wide&Deep, graph mode, device
# tasks in its first steps only): utilization and the mean step's
# breakdown are over the steps with device tasks, and a data-quality row
# says how many of the steps have none; the one-step timeline draws a
# step with device tasks; the device's streams, which never overlap and
# have no recorded edges between them, are one queue on the critical path
# (serial_streams), so the kernels of the other streams are not "idle";
# MindSpore reports speak MindSpore (num_parallel_workers, dataset sink
# mode, GRAPH_MODE), never torch.compile, DataLoader workers or
# with_modules.  The expected figures are computed here by Python from
# the summary's own per-step rows.
. "$PR_SRCDIR/tests/lib.sh"

if ! have_shared || ! command -v python3 >/dev/null 2>&1; then
    skip "MindSpore device coverage" "no $PR_SHARED/traces or no python3"
    echo "1..$T_N"
    exit 0
fi
R=$PR_SHARED/traces/mindspore/ascend_run1

cat > "$T_DIR/cov.py" <<'PY'
import json, sys

r = json.load(open(sys.argv[1]))['runs'][0]
fail = []
steps = r['steps']
dev = [i for i, s in enumerate(steps)
       if sum(s['breakdown_us'][k] or 0 for k in ('kernel', 'memcpy', 'memset')) > 0]
lo, hi = dev[0], dev[-1]
cov = steps[lo:hi + 1]
if not (len(cov) < len(steps)):
    fail.append('every step has device tasks: the sample changed?')
ss = r['step_summary']
if ss['breakdown_steps'] != len(cov):
    fail.append('breakdown_steps %s, expected %d' % (ss['breakdown_steps'], len(cov)))
for k, v in ss['breakdown_us'].items():
    want = sum(s['breakdown_us'][k] for s in cov) / len(cov)
    if abs(v - want) > 0.01 * max(1.0, want):
        fail.append('breakdown %s %.1f, expected %.1f' % (k, v, want))
span = cov[-1]['start_us'] + cov[-1]['duration_us'] - cov[0]['start_us']
busy = r['gpu_metrics'][0]['kernel_time_us']
u = r['gpu_metrics'][0]['utilization_pct']
if abs(u - 100.0 * busy / span) > 1.0:
    fail.append('utilization %.1f%%, expected %.1f%%' % (u, 100.0 * busy / span))
# the steps outside the device's record: a split not known, every part
# null, not "Other 100%" (review25a #7)
out = [s['name'] for i, s in enumerate(steps) if i < lo or i > hi]
bad = [s['name'] for i, s in enumerate(steps) if (i < lo or i > hi) and
       any(v is not None for v in s['breakdown_us'].values())]
if not out or bad:
    fail.append('%d steps outside the record, %d with a split: %s' % (len(out), len(bad), bad[:3]))
none = len(steps) - len(dev)
notes = [d['text'] for d in r['diagnostics'] if d['kind'] == 'device_coverage']
if not notes or not notes[0].startswith(
        '%d of %d steps have no device tasks' % (none, len(steps))):
    fail.append('device_coverage note %r' % notes)
# an Ascend run names no NVIDIA cause (review25a #15a)
if notes and ('CUPTI' in notes[0] or 'MindSpore caps its timeline file' not in notes[0]):
    fail.append('device_coverage cause %r' % notes[0])
names = [s['name'] for s in cov if s['breakdown_us']['kernel'] > 0]
if r['timeline']['step'] not in names:
    fail.append('timeline step %s has no device tasks' % r['timeline']['step'])
# a graph-sink export holds no host timeline: no lane of "runtime calls"
# drawn from the reader's stand-in launches (review 28a #3)
host = [l['name'] for l in r['timeline']['lanes'] if l['kind'] == 'host']
if host:
    fail.append('host lanes drawn: %s' % host)
cp = r['critical_path']
if cp['serial_streams'] is not True:
    fail.append('serial_streams %s' % cp['serial_streams'])
k = cp['by_kind_us']
if not (k['kernel'] > k['idle']):
    fail.append('critical path kernel %.0f us, idle %.0f us' % (k['kernel'], k['idle']))
print('\n'.join(fail) if fail else 'ok')
PY

if "$PR_BIN" -i "$R" --json "$T_DIR/r1.json" --html "$T_DIR/r1.html" \
    2>"$T_DIR/err"; then
    res=$(python3 "$T_DIR/cov.py" "$T_DIR/r1.json")
    [ "$res" = ok ] || echo "# $res"
    check "ascend_run1: covered steps for utilization, breakdown, timeline, path" \
        [ "$res" = ok ]
    check "ascend_run1: no PyTorch words in the HTML" \
        sh -c '! grep -E -q "torch\.compile|DataLoader workers|with_modules" "$1"' \
        _ "$T_DIR/r1.html"
    # an Ascend report names no NVIDIA cause (review25a #15a); the step
    # chart says why its bars after step 14 are empty (#7)
    check "ascend_run1: no CUPTI; the empty bars of the steps outside the record explained" \
        sh -c '! grep -q "CUPTI" "$1" &&
            grep -q "307 of 321 steps (Step 16 to Step 322) lie outside the device" "$1"' \
        _ "$T_DIR/r1.html"
    # the steps whose split is not known leave the known ones drawn: the
    # chart keeps its Kernel category (review 28a #1: one null step
    # emptied the chart and the donut)
    check "ascend_run1: the step chart and donut draw the 14 known splits" \
        python3 -c '
import re, sys
s = open(sys.argv[1]).read()
i = s.find("Step time breakdown")
j = s.find("where the time goes", i)
seg = s[i:i + 20000]
ok = i >= 0 and j > i and ">Kernel<" in s[i:j] and ">Kernel<" in s[j:j + 20000]
sys.exit(0 if ok else 1)' "$T_DIR/r1.html"
    # graph sink: no host launches recorded, so no idle is the host's
    # (review finding 11) and no host-wait advice fires at all
    check "ascend_run1: no host-wait claim without host launches" \
        sh -c '! grep -q "waited for the host" "$1"' \
        _ "$T_DIR/r1.html"
else
    sed 's/^/# /' "$T_DIR/err"
    not_ok "ascend_run1: covered steps for utilization, breakdown, timeline, path"
    not_ok "ascend_run1: no PyTorch words in the HTML"
    not_ok "ascend_run1: no CUPTI; the empty bars of the steps outside the record explained"
    not_ok "ascend_run1: the step chart and donut draw the 14 known splits"
    not_ok "ascend_run1: no host-wait claim without host launches"
fi
echo "1..$T_N"
