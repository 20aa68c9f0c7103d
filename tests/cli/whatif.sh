#!/bin/sh
# whatif.sh - what a fix would save (whatif.c, issue #31): each change is
# replayed on a hand-made step whose answer is known.
#  dataloader: the data loader's next() takes 600 of a 1000 µs step on the
#    host before aten::mm launches a 300 µs kernel; without it the step
#    ends at 400 µs (the host's 345 µs after the launch): 600 µs, 60%.
#  graphs: ten 20 µs launches back to back, each 3 µs kernel starting
#    15 µs after its launch, then 10 µs of host: 210 µs; with no launch
#    cost the kernels run back to back from 0: 30 µs, 180 µs saved.
#  sync: cudaDeviceSynchronize waits for an 800 µs kernel, then 185 µs of
#    host work: 1000 µs; without the wait the kernel bounds it: 810 µs.
#  copies: a pageable cudaMemcpyAsync blocks the host 500 µs for a 480 µs
#    copy, 100 µs of host follow: 600 µs; non-blocking, the copy ends at
#    490 µs: 110 µs saved.
#  comm: the host waits for a 200 µs all-reduce (10-210 µs), then launches
#    a 150 µs GEMM and waits for it: 380 µs.  Overlapped, the GEMM runs
#    beside the all-reduce (20-170 µs) and the step ends with the
#    collective at 210 µs: 170 µs saved.
#  amp / tf32 (an A100-SXM4-40GB: fp32 19.5, TF32 156, fp16 312 TFLOP/s,
#    1555 GB/s): a 1000 µs fp32 sgemm of aten::mm 1024^3 the host waits
#    for: AMP takes it to 1000 * 19.5/312 = 62.5 µs (937.5 µs saved),
#    TF32 to 125 µs (875 µs).  At 4096^3 the memory roof caps them: its
#    3 * 4096^2 * 4 B at 1555 GB/s take 129.47 µs (TF32, 870.53 saved) and
#    half that in fp16, 64.735 µs (AMP, 935.265 saved).
#  batch: 100 µs of host dispatch in aten::add launch a 50 µs kernel,
#    then 55 µs of Python to the step's end: 160 µs.  Twice the batch: the
#    kernel ends at 210 µs, the Python at 215 µs, so a step's worth of
#    samples takes 107.5 µs: 52.5 µs saved, 32.81%; the evidence is
#    aten::add, whose dispatch does not grow.
#  occupancy: a 400 µs kernel of 27 blocks on 108 SMs (0.25 blocks per
#    SM) the host waits for, in a 420 µs step: filling the device it takes
#    100 µs, 300 µs saved (71.43%).
#  membound: aten::add of two 2^24 fp32 tensors (201.3 MB) in a 1000 µs
#    kernel, 201 GB/s of 1555: at the roof 129.47 µs, 870.53 µs saved.
#  misaligned: an fp16 aten::mm 1001^3 (dims not multiples of 8) whose
#    1000 µs kernel ran off tensor cores (gemmSN): on them, 1000 * 19.5 /
#    312 = 62.5 µs (its 6 MB at the roof take 3.9 µs): 937.5 µs saved.
#  cold: three launches of 5, 2000 and 5 µs (median 5 µs) of 10 µs
#    kernels, the second's kernel starting when its call returns, then
#    30 µs of host work: 2040 µs.  Warm, the second call takes 5 µs and
#    its kernel no longer waits for it: the calls end at 15 µs, the host
#    at 45 µs, the kernels at 40 µs: 1995 µs saved (97.79%); no batch
#    advice on this cold capture, and other advice claims no gain.
#  accumulation: comm's step (an all-reduce the host waits for, then a
#    GEMM it waits for; 380 µs).  Two micro-batches: every call, the GEMM
#    and the host's gaps twice, the all-reduce once: the all-reduce ends
#    at 210 µs (launched at 0 after a 10 µs wait), the second call at
#    220 µs, the GEMM (10 µs launch wait kept) at 520 µs, the host's
#    10 µs after the sync at 540 µs: per step's worth 270 µs, 110 µs
#    saved (28.95%).
#  p2p: comm's step with NCCL's SendRecv instead of the all-reduce: a
#    pipeline stage's transfer: neither overlapped nor accumulated.
#  same stream: a 100 µs GEMM, a 50 µs all-reduce, a 200 µs GEMM and a
#    10 µs all-reduce on one stream (10-370 µs), the host waiting for the
#    last: 375 µs.  Overlapped, the second GEMM follows the first (110-310
#    us) beside the first all-reduce (110-160 µs), the second all-reduce
#    after it (310-320 µs), which the host's sync no longer waits for: the
#    step ends with it, 320 µs, 55 µs saved (14.67%); the second GEMM
#    does not run beside the first.
#  consumer: same stream's step without the last all-reduce (365 µs): the
#    second GEMM starts after the step's last collective ends, so it
#    consumes its output (the optimizer after the gradients' all-reduce,
#    review 7 finding 3) and keeps waiting: nothing saved.
#  casts: aten::_to_copy launches a 400 µs bfloat16_copy_kernel_cuda (a
#    float-to-bf16 cast, Copy.cu) and aten::mul a 10 µs bf16 multiply
#    after it on its stream, the host waiting for both, in a 430 µs step:
#    without the cast, 400 µs saved (93.02%); the dtype_conversions advice
#    carries that as its bound, and as its estimate the cast fused into
#    its consumer, the multiply (whatif.c's casts_model): 2/3 of it,
#    266.67 µs.
#  casts_fp8: the same with float8_copy_kernel_cuda from float: 2/5, 160 µs.
#  casts_gemm: two 200 µs casts, then a bf16 GEMM reading them (review 11
#    #5: autocast's weight casts before cuBLAS): the same 400 µs bound,
#    but a library GEMM takes no fused cast: no estimate, said why.
#  graphs_optim: graphs with the last six launches inside an
#    Optimizer.step#SGD.step range: 60% of the launch calls' time the
#    replay takes off is the optimizer's (review 11 #4), so the advice
#    leads with its multi-tensor path, the graph after.
#  prefetch: a 300 µs pinned host-to-device copy and a 100 µs kernel
#    after it on one stream, the host waiting for the kernel: 415 µs.
#    Prefetched, the kernel runs from its launch (5-105 µs) beside the
#    copy, which ends the step at 310 µs: 105 µs saved (25.30%).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "what-if" "no python3"
    echo "1..$T_N"
    exit 0
