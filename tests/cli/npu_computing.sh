#!/bin/sh
# npu_computing.sh - review 15 #9 and #12 on Ascend runs.
# #9: HCCL's Notify Wait is a task, so the busy share of a rank that waits
# for a late peer is mostly its wait; where HCCL tasks are in the busy
# time the Overview's card is MindStudio's Computing (compute tasks'
# share), with the busy share and Communication(Not Overlapped) under it.
# #12: the device id msprof packs into the device processes' pids,
# (pid << 10) | (sort index << 5) | device (msprof trace_view_manager.py
# get_format_pid), where no label names the NPU; without a timeline, the
# Device Type "NPU:N" of the memory tables.  Review 16: #9 the busy
# line names each term's figure; #2 MindSpore's cluster table gives
# the Computing of an export with HCCL tasks only.  Expectations are
# computed here from the files.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "NPU computing card and device id" "no python3"
    echo "1..$T_N"
    exit 0
fi

# the Overview's key figures of an HTML report, one "label | value | sub"
# a line
cat > "$T_DIR/kpis.py" << 'PY'
import html, re, sys
t = open(sys.argv[1], encoding='utf-8').read()
for l, v, s in re.findall(r'k-label">([^<]*)</div><div class="k-value">'
                          r'([^<]*)</div><div class="k-sub">([^<]*)', t):
    print(html.unescape('%s | %s | %s' % (l, v, s)))
PY

# 1. a hand-made trace: one 20 us AI_CORE task and a 54 us allReduce
# (with its 50 us Notify Wait) in a 100 us ProfilerStep, whose device step
# (torch_npu's, from its first task 10 us in) is 90 us; the NPU's
# processes are packed with device 3, and no label names it
D=$PR_SRCDIR/tests/data/ascend/packed_pid/trace_view.json
"$PR_BIN" -q --input "$D" --json "$T_DIR/p.json" --html "$T_DIR/p.html"
check "packed pids: exit 0" [ $? -eq 0 ]
python3 "$T_DIR/kpis.py" "$T_DIR/p.html" > "$T_DIR/p.kpis"
check "packed pids: the device is the pid's low five bits, and the card is Computing" \
    python3 -c "
import json, sys
ev = json.load(open(sys.argv[1]))
hw = [e['pid'] for e in ev if e.get('name') == 'process_name' and e['args']['name'] == 'Ascend Hardware'][0]
dev = hw & 31
step = [e for e in ev if e['name'].startswith('ProfilerStep')][0]
npu = [e for e in ev if e.get('ph') == 'X' and e['pid'] != step['pid']]
comp = sum(e['dur'] for e in npu if e.get('args', {}).get('Task Type') == 'AI_CORE')
spans = sorted((float(e['ts']), float(e['ts']) + e['dur']) for e in npu)
busy, end = 0.0, None
for a, b in spans:
    if end is None or a > end:
        busy += b - a; end = b
    elif b > end:
        busy += b - end; end = b
# the step is torch_npu's device step (issue #30, get_step_range): from
# its first task to the later of its last task's end and the host end
# (the MatMul task starts 10 us into the 100 us ProfilerStep: 90 us)
step = dict(step, dur=max(float(step['ts']) + step['dur'], end) - spans[0][0])
r = json.load(open(sys.argv[2]))['runs'][0]
assert r['devices'][0]['id'] == dev == 3, (r['devices'], dev)
assert r['gpu_metrics'][0]['device'] == dev, r['gpu_metrics']
# the JSON keeps its figures: utilization counts HCCL tasks as busy
g = r['gpu_metrics'][0]
assert abs(g['utilization_pct'] - 100 * busy / step['dur']) < 1e-6, g
assert abs(g['compute_utilization_pct'] - 100 * comp / step['dur']) < 1e-6, g
# review 16 #9: each term with its figure, the sum first
want = 'Computing | %.1f%% | NPU busy %.1f%% = Computing %.1f%% + Communication(Not Overlapped) %.1f%%, over the steps' % (
    100 * comp / step['dur'], 100 * busy / step['dur'], 100 * comp / step['dur'], 100 * (busy - comp) / step['dur'])
k = open(sys.argv[3]).read()
assert want in k, (want, k)
assert 'NPU utilization |' not in k, k
" "$D" "$T_DIR/p.json" "$T_DIR/p.kpis"

# the same trace with the HCCL process packed for device 2 (the pids
# disagree), and with plain pids 900 and 901 (older exports): no device
# is named, and the label says the id is unknown rather than "NPU 0"
mkdir -p "$T_DIR/m" "$T_DIR/u"
sed 's/5120483/5120482/g' "$D" > "$T_DIR/m/trace_view.json"
sed -e 's/5120419/900/g' -e 's/5120483/901/g' "$D" > "$T_DIR/u/trace_view.json"
"$PR_BIN" -q --input "$T_DIR/m/trace_view.json" --json "$T_DIR/m.json"
"$PR_BIN" -q --input "$T_DIR/u/trace_view.json" --json "$T_DIR/u.json"
check "pids that disagree or are not packed name no device" python3 -c "
import json, sys
for f in sys.argv[1:]:
    d = json.load(open(f))['runs'][0]['devices'][0]
    assert d['label'] == 'NPU (no device id or name in the export)', (f, d)
