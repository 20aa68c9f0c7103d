#!/bin/sh
# quality_count.sh - review22g item 13: a data-quality note's count 0 is
# the summary's sentinel for "about the whole input" (summary-json.md), so
# the HTML and PDF Data quality tables say "whole input", never "0" (which
# reads as "seen 0 times"); a counted note keeps its number.  basic.sql, a
# hand-made 2-GPU Nsight Systems export: pid 100's no_memory (count 0) and
# no_shapes (count 1).
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 >/dev/null 2>&1 ||
   ! python3 -c 'import sqlite3' 2>/dev/null; then
    skip "data quality counts" "python3 with its sqlite3 module is needed"
    echo "1..$T_N"
    exit 0
fi
python3 - "$PR_SRCDIR/tests/data/nsys/basic.sql" "$T_DIR/basic.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[2])
db.executescript(open(sys.argv[1]).read())
db.commit()
PY
if ! "$PR_BIN" --quiet --input "$T_DIR/basic.sqlite" --json "$T_DIR/s.json" \
        --html "$T_DIR/r.html" --pdf "$T_DIR/r.pdf" 2> "$T_DIR/err"; then
    not_ok "basic.sqlite: $(head -c 200 "$T_DIR/err")"
    echo "1..$T_N"
    exit 0
fi
# the summary keeps its sentinel
if python3 - "$T_DIR/s.json" <<'PY'
import json, sys
d = {x["kind"]: x["count"] for x in json.load(open(sys.argv[1]))["runs"][0]["diagnostics"]}
sys.exit(0 if d.get("no_memory") == 0 and d.get("no_shapes") == 1 else 1)
PY
then ok "summary: no_memory count 0, no_shapes count 1"
else not_ok "summary: counts changed"; fi

# HTML: the cell before the kind
row() { tr -d '\n' < "$T_DIR/r.html" | grep -o "<td[^>]*>[^<]*</td><td data-v=\"$1\">" | head -1; }
case $(row no_memory) in
*'>whole input</td>'*) ok "HTML: no_memory's count reads whole input" ;;
*) not_ok "HTML: no_memory row: $(row no_memory)" ;;
esac
case $(row no_shapes) in
*'>1</td>'*) ok "HTML: no_shapes keeps its count 1" ;;
*) not_ok "HTML: no_shapes row: $(row no_shapes)" ;;
esac

if command -v pdftotext >/dev/null 2>&1; then
    pdftotext -layout "$T_DIR/r.pdf" "$T_DIR/r.txt"
    if grep -q "whole input *no_memory" "$T_DIR/r.txt" &&
       ! grep -q "^ *0  *no_memory" "$T_DIR/r.txt"; then
        ok "PDF: no_memory's count reads whole input"
    else
        not_ok "PDF: $(grep no_memory "$T_DIR/r.txt" | head -2)"
    fi
else
    skip "PDF: whole input" "pdftotext is needed"
fi
echo "1..$T_N"
