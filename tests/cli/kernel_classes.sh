#!/bin/sh
# kernel_classes.sh - issue #28: the kernel table end to end.  A one-rank
# trace of a 64-rank job on a B200 whose kernels come from six libraries:
#   nvjet bf16 GEMM 300 us, TRT-LLM MXFP4 batched GEMM 100 us (tensor
#   cores: 400 of 1000 us = 40%); DeepEP dispatch 200 us and symmetric-
#   memory multimem all-reduce 100 us (communication: 300 us); a PyTorch
#   elementwise kernel 250 us; my_custom_kernel 50 us that no rule names.
# Checks the kernel rows' family/math/precision/rule, the shares, the
# collective table, the distributed section a world size of 64 brings,
# kernel_classes with the unknown kernel's share, the reports, table
# --why, and a user's rules (--kernel-rules, PROFREPORT_KERNEL_RULES).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "kernel classes" "no python3"
    echo "1..$T_N"
    exit 0
fi

# table --why needs no trace
"$PR_BIN" table --why "void deep_ep::internode::dispatch<false>(int4*)" \
    > "$T_DIR/why.txt" 2> "$T_DIR/err"
check "--why exits 0 ($(head -c 200 "$T_DIR/err"))" [ $? -eq 0 ]
check "--why names the rule" grep -q "^rule  *deepep " "$T_DIR/why.txt"
check "--why names the family as communication" \
    grep -q "^family  *collective (communication time)" "$T_DIR/why.txt"
check "--why names the rule's source" \
    grep -q "^source  *deepseek-ai/DeepEP csrc/kernels/" "$T_DIR/why.txt"
"$PR_BIN" table --why my_custom_kernel > "$T_DIR/why2.txt" 2> "$T_DIR/err"
check "--why of an unknown kernel says no rule matches" \
    grep -q "^rule  *none: no rule" "$T_DIR/why2.txt"
"$PR_BIN" --why x > /dev/null 2> "$T_DIR/err"
check "--why is refused outside table (exit $?)" [ $? -eq 1 ]

python3 - "$T_DIR/b200.json" <<'PY'
import json, sys
ev = [{"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#1",
       "pid": 1, "tid": 1, "ts": 0, "dur": 1100,
       "args": {"External id": 1000}}]
ks = [("nvjet_tst_128x256_64x4_1x2_h_bz_TNN", 300),
      ("bmm_MxE4m3_MxE2m1MxE4m3_Fp32_t128x8x512u2_s3_et128x8_m128x8x64_"
       "cga1x1x1_16dp256b_rM_TN_transOut_schedS_sm100f", 100),
      ("void deep_ep::internode::dispatch<false, 8, 4, 2, 2, 1, 2>"
       "(int4*, float*, float*, long*)", 200),
      ("void (anonymous namespace)::multimem_all_reduce_kernel<c10::BFloat16,"
       " 16>(c10::BFloat16*, unsigned long, unsigned int**, unsigned long, "
       "unsigned long)", 100),
      ("my_custom_kernel", 50),
      ("void at::native::vectorized_elementwise_kernel<4, at::native::"
       "CUDAFunctor_add<float>, at::detail::Array<char*, 3> >(int, at::native"
       "::CUDAFunctor_add<float>, at::detail::Array<char*, 3>)", 250)]
ts = 50
for i, (name, dur) in enumerate(ks):
    corr = 100 + i
    ev.append({"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
               "pid": 1, "tid": 1, "ts": 10 + 5 * i, "dur": 2,
               "args": {"correlation": corr, "External id": corr}})
    ev.append({"ph": "X", "cat": "kernel", "name": name, "pid": 0, "tid": 7,
               "ts": ts, "dur": dur,
               "args": {"device": 0, "stream": 7, "correlation": corr,
                        "External id": corr}})
    ts += dur
json.dump({"schemaVersion": 1,
           "deviceProperties": [{"id": 0, "name": "NVIDIA B200",
                                 "computeMajor": 10, "computeMinor": 0,
                                 "warpSize": 32, "numSms": 148}],
           "distributedInfo": {"backend": "nccl", "rank": 3,
                               "world_size": 64},
           "traceEvents": ev}, open(sys.argv[1], "w"))
PY

"$PR_BIN" -q --input "$T_DIR/b200.json" --json "$T_DIR/s.json" \
    --html "$T_DIR/r.html" 2> "$T_DIR/err"
check "report written (exit $?; $(head -c 200 "$T_DIR/err"))" [ -s "$T_DIR/s.json" ]
python3 - "$T_DIR/s.json" > "$T_DIR/why" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
r = s["runs"][0]
bad = []
rows = {k["name"][:24]: k for k in r["kernels"]}
want = {"nvjet_tst_128x256_64x4_1": ("gemm", "tensor_core", "bf16", "nvjet"),
        "bmm_MxE4m3_MxE2m1MxE4m3_": ("gemm", "tensor_core", "mxfp4",
                                     "trtllm_gen.gemm"),
        "void deep_ep::internode::": ("collective", "cuda_core", None,
                                      "deepep"),
        "void (anonymous namespac": ("collective", "cuda_core", None,
                                     "symm_mem.all_reduce"),
        "my_custom_kernel": (None, None, None, None),
        "void at::native::vectoriz": ("elementwise", "cuda_core", None,
                                      "pytorch.elementwise")}
for name, w in want.items():
    k = rows.get(name[:24])
    got = k and (k["family"], k["math"], k["precision"], k["kernel_rule"])
    if got != w:
        bad.append("%s: %s, want %s" % (name, got, w))
if r["tensor_cores"]["tc_kernel_time_pct"] != 40:
    bad.append("tc share %s" % r["tensor_cores"]["tc_kernel_time_pct"])
