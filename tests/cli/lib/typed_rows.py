"""typed_rows.py SRCDIR FILE [--subset] PATH... - issue #34's typed tables
in a summary: each table at PATH (schema.def's path, such as
"runs[].communication.ops[]") has rows, and each row's keys come in
schema.def's row order (keys.h gives the constants' words), all of them,
or with --subset (an object with a PR_ROWS_ABSENT mask) some of them.
Prints what is wrong; exit 1 then."""
import json
import re
import sys

src, f = sys.argv[1], sys.argv[2]
subset = "--subset" in sys.argv[3:]
words = dict(re.findall(r'#define (PR_K_\w+)\s+(?:\\\s*)?"([^"]*)"',
                        open(src + "/include/profreport/keys.h").read()))
schema = open(src + "/src/summary/schema.def").read()
paths = dict(re.findall(r'PR_SCHEMA_OBJECT\((\w+), \w+, "([^"]*)"', schema))
order = {}
for obj, key in re.findall(r'PR_SCHEMA_KEY\((\w+), (PR_K_\w+),', schema):
    order.setdefault(paths.get(obj), []).append(words.get(key))
doc = json.load(open(f), object_pairs_hook=lambda p: p)


def walk(v, parts):
    if not parts:
        yield v
        return
    k, arr = parts[0][:-2] if parts[0].endswith("[]") else parts[0], \
        parts[0].endswith("[]")
    c = dict(v).get(k) if isinstance(v, list) else None
    if c is None:
        return
    for e in (c if arr else [c]):
        yield from walk(e, parts[1:])


bad = 0
for path in [a for a in sys.argv[3:] if a != "--subset"]:
    rows = list(walk(doc, path.split(".")))
    if not rows:
        print(path, "has no rows")
        bad = 1
    for r in rows:
        keys = [k for k, _ in r]
        want = [k for k in order[path] if k in keys]
        if keys != want or (not subset and len(keys) != len(order[path])):
            print(path, keys, "!=", order[path])
            bad = 1
sys.exit(bad)
