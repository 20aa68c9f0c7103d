#!/bin/sh
# mindspore.sh - every MindSpore / MindInsight profiler folder of
# ../shared/traces/mindspore gives a summary whose runs are its ranks,
# whose kernels are exactly the device rows of the files they came from
# (count and total time) on an NPU, and whose steps are the step trace's
# own rows.
# The expected numbers are computed here by Python from the files, by the
# rules of shared/spec/other-producers.md §3, not by profreport.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1; then
    skip "MindSpore folders" "no python3"
    echo "1..$T_N"
    exit 0
fi

# a GPU profiler/ folder as DataSaver writes it (other-producers.md §3.2;
# no real one is public): kernels with their launch shape and operator,
# operators with shapes, steps from step_trace_profiling (10 ns)
G=$T_DIR/gpu
mkdir -p "$G"
CONV=Default/network-WithLossCell/conv1-Conv2d/Conv2D-op5
RELU=Default/network-WithLossCell/relu-ReLU/ReLU-op6
printf '%s\n' \
    'op_side,op_type,op_name,op_full_name,op_occurrences,op_total_time(us),op_avg_time(us),total_proportion,cuda_activity_cost_time(us),cuda_activity_call_count' \
    "Device,Conv2D,Conv2D-op5,$CONV,2,100.0,50.0,0.8,80.0,4" \
    "Device,ReLU,ReLU-op6,$RELU,2,25.0,12.5,0.2,10.0,2" > "$G/gpu_op_detail_info_0.csv"
printf '%s\n' \
    'op_type,type_occurrences,total_time(us),total_proportion,avg_time(us)' \
    'Conv2D,2,100.0,0.8,50.0' 'ReLU,2,25.0,0.2,12.5' > "$G/gpu_op_type_info_0.csv"
printf '%s\n' \
    'name,type,op_full_name,stream_id,block_dim,grid_dim,occurrences,total_duration(us),avg_duration(us),max_duration(us),min_duration(us)' \
    "\"void wino<float, 4>(int)\",cuLaunchKernel,$CONV,7,\"256,1,1\",\"64,2,1\",2,60.0,30.0,31.0,29.0" \
    "relu_kernel,cuLaunchKernel,$RELU,7,\"512,1,1\",\"16,1,1\",2,10.0,5.0,5.0,5.0" \
    > "$G/gpu_activity_data_0.csv"
printf '%s\n' "$CONV;GpuOps;1000000,40.5 2000000,59.5 " \
    "$RELU;GpuOps;1050000,12.5 2060000,12.5 " > "$G/op_execute_timestamp_0.txt"
printf '%s\n' 'void wino<float, 4>(int);7;1010000;31.0' 'relu_kernel;7;1060000;5.0' \
    'void wino<float, 4>(int);7;2010000;29.0' 'relu_kernel;7;2070000;5.0' \
    > "$G/activity_execute_timestamp_0.txt"
printf '%s\n' 'Conv2D;Conv2D-op5;1;input_0:32,3,224,224;input_1:64,3,7,7' \
    'ReLU;ReLU-op6;1;input_0:[32, 64, 112, 112]' > "$G/gpu_framework_0.txt"
printf '%s\n' "$CONV 100000,101000 200000,201000" \
    'Default/Gradients/ReLUGrad-op20 180000,181000 280000,281000' \
    'Default/optimizer-Momentum/ApplyMomentum-op55 190000,195000 290000,295000' \
    > "$G/step_trace_profiling_0.txt"
"$PR_BIN" --input "$G" --json "$T_DIR/g.json" 2> "$T_DIR/err"
check "GPU folder: exit 0, no warning" [ $? -eq 0 -a ! -s "$T_DIR/err" ]
check "GPU folder: kernels, operators and steps" python3 - "$T_DIR/g.json" <<'PY'
import json, sys
run = json.load(open(sys.argv[1]))['runs'][0]
k = {x['name']: x for x in run['kernels']}
ops = {o['name']: o for o in run['operators']}
want = [
    (run['worker'], 'rank0'),
    (sorted(k), ['relu_kernel', 'void wino<float, 4>(int)']),
    (k['void wino<float, 4>(int)']['calls'], 2),
    (k['void wino<float, 4>(int)']['total_us'], 60),
    (k['void wino<float, 4>(int)']['operator'], 'Conv2D'),
    (k['relu_kernel']['operator'], 'ReLU'),
    (ops['Conv2D']['calls'], 2),
    (ops['Conv2D']['host_self_us'], 100),
    (ops['Conv2D']['device_self_us'], 60),
    ([s['duration_us'] for s in run['steps']], [950, 1000]),
    (run['devices'][0]['kind'], 'gpu'),
    (run['data_quality']['kernel_time_without_operator_pct'], 0),
]
bad = [(a, b) for a, b in want if a != b]
print(bad)
sys.exit(1 if bad else 0)
PY