ops = sorted((o["name"], o["total_us"]) for o in r["communication"]["ops"])
if ops != [("deepep:all_to_all", 200), ("symm_mem:all_reduce", 100)]:
    bad.append("collectives %s" % ops)
if r["steps"][0]["breakdown_us"]["communication"] != 300:
    bad.append("breakdown %s" % r["steps"][0]["breakdown_us"])
d = s["distributed"]
if not d or d["world_size"] != 64:
    bad.append("distributed %s" % d)
u = r["kernel_classes"]["unknown"]
if (u["kernels"], u["time_pct"], [t["name"] for t in u["top"]]) != \
        (1, 5, ["my_custom_kernel"]):
    bad.append("unknown %s" % u)
fam = [(f["family"], f["time_pct"]) for f in r["kernel_classes"]["by_family"]]
if fam != [("gemm", 40), ("collective", 30), ("elementwise", 25),
           ("unknown", 5)]:
    bad.append("by_family %s" % fam)
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
check "classes, shares, collectives, distributed: $(cat "$T_DIR/why")" [ $? -eq 0 ]
check "HTML: kernel time by family" \
    grep -q "Kernel time by family" "$T_DIR/r.html"
check "HTML: the unknown kernel named with its share" \
    grep -q "matches no rule of the kernel table .*my_custom_kernel (5.0%)" \
    "$T_DIR/r.html"
# gpu_a: one kernel takes the singular verbs (hta timeline_analysis read
# "1 kernel ... match no rule ... and are counted")
check "HTML: one unknown kernel matches and is counted (singular)" \
    grep -q "1 kernel (5.0% of kernel time) matches no rule of the kernel table and is counted as" \
    "$T_DIR/r.html"

# a kernel no rule names but its producer calls a collective (PyTorch's
# collective metadata on the kernel) is communication in its row too
python3 - "$T_DIR/meta.json" <<'PY'
import json, sys
ev = [{"ph": "X", "cat": "cuda_runtime", "name": "cudaLaunchKernel",
       "pid": 1, "tid": 1, "ts": 10, "dur": 2,
       "args": {"correlation": 7, "External id": 7}},
      {"ph": "X", "cat": "kernel", "name": "my_allreduce_kernel", "pid": 0,
       "tid": 7, "ts": 20, "dur": 100,
       "args": {"device": 0, "stream": 7, "correlation": 7,
                "External id": 7, "Collective name": "allreduce",
                "In msg nelems": 1024, "Out msg nelems": 1024,
                "Group size": 2, "dtype": "Float"}}]
json.dump({"schemaVersion": 1, "traceEvents": ev}, open(sys.argv[1], "w"))
PY
"$PR_BIN" -q --input "$T_DIR/meta.json" --json "$T_DIR/meta.out.json" \
    2> "$T_DIR/err"
python3 - "$T_DIR/meta.out.json" > "$T_DIR/why" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
k = r["kernels"][0]
got = (k["family"], k["family_source"], k["kernel_rule"],
       r["kernel_classes"]["unknown"]["kernels"])
print(got)
sys.exit(0 if got == ("collective", "producer", None, 0) else 1)
PY
check "collective metadata: family collective from the producer ($(cat "$T_DIR/why"))" \
    [ $? -eq 0 ]

# a user's rules come first: --kernel-rules, else the environment
cat > "$T_DIR/rules.json" <<'EOF'
{"rules": [{"id": "site.custom", "library": "ours", "family": "gemm",
  "math": "tensor_core", "precision": "fp8_e4m3", "any": ["my_custom_*"],
  "source": "our kernels/custom.cu: my_custom_<n> are tensor-core GEMMs"}]}
EOF
rule_of() { # json file -> the custom kernel's rule
    python3 -c "import json,sys; print([k['kernel_rule'] for k in \
json.load(open(sys.argv[1]))['runs'][0]['kernels'] \
if k['name'] == 'my_custom_kernel'][0])" "$1"
}
"$PR_BIN" -q --input "$T_DIR/b200.json" --kernel-rules "$T_DIR/rules.json" \
    --json "$T_DIR/u.json" 2> "$T_DIR/err"
check "--kernel-rules: the user's rule names the kernel" \
    [ "$(rule_of "$T_DIR/u.json")" = site.custom ]
PROFREPORT_KERNEL_RULES=$T_DIR/rules.json "$PR_BIN" -q \
    --input "$T_DIR/b200.json" --json "$T_DIR/e.json" 2> "$T_DIR/err"
check "PROFREPORT_KERNEL_RULES: the same" \
    [ "$(rule_of "$T_DIR/e.json")" = site.custom ]
PROFREPORT_KERNEL_RULES=$T_DIR/rules.json "$PR_BIN" table \
    --why my_custom_kernel > "$T_DIR/why3.txt"
check "--why reads the user's rules too" \
    grep -q "^rule  *site.custom (rule 1 of" "$T_DIR/why3.txt"

# a bad rules file fails at once, named, with exit 2 and no output
echo '{"rules": [{"id": "x", "library": "l", "family": "matmul", "any":
["a*"], "source": "s/s.cu"}]}' > "$T_DIR/bad.json"
"$PR_BIN" -q --input "$T_DIR/b200.json" --kernel-rules "$T_DIR/bad.json" \
    --json "$T_DIR/bad.out.json" 2> "$T_DIR/err"
check "a bad rules file: exit 2 (got $?)" [ $? -eq 2 ]
check "  the message names the file and the rule" \
    grep -q "bad.json: kernel table: rule 1 (\"x\"): \"family\" is \"matmul\"" \
    "$T_DIR/err"
check "  no output written" [ ! -e "$T_DIR/bad.out.json" ]

echo "1..$T_N"
