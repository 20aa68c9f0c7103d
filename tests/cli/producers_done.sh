#!/bin/sh
# producers_done.sh - issue #13's "Done when" audit: every run folder under
# ../shared/traces/{torch_npu,msprof,mindspore} gives a summary whose
# kernel count and total device time equal the CSV/DB/JSON rows they came
# from, whose steps agree with the producer's own step trace
# (step_trace_time.csv, analysis.db StepTraceTime, msprof step_trace_*.json,
# MindSpore's step_trace_raw_*_detail_time.csv) within 1%, and whose runs
# are named by the rank id the folder states (profiler_info_*.json,
# info.json, RANK_DEVICE_MAP, MindSpore's file suffix); folders holding the
# ranks of one job are checked whole too.  One TAP case per folder and
# property; a folder that cannot have a property (no step trace, no rank
# id, no run at all) says why in a SKIP line.  The expected numbers are
# computed here by Python from the files (shared/spec/other-producers.md
# §2, §3), never by profreport.
. "$PR_SRCDIR/tests/lib.sh"

if ! have_shared || ! command -v python3 >/dev/null 2>&1; then
    skip "producer samples" "no $PR_SHARED/traces or no python3"
    echo "1..$T_N"
    exit 0
fi
S=$PR_SHARED/traces

cat > "$T_DIR/audit.py" <<'PY'
import csv, glob, json, os, re, sqlite3, sys
from decimal import Decimal

# usage: audit.py list ROOT            -> run folders, one a line
#        audit.py check FOLDER SUMMARY -> lines "ok|not_ok|skip<TAB>property<TAB>text"
D = Decimal


def dec(x):
    return D(str(x).strip().rstrip('\t').strip())


def is_run(path):
    names = set(os.listdir(path))
    if 'ASCEND_PROFILER_OUTPUT' in names or os.path.basename(path).startswith('PROF_'):
        return True
    files = [n for n in names if os.path.isfile(os.path.join(path, n))
             and not n.startswith(('NOTICE', 'LICENSE'))]
    return bool(files)


def run_folders(root):
    out = []
    for tree in ('torch_npu', 'msprof', 'mindspore'):
        for dirpath, dirs, _ in os.walk(os.path.join(root, tree)):
            dirs.sort()
            if dirpath == os.path.join(root, tree):
                continue
            if is_run(dirpath):
                out.append(os.path.relpath(dirpath, root))
                dirs[:] = []  # a run's inner folders belong to it
    return out


def csv_rows(path):
    with open(path, encoding='utf-8-sig', newline='') as f:
        rows = list(csv.reader(f))
    head = [h.strip() for h in rows[0]]
    # a record of another field count than the header's is not read: its
    # columns would be shifted (review22a #6)
    return [dict(zip(head, r)) for r in rows[1:] if r and len(r) == len(head)]


def task_rows(path):
    """A task table's rows as tasks: a row repeating the Stream ID, Task ID,
    start and duration of an earlier one is that task again (review22a #8)."""
    out, seen = [], set()
    for x in csv_rows(path):
        start = [k for k in x if 'Start Time' in k]
        dur = [k for k in x if 'Duration' in k]
        key = tuple(x.get(k, '').strip() for k in
                    ['Stream ID', 'Task ID'] + start[:1] + dur[:1])
        if not key[0].isdigit() or not key[1].isdigit() or key not in seen:
            out.append(x)
        seen.add(key)
    return out


# ---------------------------------------------------------------- expected
# Each kind gives: kernels {rank: (n, us, source)} or a skip reason;
# steps {rank: [(number, us)]} or a skip reason; ranks {rank} or a reason.

