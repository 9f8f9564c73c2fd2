#pragma once
// The query's body as a Bullet convex shape: a btSphereShape of its radius, or a capsule.
//
// Bullet's capsules lie along one coordinate axis with no rotation: btCapsuleShapeX, btCapsuleShape
// (Y) and btCapsuleShapeZ, each (radius, height) with height the distance between the centres of
// the two cap spheres ("the total height is height+2*radius",
// https://docs.ros.org/en/diamondback/api/bullet/html/classbtCapsuleShapeZ.html). slidecheck's capsule
// centre ± half_axis along x, y or z is therefore Bullet's capsule of that axis with height
// 2 |half_axis| (exact: a doubling), in the identity rotation. Any other axis would need a rotation
// that btScalar does not hold exactly, and is refused.
#include <slidecheck/reference/geometry/body/shape.hpp>

#include <btBulletCollisionCommon.h>

#include <cmath>
#include <memory>
#include <stdexcept>
#include <string>
#include <variant>

namespace slidecheck::peers {

/// A body Bullet can sweep and a character controller can carry.
struct BulletBody {
  std::unique_ptr<btConvexShape> shape;
  /// The shape as Bullet holds it (the query's, in btScalar), as the sweeps report it.
  Shape<double> held;
  /// A capsule's orientation matters: whoever moves it keeps it in the identity rotation.
  bool capsule = false;
};

/// Bullet's shape for `shape` (already in btScalar's precision). Throws std::invalid_argument for
/// an ellipsoid, or a capsule whose half axis is not along x, y or z, or whose height overflows.
inline BulletBody bullet_body(const Shape<double>& shape) {
  using Scalar = btScalar;
  BulletBody b;
  if (const auto* s = std::get_if<Sphere<double>>(&shape)) {
    b.shape = std::make_unique<btSphereShape>(Scalar(s->radius));
    b.held = Sphere<double>{double(Scalar(s->radius))};
    return b;
  }
  const auto* c = std::get_if<Capsule<double>>(&shape);
  if (c == nullptr) throw std::invalid_argument(std::string(shape_name(shape)) + "s are not supported by Bullet");
  const Vec3<double>& a = c->half_axis;
  const int along = (a.x != 0) + (a.y != 0) + (a.z != 0);
  if (along != 1)
    throw std::invalid_argument(
        "Bullet runs capsules whose half_axis is along x, y or z only (btCapsuleShapeX, btCapsuleShape, "
        "btCapsuleShapeZ; another axis needs a rotation btScalar does not hold exactly)");
  const Scalar radius = Scalar(c->radius);
  const Scalar half = Scalar(std::fabs(a.x != 0 ? a.x : (a.y != 0 ? a.y : a.z)));
  const Scalar height = half + half;
  if (!std::isfinite(height)) throw std::invalid_argument("the capsule's height 2 |half_axis| overflows btScalar");
  if (a.x != 0)
    b.shape = std::make_unique<btCapsuleShapeX>(radius, height);
  else if (a.y != 0)
    b.shape = std::make_unique<btCapsuleShape>(radius, height);
  else
    b.shape = std::make_unique<btCapsuleShapeZ>(radius, height);
  b.held = Capsule<double>{double(radius), {double(Scalar(a.x)), double(Scalar(a.y)), double(Scalar(a.z))}};
  b.capsule = true;
  return b;
}

}  // namespace slidecheck::peers
