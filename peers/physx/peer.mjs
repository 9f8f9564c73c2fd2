// PhysX 5 (physx-js-webidl: NVIDIA's PhysX compiled to WebAssembly with WebIDL bindings) as a
// slidecheck-exec peer, through its character controller: a PxCapsuleController slides through a
// static PxTriangleMesh of the scene, one move(displacement, minDist, dt = 1, filters) per pass;
// single sweeps are PxGeometryQuery.sweep of the same capsule against the mesh. PhysX has no
// sphere controller (capsule and box only), so this client runs capsules alone and refuses
// spheres. The controller keeps its position in float64 (PxExtendedVec3); displacements, the
// mesh and its sweeps are float32. The client around it (scene cache, passes, answers) is
// node-common's (peer.mjs).
//
// PhysX's guide to the controller: https://nvidia-omniverse.github.io/PhysX/physx/5.6.1/docs/CharacterControllers.html
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import PhysXFactory from 'physx-js-webidl';
import { upOf } from '../node-common/protocol.mjs';
import { yCapsule } from '../node-common/capsule.mjs';

const require = createRequire(import.meta.url);
// The package exports neither its package.json nor its WebAssembly: both are read beside its main module.
const MAIN_PATH = require.resolve('physx-js-webidl');
const WASM_PATH = MAIN_PATH.replace(/\.mjs$/, '.wasm');
const PACKAGE_VERSION = JSON.parse(readFileSync(MAIN_PATH.replace(/physx-js-webidl\.mjs$/, 'package.json'), 'utf8')).version;

/**
 * The module, instantiated under Node. The package is built for browsers only (Emscripten's
 * ENVIRONMENT=web,worker): its factory throws "not compiled for this environment" when it sees
 * `process.versions.node`, and then needs `window` (or `WorkerGlobalScope`) to take the web path,
 * which fetches the WebAssembly unless it is given as `wasmBinary`. Both checks run synchronously
 * at the start of the factory, so `process` is hidden and `window` set only for that call and put
 * back before anything else runs; the package itself is used as installed.
 */
export async function loadPhysX() {
  const wasmBinary = readFileSync(WASM_PATH);
  const processProperty = Object.getOwnPropertyDescriptor(globalThis, 'process');
  const hadWindow = Object.prototype.hasOwnProperty.call(globalThis, 'window');
  let pending;
  delete globalThis.process;
  if (!hadWindow) globalThis.window = globalThis;
  try {
    pending = PhysXFactory({ wasmBinary });
  } finally {
    Object.defineProperty(globalThis, 'process', processProperty);
    if (!hadWindow) delete globalThis.window;
  }
  return pending;
}

/**
 * Whether some triangle has a non-zero area once its vertices are rounded to float. Exact: the
 * differences of floats and their products are exact in double, so a cross product component is
 * zero exactly when its two products are equal.
 */
export function anyFloatArea(vertices, triangles) {
  const f = (i, k) => Math.fround(vertices[3 * i + k]);
  for (let t = 0; t < triangles.length; t += 3) {
    const [a, b, c] = [triangles[t], triangles[t + 1], triangles[t + 2]];
    const u = [0, 1, 2].map((k) => f(b, k) - f(a, k));
    const v = [0, 1, 2].map((k) => f(c, k) - f(a, k));
    if (u[1] * v[2] !== u[2] * v[1] || u[2] * v[0] !== u[0] * v[2] || u[0] * v[1] !== u[1] * v[0]) return true;
  }
  return false;
}

/** PhysX's own version from PX_PHYSICS_VERSION (0xMMmmbb00). */
const versionOf = (v) => `${(v >>> 24) & 0xff}.${(v >>> 16) & 0xff}.${(v >>> 8) & 0xff}`;

/**
 * The controller manager's settings, with the manager's defaults (CharacterControllerManager's
 * constructor: tessellation off with a maximum edge length of 1, overlap recovery on, precise
 * sweeps on, vertical sliding against ceilings allowed); the bindings have no getters for them.
 * As tolerances, a flag is on when non-zero; tessellation is on when its edge length is non-zero.
 */
const MANAGER_DEFAULTS = {
  tessellation_max_edge_length: 0,
  overlap_recovery: 1,
  precise_sweeps: 1,
  prevent_vertical_sliding_against_ceiling: 0,
};

