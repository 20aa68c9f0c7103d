#!/bin/sh
# silent.sh - options and inputs that used to be ignored or taken silently
# (issue #15, "Wrong or silent"): each one is now used, warned about, or a
# usage error.
. "$PR_SRCDIR/tests/lib.sh"

"$PR_GEN" --steps 3 -o "$T_DIR/t.pt.trace.json" 2> /dev/null
TR=$T_DIR/t.pt.trace.json

# --- --device-spec is used for the peaks, and must be a device spec
printf '{"peak_tflops": {"fp32": 12.5, "tf32_tensor": 50}, "peak_gbps": 4321}' \
    > "$T_DIR/spec.json"
"$PR_BIN" --input "$TR" --device-spec "$T_DIR/spec.json" \
    --json "$T_DIR/s.json" 2> "$T_DIR/err"
check "--device-spec FILE: exit 0 ($(cat "$T_DIR/err"))" [ $? -eq 0 ]
check "  its peak_gbps reaches the summary" \
    grep -q '"peak_gbps":[[:space:]]*4321' "$T_DIR/s.json"
check "  with peak_source cli" grep -q '"peak_source":[[:space:]]*"cli"' "$T_DIR/s.json"
check "  and no warning that it did nothing" \
    sh -c '! grep -q "device-spec" "$1"' _ "$T_DIR/err"
# --- a spec that matches no device, or one without peaks, is warned
# (issue #32: it was silently ignored), naming the devices seen
printf '{"devices":[{"match":["Z9000"],"peak_tflops":{"fp32":1}}]}' \
    > "$T_DIR/nomatch.json"
"$PR_BIN" --input "$TR" --device-spec "$T_DIR/nomatch.json" \
    --json "$T_DIR/s2.json" 2> "$T_DIR/err"
check "--device-spec matching no device: warned with the devices seen" \
    grep -q 'no entry matched a device of the traces (devices: "NVIDIA A100' \
    "$T_DIR/err"
printf '{"devices":[{"match":["A100"]}]}' > "$T_DIR/nopeak.json"
"$PR_BIN" --input "$TR" --device-spec "$T_DIR/nopeak.json" \
    --json "$T_DIR/s3.json" 2> "$T_DIR/err"
check "--device-spec whose matching entry has no peak: warned" \
    grep -q 'the entry that matched carries no peak' "$T_DIR/err"
"$PR_BIN" -q --input "$TR" --device-spec "$T_DIR/nomatch.json" \
    --json "$T_DIR/s4.json" 2> "$T_DIR/err"
check "  -q silences the warning" [ ! -s "$T_DIR/err" ]
for f in /etc/passwd "$T_DIR/s.json" "$T_DIR/nonexistent.json" "$T_DIR"; do
    "$PR_BIN" -q --input "$TR" --device-spec "$f" --json "$T_DIR/o.json" \
        2> "$T_DIR/err"
    rc=$?
    check "--device-spec $(basename "$f"): exit 2 naming it (got $rc: $(cat "$T_DIR/err"))" \
        sh -c "[ $rc -eq 2 ] && grep -q -F '$f' '$T_DIR/err'"
    check "  and writes nothing" [ ! -e "$T_DIR/o.json" ]
done

# --- a --fail-on gate that matches nothing: warned, skipped; --strict
# makes it a usage error (issue #32: never a regression, never a pass)
D=$PR_SRCDIR/tests/data/diff
"$PR_BIN" diff -b "$D/base.json" -i "$D/slow.json" --no-default-gate \
    --fail-on 'op:aten::nonexistent>+1%' --fail-on 'step.mean>+50%' \
    --junit "$T_DIR/g.xml" --markdown "$T_DIR/g.md" --html "$T_DIR/g.html" \
    --json "$T_DIR/g.json" 2> "$T_DIR/err"
rc=$?
check "a gate that matches nothing: exit 0 (got $rc)" [ "$rc" -eq 0 ]
check "  warns on stderr, naming the rule" \
    grep -q "warning: --fail-on 'op:aten::nonexistent>+1%' matches no figure" "$T_DIR/err"
