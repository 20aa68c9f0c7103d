#!/bin/sh
# diff_devices.sh - diff across devices (review 13 #6): two device models
# are a comparability warning that marks the verdict (a CI gate tripped by
# an A100 baseline against a V100 run says so), not a note beside it; one
# device a side with two ids is paired, its figures are labelled by the
# metric alone and a note names the pair (not "GPU 3" over GPU 1's
# figures); the same device on both sides says neither.
. "$PR_SRCDIR/tests/lib.sh"

. "$PR_SRCDIR/tests/data/diff/kineto.sh"

A100="NVIDIA A100-SXM4-80GB"
V100="Tesla V100-SXM2-16GB"
GPU_ID=3 GPU_NAME=$A100 gen "$T_DIR/b.pt.trace.json" "1 2 3 4 5 6" aten::mm \
    ampere_sgemm_128x64_nn
GPU_ID=1 GPU_NAME=$V100 gen "$T_DIR/c.pt.trace.json" "1 2 3 4 5 6" aten::mm \
    ampere_sgemm_128x64_nn
GPU_ID=1 GPU_NAME=$A100 gen "$T_DIR/d.pt.trace.json" "1 2 3 4 5 6" aten::mm \
    ampere_sgemm_128x64_nn
GPU_ID=3 GPU_NAME=$A100 gen "$T_DIR/e.pt.trace.json" "1 2 3 4 5 6" aten::mm \
    ampere_sgemm_128x64_nn

"$PR_BIN" diff "$T_DIR/b.pt.trace.json" "$T_DIR/c.pt.trace.json" \
    --json "$T_DIR/bc.json" > /dev/null 2>&1
"$PR_BIN" diff "$T_DIR/b.pt.trace.json" "$T_DIR/c.pt.trace.json" \
    > "$T_DIR/bc.txt" 2>&1
check "two device models: a comparability warning" \
    python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['comparability']
w = [x for x in c['warnings'] if 'devices differ' in x]
assert len(w) == 1 and 'A100' in w[0] and 'V100' in w[0], c
assert c['comparable'] is False, c
assert not [x for x in c['notes'] if 'devices differ' in x], c
" "$T_DIR/bc.json"
check "  the verdict line is marked" \
    grep -q 'may not be comparable: 1 warning' "$T_DIR/bc.txt"
check "  the pair of ids is named in a note" \
    grep -q 'compare GPU 3 (baseline) with GPU 1 (current)' "$T_DIR/bc.txt"
check "  the device figures are not labelled with the baseline's id alone" \
    sh -c "grep -q '^gpu.utilization ' '$T_DIR/bc.txt' &&
           ! grep -q 'gpu.utilization GPU 3' '$T_DIR/bc.txt'"

# review 14 #1: a CI page shows the JUnit failure alone; a slower V100
# run trips the gate and its failure carries the warning
STEP_US=1600 GPU_ID=1 GPU_NAME=$V100 gen "$T_DIR/s.pt.trace.json" \
    "1 2 3 4 5 6" aten::mm ampere_sgemm_128x64_nn
"$PR_BIN" diff "$T_DIR/b.pt.trace.json" "$T_DIR/s.pt.trace.json" \
    --junit "$T_DIR/s.xml" > /dev/null 2>&1
check "JUnit: the tripped gate's failure names the device change" \
    python3 -c "
import sys, xml.etree.ElementTree as ET
f = ET.parse(sys.argv[1]).getroot().find('.//failure')
assert f is not None, 'no failure'
assert 'may not be comparable' in f.get('message') and 'V100' in f.get('message'), f.get('message')
assert 'Warning: ' in f.text and 'devices differ' in f.text, f.text
" "$T_DIR/s.xml"

"$PR_BIN" diff "$T_DIR/b.pt.trace.json" "$T_DIR/d.pt.trace.json" \
    --json "$T_DIR/bd.json" > /dev/null 2>&1
"$PR_BIN" diff "$T_DIR/b.pt.trace.json" "$T_DIR/d.pt.trace.json" \
    > "$T_DIR/bd.txt" 2>&1
check "one model, two ids: no warning, a note names the pair" \
    python3 -c "
import json, sys
c = json.load(open(sys.argv[1]))['comparability']
assert c['warnings'] == [] and c['comparable'] is True, c
assert [x for x in c['notes'] if 'GPU 3 (baseline) with GPU 1' in x], c
" "$T_DIR/bd.json"

"$PR_BIN" diff "$T_DIR/b.pt.trace.json" "$T_DIR/e.pt.trace.json" \
    --json "$T_DIR/be.json" > /dev/null 2>&1
"$PR_BIN" diff "$T_DIR/b.pt.trace.json" "$T_DIR/e.pt.trace.json" \
    > "$T_DIR/be.txt" 2>&1
check "the same device on both sides: neither warning nor note" \
    python3 -c "
import json, sys
c = json.load(open(sys.argv[1])).get('comparability') or {}
assert not c.get('warnings') and not c.get('notes'), c
" "$T_DIR/be.json"
check "  and its figures keep the device's id" \
    grep -q 'gpu.utilization GPU 3' "$T_DIR/be.txt"
echo "1..$T_N"
