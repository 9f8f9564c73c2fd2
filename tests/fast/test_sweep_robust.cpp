// fast/'s first_blocking_contact_by_entry (sweep_robust.hpp) against the reference's
// first_blocking_contact: the same contact, field by field, on random triangle soups with
// duplicated triangles (ties decided by the index), grazing and long moves, offsets to 2^16.
#include <slidecheck/fast/sweep_robust.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <bit>
#include <cmath>
#include <vector>

using namespace slidecheck;

namespace {

bool same(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

}  // namespace

RC_BOOST_PROP(by_entry_is_the_reference_contact, ()) {
  const double scale = std::ldexp(1.0, *rc::gen::inRange(-6, 7));
  const double offset = *rc::gen::element(0.0, 1.0, 1000.0, 65536.0) * scale;
  auto coord = [&] { return offset + scale * *rc::gen::inRange(-3000, 3001) / 1000.0; };
  const Vec3<double> center(coord(), coord(), coord());
  const double reach = scale * *rc::gen::element(1, 100, 4000, 20000) / 1000.0;
  auto component = [&] { return reach * *rc::gen::inRange(-1000, 1001) / 1000.0; };
  Vec3<double> move(component(), component(), component());
  if (*rc::gen::inRange(0, 4) == 0) move.z = 0;  // moves in a plane: ties and grazing contacts
  const double radius = scale * *rc::gen::inRange(1, 2000) / 1000.0;
  // Triangles scattered in the box, and small ones along the path (several contacts at
  // different times: the order they are visited in matters), some duplicated (equal times).
  IndexedMesh<double> mesh;
  const int n = *rc::gen::inRange(1, 60);
  for (int i = 0; i < n; ++i) {
    const auto k = static_cast<std::uint32_t>(mesh.vertices.size());
    const int kind = *rc::gen::inRange(0, 4);
    if (i > 0 && kind == 0) {  // a duplicate: the same times, a higher index
      const Triangle<double> t = mesh.triangle(*rc::gen::inRange<std::size_t>(0, mesh.triangle_count()));
      mesh.vertices.insert(mesh.vertices.end(), {t.p0, t.p1, t.p2});
    } else if (kind == 1) {
      for (int v = 0; v < 3; ++v) mesh.vertices.push_back({coord(), coord(), coord()});
    } else {
      const double along = *rc::gen::inRange(0, 1001) / 1000.0;
      const Vec3<double> p = center + move * along;
      auto near = [&] { return radius * *rc::gen::inRange(-2000, 2001) / 1000.0; };
      for (int v = 0; v < 3; ++v) mesh.vertices.push_back({p.x + near(), p.y + near(), p.z + near()});
    }
    mesh.triangles.push_back({k, k + 1, k + 2});
  }
  std::vector<std::pair<double, std::uint32_t>> by_entry;
  const auto fast_contact = fast::first_blocking_contact_by_entry(center, move, radius, mesh, by_entry);
  const auto ref = robust::first_blocking_contact(center, move, radius, mesh);
  RC_ASSERT(fast_contact.has_value() == ref.has_value());
  RC_CLASSIFY(ref.has_value(), "hit");
  if (!ref) return;
  RC_ASSERT(fast_contact->triangle == ref->triangle);
  RC_ASSERT(same(fast_contact->time, ref->time));
  RC_ASSERT(same(fast_contact->contact_point.x, ref->contact_point.x));
  RC_ASSERT(same(fast_contact->contact_point.y, ref->contact_point.y));
  RC_ASSERT(same(fast_contact->contact_point.z, ref->contact_point.z));
  RC_ASSERT(fast_contact->feature == ref->feature);
  RC_ASSERT(fast_contact->feature_index == ref->feature_index);
  RC_ASSERT(fast_contact->at_start == ref->at_start);
}