" "$T_DIR/m.json" "$T_DIR/u.json"

# 2. the shared samples
S=${PR_SHARED:-}/traces
if shared_report t1 torch_npu/text_level1; then
    check "text_level1: each rank's device is its Ascend Hardware pid's" \
        python3 -c "
import json, os, sys
s = json.load(open(sys.argv[1]))
for r in s['runs']:
    tv = json.load(open(os.path.join(sys.argv[2], 'rank%d_ascend_pt' % r['rank'], 'ASCEND_PROFILER_OUTPUT', 'trace_view.json')))
    hw = [e['pid'] for e in tv if e.get('ph') == 'M' and e.get('name') == 'process_name' and e['args']['name'] == 'Ascend Hardware'][0]
    assert r['devices'][0]['id'] == hw & 31, (r['rank'], hw, r['devices'])
    assert r['devices'][0]['label'] == 'NPU %d (no device name in trace)' % (hw & 31), r['devices']
assert sorted(r['devices'][0]['id'] for r in s['runs']) == [0, 1]
" "$T_DIR/t1.json" "$S/torch_npu/text_level1"
else
    skip "text_level1: device ids" "no $S/torch_npu/text_level1"
fi

if shared_report t0 torch_npu/text_level0; then
    python3 "$T_DIR/kpis.py" "$T_DIR/t0.html" > "$T_DIR/t0.kpis"
    check "text_level0: the card is Computing, as step_trace_time.csv splits the step" \
        python3 -c "
import csv, re, sys
row = list(csv.DictReader(open(sys.argv[2])))[0]
stage = float(row['Stage'])
comp = 100 * float(row['Computing']) / stage
alone = 100 * float(row['Communication(Not Overlapped)']) / stage
k = [l for l in open(sys.argv[1]) if l.startswith('Computing | ')]
assert len(k) == 1, open(sys.argv[1]).read()
f = k[0].split(' | ')
assert abs(float(f[1].rstrip('%')) - comp) <= 0.1, (f, comp)
m = re.match(r'NPU busy ([0-9.]+)% = Computing ([0-9.]+)% \+ Communication\(Not Overlapped\) ([0-9.]+)%, over the steps$', f[2].strip())
assert m, f
for got, want in zip(m.groups(), (comp + alone, comp, alone)):
    assert abs(float(got) - want) <= 0.1, (f, comp, alone)
" "$T_DIR/t0.kpis" "$S/torch_npu/text_level0/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/step_trace_time.csv"
else
    skip "text_level0: Computing card" "no $S/torch_npu/text_level0"
fi

if shared_report old torch_npu/old2023; then
    python3 "$T_DIR/kpis.py" "$T_DIR/old.html" > "$T_DIR/old.kpis"
    check "old2023: devices from the memory tables' Device Type, Computing from the step table" \
        python3 -c "
import csv, glob, json, os, sys
s = json.load(open(sys.argv[1]))
kp = [l.split(' | ') for l in open(sys.argv[3]) if l.startswith('Computing | ')]
assert len(kp) == len(s['runs']) == 2, kp
for r, k in zip(s['runs'], kp):
    d = os.path.join(sys.argv[2], 'test_rank_%d' % r['rank'], 'ASCEND_PROFILER_OUTPUT')
    dev = None
    for f in ('memory_record.csv', 'operator_memory.csv'):
        for row in csv.DictReader(open(os.path.join(d, f))):
            if dev is None and row.get('Device Type', '').startswith('NPU:'):
                dev = int(row['Device Type'][4:])
    assert r['devices'][0]['id'] == dev, (r['rank'], dev, r['devices'])
    row = list(csv.DictReader(open(os.path.join(d, 'step_trace_time.csv'))))[0]
    comp = 100 * float(row['Computing']) / float(row['Stage'])
    alone = 100 * float(row['Communication(Not Overlapped)']) / float(row['Stage'])
    assert k[1] == '%.1f%%' % comp, (k, comp)
    want = 'NPU busy %.1f%% = Computing %.1f%% + Communication(Not Overlapped) %.1f%% (step_trace_time.csv)' % (comp + alone, comp, alone)
    assert k[2].startswith(want), (k, want)
    assert 'incomplete task list' in k[2], k
" "$T_DIR/old.json" "$S/torch_npu/old2023" "$T_DIR/old.kpis"
else
    skip "old2023: devices and Computing card" "no $S/torch_npu/old2023"
