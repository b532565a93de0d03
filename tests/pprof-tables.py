#!/usr/bin/env python3
"""pprof-tables: sift-top's tables rebuilt from a pprof profile decoded by `protoc --decode`.

Usage: pprof-tables.py DECODED.txt OUTDIR
Reads protoc's text form of a perftools.profiles.Profile (nothing of sift's), writes
OUTDIR/{function,thread,process,category}.tsv as "key<TAB>self<TAB>total" lines sorted
bytewise, the way `sift-top --by KEY --top 0 --format tsv` counts them, and prints the
sample types, the period and the sample total. Exit 1 when the text does not parse."""
import codecs
import os
import sys


def unquote(text):
    # protoc writes strings C-escaped (octal for bytes past ASCII).
    return codecs.escape_decode(text[1:-1].encode("latin-1"))[0].decode("utf-8")


def parse(lines):
    """protoc's text format into nested dicts of lists."""
    root = {}
    stack = [root]
    for raw in lines:
        line = raw.strip()
        if not line:
            continue
        if line == "}":
            stack.pop()
            continue
        if line.endswith("{"):
            child = {}
            stack[-1].setdefault(line[:-1].strip(), []).append(child)
            stack.append(child)
            continue
        name, _, value = line.partition(": ")
        if value.startswith('"'):
            value = unquote(value)
        elif value in ("true", "false"):  # a mapping's has_functions and the like
            value = value == "true"
        else:
            value = int(value)
        stack[-1].setdefault(name, []).append(value)
    if len(stack) != 1:
        sys.exit("pprof-tables: unbalanced braces")
    return root


def one(msg, name, default=0):
    return msg.get(name, [default])[0]


def main():
    with open(sys.argv[1], encoding="ascii") as f:
        prof = parse(f)
    strings = prof.get("string_table", [])
    funcs = {}
    for fn in prof.get("function", []):
        name, file = strings[one(fn, "name")], strings[one(fn, "filename")]
        # sift's function key: NAME (FILE), or the whole frame when it has no file.
        funcs[one(fn, "id")] = "%s (%s)" % (name, file) if file else name
    loc_func = {}
    for loc in prof.get("location", []):
        loc_func[one(loc, "id")] = funcs[one(one(loc, "line", {}), "function_id")]
    types = ["%s/%s" % (strings[one(t, "type")], strings[one(t, "unit")])
             for t in prof.get("sample_type", [])]
    period = prof.get("period_type", [{}])[0]
    tables = {k: {} for k in ("function", "thread", "process", "category")}

    def count(key, table, selfkey, totals, n):
        t = tables[table]
        for k in totals:
            row = t.setdefault(k, [0, 0])
            row[1] += n
        if selfkey is not None:
            t.setdefault(selfkey, [0, 0])[0] += n

    total = 0
    cpu = 0
    for s in prof.get("sample", []):
        values = s.get("value", [])
        n = values[0]
        total += n
        cpu += values[1] if len(values) > 1 else 0
        # leaf first; sift's [tag] pseudo-frames are locations in pprof but no functions
        fns = [f for f in (loc_func[i] for i in s.get("location_id", []))
               if not (f.startswith("[") and f.endswith("]"))]
        count(None, "function", fns[0] if fns else "(no function)", set(fns) or {"(no function)"}, n)
        labels = {}
        for label in s.get("label", []):
            labels.setdefault(strings[one(label, "key")], []).append(strings[one(label, "str")])
        for key in ("thread", "process", "category"):
            vals = labels.get(key) or ["(no %s)" % key]
            # labels are in stack order, root first: the leaf-most one is the self key
            count(None, key, vals[-1], set(vals), n)
    for key, t in tables.items():
        if key == "process":
            # one process label a sample, the innermost: its self; a parent that holds only
            # its children's samples has none
            rows = sorted(("%s\t%d\n" % (k, v[0])).encode() for k, v in t.items() if v[0])
        else:
            rows = sorted(("%s\t%d\t%d\n" % (k, v[0], v[1])).encode() for k, v in t.items())
        with open(os.path.join(sys.argv[2], key + ".tsv"), "wb") as f:
            f.writelines(rows)
    print("sample types: %s" % " ".join(types))
    if period:
        print("period: %d %s/%s" % (one(prof, "period"), strings[one(period, "type")],
                                    strings[one(period, "unit")]))
    print("samples: %d  cpu nanoseconds: %d" % (total, cpu))


if __name__ == "__main__":
    main()
