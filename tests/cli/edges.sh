#!/bin/sh
# edges.sh - every #include "profreport/X.h" in src/ and include/profreport/
# follows the allowed-edges matrix of tests/data/edges.txt, and every header
# has exactly one owning folder there.
. "$PR_SRCDIR/tests/lib.sh"
cd "$PR_SRCDIR" || exit 1
matrix=tests/data/edges.txt

# owners: "header folder" lines; allows: "folder folder" lines
owners=$(awk '$1 == "owner" { for (i = 3; i <= NF; i++) print $i, $2 }' "$matrix")
allows=$(awk '$1 == "allow" { for (i = 3; i <= NF; i++) print $2, $i }' "$matrix")

owner_of() { echo "$owners" | awk -v h="$1" '$1 == h { print $2 }'; }

bad=""
for h in include/profreport/*.h; do
    n=$(owner_of "$(basename "$h" .h)" | wc -l)
    [ "$n" -eq 1 ] || bad="$bad $(basename "$h")($n owners)"
done
if [ -z "$bad" ]; then ok "every header has one owner in edges.txt"
else not_ok "headers without exactly one owner:$bad"; fi

# "file folder" for every source and header
files=$(for f in src/*/*.c src/*/*.h src/*/*/*.c src/*/*/*.h; do
            [ -f "$f" ] && echo "$f $(echo "$f" | cut -d/ -f2)"
        done
        echo "src/pipeline.c top"
        for h in include/profreport/*.h; do
            echo "$h $(owner_of "$(basename "$h" .h)")"
        done)

bad=$(echo "$files" | while read -r f dir; do
    [ -n "$dir" ] || continue
    for inc in $(sed -n 's|^#include "profreport/\([a-z_0-9]*\)\.h".*|\1|p' "$f"); do
        to=$(owner_of "$inc")
        [ "$to" = "$dir" ] && continue
        echo "$allows" | grep -qx "$dir $to" || echo "$f->$inc.h($dir->${to:-?})"
    done
done)
if [ -z "$bad" ]; then ok "every include follows the allowed edges"
else not_ok "includes outside tests/data/edges.txt: $(echo $bad)"; fi

# libharu stays behind the render folder's PDF files
bad=$(grep -l '#include <hpdf.h>' src/*/*.c src/*/*.h src/*/*/*.c src/*/*/*.h include/profreport/*.h 2>/dev/null |
      grep -vE '^(src/render/pdf[a-z_]*\.[ch]|include/profreport/pdf_canvas\.h)$' || true)
if [ -z "$bad" ]; then ok "only the PDF renderer includes hpdf.h"
else not_ok "hpdf.h included by: $(echo $bad)"; fi
# pdf_canvas.h carries libharu's types; pdf_doc.h is opaque (issue #10)
bad=$(grep -l '#include "profreport/pdf_canvas.h"' src/*/*.c src/*/*.h src/*/*/*.c src/*/*/*.h include/profreport/*.h 2>/dev/null |
      grep -vE '^src/render/pdf[a-z_]*\.c$' || true)
if [ -z "$bad" ]; then ok "only the PDF renderer includes pdf_canvas.h"
else not_ok "pdf_canvas.h included by: $(echo $bad)"; fi

echo "1..$T_N"
