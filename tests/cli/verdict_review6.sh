#!/bin/sh
# verdict_review6.sh - review 6's verdict leftovers: what a gain is per
# (gain_basis, finding 4), the rule's missing parts beside an unclaimed
# replay (rule_misses: the launch rule's and the AMP rule's, leftover 6),
# the AMP range's assumed peaks' ratio (finding 6), the lighter
# CUDA-graph lever (finding 14) and the collectives' readings (finding 5).
# The bundled example always runs; the shared samples skip with a message
# when ../shared/traces is absent.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "verdict review 6" "no python3"
    echo "1..$T_N"
    exit 0
fi

# The bundled example (resnet_like): the AMP replay saves 14.6% of the
# step while its rule does not fire (tensor cores already run 35.5% of
# the kernel time, and every fp32 GEMM on CUDA cores was launched by an
# eligible operator); the verdict names those parts with their values,
# from the rule's own check (the what-if row's rule_misses).
EX="$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz"
"$PR_BIN" -q --input "$EX" --json "$T_DIR/ex.json" 2> "$T_DIR/ex.err"
check "example: summary written" [ -s "$T_DIR/ex.json" ]
check "example: the unclaimed AMP replay names the AMP rule's missing parts" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
w = [w for w in r['critical_path']['what_if'] if w['id'] == 'enable_amp'][0]
tc = r['tensor_cores']['tc_kernel_time_pct']
m = w['rule_misses']
assert 'tensor cores already run %.1f%% of the kernel time' % tc in m, m
assert 'no fp32 GEMM/convolution kernel on CUDA cores runs outside' in m, m
assert 'enable_amp' not in [x['id'] for x in r['recommendations']]
t = r['verdict']['text']
assert 'Also replayed, with no finding: automatic mixed precision' in t, t
assert 'the AMP rule\'s evidence does not hold: ' + m in t, t
assert 'needs evidence this trace does not hold' not in t, t
# every gain here is per step: the same work, a shorter step
for x in r['recommendations']:
    if x.get('gain_us') is not None:
        assert x['gain_basis'] == 'step', x
for f in r['verdict']['findings']:
    assert f['gain_basis'] == ('step' if f['gain_us'] is not None else None), f
" "$T_DIR/ex.json"

# hta nccl_parser_config: twice the batch's gain is per step's worth of
# samples (gain_basis "samples", set once where the gain is put on): it
# ranks after the same-batch launch gain, its Saves cell and the
# terminal's line say so, and the note under the table explains it.
if shared_report nccl hta/nccl_parser_config; then
    check "nccl: twice the batch's gain is per samples, ranked after launch" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
f = r['verdict']['findings']
ids = [x['id'] for x in f]
b = f[ids.index('low_gpu_utilization')]
assert b['gain_basis'] == 'samples' and b['saves'].endswith(' at 2\u00d7 batch'), b
l = f[ids.index('launch_bound')]
assert l['gain_basis'] == 'step' and not l['saves'].endswith('batch'), l
assert ids.index('launch_bound') < ids.index('low_gpu_utilization'), ids
assert b['gain_us'] > l['gain_us'], (b, l)  # larger, ranked after
rec = [x for x in r['recommendations'] if x['id'] == 'low_gpu_utilization'][0]
assert rec['gain_basis'] == 'samples', rec
" "$T_DIR/nccl.json"
    check "nccl: the terminal says per step's worth of samples" \
        grep -q "per step's worth of samples at twice the batch" \
        "$T_DIR/nccl.term"
    check "nccl: the HTML note explains the 2x batch gain" \
        grep -q "A gain at 2× batch is the time saved per step" \
        "$T_DIR/nccl.html"
    # finding 5: 3.1x the bytes, 1.10x the time, beside the table and in
    # the terminal; the all-reduce kernels are all named RING_LL, 30 MiB
    # calls included: the name is no sign of the protocol (NCCL's
    # maintainers: one kernel runs any protocol)
    check "nccl: the all-reduce's time against size beside the table" \
        grep -q "nccl:all_reduce: time does not grow with size: its 6 calls of 8.54 MiB take 2.9 ms on average and its 9 calls of 26.80 MiB take 3.2 ms (3.1x the bytes, 1.10x the time)" \
        "$T_DIR/nccl.html"
    check "nccl: and in the terminal" \
        grep -q "Collectives: nccl:all_reduce: time does not grow with size" \
        "$T_DIR/nccl.term"
    check "nccl: no size reading for the broadcasts' small calls" \
        sh -c "! grep -q 'nccl:broadcast: time does not grow' '$T_DIR/nccl.term'"
    check "nccl: the LL-named kernels are no sign of NCCL_PROTO" \
        python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['runs'][0]['communication']