fi

# review 16 #2: MindSpore's cluster export holds HCCL tasks only, and its
# cluster table gives each step's computation_time: the card is that
# compute over the median step, named by its source, as the verdict
# pairs them; no busy share beside it (the export's is over the whole
# capture, its warm-up step most of it: review 17 #2).  Expectations from
# the files: ascend_cluster_analyse_*_{r}.csv (ms, one row a step, then
# their average) and step_trace_raw_{r}_detail_time.csv (total in 10 ns).
if shared_report cl mindspore/extra/cluster_4rank_pipeline; then
    python3 "$T_DIR/kpis.py" "$T_DIR/cl.html" > "$T_DIR/cl.kpis"
    check "ms_cluster4: Computing is the cluster table's computation_time over the median step" \
        python3 -c "
import csv, glob, json, os, statistics, sys
s = json.load(open(sys.argv[1]))
kp = [l.rstrip('\n').split(' | ') for l in open(sys.argv[3]) if l.startswith('Computing | ')]
assert len(s['runs']) == 4, s['runs']
want = {}
for r in s['runs']:
    rank = r['rank']
    st = [float(x['total']) / 1e5 for x in csv.DictReader(open(os.path.join(sys.argv[2], 'step_trace_raw_%d_detail_time.csv' % rank)))
          if x['step_num'].isdigit()]
    rows = [float(x['computation_time']) for x in csv.DictReader(open(glob.glob(os.path.join(sys.argv[2], 'ascend_cluster_analyse_*_%d.csv' % rank))[0]))]
    skip = r['step_phases']['mean_skipped_steps']
    assert skip <= 1, r['step_phases']  # the warm-up first step at most
    comp = statistics.mean(rows[skip:len(st)])
    step = statistics.median(st)
    util = r['gpu_metrics'][0]['utilization_pct']
    assert r['gpu_metrics'][0]['compute_utilization_pct'] is None, r['gpu_metrics']
    want[rank] = ('%.1f%%' % (100 * comp / step),
                  'mean computation_time %.1f ms of the %.1f ms median step (MindSpore\'s cluster table; the export holds HCCL tasks only)' % (comp, step),
                  100 * comp / step)
# the report draws the first rank's card and the slower stage's (rank 2)
assert len(kp) >= 2, kp
shares = []
for k in kp:
    hit = [w for w in want.values() if (k[1], k[2]) == w[:2]]
    assert len(hit) == 1, (k, want)
    shares.append(hit[0][2])
# the slower stage computes most of its step, the other stage little
assert max(shares) > 60 and min(shares) < 10, shares
" "$T_DIR/cl.json" "$S/mindspore/extra/cluster_4rank_pipeline" "$T_DIR/cl.kpis"
    # a table whose rows are not these steps (computation_time x100, far
    # over the step: producer.c's table_too_long) gives no compute: the
    # card keeps "not known" (job_review2 #8), never 0.0%
    mkdir -p "$T_DIR/cx"
    cp "$S"/mindspore/extra/cluster_4rank_pipeline/* "$T_DIR/cx/"
    for f in "$T_DIR"/cx/ascend_cluster_analyse_*.csv; do
        awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { $1 = $1 * 100; print }' \
            "$f" > "$f.t" && mv "$f.t" "$f"
    done
    "$PR_BIN" -q --input "$T_DIR/cx" --html "$T_DIR/cx.html"
    python3 "$T_DIR/kpis.py" "$T_DIR/cx.html" > "$T_DIR/cx.kpis"
    check "ms_cluster4 with a table not of its steps: Computing is not known" \
        sh -c 'n=$(grep -c "^Computing | " "$1"); test "$n" -ge 2 &&
               test "$(grep -c "^Computing | – | compute alone is not known: the trace records no compute task; NPU busy [0-9.]*% over the steps, all HCCL tasks$" "$1")" -eq "$n"' \
            _ "$T_DIR/cx.kpis"
else
    skip "ms_cluster4: Computing card" "no $S/mindspore/extra/cluster_4rank_pipeline"
    skip "ms_cluster4: Computing not known" "no $S/mindspore/extra/cluster_4rank_pipeline"
fi

# a GPU run keeps its GPU utilization card
if shared_report nb nsys/mfu_2gpu_before.sqlite; then
    python3 "$T_DIR/kpis.py" "$T_DIR/nb.html" > "$T_DIR/nb.kpis"
    check "nsys: the GPU card is GPU utilization" \
        sh -c "grep -q '^GPU utilization | ' '$T_DIR/nb.kpis' && ! grep -q '^Computing | ' '$T_DIR/nb.kpis'"
else
    skip "nsys: GPU card" "no $S/nsys/mfu_2gpu_before.sqlite"
fi

echo "1..$T_N"
