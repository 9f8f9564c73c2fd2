// Rapier (@dimforge/rapier3d-compat, f32) as a slidecheck-exec peer: KinematicCharacterController
// computeColliderMovement of a ball collider against a trimesh collider of the scene, one call per
// pass; single sweeps are World.castShape of the ball.
import RAPIER from '@dimforge/rapier3d-compat';
import { readScene } from '../node-common/scene.mjs';
import { describeAnswer, passesOf, sweepRecord, upOf } from '../node-common/protocol.mjs';
import { vecToHex } from '../node-common/hexfloat.mjs';

/** Scenes kept built at once (each its own World); least recently used dropped first. */
const SCENE_CACHE_SIZE = 64;

/**
 * The JS API has no default offset (createCharacterController(offset) requires one); 0.01 is the
 * value Rapier's own examples and user guide pass. Rust's default is Relative(0.01) of the shape's
 * height, which the JS binding cannot express.
 */
const DEFAULT_OFFSET = Math.fround(0.01);

export async function createRapierPeer() {
  await RAPIER.init();

  // Engine defaults of the settings that act as tolerances.
  const probeWorld = new RAPIER.World({ x: 0, y: 0, z: 0 });
  const probe = probeWorld.createCharacterController(DEFAULT_OFFSET);
  const defaults = {
    offset: probe.offset(),
    normal_nudge_factor: probe.normalNudgeFactor(),
    // castShape's targetDistance: how close counts as a hit in the single sweeps.
    sweep_target_distance: 0,
  };
  probeWorld.removeCharacterController(probe);
  probeWorld.free();

  const engine = {
    name: 'rapier_kcc',
    description: `Rapier (@dimforge/rapier3d-compat ${RAPIER.version()}, f32)`,
    shortName: 'Rapier',
    precisions: ['float'],
    tolerances: defaults,
  };

  const scenes = new Map(); // path -> { world, mesh, ball, controller, scene }

  function buildScene(path) {
    const scene = readScene(path, { allowDegenerate: true }); // slidecheck has validated it already
    // f32 vertices, triangles in file order, no TriMeshFlags (nothing merged or dropped).
    const vertices = Float32Array.from(scene.vertices);
    const indices = Uint32Array.from(scene.triangles);
    const world = new RAPIER.World({ x: 0, y: 0, z: 0 });
    const mesh = world.createCollider(RAPIER.ColliderDesc.trimesh(vertices, indices));
    const ball = world.createCollider(RAPIER.ColliderDesc.ball(1));
    const controller = world.createCharacterController(DEFAULT_OFFSET);
    controller.setSlideEnabled(true);
    controller.disableAutostep();
    controller.disableSnapToGround();
    // Slope limits are walking policy, not collide-and-slide: a climb limit above pi/2 never
    // makes a wall, a negative slide limit never makes a non-slip slope, so every surface slides.
    controller.setMaxSlopeClimbAngle(Math.PI);
    controller.setMinSlopeSlideAngle(-1);
    // One step builds the broad phase that the scene queries use (nothing moves: no bodies).
    world.step();
    return { world, mesh, ball, controller, scene: { f32: vertices, triangles: indices }, path };
  }

  function sceneFor(path) {
    let s = scenes.get(path);
    if (s) {
      scenes.delete(path);
    } else {
      s = buildScene(path);
      if (scenes.size >= SCENE_CACHE_SIZE) {
        const [oldKey, old] = scenes.entries().next().value;
        scenes.delete(oldKey);
        old.world.free();
      }
    }
    scenes.set(path, s);
    return s;
  }

  const readVec = (v) => [v.x, v.y, v.z];
  const IDENTITY = { x: 0, y: 0, z: 0, w: 1 };

  /** The scene triangle nearest to point p (double arithmetic on the f32 vertices Rapier has). */
  function nearestTriangle(scene, p) {
    const { f32: v, triangles: t } = scene;
    let best = -1, bestD = Infinity;
    for (let i = 0; i < t.length / 3; i++) {
      const d = pointTriangleDistanceSq(p, v, t[3 * i], t[3 * i + 1], t[3 * i + 2]);
      if (d < bestD) { bestD = d; best = i; }
    }
    return best;
  }

  function sweep(s, radius, start, d, tol) {
    const hit = s.world.castShape({ x: start[0], y: start[1], z: start[2] }, IDENTITY, { x: d[0], y: d[1], z: d[2] },
      new RAPIER.Ball(radius), tol.sweep_target_distance, 1, true, undefined, undefined, s.ball);
    if (!hit) return { hit: false };
    // castShape names no feature, and in this build the trimesh ray and point queries' feature
    // ids are the triangle's face side (0 front, 1 back), not its index: the scene triangle
    // nearest to the hit's witness point on the trimesh is the one hit.
    const triangle = nearestTriangle(s.scene, readVec(hit.witness1));
    return { hit: true, time: hit.time_of_impact, triangle };
  }

  function query(req) {
    const tol = req.tolerances;
    const s = sceneFor(req.scene);
    const up = upOf(req);
    s.ball.setRadius(req.radius);
    s.ball.setTranslation({ x: req.start[0], y: req.start[1], z: req.start[2] });
    s.controller.setUp({ x: up[0], y: up[1], z: up[2] });
    s.controller.setOffset(tol.offset);
    s.controller.setNormalNudgeFactor(tol.normal_nudge_factor);
    const radius = Math.fround(req.radius);
    const positions = [readVec(s.ball.translation())];
    const sweeps = [];
    const iterations = [];
    for (const pass of passesOf(req)) {
      const from = positions[positions.length - 1];
      const d = pass.displacement;
      const h = sweep(s, radius, from, d, tol);
      sweeps.push(sweepRecord(from, d.map(Math.fround), radius, h.hit, h.time, h.triangle));
      s.controller.computeColliderMovement(s.ball, { x: d[0], y: d[1], z: d[2] });
      const m = s.controller.computedMovement();
      // translation += movement in f32: one rounding of the double sum is an f32 addition
      // (53 >= 2*24 + 2 makes double rounding innocuous).
      const p = [Math.fround(from[0] + m.x), Math.fround(from[1] + m.y), Math.fround(from[2] + m.z)];
      if (!p.every(Number.isFinite)) throw new Error(`${engine.shortName} produced a non-finite position in pass ${positions.length}`);
      s.ball.setTranslation({ x: p[0], y: p[1], z: p[2] });
      positions.push(readVec(s.ball.translation()));
      iterations.push(s.controller.numComputedCollisions());
    }
    return { query_id: req.id, positions: positions.map(vecToHex), sweeps, iterations };
  }

  return { engine, describe: () => describeAnswer(engine), query };
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
