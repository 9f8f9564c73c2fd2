#pragma once
// Bullet's btKinematicCharacterController driven one pass at a time (peers/bullet/README.md):
// a btPairCachingGhostObject with the query's body (bullet_body.hpp: a btSphereShape or a capsule)
// in a BulletPeer's world, one updateAction(world, 1) per pass, through the controller's public
// setters only.
//
// - a move pass walks by the displacement: setWalkDirection(displacement), the controller's
//   gravity set to zero and its vertical velocity to zero (setLinearVelocity(0)), so that it
//   neither falls nor keeps falling from an earlier pass;
// - a gravity pass walks by nothing and falls: setGravity(g) (its length is the fall per step;
//   its direction, fixed for the run, is the up axis) and setFallSpeed(|g|), vertical velocity
//   zero before the step, so a free fall drops |g| per pass, the query's gravity pass.
//
// Without gravity the up axis is +z (the corpora's). The controller turns its ghost whenever its up
// axis is set (setGravity, setUp: the rotation from the old up to the new), which for a capsule
// would tilt the axis by the rounding of that rotation: a capsule's ghost is put back into the
// identity rotation before every pass, so the capsule only translates, as the query's does.
// The controller's path inside a pass is
// observed where it places its ghost (RecordingBroadphase): the end of its step before it
// recovers from penetration, and after each recovery push; a step up that hits nothing is not
// placed, so its lift is not observed.
#include <slidecheck/peers/bullet_body.hpp>
#include <slidecheck/peers/bullet_peer.hpp>

#include <BulletDynamics/Character/btKinematicCharacterController.h>

#include <memory>
#include <utility>
#include <vector>

namespace slidecheck::peers {

/// The controller's settings that act as tolerances (lengths and the slope limit), with Bullet's
/// defaults read from Bullet's own objects.
struct CharacterSettings {
  using Scalar = btScalar;
  /// Constructor argument, no Bullet default: 0, as the corpora's moves are not stair climbs.
  Scalar step_height = 0;
  /// setMaxPenetrationDepth: only deeper contacts are recovered from (20 % per loop, 5 loops).
  Scalar max_penetration_depth = 0;
  /// btDispatcherInfo::m_allowedCcdPenetration: the controller's sweeps allow this overlap.
  Scalar allowed_ccd_penetration = 0;
  /// setMaxSlope (radians): steeper surfaces do not stop its vertical steps.
  Scalar max_slope = 0;

  static CharacterSettings bullet_defaults() {
    btPairCachingGhostObject ghost;
    btSphereShape shape(1);
    ghost.setCollisionShape(&shape);
    const btKinematicCharacterController kcc(&ghost, &shape, 0);
    CharacterSettings s;
    s.max_penetration_depth = kcc.getMaxPenetrationDepth();
    s.allowed_ccd_penetration = btDispatcherInfo().m_allowedCcdPenetration;
    s.max_slope = kcc.getMaxSlope();
    return s;
  }
};

/// One pass of the controller: where the ghost ended, and where it was put on the way.
struct CharacterPass {
  Vec3<btScalar> end;
  std::vector<Vec3<btScalar>> waypoints;  ///< between the pass's start and end, in order
};

/// One character in `peer`'s world from construction to destruction (one query).
class CharacterRun {
 public:
  using Scalar = btScalar;

  /// `body`: the character's shape (bullet_body), owned by the run.
  CharacterRun(BulletPeer& peer, const Vec3<Scalar>& start, BulletBody body, const Vec3<Scalar>& gravity,
               const CharacterSettings& settings)
      : peer_(peer),
        body_(std::move(body)),
        gravity_(gravity.x, gravity.y, gravity.z),
        falls_(gravity_.length2() > 0) {
    peer_.enable_ghosts();
    btTransform t;
    t.setIdentity();
    t.setOrigin(btVector3(start.x, start.y, start.z));
    ghost_.setWorldTransform(t);
    ghost_.setCollisionShape(body_.shape.get());
    ghost_.setCollisionFlags(btCollisionObject::CF_CHARACTER_OBJECT);
    peer_.world().addCollisionObject(&ghost_, btBroadphaseProxy::CharacterFilter,
                                     btBroadphaseProxy::StaticFilter | btBroadphaseProxy::DefaultFilter);
    kcc_ = std::make_unique<btKinematicCharacterController>(&ghost_, body_.shape.get(), settings.step_height,
                                                            falls_ ? -gravity_.normalized() : btVector3(0, 0, 1));
    kcc_->setMaxPenetrationDepth(settings.max_penetration_depth);
    kcc_->setMaxSlope(settings.max_slope);
    peer_.world().getDispatchInfo().m_allowedCcdPenetration = settings.allowed_ccd_penetration;
    if (falls_) kcc_->setFallSpeed(gravity_.length());
  }
  ~CharacterRun() {
    peer_.broadphase().watch(nullptr, nullptr);
    peer_.world().removeCollisionObject(&ghost_);
  }
  CharacterRun(const CharacterRun&) = delete;
  CharacterRun& operator=(const CharacterRun&) = delete;

  /// A move pass: walks by `displacement`, without falling.
  CharacterPass move(const Vec3<Scalar>& displacement) {
    kcc_->setLinearVelocity(btVector3(0, 0, 0));  // vertical velocity 0
    kcc_->setGravity(btVector3(0, 0, 0));         // no fall (keeps the up axis)
    kcc_->setWalkDirection(btVector3(displacement.x, displacement.y, displacement.z));
    return step();
  }

  /// A gravity pass: falls by the run's gravity, without walking.
  CharacterPass fall() {
    kcc_->setLinearVelocity(btVector3(0, 0, 0));
    kcc_->setGravity(gravity_);
    kcc_->setWalkDirection(btVector3(0, 0, 0));
    return step();
  }

 private:
  static Vec3<Scalar> vec(const btVector3& v) { return {v.x(), v.y(), v.z()}; }

  CharacterPass step() {
    if (body_.capsule) {
      btTransform t = ghost_.getWorldTransform();
      t.setBasis(btMatrix3x3::getIdentity());
      ghost_.setWorldTransform(t);
    }
    const btVector3 start = ghost_.getWorldTransform().getOrigin();
    std::vector<btVector3> placed;
    peer_.broadphase().watch(&ghost_, &placed);
    kcc_->updateAction(&peer_.world(), Scalar(1));
    peer_.broadphase().watch(nullptr, nullptr);
    const btVector3 end = ghost_.getWorldTransform().getOrigin();
    CharacterPass pass;
    pass.end = vec(end);
    // The polyline start, placed..., end without repeats; its inner points are the waypoints.
    btVector3 last = start;
    for (const btVector3& p : placed)
      if (!(p == last)) {
        pass.waypoints.push_back(vec(p));
        last = p;
      }
    while (!pass.waypoints.empty() && pass.waypoints.back() == pass.end) pass.waypoints.pop_back();
    return pass;
  }

  BulletPeer& peer_;
  BulletBody body_;
  btPairCachingGhostObject ghost_;
  btVector3 gravity_;
  bool falls_;
  std::unique_ptr<btKinematicCharacterController> kcc_;
};

}  // namespace slidecheck::peers
