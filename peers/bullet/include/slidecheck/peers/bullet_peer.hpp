#pragma once
// The Bullet peer (Debian libbullet-dev 3.24): the swept sphere engine games ship today, on the
// same mesh and the same queries as slidecheck. One static btBvhTriangleMeshShape (quantized AABB
// tree, Bullet's default for levels) in a btCollisionWorld; a btSphereShape is swept against it
// with btCollisionWorld::convexSweepTest, which reports the closest hit fraction and the hit
// triangle's index in the mesh (the scene's order: every triangle is given to Bullet, in order).
// The same world also carries btKinematicCharacterController runs (bullet_character.hpp).
//
// btScalar is float in Bullet's default build (pkg-config `bullet`) and double in its float64
// build (`bullet-float64`, BT_USE_DOUBLE_PRECISION). The two cannot be linked into one binary,
// so every target including this header is built once per precision (peers/bullet and
// benchmarks/fast) and compares against slidecheck in the same precision.
#include <slidecheck/reference/geometry/shapes.hpp>

#include <btBulletCollisionCommon.h>
#include <BulletCollision/CollisionDispatch/btGhostObject.h>

#include <cstddef>
#include <memory>
#include <vector>

namespace slidecheck::peers {

/// Bullet's dynamic AABB tree broadphase, which can also record where one watched object is each
/// time its box is moved. btKinematicCharacterController moves its ghost's box exactly when it
/// recovers from penetration (after each step, and after a step up that hit something), so the
/// record is every place the controller put its ghost; nothing Bullet computes changes.
class RecordingBroadphase : public btDbvtBroadphase {
 public:
  void watch(const btCollisionObject* object, std::vector<btVector3>* record) {
    watched_ = object;
    record_ = record;
  }
  void setAabb(btBroadphaseProxy* proxy, const btVector3& aabbMin, const btVector3& aabbMax,
               btDispatcher* dispatcher) override {
    if (record_ && watched_ && proxy->m_clientObject == watched_)
      record_->push_back(watched_->getWorldTransform().getOrigin());
    btDbvtBroadphase::setAabb(proxy, aabbMin, aabbMax, dispatcher);
  }

 private:
  const btCollisionObject* watched_ = nullptr;
  std::vector<btVector3>* record_ = nullptr;
};

class BulletPeer {
 public:
  using Scalar = btScalar;

  struct Sweep {
    bool hit = false;
    Scalar fraction = 1;  ///< Bullet's m_closestHitFraction (1 without a hit)
    Vec3<Scalar> end;     ///< from + fraction (to - from), computed in btScalar as Bullet users do
    int triangle = -1;    ///< the hit triangle's index in the mesh (-1 without a hit)
  };

  /// The mesh's coordinates are rounded once to btScalar (exact when they are already floats);
  /// every triangle is kept, degenerate ones included, so Bullet's triangle index is the mesh's.
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
    broadphase_ = std::make_unique<RecordingBroadphase>();
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

  /// Any convex shape swept from `from` to `from + velocity` (as users call it: two transforms)
  /// against the mesh only (not against a character in the world). `allowed_penetration` is
  /// convexSweepTest's allowedCcdPenetration argument (Bullet's default: 0).
  Sweep sweep(const btConvexShape& shape, const Vec3<Scalar>& from, const Vec3<Scalar>& velocity,
              Scalar allowed_penetration = Scalar(0)) const {
    const btVector3 a(from.x, from.y, from.z);
    const btVector3 b(from.x + velocity.x, from.y + velocity.y, from.z + velocity.z);
    btTransform ta, tb;
    ta.setIdentity();
    tb.setIdentity();
    ta.setOrigin(a);
    tb.setOrigin(b);
    ClosestMeshHit cb(a, b, object_.get());
    world_->convexSweepTest(&shape, ta, tb, cb, allowed_penetration);
    Sweep s;
    s.hit = cb.hasHit();
    s.fraction = s.hit ? cb.m_closestHitFraction : Scalar(1);
    s.triangle = s.hit ? cb.triangle : -1;
    s.end = {from.x + velocity.x * s.fraction, from.y + velocity.y * s.fraction, from.z + velocity.z * s.fraction};
    return s;
  }

  /// The world, for character controllers (bullet_character.hpp).
  btCollisionWorld& world() { return *world_; }
  RecordingBroadphase& broadphase() { return *broadphase_; }

  /// Installs the btGhostPairCallback through which the broadphase feeds ghost objects' pair
  /// caches (what a btKinematicCharacterController's sweeps test); once per world.
  void enable_ghosts() {
    if (ghost_callback_) return;
    ghost_callback_ = std::make_unique<btGhostPairCallback>();
    broadphase_->getOverlappingPairCache()->setInternalGhostPairCallback(ghost_callback_.get());
  }

  /// Bytes of Bullet's optimized BVH (its quantized nodes), for comparison with fast's.
  std::size_t bvh_bytes() const {
    btOptimizedBvh* bvh = shape_->getOptimizedBvh();  // Bullet offers no const accessors
    return bvh ? std::size_t(bvh->getQuantizedNodeArray().size()) * sizeof(btQuantizedBvhNode) +
                     std::size_t(bvh->getSubtreeInfoArray().size()) * sizeof(btBvhSubtreeInfo)
               : 0;
  }

 private:
  /// Bullet's closest-hit callback restricted to the mesh, keeping the hit triangle's index
  /// (LocalShapeInfo: part 0, the triangle's index in the index array).
  struct ClosestMeshHit : btCollisionWorld::ClosestConvexResultCallback {
    ClosestMeshHit(const btVector3& from, const btVector3& to, const btCollisionObject* mesh)
        : ClosestConvexResultCallback(from, to), mesh_(mesh) {}
    bool needsCollision(btBroadphaseProxy* proxy) const override {
      return proxy->m_clientObject == mesh_ && ClosestConvexResultCallback::needsCollision(proxy);
    }
    btScalar addSingleResult(btCollisionWorld::LocalConvexResult& r, bool normalInWorldSpace) override {
      // Bullet calls this only for a hit at most as far as the closest so far: the last one wins.
      triangle = r.m_localShapeInfo ? r.m_localShapeInfo->m_triangleIndex : -1;
      return ClosestConvexResultCallback::addSingleResult(r, normalInWorldSpace);
    }
    const btCollisionObject* mesh_;
    int triangle = -1;
  };

  std::vector<Scalar> vertices_;
  std::vector<int> indices_;
  std::unique_ptr<btTriangleIndexVertexArray> array_;
  std::unique_ptr<btBvhTriangleMeshShape> shape_;
  std::unique_ptr<btCollisionObject> object_;
  std::unique_ptr<btDefaultCollisionConfiguration> config_;
  std::unique_ptr<btCollisionDispatcher> dispatcher_;
  std::unique_ptr<RecordingBroadphase> broadphase_;
  std::unique_ptr<btCollisionWorld> world_;
  std::unique_ptr<btGhostPairCallback> ghost_callback_;
  btSphereShape sphere_;
};

}  // namespace slidecheck::peers
