// A user's own collide-and-slide, registered with slidecheck: `own_slidecheck` is the slidecheck
// command with `face_slide` beside slidecheck's algorithms, so every command runs it at every
// level:
//   own_slidecheck verify --corpus DIR --algorithm face_slide --level-c
//   own_slidecheck search --algorithm face_slide
//
// face_slide is what many a first controller is: in eSpace (the unit sphere), find the earliest
// time at which the sphere meets a triangle's face (its plane, at a point inside the triangle),
// stop `skin` short of it, slide the rest of the move along the plane, up to `max_iterations`
// times. It ignores edges and vertices, so the verifier finds where it sinks into the mesh.
// Written once on the number type T, as the registry requires: slidecheck runs it in float and
// double, and exactly for level C. slide_in_espace divides every coordinate by the radius, so
// `skin` is in eSpace units: s world units on a sphere of radius r is s / r. The types used here
// (SlideInput, SlideResult, SlidePass, StopReason, Feature) are described in docs/judge.md.
#include <slidecheck/cli.hpp>
#include <slidecheck/reference/response/espace_slide.hpp>

#include <optional>

namespace my {

using namespace slidecheck;

struct FaceSlide {
  struct Tolerances {
    double skin = 1e-4;      ///< how far short of a contact the sphere stops (eSpace units: world / radius)
    int max_iterations = 5;  ///< slides per pass
  };
  static std::vector<verify::ToleranceField<Tolerances>> tolerance_fields() {
    return {{"skin", &Tolerances::skin}, {"max_iterations", nullptr, &Tolerances::max_iterations}};
  }
  static constexpr bool culls_back_faces = true;
  // Every test is on differences of points and its plane origins are in eSpace, so its exact run
  // commutes with translations: level C may run it relative to the query's start (docs/judge.md).
  static constexpr bool translation_invariant = true;

  /// The earliest face contact of the unit sphere moved from p by v: (time, unit normal, triangle).
  template <num::WithSqrt T>
  struct Hit {
    T time;
    Vec3<T> normal;
    std::size_t triangle;
  };
  template <num::WithSqrt T>
  static std::optional<Hit<T>> first_face_hit(const Vec3<T>& p, const Vec3<T>& v, const IndexedMesh<T>& mesh) {
    std::optional<Hit<T>> best;
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
      const Triangle<T> t = mesh.triangle(i);
      const Vec3<T> cross_n = cross(Vec3<T>(t.p1 - t.p0), Vec3<T>(t.p2 - t.p0));
      const T len = length(cross_n);
      if (len == T(0)) continue;
      const Vec3<T> n = cross_n / len;
      const T speed = dot(n, v);
      if (!(speed < T(0))) continue;  // moving away from the front face, or along it
      const T time = (dot(n, Vec3<T>(p - t.p0)) - T(1)) / -speed;
      if (time < T(0) || time > T(1) || (best && !(time < best->time))) continue;
      const Vec3<T> contact = p + v * time - n;
      bool inside = true;
      const Vec3<T>* corners[3] = {&t.p0, &t.p1, &t.p2};
      for (int k = 0; k < 3; ++k)
        inside = inside && dot(cross(Vec3<T>(*corners[(k + 1) % 3] - *corners[k]), Vec3<T>(contact - *corners[k])), n) >= T(0);
      if (inside) best = Hit<T>{time, n, i};
    }
    return best;
  }

  template <num::WithSqrt T, class Tracer>
  static SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol,
                                          Tracer&&) {
    const T skin = num::from_double<T>(tol.skin);
    return slide_in_espace(in, mesh, [&](Vec3<T> pos, Vec3<T> vel, const IndexedMesh<T>& m, SlidePass<T>& pass, int) {
      for (int i = 0; i < tol.max_iterations; ++i) {
        ++pass.iterations;
        const std::optional<Hit<T>> hit = first_face_hit(pos, vel, m);
        if (!hit) {
          pos = pos + vel;
          pass.path.push_back(pos);
          pass.stop = StopReason::reached_destination;
          return pos;
        }
        const T speed = length(vel);
        T advance = hit->time - skin / speed;
        if (advance < T(0)) advance = T(0);
        pos = pos + vel * advance;
        const Vec3<T> rest = vel * (T(1) - advance);
        vel = rest - hit->normal * dot(rest, hit->normal);
        pass.path.push_back(pos);
        pass.planes.push_back({hit->triangle, Feature::face, 0, pos, hit->normal});
      }
      pass.stop = StopReason::recursion_cap;
      return pos;
    });
  }
};

}  // namespace my

int main(int argc, char** argv) {
  return slidecheck::verify::run_cli(argc, argv, {slidecheck::verify::algorithm<my::FaceSlide>("face_slide")});
}
