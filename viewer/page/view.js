// slidecheck view (docs/view.md): draws one case from the JSON in #slidecheck-data with three.js.
//
// Precision: the divergence between a float and an exact run is often 1e-7 of the scene, below
// what WebGL's 32-bit vertices resolve at scene coordinates. So the picture is rebuilt around a
// focus point whenever the zoom changes a lot: every position is taken relative to the focus in
// JavaScript doubles, triangles and path segments are clipped to a box a few hundred view sizes
// wide (so no vertex is far from the focus), and spheres are drawn as the patch of their surface
// near the focus, computed in doubles. Only then are the numbers handed to WebGL as float32.
const view = (window.slidecheckView = { ready: false, errors: [], selectedStep: null });
window.addEventListener('error', (e) => view.errors.push(String(e.message)));

const sources = window.SLIDECHECK_THREE_SOURCES;
const threeUrl = URL.createObjectURL(new Blob([sources.three], { type: 'text/javascript' }));
const THREE = await import(threeUrl);
// OrbitControls imports 'three': point it at the same module instance.
const controlsText = sources.controls.replace(/from\s*['"]three['"]/g, `from '${threeUrl}'`);
const { OrbitControls } = await import(URL.createObjectURL(new Blob([controlsText], { type: 'text/javascript' })));

const data = JSON.parse(document.getElementById('slidecheck-data').textContent);
const info = data.case;
// The body: a sphere or ellipsoid (info.radii, its semi-axes), or a capsule (info.capsule: every
// point within its radius of the segment centre -/+ half_axis). `radius` is the body's reach
// from its centre, for sizes on the page.
const capsule = info.capsule || null;
const radii = capsule ? [capsule.radius, capsule.radius, capsule.radius] : info.radii;
const radius = capsule ? capsule.radius + Math.hypot(...capsule.half_axis) : Math.max(radii[0], radii[1], radii[2]);
const COLORS = { float: 0xe8710a, ideal: 0x1a73e8, plane: 0x188038, bad: 0xd93025, triangle: 0x9aa0a6, edge: 0x5f6368 };

// ---- vectors in doubles ----
const sub = (a, b) => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const add = (a, b) => [a[0] + b[0], a[1] + b[1], a[2] + b[2]];
const mul = (a, s) => [a[0] * s, a[1] * s, a[2] * s];
const dot = (a, b) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
const norm = (a) => Math.sqrt(dot(a, a));
const unit = (a) => { const n = norm(a); return n > 0 ? mul(a, 1 / n) : [0, 0, 1]; };
const finite = (a) => a && a.every(Number.isFinite);

// ---- the header ----
document.getElementById('title').textContent = 'slidecheck view: ' + data.title;
document.title = data.title;
const facts = [
  ['case', info.file], ['classes', info.classes.length ? info.classes.join(', ') : 'none'],
  capsule ? ['capsule', `radius ${capsule.radius}, half axis (${capsule.half_axis.join(', ')})`]
          : ['radius', radii[0] === radii[1] && radii[1] === radii[2] ? String(radii[0]) : radii.join(' x ')],
  ['triangles', String(data.triangles.length)],
  ['first divergent', info.first_divergent ? `step ${info.first_divergent.step} (${info.first_divergent.name} / ${info.first_divergent.decision}, margin ${info.first_divergent.margin_ulps} ulps)` : 'none'],
  ['exact path', data.ideal ? (data.ideal.fully_proven ? 'every decision proven' : `${data.ideal.unproven} decisions unproven`) : (info.ideal_note || 'not computed')],
];
document.getElementById('facts').innerHTML = facts.map(([k, v]) => `<span><b>${k}</b> ${escapeHtml(v)}</span>`).join('');
function escapeHtml(s) { return String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]); }

