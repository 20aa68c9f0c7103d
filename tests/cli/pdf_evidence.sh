#!/bin/sh
# pdf_evidence.sh - review 28a #11: the PDF's "What to fix first" table
# grows a finding's Evidence cell to its last words instead of clipping
# it after seven lines.  Before, ms_cluster4's pipeline-bubble evidence
# (483 characters) ended at "1F1B: a step is about", dropping what makes
# its 54.2 ms a lower bound ("(m + 1)/m").  Here a saved summary's first
# finding gets a 600-character evidence whose last words are checked in
# pdftotext's output.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1 ||
    ! command -v pdftotext > /dev/null 2>&1; then
    skip "PDF evidence cell" "no python3 or pdftotext"
    echo "1..$T_N"
    exit 0
fi
IN=$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz
cd "$T_DIR" || exit 1
"$PR_BIN" -q --input "$IN" --json s.json 2> err
check "the example gives a summary" [ -s s.json ]
python3 - s.json t.json << 'PY'
import json, sys
d = json.load(open(sys.argv[1]))
f = d['runs'][0]['verdict']['findings']
assert f, 'no finding to give evidence to'
words = ' '.join('word%d' % i for i in range(80))
f[0]['evidence'] = (words + ' and the qualifier zebraquagga ends here')[:600]
json.dump(d, open(sys.argv[2], 'w'))
PY
check "a finding's evidence is made 600 characters" [ -s t.json ]
"$PR_BIN" -q --input t.json --pdf t.pdf 2> err
check "the PDF is written (exit 0: $(head -c 200 err))" [ $? -eq 0 ]
pdftotext -layout t.pdf t.txt
check "the evidence's last words are in the PDF" grep -q "zebraquagga ends here" t.txt
check "  and its middle too, none of it elided" sh -c "grep -q 'word45' t.txt && grep -q 'word79' t.txt"
echo "1..$T_N"