def torch_npu(folder):
    out = os.path.join(folder, 'ASCEND_PROFILER_OUTPUT')
    info = glob.glob(os.path.join(folder, 'profiler_info*.json'))
    rank = None
    if info:
        rank = json.load(open(info[0])).get('rank_id')
        rank = int(rank) if rank not in (None, '', -1, '-1') else None
    e = {'rank': rank, 'rank_src': os.path.basename(info[0]) if info else None}
    kd = os.path.join(out, 'kernel_details.csv')
    db = glob.glob(os.path.join(out, 'ascend_pytorch_profiler*.db'))
    if os.path.exists(kd):
        rows = task_rows(kd)
        col = [k for k in rows[0] if k.startswith('Duration')][0]
        e['kernels'] = (len(rows), sum(dec(x[col]) for x in rows),
                        'kernel_details.csv rows')
    elif db:
        e['kernels'] = db_tasks(db[0])
    st = os.path.join(out, 'step_trace_time.csv')
    an = os.path.join(out, 'analysis.db')
    if os.path.exists(st):
        e['steps'] = ([(int(x['Step']), dec(x['Stage'])) for x in csv_rows(st)
                       if x.get('Step', '').strip().isdigit()],
                      'step_trace_time.csv Stage')
    elif os.path.exists(an):
        c = sqlite3.connect('file:%s?immutable=1' % an, uri=True)
        e['steps'] = ([(int(s), dec(v)) for s, v in
                       c.execute('select step, stage from StepTraceTime')],
                      'analysis.db StepTraceTime.stage')
    else:
        e['steps_skip'] = 'no step_trace_time.csv nor analysis.db'
    return {rank: e}


def db_tasks(path):
    c = sqlite3.connect('file:%s?immutable=1' % path, uri=True)
    n, ns = c.execute('select count(*), coalesce(sum(t.endNs - t.startNs), 0) '
                      'from COMPUTE_TASK_INFO k join TASK t '
                      'on t.globalTaskId = k.globalTaskId').fetchone()
    m, ms = c.execute('select count(*), coalesce(sum(endNs - startNs), 0) '
                      'from COMMUNICATION_OP').fetchone()
    return (n + m, D(ns + ms) / 1000,
            'COMPUTE_TASK_INFO x TASK + COMMUNICATION_OP rows')


NOT_WORK = ('NOTIFY', 'EVENT', 'MEMCPY', 'REDUCE_ASYNC', 'SDMA', 'Notify',
            'Write Value', 'Event', 'HCCL')


def prof(folder):
    dev = glob.glob(os.path.join(folder, 'device_*'))[0]
    tl = os.path.join(dev, 'timeline')
    n, us, lo, hi = 0, D(0), None, None
    for p in glob.glob(tl + '/msprof_*.json'):
        ev = json.load(open(p))
        procs = {e['pid']: e['args']['name'] for e in ev
                 if e.get('ph') == 'M' and e.get('name') == 'process_name'}
        comm = {(e['pid'], e['tid']) for e in ev
                if e.get('ph') == 'M' and e.get('name') == 'thread_name'
                and 'Communication' in e['args']['name']}
        for e in ev:
            if e.get('ph') != 'X' or e.get('cat'):
                continue
            proc = procs.get(e['pid'])
            tt = e.get('args', {}).get('Task Type', '')
            if not ((proc == 'Ascend Hardware' and not tt.startswith(NOT_WORK))
                    or (proc == 'HCCL' and (e['pid'], e['tid']) in comm)):
                continue
            n += 1
            us += dec(e['dur'])
            a = dec(e['ts'])
            lo = a if lo is None else min(lo, a)
            hi = a + dec(e['dur']) if hi is None else max(hi, a + dec(e['dur']))
    rank = json.load(open(glob.glob(dev + '/info.json.*')[0])).get('rank_id')
    steps = []
    for p in glob.glob(tl + '/step_trace_*.json'):
        for e in json.load(open(p)):
            if e.get('cat') != 'Iteration Time':
                continue
            a = dec(e['ts'])
            if lo is not None and a < hi and a + dec(e['dur']) > lo:
                steps.append((int(e['args']['Iteration ID']), dec(e['dur'])))
    e = {'rank': rank, 'rank_src': 'info.json rank_id',
         'kernels': (n, us, 'msprof_*.json device tasks'),
         'steps': (steps, 'step_trace_*.json iterations the tasks cover')}
    if not glob.glob(tl + '/step_trace_*.json'):
        e['steps_skip'] = 'no step_trace_*.json'
    return {rank: e}


