#!/usr/bin/env python3
"""speedscope-schema: validate speedscope JSON files against speedscope's own
file-format-schema.json (testdata/schema/) with the jsonschema package.

Usage: speedscope-schema.py SCHEMA FILE...   Prints one line per file; exit 1 if any fails."""
import json
import sys

import jsonschema


def main():
    with open(sys.argv[1], encoding="utf-8") as f:
        schema = json.load(f)
    validator = jsonschema.Draft7Validator(schema)
    bad = 0
    for path in sys.argv[2:]:
        with open(path, encoding="utf-8") as f:
            doc = json.load(f)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.absolute_path))
        if errors:
            bad = 1
            e = errors[0]
            print("%s: invalid: %s at %s" % (path, e.message, "/".join(map(str, e.absolute_path))))
        else:
            print("%s: valid, %d profiles, %d frames" % (path, len(doc["profiles"]),
                                                         len(doc["shared"]["frames"])))
    sys.exit(bad)


if __name__ == "__main__":
    main()