fi
python3 - "$T_DIR" << 'PY'
import json, sys
d = sys.argv[1]
def X(cat, name, ts, dur, pid=1, tid=1, **args):
    return {"ph": "X", "cat": cat, "name": name, "pid": pid, "tid": tid,
            "ts": ts, "dur": dur, "args": args}
def K(name, ts, dur, corr, stream=7, cat="kernel", **kw):
    return X(cat, name, ts, dur, pid=0, tid=stream, correlation=corr,
             device=0, stream=stream, **kw)
def call(ts, dur, corr, name="cudaLaunchKernel"):
    return X("cuda_runtime", name, ts, dur, correlation=corr)
def step(dur):
    return X("user_annotation", "ProfilerStep#1", 0, dur)
def mm(n, ts, dur):
    return X("cpu_op", "aten::mm", ts, dur, **{"Input Dims": [[n, n], [n, n]],
             "Input type": ["float", "float"]})
def gemm(n):
    return [step(1020), mm(n, 0, 10), call(2, 5, 1),
            K("volta_sgemm_128x64_nn", 10, 1000, 1),
            call(10, 1005, 2, "cudaDeviceSynchronize")]
def cast(to):
    return ("void at::native::vectorized_elementwise_kernel<4, "
            "at::native::%s_copy_kernel_cuda(at::TensorIteratorBase&)::"
            "{lambda(float)#1}, at::detail::Array<char*, 2> >(int, "
            "at::native::%s_copy_kernel_cuda(at::TensorIteratorBase&)::"
            "{lambda(float)#1}, at::detail::Array<char*, 2>)" % (to, to))
MUL = ("void at::native::vectorized_elementwise_kernel<4, at::native::"
       "BinaryFunctor<c10::BFloat16, c10::BFloat16, c10::BFloat16, "
       "at::native::binary_internal::MulFunctor<float> >, "
       "at::detail::Array<char*, 3> >(int, at::native::BinaryFunctor<"
       "c10::BFloat16, c10::BFloat16, c10::BFloat16, at::native::"
       "binary_internal::MulFunctor<float> >, at::detail::Array<char*, 3>)")
# the cast's consumer: a 10 µs kernel after it on its stream (410-420 µs),
# launched at 9 µs by op, the host waiting for it
def consumer(kernel, op="aten::mul"):
    return [X("cpu_op", op, 8, 7), call(9, 5, 2), K(kernel, 410, 10, 2),
            call(14, 406, 3, "cudaDeviceSynchronize")]
A100 = [{"id": 0, "name": "NVIDIA A100-SXM4-40GB", "computeMajor": 8,
         "computeMinor": 0, "numSms": 108}]