def trace_view(folder):
    ev = json.load(open(os.path.join(folder, 'trace_view.json')))
    procs = {e['pid']: e['args']['name'] for e in ev
             if e.get('ph') == 'M' and e.get('name') == 'process_name'}
    # an RTS copy task (MEMCPY_ASYNC) is a copy, not a kernel (review
    # 28a #10)
    xs = [e for e in ev if e.get('ph') == 'X'
          and procs.get(e['pid']) == 'Ascend Hardware'
          and e.get('name') != 'MEMCPY_ASYNC']
    e = {'rank': None,
         'rank_skip': 'no profiler_info_*.json: the folder names no rank',
         'kernels': (len(xs), sum(dec(x['dur']) for x in xs),
                     'trace_view.json "Ascend Hardware" events but its '
                     'MEMCPY_ASYNC copies'),
         'steps_skip': 'no step_trace_time.csv in the folder'}
    out = {('trace_view', None): e}
    # torch_npu kernel_details tables under other names beside it are
    # other captures, each a run named by its file (known by header)
    for p in sorted(glob.glob(os.path.join(folder, 'kernel_details?*.csv'))):
        rows = task_rows(p)
        out[(os.path.basename(p), None)] = {
            'rank': None,
            'rank_skip': 'a kernel_details table names no rank',
            'kernels': (len(rows), sum(dec(x['Duration(us)']) for x in rows),
                        '%s rows' % os.path.basename(p)),
            'steps_skip': 'no step_trace_time.csv beside %s' % os.path.basename(p)}
    return out


def op_summary(folder):
    p = glob.glob(os.path.join(folder, 'op_summary*.csv'))[0]
    rows = task_rows(p)
    return {None: {'rank': None,
                   'rank_skip': 'a lone op_summary CSV names no rank',
                   'kernels': (len(rows), sum(dec(x['Task Duration(us)'])
                                              for x in rows),
                               'op_summary rows'),
                   'steps_skip': 'no step_trace file beside the op_summary CSV'}}


def msprof_db(folder):
    p = glob.glob(os.path.join(folder, 'msprof_*.db'))[0]
    c = sqlite3.connect('file:%s?immutable=1' % p, uri=True)
    tables = {r[0] for r in c.execute(
        "select name from sqlite_master where type='table'")}
    e = {'rank': None, 'kernels': db_tasks(p)}
    if 'RANK_DEVICE_MAP' in tables:
        e['rank'] = c.execute('select rankId from RANK_DEVICE_MAP').fetchone()[0]
        e['rank_src'] = 'RANK_DEVICE_MAP'
    else:
        e['rank_skip'] = 'no RANK_DEVICE_MAP table: the database names no rank'
    if 'STEP_TIME' in tables:
        e['steps'] = ([(int(i), D(b - a) / 1000) for i, a, b in
                       c.execute('select id, startNs, endNs from STEP_TIME')],
                      'STEP_TIME rows')
    else:
        e['steps_skip'] = 'no STEP_TIME table nor step_trace_time.csv'
    return {None: e}


def ms_rank_of(name):
    m = re.findall(r'_(\d+)(?=[_.])', name)
    return int(m[-1]) if m else None


