#!/bin/sh
# ascend.sh - every torch_npu folder of ../shared/traces/torch_npu that
# holds the text export gives one run per rank folder, named by the
# rank_id of its profiler_info_{r}.json, and several ranks make a job.
# The expected numbers are computed here by Python from the files, by the
# rules of shared/spec/other-producers.md §2, not by profreport.
. "$PR_SRCDIR/tests/lib.sh"

if ! have_shared || ! command -v python3 >/dev/null 2>&1; then
    skip "torch_npu samples" "no $PR_SHARED/traces or no python3"
    echo "1..$T_N"
    exit 0
fi
A=$PR_SHARED/traces/torch_npu

cat > "$T_DIR/expect.py" <<'PY'
import csv, glob, json, os, sys
from decimal import Decimal

folder, summary = sys.argv[1], sys.argv[2]
want = {}
for info in glob.glob(os.path.join(folder, '*', 'profiler_info*.json')):
    run = os.path.dirname(info)
    out = os.path.join(run, 'ASCEND_PROFILER_OUTPUT')
    if not (os.path.exists(os.path.join(out, 'trace_view.json')) or
            os.path.exists(os.path.join(out, 'kernel_details.csv'))):
        continue
    want[int(json.load(open(info))['rank_id'])] = run
s = json.load(open(summary))
bad = []
got = {r['worker']: r for r in s['runs']}
for r in sorted(want):
    run = got.get('rank%d' % r)
    if run is None or run['rank'] != r:
        bad.append('no run rank%d with rank %d (runs: %s)' % (r, r, sorted(got)))
        continue
    table = os.path.join(want[r], 'ASCEND_PROFILER_OUTPUT', 'step_trace_time.csv')
    st = [Decimal(x['Stage']) + Decimal(x.get('Bubble') or 0)
          for x in csv.DictReader(open(table))] if os.path.exists(table) else []
    mine = [Decimal(str(x['duration_us'])) for x in run['steps'] or []]
    if st and (len(mine) != len(st) or
               any(abs(a - b) > b / 100 for a, b in zip(mine, st))):
        bad.append('rank%d: steps %s, step_trace_time %s' % (r, mine, st))
    # a record of another field count than the header's is not read
    # (its columns would be shifted: review22a #6, rank 0's line 17)
    rows = [x for x in csv.DictReader(open(os.path.join(
                want[r], 'ASCEND_PROFILER_OUTPUT', 'kernel_details.csv')))
            if None not in x and None not in x.values()]
    n = len(rows)
    us = sum(Decimal(x['Duration(us)'].strip()) for x in rows)
    k = run['kernels'] or []
    calls = sum(x['calls'] for x in k)
    total = sum(Decimal(str(x['total_us'])) for x in k)
    if calls != n or abs(total - us) > Decimal('0.001') * n + Decimal('0.01'):
        bad.append('rank%d: kernels %d / %s us, rows %d / %s us' % (r, calls, total, n, us))
    print('rank%d: %d kernels %s us, steps %s us (producer %s)' % (r, n, us, mine, st))
    # memory: a record per operator_memory row and per release; the peak
    # of PTA's Total Allocated, which memory_record.csv samples too.  Rows
    # more than an hour outside the span of the tasks are another
    # capture's (old2023 rank 1: a ResNet's, 134 days later) and left out
    # (review 22a #1)
    om = os.path.join(want[r], 'ASCEND_PROFILER_OUTPUT', 'operator_memory.csv')
    if os.path.exists(om):
        kd = os.path.join(want[r], 'ASCEND_PROFILER_OUTPUT', 'kernel_details.csv')
        ks = [float(x['Start Time(us)']) for x in csv.DictReader(open(kd))] \
            if os.path.exists(kd) else []
        rows = list(csv.DictReader(open(om)))
        if ks:
            rows = [x for x in rows if min(ks) - 3.6e9 <=
                    float(x['Allocation Time(us)']) <= max(ks) + 3.6e9]
        frees = sum(1 for x in rows if x['Release Time(us)'].strip())
        dev = (run['memory'] or {'devices': [{}]})['devices'][0]
        if not rows:
            if run['memory'] is not None:
                bad.append('rank%d: memory of another capture kept' % r)
        else:
            if dev.get('allocations') != len(rows) or dev.get('frees') != frees:
                bad.append('rank%d: memory %s allocations %s frees, rows %d %d'
                           % (r, dev.get('allocations'), dev.get('frees'), len(rows), frees))
            pta_rows = [x for x in rows if not x['Name'].startswith('cann::')]
            own = [Decimal(x[k]) for x in pta_rows for k in
                   ('Allocation Total Allocated(MB)', 'Release Total Allocated(MB)') if x.get(k)]
            mr = list(csv.DictReader(open(os.path.join(want[r], 'ASCEND_PROFILER_OUTPUT',
                                                       'memory_record.csv'))))
            pta = [Decimal(x['Total Allocated(MB)']) for x in mr
                   if x['Component'] == 'PTA' and x['Total Allocated(MB)']]
            # old2023's memory_record went through a spreadsheet (times like
            # 1.69512E+15) and was cut: only whole tables are compared; a
            # table of GE rows only has GE's totals, and the device's peak is
            # memory_record.csv's PTA maximum (MindStudio Insight's PTA curve)
            whole = own and not any('E+' in x['Timestamp(us)'] for x in mr)
            for what, v in (('operator_memory', own),
                            ('memory_record', pta if whole or not own else [])):
                if not v:
                    continue
                peak = int(max(v) * 1048576)
                if abs(Decimal(dev['peak_allocated_bytes']) - peak) > 1:
                    bad.append('rank%d: peak %s, %s PTA peak %s'
                               % (r, dev['peak_allocated_bytes'], what, peak))
                print('rank%d: peak allocated %s bytes (%s %s)'
                      % (r, dev['peak_allocated_bytes'], what, peak))
    # collectives without trace_view.json: sized by communication.json,
    # SDMA + RDMA (msprof sums HCCS, PCIE and SIO into SDMA), what the
    # rank sent over its links: the message is that over nccl-tests' link
    # factor for the group communication_matrix.json shows (review 20 #1)
    cj = os.path.join(want[r], 'ASCEND_PROFILER_OUTPUT', 'communication.json')
    tv = os.path.join(want[r], 'ASCEND_PROFILER_OUTPUT', 'trace_view.json')
    cm = os.path.join(want[r], 'ASCEND_PROFILER_OUTPUT', 'communication_matrix.json')
    if os.path.exists(cj) and not os.path.exists(tv):
        grp = {}
        for st_ in json.load(open(cm)).values():
            for kind in st_.values():
                for k, links in kind.items():
                    if '@' in k:
                        g = k.split('@')[1]
                        grp[g] = max([grp.get(g, 0)] + [int(x) + 1 for l in links for x in l.split('-')])
        def factor(name, g):
            n = grp.get(g, 0)
            c = name.replace('hcom_', '').split('_')[0].lower()
            if c in ('allreduce', 'allgather', 'reducescatter') and n < 2:
                return None  # no group size: no message
            if c == 'allreduce':
                return Decimal(2 * (n - 1)) / n
            if c in ('allgather', 'reducescatter'):
                return Decimal(n - 1) / n
            return 1
        ops = [(k.split('@')[0], Decimal(str(o['Communication Time Info']['Start Timestamp(us)'])),
                sum(Decimal(str(o['Communication Bandwidth Info'].get(l, {}).get('Transit Size(MB)', 0)))
                    for l in ('SDMA', 'RDMA')) * 1000000 / factor(k.split('@')[0], k.split('@')[1]))
               for st_ in json.load(open(cj)).values()
               for kind in ('p2p', 'collective') for k, o in st_.get(kind, {}).items()
               if 'Start Timestamp(us)' in o.get('Communication Time Info', {})
               and factor(k.split('@')[0], k.split('@')[1])]
        by = {}
        for x in csv.DictReader(open(os.path.join(want[r], 'ASCEND_PROFILER_OUTPUT',
                                                  'kernel_details.csv'))):
            if x['Accelerator Core'] != 'HCCL':
                continue
            t0 = Decimal(x['Start Time(us)'].strip())
            hit = [b for nm, ts, b in ops if nm == x['Name'] and abs(ts - t0) <= 1]
            coll = x['Type'].replace('hcom_', '').rstrip('_').lower()
            coll = {'allreduce': 'all_reduce', 'allgather': 'all_gather',
                    'reducescatter': 'reduce_scatter'}.get(coll, coll)
            if hit:
                by[coll] = by.get(coll, 0) + int(round(hit[0]))
        mine = {o['name'].split(':')[1]: o['total_bytes'] for o in run['communication']['ops']}
        for coll, b in by.items():
            if mine.get(coll) != b:
                bad.append('rank%d: %s %s bytes, communication.json %s' % (r, coll, mine.get(coll), b))
        print('rank%d: collective bytes %s' % (r, by))
