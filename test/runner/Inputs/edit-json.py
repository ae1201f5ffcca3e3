"""edit-json.py IN OUT EDIT...: writes IN's JSON with the edits to OUT.

An EDIT is KEY.PATH=JSON (set; list indices are numbers, e.g.
entries.0.args.1.shape=[1,8]) or del:KEY.PATH (remove the key or element).
"""
import json
import sys


def walk(root, keys):
    for k in keys:
        root = root[int(k)] if isinstance(root, list) else root[k]
    return root


def main():
    src, dst, edits = sys.argv[1], sys.argv[2], sys.argv[3:]
    with open(src) as f:
        root = json.load(f)
    for edit in edits:
        if edit.startswith("del:"):
            *parent, last = edit[len("del:"):].split(".")
            node = walk(root, parent)
            del node[int(last) if isinstance(node, list) else last]
        else:
            path, value = edit.split("=", 1)
            *parent, last = path.split(".")
            node = walk(root, parent)
            node[int(last) if isinstance(node, list) else last] = json.loads(value)
    with open(dst, "w") as f:
        json.dump(root, f, indent=2)


if __name__ == "__main__":
    main()
