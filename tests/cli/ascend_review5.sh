#!/bin/sh
# ascend_review5.sh - the fifth expert review of the Ascend and MindSpore
# reports on the shared samples (findings 2, 8, 10, 13): each expectation
# is computed here from the producer's own files where it is a number,
# and each check is skipped with a message when ../shared/traces is
# absent.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1 ||
    ! python3 -c "import sqlite3" > /dev/null 2>&1; then
    skip "ascend review 5" "no python3 with sqlite3"
    echo "1..$T_N"
    exit 0
fi
S=$PR_SHARED/traces

# 8. msinsight_full_db: CANN_API holds only a device query (id 0, the id
# of a task), a sync and blocking copies.  None launches a task, so no
# launch statistics are made and nothing is "already launched".
D=msprof/extra/msinsight_full_db
if shared_report fdb "$D"; then
    check "full_db: no launch statistics from calls that launch nothing" \
        python3 -c "
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[2])
names = {n for (n,) in db.execute('SELECT s.value FROM CANN_API c JOIN STRING_IDS s ON s.id = c.name')}
assert 'aclrtGetDeviceCount' in names, names
assert not any(n.startswith(('aclnn', 'aclop', 'launch')) for n in names), names
l = json.load(open(sys.argv[1]))['runs'][0]['launches']
assert l['kernels_with_launch'] == 0 and l['launch_delay_us'] is None, l
assert l['slowest_launch'] is None and 'no launch calls' in l['note'], l
" "$T_DIR/fdb.json" "$S/$D/msprof_0.db"
    check "full_db: the report claims no launch delay or launched work" \
        python3 -c "
import re, sys, html
t = html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[1]).read().replace('<wbr>', '')))
t = ' '.join(t.split())
# named only where Data quality lists what CANN_API holds instead of launches
t = re.sub(r'CANN_API has \\d+ rows \\([^)]*\\) and none of the node level', '', t)
assert 'aclrtGetDeviceCount' not in t
assert 'Median launch delay' not in t
assert 'already launched' not in t
assert 'launch-to-start delay' not in t
" "$T_DIR/fdb.html"
else
    skip "full_db: launches" "no $S/$D"
fi
# 13. torch_npu/old2023: the NPU metrics table's utilization is the
# incomplete task list's; it carries the tag, with the step table's busy
# share (computed here from step_trace_time.csv) beside it.
if shared_report old torch_npu/old2023; then
    check "old2023: the NPU metrics table is tagged with the step table's share" \
        python3 -c "
import csv, glob, json, os, re, sys, html
t = html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[1]).read().replace('<wbr>', '')))
t = ' '.join(t.split())
assert 'NPU metrics Device' not in t, 'bare NPU metrics table'
for r in json.load(open(sys.argv[2]))['runs']:
    f = glob.glob(os.path.join(sys.argv[3], 'test_rank_%d' % r['rank'], '*', 'step_trace_time.csv'))[0]
    row = list(csv.DictReader(open(f)))[0]
    busy = 100 * (float(row['Computing']) + float(row['Communication(Not Overlapped)'])) / float(row['Stage'])
    util = r['gpu_metrics'][0]['utilization_pct']
    # rank 0's tasks are an extract (review22a #2), rank 1's hold 5% of
    # its step table's device time (review23a #3): neither utilization is
    # known ('-')
    want = 'NPU metrics (incomplete task list) Device NPU utilization Computing Task time %d %s' % (
        r['gpu_metrics'][0]['device'], '\u2013' if util is None else '%.1f%%' % util)
    assert util is None, (r['rank'], util)
    assert want in t, want
    assert 'finds the NPU busy %.1f%% of the step' % busy in t, busy
" "$T_DIR/old.html" "$T_DIR/old.json" "$S/torch_npu/old2023"
else
    skip "old2023: NPU metrics tag" "no $S/torch_npu/old2023"
fi
# 10. mindspore/ascend_run1: GatherV2-op55 gathers [128000, 39] int32
# indices from a [184696, 8] fp32 table in 42.2 ms.  The rate is computed
# here from timeline_display_1.json's shapes and durations: far below any
# memory roof with 32-byte rows, so the finding says the cost is per row
# and names fewer lookups, not narrower tables.
R=mindspore/ascend_run1
if shared_report run1 "$R"; then
    check "ascend_run1: the embedding finding reads GatherV2-op55's rate per row" \
        python3 -c "
