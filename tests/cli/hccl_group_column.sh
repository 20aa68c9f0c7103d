#!/bin/sh
# hccl_group_column.sh - issue #30 #7: the report's "HCCL time by
# operation" table shows each operation's communication group, the
# producer's (communication.json's "@<group>", analysis.db's), as
# MindStudio Insight and msprof-analyze split their tables by group.
# Before, a rank's two hcom_allReduce_ rows of groups 111 and 222 read as
# one operation listed twice.  No file of these exports lists a group's
# members, so the column names the group only; the PDF, whose page has
# no room for it, says it is in the HTML report (no `profreport table`
# kind shows this table).  MindSpore's hccl_raw names no group: no column.
. "$PR_SRCDIR/tests/lib.sh"

if ! command -v python3 > /dev/null 2>&1; then
    skip "HCCL group column" "no python3"
    echo "1..$T_N"
    exit 0
fi
D=$PR_SRCDIR/tests/data/ascend/hccl_csv
"$PR_BIN" -q --input "$D" --html "$T_DIR/h.html" --pdf "$T_DIR/h.pdf"
check "hccl_csv: exit 0" [ $? -eq 0 ]
cat > "$T_DIR/t.py" << 'PY'
import html, re, sys
t = html.unescape(re.sub(r"<[^>]+>", " ", open(sys.argv[1]).read()))
t = re.sub(r"\s+", " ", t)
i = t.find("HCCL time by operation")
assert i >= 0, "no HCCL table"
s = t[i:i + 1500]
assert "Rank Operation Tag Kind Group Calls Elapse" in s, s
# the Tag: the digits HCCL puts into the name (hcom_allReduce__2_0: 2)
assert re.search(r"hcom_ allReduce_ 1 collective 111 1 ", s), s
assert re.search(r"hcom_ allReduce_ 2 collective 222 1 ", s), s
PY
check "the HTML table's Group column tells the two allReduces apart" \
    python3 "$T_DIR/t.py" "$T_DIR/h.html"
if command -v pdftotext > /dev/null 2>&1; then
    check "the PDF says the Group column is in the HTML report" \
        sh -c "pdftotext '$T_DIR/h.pdf' - | tr '\n' ' ' |
               grep -q 'by Elapse, all ranks together. Group: in the HTML report\.'"
else
    skip "the PDF's Group note" "no pdftotext"
fi
if have_shared && [ -d "$PR_SHARED/traces/mindspore/extra/cluster_4rank_pipeline" ]; then
    "$PR_BIN" -q --input "$PR_SHARED/traces/mindspore/extra/cluster_4rank_pipeline" \
        --html "$T_DIR/ms.html" 2> /dev/null
    check "MindSpore's hccl_raw table has no Group column" \
        python3 -c "
import html, re, sys
t = html.unescape(re.sub(r'<[^>]+>', ' ', open(sys.argv[1]).read()))
t = re.sub(r'\s+', ' ', t)
i = t.find('HCCL time by operation (MindSpore')
assert i >= 0 and 'Kind Group' not in t[i:i + 2000], t[i:i + 800]
assert 'Operation Tag' not in t[i:i + 2000], t[i:i + 800]
" "$T_DIR/ms.html"
else
    skip "MindSpore hccl_raw table" "no $PR_SHARED/traces"
fi
echo "1..$T_N"
