#!/bin/sh
# autograd.sh - the legacy autograd profiler's Chrome trace through the
# whole tool (tests/data/autograd/README.md): steps and operators of a
# CPU-only trace, and the operators' own device time from a "CUDA
# functions" trace as PyTorch's own key_averages() counts it (Self CUDA:
# an operator's CUDA-event range minus its children's).
. "$PR_SRCDIR/tests/lib.sh"

data=$PR_SRCDIR/tests/data/autograd
if ! command -v python3 > /dev/null 2>&1; then
    skip "autograd" "no python3"
    echo "1..$T_N"
    exit 0
fi

"$PR_BIN" -q --input "$data/cpu.json" --json "$T_DIR/cpu.json"
check "a CPU-only legacy trace is read (exit $?)" [ -s "$T_DIR/cpu.json" ]
check "its format is autograd, its steps ProfilerStep#2 and #3" python3 -c "
import json, sys
s = json.load(open(sys.argv[1]))
assert s['inputs'][0]['format'] == 'autograd', s['inputs']
r = s['runs'][0]
assert [x['name'] for x in r['steps']] == ['ProfilerStep#2',
                                           'ProfilerStep#3'], r['steps']
ops = {o['name']: o for o in r['operators']}
assert ops['aten::addmm']['calls'] == 2, ops['aten::addmm']
assert ops['aten::linear']['host_total_us'] == 110, ops['aten::linear']
assert ops['aten::linear']['host_self_us'] == 20, ops['aten::linear']
assert ops['aten::mm']['host_self_us'] == 70, ops['aten::mm']
kinds = [d['kind'] for d in r['diagnostics']]
assert 'no_shapes' in kinds and 'no_memory' in kinds, kinds
assert r['host_only'] is True, r['host_only']
" "$T_DIR/cpu.json"

"$PR_BIN" -q --input "$data/cuda.json" --json "$T_DIR/cuda.json"
check "a CUDA functions trace is read (exit $?)" [ -s "$T_DIR/cuda.json" ]
check "operators' device time is PyTorch's Self CUDA and CUDA total" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
ops = {o['name']: o for o in r['operators']}
want = {'aten::addmm': (53, 53), 'aten::linear': (7, 60),
        'aten::t': (0, 0), 'aten::relu': (9.5, 9.5), 'aten::mm': (30, 30)}
for name, (self_us, total_us) in want.items():
    got = (ops[name]['device_self_us'], ops[name]['device_total_us'])
    assert got == (self_us, total_us), (name, got)
# device 0's pieces add up to its outermost range, device 1 apart
dev = {g['device']: g['kernel_time_us'] for g in r['gpu_metrics']}
assert dev == {0: 80.5, 1: 30}, dev
assert 'no_kernels' in [d['kind'] for d in r['diagnostics']]
assert r['host_only'] is False, r['host_only']
" "$T_DIR/cuda.json"

"$PR_BIN" -q --input "$data/record.json" --json "$T_DIR/rec.json"
check "the launcher's args: shapes, call stacks and memory" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
shapes = {(o['name'], o['input_shapes']) for o in r['operators_by_shape']}
assert ('aten::conv2d',
        '[[16, 3, 16, 16], [8, 3, 3, 3], [8], [], [], [], []]') in shapes, shapes
mem = {(m['device'], m['name']): m for m in r['memory']['operators']}
assert mem[('CPU', 'aten::conv2d')]['allocation_size_bytes'] == 131072, mem
assert r['memory']['devices'][0]['device'] == 'CPU', r['memory']['devices']
" "$T_DIR/rec.json"
check "modules named only in call stacks: the module view says so" python3 -c "
import json, sys
v = json.load(open(sys.argv[1]))['runs'][0]['module_view']
assert v['modules'] == 0, v
assert 'only inside its operators\' call stacks' in v['note'], v
" "$T_DIR/rec.json"
"$PR_BIN" -q --input "$data/record.json" --html "$T_DIR/rec.html"
check "no allocator totals: the HTML shows the peak increase, not a dash" \
    grep -q 'CPU peak increase' "$T_DIR/rec.html"
check "a trace without them still asks for with_modules=True" python3 -c "
import json, sys
v = json.load(open(sys.argv[1]))['runs'][0]['module_view']
assert v['note'].startswith('The trace has no module frames'), v
" "$T_DIR/cpu.json"

echo "1..$T_N"