def mindspore(folder):
    def files(pattern):
        return {ms_rank_of(os.path.basename(p)): p
                for p in glob.glob(os.path.join(folder, pattern))}
    rows = files('output_timeline_data_*.txt')
    aicpu = files('aicpu_intermediate_*.csv')
    timelines = {r: p for r, p in files('*timeline_display_*.json').items()
                 if 'gpu_' not in p}
    details = files('aicore_intermediate_*_detail.csv')
    steps = files('step_trace_raw_*_detail_time.csv')
    gpu = files('gpu_timeline_display_*.json')
    out = {}
    for r in sorted(set(rows) | set(timelines) | set(details) | set(steps)):
        e = {'rank': r, 'rank_src': 'file name suffix'}
        if r in rows:
            n, us = 0, D(0)
            for x in list(csv.reader(open(rows[r])))[1:]:
                n += 1
                us += dec(x[3]) * 1000
            for x in csv.DictReader(open(aicpu[r])) if r in aicpu else []:
                n += 1
                us += dec(x['run_end']) - dec(x['run_start'])
            e['kernels'] = (n, us, 'output_timeline_data (+ aicpu_intermediate) rows')
        elif r in timelines:
            ev = [x for x in json.load(open(timelines[r])) if x.get('pid') in (1, 9000)]
            e['kernels'] = (len(ev), sum(dec(x['dur']) for x in ev),
                            'timeline_display device events')
        elif r in details:
            n, us = 0, D(0)
            for x in list(csv.reader(open(details[r])))[1:]:
                f = int(x[2]) if len(x) > 2 else 1
                n += f
                us += dec(x[1]) * 1000 * f
            e['kernels'] = (n, us, 'aicore_intermediate_detail rows')
        elif r in steps:
            n, us = 0, D(0)
            for x in csv.DictReader(open(steps[r])):
                if not x['step_num'].isdigit() or int(x['step_num']) <= 0:
                    continue
                for k in x:
                    if k.startswith('stream_') and k.endswith('_start_point') \
                            and '_parallel_' not in k:
                        a = int(x[k])
                        b = int(x[k[:-len('_start_point')] + '_end_point'])
                        if a or b:
                            n += 1
                            us += D(b - a) / 100
            e['kernels'] = (n, us, 'step_trace_raw communication segments')
        if r in steps:
            e['steps'] = ([(int(x['step_num']), D(x['total']) / 100)
                           for x in csv.DictReader(open(steps[r]))
                           if x['step_num'].isdigit() and int(x['step_num']) > 0],
                          'step_trace_raw total (10 ns)')
        else:
            e['steps_skip'] = 'no step_trace_raw_%d_detail_time.csv' % r
        if e['kernels'][0] == 0 and 'steps' not in e:
            continue
        out[('rank%d' % r, r)] = e
    for r, p in sorted(gpu.items()):
        ev = [x for x in json.load(open(p)) if x.get('ph') == 'X' and x.get('tid') != 'Ops']
        twin = any(k[1] == r for k in out)
        out[('rank%d%s' % (r, '-gpu' if twin else ''), r)] = {
            'rank': r, 'rank_src': 'file name suffix',
            'kernels': (len(ev), sum(dec(x['dur']) for x in ev),
                        'gpu_timeline_display kernel events'),
            'steps_skip': 'no step_trace_profiling_%d.txt' % r}
    return out


def expected(folder):
    names = set(os.listdir(folder))
    if 'ASCEND_PROFILER_OUTPUT' in names:
        return 'torch_npu', torch_npu(folder)
    if os.path.basename(folder).startswith('PROF_'):
        return 'msprof', prof(folder)
    if 'trace_view.json' in names:
        return 'trace_view', trace_view(folder)
    if any(n.startswith('op_summary') for n in names):
        return 'op_summary', op_summary(folder)
    if any(n.startswith('msprof_') and n.endswith('.db') for n in names):
        return 'msprof_db', msprof_db(folder)
    if 'cluster_step_trace_time.csv' in names or 'communication_group.json' in names:
        return None, 'msprof-analyze cluster output: no run to read (refused by design)'
    ms = mindspore(folder)
    if ms:
        return 'mindspore', ms
    return None, 'no profiling data (%s)' % ', '.join(sorted(names))


# ---------------------------------------------------------------- compare

def step_no(s):
    m = re.search(r'(\d+)$', s['name'])
    return int(m.group(1)) if m else None


