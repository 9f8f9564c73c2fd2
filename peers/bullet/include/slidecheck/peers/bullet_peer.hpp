#pragma once
// The Bullet peer (Debian libbullet-dev 3.24): the swept sphere engine games ship today, on the
// same mesh and the same queries as slidecheck. A btSphereShape is swept with
// btCollisionWorld::convexSweepTest against one static btBvhTriangleMeshShape (quantized AABB
// tree, Bullet's default for levels); the closest hit fraction is returned. The same world also
// carries btKinematicCharacterController runs (walk_character): a btPairCachingGhostObject with
// a btSphereShape, stepped once per frame.
//
// btScalar is float in Bullet's default build (pkg-config `bullet`) and double in its float64
// build (`bullet-float64`, BT_USE_DOUBLE_PRECISION). The two cannot be linked into one binary,
// so every target including this header is built once per precision (peers/bullet and
// benchmarks/fast) and compares against slidecheck in the same precision.
#include <slidecheck/reference/geometry/shapes.hpp>

#include <btBulletCollisionCommon.h>
#include <BulletCollision/CollisionDispatch/btGhostObject.h>
#include <BulletDynamics/Character/btKinematicCharacterController.h>

#include <cmath>
#include <memory>
#include <vector>

namespace slidecheck::peers {

class BulletPeer {
 public:
  using Scalar = btScalar;

  struct Sweep {
    bool hit = false;
    Scalar fraction = 1;  ///< Bullet's m_closestHitFraction (1 without a hit)
    Vec3<Scalar> end;     ///< from + fraction (to - from), computed in btScalar as Bullet users do
  };

  /// The mesh's coordinates are rounded once to btScalar (exact when they are already floats).
  explicit BulletPeer(const IndexedMesh<double>& mesh, Scalar radius = 1) : sphere_(radius) {
    for (const auto& v : mesh.vertices) {
      vertices_.push_back(Scalar(v.x));
      vertices_.push_back(Scalar(v.y));
      vertices_.push_back(Scalar(v.z));
    }
    for (const auto& t : mesh.triangles)
      for (int k = 0; k < 3; ++k) indices_.push_back(int(t[std::size_t(k)]));
    btIndexedMesh im;
    im.m_numTriangles = int(mesh.triangle_count());
    im.m_triangleIndexBase = reinterpret_cast<const unsigned char*>(indices_.data());
    im.m_triangleIndexStride = 3 * sizeof(int);
    im.m_numVertices = int(mesh.vertices.size());
    im.m_vertexBase = reinterpret_cast<const unsigned char*>(vertices_.data());
    im.m_vertexStride = 3 * sizeof(Scalar);
    im.m_indexType = PHY_INTEGER;
    im.m_vertexType = sizeof(Scalar) == 4 ? PHY_FLOAT : PHY_DOUBLE;
    array_ = std::make_unique<btTriangleIndexVertexArray>();
    array_->addIndexedMesh(im, PHY_INTEGER);
    shape_ = std::make_unique<btBvhTriangleMeshShape>(array_.get(), /*useQuantizedAabbCompression=*/true);
    object_ = std::make_unique<btCollisionObject>();
    object_->setCollisionShape(shape_.get());
    config_ = std::make_unique<btDefaultCollisionConfiguration>();
    dispatcher_ = std::make_unique<btCollisionDispatcher>(config_.get());
    broadphase_ = std::make_unique<btDbvtBroadphase>();
    world_ = std::make_unique<btCollisionWorld>(dispatcher_.get(), broadphase_.get(), config_.get());
    world_->addCollisionObject(object_.get());
    world_->updateAabbs();
  }
  ~BulletPeer() {
    if (ghost_callback_) broadphase_->getOverlappingPairCache()->setInternalGhostPairCallback(nullptr);
    world_->removeCollisionObject(object_.get());
  }
  BulletPeer(const BulletPeer&) = delete;
  BulletPeer& operator=(const BulletPeer&) = delete;

  /// The sphere of the constructor's radius swept from `from` to `from + velocity`.
  Sweep sweep(const Vec3<Scalar>& from, const Vec3<Scalar>& velocity) const { return sweep(sphere_, from, velocity); }

