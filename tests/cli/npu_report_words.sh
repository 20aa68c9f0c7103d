#!/bin/sh
# npu_report_words.sh - issue #30's word rule: an Ascend report speaks of
# its NPU, AI Core, Cube and Vector, HCCL and torch_npu.profiler, and
# never of a GPU, CUDA, NCCL or RCCL, SMs (sm_80, gfx90a), warps, occupancy,
# tensor cores, ProfilerStep or torch.profiler, nor names its figures after
# HTA, which reads no NPU trace; its operators launch tasks ("Task
# launches", not "Kernel launches"; the path's "compute tasks 55%", not
# "kernels 55%").  Checked on every Ascend sample of
# ../shared/traces (torch_npu, msprof, mindspore) and on the CANN 8.3 job
# of tests/data/ascend: the HTML's visible text, the PDF's text, every
# `table` kind on the terminal, the recommendations of the JSON and its
# distributed views' method texts.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "NPU report words" "no python3"
    echo "1..$T_N"
    exit 0
fi

WORDS='GPU|CUDA|cuda|NCCL|RCCL|Kernel launches|\bkernels [0-9]+%|\bHTA\b|\bsm_[0-9]|\bgfx[0-9]|\bSMs?\b|[Ww]arps?\b|[Oo]ccupancy|[Tt]ensor[ -]?[Cc]ores?|ProfilerStep|torch\.profiler\b'

# the visible text of an HTML report (no styles, scripts or markup; the
# tooltips are text too)
cat > "$T_DIR/text.py" << 'PY'
import html, re, sys
t = open(sys.argv[1], encoding='utf-8').read().replace('<wbr>', '')
t = re.sub(r'<(style|script)\b.*?</\1>', '', t, flags=re.S)
t = re.sub(r'(?:title|aria-label)="([^"]*)"', r'>\1<', t)
print(html.unescape(re.sub(r'<[^>]+>', '\n', t)))
PY
cat > "$T_DIR/recs.py" << 'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for r in d['runs']:
    for x in r.get('recommendations') or []:
        print(x['text'])
for v in [d.get('distributed')] + [j.get('distributed') for j in d.get('jobs') or []]:
    if v:
        print(v.get('method') or '')
        print(v.get('method_producer') or '')
PY

inputs=$PR_SRCDIR/tests/data/ascend/pp4
if have_shared; then
    for d in "$PR_SHARED"/traces/torch_npu/*/ "$PR_SHARED"/traces/msprof/*/ \
        "$PR_SHARED"/traces/msprof/extra/*/ "$PR_SHARED"/traces/mindspore/*/ \
        "$PR_SHARED"/traces/mindspore/extra/*/; do
        case $d in
        */extra/) continue ;;
        # a MindSpore GPU run (gpu_timeline_display_0.json) beside the
        # Ascend ones: its report rightly speaks of a GPU
        */mindspore/fixtures/) continue ;;
        esac
        inputs="$inputs ${d%/}"
    done
else
    skip "the shared Ascend samples" "no $PR_SHARED/traces"
fi

for in in $inputs; do
    name=$(echo "$in" | sed 's|.*/traces/||; s|.*/tests/data/||')
    o=$T_DIR/r
    if ! "$PR_BIN" -q --input "$in" --html "$o.html" --pdf "$o.pdf" \
        --json "$o.json" 2> /dev/null; then
        # cluster outputs of msprof-analyze and MindSpore's strategy files
        # are not runs; every other sample must be read
        case $name in
        */msprof_analyze_cluster_output | */parallel_strategy) continue ;;
        esac
        not_ok "$name: read"
        continue
    fi
    python3 "$T_DIR/text.py" "$o.html" > "$o.txt"
    python3 "$T_DIR/recs.py" "$o.json" >> "$o.txt"
    if command -v pdftotext > /dev/null 2>&1; then
        pdftotext -layout "$o.pdf" - >> "$o.txt"
    fi
    for k in operators kernels kernel-calls memory steps modules layers; do
        "$PR_BIN" table -q --input "$in" --kind "$k" -w 200 >> "$o.txt" \
            2> /dev/null
    done
    bad=$(grep -n -E "$WORDS" "$o.txt" | head -5)
    if [ -z "$bad" ]; then
        ok "$name: no GPU, CUDA or NCCL vocabulary"
    else
        not_ok "$name: no GPU, CUDA or NCCL vocabulary"
        echo "$bad" | sed 's/^/# /'
    fi
done

echo "1..$T_N"
