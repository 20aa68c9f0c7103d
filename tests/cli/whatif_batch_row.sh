#!/bin/sh
# whatif_batch_row.sh - review 13 #7: the What-if table's "Step after"
# for twice the batch is the replayed step that does twice the samples
# (hta nccl: 236 ms), not the time per step's worth (118 ms, the summary's
# what_if[].step_us, from which its saving per step's worth comes).
. "$PR_SRCDIR/tests/lib.sh"

NC=hta/nccl_parser_config
if ! have_shared || [ ! -e "$PR_SHARED/traces/$NC" ]; then
    skip "twice the batch's Step after" "no $PR_SHARED/traces/$NC"
    echo "1..$T_N"
    exit 0
fi
"$PR_BIN" -q -i "$PR_SHARED/traces/$NC" --json "$T_DIR/n.json" \
    --html "$T_DIR/n.html" 2> "$T_DIR/n.err" || sed 's/^/# /' "$T_DIR/n.err"
check "twice the batch: Step after is twice the per-samples step, Saves its gain" \
    python3 -c "
import json, re, sys, html
r = json.load(open(sys.argv[1]))['runs'][0]
w = [x for x in r['critical_path']['what_if'] if x['id'] == 'low_gpu_utilization'][0]
rec = [x for x in r['recommendations'] if x['id'] == 'low_gpu_utilization'][0]
assert rec['gain_basis'] == 'samples', rec
t = html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[2]).read().replace('<wbr>', '')))
t = re.sub(r'\s+', ' ', t)
m = re.search(r'twice the batch ([0-9.]+) ms ([0-9.]+) ms', t)
assert m, 'no twice-the-batch row'
after, saves = float(m.group(1)), float(m.group(2))
assert abs(after - 2 * w['step_us'] / 1000) < 1, (after, w['step_us'])
assert abs(saves - w['gain_us'] / 1000) < 0.6, (saves, w['gain_us'])
" "$T_DIR/n.json" "$T_DIR/n.html"
# review 14 #7: a replay no finding claims says so in the table; its
# Step after is still the replayed step (tb_plugin resnet50, its first
# worker: "a larger batch is not the fix here", twice the batch replayed
# to 324 ms.  msprof torch_npu's trace_view.json was the case until review
# 25a #1: its device idles on the host's launches, 87% of the step, and
# the finding now claims the replay)
NO=tb_plugin/resnet50_num_workers_0
if [ -e "$PR_SHARED/traces/$NO" ]; then
    "$PR_BIN" -q -i "$PR_SHARED/traces/$NO" --json "$T_DIR/o.json" \
        --html "$T_DIR/o.html" 2> "$T_DIR/o.err"
    check "unclaimed twice the batch: '(not claimed)', Step after doubled" \
        python3 -c "
import json, re, sys, html
r = json.load(open(sys.argv[1]))['runs'][0]
w = [x for x in r['critical_path']['what_if'] if x['id'] == 'low_gpu_utilization'][0]
assert w['gain_basis'] == 'samples', w
assert not [x for x in r['recommendations'] if x['id'] == 'low_gpu_utilization']
t = html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[2]).read().replace('<wbr>', '')))
t = re.sub(r'\s+', ' ', t)
m = re.search(r'twice the batch \(not claimed\) ([0-9.]+) ms', t)
# the cell has 3 significant digits (324 ms)
want = 2 * w['step_us'] / 1000
assert m and abs(float(m.group(1)) - want) < max(0.1, 0.005 * want), m
assert re.search(r'the data loader[^(]*?\(its next\(\) takes no time\) [0-9]', t)
" "$T_DIR/o.json" "$T_DIR/o.html"
else
    skip "unclaimed replay row" "no $NO"
fi
echo "1..$T_N"