import json, statistics, sys
ev = [e for e in json.load(open(sys.argv[2])) if e.get('name') == 'GatherV2-op55']
a = ev[0]['args']
tab = [int(x) for x in a['input_0']['shape'].split(',')]
idx = [int(x) for x in a['input_1']['shape'].split(',')]
assert 'FLOAT32' in a['input_0']['data_type'] and 'INT32' in a['input_1']['data_type'], a
rows = 1
for d in idx:
    rows *= d
mean = statistics.mean(float(e['dur']) for e in ev)
gbps = rows * (2 * tab[1] * 4 + 4) / mean / 1000
assert gbps < 50, gbps
r = json.load(open(sys.argv[1]))['runs'][0]
t = [x['text'] for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'embedding'][0]
want = 'gathers %.2f M rows of %d bytes a call' % (rows / 1e6, tab[1] * 4)
assert want in t, (want, t)
assert '%.1f GB/s' % gbps in t, (gbps, t)
assert 'per row, not per byte' in t and 'de-duplicate the indices' in t, t
assert 'narrower or lower-precision tables)' not in t, t
assert 'memory-bound' not in t, t
# review 6 #7: the gain note names the per-row lever, not bytes
n = [x['gain_note'] for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'embedding'][0]
assert 'fewer or de-duplicated lookups' in n and 'bytes' not in n, n
# issue #31: the text's times are the whole capture's, the note's bound a
# step's (their time on the path, over the steps with a path): the text
# says so, and GatherV2-op55's capture time over the steps is its
# evidence's time a step (it is on the path whole)
f = [x for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'embedding'][0]
assert 'most of it (their time in the whole capture): GatherV2-op55 ' in t, t
import re
tot = float(re.search(r'GatherV2-op55 ([0-9.]+) ms', t).group(1))
ev = {e['name']: e['us'] for e in f['evidence']}
steps = int(re.search(r'a mean over its (\d+) steps', n).group(1))
assert abs(tot / steps - ev['GatherV2-op55'] / 1000) < 0.05, (tot, steps, ev)
assert abs(sum(ev.values()) - f['bound_us']) < 1, (ev, f['bound_us'])
" "$T_DIR/run1.json" "$S/$R/timeline_display_1.json"
else
    skip "ascend_run1: embedding rate" "no $S/$R"
fi
# 2, on a hand-made trace (tests/data/ascend/aclop): one
# aclopCompileAndExecute of 580 µs holding one AscendCL@opCompile step of
# 20 µs.  compile_us is the step's 20 µs, the finding says compilation is
# not the cost and advises no warm-up; with the step removed the trace
# does not say how much compiled, and the report says so.
A=$PR_SRCDIR/tests/data/ascend/aclop/trace_view.json
"$PR_BIN" -q -i "$A" --json "$T_DIR/ac.json" 2> "$T_DIR/ac.err"
grep -v 'AscendCL@opCompile' "$A" > "$T_DIR/trace_view.json"
"$PR_BIN" -q -i "$T_DIR/trace_view.json" --json "$T_DIR/ac0.json" \
    2> "$T_DIR/ac0.err"
check "aclop trace: compile_us is the opCompile step, the rest is the aclop path" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
oc = r['op_compile']
assert oc['calls'] == 1 and oc['total_us'] == 580 and oc['compile_us'] == 20, oc
t = [x['text'] for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'op_compile'][0]
assert 'Compilation is not the cost' in t and '0.02 ms in all, 20 µs a call' in t, t
assert 'The other 0.6 ms is the aclop path' in t and 'jit_compile=False' in t, t
assert 'warm up' not in t, t
r = json.load(open(sys.argv[2]))['runs'][0]
oc = r['op_compile']
assert oc['calls'] == 1 and oc['compile_us'] is None, oc
t = [x['text'] for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'op_compile'][0]
assert 'records no compile step' in t and 'is not known' in t, t
" "$T_DIR/ac.json" "$T_DIR/ac0.json"
echo "1..$T_N"
