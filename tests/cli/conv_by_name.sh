#!/bin/sh
# conv_by_name.sh - review 13 findings 1, 4, 5 and 8: judgements that rest
# on which operator launched a kernel, and advice gated by what the trace
# shows.
#
# 1. A hand-made A100 step without Input Dims (record_shapes off):
#    aten::cudnn_convolution launches an sm80_xmma TF32 fprop kernel
#    (300 us), CUTLASS's cutlass_80_tensorop_s1688gemm (200 us) and cuDNN's
#    nchwToNhwcKernel (100 us); aten::convolution_backward the same CUTLASS
#    GEMM (150 us) and nhwcToNchwKernel (50 us); aten::addmm an
#    ampere_sgemm on CUDA cores (250 us).  Known answers: every TF32 kernel
#    is a convolution's, so the addmm's finding is tf32_matmul_off (matmul
#    TF32 probably off, cuDNN's switch named), not "TF32 matmuls ran
#    elsewhere"; by family conv is 300 + 200 + 150 = 650 us in 2 kernels,
#    gemm the sgemm's 250 us, copy 150 us; conv_gemm 350 us in 1 kernel;
#    layout_transforms 2 kernels, 2 calls, 150 us, all under convolutions.
# 2. The same step plus an aten::mm on that CUTLASS GEMM (100 us): now a
#    matmul did run TF32, so the addmm's finding is fp32_algorithm; gemm is
#    250 + 100 = 350 us in 2 kernels, the sgemm and the CUTLASS kernel,
#    which also counts in conv for its 350 us under convolutions (review 14
#    #8: a kernel counts in every family it has time in), and the note says
#    the Kernels column adds up to 6 for the run's 5 kernels.
# 3. slow_dispatch on a hand-made host-bound step: 1200 aten::view calls
#    of 25 us.  Without shapes, stacks or memory events the advice says the
#    three options were off and does not ask to rule them out; with Input
#    Dims it names record_shapes as on, the other two as off.
# 4. The Copies note on pageable scalars: a host-to-device one stages and
#    returns; a device-to-host one waits for the stream.
# Then the shared samples the review read: hta_cp_alexnet, hta_nccl,
# tb_resnet50, nsys mfu_2gpu_before.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "operators decide conv judgements" "no python3"
    echo "1..$T_N"
    exit 0
fi

python3 - "$T_DIR" << 'PY'
import json, os, sys
d = sys.argv[1]
XMMA = ("sm80_xmma_fprop_implicit_gemm_tf32f32_tf32f32_f32_nhwckrsc_nhwc_"
        "tilesize128x128x16_stage4_warpsize2x2x1_g1_tensor16x8x8_kernel")
CUT = ("void cutlass::Kernel<cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_"
       "align4>(cutlass_80_tensorop_s1688gemm_256x64_16x4_nn_align4::Params)")
N2N = ("void cudnn::ops::nchwToNhwcKernel<float, float, float, false, true, "
       "(cudnnKernelDataType_t)2>(cudnn::ops::nchw2nhwc_params_t<float>, "
       "float const*, float*)")
H2N = ("void cudnn::ops::nhwcToNchwKernel<float, float, float, true, false, "
       "(cudnnKernelDataType_t)0>(cudnn::ops::nhwc2nchw_params_t<float>, "
       "float const*, float*)")
SGEMM = "ampere_sgemm_32x32_sliced1x4_tn"
A100 = [{"id": 0, "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8,
         "computeMinor": 0, "numSms": 108, "totalGlobalMem": 42505273344}]

def step(with_mm):
    ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
           "pid": 1, "tid": 1, "ts": 0, "dur": 2000, "args": {}}]
    st = {"corr": 100, "kts": 20}
    def op(name, ts, ext, kernels):
        ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": 1,
                   "tid": 1, "ts": ts, "dur": 40,
                   "args": {"External id": ext}})
        for i, (k, dur) in enumerate(kernels):
            st["corr"] += 1
            ev.append({"ph": "X", "cat": "cuda_runtime",
                       "name": "cudaLaunchKernel", "pid": 1, "tid": 1,
                       "ts": ts + 1 + 5 * i, "dur": 2,
                       "args": {"correlation": st["corr"],
                                "External id": ext}})
            ev.append({"ph": "X", "cat": "kernel", "name": k, "pid": 0,
                       "tid": 7, "ts": st["kts"], "dur": dur,
                       "args": {"correlation": st["corr"], "device": 0,
                                "stream": 7, "External id": ext}})
            st["kts"] += dur + 5
    op("aten::cudnn_convolution", 10, 1, [(XMMA, 300), (CUT, 200),
                                          (N2N, 100)])
    op("aten::convolution_backward", 60, 2, [(CUT, 150), (H2N, 50)])
    op("aten::addmm", 110, 3, [(SGEMM, 250)])
    if with_mm:
        op("aten::mm", 160, 4, [(CUT, 100)])
    return {"deviceProperties": A100, "traceEvents": ev}