// ---- the trace table ----
const tbody = document.querySelector('#trace tbody');
const rows = [];
for (const s of data.steps) {
  const tr = document.createElement('tr');
  tr.className = 'step' + (s.first_divergent ? ' divergent' : '') + (s.failures.length ? ' failure' : '');
  tr.dataset.step = s.step;
  const worst = s.values.reduce((m, v) => Math.max(m, Math.abs(v.ulps)), 0);
  const differs = s.decisions.filter((d) => !d.agrees).length;
  let check = '';
  if (s.values.length) check += worst === 0 ? 'exact' : `${worst} ulps`;
  if (differs) check += (check ? ', ' : '') + `<span class="bad">${differs} decision${differs > 1 ? 's' : ''} differ</span>`;
  if (s.failures.length) check += (check ? ', ' : '') + `<span class="bad">${s.failures.map((f) => f.class).join(', ')}</span>`;
  const rest = s.text.slice(s.name.length + 1);
  tr.innerHTML = `<td>${s.first_divergent ? '&gt;&gt; ' : ''}${s.step}</td><td>${passOf(s)}</td><td>${escapeHtml(s.name)}</td>` +
    `<td>${check}</td><td class="text" title="${escapeHtml(s.text)}">${escapeHtml(rest)}</td>`;
  tr.addEventListener('click', () => selectStep(s.step, true));
  tbody.appendChild(tr);
  rows.push(tr);
}
function passOf(s) {
  const m = /pass=(\d+) iteration=(\d+)/.exec(s.text);
  return m ? `${m[1]}/${m[2]}` : '';
}

// ---- three.js ----
const holder = document.getElementById('picture');
const renderer = new THREE.WebGLRenderer({ antialias: true, logarithmicDepthBuffer: true, preserveDrawingBuffer: true });
renderer.setPixelRatio(1);
renderer.setClearColor(0xffffff, 1);
holder.appendChild(renderer.domElement);
const scene = new THREE.Scene();
const camera = new THREE.PerspectiveCamera(40, 1, 1e-3, 1e3);
camera.up.set(0, 0, 1);
const controls = new OrbitControls(camera, renderer.domElement);
controls.enableDamping = false;
scene.add(new THREE.AmbientLight(0xffffff, 1.6));
const sun = new THREE.DirectionalLight(0xffffff, 1.8);
scene.add(sun);
let content = new THREE.Group();
scene.add(content);

// The frame the picture is built in: positions are relative to `origin` (doubles), and only
// what lies within `half` of it is drawn.
const frame = { origin: [0, 0, 0], half: 1, viewSize: 1 };

// Everything the case holds, for the whole-case view.
const allPoints = [];
for (const t of data.triangles) for (const c of t.corners) allPoints.push(c);
for (const p of data.float_path) allPoints.push(p);
if (data.ideal) for (const p of data.ideal.path) allPoints.push(p);
const finitePoints = allPoints.filter(finite);
const lo = [0, 1, 2].map((k) => Math.min(...finitePoints.map((p) => p[k])));
const hi = [0, 1, 2].map((k) => Math.max(...finitePoints.map((p) => p[k])));
// The whole case: the paths and what is near them (huge floors are cut to a few radii around).
const pathPoints = data.float_path.concat(data.ideal ? data.ideal.path : []).filter(finite);
const pathLo = [0, 1, 2].map((k) => Math.min(...pathPoints.map((p) => p[k])) - 3 * radius);
const pathHi = [0, 1, 2].map((k) => Math.max(...pathPoints.map((p) => p[k])) + 3 * radius);
const wholeCenter = mul(add(pathLo, pathHi), 0.5);
const wholeSize = Math.max(norm(sub(pathHi, pathLo)), 1e-300);

/// Sutherland-Hodgman: the polygon (doubles, relative to the frame) clipped to the cube |x| <= h.
function clipPolygon(poly, h) {
  for (let axis = 0; axis < 3; ++axis) {
    for (const sign of [1, -1]) {
      const out = [];
      for (let i = 0; i < poly.length; ++i) {
        const a = poly[i], b = poly[(i + 1) % poly.length];
        const da = h - sign * a[axis], db = h - sign * b[axis];
        if (da >= 0) out.push(a);
        if ((da >= 0) !== (db >= 0)) out.push(add(a, mul(sub(b, a), da / (da - db))));
      }
      poly = out;
      if (poly.length === 0) return poly;
    }
  }
  return poly;
}
function clipSegment(a, b, h) {
  let t0 = 0, t1 = 1;
  const d = sub(b, a);
  for (let axis = 0; axis < 3; ++axis) {
    for (const [p, q] of [[-d[axis], a[axis] + h], [d[axis], h - a[axis]]]) {
      if (p === 0) { if (q < 0) return null; continue; }
      const r = q / p;
      if (p < 0) { if (r > t1) return null; if (r > t0) t0 = r; } else { if (r < t0) return null; if (r < t1) t1 = r; }
    }
  }
  return [add(a, mul(d, t0)), add(a, mul(d, t1))];
}
const rel = (p) => sub(p, frame.origin);

