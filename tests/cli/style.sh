#!/bin/sh
# style.sh - the rules of shared/STYLE.md that a machine can check: banned
# functions, the pr_ prefix of every exported symbol and clang-format.  The include edges
# of the data flow are checked by edges.sh against tests/data/edges.txt.
. "$PR_SRCDIR/tests/lib.sh"
cd "$PR_SRCDIR" || exit 1

banned='\b(gets|sprintf|vsprintf|strcpy|strcat|strtok|atoi|atol|localtime|gmtime)[[:space:]]*\('
hits=$(grep -rnE "$banned" src include | grep -vE '^\S+:[0-9]+:\s*(/\*|\*)' || true)
if [ -z "$hits" ]; then ok "no banned functions"; else not_ok "banned functions: $hits"; fi

# a summary key is replaced through pr_sput (cJSON <= 1.7.15 drops the key
# of an item it replaces when copying the key fails)
hits=$(grep -rn 'cJSON_ReplaceItemInObject' src | grep -v '^src/summary/sget.c:' || true)
if [ -z "$hits" ]; then ok "items replaced only through pr_sput"
else not_ok "use pr_sput, not cJSON_ReplaceItemInObject: $hits"; fi

# every public header compiles beside every other (tests/core/test_headers.c)
miss=$(for h in include/profreport/*.h; do
           grep -q "#include \"profreport/$(basename "$h")\"" tests/core/test_headers.c ||
               basename "$h"
       done)
if [ -z "$miss" ]; then ok "tests/core/test_headers.c includes every header"
else not_ok "add to tests/core/test_headers.c: $(echo $miss)"; fi

lib=$PR_BUILDDIR/libprofreport.a
if command -v nm >/dev/null 2>&1 && [ -f "$lib" ]; then
    bad=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF==3 {print $3}' |
          grep -v '^pr_' | grep -v '^__odr_asan' | grep -v '^__asan' |
          sort -u | head -20)
    if [ -z "$bad" ]; then ok "every exported symbol starts with pr_"
    else not_ok "symbols without the pr_ prefix: $(echo $bad)"; fi
else
    skip "symbol prefix" "nm or libprofreport.a missing"
fi

# formatting: clang-format 14 with the repository's .clang-format (CI
# installs it; another version formats differently, so it is a skip)
cf=$(command -v clang-format-14 || command -v clang-format || true)
if [ -n "$cf" ] && "$cf" --version 2>/dev/null | grep -q 'version 14\.'; then
    bad=$(for f in src/*.c src/*/*.c src/*/*.h src/*/*/*.c src/*/*/*.h include/profreport/*.h \
                   tests/*/*.c tests/*/*.h bench/*.c fuzz/*.c fuzz/*.h; do
              [ -f "$f" ] || continue
              case $f in *_builtin.c) continue ;; esac # generated (in-tree builds)
              "$cf" --dry-run --Werror "$f" > /dev/null 2>&1 || echo "$f"
          done)
    if [ -z "$bad" ]; then ok "every C file is clang-format clean"
    else not_ok "not clang-format clean (run clang-format -i): $(echo $bad)"; fi
else
    skip "clang-format" "clang-format 14 not installed"
fi

echo "1..$T_N"