json.dump(step(False), open(os.path.join(d, "conv.json"), "w"))
json.dump(step(True), open(os.path.join(d, "conv_mm.json"), "w"))

def dispatch(shapes):
    ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
           "pid": 1, "tid": 1, "ts": 0, "dur": 31000, "args": {}}]
    for i in range(1200):
        a = {"External id": 10 + i}
        if shapes:
            a["Input Dims"] = [[64, 64], []]
            a["Input type"] = ["float", ""]
        ev.append({"ph": "X", "cat": "cpu_op", "name": "aten::view",
                   "pid": 1, "tid": 1, "ts": 10 + 25 * i, "dur": 25,
                   "args": a})
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
               "pid": 1, "tid": 1, "ts": 30100, "dur": 5,
               "args": {"correlation": 7}})
    ev.append({"ph": "X", "cat": "kernel", "pid": 0, "tid": 7,
               "name": "void at::native::vectorized_elementwise_kernel<4, "
                       "at::native::CUDAFunctor_add<float>, "
                       "at::detail::Array<char*, 3> >(int, "
                       "at::native::CUDAFunctor_add<float>, "
                       "at::detail::Array<char*, 3>)",
               "ts": 30110, "dur": 50,
               "args": {"correlation": 7, "device": 0, "stream": 7}})
    return {"deviceProperties": A100, "traceEvents": ev}

json.dump(dispatch(False), open(os.path.join(d, "disp.json"), "w"))
json.dump(dispatch(True), open(os.path.join(d, "disp_shapes.json"), "w"))

def copies(direction, nbytes=8, kernel_first=True):
    name, src, dst = (("Memcpy HtoD (Pageable -> Device)", 1, 2)
                      if direction == "HtoD"
                      else ("Memcpy DtoH (Device -> Pageable)", 2, 1))
    ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
           "pid": 1, "tid": 1, "ts": 0, "dur": 1000, "args": {}}]
    for i in range(4):
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaMemcpyAsync", "pid": 1, "tid": 1,
                   "ts": 10 + 100 * i, "dur": 12,
                   "args": {"correlation": 50 + i}})
        ev.append({"ph": "X", "cat": "gpu_memcpy", "name": name, "pid": 0,
                   "tid": 7, "ts": 15 + 100 * i, "dur": 2,
                   "args": {"correlation": 50 + i, "device": 0, "stream": 7,
                            "bytes": nbytes if i else 8,
                            "memory bandwidth (GB/s)": 0.004}})
    if kernel_first and nbytes > 8:
        # a kernel before the copies: they are the loop's, not a one-time
        # move before any kernel (review 26g #3)
        ev.append({"ph": "X", "cat": "cuda_runtime",
                   "name": "cudaLaunchKernel", "pid": 1, "tid": 1, "ts": 1,
                   "dur": 2, "args": {"correlation": 49}})
        ev.append({"ph": "X", "cat": "kernel", "name": "k", "pid": 0,
                   "tid": 7, "ts": 4, "dur": 3,
                   "args": {"correlation": 49, "device": 0, "stream": 7}})
    return {"deviceProperties": A100, "traceEvents": ev}

json.dump(copies("HtoD"), open(os.path.join(d, "h2d.json"), "w"))
json.dump(copies("DtoH"), open(os.path.join(d, "d2h.json"), "w"))
json.dump(copies("DtoH", 8192), open(os.path.join(d, "d2h_big.json"), "w"))
json.dump(copies("HtoD", 8192), open(os.path.join(d, "h2d_big.json"), "w"))
json.dump(copies("HtoD", 8192, False), open(os.path.join(d, "h2d_once.json"), "w"))
PY

run() { # run NAME: $T_DIR/NAME.{s.json,html} from $T_DIR/NAME.json
    "$PR_BIN" -q -i "$T_DIR/$1.json" --json "$T_DIR/$1.s.json" \
        --html "$T_DIR/$1.html" 2> "$T_DIR/$1.err" || sed 's/^/# /' "$T_DIR/$1.err"
}
judge() { # judge DESCRIPTION FILE PYTHON: the script's 'ok' passes
    d=$1 f=$2
    shift 2
    res=$(python3 -c "$1" "$f" 2>&1)
    [ "$res" = ok ] || echo "$res" | sed 's/^/# /'
    check "$d" [ "$res" = ok ]
}

