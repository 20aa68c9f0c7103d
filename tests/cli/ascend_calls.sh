#!/bin/sh
# ascend_calls.sh - review30a #5, #6: `table --kind kernel-calls` on an
# Ascend run speaks of the Cube and judges each task by the unit its
# producer names, as the kernels table does; a task's own Input Shapes /
# Input Data Types fill the columns where its operator has none; a
# MindSpore task of the backward graph ("Gradients/" scope) is bprop.
# #7: a kernel_details.csv alone has no operators, and its tasks carry
# their Input Shapes (which only record_shapes=True writes): its report
# does not advise record_shapes=True, it points at the tasks' shapes (the
# advice where operators lack shapes: ascend_unknowns.sh #13).
# #9: `table --why NAME --input` gives the precision the run's table gives
# and its source (the producer's Input Data Types, HF32 Eligible), not
# "not stated by the name"; a kernel whose calls state several precisions
# shows the one of most of its time, marked, never "-".
# #11: the timeline's legend lists only the categories its spans draw (a
# kernel_details.csv has no host timeline: no Memcpy, Memset, Runtime,
# DataLoader); the PDF Kernels table's Math cell of an HCCL task holds
# "communication" whole, not "communic" / "ation".
. "$PR_SRCDIR/tests/lib.sh"

# ---- #5: a MatMulV2 on the AI Core (the Cube: the chip has vector cores
# of its own) and an Add on an AI Vector core, no operator timeline
K=$T_DIR/kd
mkdir -p "$K"
{
    echo 'Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,Output Data Types,Output Formats'
    echo '1,4294967295,1,2,aclnnMm_MatMulCommon_MatMulV2,MatMulV2,AI_CORE,1000000.0,100.0,0,16,0,NO,"32,9216;4096,9216",DT_BF16;DT_BF16,ND;ND,"32,4096",DT_BF16,ND'
    echo '1,4294967295,2,2,aclnnAdd_AddAiCore_Add,Add,AI_VECTOR_CORE,1000200.0,10.0,0,40,0,N/A,"32,4096;32,4096",FLOAT;FLOAT,ND;ND,"32,4096",FLOAT,ND'
} > "$K/kernel_details.csv"
"$PR_BIN" table -q -i "$K/kernel_details.csv" --kind kernel-calls \
    > "$T_DIR/calls.txt" 2> "$T_DIR/calls.err"
check "kernel-calls of a kernel_details.csv: exit 0" [ $? -eq 0 ]
check "the header speaks of the Cube and Block Dim, not TC, Grid, Block" \
    sh -c "head -1 '$T_DIR/calls.txt' | grep -q 'Cube *Block Dim\$' &&
           ! head -1 '$T_DIR/calls.txt' | grep -Eq 'TC|Grid|Block  '"
check "the MatMulV2 ran on the Cube: yes, Block Dim 16" \
    grep -Eq '^aclnnMm_MatMulCommon_MatMulV2 .* yes +16$' "$T_DIR/calls.txt"
check "the Add on a vector core: no, Block Dim 40" \
    grep -Eq '^aclnnAdd_AddAiCore_Add .* no +40$' "$T_DIR/calls.txt"
"$PR_BIN" table -q -i "$K/kernel_details.csv" --kind kernel-calls --csv \
    -c kernel,tc,tc_rule,shape,types,block_dim > "$T_DIR/calls.csv"
check "CSV: the unit decides (rule matrix / vector); the task's shapes and types" \
    sh -c "grep -qxF 'aclnnMm_MatMulCommon_MatMulV2,yes,matrix,\"[[32, 9216], [4096, 9216]]\",\"['\\''c10::BFloat16'\\'', '\\''c10::BFloat16'\\'']\",16' '$T_DIR/calls.csv' &&
           grep -qF 'aclnnAdd_AddAiCore_Add,no,vector,\"[[32, 4096], [32, 4096]]\",' '$T_DIR/calls.csv'"
# the kernels table says the same of the MatMulV2
"$PR_BIN" table -q -i "$K/kernel_details.csv" --kind kernels --csv \
    -c name,tc > "$T_DIR/kernels.csv"
check "the kernels table agrees: the MatMulV2 on the Cube" \
    grep -qx 'aclnnMm_MatMulCommon_MatMulV2,yes' "$T_DIR/kernels.csv"