cases = {
    "dataloader": [step(1000),
        X("user_annotation",
          "enumerate(DataLoader)#_SingleProcessDataLoaderIter.__next__",
          0, 600),
        X("cpu_op", "aten::mm", 600, 100), call(650, 5, 1),
        K("volta_sgemm_128x64_nn", 660, 300, 1)],
    "graphs": [step(210)] +
        [call(20 * i, 20, i + 1) for i in range(10)] +
        [K("vectorized_elementwise_kernel", 20 * i + 15, 3, i + 1)
         for i in range(10)],
    "sync": [step(1000), call(0, 5, 1),
        K("volta_sgemm_128x64_nn", 10, 800, 1),
        call(10, 805, 2, "cudaDeviceSynchronize"),
        X("cpu_op", "aten::add", 815, 185)],
    "copies": [step(600), call(0, 500, 1, "cudaMemcpyAsync"),
        K("Memcpy HtoD (Pageable -> Device)", 10, 480, 1, cat="gpu_memcpy"),
        X("cpu_op", "aten::relu", 500, 100)],
    "comm": [step(380), call(0, 5, 1),
        K("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 10, 200, 1, 9),
        call(10, 200, 2, "cudaDeviceSynchronize"),
        call(210, 5, 3), K("volta_sgemm_128x64_nn", 220, 150, 3),
        call(215, 160, 4, "cudaDeviceSynchronize")],
    "amp": gemm(1024),
    "amp_roof": gemm(4096),
    "occupancy": [step(420), X("cpu_op", "aten::foo", 0, 8), call(2, 5, 1),
        K("my_kernel", 10, 400, 1, grid=[27, 1, 1], block=[128, 1, 1],
          **{"blocks per SM": 0.25, "registers per thread": 32,
             "shared memory": 0, "est. achieved occupancy %": 6,
             "warps per SM": 1.0}),
        call(10, 405, 2, "cudaDeviceSynchronize")],
    "membound": [step(1020),
        X("cpu_op", "aten::add", 0, 8, **{"Input Dims": [[1 << 24], [1 << 24]],
          "Input type": ["float", "float"]}), call(2, 5, 1),
        K("vectorized_elementwise_kernel", 10, 1000, 1),
        call(10, 1005, 2, "cudaDeviceSynchronize")],
    "misaligned": [step(1020),
        X("cpu_op", "aten::mm", 0, 8, **{"Input Dims": [[1001, 1001], [1001, 1001]],
          "Input type": ["c10::Half", "c10::Half"]}), call(2, 5, 1),
        K("void gemmSN_NN_kernel<__half, 256, 4, 2, 8, 4, 4, false>", 10, 1000, 1),
        call(10, 1005, 2, "cudaDeviceSynchronize")],
    "batch": [step(160), X("cpu_op", "aten::add", 0, 105), call(100, 5, 1),
        K("vectorized_elementwise_kernel", 110, 50, 1)],
    "cold": [step(2040), call(0, 5, 1), K("vectorized_elementwise_kernel", 10, 10, 1),
        call(5, 2000, 2), K("vectorized_elementwise_kernel", 2010, 10, 2),
        call(2005, 5, 3), K("vectorized_elementwise_kernel", 2020, 10, 3),
        X("cpu_op", "aten::add", 2010, 30)],
    "comm_off": [step(1000), X("cpu_op", "aten::add", 0, 1000),
        call(10, 5, 1),
        K("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 20, 200, 1, 9),
        call(990, 5, 2), K("vectorized_elementwise_kernel", 996, 2, 2)],
    "cold_batch": [step(5200), call(0, 1000, 9, "cudaMalloc"),
        X("cpu_op", "aten::add", 1000, 105), call(1100, 5, 1),
        K("vectorized_elementwise_kernel", 1110, 4090, 1)],
    "cold_malloc": [step(2040), call(0, 5, 1),
        K("vectorized_elementwise_kernel", 10, 10, 1),
        call(5, 2000, 2, "cudaMalloc"), call(2005, 5, 3),
        K("vectorized_elementwise_kernel", 2020, 10, 3),
        X("cpu_op", "aten::add", 2010, 30)],
    "p2p": [step(380), call(0, 5, 1),
        K("ncclDevKernel_SendRecv(ncclDevKernelArgsStorage<4096ul>)", 10, 200, 1, 9),
        call(10, 200, 2, "cudaDeviceSynchronize"),
        call(210, 5, 3), K("volta_sgemm_128x64_nn", 220, 150, 3),
        call(215, 160, 4, "cudaDeviceSynchronize")],
    "same_stream": [step(375), call(0, 5, 1), call(5, 5, 2), call(10, 5, 3),
        call(15, 5, 4),
        K("volta_sgemm_128x64_nn", 10, 100, 1),
        K("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 110, 50, 2),
        K("volta_sgemm_128x64_nn", 160, 200, 3),
        K("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 360, 10, 4),
        call(20, 350, 5, "cudaDeviceSynchronize")],
    "consumer": [step(365), call(0, 5, 1), call(5, 5, 2), call(10, 5, 3),
        K("volta_sgemm_128x64_nn", 10, 100, 1),
        K("ncclDevKernel_AllReduce_Sum_f32_RING_LL", 110, 50, 2),
        K("volta_sgemm_128x64_nn", 160, 200, 3),
        call(15, 345, 4, "cudaDeviceSynchronize")],
    "casts": [step(430), X("cpu_op", "aten::_to_copy", 0, 8), call(2, 5, 1),
        K(cast("bfloat16"), 10, 400, 1)] + consumer(MUL),
    "casts_fp8": [step(430), X("cpu_op", "aten::_to_copy", 0, 8),
        call(2, 5, 1), K(cast("float8"), 10, 400, 1)] + consumer(MUL),
    "casts_gemm": [step(430), X("cpu_op", "aten::_to_copy", 0, 8),
        call(2, 2, 1), K(cast("bfloat16"), 10, 200, 1), call(5, 2, 4),
        K(cast("bfloat16"), 210, 200, 4)] +
        consumer("ampere_bf16_s16816gemm_bf16_128x128_ldg8_f2f_stages_"
                 "32x5_nn", "aten::mm"),
    # review 12 #2: FSDP2's mixed-precision cast of a parameter shard
    # under FSDP::pre_forward, followed on its stream by the all-gather's
    # copy-in (direct_copy_kernel_cuda, Copy.cu) that reads it
    "casts_fsdp": [step(430),
        X("user_annotation", "FSDP::pre_forward (blocks.0)", 0, 20),
        X("cpu_op", "aten::_to_copy", 1, 6), call(2, 5, 1),
        K(cast("bfloat16"), 10, 400, 1)] + consumer(
        "void at::native::elementwise_kernel<128, 4, at::native::"
        "direct_copy_kernel_cuda(at::TensorIteratorBase&)::"
        "{lambda()#3}::operator()() const::{lambda()#7}::operator()() "
        "const::{lambda(c10::BFloat16)#1}>(int, "
        "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::"
        "{lambda()#3}::operator()() const::{lambda()#7}::operator()() "
        "const::{lambda(c10::BFloat16)#1})", "aten::copy_"),
    # review30g #7: the same cast under FSDP::pre_backward only
    "casts_fsdp_bwd": [step(430),
        X("user_annotation", "FSDP::pre_backward (blocks.0)", 0, 20),
        X("cpu_op", "aten::_to_copy", 1, 6), call(2, 5, 1),
        K(cast("bfloat16"), 10, 400, 1)] + consumer(
        "void at::native::elementwise_kernel<128, 4, at::native::"
        "direct_copy_kernel_cuda(at::TensorIteratorBase&)::"
        "{lambda()#3}::operator()() const::{lambda()#7}::operator()() "
        "const::{lambda(c10::BFloat16)#1}>(int, "
        "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::"
        "{lambda()#3}::operator()() const::{lambda()#7}::operator()() "
        "const::{lambda(c10::BFloat16)#1})", "aten::copy_"),
    # issue #28 (review s20): the same pre_forward cast in a trace that
    # holds a backward pass (autograd's engine range): backward's share is
    # known, 0
    "casts_fsdp_evalfn": [step(430),
        X("user_annotation", "FSDP::pre_forward (blocks.0)", 0, 20),
        X("cpu_op", "aten::_to_copy", 1, 6), call(2, 5, 1),
        X("cpu_op", "autograd::engine::evaluate_function: AddmmBackward0",
          25, 3),
        K(cast("bfloat16"), 10, 400, 1)] + consumer(
        "void at::native::elementwise_kernel<128, 4, at::native::"
        "direct_copy_kernel_cuda(at::TensorIteratorBase&)::"
        "{lambda()#3}::operator()() const::{lambda()#7}::operator()() "
        "const::{lambda(c10::BFloat16)#1}>(int, "
        "at::native::direct_copy_kernel_cuda(at::TensorIteratorBase&)::"
        "{lambda()#3}::operator()() const::{lambda()#7}::operator()() "
        "const::{lambda(c10::BFloat16)#1})", "aten::copy_"),
    "graphs_optim": [step(210),
        X("user_annotation", "Optimizer.step#SGD.step", 79, 122)] +
        [call(20 * i, 20, i + 1) for i in range(10)] +
        [K("vectorized_elementwise_kernel", 20 * i + 15, 3, i + 1)
         for i in range(10)],
    "prefetch": [step(415), call(0, 5, 1, "cudaMemcpyAsync"),
        K("Memcpy HtoD (Pinned -> Device)", 10, 300, 1, cat="gpu_memcpy"),
        call(5, 5, 2), K("volta_sgemm_128x64_nn", 310, 100, 2),
        call(10, 400, 3, "cudaDeviceSynchronize")],
}
for name, ev in cases.items():
    json.dump({"deviceProperties": A100, "traceEvents": ev},
              open("%s/%s.pt.trace.json" % (d, name), "w"))
# the amp case on a V100 (compute capability 7.0): the plugin's advice
V100 = [{"id": 0, "name": "Tesla V100-SXM2-16GB", "computeMajor": 7,
         "computeMinor": 0, "numSms": 80}]
json.dump({"deviceProperties": V100, "traceEvents": cases["amp"]},
          open("%s/amp_v100.pt.trace.json" % d, "w"))
PY

# wi.py FILE ID GAIN_US PCT: the run's what_if row ID predicts GAIN_US
# (mean per step) and PCT of the step, with evidence
cat > "$T_DIR/wi.py" << 'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
w = {x["id"]: x for x in r["critical_path"]["what_if"]}
x = w.get(sys.argv[2])
ok = (x is not None and abs(x["gain_us"] - float(sys.argv[3])) < 1e-6 and
      abs(x["gain_pct"] - float(sys.argv[4])) < 0.01 and
      len(x["evidence"]) > 0)
if not ok:
    print(json.dumps(r["critical_path"].get("what_if"), indent=1),
          file=sys.stderr)
sys.exit(0 if ok else 1)
PY
for c in dataloader graphs sync copies comm amp amp_roof batch \
    occupancy membound misaligned cold cold_malloc cold_batch p2p \
    same_stream consumer \
    prefetch \
    amp_v100 comm_off casts casts_fp8 casts_gemm casts_fsdp casts_fsdp_bwd casts_fsdp_evalfn graphs_optim; do
    "$PR_BIN" -q --input "$T_DIR/$c.pt.trace.json" --json "$T_DIR/$c.json"
    check "$c: summary written (exit $?)" [ -s "$T_DIR/$c.json" ]
    # issue #31: a finding without a gain is an observation, not a
    # recommendation
    check "$c: every recommendation carries a gain" python3 -c "
import json, sys
for r in json.load(open(sys.argv[1]))['runs']:
    for x in r['recommendations']:
        assert isinstance(x.get('gain_us'), (int, float)), x['id']
" "$T_DIR/$c.json"
done
check "dataloader gone: 600 µs, 60%" \
    python3 "$T_DIR/wi.py" "$T_DIR/dataloader.json" dataloader 600 60
check "CUDA graphs: 180 µs, 85.71%" \
    python3 "$T_DIR/wi.py" "$T_DIR/graphs.json" launch_bound 180 85.714
check "sync removed: 190 µs, 19%" \
    python3 "$T_DIR/wi.py" "$T_DIR/sync.json" host_sync 190 19
check "non-blocking copies: 110 µs, 18.33%" \
    python3 "$T_DIR/wi.py" "$T_DIR/copies.json" pageable_copies 110 18.333
check "communication overlapped: 170 µs, 44.74%" \
    python3 "$T_DIR/wi.py" "$T_DIR/comm.json" communication 170 44.737
# review 7 finding 3: no one change makes the overlap replay's figure, so
# the communication finding carries it as a bound, shown "<=" (bound_us)
check "communication overlapped: the finding's bound, not a gain" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert 'communication' not in [x['id'] for x in r['recommendations']], r
c = [x for x in r['observations'] if x['id'] == 'communication'][0]
assert c['gain_us'] is None and c['bound_us'] == 170, c
assert c['gain_note'].startswith('an upper bound, not a replayed change'), c
f = [x for x in r['verdict']['findings'] if x['id'] == 'communication'][0]
assert f['saves'] == '\u2264 170 µs', f
" "$T_DIR/comm.json"
check "AMP: 937.5 µs, 91.91%" \
    python3 "$T_DIR/wi.py" "$T_DIR/amp.json" enable_amp 937.5 91.912
check "TF32: 875 µs, 85.78%" \
    python3 "$T_DIR/wi.py" "$T_DIR/amp.json" tf32 875 85.784
check "AMP at the memory roof: 935.265 µs" \
    python3 "$T_DIR/wi.py" "$T_DIR/amp_roof.json" enable_amp 935.265 91.693
check "TF32 at the memory roof: 870.53 µs" \
    python3 "$T_DIR/wi.py" "$T_DIR/amp_roof.json" tf32 870.53 85.346
check "twice the batch: 52.5 µs per step's worth, 32.81%" \
    python3 "$T_DIR/wi.py" "$T_DIR/batch.json" low_gpu_utilization 52.5 32.8125
check "low occupancy: the kernel filling the device, 300 µs" \
    python3 "$T_DIR/wi.py" "$T_DIR/occupancy.json" low_occupancy 300 71.4286
check "no dtype conversions: the cast gone, 400 µs" \
    python3 "$T_DIR/wi.py" "$T_DIR/casts.json" dtype_conversions 400 93.0233
# (400 of the 410 µs of kernels: the cast beside its 10 µs consumer)
check "  the dtype_conversions advice carries it, naming the cast" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
x = [x for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'dtype_conversions']
sys.exit(not (x and abs(x[0]['bound_us'] - 400) < 1e-6 and
              'bfloat16_copy_kernel_cuda %.1f%%' % (100 * 400 / 410.0)
              in x[0]['text']))" \
    "$T_DIR/casts.json"
# issue #31: the replay (the cast gone) is the bound; the estimate is the
# model of the cast fused into its consumer: an fp32-to-bf16 cast moves
# 4 + 2 bytes an element, and fused its consumer reads 4 where it read 2:
# 2 x 2 of the 6 bytes go, 400 x 2/3 = 266.67 µs (62.02% of the 430 µs
# step, the multiply its consumer); fp32 to fp8 (1 byte): 2 x 1 of 5, 160 µs
check "  its estimate: the cast fused into its consumer, 2/3 of 400 µs" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
x = [x for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'dtype_conversions'][0]
assert abs(x['gain_us'] - 800.0 / 3) < 1e-3, x
assert abs(x['gain_pct'] - 100 * 800.0 / 3 / 430) < 1e-3, x
w = [w for w in r['critical_path']['what_if'] if w['id'] == 'dtype_conversions'][0]
assert w['fusible_fed_pct'] == 100 and w['gemm_fed_pct'] == 0, w
assert x['gain_source'] == 'model' and x['bound_us'] == 400, x
assert '67% of a 4-byte-to-2-byte cast' in x['gain_note'], x['gain_note']
v = [v for v in r['verdict']['findings'] if v['id'] == 'dtype_conversions']
assert v[0]['saves'] == '267 µs (\u2264 400 µs)', v[0]['saves']
" "$T_DIR/casts.json"
# review22g item 14: the verdict's evidence names the cast in the reports'
# short form (shorten.h, told apart from the run's other kernels as the
# Kernels table does: here the multiply's vectorized_elementwise_kernel
# takes the longer form; review23g #6: the fold keeps the function that
# owns the lambda), never cut mid-identifier as the plain 80-byte
# cut did ("...<4, at::native::bfloat16_copy_kernel_cuda(at::TensorIter"),
# and says its 400 µs is time on the critical path (not the kernel's
# total, not the 267 µs estimate)
check "  its evidence: the cast's short name, time on the critical path" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
v = [v for v in r['verdict']['findings'] if v['id'] == 'dtype_conversions'][0]
e = v['evidence']
assert e == 'taken off the critical path: vectorized_elementwise_kernel<\u2026bfloat16_copy_kernel_cuda\u2026> 400 \u00b5s (the bound\'s evidence; the estimate under it is a stated model\'s: its finding names the model)', e
" "$T_DIR/casts.json"
check "  fp32 to fp8: 2/5 of the cast's 400 µs, 160 µs" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
x = [x for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'dtype_conversions'][0]
assert abs(x['gain_us'] - 160) < 1e-3 and x['bound_us'] == 400, x
assert '40% of a 4-byte-to-1-byte cast' in x['gain_note'], x['gain_note']
" "$T_DIR/casts_fp8.json"
# review 11 #5: casts that a GEMM reads (through a run of casts) take no
# fused cast: the bound stays, no estimate, and the note says why
check "  casts before a GEMM: the bound, no estimate" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
w = [w for w in r['critical_path']['what_if'] if w['id'] == 'dtype_conversions'][0]
assert abs(w['gain_us'] - 400) < 1e-6 and w['gemm_fed_pct'] == 100 and \
    w['fusible_fed_pct'] == 0, w
x = [x for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'dtype_conversions'][0]
assert x['gain_us'] is None and x['bound_us'] == 400, x
assert 'no estimate under it' in x['gain_note'] and \
    '100% by a GEMM, convolution or attention kernel' in x['gain_note'], x
" "$T_DIR/casts_gemm.json"
# review 12 #2: a cast under FSDP::pre_forward followed by a copy kernel
# that reads it: the copy is its consumer (no "no consumer"), no fused
# cast fits a copy (no estimate), and the cause is FSDP's mixed
# precision, not autocast; the cast gone stays the bound (400 µs)
check "  a cast under FSDP::pre_forward feeding a copy: FSDP's, no estimate" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
w = [w for w in r['critical_path']['what_if'] if w['id'] == 'dtype_conversions'][0]
assert abs(w['gain_us'] - 400) < 1e-6 and w['copy_fed_pct'] == 100 and \
    w['fusible_fed_pct'] == 0 and w['gemm_fed_pct'] == 0, w
assert w['fsdp_pct'] == 100 and w['fsdp_path_pct'] == 100 and \
    w['fsdp_calls'] == 1, w
x = [x for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'dtype_conversions'][0]
assert x['gain_us'] is None and x['bound_us'] == 400, x
assert '100% by a copy (a copy kernel or a device-to-device memcpy)' in \
    x['gain_note'] and 'torch.compile does not fuse it' in x['gain_note'], x
assert 'FSDP::pre_forward' in x['text'] and 'MixedPrecisionPolicy' in \
    x['text'] and 'param_dtype' in x['text'], x['text']
assert 'autocast re-casting' not in x['text'], x['text']
# review30g #7: only the kind of range the casts were in is named
assert w['fsdp_ranges'] == 'FSDP::pre_forward', w
assert 'pre_backward' not in x['text'], x['text']
# gpu_a #1: no backward re-gather cast, so no reshard_after_forward
# advice; issue #28 (review s20): the trace holds no backward pass, so
# that share is unknown (null, not 0) and the text says backward cannot
# be judged
assert w['fsdp_backward_pct'] is None, w
assert 'reshard_after_forward=False' not in x['text'], x['text']
assert 'The capture holds no backward pass, so backward\'s re-gather' in \
    x['text'] and 'cannot be judged: capture a whole training iteration, forward and backward.' in x['text'], x['text']
# one cast a step: singular ('launched 1 casts' before)
assert 'launched 1 cast a step, 100% of the casts' in x['text'], x['text']
" "$T_DIR/casts_fsdp.json"
check "  a cast under FSDP::pre_backward alone: that range named, not pre_forward" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
w = [w for w in r['critical_path']['what_if'] if w['id'] == 'dtype_conversions'][0]
assert w['fsdp_pct'] == 100 and w['fsdp_ranges'] == 'FSDP::pre_backward', w
x = [x for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'dtype_conversions'][0]
assert 'its FSDP::pre_backward ranges' in x['text'], x['text']
assert 'pre_forward' not in x['text'], x['text']
# gpu_a #1: all the casts are backward's re-gather: the advice stays,
# citing their share
assert w['fsdp_backward_pct'] == 100, w
assert 'reshard_after_forward=False' in x['text'] and \
    'the casts under FSDP::pre_backward, 100% of the casts\' time, would go' in x['text'], x['text']
assert 'holds no backward pass' not in x['text'], x['text']
" "$T_DIR/casts_fsdp_bwd.json"
check "  a pre_forward cast in a trace with a backward pass: 0% under pre_backward, no 'cannot be judged'" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
w = [w for w in r['critical_path']['what_if'] if w['id'] == 'dtype_conversions'][0]
assert w['fsdp_pct'] == 100 and w['fsdp_backward_pct'] == 0, w
x = [x for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'dtype_conversions'][0]
assert 'FSDP::pre_forward' in x['text'], x['text']
assert 'no backward pass' not in x['text'] and \
    'reshard_after_forward' not in x['text'], x['text']
" "$T_DIR/casts_fsdp_evalfn.json"
check "  casts outside FSDP ranges keep the autocast cause, no FSDP keys" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
w = [w for w in r['critical_path']['what_if'] if w['id'] == 'dtype_conversions'][0]
assert 'fsdp_pct' not in w and w['copy_fed_pct'] == 0, w
x = [x for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'dtype_conversions'][0]
assert 'autocast re-casting' in x['text'] and 'FSDP' not in x['text'], x
" "$T_DIR/casts.json"
# review 11 #4: launches issued inside the optimizer's step: 6 of the 10
# equal launch calls (120 of 200 µs) start in Optimizer.step#SGD.step
check "launches in the optimizer's step: 60%, its multi-tensor path first" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
w = [w for w in r['critical_path']['what_if'] if w['id'] == 'launch_bound'][0]
assert abs(w['optimizer_pct'] - 60) < 1e-6, w
assert w['optimizer'] == 'Optimizer.step#SGD.step', w
t = [x['text'] for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'launch_bound'][0]
want = ('60% of the launch calls\' time the replay takes off is issued '
        'inside the optimizer\'s step (Optimizer.step#SGD.step)')
assert want in t and 'torch.optim.SGD(..., foreach=True) or fused=True' in t, t
assert t.index(want) < t.index('Then, for the launches left: capture the step in a CUDA graph'), t
assert t.startswith('Launch calls take 200 µs a step on the critical path'), t
" "$T_DIR/graphs_optim.json"
check "  no optimizer range: no share, no such advice" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
w = [w for w in r['critical_path']['what_if'] if w['id'] == 'launch_bound'][0]
assert 'optimizer_pct' not in w and 'optimizer' not in w, w
t = [x['text'] for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'launch_bound'][0]
assert 'optimizer' not in t, t
" "$T_DIR/graphs.json"
check "memory-bound op at the roof: 870.53 µs" \
    python3 "$T_DIR/wi.py" "$T_DIR/membound.json" memory_bound_ops 870.53 85.346
check "misaligned dims on tensor cores: 937.5 µs" \
    python3 "$T_DIR/wi.py" "$T_DIR/misaligned.json" misaligned_dims 937.5 91.912
check "cold: the warm step, 1995 µs, 97.79%" \
    python3 "$T_DIR/wi.py" "$T_DIR/cold.json" cold_step 1995 97.794
check "cold: the cold_step advice carries the gain, no batch advice" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
recs = (r['recommendations'] + r.get('observations', []))
assert recs[0]['id'] == 'cold_step' and recs[0]['gain_us'] == 1995, recs
assert recs[0]['evidence'][0]['name'] == 'cudaLaunchKernel', recs
# the device idles while the host pays first-use costs: no batch advice
# (review R3); any other advice claims no gain
assert 'low_gpu_utilization' not in [x['id'] for x in recs], recs
others = recs[1:]
for x in others:
    assert x['gain_us'] is None and x['gain_pct'] is None, x
    assert x['gain_note'].startswith(('not claimed: the capture is cold',
                                      'no change replayed')), x
ids = [w['id'] for w in r['critical_path']['what_if']]
# review 27 #8: a cold capture has no twice-the-batch row (it spread the
# one-time cost over twice the samples); the cold_step row's basis is
# one_time, not step
assert 'low_gpu_utilization' not in ids, ids
w = r['critical_path']['what_if'][0]
assert w['id'] == 'cold_step' and w['gain_basis'] == 'one_time', w
assert recs[0]['gain_basis'] == 'one_time', recs[0]
" "$T_DIR/cold.json"
"$PR_BIN" table --kind findings --csv --input "$T_DIR/cold.pt.trace.json" \
    > "$T_DIR/cold.csv" 2> /dev/null
check "cold: the findings table's basis is one_time" \
    grep -q "^1,cold_step,.*,one_time,recommendation," "$T_DIR/cold.csv"
"$PR_BIN" -q --input "$T_DIR/cold.pt.trace.json" --html "$T_DIR/cold.html"
check "cold: the What-if table says why it has no twice-the-batch row" \
    grep -q "No twice-the-batch or gradient accumulation row: the steps are cold (warm, they would be 98% shorter)" \
    "$T_DIR/cold.html"
# cold_batch: a first cudaMalloc of 1000 us (the step's median call
# 5 us), then aten::add launching a 4090 us kernel: 5200 us.  Warm, the
# malloc takes 5 us: 4205 us (cold_step 995 us, 19.1%: not a cold
# capture).  Twice the batch replays on the warm step: the kernel
# 8180 us, the step 8300 us, per step's worth 4150 us: 55 us saved
# (1.06%); replayed cold it was about 550 us (5200 - 9300 / 2: the 995 us
# first-use cost spread over twice the samples)
check "cold_batch: twice the batch on the warm step, 55 us, not ~550" \
    python3 "$T_DIR/wi.py" "$T_DIR/cold_batch.json" low_gpu_utilization 55 1.058
check "cold_batch: cold_step 995 us, one_time" python3 -c "
import json, sys
cp = json.load(open(sys.argv[1]))['runs'][0]['critical_path']
w = {x['id']: x for x in cp['what_if']}
assert w['cold_step']['gain_us'] == 995 and w['cold_step']['gain_basis'] == 'one_time', w
assert w['low_gpu_utilization']['gain_basis'] == 'samples', w
" "$T_DIR/cold_batch.json"
check "cold: the advice's text names the calls and the replay's share" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
c = (r['recommendations'] + r.get('observations', []))[0]
assert c['id'] == 'cold_step', c
assert 'cudaLaunchKernel 2.0 ms' in c['text'], c['text']
assert 'its steps would be 98% shorter' in c['text'], c['text']
" "$T_DIR/cold.json"
# a cold call that is no launch (a first cudaMalloc of 2000 µs; the
# launches take 5 µs): the launch rule does not see it, the replay does,
# and the cold_step advice is there with its gain (review R2)
check "cold allocation: cold_step with 1995 µs, cudaMalloc named" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
c = (r['recommendations'] + r.get('observations', []))[0]
assert c['id'] == 'cold_step' and c['gain_us'] == 1995, c
assert 'cudaMalloc 2.0 ms' in c['text'], c['text']
assert c['evidence'][0]['name'] == 'cudaMalloc', c
" "$T_DIR/cold_malloc.json"
check "gradient accumulation: 110 µs per step's worth, 28.95%" \
    python3 "$T_DIR/wi.py" "$T_DIR/comm.json" gradient_accumulation 110 28.947
check "p2p: a pipeline transfer is neither overlapped nor accumulated" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
ids = [x['id'] for x in r['critical_path']['what_if'] or []]
assert 'communication' not in ids and 'gradient_accumulation' not in ids, ids
" "$T_DIR/p2p.json"
check "same stream: overlapped, the GEMMs keep their order: 55 µs, 14.67%" \
    python3 "$T_DIR/wi.py" "$T_DIR/same_stream.json" communication 55 14.667
check "consumer: the GEMM after the last all-reduce keeps waiting: no gain" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
w = {x['id']: x for x in r['critical_path']['what_if'] or []}
assert 'communication' not in w or w['communication']['gain_us'] == 0, w
for x in (r['recommendations'] + r.get('observations', [])):
    assert x['id'] != 'communication' or x.get('gain_us') is None, x
" "$T_DIR/consumer.json"
check "prefetched copies: 105 µs, 25.30%" \
    python3 "$T_DIR/wi.py" "$T_DIR/prefetch.json" copy_bound 105 25.301
check "the AMP advice carries the replay's gain, aten::mm its evidence" \
    python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
x = (r['recommendations'] + r.get('observations', []))[0]
assert x['id'] == 'enable_amp' and x['gain_us'] == 937.5, x
assert x['evidence'][0]['name'] == 'aten::mm', x
" "$T_DIR/amp.json"
# review R6: an all-reduce of 200 µs (20% of the step, so the plugin's
# communication advice would fire) runs while the host works the whole
# 1000 µs step: none of it is on the critical path, so no change to it
# saves anything and the advice does not fire
check "communication off the path: no communication advice" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert r['steps'][0]['breakdown_us']['communication'] >= 100, r['steps'][0]
s = r['critical_path']['steps'][0]
assert s['by_kind_us']['communication'] == 0 and s['bound'] == 'host', s
ids = [x['id'] for x in (r['recommendations'] + r.get('observations', []))]
assert 'communication' not in ids, ids
" "$T_DIR/comm_off.json"
# review R3: the batch case holds one 50 µs kernel: a near-empty capture,
# whose low utilization says nothing about the batch (no "increase batch
# size", no gain), though its what-if row is replayed; with nothing to
# change it is no recommendation (issue #31) but a Data quality row
check "near-empty capture: no batch-size advice, a Data quality row" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
assert 'low_gpu_utilization' not in [x['id'] for x in (r['recommendations'] + r.get('observations', []))], (r['recommendations'] + r.get('observations', []))
u = [x for x in r['diagnostics'] if x['kind'] == 'no_workload'][0]
assert 'increase batch size' not in u['text'], u
assert 'GPU 0 has low utilization' in u['text'], u
assert 'almost no GPU work (1 kernel call, 50 µs' in u['text'], u
assert 'Not a recommendation' in u['text'], u
assert any(w['id'] == 'low_gpu_utilization' for w in r['critical_path']['what_if']), r['critical_path']
" "$T_DIR/batch.json"
# review R5: on an A100 the AMP advice says TF32 first, then bf16 AMP;
# on a V100 it is the plugin's (FP16)
check "AMP advice on sm_80: TF32 first, then bf16; on sm_70: FP16" \
    python3 -c "
import json, sys
def amp(f):
    r = json.load(open(f))['runs'][0]
    return [x for x in (r['recommendations'] + r.get('observations', [])) if x['id'] == 'enable_amp'][0]
a, v = amp(sys.argv[1])['text'], amp(sys.argv[2])['text']
assert 'FP16' not in a, a
t = a.index('set_float32_matmul_precision(\"high\")')
assert t < a.index('torch.bfloat16'), a
assert 'compute capability 8.x' in a, a
assert v.endswith('You could enable Automatic Mixed Precision to speedup by '
                  'using FP16.'), v
" "$T_DIR/amp.json" "$T_DIR/amp_v100.json"
check "a change with no gain on the path is not listed" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
ids = [x['id'] for x in r['critical_path']['what_if']]
assert 'communication' not in ids and 'host_sync' not in ids, ids
" "$T_DIR/dataloader.json"
check "the dataloader advice carries its gain and evidence" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
recs = {x['id']: x for x in (r['recommendations'] + r.get('observations', []))}
x = recs['dataloader']
assert x['gain_us'] == 600 and x['gain_pct'] == 60, x
assert x['evidence'][0]['name'].startswith('enumerate(DataLoader)'), x
assert (r['recommendations'] + r.get('observations', []))[0]['id'] == 'dataloader'
" "$T_DIR/dataloader.json"
# a real cold capture (HTA's alexnet sample: CUDA context creation and
# first launches take 90% of its one step): the warm step is its finding,
# no batch advice, and the other advice claims no gain the steady state
# would not have
ALEX=hta/critical_path/alexnet/benchmark_result_2869224_1695835535_trace.json.gz
if have_shared && [ -f "$PR_SHARED/traces/$ALEX" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/$ALEX" --json "$T_DIR/alex.json"
    check "alexnet: cold, no batch advice, the rest claims no gain" python3 -c "
import json, sys
r = json.load(open(sys.argv[1]))['runs'][0]
recs = {x['id']: x for x in (r['recommendations'] + r.get('observations', []))}
c = recs['cold_step']
assert c['gain_pct'] > 50 and (r['recommendations'] + r.get('observations', []))[0] is not None, c
assert (r['recommendations'] + r.get('observations', []))[0]['id'] == 'cold_step', (r['recommendations'] + r.get('observations', []))[0]
assert 'low_gpu_utilization' not in recs, recs
# review R4: cudnn's 128x64 xregs_large tiles run at low occupancy by design
assert 'low_occupancy' not in recs, recs
for k, u in recs.items():
    if k != 'cold_step':
        assert u['gain_us'] is None, u
        assert u['gain_note'].startswith('not claimed: the capture is cold'), u
# review R2: the text counts every cold call (CUDA context creation in
# cudaDeviceGetStreamPriorityRange, 29.9 s), and its share is the gain's
assert 'cudaDeviceGetStreamPriorityRange 29.93 s' in c['text'], c['text']
assert 'would be %.0f%% shorter' % c['gain_pct'] in c['text'], c['text']
" "$T_DIR/alex.json"
else
    skip "alexnet: cold capture" "no $PR_SHARED/traces/$ALEX"
fi
echo "1..$T_N"