o = [o for o in c['ops'] if o['name'] == 'nccl:all_reduce'][0]
assert o['kernel_protocol'] == 'LL', o
n = c['protocol_note']
assert n.startswith('Every nccl:all_reduce call ran a kernel named for NCCL\'s LL protocol (ncclKernel_AllReduce_RING_LL_Sum_float)'), n
assert 'no sign that NCCL_PROTO forced LL' in n and 'NCCL_DEBUG_SUBSYS=TUNING' in n, n
" "$T_DIR/nccl.json"
else
    skip "nccl: gain basis and collective readings" "no $PR_SHARED/traces/hta/nccl_parser_config"
fi

# hta trace_diff test: the AMP range's top assumes the GEMMs speed up by
# the peaks' ratio (V100: 125 / 15.7 = 8.0x); the text says so.  Its
# upper end was 20.0 ms before step 1009, pipelined on the device, became
# its host interval (review 28h #5): 18.6 ms of the path's GEMM time a step.
# The lower end was 3.0 ms while the replay held the launches the host
# made into a full launch queue (100 calls, 37 ms a step, return within
# 20 us of a task's end) as host time; as waits on the device they
# shorten with the GEMMs: 5.1 ms (critpath.c queue_full, review30g #1).
if shared_summary dtest hta/trace_diff/test/test.json.gz; then
    check "trace_diff test: the AMP range names its assumed peaks' ratio" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
a = [x for x in r['recommendations'] if x['id'] == 'enable_amp'][0]['text']
assert 'so the gain lies between 5.1 ms and 18.6 ms a step.' in a, a[-800:]
assert 'The upper end assumes these GEMMs speed up by the peaks\' ratio, 8.0x (the fp16 tensor-core peak, 125 TFLOPS, over the fp32 peak, 15.7)' in a, a[-800:]
assert 'How close these shapes come is not in the trace' in a, a
for x in r['communication']['ops']:
    if x['name'] == 'nccl:all_to_all':
        assert x['size_note'] is None, x  # its time grows with size
" "$T_DIR/dtest.json"
else
    skip "trace_diff test: AMP range" "no $PR_SHARED/traces/hta/trace_diff/test"
fi

# nsys mfu_2gpu_before: the launch rule's missing parts come from the
# rule itself (rule_misses), word for word in the verdict
if shared_summary nsb nsys/mfu_2gpu_before.sqlite; then
    check "nsys before: the launch rule's misses, from the rule, in the verdict" \
        python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    w = [w for w in r['critical_path']['what_if'] if w['id'] == 'launch_bound'][0]
    m = w['rule_misses']
    assert 'kernel calls run under 10 \u00b5s (half needed)' in m, m
    assert 'runtime calls are' in m and 'waiting for the host (10% needed)' in m, m
    assert 'the launch rule\'s evidence does not hold: ' + m in r['verdict']['text']
" "$T_DIR/nsb.json"
else
    skip "nsys before: launch misses" "no $PR_SHARED/traces/nsys/mfu_2gpu_before.sqlite"
fi
# hta critical_path/cuda_event_sync: no finding, the largest replay is
# twice the batch; "No finding" says it is per step's worth of samples
# and points to the Data quality row the low-utilization finding became
if shared_summary es hta/critical_path/cuda_event_sync; then
    check "event_sync: No finding points to the Data quality row on the batch" \
        python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
nf = r['verdict']['no_finding']
kinds = [d['kind'] for d in r['diagnostics']]
assert 'no_workload' in kinds, kinds
assert 'twice the batch' in nf and 'per step\'s worth of samples' in nf, nf
assert 'Data quality\'s row \"no_workload\" says why a larger batch is not advised' in nf, nf
" "$T_DIR/es.json"
else
    skip "event_sync: No finding" "no $PR_SHARED/traces/hta/critical_path/cuda_event_sync"
fi
# review 8 #8: the what-if replays are a table of the Critical path part
# (the verdict points to it): every row's change by its name, its gain
if shared_report wi hta/trace_diff/test; then
    check "trace_diff test: the What-if table lists every replay" python3 -c "
import html, json, re, sys
r = json.load(open(sys.argv[1]))['runs'][0]
h = html.unescape(open(sys.argv[2]).read())
i = h.index('What-if: the path replayed with one change')
part = h[i:i + 20000]
w = r['critical_path']['what_if']
assert len(w) >= 2, w
for x in w:
    name = x['change'].split(':')[0][:150]
    assert name in part, name
assert 'Critical path part\'s What-if table lists' in r['verdict']['text'] or \
    'What-if table' not in r['verdict']['text'], r['verdict']['text']
" "$T_DIR/wi.json" "$T_DIR/wi.html"
else
    skip "trace_diff test: What-if table" "no $PR_SHARED/traces/hta/trace_diff/test"
fi
echo "1..$T_N"
