// Rapier (@dimforge/rapier3d-compat, f32) as a slidecheck-exec peer: KinematicCharacterController
// computeColliderMovement of a ball (or capsule) collider against a trimesh collider of the scene,
// one call per pass; single sweeps are World.castShape of the same shape. The client around it
// (scene cache, passes, answers) is node-common's (peer.mjs).
import RAPIER from '@dimforge/rapier3d-compat';
import { upOf } from '../node-common/protocol.mjs';
import { nearestTriangle } from '../node-common/nearest_triangle.mjs';
import { yCapsule } from '../node-common/capsule.mjs';

/**
 * The JS API has no default offset (createCharacterController(offset) requires one); 0.01 is the
 * value Rapier's own examples and user guide pass. Rust's default is Relative(0.01) of the shape's
 * height, which the JS binding cannot express.
 */
const DEFAULT_OFFSET = Math.fround(0.01);

const readVec = (v) => [v.x, v.y, v.z];
const IDENTITY = { x: 0, y: 0, z: 0, w: 1 };

export async function createEngine() {
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

  const info = {
    name: 'rapier_kcc',
    description: `Rapier (@dimforge/rapier3d-compat ${RAPIER.version()}, f32)`,
    shortName: 'Rapier',
    precisions: ['float'],
    tolerances: defaults,
    shapes: ['sphere', 'capsule'],
  };

  /** A World with the scene's trimesh, the ball and the controller. */
  function buildScene(scene, path) {
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
    // capsule: whether the character collider (`ball`) holds a capsule now, not its ball.
    return { world, mesh, ball, controller, capsule: false, scene: { f32: vertices, triangles: indices }, path };
  }

  function sweep(s, shape, rotation, start, d, tol) {
    const hit = s.world.castShape({ x: start[0], y: start[1], z: start[2] }, rotation, { x: d[0], y: d[1], z: d[2] },
      shape, tol.sweep_target_distance, 1, true, undefined, undefined, s.ball);
    if (!hit) return { hit: false };
    // castShape names no feature, and in this build the trimesh ray and point queries' feature
    // ids are the triangle's face side (0 front, 1 back), not its index: the scene triangle
    // nearest to the hit's witness point on the trimesh is the one hit (double arithmetic on the
    // f32 vertices Rapier has).
    const triangle = nearestTriangle(s.scene.f32, s.scene.triangles, readVec(hit.witness1));
    return { hit: true, time: hit.time_of_impact, triangle };
  }

  /**
   * The character collider's shape for the query, and the shape its sweeps cast: the ball of its
   * radius, or Rapier's capsule, Capsule(halfHeight, radius) along its local Y axis with the half
   * height of the segment between the cap centres (rapier3d's Capsule::new_y,
   * https://docs.rs/rapier3d/latest/rapier3d/geometry/struct.Capsule.html), rotated exactly onto the
   * query's axis (node-common/capsule.mjs).
   */
  function shapeFor(s, req) {
    if (req.shape.kind !== 'capsule') {
      if (s.capsule) { // back to a ball after a capsule query
        s.ball.setShape(new RAPIER.Ball(req.radius));
        s.ball.setRotation(IDENTITY);
        s.capsule = false;
      }
      s.ball.setRadius(req.radius);
      return { cast: new RAPIER.Ball(Math.fround(req.radius)), rotation: IDENTITY };
    }
    const c = yCapsule(req, info.shortName);
    s.ball.setShape(new RAPIER.Capsule(c.halfHeight, c.radius));
    s.ball.setRotation(c.rotation);
    s.capsule = true;
    return { cast: new RAPIER.Capsule(c.halfHeight, c.radius), rotation: c.rotation, halfAxis: c.halfAxis };
  }

  /** The scene's character collider, of the query's shape, at the query's start, the controller set up for it. */
  function character(s, req) {
    const tol = req.tolerances;
    const up = upOf(req);
    const body = shapeFor(s, req);
    s.ball.setTranslation({ x: req.start[0], y: req.start[1], z: req.start[2] });
    s.controller.setUp({ x: up[0], y: up[1], z: up[2] });
    s.controller.setOffset(tol.offset);
    s.controller.setNormalNudgeFactor(tol.normal_nudge_factor);
    const radius = Math.fround(req.radius);
    return {
      radius,
      halfAxis: body.halfAxis,
      position: () => readVec(s.ball.translation()),
      sweep: (from, d) => sweep(s, body.cast, body.rotation, from, d, tol),
      move(d, from) {
        s.controller.computeColliderMovement(s.ball, { x: d[0], y: d[1], z: d[2] });
        const m = s.controller.computedMovement();
        // translation += movement in f32: one rounding of the double sum is an f32 addition
        // (53 >= 2*24 + 2 makes double rounding innocuous).
        s.ball.setTranslation({ x: Math.fround(from[0] + m.x), y: Math.fround(from[1] + m.y), z: Math.fround(from[2] + m.z) });
      },
      iterations: () => s.controller.numComputedCollisions(),
    };
  }

  return { info, buildScene, freeScene: (s) => s.world.free(), character };
}
