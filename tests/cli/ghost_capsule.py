#!/usr/bin/env python3
"""A capsule implementation for the capsule search test (capsule_search.sh), as an exec client.

The "ghost" moves the whole displacement and gravity of every frame, ignoring the mesh, so its
capsule sinks into or passes through whatever is in the way: every search for a penetration
finds one. It answers only capsule queries (a sphere gets {"error": ...}), in double, with one
tolerance, "skin", which it does not use (eps-sweep needs one to sweep). When GHOST_LOG names a
file, every request line is appended to it, so the test can see what the requests carried.
Standard library only; the protocol is docs/judge.md's.
"""
import json
import os
import sys


def number(x):
    """A hexfloat or decimal string, or a JSON number."""
    if isinstance(x, str) and "x" in x.lower():
        return float.fromhex(x)
    return float(x)


def answer(request):
    if request.get("describe"):
        return {"format": "slidecheck-exec 1", "implementation": "ghost_capsule", "precisions": ["double"],
                "tolerances": {"skin": 0.0}}
    query = request["query"]
    if "capsule" not in query:
        return {"error": "the ghost moves capsules only"}
    position = [number(x) for x in query["start"]]
    move = [number(x) for x in query["displacement"]]
    gravity = [number(x) for x in query.get("gravity", [0, 0, 0])]
    positions = [position]
    for _ in range(query.get("frames", 1)):
        position = [p + m for p, m in zip(position, move)]
        positions.append(position)
        if any(gravity):
            position = [p + g for p, g in zip(position, gravity)]
            positions.append(position)
    return {"query_id": query["id"], "positions": [[float.hex(c) for c in p] for p in positions]}


def main():
    log = os.environ.get("GHOST_LOG")
    for line in sys.stdin:
        if log:
            with open(log, "a", encoding="utf-8") as f:
                f.write(line if line.endswith("\n") else line + "\n")
        try:
            reply = answer(json.loads(line))
        except Exception as e:  # a bad request is answered, not fatal
            reply = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