/**
 * minDist of move(): a pass shorter than this does not move. PhysX has no default (the caller
 * passes it); 0.001 is Unity's CharacterController.minMoveDistance default and what PhysX's
 * snippets pass.
 */
const MIN_DIST_DEFAULT = 0.001;

/** The controller descriptor's fields that act as tolerances, by slidecheck name. */
const DESC_FIELDS = {
  contact_offset: 'contactOffset',
  step_offset: 'stepOffset',
  slope_limit: 'slopeLimit',
  invisible_wall_height: 'invisibleWallHeight',
  max_jump_height: 'maxJumpHeight',
  volume_growth: 'volumeGrowth',
};

/**
 * The rotations taking PhysX's capsule axis (local X) onto world x, y, z: axis permutations, whose
 * quaternion components 0 and ±1/2 rotate without rounding (a capsule is symmetric about its axis,
 * so which permutation does not matter).
 */
const X_ONTO = [
  { x: 0, y: 0, z: 0, w: 1 },            // X -> x
  { x: 0.5, y: 0.5, z: 0.5, w: 0.5 },    // X -> y (y -> z, z -> x)
  { x: -0.5, y: -0.5, z: -0.5, w: 0.5 }, // X -> z (z -> y, y -> x)
];

export async function createEngine() {
  const P = await loadPhysX();
  const version = P.PHYSICS_VERSION;
  const foundation = P.CreateFoundation(version, new P.PxDefaultAllocator(), new P.PxDefaultErrorCallback());
  const scale = new P.PxTolerancesScale();
  const physics = P.CreatePhysics(version, foundation, scale);
  const material = physics.createMaterial(0, 0, 0);
  // No thread of its own (scenes are never simulated here); one for every scene.
  const dispatcher = P.DefaultCpuDispatcherCreate(0);
  const helpers = P.NativeArrayHelpers.prototype;

  // Engine defaults of the descriptor's settings, read from a fresh descriptor, rounded to float:
  // requests carry tolerances in float, so the default is the value a request naming it would give.
  const probe = new P.PxCapsuleControllerDesc();
  const defaults = {};
  for (const [name, field] of Object.entries(DESC_FIELDS)) defaults[name] = Math.fround(probe[field]);
  P.destroy(probe);
  defaults.min_dist = Math.fround(MIN_DIST_DEFAULT);
  Object.assign(defaults, MANAGER_DEFAULTS);

  const info = {
    name: 'physx_cct',
    description: `PhysX ${versionOf(version)} PxCapsuleController (physx-js-webidl ${PACKAGE_VERSION}, WASM, float)`,
    shortName: 'PhysX',
    precisions: ['float'],
    tolerances: defaults,
    shapes: ['capsule'],
  };

  // Reused scratch objects (PhysX copies what it keeps).
  const v3 = new P.PxVec3(0, 0, 0);
  const ext = new P.PxExtendedVec3(0, 0, 0);
  const identity = new P.PxTransform(P.PxIDENTITYEnum.PxIdentity);
  const filters = new P.PxControllerFilters();
  const sweepHit = new P.PxSweepHit();

  // ---- scenes: a PxScene each, holding the scene's mesh as a static actor, with its controller manager ----
  function buildScene(scene, path) {
    const { vertices, triangles } = scene;
    const nv = vertices.length / 3;
    const nt = triangles.length / 3;
    // PhysX's controller collides with a triangle from its front only (seen from behind it is
    // passed through, PxMeshGeometryFlag::eDOUBLE_SIDED or not): every triangle goes in twice,
    // as written (index t) and reversed (index nt + t), so it stops the capsule from either side,
    // as slidecheck's triangles do.
    const points = new P.PxArray_PxVec3(nv);
    for (let i = 0; i < nv; i++) {
      v3.x = vertices[3 * i];
      v3.y = vertices[3 * i + 1];
      v3.z = vertices[3 * i + 2];
      points.set(i, v3);
    }
    const indices = new P.PxArray_PxU32(2 * triangles.length);
    for (let t = 0; t < nt; t++) {
      const [a, b, c] = [triangles[3 * t], triangles[3 * t + 1], triangles[3 * t + 2]];
      indices.set(3 * t, a); indices.set(3 * t + 1, b); indices.set(3 * t + 2, c);
      indices.set(3 * (nt + t), a); indices.set(3 * (nt + t) + 1, c); indices.set(3 * (nt + t) + 2, b);
    }
    // Cooking's cleaning drops the triangles of zero area in float; when that leaves none,
    // CreateTriangleMesh faults (memory access out of bounds) instead of failing.
    if (!anyFloatArea(vertices, triangles)) {
      P.destroy(points);
      P.destroy(indices);
      throw new Error(`${info.shortName} cannot cook ${path}: every triangle has zero area in float, and cooking drops them all`);
    }
    const desc = new P.PxTriangleMeshDesc();
    desc.points.count = nv;
    desc.points.stride = 12;
    desc.points.data = points.begin();
    desc.triangles.count = 2 * nt;
    desc.triangles.stride = 12;
    desc.triangles.data = indices.begin();
    // Default cooking: the mesh is cleaned (zero-area and duplicate triangles dropped) and its
    // triangles reordered for its midphase; the remap table gives each one's index in desc.
    const cooking = new P.PxCookingParams(scale);
    const mesh = P.CreateTriangleMesh(cooking, desc);
    P.destroy(cooking);
    P.destroy(desc);
    P.destroy(points);
    P.destroy(indices);
    if (!mesh) throw new Error(`${info.shortName} cannot cook a triangle mesh of ${path}`);
    const remapPtr = mesh.getTrianglesRemap();
    const n = mesh.getNbTriangles();
    const fileTriangle = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const k = helpers.getU32At(remapPtr, i);
      fileTriangle[i] = k < nt ? k : k - nt;
    }
    const meshScale = new P.PxMeshScale();
    const meshFlags = new P.PxMeshGeometryFlags(0);
    const geometry = new P.PxTriangleMeshGeometry(mesh, meshScale, meshFlags);
    P.destroy(meshScale);
    P.destroy(meshFlags);
    const shapeFlags = new P.PxShapeFlags(P.PxShapeFlagEnum.eSCENE_QUERY_SHAPE | P.PxShapeFlagEnum.eSIMULATION_SHAPE);
    const shape = physics.createShape(geometry, material, true, shapeFlags);
    P.destroy(shapeFlags);
    const actor = physics.createRigidStatic(identity);
    actor.attachShape(shape);
    shape.release(); // the actor holds it

    const sceneDesc = new P.PxSceneDesc(scale);
    v3.x = 0; v3.y = 0; v3.z = 0;
    sceneDesc.gravity = v3;
    sceneDesc.cpuDispatcher = dispatcher;
    sceneDesc.filterShader = P.DefaultFilterShader();
    const pxScene = physics.createScene(sceneDesc);
    P.destroy(sceneDesc);
    pxScene.addActor(actor);
    const manager = P.CreateControllerManager(pxScene);
    return { pxScene, actor, mesh, geometry, manager, fileTriangle, path };
  }

  function freeScene(world) {
    world.manager.release();
    world.pxScene.removeActor(world.actor);
    world.actor.release();
    world.pxScene.release();
    P.destroy(world.geometry);
    world.mesh.release();
  }

  /** The manager's settings for a request (they apply to every controller of the scene's manager). */
  function configure(manager, tol) {
    const edge = tol.tessellation_max_edge_length;
    manager.setTessellation(edge !== 0, edge !== 0 ? edge : 1);
    manager.setOverlapRecoveryModule(tol.overlap_recovery !== 0);
    manager.setPreciseSweeps(tol.precise_sweeps !== 0);
    manager.setPreventVerticalSlidingAgainstCeiling(tol.prevent_vertical_sliding_against_ceiling !== 0);
  }

  /**
   * PxGeometryQuery.sweep of `geometry` (the capsule, posed by `rotation`) from `start` along d
   * against the scene's mesh: the first hit, its time (distance over the swept length) and the
   * file's triangle. PhysX sweeps take a unit direction and a length, both rounded to float here.
   */
  function sweep(world, geometry, rotation, start, d, preciseSweeps) {
    const len = Math.hypot(d[0], d[1], d[2]);
    if (len === 0) return { hit: false };
    const length = Math.fround(len);
    const dir = new P.PxVec3(d[0] / len, d[1] / len, d[2] / len);
    const pos = new P.PxVec3(start[0], start[1], start[2]);
    const pose = new P.PxTransform(pos, rotation);
    let flags = P.PxHitFlagEnum.eDEFAULT;
    if (preciseSweeps) flags |= P.PxHitFlagEnum.ePRECISE_SWEEP;
    const hitFlags = new P.PxHitFlags(flags);
    const hit = P.PxGeometryQuery.prototype.sweep(dir, length, geometry, pose, world.geometry, identity, sweepHit, hitFlags, 0);
    let out = { hit: false };
    if (hit) out = { hit: true, time: Math.fround(sweepHit.distance / length), triangle: world.fileTriangle[sweepHit.faceIndex] };
    P.destroy(hitFlags);
    P.destroy(pose);
    P.destroy(pos);
    P.destroy(dir);
    return out;
  }

  /** A PxCapsuleController with the query's capsule at its start, in the scene's world. */
  function character(world, req) {
    const tol = req.tolerances;
    const c = yCapsule(req, info.shortName);
    const axis = [0, 1, 2].find((i) => c.halfAxis[i] !== 0);
    // The controller's up is its capsule's axis (PhysX's capsule controller stands along its up
    // direction), signed towards the query's up (opposite its gravity) when they are parallel.
    const queryUp = upOf(req);
    const up = [0, 0, 0];
    up[axis] = queryUp[axis] < 0 ? -1 : 1;
    configure(world.manager, tol);

    const desc = new P.PxCapsuleControllerDesc();
    desc.radius = c.radius;
    desc.height = 2 * c.halfHeight; // the distance between the cap centres
    desc.material = material;
    v3.x = up[0]; v3.y = up[1]; v3.z = up[2];
    desc.upDirection = v3;
    ext.x = req.start[0]; ext.y = req.start[1]; ext.z = req.start[2];
    desc.position = ext;
    for (const [name, field] of Object.entries(DESC_FIELDS)) desc[field] = tol[name];
    // PhysX refuses a controller whose step offset exceeds its whole height (2 r + height), as
    // its default 0.5 does for a capsule under 0.5 tall: such a capsule steps at most its height.
    desc.stepOffset = Math.min(tol.step_offset, Math.fround(2 * c.radius + 2 * c.halfHeight));
    if (!desc.isValid()) {
      P.destroy(desc);
      throw new Error(`${info.shortName} refuses the controller of query '${req.id}' (PxCapsuleControllerDesc.isValid() is false)`);
    }
    const controller = world.manager.createController(desc);
    P.destroy(desc);
    if (!controller) throw new Error(`${info.shortName} could not create the controller of query '${req.id}'`);

    const q = X_ONTO[axis];
    const rotation = new P.PxQuat(q.x, q.y, q.z, q.w);
    const geometry = new P.PxCapsuleGeometry(c.radius, c.halfHeight);
    const minDist = tol.min_dist;
    const preciseSweeps = tol.precise_sweeps !== 0;
    const position = () => { const p = controller.getPosition(); return [p.x, p.y, p.z]; };
    return {
      radius: geometry.radius,
      halfAxis: c.halfAxis,
      position,
      sweep: (from, d) => sweep(world, geometry, rotation, from, d, preciseSweeps),
      move(d) {
        v3.x = d[0]; v3.y = d[1]; v3.z = d[2];
        // The collision flags it returns live in the bindings' own storage: not freed here.
        controller.move(v3, minDist, 1, filters);
        // The controller keeps its position in float64; the run is judged in float, so the
        // position is rounded to float and the controller continues from there: the path judged
        // is the path that ran.
        const p = position();
        ext.x = Math.fround(p[0]); ext.y = Math.fround(p[1]); ext.z = Math.fround(p[2]);
        controller.setPosition(ext);
      },
      free() {
        controller.release();
        P.destroy(geometry);
        P.destroy(rotation);
      },
    };
  }

  // What the tests watch for leaks: the WebAssembly heap's size in bytes (it grows when PhysX
  // needs more and never shrinks) and the shapes PhysX holds (a scene's mesh, a controller's capsule).
  const heapBytes = () => P.HEAPU8.length;
  const liveShapes = () => physics.getNbShapes();

  return { info, buildScene, freeScene, character, heapBytes, liveShapes };
}
