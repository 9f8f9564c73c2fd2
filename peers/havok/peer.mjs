// Havok (the @babylonjs/havok WebAssembly build) as a slidecheck-exec peer, through Babylon.js's
// PhysicsCharacterController under Node with a NullEngine: a sphere or capsule shape slides through
// a static MESH PhysicsAggregate of the scene, one checkSupport + setVelocity + integrate per pass
// (dt = 1, so velocity = displacement); single sweeps are HavokPlugin.shapeCast of the same shape. The
// controller is JavaScript in float64; every query it makes goes to the WebAssembly in float32.
// The client around it (scene cache, passes, answers) is node-common's (peer.mjs).
//
// Babylon's guide to the controller: https://doc.babylonjs.com/features/featuresDeepDive/physics/characterController
// (creation from a shape or {capsuleHeight, capsuleRadius}; per frame checkSupport(dt, down), setVelocity,
// integrate(dt, support, gravity), getPosition).
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import HavokPhysics from '@babylonjs/havok';
// Babylon's modules one by one (its index pulls in the whole library: a second of start-up).
import { AbstractEngine } from '@babylonjs/core/Engines/abstractEngine.js';
import { NullEngine } from '@babylonjs/core/Engines/nullEngine.js';
import { Scene } from '@babylonjs/core/scene.js';
import { Quaternion, Vector3 } from '@babylonjs/core/Maths/math.vector.js';
import { Mesh } from '@babylonjs/core/Meshes/mesh.js';
import { VertexData } from '@babylonjs/core/Meshes/mesh.vertexData.js';
import '@babylonjs/core/Physics/joinedPhysicsEngineComponent.js'; // Scene.enablePhysics
import { HavokPlugin } from '@babylonjs/core/Physics/v2/Plugins/havokPlugin.js';
import { PhysicsAggregate } from '@babylonjs/core/Physics/v2/physicsAggregate.js';
import { PhysicsCharacterController } from '@babylonjs/core/Physics/v2/characterController.js';
import { PhysicsShapeCapsule, PhysicsShapeSphere } from '@babylonjs/core/Physics/v2/physicsShape.js';
import { PhysicsShapeType } from '@babylonjs/core/Physics/v2/IPhysicsEnginePlugin.js';
import { ShapeCastResult } from '@babylonjs/core/Physics/shapeCastResult.js';
import { upOf } from '../node-common/protocol.mjs';
import { yCapsule } from '../node-common/capsule.mjs';
import { nearestTriangle } from '../node-common/nearest_triangle.mjs';

const require = createRequire(import.meta.url);
// The package exports neither its package.json nor a version: both are read beside its WebAssembly.
const WASM_PATH = require.resolve('@babylonjs/havok/lib/esm/HavokPhysics.wasm');
const HAVOK_VERSION = JSON.parse(readFileSync(join(dirname(WASM_PATH), '..', '..', 'package.json'), 'utf8')).version;

/** Shape filter bits: the character's shapes see the scene's mesh, not each other or themselves. */
const SCENE_BIT = 1;
const CHARACTER_BIT = 2;

/**
 * The controller's settings that act as tolerances, by slidecheck name, with the controller
 * field each sets. Their defaults are read from a fresh controller (Babylon's own values),
 * rounded to float: requests carry tolerances in float, so the default is the value a request
 * naming it would give.
 */
const TOLERANCE_FIELDS = {
  keep_distance: 'keepDistance',
  keep_contact_tolerance: 'keepContactTolerance',
  max_cast_iterations: 'maxCastIterations',
  penetration_recovery_speed: 'penetrationRecoverySpeed',
  max_slope_cosine: 'maxSlopeCosine',
  max_step_height: 'maxStepHeight',
  max_character_speed_for_solver: 'maxCharacterSpeedForSolver',
};

/**
 * The controller's capsule for a query's (radius R, half axis a: the axis segment runs from -a to
 * +a about the centre), in the character's local space: a PhysicsShapeCapsule of the segment's two
 * end points and the radius (Babylon's characterController.js builds its own capsule the same way;
 * its {capsuleHeight: h, capsuleRadius: r} is the segment ±(h/2 − r) along local +Y, h the whole
 * height). ±a are the request's float values, so the shape is the query's exactly. The half axis
 * must lie along x, y or z (node-common/capsule.mjs refuses any other, as for every peer, so
 * that every engine runs the same capsules). Returns { shape, halfAxis, footOffset }: footOffset is
 * how far the capsule reaches below its centre along `up` (|a . up| + R), the controller's
 * "position - up * footOffset" foot that its step-height wall planes measure from (Babylon sets
 * h/2 for its own capsule: the same for an upright one).
 */
export function capsuleShape(scene, request, up) {
  yCapsule(request, 'Havok');
  const { radius, halfAxis } = request.shape;
  const a = new Vector3(halfAxis[0], halfAxis[1], halfAxis[2]);
  const shape = new PhysicsShapeCapsule(a.negate(), a, radius, scene);
  const along = Math.abs(halfAxis[0] * up[0] + halfAxis[1] * up[1] + halfAxis[2] * up[2]);
  return { shape, halfAxis, footOffset: along + radius };
}

