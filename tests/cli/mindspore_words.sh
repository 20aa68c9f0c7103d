#!/bin/sh
# mindspore_words.sh - the review's finding 12, third bullet (issue #30):
# a MindSpore or CANN run is told in its own words.
# - No task of an Ascend run is named by another platform's kernel rule
#   (pytorch.pool on MindSpore's MaxPoolGradWithArgmax, pytorch.softmax on
#   OneHotD because its scope is SoftmaxCrossEntropyWithLogits, pytorch.index
#   on CANN's NonZero): only CANN's, HCCL's and MindSpore's rules name
#   them, and every task stays classified (no unknown kernel time).
# - MindSpore's GPU profiler records through CUPTI: its kernels' math is
#   NVIDIA's cuda_core, not the vendor-neutral simt.
# - A MindSpore report's Source and Modules paragraphs, its stack note and
#   its Cube note speak of MindSpore (its frames, Cells, its profiler and
#   files), not torch, nn.Module or kernel_details.csv.
. "$PR_SRCDIR/tests/lib.sh"

S=${PR_SHARED:-}/traces
if ! have_shared || ! command -v python3 >/dev/null 2>&1; then
    skip "MindSpore's words" "no $S or no python3"
    echo "1..$T_N"
    exit 0
fi

n=0
for p in msprof/mindinsight_cann6_PROF msprof/extra/msinsight_op_summary \
    msprof/torch_npu_ascend_profiler_output torch_npu/text_level1 \
    torch_npu/old2023 mindspore/ascend_run2 mindspore/extra/cluster_4rank_pipeline; do
    n=$((n + 1))
    "$PR_BIN" -q -i "$S/$p" --json "$T_DIR/$n.json" 2>"$T_DIR/err"
    check "$p: only Ascend's rules name its tasks, none unknown" python3 - \
        "$T_DIR/$n.json" <<'PY'
import json, sys
fail = []
for r in json.load(open(sys.argv[1]))['runs']:
    if not any(d.get('kind') == 'npu' for d in r['devices']):
        continue
    for k in r['kernels']:
        rule = k.get('kernel_rule') or ''
        if rule and rule.split('.')[0] not in ('cann', 'hccl', 'mindspore'):
            fail.append('%s: %s' % (k['name'], rule))
    u = (r.get('kernel_classes') or {}).get('unknown') or {}
    if (u.get('time_pct') or 0) > 0:
        fail.append('unknown %s' % u)
print('\n'.join(fail[:10]))
sys.exit(1 if fail else 0)
PY
done

"$PR_BIN" -q -i "$S/msprof/mindinsight_cann6_PROF" --json "$T_DIR/c6.json"
check "CANN 6 MindSpore run: its pool, OneHotD and ReduceMeanD by MindSpore's types" \
    python3 - "$T_DIR/c6.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
want = {'MaxPoolGradWithArgmax': 'reduction', 'MaxPoolWithArgmax': 'reduction',
        'OneHotD': 'other', 'ReduceMeanD': 'reduction'}
fail = []
for k in r['kernels']:
    t = k['name'].split('/')[-1].split('-op')[0]
    if t in want and (k['family'] != want[t] or
                      k['kernel_rule'] != 'mindspore.' + ('index' if want[t] == 'other' else want[t])):
        fail.append('%s: %s %s' % (k['name'], k['family'], k['kernel_rule']))
print('\n'.join(fail))
sys.exit(1 if fail else 0)
PY

"$PR_BIN" -q -i "$S/mindspore/fixtures" --json "$T_DIR/fx.json"
check "MindSpore's GPU run: cuda_core math, never simt" python3 - \
    "$T_DIR/fx.json" <<'PY'
import json, sys
runs = [r for r in json.load(open(sys.argv[1]))['runs'] if r['worker'].endswith('-gpu')]
maths = {k.get('math') for r in runs for k in r['kernels']}
print(maths)
sys.exit(0 if runs and 'cuda_core' in maths and 'simt' not in maths else 1)
PY

"$PR_BIN" -q -i "$S/mindspore/ascend_run2" --json "$T_DIR/r2.json" \
    --html "$T_DIR/r2.html"
python3 - "$T_DIR/r2.html" > "$T_DIR/r2.txt" <<'PY'
import html, re, sys
t = open(sys.argv[1], encoding='utf-8').read().replace('<wbr>', '')
t = re.sub(r'<(style|script)\b.*?</\1>', '', t, flags=re.S)
print(html.unescape(re.sub(r'<[^>]+>', '\n', t)))
PY
check "ascend_run2 HTML: Source and Modules in MindSpore's words" sh -c "
    grep -q 'innermost frame outside mindspore' '$T_DIR/r2.txt' &&
    grep -q 'Time per network Cell' '$T_DIR/r2.txt' &&
    ! grep -q 'outside torch\|nn.Module instance' '$T_DIR/r2.txt'"
check "ascend_run2: stack and Cube notes name MindSpore's profiler and files" \
    python3 - "$T_DIR/r2.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
src = r['source_view']['note']
cube = r['tensor_cores']['note']
print(src, cube)
sys.exit(0 if 'mindspore.profiler.profile(with_stack=True)' in src and
         'torch_npu' not in src and "MindSpore's profiler files" in cube and
         'kernel_details' not in cube else 1)
PY

echo "1..$T_N"
