#!/bin/sh
# small_allreduce.sh - many small all-reduces a step, the sign of gradients
# reduced without DDP's buckets (issue #31, review finding 1: HTA's
# df_index_resolver, 2,020 nccl:all_reduce in 5 steps, 177 us each, NCCL's
# LL protocol, no overlap).  It fires there, with DDP's words and no gain
# claimed, and on no other shared PyTorch sample: those reduce a few large
# buckets a step (trace_diff 3-4, nccl_parser_config 5, trace_filter 2).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "small all-reduces" "no python3"
    echo "1..$T_N"
    exit 0
fi

# summary NAME INPUT: $T_DIR/NAME.json from a shared input; 1 when absent
summary() {
    [ -e "$PR_SHARED/traces/$2" ] || return 1
    "$PR_BIN" -q --input "$PR_SHARED/traces/$2" --json "$T_DIR/$1.json" \
        2> "$T_DIR/$1.err"
}

if summary dfi hta/df_index_resolver/df_index_resolver.json.gz; then
    check "df_index_resolver: 404 small all-reduces a step, DDP's words" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
recs = {x['id']: x for x in r['recommendations']}
s = recs['small_allreduce']
t = s['text']
assert t.startswith('Many small all-reduces: 2020 nccl:all_reduce calls in 5 '
                    'steps (404 a step, 177 us of device time each'), t
for w in ('LL protocol', 'bucket_cap_mb (25 MB by default)',
          'overlaps computation 0% of its time', 'DistributedDataParallel',
          'gradient_as_bucket_view=True', 'all_reduce per parameter'):
    assert w in t, (w, t)
assert s['gain_us'] is None and s['gain_pct'] is None, s
n = s['gain_note']
assert n.startswith('no estimate: no replay merges collectives'), n
assert 'on the critical path, 20.4 ms a step (5.9% of the step)' in n, n
v = [f['id'] for f in r['verdict']['findings']]
assert v[:2] == ['launch_bound', 'small_allreduce'], v
" "$T_DIR/dfi.json"
else
    skip "df_index_resolver small all-reduces" "no shared trace"
fi

for c in "ctl hta/trace_diff/control/control.json.gz" \
    "tst hta/trace_diff/test/test.json.gz" \
    "nccl hta/nccl_parser_config/nccl_data.json.gz" \
    "flt hta/trace_filter" "tl hta/timeline_analysis/sampled_rank-0.json.gz" \
    "cpu hta/cpu_only/rank-34.Jul_15_10_52_41.1074.pt.trace.json.gz" \
    "rn50 tb_plugin/resnet50_num_workers_0" \
    "nsb nsys/mfu_2gpu_before.sqlite" "nsa nsys/mfu_2gpu_after.sqlite" \
    "ms4 mindspore/extra/cluster_4rank_pipeline"; do
    set -- $c
    if summary "$1" "$2"; then
        check "$2: no small all-reduce finding" python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    ids = [x['id'] for x in r.get('recommendations') or []]
    assert 'small_allreduce' not in ids, ids
" "$T_DIR/$1.json"
    else
        skip "$2: no small all-reduce finding" "no $PR_SHARED/traces/$2"
    fi
done
echo "1..$T_N"