/**
 * HavokPlugin.shapeCast of `shape` (a sphere, or a capsule of capsuleShape) through a world of
 * buildScene from `start` along d: the first hit, its time and the file's triangle hit.
 */
export function shapeSweep(world, shape, start, d) {
  const local = new ShapeCastResult();
  const hit = new ShapeCastResult();
  world.plugin.shapeCast({
    shape,
    rotation: Quaternion.Identity(),
    startPosition: new Vector3(start[0], start[1], start[2]),
    endPosition: new Vector3(start[0] + d[0], start[1] + d[1], start[2] + d[2]),
    shouldHitTriggers: false,
  }, local, hit);
  if (!hit.hasHit) return { hit: false };
  // Havok's triangleIndex is its mesh shape's own key (it merges triangles into quads), not the
  // file's: the file's triangle nearest the hit point (on the f32 vertices Havok holds) is named.
  const p = hit.hitPoint;
  return { hit: true, time: hit.hitFraction, triangle: nearestTriangle(world.f32, world.triangles, [p.x, p.y, p.z]) };
}

export async function createEngine() {
  const wasmBinary = readFileSync(WASM_PATH);
  const hk = await HavokPhysics({ wasmBinary });
  const engine = new NullEngine();

  /** A Babylon scene with its own Havok world (each slidecheck scene lives in one of its own). */
  function physicsScene() {
    const scene = new Scene(engine);
    // The file's winding as is: in a left-handed scene Babylon reverses every triangle for Havok.
    scene.useRightHandedSystem = true;
    const plugin = new HavokPlugin(false, hk, { disableWorldRegions: true });
    scene.enablePhysics(Vector3.Zero(), plugin);
    return { scene, plugin };
  }

  // Engine defaults, read from a controller built the documented way.
  const probe = physicsScene();
  const probeController = new PhysicsCharacterController(Vector3.Zero(), { capsuleHeight: 1.8, capsuleRadius: 0.6 }, probe.scene);
  const defaults = {};
  for (const [name, field] of Object.entries(TOLERANCE_FIELDS)) defaults[name] = Math.fround(probeController[field]);
  probeController.dispose();
  probe.scene.dispose();

  const info = {
    name: 'havok_cc',
    description: `Havok (@babylonjs/havok ${HAVOK_VERSION}, WASM, float) through Babylon.js ${AbstractEngine.Version} PhysicsCharacterController`,
    shortName: 'Havok',
    precisions: ['float'],
    shapes: ['sphere', 'capsule'],
    tolerances: defaults,
  };

  // ---- scenes: a Babylon scene and Havok world each, holding the scene's mesh as a static aggregate ----
  function buildScene(scene, path) {
    const { scene: bscene, plugin } = physicsScene();
    const f32 = Float32Array.from(scene.vertices);
    const mesh = new Mesh(path, bscene);
    const data = new VertexData();
    data.positions = f32;
    data.indices = Uint32Array.from(scene.triangles);
    data.applyToMesh(mesh);
    const aggregate = new PhysicsAggregate(mesh, PhysicsShapeType.MESH, { mass: 0 }, bscene);
    aggregate.shape.filterMembershipMask = SCENE_BIT;
    return { scene: bscene, plugin, aggregate, f32, triangles: scene.triangles, path };
  }

  function freeScene(world) {
    world.aggregate.dispose();
    world.scene.dispose();
  }

  /** A PhysicsCharacterController with the query's sphere or capsule at its start, in the scene's world. */
  function character(world, req) {
    const tol = req.tolerances;
    const radius = req.radius;
    const up = upOf(req);
    const capsule = req.shape.kind === 'capsule' ? capsuleShape(world.scene, req, up) : null;
    const shape = capsule ? capsule.shape : new PhysicsShapeSphere(Vector3.Zero(), radius, world.scene);
    shape.filterMembershipMask = CHARACTER_BIT;
    shape.filterCollideMask = SCENE_BIT;
    const controller = new PhysicsCharacterController(new Vector3(req.start[0], req.start[1], req.start[2]), { shape }, world.scene);
    if (capsule) controller.footOffset = capsule.footOffset;
    controller.up = new Vector3(up[0], up[1], up[2]);
    const down = new Vector3(-up[0], -up[1], -up[2]);
    for (const [name, field] of Object.entries(TOLERANCE_FIELDS)) controller[field] = tol[name];
    const zero = Vector3.Zero();
    return {
      radius,
      halfAxis: capsule ? capsule.halfAxis : undefined,
      position: () => { const p = controller.getPosition(); return [p.x, p.y, p.z]; },
      sweep: (from, d) => shapeSweep(world, shape, from, d),
      move(d) {
        const support = controller.checkSupport(1, down);
        controller.setVelocity(new Vector3(d[0], d[1], d[2]));
        // integrate's gravity only pushes dynamic bodies the character stands on; the scene is static.
        controller.integrate(1, support, zero);
        // The controller keeps its position in float64; the run is judged in float, so the
        // position is rounded to float and the controller continues from there: the path judged
        // is the path that ran.
        const p = controller.getPosition();
        controller.setPosition(new Vector3(Math.fround(p.x), Math.fround(p.y), Math.fround(p.z)));
      },
      free() {
        controller.dispose();
        shape.dispose();
      },
    };
  }

  return { info, buildScene, freeScene, character };
}
