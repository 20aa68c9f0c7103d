#!/bin/sh
# path_findings.sh - findings pathrules.c adds from the critical path and
# the run's figures (issue #31, review finding 1), on the shared samples,
# each skipped with a message when ../shared/traces is absent:
# - host_ops: where host operators, not launches, are most of the path, a
#   finding names the top ones and what to change for them, and claims no
#   gain (no replay models a fused or compiled optimizer), giving the most
#   the named work could save instead;
# - small_allreduce: many small all-reduces a step, the sign of gradients
#   reduced without DDP's buckets (HTA's df_index_resolver: 2,020
#   nccl:all_reduce in 5 steps, 177 µs each, NCCL's LL protocol, no
#   overlap); no other shared PyTorch sample has it: those reduce a few
#   large buckets a step (trace_diff 3-4, nccl_parser_config 5,
#   trace_filter 2).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "findings from the path" "no python3"
    echo "1..$T_N"
    exit 0
fi

# not_fired ID NAME INPUT: no run of the shared INPUT has finding ID
not_fired() {
    if shared_summary "$2" "$3"; then
        check "$3: no $1 finding" python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    ids = [x['id'] for x in ((r.get('recommendations') or []) + r.get('observations', []))]
    assert sys.argv[2] not in ids, ids
" "$T_DIR/$2.json" "$1"
    else
        skip "$3: no $1 finding" "no $PR_SHARED/traces/$3"
    fi
}

# 1. HTA's Shampoo samples: aten::_foreach_mul_, forward and the optimizer
# step on a path that is 99% host work, launches 1%.  The finding names
# them and says CUDA graphs would save little; but aten::_foreach_mul_
# spends over 120 ms a call in itself with 0.1% of it recorded under it
# (7 launches, 46 µs of kernels a call): the trace cannot say what the
# host did (a sampled trace drops events; review-3 finding 3), so it
# gives no optimizer, foreach or torch.compile advice, only how to find
# out; its gain is null with the unattributed time in the note; it comes
# before "Device underused", which defers to it.
for c in "timeline hta/timeline_analysis/sampled_rank-0.json.gz 0" \
    "filter hta/trace_filter 0" "filter hta/trace_filter 1"; do
    set -- $c
    if shared_summary "$1" "$2"; then
        check "$2: run $3 has the host-operators finding" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][int(sys.argv[2])]
recs = (r['recommendations'] + r.get('observations', []))
ids = [x['id'] for x in recs]
assert 'host_ops' in ids, ids
h = recs[ids.index('host_ops')]
t = h['text']
assert t.startswith('Host work is 99% of the critical path ('), t
assert 'ms a step): operators aten::_foreach_mul_ ' in t, t
# review 6 finding 11: the parts the text names add up to the path's host
# time (operators + ranges + outside every event + the other operators
# and ranges)
import re
def ms(x):
    return sum(float(v) / (1000.0 if u == 'us' else 1.0)
               for v, u in re.findall(r' ([0-9.]+) (ms|us)', ' ' + x))
m = re.match(r'Host work is 99% of the critical path \(([0-9.]+) ms a step\): '
             r'operators (.*?) a step; ([0-9.]+) ms a step in record_function '
             r'ranges, .*?; ([0-9.]+) ms a step outside every recorded event; '
             r'([0-9.]+) ms a step in other operators and ranges \(', t)
assert m, t
whole = float(m.group(1))
parts = ms(m.group(2)) + sum(float(m.group(i)) for i in (3, 4, 5))
assert abs(parts - whole) <= 0.3, (parts, whole, t)
assert abs(whole - r['critical_path']['by_kind_us']['host_op'] / 1000) <= 0.05, t
# a sampled trace: the time between its operators is not called Python
# (hostcov.c, issue #29: 72% of a step's host time inside no recorded call)
# one taxonomy (review-5 finding 7): the ranges (forward, the optimizer's
# step) are named apart from the operators, and the unrecorded time is
# one figure, host coverage's, given once
for w in ('record_function ranges, their own time outside any operator '
          'recorded in them (forward ', 'Optimizer.step#Shampoo.step ',
          'outside every recorded event', 'By host coverage',
          'CUDA graphs would save little', 'the trace cannot attribute',
          'aten::_foreach_mul_ spends 1', 'a call in itself, 99.9% of its time',
          'of the host events the profiler numbered kept', 'py-spy'):
    assert w in t, (w, t)
