// Jolt Physics (official WASM build of jolt-physics, single precision) as a slidecheck-exec peer:
// a CharacterVirtual with a SphereShape or a CapsuleShape slides through a static MeshShape of the
// scene, one CharacterVirtual::Update per pass; single sweeps are NarrowPhaseQuery::CastShape of the
// same shape. The client around it (scene cache, passes, answers) is node-common's (peer.mjs).
import { createRequire } from 'node:module';
import initJolt from 'jolt-physics';
import { upOf } from '../node-common/protocol.mjs';
import { yCapsule } from '../node-common/capsule.mjs';

const require = createRequire(import.meta.url);
const JOLT_VERSION = require('jolt-physics/package.json').version;

// Object layers: the character's queries (MOVING) see only the scene (STATIC).
const LAYER_MOVING = 0;
const LAYER_STATIC = 1;

/** 21 bits per coordinate: how Jolt's MeshShape stores vertices, relative to the mesh bounds. */
const MESH_COMPONENT_STEPS = 2 ** 21 - 1;

export async function createEngine() {
  const J = await initJolt();

  const settings = new J.JoltSettings();
  settings.mMaxWorkerThreads = 0;
  const pairFilter = new J.ObjectLayerPairFilterTable(2);
  pairFilter.EnableCollision(LAYER_MOVING, LAYER_STATIC);
  const bpInterface = new J.BroadPhaseLayerInterfaceTable(2, 2);
  bpInterface.MapObjectToBroadPhaseLayer(LAYER_MOVING, new J.BroadPhaseLayer(0));
  bpInterface.MapObjectToBroadPhaseLayer(LAYER_STATIC, new J.BroadPhaseLayer(1));
  settings.mObjectLayerPairFilter = pairFilter;
  settings.mBroadPhaseLayerInterface = bpInterface;
  settings.mObjectVsBroadPhaseLayerFilter = new J.ObjectVsBroadPhaseLayerFilterTable(bpInterface, 2, pairFilter, 2);
  const jolt = new J.JoltInterface(settings);
  J.destroy(settings);
  const system = jolt.GetPhysicsSystem();
  const bodies = system.GetBodyInterface();
  const narrow = system.GetNarrowPhaseQuery();
  const allocator = jolt.GetTempAllocator();
  const bpFilter = new J.DefaultBroadPhaseLayerFilter(jolt.GetObjectVsBroadPhaseLayerFilter(), LAYER_MOVING);
  const objFilter = new J.DefaultObjectLayerFilter(jolt.GetObjectLayerPairFilter(), LAYER_MOVING);
  const bodyFilter = new J.BodyFilter();
  const shapeFilter = new J.ShapeFilter();

  // Engine defaults of every setting that acts as a tolerance, read from fresh settings objects.
  const cvs = new J.CharacterVirtualSettings();
  const mss = new J.MeshShapeSettings();
  const scs = new J.ShapeCastSettings();
  const defaults = {
    character_padding: cvs.get_mCharacterPadding(),
    penetration_recovery_speed: cvs.get_mPenetrationRecoverySpeed(),
    predictive_contact_distance: cvs.get_mPredictiveContactDistance(),
    collision_tolerance: cvs.get_mCollisionTolerance(),
    min_time_remaining: cvs.get_mMinTimeRemaining(),
    hit_reduction_cos_max_angle: cvs.get_mHitReductionCosMaxAngle(),
    active_edge_cos_threshold_angle: mss.get_mActiveEdgeCosThresholdAngle(),
    sweep_collision_tolerance: scs.get_mCollisionTolerance(),
    sweep_penetration_tolerance: scs.get_mPenetrationTolerance(),
  };
  J.destroy(cvs);
  J.destroy(mss);
  J.destroy(scs);

  const info = {
    name: 'jolt_cv',
    description: `Jolt Physics (jolt-physics ${JOLT_VERSION}, WASM, float)`,
    shortName: 'Jolt',
    precisions: ['float'],
    tolerances: defaults,
    shapes: ['sphere', 'capsule'],
  };

  // Reused scratch objects (Jolt copies what it keeps).
  const vA = new J.Vec3(0, 0, 0), vB = new J.Vec3(0, 0, 0);
  const rA = new J.RVec3(0, 0, 0);
  const zero = new J.Vec3(0, 0, 0);
  const one = new J.Vec3(1, 1, 1);
  const origin = new J.RVec3(0, 0, 0);

  // ---- scenes: a static Body with the scene's MeshShape each, one of them in the system ----
  let active = null; // the scene whose body is in the physics system

  /** A MeshShape's active edges depend on a tolerance: a scene is built once per value. */
  const sceneKey = (req) => `${req.tolerances.active_edge_cos_threshold_angle}\u0000${req.scene}`;

  function buildScene(scene, path, req) {
    const activeEdgeCos = req.tolerances.active_edge_cos_threshold_angle;
    const { vertices, triangles } = scene;
    const nt = triangles.length / 3;
    // The scene's own vertices (rounded to float) and indices: MeshShapeSettings(TriangleList)
    // would first weld vertices closer than 1e-4, a length tolerance of its own.
    const vertexList = new J.VertexList();
    vertexList.reserve(vertices.length / 3);
    const f3 = new J.Float3(0, 0, 0);
    for (let i = 0; i < vertices.length; i += 3) {
      f3.set_x(vertices[i]);
      f3.set_y(vertices[i + 1]);
      f3.set_z(vertices[i + 2]);
      vertexList.push_back(f3);
    }
    J.destroy(f3);
    const triangleList = new J.IndexedTriangleList();
    triangleList.reserve(nt);
    for (let t = 0; t < nt; t++) {
      // The scene's triangle index rides along as per-triangle user data (Jolt reorders triangles
      // and drops degenerate and duplicate ones).
      const tri = new J.IndexedTriangle(triangles[3 * t], triangles[3 * t + 1], triangles[3 * t + 2], 0, t);
      triangleList.push_back(tri);
      J.destroy(tri);
    }
    const materials = new J.PhysicsMaterialList();
    const mss = new J.MeshShapeSettings(vertexList, triangleList, materials);
    J.destroy(vertexList);
    J.destroy(triangleList);
    J.destroy(materials);
    mss.set_mPerTriangleUserData(true);
    mss.set_mActiveEdgeCosThresholdAngle(activeEdgeCos);
    const result = mss.Create();
    if (!result.IsValid()) {
      const why = result.HasError() ? result.GetError().c_str() : 'no valid triangle';
      J.destroy(mss);
      throw new Error(`${info.shortName} cannot build a MeshShape of ${path}: ${why}`);
    }
    const shape = result.Get();
    shape.AddRef();
    J.destroy(mss);
    reportQuantization(path, scene, shape);
    const bcs = new J.BodyCreationSettings(shape, origin, J.Quat.prototype.sIdentity(), J.EMotionType_Static, LAYER_STATIC);
    const body = bodies.CreateBody(bcs);
    J.destroy(bcs);
    return { bodyId: body.GetID(), mesh: J.castObject(shape, J.MeshShape), shape, path };
  }

  // Jolt's MeshShape stores each vertex coordinate in 21 bits over the mesh's bounding box, so
  // vertices off that grid move: said once per scene on stderr, since the exact judge uses the file's.
  function reportQuantization(path, scene, shape) {
    const wanted = new Set();
    const { vertices, triangles } = scene;
    for (let n = 0; n < triangles.length; n++) {
      const i = triangles[n];
      wanted.add(`${Math.fround(vertices[3 * i])},${Math.fround(vertices[3 * i + 1])},${Math.fround(vertices[3 * i + 2])}`);
    }
    const big = 3.0e38;
    const box = new J.AABox(new J.Vec3(-big, -big, -big), new J.Vec3(big, big, big));
    const gt = new J.ShapeGetTriangles(shape, box, zero, J.Quat.prototype.sIdentity(), one);
    const n = gt.GetNumTriangles();
    const data = new Float32Array(J.HEAPF32.buffer, gt.GetVerticesData(), 9 * n).slice();
    J.destroy(gt);
    J.destroy(box);
    let moved = 0;
    for (let c = 0; c < 3 * n; c++)
      if (!wanted.has(`${data[3 * c]},${data[3 * c + 1]},${data[3 * c + 2]}`)) moved++;
    if (moved > 0) {
      const b = shape.GetLocalBounds();
      const lo = b.get_mMin(), hi = b.get_mMax();
      const steps = [hi.GetX() - lo.GetX(), hi.GetY() - lo.GetY(), hi.GetZ() - lo.GetZ()].map((e) => (e / MESH_COMPONENT_STEPS).toPrecision(3));
      console.error(`${info.shortName}: ${path}: MeshShape moved ${moved} of ${3 * n} triangle corners off the scene's float vertices ` +
        `(21-bit grid over the mesh bounds, steps ${steps.join(', ')})`);
    }
  }

  function freeScene(old) {
    if (active === old) { bodies.RemoveBody(old.bodyId); active = null; }
    bodies.DestroyBody(old.bodyId);
    old.shape.Release();
  }

  /** Puts the scene's body, alone, into the physics system. */
  function activate(s) {
    if (active !== s) {
      if (active) bodies.RemoveBody(active.bodyId);
      bodies.AddBody(s.bodyId, J.EActivation_DontActivate);
      active = s;
    }
  }

  // ---- per query ----
  const spheres = new Map(); // radius -> SphereShape (one reference held here)
  function sphereOf(r) {
    let s = spheres.get(r);
    if (!s) {
      if (spheres.size > 1024) {
        for (const old of spheres.values()) old.Release();
        spheres.clear();
      }
      s = new J.SphereShape(r);
      s.AddRef();
      spheres.set(r, s);
    }
    return s;
  }

  // CapsuleShape(inHalfHeightOfCylinder, inRadius): centred on the origin, its axis along Y, the
  // half height that of the cylinder part, the segment between the cap centres
  // (https://jrouwe.github.io/JoltPhysics/_capsule_shape_8h_source.html).
  const capsules = new Map(); // "halfHeight radius" -> CapsuleShape (one reference held here)
  function capsuleOf(halfHeight, r) {
    const key = `${halfHeight} ${r}`;
    let c = capsules.get(key);
    if (!c) {
      if (capsules.size > 1024) {
        for (const old of capsules.values()) old.Release();
        capsules.clear();
      }
      c = new J.CapsuleShape(halfHeight, r);
      c.AddRef();
      capsules.set(key, c);
    }
    return c;
  }

  /** The query's shape in Jolt: { shape, rotation (Quat, or null for the identity), toLocal, radius, halfAxis? }. */
  function bodyOf(req) {
    if (req.shape.kind !== 'capsule') return { shape: sphereOf(req.radius), rotation: null, toLocal: (v) => v };
    const c = yCapsule(req, info.shortName);
    const q = c.rotation;
    const shape = capsuleOf(c.halfHeight, c.radius);
    return { shape, rotation: new J.Quat(q.x, q.y, q.z, q.w), toLocal: c.toLocal, halfAxis: c.halfAxis };
  }

  const readPos = (p) => [p.GetX(), p.GetY(), p.GetZ()];

  function sweep(scene, body, start, d, tol) {
    rA.Set(start[0], start[1], start[2]);
    vA.Set(d[0], d[1], d[2]);
    // A capsule is cast in its rotation; the sphere's transform stays the plain translation.
    const at = body.rotation ? J.RMat44.prototype.sRotationTranslation(body.rotation, rA) : J.RMat44.prototype.sTranslation(rA);
    const cast = new J.RShapeCast(body.shape, one, at, vA);
    const cs = new J.ShapeCastSettings();
    cs.set_mCollisionTolerance(tol.sweep_collision_tolerance);
    cs.set_mPenetrationTolerance(tol.sweep_penetration_tolerance);
    const collector = new J.CastShapeClosestHitCollisionCollector();
    narrow.CastShape(cast, cs, origin, collector, bpFilter, objFilter, bodyFilter, shapeFilter);
    let out = { hit: false };
    if (collector.HadHit()) {
      const h = collector.get_mHit();
      out = { hit: true, time: h.get_mFraction(), triangle: scene.mesh.GetTriangleUserData(h.get_mSubShapeID2()) };
    }
    J.destroy(collector);
    J.destroy(cs);
    J.destroy(cast);
    return out;
  }

  /** A CharacterVirtual with the query's sphere or capsule at its start, in the scene. */
  function character(scene, req) {
    const tol = req.tolerances;
    const body = bodyOf(req);
    activate(scene);
    const up = upOf(req);

    const cvs = new J.CharacterVirtualSettings();
    cvs.mShape = body.shape;
    vA.Set(up[0], up[1], up[2]);
    cvs.mUp = vA;
    // In the local space of the character (its rotation: identity for a sphere, the capsule's
    // axis permutation), so its normal is the up axis.
    const localUp = body.toLocal(up);
    vB.Set(localUp[0], localUp[1], localUp[2]);
    const supporting = new J.Plane(vB, -1.0e10);
    cvs.mSupportingVolume = supporting;
    J.destroy(supporting);
    // Slope limits are walking policy, not collide-and-slide: off, so every surface slides.
    cvs.mMaxSlopeAngle = Math.PI;
    cvs.mCharacterPadding = tol.character_padding;
    // Jolt places the shape character_padding along up from GetPosition() (its feet then touch
    // the floor). An opposite shape offset, the same float product negated, cancels that exactly,
    // so the position is the sphere's centre: the start is the query's and the centre is reported.
    // The offset is in the character's local space: a capsule's rotation permutes it back exactly.
    const pad = Math.fround(tol.character_padding);
    const offset = body.toLocal([-(pad * Math.fround(up[0])), -(pad * Math.fround(up[1])), -(pad * Math.fround(up[2]))]);
    vB.Set(offset[0], offset[1], offset[2]);
    cvs.mShapeOffset = vB;
    cvs.mPenetrationRecoverySpeed = tol.penetration_recovery_speed;
    cvs.mPredictiveContactDistance = tol.predictive_contact_distance;
    cvs.mCollisionTolerance = tol.collision_tolerance;
    cvs.mMinTimeRemaining = tol.min_time_remaining;
    cvs.mHitReductionCosMaxAngle = tol.hit_reduction_cos_max_angle;
    rA.Set(req.start[0], req.start[1], req.start[2]);
    const cv = new J.CharacterVirtual(cvs, rA, body.rotation ?? J.Quat.prototype.sIdentity(), system);
    return {
      radius: body.shape.GetRadius(),
      halfAxis: body.halfAxis,
      position: () => readPos(cv.GetCenterOfMassPosition()),
      sweep: (from, d) => sweep(scene, body, from, d, tol),
      move(d) {
        vA.Set(d[0], d[1], d[2]);
        cv.SetLinearVelocity(vA);
        // Update's gravity argument only pushes a dynamic ground body; the scene is static.
        cv.Update(1, zero, bpFilter, objFilter, bodyFilter, shapeFilter, allocator);
      },
      free() {
        J.destroy(cv);
        J.destroy(cvs);
        if (body.rotation) J.destroy(body.rotation);
      },
    };
  }

  return { info, sceneKey, buildScene, freeScene, character };
}