run conv
run conv_mm
judge "cuDNN's TF32 convolutions (no shapes) leave the matmul switch probably off" \
    "$T_DIR/conv.s.json" "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
fs = {f['operator']: f for f in r['tensor_cores']['findings']}
f = fs.get('aten::addmm')
if f is None: print('no addmm finding: %s' % list(fs)); sys.exit()
bad = []
if f['reason_id'] != 'tf32_matmul_off': bad.append(f['reason_id'])
if 'probably off' not in f['reason'] or 'cuDNN convolutions' not in f['reason']: bad.append(f['reason'])
if 'set_float32_matmul_precision(\"high\")' not in f['advice']: bad.append(f['advice'])
if 'elsewhere' in f['reason']: bad.append('TF32 matmuls claimed')
print('; '.join(bad) if bad else 'ok')"
judge "a matmul that ran TF32 keeps fp32_algorithm" "$T_DIR/conv_mm.s.json" "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
fs = {f['operator']: f for f in r['tensor_cores']['findings']}
f = fs.get('aten::addmm')
print('ok' if f and f['reason_id'] == 'fp32_algorithm' else 'finding %s' % f)"
judge "families: a convolution's CUTLASS GEMMs are conv, totals exact" \
    "$T_DIR/conv.s.json" "
import json, sys
k = json.load(open(sys.argv[1]))['runs'][0]['kernel_classes']
fam = {x['family']: (x['kernels'], round(x['total_us'], 3)) for x in k['by_family']}
want = {'conv': (2, 650.0), 'gemm': (1, 250.0), 'copy': (2, 150.0)}
bad = [] if fam == want else ['by_family %s, want %s' % (fam, want)]
cg = k['conv_gemm']
if not cg or cg['kernels'] != 1 or abs(cg['total_us'] - 350) > 1e-6: bad.append('conv_gemm %s' % cg)
lt = k['layout_transforms']
if not lt or (lt['kernels'], lt['calls']) != (2, 2) or abs(lt['total_us'] - 150) > 1e-6 \
        or abs(lt['conv_us'] - 150) > 1e-6: bad.append('layout %s' % lt)
print('; '.join(bad) if bad else 'ok')"
judge "families: a GEMM kernel split between conv and mm keeps each part" \
    "$T_DIR/conv_mm.s.json" "
import json, sys
k = json.load(open(sys.argv[1]))['runs'][0]['kernel_classes']
fam = {x['family']: (x['kernels'], round(x['total_us'], 3)) for x in k['by_family']}
want = {'conv': (2, 650.0), 'gemm': (2, 350.0), 'copy': (2, 150.0)}
print('ok' if fam == want else 'by_family %s, want %s' % (fam, want))"
check "the family note counts the kernel split between conv and gemm" \
    sh -c "grep -q 'kernel&#39;s own family and math. 1 of them also ran under another operator and counts in both conv and gemm, so this table&#39;s Kernels column adds up to 6 for the run&#39;s 5 kernels.' '$T_DIR/conv_mm.html' &&
           ! grep -q 'also ran under' '$T_DIR/conv.html'"
check "the family view's note names the implicit GEMMs and channels_last" \
    sh -c "grep -q 'convolution operators launched: cuDNN computes convolutions with GEMM kernels' '$T_DIR/conv.html' &&
           grep -q 'memory_format=torch.channels_last' '$T_DIR/conv.html' &&
           grep -q 'No gain is claimed' '$T_DIR/conv.html'"

run disp
run disp_shapes
judge "slow_dispatch: the profiler's options, all off, are ruled out" \
    "$T_DIR/disp.s.json" "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
t = [x['text'] for x in r['recommendations'] if x['id'] == 'slow_dispatch']
if not t: print('no slow_dispatch: %s' % [x['id'] for x in r['recommendations']]); sys.exit()
t = t[0]
ok = ('record_shapes, with_stack and profile_memory were off' in t and
      'profile a step with' not in t)
print('ok' if ok else t)"
judge "slow_dispatch: record_shapes on is named, the two off are not asked" \
    "$T_DIR/disp_shapes.s.json" "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