function addTriangles() {
  const positions = [], edges = [], bad = [];
  const badTriangles = new Set();
  for (const s of data.steps) for (const f of s.failures) if (f.triangle !== null) badTriangles.add(f.triangle);
  data.triangles.forEach((t, index) => {
    const poly = clipPolygon(t.corners.map(rel), frame.half);
    if (poly.length < 3) return;
    const target = badTriangles.has(index) ? bad : positions;
    for (let i = 1; i + 1 < poly.length; ++i) target.push(...poly[0], ...poly[i], ...poly[i + 1]);
    for (let i = 0; i < 3; ++i) {
      const seg = clipSegment(rel(t.corners[i]), rel(t.corners[(i + 1) % 3]), frame.half);
      if (seg) edges.push(...seg[0], ...seg[1]);
    }
  });
  for (const [list, color] of [[positions, COLORS.triangle], [bad, 0xf6aea9]]) {
    if (!list.length) continue;
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(list, 3));
    g.computeVertexNormals();
    const m = new THREE.MeshLambertMaterial({ color, side: THREE.DoubleSide, transparent: true, opacity: 0.55, depthWrite: false });
    content.add(new THREE.Mesh(g, m));
  }
  addSegments(edges, COLORS.edge);
}

function addSegments(flat, color, opacity = 1) {
  if (!flat.length) return;
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(flat, 3));
  content.add(new THREE.LineSegments(g, new THREE.LineBasicMaterial({ color, transparent: opacity < 1, opacity })));
}

function addPath(points, color) {
  const flat = [];
  for (let i = 0; i + 1 < points.length; ++i) {
    if (!finite(points[i]) || !finite(points[i + 1])) continue;
    const seg = clipSegment(rel(points[i]), rel(points[i + 1]), frame.half);
    if (seg) flat.push(...seg[0], ...seg[1]);
  }
  addSegments(flat, color);
}

/// The body at centre c: the case's sphere or ellipsoid, or its capsule.
function addBody(c, color, wire) {
  if (!finite(c)) return;
  if (!capsule) return addSphere(c, radii, color, wire);
  const a = sub(c, capsule.half_axis), b = add(c, capsule.half_axis);
  addSphere(a, radii, color, wire);
  addSphere(b, radii, color, wire);
  addCylinder(a, b, capsule.radius, color, wire);
}

