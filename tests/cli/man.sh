#!/bin/sh
# man.sh - the manual page (docs/profreport.1, issue #15): it renders
# without warnings, has the usual sections, names every command and every
# long option that a command's --help lists, and `make install` puts it
# where man finds it.
. "$PR_SRCDIR/tests/lib.sh"

M=$PR_SRCDIR/docs/profreport.1
check "docs/profreport.1 exists" [ -f "$M" ]

if command -v groff > /dev/null 2>&1; then
    groff -man -Tutf8 -ww -z "$M" > /dev/null 2> "$T_DIR/warn"
    check "groff renders it ($(head -c 300 "$T_DIR/warn"))" [ $? -eq 0 ]
    check "  without a warning" [ ! -s "$T_DIR/warn" ]
    groff -man -Tascii -P-cbu "$M" 2> /dev/null > "$T_DIR/man.txt"
else
    skip "groff rendering" "groff not installed"
    sed 's/\\-/-/g' "$M" > "$T_DIR/man.txt"
fi
if command -v man > /dev/null 2>&1; then
    MANWIDTH=80 man --warnings -l "$M" > /dev/null 2> "$T_DIR/warn"
    check "man -l renders it without a warning ($(head -c 300 "$T_DIR/warn"))" \
        [ ! -s "$T_DIR/warn" ]
else
    skip "man -l" "man not installed"
fi

for s in NAME SYNOPSIS DESCRIPTION COMMANDS OPTIONS "EXIT STATUS" \
    ENVIRONMENT FILES EXAMPLES "SEE ALSO"; do
    check "section $s" grep -q "^\.SH $s\$" "$M"
done

# every command of the top-level help, and every long option of each
# command's help, is in the manual
"$PR_BIN" --help > "$T_DIR/help.txt"
for c in $(sed -n '/^Commands:/,/^$/p' "$T_DIR/help.txt" | awk 'NF > 1 {print $1}'); do
    check "the manual describes '$c'" grep -Eq "^ +$c( |\$)" "$T_DIR/man.txt"
done
for c in "" table diff trend record; do
    "$PR_BIN" $c --help > "$T_DIR/h.txt"
    for o in $(grep -oE -- '--[a-z][a-z-]*' "$T_DIR/h.txt" | sort -u); do
        check "the manual has ${c:-report} option $o" \
            grep -q -- "$o" "$T_DIR/man.txt"
    done
done

# make install puts it in man1
if [ -f "$PR_BUILDDIR/Makefile" ] && command -v make > /dev/null 2>&1; then
    make -s -C "$PR_BUILDDIR" install-man DESTDIR="$T_DIR/inst" \
        > "$T_DIR/inst.log" 2>&1
    f=$(find "$T_DIR/inst" -path '*man1/profreport.1' | head -n 1)
    check "make install-man installs man1/profreport.1" [ -n "$f" ]
else
    skip "make install" "no build directory Makefile"
fi

echo "1..$T_N"