# ---- #7: the report of the same export
"$PR_BIN" -q -i "$K/kernel_details.csv" --html "$T_DIR/kd.html"
check "no operators: no record_shapes advice, the tasks' shapes named" \
    sh -c "! grep -q 'No input shapes in this trace' '$T_DIR/kd.html' &&
           grep -q 'Its tasks state their own input shapes' '$T_DIR/kd.html'"

# ---- #9: a bf16 MatMulV3, an Add of two bf16 calls (30 us) and one fp32
# (2 us), an fp32 Conv2D marked HF32 Eligible YES
P=$T_DIR/prec
mkdir -p "$P"
{
    echo 'Step Id,Model ID,Task ID,Stream ID,Name,Type,Accelerator Core,Start Time(us),Duration(us),Wait Time(us),Block Dim,Mix Block Dim,HF32 Eligible,Input Shapes,Input Data Types,Input Formats,Output Shapes,Output Data Types,Output Formats'
    echo '1,4294967295,1,2,aclnnMatmul_MatMulV3Common_MatMulV3,MatMulV3,AI_CORE,1000000.0,100.0,0,20,0,NO,"64,64;64,64",DT_BF16;DT_BF16,ND;ND,"64,64",DT_BF16,ND'
    echo '1,4294967295,2,2,aclnnAdd_AddAiCore_Add,Add,AI_VECTOR_CORE,1000200.0,30.0,0,40,0,N/A,"64,64;64,64",DT_BF16;DT_BF16,ND;ND,"64,64",DT_BF16,ND'
    echo '1,4294967295,3,2,aclnnAdd_AddAiCore_Add,Add,AI_VECTOR_CORE,1000300.0,30.0,0,40,0,N/A,"64,64;64,64",DT_BF16;DT_BF16,ND;ND,"64,64",DT_BF16,ND'
    echo '1,4294967295,4,2,aclnnAdd_AddAiCore_Add,Add,AI_VECTOR_CORE,1000400.0,2.0,0,40,0,N/A,"64;64",FLOAT;FLOAT,ND;ND,"64",FLOAT,ND'
    echo '1,4294967295,5,2,Conv2D1,Conv2D,AI_CORE,1000500.0,50.0,0,16,0,YES,"8,1,32,32,16;9,4,16,16",FLOAT;FLOAT,NC1HWC0;FRACTAL_Z,"8,4,32,32,16",FLOAT,NC1HWC0'
} > "$P/kernel_details.csv"
"$PR_BIN" table -q -i "$P/kernel_details.csv" \
    --why aclnnMatmul_MatMulV3Common_MatMulV3 > "$T_DIR/why_mm.txt"
check "--why: the MatMulV3 is bf16, from the producer's Input Data Types" \
    grep -qx "precision  bf16, from its producer's Input Data Types (1 call)" \
    "$T_DIR/why_mm.txt"
"$PR_BIN" table -q -i "$P/kernel_details.csv" --why Conv2D1 \
    > "$T_DIR/why_conv.txt"
check "--why: the Conv2D is hf32, its fp32 inputs HF32 Eligible YES" \
    grep -q "^precision  hf32: its producer states fp32 inputs marked HF32 Eligible YES" \
    "$T_DIR/why_conv.txt"
"$PR_BIN" table -q -i "$P/kernel_details.csv" --why aclnnAdd_AddAiCore_Add \
    > "$T_DIR/why_add.txt"
check "--why: the Add is bf16 for most of its time, both precisions listed" \
    grep -qx "precision  bf16 for most of its time (mixed): its calls' Input Data Types differ: bf16 2 calls 60.0 µs, fp32 1 call 2.0 µs" \
    "$T_DIR/why_add.txt"
"$PR_BIN" table -q -i "$P/kernel_details.csv" --kind kernels \
    -c name,precision > "$T_DIR/prec.txt"
check "the kernels table: the Add 'bf16 (mixed)', not '-'" \
    grep -Eq '^aclnnAdd_AddAiCore_Add +bf16 \(mixed\)$' "$T_DIR/prec.txt"
"$PR_BIN" -q -i "$P/kernel_details.csv" --json "$T_DIR/prec.json"
check "the summary: precision bf16, precision_source producer_mixed" python3 -c "
import json, sys
k = {x['name']: x for x in json.load(open(sys.argv[1]))['runs'][0]['kernels']}
a = k['aclnnAdd_AddAiCore_Add']
assert (a['precision'], a['precision_source']) == ('bf16', 'producer_mixed'), a
m = k['aclnnMatmul_MatMulV3Common_MatMulV3']
assert (m['precision'], m['precision_source']) == ('bf16', 'producer'), m
" "$T_DIR/prec.json"