/// The part of the sphere (centre c, semi-axes r) near the frame: the whole sphere when it
/// fits, else the patch around the point of its surface closest to the frame's origin.
function addSphere(c, r, color, wire) {
  if (!finite(c)) return;
  const radius = Math.max(r[0], r[1], r[2]);
  const toFocus = rel(c).map((x) => -x);
  const d = norm(toFocus);
  if (d - radius > frame.half * 1.8) return;  // entirely outside the frame
  const axis = d > 0 ? unit(toFocus) : [0, 0, 1];
  const half = Math.min(Math.PI, Math.max(4 * frame.half / radius, 1e-12));
  const tangent = unit(cross(axis, Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
  const bitangent = cross(axis, tangent);
  const n = wire ? 18 : 40, positions = [], index = [];
  for (let i = 0; i <= n; ++i) {
    const theta = half * i / n;
    for (let j = 0; j <= n; ++j) {
      const phi = 2 * Math.PI * j / n;
      // Direction at angle theta from the axis, in doubles; the point relative to the frame.
      const dir = add(mul(axis, Math.cos(theta)), add(mul(tangent, Math.sin(theta) * Math.cos(phi)), mul(bitangent, Math.sin(theta) * Math.sin(phi))));
      const p = add(rel(c), [dir[0] * r[0], dir[1] * r[1], dir[2] * r[2]]);
      positions.push(...p);
    }
  }
  for (let i = 0; i < n; ++i)
    for (let j = 0; j < n; ++j) {
      const a = i * (n + 1) + j, b = a + n + 1;
      index.push(a, b, a + 1, b, b + 1, a + 1);
    }
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
  g.setIndex(index);
  g.computeVertexNormals();
  content.add(new THREE.Mesh(g, bodyMaterial(color, wire)));
}

function bodyMaterial(color, wire) {
  return wire ? new THREE.MeshBasicMaterial({ color, wireframe: true, transparent: true, opacity: 0.35 })
              : new THREE.MeshLambertMaterial({ color, transparent: true, opacity: 0.28, depthWrite: false, side: THREE.DoubleSide });
}

/// A capsule's side: the cylinder of radius r around segment ab, as quads computed in doubles
/// relative to the frame and clipped to it (as triangles are), so that it stays exact when
/// the view is far smaller than the capsule.
function addCylinder(a, b, r, color, wire) {
  const axis = unit(sub(b, a));
  const tangent = unit(cross(axis, Math.abs(axis[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
  const bitangent = cross(axis, tangent);
  const ra = rel(a), rb = rel(b), n = wire ? 18 : 40, flat = [];
  const ring = (j) => add(mul(tangent, r * Math.cos(2 * Math.PI * j / n)), mul(bitangent, r * Math.sin(2 * Math.PI * j / n)));
  for (let j = 0; j < n; ++j) {
    const u = ring(j), v = ring(j + 1);
    const poly = clipPolygon([add(ra, u), add(ra, v), add(rb, v), add(rb, u)], frame.half);
    for (let i = 1; i + 1 < poly.length; ++i) flat.push(...poly[0], ...poly[i], ...poly[i + 1]);
  }
  if (!flat.length) return;
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(flat, 3));
  g.computeVertexNormals();
  content.add(new THREE.Mesh(g, bodyMaterial(color, wire)));
}

/// A capsule's path: besides its centre's, the tracks of its axis's two ends, which bound the
/// volume it swept.
function addAxisTracks(points, color) {
  if (!capsule) return;
  addPath(points.map((p) => sub(p, capsule.half_axis)), color);
  addPath(points.map((p) => add(p, capsule.half_axis)), color);
}

/// A marker that stays a few pixels wide at any zoom: a small octahedron sized to the view.
function addMarker(p, color, size = 0.012) {
  if (!finite(p)) return;
  const r = rel(p);
  if (Math.max(...r.map(Math.abs)) > frame.half) return;
  const mesh = new THREE.Mesh(new THREE.OctahedronGeometry(frame.viewSize * size), new THREE.MeshBasicMaterial({ color }));
  mesh.position.set(...r);
  content.add(mesh);
}

function addPlane(origin, normal, color) {
  const size = Math.min(2 * radius, frame.half);
  const n = unit(normal);
  const t = unit(cross(n, Math.abs(n[0]) < 0.9 ? [1, 0, 0] : [0, 1, 0]));
  const b = cross(n, t);
  const o = rel(origin);
  const corners = [[-1, -1], [1, -1], [1, 1], [-1, 1]].map(([u, v]) => add(o, add(mul(t, u * size), mul(b, v * size))));
  const poly = clipPolygon(corners, frame.half);
  if (poly.length < 3) return;
  const flat = [];
  for (let i = 1; i + 1 < poly.length; ++i) flat.push(...poly[0], ...poly[i], ...poly[i + 1]);
  const g = new THREE.BufferGeometry();
  g.setAttribute('position', new THREE.Float32BufferAttribute(flat, 3));
  content.add(new THREE.Mesh(g, new THREE.MeshBasicMaterial({ color, side: THREE.DoubleSide, transparent: true, opacity: 0.18, depthWrite: false })));
  const seg = clipSegment(o, add(o, mul(n, size * 0.5)), frame.half);
  if (seg) addSegments([...seg[0], ...seg[1]], color);
}

const toggles = {
  float: document.getElementById('show-float'), ideal: document.getElementById('show-ideal'),
  planes: document.getElementById('show-planes'), spheres: document.getElementById('show-spheres'),
};
for (const t of Object.values(toggles)) t.addEventListener('change', () => rebuild());

/// The sphere's centre just before a step (for creases, which have a direction only).
function centreBefore(stepIndex) {
  for (let i = stepIndex; i >= 0; --i) if (data.steps[i].sphere && finite(data.steps[i].sphere)) return data.steps[i].sphere;
  return info.start;
}

function rebuild() {
  scene.remove(content);
  content.traverse((o) => { if (o.geometry) o.geometry.dispose(); if (o.material) o.material.dispose(); });
  content = new THREE.Group();
  scene.add(content);
  addTriangles();
  if (toggles.float.checked) {
    addPath(data.float_path, COLORS.float);
    for (const p of data.float_path) addMarker(p, COLORS.float, 0.006);
    if (toggles.spheres.checked) {
      data.float_path.forEach((p) => addBody(p, COLORS.float, false));
      addAxisTracks(data.float_path, COLORS.float);
    }
  }
  if (data.ideal && toggles.ideal.checked) {
    addPath(data.ideal.path, COLORS.ideal);
    for (const p of data.ideal.path) addMarker(p, COLORS.ideal, 0.006);
    if (toggles.spheres.checked) data.ideal.path.forEach((p) => addBody(p, COLORS.ideal, true));
  }
  if (toggles.planes.checked)
    data.steps.forEach((s, i) => {
      if (s.plane) addPlane(s.plane.origin, s.plane.normal, COLORS.plane);
      if (s.crease) {
        const c = centreBefore(i);
        const seg = clipSegment(rel(add(c, mul(s.crease, -2 * radius))), rel(add(c, mul(s.crease, 2 * radius))), frame.half);
        if (seg) addSegments([...seg[0], ...seg[1]], COLORS.plane);
      }
    });
  const divergent = data.steps.find((s) => s.first_divergent);
  if (divergent) addMarker(stepPoint(divergent), COLORS.bad, 0.02);
  const s = view.selectedStep !== null ? data.steps[view.selectedStep] : null;
  if (s) {
    if (s.sphere) addBody(s.sphere, COLORS.bad, true);
    addMarker(stepPoint(s), COLORS.bad, 0.016);
    for (const pair of s.exact_points) {
      addMarker(pair.float, COLORS.float, 0.012);
      addMarker(pair.exact, COLORS.ideal, 0.012);
      const seg = clipSegment(rel(pair.float), rel(pair.exact), frame.half);
      if (seg) addSegments([...seg[0], ...seg[1]], COLORS.bad);
    }
    if (s.move && s.sphere) addPath([s.sphere, add(s.sphere, s.move)], COLORS.bad);
  }
  render();
}

/// The point of triangle abc closest to p, in doubles (by the Voronoi regions of the
/// triangle's vertices, edges and face; Ericson, Real-Time Collision Detection, 5.1.5).
function closestOnTriangle(p, a, b, c) {
  const ab = sub(b, a), ac = sub(c, a), ap = sub(p, a);
  const d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0 && d2 <= 0) return a;
  const bp = sub(p, b), d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0 && d4 <= d3) return b;
  const vc = d1 * d4 - d3 * d2;
  if (vc <= 0 && d1 >= 0 && d3 <= 0) return add(a, mul(ab, d1 / (d1 - d3)));
  const cp = sub(p, c), d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0 && d5 <= d6) return c;
  const vb = d5 * d2 - d1 * d6;
  if (vb <= 0 && d2 >= 0 && d6 <= 0) return add(a, mul(ac, d2 / (d2 - d6)));
  const va = d3 * d6 - d5 * d4;
  if (va <= 0 && d4 - d3 >= 0 && d5 - d6 >= 0) return add(b, mul(sub(c, b), (d4 - d3) / ((d4 - d3) + (d5 - d6))));
  const denom = 1 / (va + vb + vc);
  return add(a, add(mul(ab, vb * denom), mul(ac, vc * denom)));
}

/// Where a step is: its exact-checked point, its point; for a step about a triangle with the
/// sphere known, where the triangle comes closest to the sphere (the contact that is decided);
/// its sphere; else the centre before it.
function stepPoint(s) {
  if (s.exact_points.length) return s.exact_points[0].float;
  if (s.point && finite(s.point)) return s.point;
  const centre = s.sphere && finite(s.sphere) ? s.sphere : centreBefore(s.step);
  const failed = s.failures.find((f) => f.triangle !== null);
  const triangle = s.triangle !== undefined ? s.triangle : failed ? failed.triangle : undefined;
  if (triangle !== undefined && data.triangles[triangle] && finite(centre)) {
    const [a, b, c] = data.triangles[triangle].corners;
    return closestOnTriangle(centre, a, b, c);
  }
  return centre;
}

/// The size of view that shows a step's divergence: float and exact points a fifth of the view
/// apart, or a few units in the last place of its coordinates when they agree.
function stepScale(s) {
  const p = stepPoint(s);
  const ulp = Math.max(...p.map(Math.abs), radius) * (info.precision === 'float' ? 2 ** -23 : 2 ** -52);
  return Math.max(5 * (s.divergence || 0), 64 * ulp);
}

/// Rebuilds the frame around `target` (doubles) showing a view `size` wide, camera looking from `dir`.
function lookAt(target, size, dir) {
  frame.origin = target.slice();
  frame.viewSize = size;
  frame.half = size * 200;
  const d = unit(dir || sub(cameraWorld(), target));
  const distance = size / (2 * Math.tan((camera.fov * Math.PI) / 360));
  camera.position.set(...mul(d, distance));
  camera.near = distance * 1e-3;
  camera.far = distance * 1e3 + frame.half * 4;
  camera.updateProjectionMatrix();
  controls.target.set(0, 0, 0);
  controls.update();
  sun.position.set(...mul(unit([0.3, -0.5, 1]), distance));
  rebuild();
  document.getElementById('scale').textContent = `view ${size.toExponential(2)} wide`;
}

function cameraWorld() { return add(frame.origin, camera.position.toArray()); }

function selectStep(step, focus) {
  view.selectedStep = step;
  rows.forEach((r) => r.classList.toggle('selected', Number(r.dataset.step) === step));
  const s = data.steps[step];
  let text = `step ${s.step}: ${s.text}\n`;
  for (const v of s.values) text += `  ${v.quantity}: float ${v.float} | exact ${v.exact}  ${v.ulps} ulps\n`;
  for (const d of s.decisions)
    text += `  decision ${d.decision}: float ${d.float} | exact ${d.exact}  ${d.agrees ? 'agrees' : 'DIFFERS'}, margin ${d.margin_ulps} ulps\n`;
  for (const p of s.exact_points) text += `  ${p.quantity}: float and exact ${p.apart.toExponential(3)} apart\n`;
  for (const f of s.failures) text += `  FAILURE ${f.class}${f.triangle !== null ? ' on triangle ' + f.triangle : ''}${f.back_face ? ' (back face)' : ''}: ${f.detail}\n`;
  if (s.first_divergent) text += '  >> the first step where float and exact part ways\n';
  document.getElementById('detail').textContent = text;
  rows[step].scrollIntoView({ block: 'nearest' });
  if (focus) lookAt(stepPoint(s), stepScale(s));
  else rebuild();
}

function showWhole() {
  lookAt(wholeCenter, wholeSize * 1.2, [0.6, -1, 0.7]);
}

document.getElementById('btn-scene').addEventListener('click', showWhole);
document.getElementById('btn-divergence').addEventListener('click', () => {
  if (data.focus_step !== null) selectStep(data.focus_step, true);
});
document.getElementById('btn-divergence').disabled = data.focus_step === null;

// Zooming far in or out with the mouse rebuilds the frame around the controls' target.
controls.addEventListener('end', () => {
  const distance = camera.position.distanceTo(controls.target);
  const size = 2 * distance * Math.tan((camera.fov * Math.PI) / 360);
  if (size < frame.viewSize / 8 || size > frame.viewSize * 8) {
    const target = add(frame.origin, controls.target.toArray());
    const dir = sub(camera.position.toArray(), controls.target.toArray());
    lookAt(target, size, dir);
  }
});
controls.addEventListener('change', render);

function resize() {
  const w = holder.clientWidth, h = holder.clientHeight;
  renderer.setSize(w, h, false);
  renderer.domElement.style.width = '100%';
  renderer.domElement.style.height = '100%';
  camera.aspect = w / Math.max(h, 1);
  camera.updateProjectionMatrix();
  render();
}
function render() { renderer.render(scene, camera); }
window.addEventListener('resize', resize);

// For tests and scripts: where the camera and its target are, in scene coordinates.
view.camera = () => cameraWorld();
view.target = () => add(frame.origin, controls.target.toArray());
view.viewSize = () => frame.viewSize;
view.selectStep = (step) => selectStep(step, true);
view.showWhole = showWhole;

resize();
showWhole();
view.ready = true;
document.body.dataset.ready = 'true';