t = [x['text'] for x in r['recommendations'] if x['id'] == 'slow_dispatch']
if not t: print('no slow_dispatch: %s' % [x['id'] for x in r['recommendations']]); sys.exit()
t = t[0]
ok = ('(record_shapes was on in this trace and adds to every call: profile '
      'a step with it off to compare; with_stack and profile_memory were off)' in t)
print('ok' if ok else t)"

run h2d
run d2h
check "Copies: a pageable host-to-device scalar stages and returns" \
    sh -c "grep -q 'stages its bytes and returns without waiting for the stream' '$T_DIR/h2d.html' &&
           ! grep -q 'host waits for the stream' '$T_DIR/h2d.html'"
check "Copies: a pageable device-to-host scalar waits for the stream" \
    grep -q 'returns only once it is done, after the work queued before it: the host waits for the stream' \
    "$T_DIR/d2h.html"
# review 25g #5: reads of results back to pageable memory (8 B and 8 KB, a
# mean over 64 B) get the wait's words, never the DataLoader's pinning,
# which stages input batches going to the device
run d2h_big
run h2d_big
check "Copies: pageable device-to-host reads of kilobytes get no DataLoader advice" \
    sh -c "grep -q '4 copies into pageable host memory' '$T_DIR/d2h_big.html' &&
           grep -q 'does not help a read back to the host' '$T_DIR/d2h_big.html' &&
           ! grep -q 'make them asynchronous' '$T_DIR/d2h_big.html'"
check "Copies: pageable host-to-device copies of kilobytes get the pinning advice" \
    sh -c "grep -q '4 copies from pageable host memory to the device' '$T_DIR/h2d_big.html' &&
           grep -q 'DataLoader(pin_memory=True) and .to(device, non_blocking=True) make them' '$T_DIR/h2d_big.html'"
# review 26g #3: copies all before the first kernel are a one-time move
# (alexnet's parameters under aten::to), not input batches to pin
run h2d_once
check "Copies: pageable host-to-device copies before any kernel are a one-time move" \
    sh -c "grep -q 'all before the first kernel: a one-time move' '$T_DIR/h2d_once.html' &&
           ! grep -q 'make them asynchronous' '$T_DIR/h2d_once.html'"

# The shared samples the review read.
if shared_summary alex hta/critical_path/alexnet; then
    judge "hta_cp_alexnet: the fc addmm's TF32 finding names cuDNN's switch" \
        "$T_DIR/alex.json" "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
ids = {f['operator']: f['reason_id'] for f in r['tensor_cores']['findings']}
print('ok' if ids.get('aten::addmm') == 'tf32_matmul_off' and
      'fp32_algorithm' not in ids.values() else ids)"
else
    skip "hta_cp_alexnet TF32" "no $PR_SHARED/traces"
fi
if shared_report nccl hta/nccl_parser_config; then
    judge "hta_nccl: conv about 25% of kernel time, GEMM the fc layer's, layouts under convolutions" \
        "$T_DIR/nccl.json" "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
k = r['kernel_classes']
fam = {x['family']: x for x in k['by_family']}
# every kernel of the run, summed by Python: the view moves time, never loses it
tot = sum(x['total_us'] for x in r['kernels'])
bad = []
if abs(sum(x['total_us'] for x in k['by_family']) - tot) > 0.01: bad.append('totals')
if sum(x['kernels'] for x in k['by_family']) != len(r['kernels']): bad.append('counts')
cut = sum(x['total_us'] for x in r['kernels'] if 'cutlass_80_tensorop_s1688gemm' in x['name'])
if not 24 < fam['conv']['time_pct'] < 26: bad.append('conv %s' % fam['conv'])
if not fam['gemm']['total_us'] < 200: bad.append('gemm %s' % fam['gemm'])
if abs(k['conv_gemm']['total_us'] - cut) > 0.01: bad.append('conv_gemm %s, cutlass %s' % (k['conv_gemm'], cut))
lay = sum(x['total_us'] for x in r['kernels'] if 'nchwToNhwc' in x['name'] or 'nhwcToNchw' in x['name'])
lt = k['layout_transforms']
if abs(lt['total_us'] - lay) > 0.01 or abs(lt['conv_us'] - lay) > 0.01: bad.append('layout %s, %s' % (lt, lay))
t = [x['text'] for x in r['recommendations'] if x['id'] == 'slow_dispatch'][0]
if 'record_shapes, with_stack and profile_memory were off' not in t or 'profile a step with' in t:
    bad.append(t)
ids = {f['operator']: f['reason_id'] for f in r['tensor_cores']['findings']}
if ids.get('aten::mm') != 'tf32_matmul_off': bad.append(ids)
print('; '.join(map(str, bad)) if bad else 'ok')"
else
    skip "hta_nccl families, slow_dispatch" "no $PR_SHARED/traces"