# ---- #11: the same compute tasks and an HCCL all-reduce
C=$T_DIR/hccl
mkdir -p "$C"
{
    cat "$K/kernel_details.csv"
    echo '1,4294967295,3,3,hcom_allReduce__1_0,hcom_allReduce_,HCCL,1000300.0,400.0,0,N/A,0,N/A,N/A,N/A,N/A,N/A,N/A,N/A'
} > "$C/kernel_details.csv"
"$PR_BIN" -q -i "$C/kernel_details.csv" --html "$T_DIR/hccl.html" \
    --pdf "$T_DIR/hccl.pdf"
check "the timeline legend: Kernel and Communication, nothing it does not draw" \
    python3 -c '
import re, sys
t = open(sys.argv[1], encoding="utf-8").read()
i = t.find("Timeline of the capture")
f = t[i:t.find("</figure>", i)]
got = re.findall(r">(Kernel|Memcpy|Memset|Runtime|DataLoader|Communication)</text>", f)
sys.exit(0 if i >= 0 and got == ["Kernel", "Communication"] else print(got) or 1)
' "$T_DIR/hccl.html"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext "$T_DIR/hccl.pdf" "$T_DIR/hccl.txt"
    check "the PDF Kernels table: 'communication' whole in the Math cell" \
        sh -c "grep -qx communication '$T_DIR/hccl.txt' &&
               ! grep -qx communic '$T_DIR/hccl.txt'"
else
    skip "the PDF Kernels table's Math cell" "no pdftotext"
fi

# ---- #6: a MindSpore timeline of a forward and a backward MatMul
M=$T_DIR/ms
mkdir -p "$M"
{
    echo 'op_name, stream_id, start_time(ms), duration(ms)'
    echo 'Default/network-WithLossCell/fc-Dense/MatMul-op1,519,1000.00000,0.01'
    echo 'Gradients/Default/network-WithLossCell/fc-Dense/gradMatMul/MatMul-op2,519,1000.02000,0.01'
} > "$M/output_timeline_data_1.txt"
"$PR_BIN" table -q -i "$M" --kind kernel-calls --csv -c kernel,direction \
    > "$T_DIR/ms.csv" 2> "$T_DIR/ms.err"
check "MindSpore timeline: exit 0" [ $? -eq 0 ]
check "the forward MatMul fprop or unknown, the Gradients/ one bprop" \
    sh -c "grep -Eq '^Default/network-WithLossCell/fc-Dense/MatMul-op1,(fprop|)\$' '$T_DIR/ms.csv' &&
           grep -qx 'Gradients/Default/network-WithLossCell/fc-Dense/gradMatMul/MatMul-op2,bprop' '$T_DIR/ms.csv'" ||
    cat "$T_DIR/ms.csv" "$T_DIR/ms.err" >&2

# ---- real samples: npu_text2's 23 Cube tasks, ms_run2's 41 backward ones
S=$PR_SHARED/traces
if [ -d "$S/torch_npu/text_level2" ]; then
    n=$("$PR_BIN" table -q -i "$S/torch_npu/text_level2" --kind kernel-calls \
        --csv -c kernel,tc | grep -c ',yes$')
    check "npu_text2: 23 calls on the Cube (its AI_CORE MatMul and Conv2D tasks; got $n)" \
        [ "$n" = 23 ]
    n=$("$PR_BIN" table -q -i "$S/mindspore/ascend_run2" --kind kernel-calls \
        --csv -c kernel,direction | grep -c '^Gradients/.*,bprop$')
    check "ms_run2: the 41 Gradients/ tasks bprop (got $n)" [ "$n" = 41 ]
    if command -v pdftotext > /dev/null 2>&1; then
        "$PR_BIN" -q -i "$S/torch_npu/text_level2" --pdf "$T_DIR/t2.pdf"
        pdftotext "$T_DIR/t2.pdf" "$T_DIR/t2.txt"
        check "npu_text2's PDF Kernels table: its 4 hcom rows' Math 'communication' whole" \
            sh -c "[ \$(grep -cx communication '$T_DIR/t2.txt') -ge 4 ] &&
                   ! grep -qx communic '$T_DIR/t2.txt'"
    fi
else
    skip "npu_text2 and ms_run2 kernel-calls" "no $S"
fi
echo "1..$T_N"
