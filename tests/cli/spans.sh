#!/bin/sh
# spans.sh - two profiling spans of one worker (worker0.111 and
# worker0.222) never read alike (issue #15): terminal, CSV and JSON tables
# (kernel-calls included) carry a span column, the brief output, the HTML
# and PDF headings and the diff reports name the span.  The folder is made
# here from examples/resnet_like, under two span names.
. "$PR_SRCDIR/tests/lib.sh"

IN=$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz
if [ ! -f "$IN" ]; then
    skip "spans" "no example trace"
    echo "1..$T_N"
    exit 0
fi
D=$T_DIR/run
mkdir "$D"
cp "$IN" "$D/worker0.111.pt.trace.json.gz"
cp "$IN" "$D/worker0.222.pt.trace.json.gz"
T() { "$PR_BIN" table --input "$D" "$@"; }

for k in operators kernels kernel-calls memory steps; do
    T --kind "$k" -w 200 > "$T_DIR/$k.txt" 2> "$T_DIR/err"
    check "$k: exits 0 ($(head -c 200 "$T_DIR/err"))" [ $? -eq 0 ]
    # one worker: said once above the table, its column left out
    # (review 25u #10); the span column stays, its values differ
    check "$k: the one worker said once, a Span column" \
        sh -c 'grep -q "^Worker worker0 (every row)$" "$1" &&
               grep -q "^Span  " "$1" && ! grep -q "^Worker  " "$1"' \
        - "$T_DIR/$k.txt"
    check "$k: rows of both spans" \
        sh -c 'grep -q "^111  " "$1" && grep -q "^222  " "$1"' \
        - "$T_DIR/$k.txt"
    T --kind "$k" --csv > "$T_DIR/$k.csv"
    check "$k: CSV starts worker,span" \
        sh -c 'head -n 1 "$1" | grep -q "^worker,span,"' - "$T_DIR/$k.csv"
    check "$k: CSV rows of both spans" \
        sh -c 'grep -q "^worker0,111," "$1" && grep -q "^worker0,222," "$1"' \
        - "$T_DIR/$k.csv"
    T --kind "$k" --json-out > "$T_DIR/$k.json"
    check "$k: JSON rows carry their span" \
        sh -c 'grep -q "\"span\":.*\"111\"" "$1" && grep -q "\"span\":.*\"222\"" "$1"' \
        - "$T_DIR/$k.json"
done
# one span of a worker (or two workers) keeps the old shape
"$PR_BIN" table --input "$IN" --kind operators --csv > "$T_DIR/one.csv"
check "one trace: no worker or span column" \
    sh -c '! head -n 1 "$1" | grep -q "span"' - "$T_DIR/one.csv"

"$PR_BIN" --input "$D" > "$T_DIR/brief" 2> /dev/null
check "brief output names each span" \
    sh -c 'grep -q "^worker0 (span 111):" "$1" && grep -q "^worker0 (span 222):" "$1"' \
    - "$T_DIR/brief"

"$PR_BIN" --input "$D" --json "$T_DIR/s.json" --html "$T_DIR/r.html" \
    --pdf "$T_DIR/r.pdf" 2> "$T_DIR/err"
check "report exits 0" [ $? -eq 0 ]
check "HTML run headings name both spans" \
    sh -c 'grep -q "worker0 (span 111)" "$1" && grep -q "worker0 (span 222)" "$1"' \
    - "$T_DIR/r.html"
# a worker of two spans: the Attribution table keeps its Span column
# (hidden where every worker has one span, as attribution.sh checks)
check "HTML Attribution table: a Span column, a row per span" \
    sh -c 'sed -n "/<section id=\"attribution\">/,/<\/section>/p" "$1" |
           grep -q ">Span<" &&
           sed -n "/<section id=\"attribution\">/,/<\/section>/p" "$1" |
           grep -q ">222<"' - "$T_DIR/r.html"
if command -v pdftotext > /dev/null 2>&1; then
    pdftotext "$T_DIR/r.pdf" "$T_DIR/r.txt"
    check "PDF headings name both spans" \
        sh -c 'grep -q "worker0 (span 111)" "$1" && grep -q "worker0 (span 222)" "$1"' \
        - "$T_DIR/r.txt"
    check "PDF title page: a Span column" \
        sh -c 'sed -n "1,/Overview/p" "$1" | grep -q "^Span$"' - "$T_DIR/r.txt"
else
    skip "PDF headings name both spans" "no pdftotext"
    skip "PDF title page: a Span column" "no pdftotext"
fi

"$PR_BIN" diff -b "$T_DIR/s.json" -i "$T_DIR/s.json" \
    --markdown "$T_DIR/d.md" --json "$T_DIR/d.json" > /dev/null 2>&1
check "diff exits 0" [ $? -eq 0 ]
check "diff Markdown: a run heading per span, paired span with span" \
    sh -c 'grep -q "^### Run .worker0 (span 111). vs .worker0 (span 111)." "$1" &&
           grep -q "^### Run .worker0 (span 222). vs .worker0 (span 222)." "$1"' \
    - "$T_DIR/d.md"
check "diff JSON: the pair names its span" \
    grep -q '"baseline":.*"worker0 (span 222)"' "$T_DIR/d.json"

echo "1..$T_N"