fi
if shared_report rn50 tb_plugin/resnet50_num_workers_0; then
    judge "tb_resnet50: cuDNN's volta_sgemm under cudnn_convolution* is conv; 0.1% of layout transforms makes no note" \
        "$T_DIR/rn50.json" "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
k = r['kernel_classes']
conv_ops = ('aten::cudnn_convolution', 'aten::cudnn_convolution_backward_weight',
            'aten::cudnn_convolution_backward_input')
sg = sum(x['total_us'] for x in r['kernels']
         if x['family'] == 'gemm' and x['operator'] in conv_ops)
fam = {x['family']: x for x in k['by_family']}
bad = []
# a kernel row names its main operator; one an aten::mm also launched
# keeps that part in gemm
if not 0.99 * sg <= k['conv_gemm']['total_us'] <= sg + 0.01: bad.append('conv_gemm %s, sgemm under convs %s' % (k['conv_gemm'], sg))
if abs(sum(x['total_us'] for x in k['by_family']) - sum(x['total_us'] for x in r['kernels'])) > 0.01: bad.append('totals')
if not fam['gemm']['total_us'] < 500: bad.append('gemm %s' % fam['gemm'])
if not k['layout_transforms']['time_pct'] < 1: bad.append(k['layout_transforms'])
print('; '.join(map(str, bad)) if bad else 'ok')"
    # the raw traces' launching operators (Kineto's external id), read
    # here: volta_sgemm_128x32_nt ran under aten::mm (113 us) and
    # cudnn_convolution_backward_weight, so it counts in gemm and conv
    judge "tb_resnet50: a GEMM kernel counts in each family it has time in" \
        "$T_DIR/rn50.json" "
import collections, glob, gzip, json, os, sys
runs = json.load(open(sys.argv[1]))['runs']
want = []
for f in sorted(glob.glob(os.path.join(os.environ['PR_SHARED'], 'traces',
        'tb_plugin/resnet50_num_workers_0/*.pt.trace.json.gz'))):
    ev = json.load(gzip.open(f))['traceEvents']
    ops = {}
    for e in ev:
        if e.get('cat') == 'Operator' and 'External id' in e.get('args', {}):
            ops.setdefault(e['args']['External id'], e['name'])
    under = collections.defaultdict(set)
    for e in ev:
        if e.get('cat') == 'Kernel':
            o = ops.get(e['args'].get('external id'), '')
            under[e['name']].add('convolution' in o)
    want.append(under)
got, exp = [], []
for r, under in zip(runs, want):
    fam = {x['family']: x['kernels'] for x in r['kernel_classes']['by_family']}
    g = [k['name'] for k in r['kernels'] if k['family'] == 'gemm']
    got.append((fam['gemm'], sum(fam.values()) - len(r['kernels'])))
    exp.append((sum(False in under[n] for n in g),
                sum(under[n] == {True, False} for n in g)))
print('ok' if len(runs) == 2 and got == exp and exp[0] == (3, 1) else 'got %s, want %s' % (got, exp))"
    check "tb_resnet50: the family note says the Kernels column counts one kernel twice" \
        grep -q 'so this table&#39;s Kernels column adds up to 68 for the run&#39;s 67 kernels' "$T_DIR/rn50.html"
    check "tb_resnet50: no channels_last note for 0.1% of kernel time" \
        sh -c "grep -q 'Conv includes' '$T_DIR/rn50.html' && ! grep -q 'lets cuDNN skip' '$T_DIR/rn50.html'"
else
    skip "tb_resnet50 families" "no $PR_SHARED/traces"
fi
if shared_report nb nsys/mfu_2gpu_before.sqlite; then
    judge "nsys before: the 8-byte uploads stage and return; PyTorch's sync is the wait" \
        "$T_DIR/nb.json" "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    t = [x['text'] for x in r['recommendations'] if x['id'] == 'host_sync'][0]
    if 'makes the host wait' in t or 'stages the bytes and returns' not in t \
            or 'non_blocking=False' not in t:
        print(t); sys.exit()
print('ok')"
    check "nsys before: the Copies note does not say an upload waits" \
        sh -c "! grep -q 'each makes the host wait' '$T_DIR/nb.html' &&
               grep -q 'stages its bytes and returns' '$T_DIR/nb.html'"
else
    skip "nsys before host_sync text" "no $PR_SHARED/traces"
fi

echo "1..$T_N"
