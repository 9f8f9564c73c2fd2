#!/usr/bin/env python3
"""A deliberately naive collide-and-slide, as an exec-protocol client of slidecheck.

It checks the sphere against each triangle's plane inside the triangle only (no edges, no
vertices), stops a tiny distance short of the contact and slides along the plane, in double
precision. Moving across an edge or a corner therefore lets the sphere sink into the mesh:
`slidecheck search --implementation exec:'python3 naive_slide.py'` finds such a penetration and
shrinks it to one or two triangles. Standard library only.

Protocol (docs/judge.md): one JSON request per line on stdin, one JSON answer per line on stdout.
"""
import json
import math
import sys

CLOSE = 1e-7  # how far short of a contact the sphere stops


def read_scene(path):
    """The vertices and triangles of a slidecheck .scene file (docs/formats.md)."""
    vertices, triangles = [], []
    with open(path, encoding="utf-8") as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if words[:1] == ["v"]:
                vertices.append([number(w) for w in words[1:4]])
            elif words[:1] == ["t"]:
                triangles.append([vertices[int(i)] for i in words[1:4]])
    return triangles


def number(x):
    """A hexfloat or decimal string, or a JSON number."""
    if isinstance(x, str) and "x" in x.lower():
        return float.fromhex(x)
    return float(x)


def sub(a, b): return [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
def add(a, b): return [a[0] + b[0], a[1] + b[1], a[2] + b[2]]
def mul(a, s): return [a[0] * s, a[1] * s, a[2] * s]
def dot(a, b): return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
def cross(a, b): return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]


def inside(p, tri, n):
    """p (on the triangle's plane) lies inside the triangle: same side of all three edges."""
    return all(dot(cross(sub(tri[(i + 1) % 3], tri[i]), sub(p, tri[i])), n) >= 0 for i in range(3))


def first_hit(start, move, radius, triangles):
    """The earliest time in [0, 1] at which the sphere touches a triangle's face, and its unit normal."""
    best = None
    for tri in triangles:
        n = cross(sub(tri[1], tri[0]), sub(tri[2], tri[0]))
        length = math.sqrt(dot(n, n))
        if length == 0:
            continue
        n = mul(n, 1 / length)
        speed = dot(n, move)
        if speed >= 0:
            continue  # moving away from the front face, or along it
        distance = dot(n, sub(start, tri[0])) - radius
        t = distance / -speed
        if t < 0 or t > 1 or (best and t >= best[0]):
            continue
        if inside(sub(add(start, mul(move, t)), mul(n, radius)), tri, n):
            best = (t, n)
    return best


def slide(start, move, radius, triangles):
    """Moves the sphere by `move`, sliding along what it hits, at most five times."""
    position = start
    for _ in range(5):
        hit = first_hit(position, move, radius, triangles)
        if hit is None:
            return add(position, move)
        t, n = hit
        length = math.sqrt(dot(move, move))
        back = CLOSE / length if length > 0 else 0
        position = add(position, mul(move, max(t - back, 0)))
        rest = mul(move, 1 - t)
        move = sub(rest, mul(n, dot(rest, n)))
    return position


def answer(request, scenes):
    if request.get("describe"):
        return {"format": "slidecheck-exec 1", "implementation": "naive_python", "precisions": ["double"],
                "tolerances": {"close": CLOSE}}
    query = request["query"]
    if "radius" not in query:
        return {"error": "only spheres"}
    path = request["scene"]
    if path not in scenes:
        scenes[path] = read_scene(path)
    triangles = scenes[path]
    position = [number(x) for x in query["start"]]
    move = [number(x) for x in query["displacement"]]
    gravity = [number(x) for x in query.get("gravity", [0, 0, 0])]
    radius = number(query["radius"])
    positions = [position]
    for _ in range(query.get("frames", 1)):
        position = slide(position, move, radius, triangles)
        positions.append(position)
        if any(gravity):
            position = slide(position, gravity, radius, triangles)
            positions.append(position)
    return {"query_id": query["id"], "positions": [[float.hex(c) for c in p] for p in positions]}


def main():
    global CLOSE
    scenes = {}
    for line in sys.stdin:
        try:
            request = json.loads(line)
            CLOSE = number(request.get("tolerances", {}).get("close", 1e-7))
            reply = answer(request, scenes)
        except Exception as e:  # a bad request is answered, not fatal
            reply = {"error": f"{type(e).__name__}: {e}"}
        print(json.dumps(reply), flush=True)


if __name__ == "__main__":
    main()