for w in ('fused=True', 'per-tensor fallback', 'torch.compile(model)',
          'it has no fused form', 'Python between', 'Host operators are'):
    assert w not in t, (w, t)
assert t.count('inside no recorded operator') == 1, t
assert t.count('%.1f ms a step, over every thread' %
               (r['host_coverage']['unrecorded_us'] / 1000)) == 1, t
assert h['gain_us'] is None and h['gain_pct'] is None, h
assert h['gain_note'].startswith('no estimate: the trace does not record '
                                 'what the host did in '), h
# issue #31: the time the text says the trace cannot attribute is the
# operators it names, each on the path, and their sum is the note's bound
m = re.search(r'But ([0-9.]+) ms a step of it is time the trace cannot '
              r'attribute: (aten::\S+) spends .*? \(the largest of (\d+) '
              r'such operators; the others?: (.*?) a step on the path\)', t)
assert m, t
ev = {e['name']: e['us'] for e in h['evidence']}
assert m.group(2) in ev and int(m.group(3)) == 2 + m.group(4).count(', '), t
others = dict((n, float(v)) for n, v in
              re.findall(r'(aten::\S+) ([0-9.]+) ms', m.group(4)))
assert all(abs(ev[n] / 1000 - v) < 0.05 for n, v in others.items()), (others, ev)
assert abs(float(m.group(1)) - h['bound_us'] / 1000) < 0.05, (t, h['bound_us'])
assert '%.1f ms a step for the operators it names' % (h['bound_us'] / 1000) in h['gain_note'], h
# the low-utilization text does not set host waits against a deep queue
# as if both explained the idle (review-2 #6, review-3 finding 3)
lg = {x['id']: x for x in recs}.get('low_gpu_utilization')
if lg is not None:
    assert 'the waits for the host are stalls between bursts' in lg['text'], lg
# its evidence: the operators it names (review-3: the verdict's Evidence
# column showed the note), never a range (review-5 finding 7)
names = [e['name'] for e in h['evidence']]
assert names[0] == 'aten::_foreach_mul_', names
assert all('::' in n for n in names), names
assert 'launch_bound' not in ids, ids
if 'low_gpu_utilization' in ids:
    assert ids.index('host_ops') < ids.index('low_gpu_utilization'), ids
v = r['verdict']['findings']
assert v[0]['id'] == 'host_ops' and v[0]['gain_pct'] is None, v
assert v[0]['title'] == 'Host operators bound the step', v
assert v[0]['evidence'].startswith('aten::_foreach_mul_ 1'), v
" "$T_DIR/$1.json" "$3"
    else
        skip "$2: host-operators finding" "no $PR_SHARED/traces/$2"
    fi
done

# 2. Where it must not fire: a path whose launches the launch finding
# already names (df_index_resolver, trace_diff control); a backward range's
# own time, which is the main thread waiting for autograd's device thread
# (distributed_info_unavailable: "## backward ##" 34 ms with no operators
# under it); a capture of a handful of kernels (cuda_event_sync); a path
# that is not mostly host work (ResNet-50: kernels and the data loader).
for c in "dfi hta/df_index_resolver/df_index_resolver.json.gz" \
    "ctl hta/trace_diff/control/control.json.gz" \
    "dinfo hta/distributed_info_unavailable/distributed_info_not_found.json.gz" \
    "esync hta/critical_path/cuda_event_sync/event_sync_trace.json.gz" \
    "rn50 tb_plugin/resnet50_num_workers_0"; do
    set -- $c
    not_fired host_ops "$1" "$2"
