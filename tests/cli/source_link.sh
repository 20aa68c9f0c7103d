#!/bin/sh
# source_link.sh - --source-link (issue #16): source locations in the HTML
# report link to the file at its line, by default as file:// (absolute
# paths only) or through an editor URL template; a hostile path can
# neither end the attribute nor add markup; templates that run code or
# lack {path} are usage errors.  The summary comes from examples/resnet_like
# with its source paths rewritten.
. "$PR_SRCDIR/tests/lib.sh"

IN=$PR_SRCDIR/examples/resnet_like.pt.trace.json.gz
if [ ! -f "$IN" ] || ! command -v python3 > /dev/null 2>&1; then
    skip "source links" "no example trace or no python3"
    echo "1..$T_N"
    exit 0
fi
"$PR_BIN" -q --input "$IN" --json "$T_DIR/s.json"
python3 - "$T_DIR/s.json" "$T_DIR/abs.json" << 'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
rows = s['runs'][0]['sources']
rows[0]['file'] = '/home/me/my proj/model.py'
rows[1]['file'] = '/tmp/"><script>alert(1)</script>?x=1#y.py'
rows[2]['file'] = 'relative/train.py'
json.dump(s, open(sys.argv[2], 'w'))
EOF
R() { "$PR_BIN" -q --input "$T_DIR/abs.json" "$@"; }

R --html "$T_DIR/def.html"
check "default: exits 0" [ $? -eq 0 ]
check "default: an absolute path links as file:// with its spaces encoded" \
    grep -q 'href="file:///home/me/my%20proj/model.py"' "$T_DIR/def.html"
check "default: a relative path gets no file:// link" \
    sh -c '! grep -q "href=\"file://relative" "$1"' - "$T_DIR/def.html"
check "a hostile path is percent-encoded, no markup gets out" \
    grep -q 'href="file:///tmp/%22%3E%3Cscript%3Ealert%281%29%3C/script%3E%3Fx%3D1%23y.py"' \
    "$T_DIR/def.html"
check "  and no <script> from the trace" \
    sh -c '! grep -q "<script>alert" "$1"' - "$T_DIR/def.html"

R --html "$T_DIR/vs.html" --source-link 'vscode://file/{path}:{line}'
check "vscode template: exits 0" [ $? -eq 0 ]
line=$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['runs'][0]['sources'][0]['line'])" "$T_DIR/abs.json")
check "vscode template: path and line filled in" \
    grep -q "href=\"vscode://file//home/me/my%20proj/model.py:$line\"" \
    "$T_DIR/vs.html"
check "vscode template: a relative path links too" \
    grep -q 'href="vscode://file/relative/train.py:' "$T_DIR/vs.html"
R --html "$T_DIR/amp.html" --source-link 'https://example.org/src?f={path}&l={line}'
check "a template's & is escaped in the attribute" \
    grep -q 'href="https://example.org/src?f=/home/me/my%20proj/model.py&amp;l=' \
    "$T_DIR/amp.html"

for bad in 'javascript:alert({path})' 'JavaScript:x({path})' \
    'data:text/html,{path}' 'vscode://file/' 'no-scheme/{path}' \
    'vscode://file/{path} x'; do
    R --html "$T_DIR/bad.html" --source-link "$bad" 2> "$T_DIR/err"
    rc=$?
    check "--source-link '$bad' is a usage error (got $rc)" [ "$rc" -eq 1 ]
    check "  names --source-link" grep -q -- "--source-link" "$T_DIR/err"
done
check "no report was written for a bad template" [ ! -e "$T_DIR/bad.html" ]
"$PR_BIN" --help > "$T_DIR/help"
check "--help documents --source-link" grep -q -- "--source-link TEMPLATE" \
    "$T_DIR/help"
check "the man page documents --source-link" \
    grep -q 'source\\-link' "$PR_SRCDIR/docs/profreport.1"
check "the README documents --source-link" grep -q -- "--source-link" \
    "$PR_SRCDIR/README.md"

echo "1..$T_N"