if len(s['runs']) != len(want):
    bad.append('%d runs, %d rank folders' % (len(s['runs']), len(want)))
if len(want) > 1 and (s['job'] is None or s['job']['ranks'] != len(want)):
    bad.append('job: %s' % json.dumps(s['job'])[:200])
print('ranks %s' % sorted(want))
print('\n'.join(bad))
sys.exit(1 if bad else 0)
PY

for d in text_level0 text_level1 text_level2 old2023; do
    rm -f "$T_DIR/s.json"
    if "$PR_BIN" --quiet --input "$A/$d" --json "$T_DIR/s.json" 2> "$T_DIR/err"; then
        if python3 "$T_DIR/expect.py" "$A/$d" "$T_DIR/s.json" > "$T_DIR/py" 2>&1; then
            ok "$d: runs are the rank folders ($(tr '\n' ' ' < "$T_DIR/py"))"
        else
            not_ok "$d: $(tr '\n' ' ' < "$T_DIR/py" | head -c 600)"
        fi
    else
        not_ok "$d: exit $? ($(head -c 300 "$T_DIR/err"))"
    fi
done

# files of the export that are not read (issue #32): a normal export warns
# nothing; --verbose names each with its reason, as a note
"$PR_BIN" --input "$A/text_level1" --json "$T_DIR/w.json" 2> "$T_DIR/err"
check "job folder: exit 0" [ $? -eq 0 ]
check "job folder: a normal torch_npu export warns nothing" \
    [ "$(grep -c 'warning' "$T_DIR/err")" -eq 0 ]
"$PR_BIN" -v --input "$A/text_level1/rank0_ascend_pt" --json "$T_DIR/w.json" \
    2> "$T_DIR/err"
check "rank folder, -v: exit 0" [ $? -eq 0 ]
check "rank folder, -v: a file not read is named, as a note" grep -q \
    "note: rank0: not read: $A/text_level1/rank0_ascend_pt/ASCEND_PROFILER_OUTPUT/l2_cache.csv" \
    "$T_DIR/err"
check "rank folder, -v: and no warning" [ "$(grep -c 'warning' "$T_DIR/err")" -eq 0 ]
"$PR_BIN" -q --input "$A/text_level1" --json "$T_DIR/w.json" 2> "$T_DIR/err"
check "job folder, -q: no warning" [ ! -s "$T_DIR/err" ]

echo "1..$T_N"
