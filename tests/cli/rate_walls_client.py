#!/usr/bin/env python3
"""The naive example controller (examples/naive_python/naive_slide.py) as the CI gate's test
subject. With --skip-walls it leaves out a check a controller needs: triangles steeper than 45
degrees (walls) are not collided with, a change that makes the controller worse on purpose, as a
careless edit would. Without it, it is the example unchanged.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "examples", "naive_python"))
import naive_slide  # noqa: E402

if "--skip-walls" in sys.argv[1:]:
    first_hit = naive_slide.first_hit

    def floors_only(start, move, radius, triangles):
        kept = []
        for tri in triangles:
            n = naive_slide.cross(naive_slide.sub(tri[1], tri[0]), naive_slide.sub(tri[2], tri[0]))
            if n[2] * n[2] * 2 >= naive_slide.dot(n, n):  # within 45 degrees of vertical
                kept.append(tri)
        return first_hit(start, move, radius, kept)

    naive_slide.first_hit = floors_only

naive_slide.main()