check "  is <skipped/> in JUnit, counted in skipped=" sh -c \
    "grep -q '<skipped message=' '$T_DIR/g.xml' && grep -q 'skipped=\"1\"' '$T_DIR/g.xml'"
check "  and only that one" [ "$(grep -c '<skipped' "$T_DIR/g.xml")" -eq 1 ]
check "  is 'skipped' in Markdown" grep -q '^| skipped | `op:aten::nonexistent' "$T_DIR/g.md"
check "  and in HTML" grep -q 'class="verdict-cell skip" data-v="skipped">skipped</td>' "$T_DIR/g.html"
check "  the JSON says result skipped, matched false" python3 -c "
import json, sys
g = json.load(open(sys.argv[1]))['gates'][0]
sys.exit(not (g['result'] == 'skipped' and g['matched'] is False))" "$T_DIR/g.json"
rm -f "$T_DIR/g.xml"
"$PR_BIN" diff -q --strict -b "$D/base.json" -i "$D/slow.json" \
    --fail-on 'op:aten::nonexistent>+1%' --junit "$T_DIR/g.xml" 2> "$T_DIR/err"
rc=$?
check "--strict: a gate that matches nothing is a usage error (exit 1, got $rc)" [ "$rc" -eq 1 ]
check "  naming the rule" grep -q "'op:aten::nonexistent>+1%' matches no figure" "$T_DIR/err"
check "  and writes no report" [ ! -e "$T_DIR/g.xml" ]
"$PR_BIN" diff -q --strict -b "$D/base.json" -i "$D/slow.json" \
    --no-default-gate --fail-on 'op:aten::mm>+90%' 2> "$T_DIR/err"
check "--strict: a gate that matches and passes still passes" [ $? -eq 0 ]

# --- diff says when a run vanished: stderr, Markdown, HTML, PDF
python3 -c "
import json, sys
d = json.load(open(sys.argv[1])); d['runs'] = d['runs'][:1]
json.dump(d, open(sys.argv[2], 'w'))" "$D/ranks_cur.json" "$T_DIR/one_rank.json"
"$PR_BIN" diff -b "$D/ranks_base.json" -i "$T_DIR/one_rank.json" \
    --markdown "$T_DIR/v.md" --html "$T_DIR/v.html" --pdf "$T_DIR/v.pdf" \
    2> "$T_DIR/err"
check "a vanished run is named on stderr" \
    grep -q "warning: run 'worker1' of the baseline vanished" "$T_DIR/err"
check "  in Markdown" grep -q 'baseline run `worker1` vanished' "$T_DIR/v.md"
check "  in HTML, as a warning" sh -c "grep -q '<li class=\"rec warning\"><span class=\"badge\">warning</span><p>Baseline run worker1 vanished' '$T_DIR/v.html'"
have_pdftotext() { command -v pdftotext > /dev/null 2>&1; }
if have_pdftotext; then
    pdftotext -f 1 -l 1 "$T_DIR/v.pdf" "$T_DIR/v1.txt"
    check "  in the PDF, on its first page" \
        grep -q 'Baseline run worker1 vanished' "$T_DIR/v1.txt"
else
    skip "  in the PDF, on its first page" "no pdftotext"
fi
"$PR_BIN" diff -b "$T_DIR/one_rank.json" -i "$D/ranks_base.json" \
    --markdown "$T_DIR/v.md" --pdf "$T_DIR/n.pdf" 2> "$T_DIR/err"
check "a new run is named on stderr and in Markdown" sh -c \
    "grep -q \"run 'worker1' is new\" '$T_DIR/err' && grep -q 'current run \`worker1\` is new' '$T_DIR/v.md'"
if have_pdftotext; then
    pdftotext "$T_DIR/n.pdf" "$T_DIR/n.txt"
    check "  and in the PDF" grep -q 'Current run worker1 is new' \
        "$T_DIR/n.txt"
else
    skip "  and in the PDF" "no pdftotext"
fi

echo "1..$T_N"