done

# 3. The terminal's verdict lists it, apart from the ranked changes (it has
# no gain: an observation).
if [ -e "$PR_SHARED/traces/hta/timeline_analysis/sampled_rank-0.json.gz" ]; then
    "$PR_BIN" --input "$PR_SHARED/traces/hta/timeline_analysis/sampled_rank-0.json.gz" \
        > "$T_DIR/tl.txt" 2>&1
    check "timeline_analysis: the terminal lists the finding, not estimated" \
        grep -q "^  Not estimated: Host operators bound the step: at most [0-9.]* ms per step (an upper bound) \[host_ops\]" \
        "$T_DIR/tl.txt"
else
    skip "timeline_analysis terminal" "no shared trace"
fi
# 3b. A hand-made host-bound step (no shared sample has a torch.optim
# optimizer on the path): Optimizer.step#AdamW.step around a 2 ms
# aten::_foreach_add_ in a 3 ms step with 1.1 ms of kernels: the advice
# names AdamW's fused=True, the foreach fallback, no Python clause (20 µs
# outside operators), and the bound is the named operators' 2.8 ms.
python3 - "$T_DIR" << 'PY'
import json, sys
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
ev = [X("user_annotation", "ProfilerStep#1", 0, 3000),
      X("cpu_op", "aten::mm", 0, 100),
      X("cuda_runtime", "cudaLaunchKernel", 10, 5, correlation=1),
      X("kernel", "volta_sgemm_128x64_nn", 20, 1100, pid=0, tid=7,
        correlation=1, device=0, stream=7),
      X("user_annotation", "Optimizer.step#AdamW.step", 200, 2700),
      X("cpu_op", "aten::_foreach_add_", 300, 2000)]
json.dump({"traceEvents": ev}, open(sys.argv[1] + "/adamw.pt.trace.json", "w"))
PY
"$PR_BIN" -q --input "$T_DIR/adamw.pt.trace.json" --json "$T_DIR/adamw.json" \
    2> "$T_DIR/adamw.err"
check "hand-made AdamW step: fused=True for AdamW, the bound 2.8 ms" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
h = {x['id']: x for x in (r['recommendations'] + r.get('observations', []))}['host_ops']
t = h['text']
assert t.startswith('Host work is 100% of the critical path (3.0 ms a '
                    'step): operators '
                    'aten::_foreach_add_ 2.0 ms, aten::mm 95 µs a step; '
                    '700 µs a step in '
                    'record_function ranges, their own time outside any '
                    'operator recorded in them (Optimizer.step#AdamW.step '
                    '700 µs), which say where the time went, not what ran; '
                    '200 µs a step outside operators.'), t
assert [e['name'] for e in h['evidence']] == ['aten::_foreach_add_',
                                             'aten::mm'], h
assert 'torch.optim.AdamW(..., fused=True)' in t, t
assert 'per-tensor fallback' in t and 'torch.compile(model)' not in t, t
assert 'the operators and ranges named, 2.8 ms a step (93% of the step)' in \
    h['gain_note'], h
" "$T_DIR/adamw.json"

