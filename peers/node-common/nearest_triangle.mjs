// The scene triangle nearest a point, for an engine whose sweep reports where it hit but not which
// triangle (Rapier's castShape): the triangle holding the hit's witness point is the nearest one.

/** The index of the triangle of (flat vertex array `v`, flat index array `t`) nearest point p. */
export function nearestTriangle(v, t, p) {
  let best = -1, bestD = Infinity;
  for (let i = 0; i < t.length / 3; i++) {
    const d = pointTriangleDistanceSq(p, v, t[3 * i], t[3 * i + 1], t[3 * i + 2]);
    if (d < bestD) { bestD = d; best = i; }
  }
  return best;
}

/** Squared distance from point p to triangle (a, b, c) of a flat vertex array (Ericson's method). */
export function pointTriangleDistanceSq(p, v, ia, ib, ic) {
  const a = [v[3 * ia], v[3 * ia + 1], v[3 * ia + 2]];
  const b = [v[3 * ib], v[3 * ib + 1], v[3 * ib + 2]];
  const c = [v[3 * ic], v[3 * ic + 1], v[3 * ic + 2]];
  const sub = (x, y) => [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
  const dot = (x, y) => x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
  const at = (o, d, t) => [o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2]];
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  let q;
  if (d1 <= 0 && d2 <= 0) q = a;
  else {
    const bp = sub(p, b), d3 = dot(ab, bp), d4 = dot(ac, bp);
    const cp = sub(p, c), d5 = dot(ab, cp), d6 = dot(ac, cp);
    const vc = d1 * d4 - d3 * d2, vb = d5 * d2 - d1 * d6, va = d3 * d6 - d5 * d4;
    if (d3 >= 0 && d4 <= d3) q = b;
    else if (vc <= 0 && d1 >= 0 && d3 <= 0) q = at(a, ab, d1 / (d1 - d3));
    else if (d6 >= 0 && d5 <= d6) q = c;
    else if (vb <= 0 && d2 >= 0 && d6 <= 0) q = at(a, ac, d2 / (d2 - d6));
    else if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) q = at(b, sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6)));
    else {
      const denom = va + vb + vc;
      if (!(denom !== 0)) q = a; // degenerate triangle: its first corner stands in
      else q = at(at(a, ab, vb / denom), ac, vc / denom);
    }
  }
  const d = sub(p, q);
  return dot(d, d);
}