# the host's CPU use as MindSpore's data-pipeline sampler writes it
# (CpuSampler::SaveToFile: nlohmann json, keys sorted, no blanks; the
# machine's share of all CPUs, an operator's of one core), with the
# pipeline's own table; the means are checked against Python's over the
# middle half of the samples, as MindSpore's analyser takes them
C=$T_DIR/gpu_cpu
mkdir -p "$C"
cp "$G"/* "$C/"
printf '%s' '{"cpu_processor_num":16,"device_info":{"context_switch_count":[0,900,950,990,1000,980,970,960],"idle_utilization":[0,70,62,60,58,61,66,90],"io_utilization":[0,1,2,14,16,12,3,1],"runnable_process":[1,3,4,4,5,4,3,1],"sys_utilization":[0,4,5,6,6,5,4,1],"user_utilization":[0,25,31,20,20,22,27,8]},"op_info":[{"metrics":{"sys_utilization":[0,10,12,11,12,10,11,2],"user_utilization":[0,160,170,175,180,172,168,20]},"op_id":0},{"metrics":{"sys_utilization":[0,2,2,3,2,3,2,0],"user_utilization":[0,30,28,33,35,31,30,5]},"op_id":1}],"process_info":{"sys_utilization":[0,20,22,21,20,22,21,3],"user_utilization":[0,300,310,305,320,315,300,40]},"sampling_interval":10,"time_stamp":[1700000000000,1700000000010,1700000000020,1700000000030,1700000000040,1700000000050,1700000000060,1700000000070]}' \
    > "$C/minddata_cpu_utilization_0.json"
printf '%s\n' \
    'op_id,op_type,num_workers,output_queue_size,output_queue_average_size,output_queue_length,output_queue_usage_rate,sample_interval,parent_id,children_id' \
    '0,MapOp,2,"[0, 2]",1.0,64,0.015625,10,,[1]' \
    '1,ImageFolderOp,8,"[0, 0]",0.0,128,0.0,10,0,' > "$C/minddata_pipeline_raw_0.csv"
"$PR_BIN" --input "$C" --json "$T_DIR/c.json" --html "$T_DIR/c.html" \
    2> "$T_DIR/err"
check "host CPU: exit 0, no warning" [ $? -eq 0 -a ! -s "$T_DIR/err" ]
cat > "$T_DIR/cpu.py" <<'PY'
import csv, json, math, sys

src, summary = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
pipe = {int(r['op_id']): r for r in csv.DictReader(open(sys.argv[3]))} \
    if len(sys.argv) > 3 else {}
h = summary['runs'][0]['host_cpu']

def mean(v):
    lo, hi = len(v) // 4, len(v) - len(v) // 4
    w = v[lo:hi]
    return sum(w) / len(w) if w else None

def close(a, b):
    return (a is None and b is None) or (
        a is not None and b is not None and abs(a - b) <= 0.05 + 1e-9)

bad = []
dev = src['device_info']
n = max(len(x) for x in [dev['user_utilization']] +
        [o['metrics']['user_utilization'] for o in src['op_info']])
for k, want in [('samples', n), ('window_samples', n - 2 * (n // 4)),
                ('sampling_interval_ms', src['sampling_interval']),
                ('cpus', src['cpu_processor_num'])]:
    if h[k] != want:
        bad.append('%s %s, want %s' % (k, h[k], want))
for key in ('user', 'sys', 'io', 'idle'):
    if not close(h['machine'][key + '_pct'], mean(dev[key + '_utilization'])):
        bad.append('machine %s %s' % (key, h['machine'][key + '_pct']))
busy = mean(dev['user_utilization']) + mean(dev['sys_utilization'])
if not close(h['machine']['busy_pct'], busy):
    bad.append('machine busy %s, want %s' % (h['machine']['busy_pct'], busy))
p = src['process_info']
if not close(h['process']['busy_pct'],
             mean(p['user_utilization']) + mean(p['sys_utilization'])):
    bad.append('process busy %s' % h['process']['busy_pct'])
want_ops = []
for o in src['op_info']:
    m = o['metrics']
    b = mean(m['user_utilization']) + mean(m['sys_utilization'])
    r = pipe.get(o['op_id'])
    w = int(r['num_workers']) if r else None
    want_ops.append((-b, o['op_id'], r['op_type'] if r else None, w,
                     b / w if w else None))
want_ops.sort()
got = [(-x['busy_pct'], x['op_id'], x['op_type'], x['workers'],
        x['per_worker_pct']) for x in h['ops']]
if len(got) != len(want_ops) or any(
        a[1:4] != b[1:4] or not close(a[0], b[0]) or not close(a[4], b[4])
        for a, b in zip(got, want_ops)):
    bad.append('ops %s, want %s' % (got, want_ops))
# the reading: MindSpore's rule (host under 90% busy, an operator's
# workers over 80% busy each) names the operator and its workers
top = max((x for x in want_ops if x[4] is not None), key=lambda x: x[4],
          default=None)
# machine samples that do not add up to ~100 (ascend_run2's synthetic
# file: 40/60/80) are not read: no reading, a data-quality note
n_dev = len(dev['user_utilization'])
sums = [sum(dev[k + '_utilization'][i] for k in ('user', 'sys', 'io', 'idle'))
        for i in range(n_dev // 4, n_dev - n_dev // 4)]
off = any(v != 0 and abs(v - 100) > 10 for v in sums)
if off:
    if h['reading'] is not None:
        bad.append('reading on samples that do not add up: ' + h['reading'])
    notes = [x for x in summary['runs'][0]['diagnostics']
             if x['kind'] == 'host_cpu_sums']
    if len(notes) != 1:
        bad.append('no host_cpu_sums note')
elif h['reading'] is None:
    bad.append('no reading')
elif busy >= 90:
    if 'saturated' not in h['reading']:
        bad.append('reading: ' + h['reading'])
elif top and top[4] > 80:
    if '%s (op %d)' % (top[2], top[1]) not in h['reading'] or \
            'num_parallel_workers' not in h['reading']:
        bad.append('reading: ' + h['reading'])
elif 'not bound' not in h['reading']:
    bad.append('reading: ' + h['reading'])
if not off and (mean(dev['io_utilization']) or 0) >= 10 and \
        'I/O' not in h['reading']:
    bad.append('reading without I/O: ' + h['reading'])
print('; '.join(bad) if bad else 'busy %.1f%%: %s' % (busy, h['reading'] or
                                                    'not read'))
sys.exit(1 if bad else 0)
PY
check "host CPU: means, operators and reading match the file" \
    python3 "$T_DIR/cpu.py" "$C/minddata_cpu_utilization_0.json" \
    "$T_DIR/c.json" "$C/minddata_pipeline_raw_0.csv"
check "host CPU: the report shows it" grep -q "Host CPU (data pipeline)" \
    "$T_DIR/c.html"
# minddata_pipeline_raw is read once for its two readers (issue #30),
# each making of it what it made of the file: a queue list that is not
# one leaves the host CPU's operators typed from it and makes the data
# pipeline's reading a data-quality note; an op_id that is not an
# integer fails the run, naming the file and line (the CPU reader's)
cp "$C/minddata_pipeline_raw_0.csv" "$T_DIR/raw.csv"
sed 's/"\[0, 0\]"/"[0, x]"/' "$T_DIR/raw.csv" > "$C/minddata_pipeline_raw_0.csv"
"$PR_BIN" -q --input "$C" --json "$T_DIR/rawq.json"
check "pipeline table read once: a bad queue list is the pipeline's note, the CPU's operators still typed" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
ops = [(o['op_id'], o['op_type'], o['workers']) for o in r['host_cpu']['ops']]
assert sorted(ops) == [(0, 'MapOp', 2), (1, 'ImageFolderOp', 8)], ops
d = [x['text'] for x in r['diagnostics'] if x['kind'] == 'minddata_damaged']
assert d == ['minddata_pipeline_raw_0.csv: an output_queue_size that is '
             'not a list of counts; this optional data-pipeline file is not '
             'read'], d
" "$T_DIR/rawq.json"
sed 's/^1,ImageFolderOp/x,ImageFolderOp/' "$T_DIR/raw.csv" \
    > "$C/minddata_pipeline_raw_0.csv"
"$PR_BIN" -q --input "$C" --json "$T_DIR/rawi.json" 2> "$T_DIR/err"
rc=$?
check "pipeline table read once: a bad op_id fails the run (exit $rc)" \
    [ $rc -eq 2 ]
check "  naming the file, line and fault" grep -q \
    "minddata_pipeline_raw_0.csv: line 3: op_id is not an integer" "$T_DIR/err"
cp "$T_DIR/raw.csv" "$C/minddata_pipeline_raw_0.csv"
"$PR_BIN" --quiet --input "$G" --json "$T_DIR/g2.json"
check "no sampler file: no host_cpu key" python3 -c "
import json, sys
sys.exit('host_cpu' in json.load(open('$T_DIR/g2.json'))['runs'][0])"
printf '{"cpu_processor_num":16,"device_info":{"user_utilization":7}}' \
    > "$C/minddata_cpu_utilization_0.json"
"$PR_BIN" --input "$C" --json "$T_DIR/bad.json" 2> "$T_DIR/err"
check "damaged sampler file: exit 2" [ $? -eq 2 ]
check "damaged sampler file: file and fault named" grep -q \
    "minddata_cpu_utilization_0.json: device_info.user_utilization is not an array" \
    "$T_DIR/err"

if ! have_shared; then
    skip "MindSpore samples" "no $PR_SHARED/traces"
    echo "1..$T_N"
    exit 0
fi
M=$PR_SHARED/traces/mindspore

cat > "$T_DIR/expect.py" <<'PY'
import csv, glob, json, os, re, sys
from decimal import Decimal

folder, summary = sys.argv[1], sys.argv[2]

def rank_of(name):
    m = re.findall(r'_(\d+)(?=[_.])', name)
    return int(m[-1]) if m else None

def files(pattern):
    return {rank_of(os.path.basename(p)): p
            for p in glob.glob(os.path.join(folder, pattern))}

rows = files('output_timeline_data_*.txt')
aicpu = files('aicpu_intermediate_*.csv')
timelines = files('*timeline_display_*.json')
timelines = {r: p for r, p in timelines.items() if 'gpu_' not in p}
details = files('aicore_intermediate_*_detail.csv')
steps = files('step_trace_raw_*_detail_time.csv')

def expected_tasks(r):
    """(count, total µs) of the device rows of rank r."""
    if r in rows:
        n, us = 0, Decimal(0)
        for x in list(csv.reader(open(rows[r])))[1:]:
            n += 1
            us += Decimal(x[3]) * 1000
        for x in csv.DictReader(open(aicpu[r])) if r in aicpu else []:
            n += 1
            us += Decimal(x['run_end']) - Decimal(x['run_start'])
        return n, us
    if r in timelines:
        ev = [e for e in json.load(open(timelines[r])) if e.get('pid') in (1, 9000)]
        return len(ev), sum(Decimal(str(e['dur'])) for e in ev)
    if r in details:
        n, us = 0, Decimal(0)
        for x in list(csv.reader(open(details[r])))[1:]:
            f = int(x[2]) if len(x) > 2 else 1
            n += f
            us += Decimal(x[1]) * 1000 * f
        return n, us
    if r in steps:  # the step trace's communication segments
        n, us = 0, Decimal(0)
        table = list(csv.DictReader(open(steps[r])))
        for x in table:
            if not x['step_num'].isdigit() or int(x['step_num']) <= 0:
                continue
            for k in x:
                if k.startswith('stream_') and k.endswith('_start_point') \
                        and '_parallel_' not in k:
                    a, b = int(x[k]), int(x[k[:-len('_start_point')] + '_end_point'])
                    if a or b:
                        n += 1
                        us += Decimal(b - a) / 100
        return n, us
    return 0, Decimal(0)

def expected_steps(r, run):
    if r not in steps:
        return None
    # a step the device record starts or ends inside is left out (as the
    # TensorBoard plugin trims an incomplete last step), named by a
    # step_cut diagnostic: the step trace's steps less those named
    cut = [int(m) for d in (run or {}).get('diagnostics', [])
           if d.get('kind') == 'step_cut'
           for m in re.findall(r'Step (\d+) is left out', d['text'])]
    return [Decimal(x['total']) / 100 for x in csv.DictReader(open(steps[r]))
            if x['step_num'].isdigit() and int(x['step_num']) > 0
            and int(x['step_num']) not in cut]

s = json.load(open(summary))
ranks = sorted(set(rows) | set(timelines) | set(details) | set(steps))
got = {run['worker']: run for run in s['runs']}
bad = []
for r in ranks:
    n, us = expected_tasks(r)
    run = got.get('rank%d' % r)
    st = expected_steps(r, run)
    if n == 0 and st is None:
        continue
    if run is None:
        bad.append('no run rank%d (runs: %s)' % (r, sorted(got)))
        continue
    if run['rank'] != r:
        bad.append('rank%d: rank %s' % (r, run['rank']))
    if n and any(d.get('kind') != 'npu' for d in run['devices']):
        bad.append('rank%d: devices %s' % (r, run['devices']))
    k = run['kernels'] or []
    calls = sum(x['calls'] for x in k)
    total = sum(Decimal(str(x['total_us'])) for x in k)
    if calls != n or abs(total - us) > Decimal('0.01') + us * Decimal('1e-9'):
        bad.append('rank%d: kernels %d / %s us, rows %d / %s us' % (r, calls, total, n, us))
    if st is not None:
        mine = [Decimal(str(x['duration_us'])) for x in run['steps']]
        if len(mine) != len(st) or any(abs(a - b) > b / 100 for a, b in zip(mine, st)):
            bad.append('rank%d: steps %s, step trace %s' % (r, mine[:5], st[:5]))
        if run['step_summary']['count'] != len(st):
            bad.append('rank%d: step count %s' % (r, run['step_summary']['count']))
    print('rank%d: %d kernels, %s us, %s steps' % (r, n, us, len(st or [])))
# GPU runs (DataSaver's files; only the timeline JSON is public, in
# fixtures/): the kernels are the timeline's events off the "Ops" row
gpu = files('gpu_timeline_display_*.json')
n_gpu = 0
for r, p in sorted(gpu.items()):
    ev = [e for e in json.load(open(p)) if e.get('ph') == 'X' and e.get('tid') != 'Ops']
    n, us = len(ev), sum(Decimal(str(e['dur'])) for e in ev)
    name = 'rank%d%s' % (r, '-gpu' if 'rank%d' % r in got and r in ranks else '')
    run = got.get(name)
    n_gpu += 1
    if run is None:
        bad.append('no GPU run %s (runs: %s)' % (name, sorted(got)))
        continue
    k = run['kernels'] or []
    calls = sum(x['calls'] for x in k)
    total = sum(Decimal(str(x['total_us'])) for x in k)
    if calls != n or abs(total - us) > Decimal('0.01'):
        bad.append('%s: kernels %d / %s us, timeline %d / %s us' % (name, calls, total, n, us))
    if any(d.get('kind') != 'gpu' for d in run['devices']):
        bad.append('%s: devices %s' % (name, run['devices']))
    print('%s: %d kernels, %s us' % (name, n, us))
if len(s['runs']) != n_gpu + len([r for r in ranks if expected_tasks(r)[0] or expected_steps(r, None)]):
    bad.append('runs %s' % sorted(got))
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY

for d in ascend_run1 ascend_run2 fixtures extra/cluster_4rank_pipeline \
         extra/run_3_profiler extra/run_4_profiler; do
    rm -f "$T_DIR/s.json"
    if "$PR_BIN" --quiet --input "$M/$d" --json "$T_DIR/s.json" 2> "$T_DIR/err"; then
        if python3 "$T_DIR/expect.py" "$M/$d" "$T_DIR/s.json" > "$T_DIR/py" 2>&1; then
            ok "$d: ranks, kernels and steps match the files ($(tr '\n' ' ' < "$T_DIR/py"))"
        else
            not_ok "$d: $(tr '\n' ' ' < "$T_DIR/py" | head -c 600)"
        fi
    else
        not_ok "$d: exit $? ($(head -c 300 "$T_DIR/err"))"
    fi
done

# operators by MindSpore type (the text between the last '/' and '-' of
# the full name), each with the device time of its rows; the type table of
# aicore_intermediate_type counts each distinct op once per step, as the
# number of distinct full names of that type
"$PR_BIN" --quiet --input "$M/ascend_run2" --json "$T_DIR/r2.json"
check "ascend_run2: operators are the rows by type" python3 - "$M/ascend_run2" \
    "$T_DIR/r2.json" <<'PY'
import csv, json, sys
from decimal import Decimal
d = sys.argv[1]
want, names = {}, {}
for name, _, _, ms in list(csv.reader(open(d + '/output_timeline_data_1.txt')))[1:]:
    t = name.rsplit('/', 1)[-1].rsplit('-', 1)[0]
    n, us = want.get(t, (0, Decimal(0)))
    want[t] = (n + 1, us + Decimal(ms) * 1000)
    names.setdefault(t, set()).add(name)
ops = {o['name']: o for o in json.load(open(sys.argv[2]))['runs'][0]['operators']}
bad = [t for t, (n, us) in want.items()
       if t not in ops or ops[t]['calls'] != n
       or abs(Decimal(str(ops[t]['device_self_us'])) - us) > Decimal('0.01')]
bad += [r['op_type'] for r in csv.DictReader(open(d + '/aicore_intermediate_1_type.csv'))
        if int(r['execution_frequency']) != len(names.get(r['op_type'], ()))]
print(bad)
sys.exit(1 if bad else 0)
PY

# the real Ascend sample's sampler file (legacy writer: "runable_processes")
check "ascend_run2: host CPU matches its sampler file" python3 "$T_DIR/cpu.py" \
    "$M/ascend_run2/minddata_cpu_utilization_1.json" "$T_DIR/r2.json" \
    "$M/ascend_run2/minddata_pipeline_raw_1.csv"

# unknown files in the folder are named in a warning, and not read
D=$T_DIR/prof
mkdir -p "$D"
cp "$M/ascend_run2/"* "$D/"
printf 'my notes\n' > "$D/notes.txt"
"$PR_BIN" --input "$D" --json "$T_DIR/w.json" 2> "$T_DIR/err"
check "unknown member: exit 0" [ $? -eq 0 ]
check "unknown member: skipped with a warning" grep -q \
    "warning: skipping $D/notes.txt: not a file of MindSpore's profiler" \
    "$T_DIR/err"
check "known members: no warning" [ "$(grep -c warning "$T_DIR/err")" -eq 1 ]

# a timeline named on its own is read as MindSpore's, not as Chrome's
"$PR_BIN" --quiet --input "$M/ascend_run2/ascend_timeline_display_1.json" \
    --json "$T_DIR/one.json"
check "lone timeline: 112 device tasks" python3 -c "
import json, sys
k = json.load(open('$T_DIR/one.json'))['runs'][0]['kernels']
sys.exit(0 if sum(x['calls'] for x in k) == 112 else 1)"

# a damaged file: exit 2, the file and line named, no output
cp "$M/ascend_run2/output_timeline_data_1.txt" "$T_DIR/output_timeline_data_1.txt"
printf 'Default/X-op1,519,12.5x,0.1\n' >> "$T_DIR/output_timeline_data_1.txt"
"$PR_BIN" --input "$T_DIR/output_timeline_data_1.txt" --json "$T_DIR/bad.json" \
    2> "$T_DIR/err"
check "damaged rows: exit 2" [ $? -eq 2 ]
check "damaged rows: file and line named" grep -q \
    "output_timeline_data_1.txt: line 109: start_time or duration is not a time in ms" \
    "$T_DIR/err"
check "damaged rows: no output" [ ! -e "$T_DIR/bad.json" ]

echo "1..$T_N"