# 3b'. The same step with a hand-written AdamW (issue #29 review: CS336's
# own AdamW, aten::mul/sub_/sqrt/div a parameter, was told to pass
# foreach=True): torch.optim's AdamW always runs addcmul_/addcdiv_,
# _foreach_* or _fused_*, so a range of that name that ran none is not
# torch.optim's, and the advice says to use it in its place.  Shampoo's
# _foreach_ calls are not torch.optim's; a compiled step tells nothing.
python3 - "$T_DIR" << 'PY'
import json, sys
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
def step(optim, inner):
    ev = [X("user_annotation", "ProfilerStep#1", 0, 3000),
          X("cpu_op", "aten::mm", 0, 100),
          X("cuda_runtime", "cudaLaunchKernel", 10, 5, correlation=1),
          X("kernel", "volta_sgemm_128x64_nn", 20, 1100, pid=0, tid=7,
            correlation=1, device=0, stream=7),
          X("user_annotation", "Optimizer.step#%s.step" % optim, 200, 2700)]
    ts = 300
    for name in inner:
        ev.append(X("cpu_op", name, ts, 2000 // len(inner) - 10))
        ts += 2000 // len(inner)
    return {"traceEvents": ev}
for name, optim, inner in (
        ("own", "AdamW", ["aten::mul", "aten::sub_", "aten::sqrt", "aten::div"]),
        ("shampoo", "Shampoo", ["aten::_foreach_mul_", "aten::_foreach_add_"]),
        ("compiled", "AdamW", ["Torch-Compiled Region", "aten::mul"]),
        ("single", "Adam", ["aten::mul_", "aten::addcmul_", "aten::addcdiv_"])):
    json.dump(step(optim, inner),
              open("%s/%s.pt.trace.json" % (sys.argv[1], name), "w"))
PY
for n in own shampoo compiled single; do
    "$PR_BIN" -q --input "$T_DIR/$n.pt.trace.json" --json "$T_DIR/$n.json" \
        2> /dev/null
done
check "optimizer_impl: torch.optim's foreach and single-tensor paths, a hand-written AdamW, Shampoo, a compiled step" \
    python3 - "$T_DIR" << 'PY'
import json, sys
def run(n):
    return json.load(open("%s/%s.json" % (sys.argv[1], n)))['runs'][0]
got = {n: run(n)['critical_path'].get('optimizer_impl', 'absent')
       for n in ('adamw', 'own', 'shampoo', 'compiled', 'single')}
print(got)
assert got == {'adamw': 'foreach', 'own': 'own', 'shampoo': None,
               'compiled': None, 'single': 'single_tensor'}, got
PY
check "hand-written AdamW: use torch.optim's fused AdamW in its place, no foreach flag" \
    python3 - "$T_DIR/own.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
h = {x['id']: x for x in (r['recommendations'] + r.get('observations', []))}['host_ops']
t = h['text']
print(t)
assert ("The optimizer's step is on the path, and its AdamW is not "
        "torch.optim's (none of its aten::addcmul_, aten::addcdiv_, "
        "aten::_foreach_* or aten::_fused_* operators ran in it): "
        "torch.optim.AdamW(..., fused=True) in its place") in t, t
assert 'foreach=True' not in t and 'per-tensor fallback' not in t, t
PY
check "single-tensor Adam: fused=True, and a hand-written class of that form told apart" \
    python3 - "$T_DIR/single.json" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
h = {x['id']: x for x in (r['recommendations'] + r.get('observations', []))}['host_ops']
t = h['text']
assert 'torch.optim.Adam(..., fused=True) updates every parameter' in t, t
assert ('A hand-written class of that name and form (aten::addcmul_ and '
        "aten::addcdiv_ a parameter) has no such flag: use torch.optim's in "
        'its place.') in t, t
PY

# 3b''. The optimizer's aten::zeros_like calls (issue #29 review: CS336's
# hand-written AdamW runs 222 a step, 222 of the step's 1,776 kernels;
# its op ids show state.get(key, torch.zeros_like(p)) defaults built and
# discarded each step).  A hand-written step: one step cannot tell a
# first step from a per-step default; three steps, the first alone
# running them: the state made once; three all running them: the
# per-step default's fix.  torch.optim's Adam makes its state with them
# only for a parameter without state: its first step.
python3 - "$T_DIR" << 'PY'
import json, sys
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
corr = [0]
def launch(ev, ts, name="void at::native::vectorized_elementwise_kernel",
           dur=4):
    corr[0] += 1
    ev.append(X("cuda_runtime", "cudaLaunchKernel", ts + 2, 5,
                correlation=corr[0]))
    ev.append(X("kernel", name, ts + 10, dur, pid=0, tid=7,
                correlation=corr[0], device=0, stream=7))
def step(ev, k, zeros, optim="AdamW",
         inner=("aten::mul", "aten::sub_", "aten::sqrt", "aten::div")):
    o = k * 3000
    ev += [X("user_annotation", "ProfilerStep#%d" % (k + 1), o, 3000),
           X("cpu_op", "aten::mm", o, 100)]
    launch(ev, o, "volta_sgemm_128x64_nn", 1100)
    ev.append(X("user_annotation", "Optimizer.step#%s.step" % optim, o + 200,
                2700))
    ts = o + 300
    for i in range(zeros):
        ev.append(X("cpu_op", "aten::zeros_like", ts, 40))
        launch(ev, ts)
        ts += 50
    for name in inner:
        ev.append(X("cpu_op", name, ts, 400))
        launch(ev, ts)
        ts += 410
for name, zeros in (("state1", [6]), ("state3", [6, 0, 0]),
                    ("stateall", [6, 6, 6]), ("statetorch", [6]),
                    ("staterprop", [6])):
    ev = []
    for k, z in enumerate(zeros):
        if name == "statetorch":
            step(ev, k, z, "Adam", ("aten::mul_", "aten::addcmul_",
                                    "aten::addcdiv_", "aten::sqrt"))
        elif name == "staterprop":
            step(ev, k, z, "Rprop", ("aten::_foreach_mul", "aten::_foreach_sign",
                                     "aten::_foreach_mul_", "aten::_foreach_add_"))
        else:
            step(ev, k, z)
    json.dump({"traceEvents": ev},
              open("%s/%s.pt.trace.json" % (sys.argv[1], name), "w"))
PY
for n in state1 state3 stateall statetorch staterprop; do
    "$PR_BIN" -q --input "$T_DIR/$n.pt.trace.json" --json "$T_DIR/$n.json" \
        2> /dev/null
done
check "optimizer state: a hand-written step's zeros_like told as the trace allows; torch.optim's mark its first step" \
    python3 - "$T_DIR" << 'PY'
import json, sys
def run(n):
    return json.load(open("%s/%s.json" % (sys.argv[1], n)))['runs'][0]
def keys(r):
    cp = r['critical_path']
    return tuple(cp[k] for k in ('optimizer_state_calls',
                                 'optimizer_state_kernels',
                                 'optimizer_state_steps',
                                 'optimizer_state_first',
                                 'optimizer_state_ranges',
                                 'optimizer_state_step_kernels',
                                 'optimizer_state_host_us'))
def texts(r):
    return ' '.join(x['text'] for x in (r['recommendations'] +
                                        r.get('observations', [])))
got = {n: keys(run(n)) for n in ('state1', 'state3', 'stateall', 'statetorch',
                                 'staterprop', 'own', 'adamw')}
print(got)
assert got == {'state1': (6, 6, 1, None, 1, 10, 240),
               'state3': (6, 6, 3, True, 1, 10, 240),
               'stateall': (18, 18, 3, False, 3, 30, 720),
               'statetorch': (6, 6, 1, None, 1, 10, 240),
               'staterprop': (6, 6, 1, None, 1, 10, 240),
               'own': (0, 0, 1, None, 0, 0, 0),
               'adamw': (0, 0, 1, None, 0, 0, 0)}, got
# a hand-written AdamW, one step: first step or a per-step default?
t = texts(run('state1'))
assert ("The optimizer's step runs 6 aten::zeros_like calls (6 of its 10 "
        "kernels, 240 µs of host time in them, "
        "their launches included). An optimizer that makes its state there "
        "only for a parameter that has none (as torch.optim's Adam family "
        "does) pays them once; one that builds them every step, as a "
        "state.get(key, torch.zeros_like(p)) default does, pays them each "
        "step and discards them: make them only when the key is missing. "
        "With one step captured, the trace cannot tell these apart: profile "
        "two or more steps; if every step runs them, they are per-step "
        "defaults.") in t, t
assert "optimizer's first" not in t, t
t = texts(run('state3'))
assert ("The first of its 3 steps also ran 6 aten::zeros_like calls (6 of "
        "its 10 kernels, 240 µs of host time in "
        "them, their launches included), and no later step did: the "
        "optimizer's state, made once.") in t, t
t = texts(run('stateall'))
assert ("All 3 steps run aten::zeros_like, 6 calls a step (6 of its 10 "
        "kernels, 240 µs of host time in them, "
        "their launches included). If these are defaults for state that "
        "already exists (state.get(key, torch.zeros_like(p))), each step "
        "allocates and zeroes tensors it then discards: make them only when "
        "the key is missing.") in t, t
# torch.optim's Adam makes its state only for a parameter without any
t = texts(run('statetorch'))
assert ("The step is the optimizer's first for these parameters: "
        "torch.optim's Adam makes its state with torch.zeros_like only for a "
        "parameter that has none, and 6 such calls ran in it") in t, t
# so does its Rprop (torch/optim/rprop.py: state["prev"]), here foreach
t = texts(run('staterprop'))
assert "torch.optim's Rprop makes its state with torch.zeros_like" in t, t
for n in ('own', 'adamw'):
    t = texts(run(n))
    assert 'aten::zeros_like calls' not in t, (n, t)
PY

# 3c. Slow host dispatch (review-3 finding 5): HTA's nccl_parser_config
# spends 29.1 µs a call over 4,857 calls of operators that compute nothing
# (aten::empty 32.7 µs, aten::view 24.0 µs) on a 93% host path; the other
# PyTorch 2.x samples spend 2.0-7.4 µs, ResNet-50 (2021) 14.7.
if shared_summary nccl hta/nccl_parser_config/nccl_data.json.gz; then
    check "nccl_parser_config: slow host dispatch, its operators as evidence" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
h = {x['id']: x for x in (r['recommendations'] + r.get('observations', []))}['slow_dispatch']
t = h['text']
assert t.startswith('Slow host dispatch: PyTorch operators that compute '
                    'nothing (views, allocation, metadata) take 29.1 µs of '
                    'host time a call on average over 4857 calls '
                    '(aten::empty 32.7 µs x 1590, aten::view 24.0 µs x 1281)'), t
assert 'critical path that is 93% host work' in t and 'CPU contention' in t, t
# issue #31: replayed at 2 µs a call; the path is host work, so nearly
# all of the 43.9 ms bound reaches the step
assert h['what_if'] == 'slow_dispatch' and 19 < h['gain_pct'] < 21, h
assert h['gain_note'].startswith('replayed: ') and 'bound_us' not in h, h
assert [e['name'] for e in h['evidence']][:2] == ['aten::empty', 'aten::view'], h
assert 'Slow host dispatch' in [f['title'] for f in r['verdict']['findings']]
" "$T_DIR/nccl.json"
else
    skip "nccl_parser_config slow dispatch" "no shared trace"
fi
for c in "ctl hta/trace_diff/control/control.json.gz" \
    "dfi hta/df_index_resolver/df_index_resolver.json.gz" \
    "tst hta/trace_diff/test/test.json.gz" \
    "timeline hta/timeline_analysis/sampled_rank-0.json.gz" \
    "rn50 tb_plugin/resnet50_num_workers_0"; do
    set -- $c
    not_fired slow_dispatch "$1" "$2"
done

# 3d. The verdict names a replay that beats a listed finding yet is no
# finding (review-3: nsys mfu_2gpu_before's gpu1 lists host_sync 7.2% and
# dtype_conversions 1.3% while its launches replay to 4.4%, under the 5% a
# path-driven launch finding needs); twice the batch (8.1%) is left out.
if shared_summary nb nsys/mfu_2gpu_before.sqlite; then
    check "nsys before: the unclaimed launch replay is named in the verdict" python3 -c "
import json, sys
runs = json.load(open(sys.argv[1]))['runs']
t = runs[1]['verdict']['text']
import re
# no steps: the shares are of the capture (issue #29)
assert 'Also replayed, with no finding: CUDA graphs' in t and re.search(r'4\.[0-9]% of the capture', t), t
# and why it is none: under the path's own threshold, the rule's evidence missing
assert 'under the 5% of the capture at which the path alone makes a finding' in t, t
assert 'the launch rule' in t and 'evidence does not hold: ' in t and 'needed)' in t, t
assert re.search(r'runtime calls are [0-9.]+% of the capture \(10% needed\)', t), t
assert 'of the step' not in t, t
assert 'twice the batch' not in t, t
ids = [f['id'] for f in runs[1]['verdict']['findings']]
assert 'launch_bound' not in ids and 'dtype_conversions' in ids, ids
" "$T_DIR/nb.json"
else
    skip "nsys before unclaimed replay" "no shared trace"
fi
if shared_summary ctl2 hta/trace_diff/control/control.json.gz; then
    check "control: no unclaimed replay where the launch finding claims it" python3 -c "
import json, sys
t = json.load(open(sys.argv[1]))['runs'][0]['verdict']['text']
assert 'Also replayed' not in t, t
" "$T_DIR/ctl2.json"
else
    skip "control unclaimed replay" "no shared trace"
fi

# 4. Many small all-reduces (df_index_resolver) and where they are not.
if shared_summary dfi hta/df_index_resolver/df_index_resolver.json.gz; then
    check "df_index_resolver: 404 all-reduces a step, the compiled lever" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
recs = {x['id']: x for x in (r['recommendations'] + r.get('observations', []))}
s = recs['small_allreduce']
t = s['text']
# unsized: many, not 'small' from the kernel's _LL_ name; inside the
# compiled backward, the compiler's bucketing (review 7 #6)
assert t.startswith('Many all-reduces: 2020 nccl:all_reduce calls in 5 '
                    'steps (404 a step, 177 µs of device time each'), t
for w in ('records no sizes', 'bucket_cap_mb (25 MB by default)',
          'overlaps computation 0% of its time', 'DistributedDataParallel',
          'CompiledFunctionBackward', 'DDPOptimizer'):
    assert w in t, (w, t)
assert 'LL protocol' not in t, t
# issue #31: merged into buckets (sizes unrecorded: one a step, keeping
# all of the calls' device time over one call's latency, about 71 ms, at
# the step's end), the calls' host work on the path (38 ms) goes: 14.7 ms
assert s['what_if'] == 'small_allreduce' and 4 < s['gain_pct'] < 4.5, s
n = s['gain_note']
assert n.startswith('replayed: ') and 'bucket_cap_mb' in n, n
assert s['evidence'][0]['name'] == 'nccl:all_reduce', s
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
    not_fired small_allreduce "$1" "$2"
done

# the launch advice speaks of sparse features only where the run looks
# up embeddings (review 28g #9): trace_diff's control (FBGEMM TBE) does,
# df_index_resolver (mm/addmm/bmm) does not
if [ -f "$T_DIR/dfi.json" ] && [ -f "$T_DIR/ctl.json" ]; then
    check "launch advice: sparse features only with an embedding op" \
        python3 -c "
import json, sys
def text(p):
    for r in json.load(open(p))['runs']:
        for x in r.get('recommendations') or []:
            if x['id'] == 'launch_bound':
                return x['text']
    return None
d, c = text(sys.argv[1]), text(sys.argv[2])
assert d and 'CUDA graph' in d and 'sparse features' not in d, d
assert c and 'such as sparse features' in c, c
" "$T_DIR/dfi.json" "$T_DIR/ctl.json"
else
    skip "launch advice: sparse features only with an embedding op" "no shared trace"
fi
echo "1..$T_N"