def check(folder, summary, rc):
    kind, exp = expected(folder)
    out = []
    if kind is None:
        for p in ('kernels', 'steps', 'ranks'):
            out.append(('skip', p, exp))
        return out
    if rc != 0:
        for p in ('kernels', 'steps', 'ranks'):
            out.append(('not_ok', p, 'profreport exit %d' % rc))
        return out
    runs = json.load(open(summary))['runs']
    # pair each expected run with a summary run: by name when the folder
    # names its ranks, else the only run
    pairs = []
    for key, e in exp.items():
        want = key[0] if isinstance(key, tuple) else (
            'rank%d' % e['rank'] if e['rank'] is not None else None)
        got = [r for r in runs if r['worker'] == want] if want else \
            (runs if len(runs) == 1 else [])
        pairs.append((want, e, got[0] if len(got) == 1 else None))
    k_bad, k_txt, s_bad, s_txt, r_bad, r_txt, r_skip = [], [], [], [], [], [], []
    s_skip = []
    for want, e, run in pairs:
        tag = want or 'the run'
        if run is None:
            msg = '%s: no such run (runs: %s)' % (tag, [r['worker'] for r in runs])
            k_bad.append(msg)
            s_bad.append(msg)
            r_bad.append(msg)
            continue
        n, us, src = e['kernels']
        k = run.get('kernels') or []
        gn = sum(x['calls'] for x in k)
        gus = sum(dec(x['total_us']) for x in k)
        tol = D('0.001') * max(n, 1) + D('0.001')
        line = '%s: %d kernels %s us (%s: %d, %s us)' % (tag, gn, gus, src, n, us)
        (k_bad if gn != n or abs(gus - us) > tol else k_txt).append(line)
        if 'steps_skip' in e:
            s_skip.append('%s: %s' % (tag, e['steps_skip']))
        else:
            want_steps, src = e['steps']
            # a step the device record starts or ends inside is left out,
            # as the TensorBoard plugin trims an incomplete last step (6.4),
            # and its step_cut diagnostic names it: the producer's steps
            # less those named
            cut = [int(m) for d in run.get('diagnostics', [])
                   if d.get('kind') == 'step_cut'
                   for m in re.findall(r'Step (\d+) is left out', d['text'])]
            want_steps = [x for x in want_steps if x[0] not in cut]
            got_steps = [(step_no(x), dec(x['duration_us'])) for x in run['steps']]
            ws = sorted(want_steps)
            gs = sorted(got_steps, key=lambda x: (x[0] is None, x[0] or 0))
            line = '%s: %d steps (%s: %d)' % (tag, len(gs), src, len(ws))
            bad = len(ws) != len(gs) or any(
                (a[0] is not None and a[0] != b[0]) or abs(a[1] - b[1]) > b[1] / 100
                for a, b in zip(gs, ws))
            if bad:
                line += ' got %s want %s' % (
                    [(a, str(b)) for a, b in gs[:4]], [(a, str(b)) for a, b in ws[:4]])
            (s_bad if bad else s_txt).append(line)
        if e['rank'] is None:
            r_skip.append('%s: %s' % (tag, e.get('rank_skip', 'no rank id')))
        elif run['worker'] != 'rank%d' % e['rank'] and \
                not run['worker'].startswith('rank%d-' % e['rank']) \
                or run.get('rank') != e['rank']:
            r_bad.append('%s: worker %s rank %s, %s says %d' % (
                tag, run['worker'], run.get('rank'), e['rank_src'], e['rank']))
        else:
            r_txt.append('%s (%s)' % (run['worker'], e['rank_src']))
    if len(runs) != len(pairs):
        k_bad.append('%d runs, expected %d' % (len(runs), len(pairs)))
    out.append(('not_ok', 'kernels', '; '.join(k_bad)) if k_bad
               else ('ok', 'kernels', '; '.join(k_txt)))
    if s_bad:
        out.append(('not_ok', 'steps', '; '.join(s_bad + s_skip)))
    elif s_skip and not s_txt:
        out.append(('skip', 'steps', '; '.join(s_skip)))
    else:
        out.append(('ok', 'steps within 1%', '; '.join(s_txt + s_skip)))
    if r_bad:
        out.append(('not_ok', 'ranks', '; '.join(r_bad + r_skip)))
    elif r_skip and not r_txt:
        out.append(('skip', 'ranks', '; '.join(r_skip)))
    else:
        out.append(('ok', 'ranks named by rank id', '; '.join(r_txt + r_skip)))
    return out