  /// Any convex shape swept from `from` to `from + velocity` (as users call it: two transforms).
  Sweep sweep(const btConvexShape& shape, const Vec3<Scalar>& from, const Vec3<Scalar>& velocity) const {
    const btVector3 a(from.x, from.y, from.z);
    const btVector3 b(from.x + velocity.x, from.y + velocity.y, from.z + velocity.z);
    btTransform ta, tb;
    ta.setIdentity();
    tb.setIdentity();
    ta.setOrigin(a);
    tb.setOrigin(b);
    btCollisionWorld::ClosestConvexResultCallback cb(a, b);
    world_->convexSweepTest(&shape, ta, tb, cb);
    Sweep s;
    s.hit = cb.hasHit();
    s.fraction = s.hit ? cb.m_closestHitFraction : Scalar(1);
    s.end = {from.x + velocity.x * s.fraction, from.y + velocity.y * s.fraction, from.z + velocity.z * s.fraction};
    return s;
  }

  /// What one btKinematicCharacterController run did.
  struct Walk {
    std::vector<Vec3<Scalar>> ends;  ///< the ghost object's origin after each frame
    /// Frames whose sweeps saw no object: after preStep the ghost's pair cache was empty (it holds
    /// the objects whose broadphase box overlaps the character's box where the frame starts).
    int frames_without_pair = 0;
  };

  /// A btKinematicCharacterController (sphere of `radius`, step height `step_height`) walked
  /// from `start` by `walk` per frame for `frames` frames, updateAction(world, 1) once per frame.
  /// `gravity` is the fall per frame: the controller's gravity (its length; its direction sets
  /// the up axis) and its fall speed clamp are both |gravity| with a time step of 1, so a free
  /// fall drops exactly that far each frame. Without gravity the up axis is +z (the corpora's).
  Walk walk_character(const Vec3<Scalar>& start, const Vec3<Scalar>& walk, const Vec3<Scalar>& gravity, Scalar radius,
                      int frames, Scalar step_height = 0) {
    if (!ghost_callback_) {  // the ghost's pair cache is fed by the broadphase through this
      ghost_callback_ = std::make_unique<btGhostPairCallback>();
      broadphase_->getOverlappingPairCache()->setInternalGhostPairCallback(ghost_callback_.get());
    }
    btSphereShape shape(radius);
    btPairCachingGhostObject ghost;
    btTransform t;
    t.setIdentity();
    t.setOrigin(btVector3(start.x, start.y, start.z));
    ghost.setWorldTransform(t);
    ghost.setCollisionShape(&shape);
    ghost.setCollisionFlags(btCollisionObject::CF_CHARACTER_OBJECT);
    world_->addCollisionObject(&ghost, btBroadphaseProxy::CharacterFilter,
                               btBroadphaseProxy::StaticFilter | btBroadphaseProxy::DefaultFilter);
    const btVector3 g(gravity.x, gravity.y, gravity.z);
    const bool falls = g.length2() > 0;
    btKinematicCharacterController kcc(&ghost, &shape, step_height, falls ? -g.normalized() : btVector3(0, 0, 1));
    kcc.setGravity(g);  // its length, 0 without gravity (the default would be 29.4)
    if (falls) kcc.setFallSpeed(g.length());
    kcc.setWalkDirection(btVector3(walk.x, walk.y, walk.z));
    Walk out;
    for (int k = 0; k < frames; ++k) {
      // updateAction(world, 1) is exactly these two calls (btKinematicCharacterController.h);
      // between them the ghost's pair cache holds what the frame's sweeps will see.
      kcc.preStep(world_.get());
      out.frames_without_pair += ghost.getNumOverlappingObjects() == 0;
      kcc.playerStep(world_.get(), Scalar(1));
      const btVector3& p = ghost.getWorldTransform().getOrigin();
      out.ends.push_back({p.x(), p.y(), p.z()});
    }
    world_->removeCollisionObject(&ghost);
    return out;
  }

  /// Bytes of Bullet's optimized BVH (its quantized nodes), for comparison with fast's.
  std::size_t bvh_bytes() const {
    btOptimizedBvh* bvh = shape_->getOptimizedBvh();  // Bullet offers no const accessors
    return bvh ? std::size_t(bvh->getQuantizedNodeArray().size()) * sizeof(btQuantizedBvhNode) +
                     std::size_t(bvh->getSubtreeInfoArray().size()) * sizeof(btBvhSubtreeInfo)
               : 0;
  }

 private:
  std::vector<Scalar> vertices_;
  std::vector<int> indices_;
  std::unique_ptr<btTriangleIndexVertexArray> array_;
  std::unique_ptr<btBvhTriangleMeshShape> shape_;
  std::unique_ptr<btCollisionObject> object_;
  std::unique_ptr<btDefaultCollisionConfiguration> config_;
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<btDbvtBroadphase> broadphase_;
  std::unique_ptr<btCollisionWorld> world_;
  std::unique_ptr<btGhostPairCallback> ghost_callback_;
  btSphereShape sphere_;
};

}  // namespace slidecheck::peers