def jobs(root):
    """Folders holding several run folders whose ranks are known: given
    whole, their runs are named by those ranks."""
    by = {}
    for d in run_folders(root):
        kind, exp = expected(os.path.join(root, d))
        if kind is None:
            continue
        ranks = [e['rank'] for e in exp.values()]
        by.setdefault(os.path.dirname(d), []).extend(ranks)
    return [(p, sorted(r)) for p, r in sorted(by.items())
            if len(r) > 1 and None not in r and len(set(r)) == len(r)]


def check_job(summary, rc, ranks):
    if rc != 0:
        return [('not_ok', 'job: ranks named by rank id', 'profreport exit %d' % rc)]
    runs = json.load(open(summary))['runs']
    got = sorted((r['worker'], r.get('rank')) for r in runs)
    want = sorted(('rank%d' % r, r) for r in ranks)
    return [('ok' if got == want else 'not_ok', 'job: ranks named by rank id',
             'runs %s, folders say %s' % (got, want))]


if __name__ == '__main__':
    if sys.argv[1] == 'list':
        print('\n'.join(run_folders(sys.argv[2])))
    elif sys.argv[1] == 'jobs':
        for p, r in jobs(sys.argv[2]):
            print('%s\t%s' % (p, ','.join(map(str, r))))
    else:
        if sys.argv[1] == 'job':
            res = check_job(sys.argv[3], int(sys.argv[4]),
                            [int(x) for x in sys.argv[2].split(',')])
        else:
            res = check(sys.argv[2], sys.argv[3], int(sys.argv[4]))
        for st, prop, text in res:
            print('%s\t%s\t%s' % (st, prop, text.replace('\t', ' ')[:700]))
PY

# one line "status<TAB>property<TAB>text" per property -> TAP
report() {
    if [ ! -s "$T_DIR/res" ]; then
        not_ok "$1: the audit script failed: $(tr '\n' ' ' < "$T_DIR/py" | head -c 400)"
        return
    fi
    while IFS='	' read -r st prop text; do
        case $st in
        ok) ok "$1: $prop ($text)" ;;
        skip) skip "$1: $prop" "$text" ;;
        *) not_ok "$1: $prop: $text" ;;
        esac
    done < "$T_DIR/res"
}

python3 "$T_DIR/audit.py" list "$S" > "$T_DIR/folders"
check "run folders found under torch_npu, msprof and mindspore" \
    [ "$(wc -l < "$T_DIR/folders")" -ge 3 ]
while read -r d; do
    rm -f "$T_DIR/s.json"
    "$PR_BIN" --quiet --input "$S/$d" --json "$T_DIR/s.json" \
        < /dev/null 2> "$T_DIR/err"
    rc=$?
    python3 "$T_DIR/audit.py" check "$S/$d" "$T_DIR/s.json" "$rc" \
        > "$T_DIR/res" 2> "$T_DIR/py" < /dev/null || : > "$T_DIR/res"
    report "$d"
done < "$T_DIR/folders"

python3 "$T_DIR/audit.py" jobs "$S" > "$T_DIR/jobs"
while IFS='	' read -r d ranks; do
    rm -f "$T_DIR/s.json"
    "$PR_BIN" --quiet --input "$S/$d" --json "$T_DIR/s.json" \
        < /dev/null 2> "$T_DIR/err"
    rc=$?
    python3 "$T_DIR/audit.py" job "$ranks" "$T_DIR/s.json" "$rc" \
        > "$T_DIR/res" 2> "$T_DIR/py" < /dev/null || : > "$T_DIR/res"
    report "$d"
done < "$T_DIR/jobs"

echo "1..$T_N"
