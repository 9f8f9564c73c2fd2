#include <slidecheck/corpora/canonical_scenes.hpp>

#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/formats/convert.hpp>

#include <cmath>
#include <stdexcept>

namespace slidecheck::corpora {
namespace {

using V = Vec3<double>;

/// Builds a unit mesh; quads are split along their first diagonal into two CCW triangles.
class MeshBuilder {
 public:
  std::uint32_t vertex(double x, double y, double z) {
    mesh_.vertices.push_back({x, y, z});
    return static_cast<std::uint32_t>(mesh_.vertices.size() - 1);
  }
  void triangle(std::uint32_t a, std::uint32_t b, std::uint32_t c) { mesh_.triangles.push_back({a, b, c}); }
  /// a, b, c, d counter-clockwise seen from the open side.
  void quad(std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t d) {
    triangle(a, b, c);
    triangle(a, c, d);
  }
  void quad(const V& a, const V& b, const V& c, const V& d) {
    quad(vertex(a.x, a.y, a.z), vertex(b.x, b.y, b.z), vertex(c.x, c.y, c.z), vertex(d.x, d.y, d.z));
  }
  IndexedMesh<double> take() { return std::move(mesh_); }

 private:
  IndexedMesh<double> mesh_;
};

/// z = 0 over [x0,x1] x [y0,y1], facing +z.
void floor_quad(MeshBuilder& b, double x0, double x1, double y0, double y1, double z = 0) {
  b.quad(V{x0, y0, z}, V{x1, y0, z}, V{x1, y1, z}, V{x0, y1, z});
}

IndexedMesh<double> floor_mesh() {
  MeshBuilder b;
  floor_quad(b, -4, 4, -4, 4);
  return b.take();
}

/// Floor for x < 0, then a slope rising 1 in 2 along +x up to x = 4 (interior angle ~153 deg).
IndexedMesh<double> ramp_mesh() {
  MeshBuilder b;
  floor_quad(b, -4, 0, -2, 2);
  b.quad(V{0, -2, 0}, V{4, -2, 2}, V{4, 2, 2}, V{0, 2, 0});
  return b.take();
}

/// Five steps up along +x: rise 0.25 and run 0.5 (a typical stair against a 0.5 radius sphere).
IndexedMesh<double> stairs_mesh() {
  MeshBuilder b;
  floor_quad(b, -3, 0, -2, 2);
  for (int i = 0; i < 5; ++i) {
    const double x = 0.5 * i, z0 = 0.25 * i, z1 = 0.25 * (i + 1);
    b.quad(V{x, 2, z0}, V{x, -2, z0}, V{x, -2, z1}, V{x, 2, z1});  // riser, facing -x
    floor_quad(b, x, x + 0.5, -2, 2, z1);                            // tread, facing +z
  }
  return b.take();
}

/// Linahan's Fig. 2: floor meeting a 45 degree slope; the interior angle is obtuse (135 deg).
IndexedMesh<double> obtuse_corner_mesh() {
  MeshBuilder b;
  floor_quad(b, -4, 0, -2, 2);
  b.quad(V{0, -2, 0}, V{4, -2, 4}, V{4, 2, 4}, V{0, 2, 0});
  return b.take();
}

/// Linahan's Fig. 4: floor under a wall leaning over it at 1 in 4 (about 14 deg): an acute wedge
/// opening toward -x that a sphere moving along +x is driven into.
IndexedMesh<double> acute_corner_mesh() {
  MeshBuilder b;
  floor_quad(b, -8, 0, -2, 2);
  // The overhang rises from the floor's edge at x = 0 back over the floor, facing down into the wedge.
  b.quad(V{0, -2, 0}, V{-8, -2, 2}, V{-8, 2, 2}, V{0, 2, 0});
  return b.take();
}

/// Two slopes of 1 in 1 meeting in a crease along y (interior angle 90 deg).
IndexedMesh<double> v_trough_mesh() {
  MeshBuilder b;
  b.quad(V{-4, -4, 4}, V{0, -4, 0}, V{0, 4, 0}, V{-4, 4, 4});
  b.quad(V{0, -4, 0}, V{4, -4, 4}, V{4, 4, 4}, V{0, 4, 0});
  return b.take();
}

/// A nearly flat crease: slopes of 1 in 256 (interior angle within half a degree of 180).
IndexedMesh<double> shallow_crease_mesh() {
  MeshBuilder b;
  b.quad(V{-4, -4, 4.0 / 256}, V{0, -4, 0}, V{0, 4, 0}, V{-4, 4, 4.0 / 256});
  b.quad(V{0, -4, 0}, V{4, -4, 4.0 / 256}, V{4, 4, 4.0 / 256}, V{0, 4, 0});
  return b.take();
}

/// Floor with walls x = 0 and y = 0: the three-plane corner where motion must stop.
IndexedMesh<double> room_corner_mesh() {
  MeshBuilder b;
  floor_quad(b, 0, 4, 0, 4);
  b.quad(V{0, 0, 0}, V{0, 4, 0}, V{0, 4, 4}, V{0, 0, 4});  // wall x = 0 facing +x
  b.quad(V{0, 0, 0}, V{0, 0, 4}, V{4, 0, 4}, V{4, 0, 0});  // wall y = 0 facing +y
  return b.take();
}

/// Two planes closing at 1 in 64 (under one degree): a thin wedge the sphere cannot enter far.
IndexedMesh<double> thin_wedge_mesh() {
  MeshBuilder b;
  floor_quad(b, -8, 0, -2, 2);
  b.quad(V{0, -2, 0}, V{-8, -2, 0.125}, V{-8, 2, 0.125}, V{0, 2, 0});
  return b.take();
}

/// A floor of needles: 64 triangles fanned from one corner to vertices spaced 1/16 apart
/// along the far edge, each about 256 times longer than wide.
IndexedMesh<double> sliver_floor_mesh() {
  MeshBuilder b;
  const std::uint32_t apex = b.vertex(-4, 0, 0);
  std::uint32_t prev = b.vertex(4, -2, 0);
  for (int i = 1; i <= 64; ++i) {
    const std::uint32_t next = b.vertex(4, -2 + i / 16.0, 0);
    b.triangle(apex, prev, next);
    prev = next;
  }
  return b.take();
}

/// One floor triangle 2^14 units across beside the sphere's path: huge coordinates in the plane
/// equation of a triangle whose relevant part is small.
IndexedMesh<double> huge_triangle_mesh() {
  MeshBuilder b;
  const double s = 16384;
  b.triangle(b.vertex(-s, -s, 0), b.vertex(s, -s, 0), b.vertex(0, s, 0));
  return b.take();
}

/// A flat floor split into coplanar quads of different sizes: shared seams, and T-junctions
/// where a vertex of one row lies inside an edge of the next.
IndexedMesh<double> seams_mesh() {
  MeshBuilder b;
  for (int i = 0; i < 4; ++i) floor_quad(b, -4 + 2 * i, -2 + 2 * i, -2, 0);  // row of 2x2 quads
  for (int i = 0; i < 8; ++i) floor_quad(b, -4 + i, -3 + i, 0, 1);          // row of 1x1: T-junctions
  floor_quad(b, -4, 4, 1, 2);                                                // one long strip
  return b.take();
}

/// 8 x 8 heightfield cells of size 1, heights multiples of 1/16 from a fixed integer hash.
IndexedMesh<double> terrain_mesh() {
  MeshBuilder b;
  const int n = 8;
  std::vector<std::uint32_t> ids;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const unsigned h = static_cast<unsigned>((i * 73856093) ^ (j * 19349663)) % 17u;  // 0..16
      ids.push_back(b.vertex(i - n / 2, j - n / 2, h / 16.0));
    }
  auto id = [&](int i, int j) { return ids[static_cast<std::size_t>(j * (n + 1) + i)]; };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) b.quad(id(i, j), id(i + 1, j), id(i + 1, j + 1), id(i, j + 1));
  return b.take();
}

/// A closed 8 x 8 x 4 room seen from inside: every face points inward.
IndexedMesh<double> box_room_mesh() {
  MeshBuilder b;
  const double h = 4;
  floor_quad(b, -4, 4, -4, 4);                                         // floor, +z
  b.quad(V{-4, -4, h}, V{-4, 4, h}, V{4, 4, h}, V{4, -4, h});          // ceiling, -z
  b.quad(V{-4, -4, 0}, V{-4, -4, h}, V{4, -4, h}, V{4, -4, 0});        // y = -4, +y
  b.quad(V{-4, 4, 0}, V{4, 4, 0}, V{4, 4, h}, V{-4, 4, h});            // y = 4, -y
  b.quad(V{-4, -4, 0}, V{-4, 4, 0}, V{-4, 4, h}, V{-4, -4, h});        // x = -4, +x
  b.quad(V{4, -4, 0}, V{4, -4, h}, V{4, 4, h}, V{4, 4, 0});            // x = 4, -x
  return b.take();
}

/// A wall in the plane x over [y0,y1] x [z0,z1], facing +x (sign 1) or -x (sign -1).
void wall_x(MeshBuilder& b, double x, double y0, double y1, double z0, double z1, int sign) {
  if (sign > 0) b.quad(V{x, y0, z0}, V{x, y1, z0}, V{x, y1, z1}, V{x, y0, z1});
  else b.quad(V{x, y0, z0}, V{x, y0, z1}, V{x, y1, z1}, V{x, y1, z0});
}

/// A wall in the plane y over [x0,x1] x [z0,z1], facing +y (sign 1) or -y (sign -1).
void wall_y(MeshBuilder& b, double y, double x0, double x1, double z0, double z1, int sign) {
  if (sign > 0) b.quad(V{x0, y, z0}, V{x0, y, z1}, V{x1, y, z1}, V{x1, y, z0});
  else b.quad(V{x0, y, z0}, V{x1, y, z0}, V{x1, y, z1}, V{x0, y, z1});
}

/// z over [x0,x1] x [y0,y1], facing -z: a ceiling.
void ceiling_quad(MeshBuilder& b, double x0, double x1, double y0, double y1, double z) {
  b.quad(V{x0, y0, z}, V{x0, y1, z}, V{x1, y1, z}, V{x1, y0, z});
}

/// A wall 1/4 thick across x = 0 with a door 1 wide (|y| <= 1/2) and 2 high, on a floor, seen
/// from the approach side (-x): the wall's front, the jambs and the lintel's underside; its back
/// is left out, as every canonical shape is one-sided. A standing capsule's cylinder meets a
/// jamb's vertical edge along a line; a tall one's top cap meets the lintel's edge.
IndexedMesh<double> door_frame_mesh() {
  MeshBuilder b;
  const double t = 0.25, w = 0.5, h = 2, top = 3;
  floor_quad(b, -4, 4, -4, 4);
  wall_x(b, 0, -4, -w, 0, top, -1);
  wall_x(b, 0, w, 4, 0, top, -1);
  wall_x(b, 0, -w, w, h, top, -1);  // above the door: T-junctions with the sides' edges
  wall_y(b, -w, 0, t, 0, h, 1);     // jamb facing +y
  wall_y(b, w, 0, t, 0, h, -1);     // jamb facing -y
  ceiling_quad(b, 0, t, -w, w, h);  // lintel
  return b.take();
}

/// A floor with a ceiling 5/4 high over x >= 0, its slab's front face at x = 0: a standing
/// capsule (3/2 tall) meets the ceiling's front edge with its cylinder; a small one walks under.
IndexedMesh<double> low_ceiling_mesh() {
  MeshBuilder b;
  const double c = 1.25;
  floor_quad(b, -4, 4, -2, 2);
  ceiling_quad(b, 0, 4, -2, 2, c);
  wall_x(b, 0, -2, 2, c, 2, -1);
  return b.take();
}

/// A floor, a curb 1/8 high at x = 0 and a ledge 1 high at x = 2: a capsule's lower cap rolls
/// over the curb's edge going up and over the ledge's edge walking off it.
IndexedMesh<double> ledge_mesh() {
  MeshBuilder b;
  floor_quad(b, -4, 0, -2, 2);
  wall_x(b, 0, -2, 2, 0, 0.125, -1);
  floor_quad(b, 0, 2, -2, 2, 0.125);
  wall_x(b, 2, -2, 2, 0.125, 1, -1);
  floor_quad(b, 2, 4, -2, 2, 1);
  return b.take();
}

/// A wall 1/32 thick and 2 high across x = 0 on a floor, with both sides, its top and its ends:
/// thinner than any capsule, so a move through it tunnels if detection misses it.
IndexedMesh<double> thin_wall_mesh() {
  MeshBuilder b;
  const double t = 1.0 / 32, h = 2;
  floor_quad(b, -4, 4, -4, 4);
  wall_x(b, 0, -2, 2, 0, h, -1);
  wall_x(b, t, -2, 2, 0, h, 1);
  floor_quad(b, 0, t, -2, 2, h);
  wall_y(b, -2, 0, t, 0, h, -1);
  wall_y(b, 2, 0, t, 0, h, 1);
  return b.take();
}

std::vector<CanonicalShape> make_capsule_scenes() {
  return {
      {"door_frame", "a door 1 x 2 in a wall: the cylinder meets the jambs' edges, a tall capsule the lintel's", door_frame_mesh(), {-1, 0, 1}},
      {"low_ceiling", "a ceiling 5/4 high: the cylinder meets its front edge; small capsules pass under", low_ceiling_mesh(), {-1, 0, 1}},
      {"ledge", "a curb 1/8 and a ledge 1 high: the lower cap rolls over their edges", ledge_mesh(), {-1, 0, 3}},
      {"thin_wall", "a wall 1/32 thick with both sides: tunnelling through a wall thinner than the body", thin_wall_mesh(), {-1, 0, 3}},
  };
}

std::vector<CanonicalShape> make_shapes() {
  return {
      {"floor", "flat ground: resting contact, gravity, grazing moves", floor_mesh(), {0, 0, 1}},
      {"ramp", "floor into a 1:2 slope: sliding up and down an obtuse crease", ramp_mesh(), {0, 0, 10}},
      {"stairs", "five 0.25 x 0.5 steps: vertex and edge hits, climbing by sliding", stairs_mesh(), {-1, 0, 2}},
      {"obtuse_corner", "Linahan Fig. 2: floor and a 45 degree slope; jitter over repeated frames", obtuse_corner_mesh(), {0, 0, 10}},
      {"acute_corner", "Linahan Fig. 4: a wall leaning over the floor at 1:4; the freezing problem", acute_corner_mesh(), {-4, 0, 0.5}},
      {"v_trough", "a 90 degree V crease: motion constrained to a line", v_trough_mesh(), {0, 0, 1}},
      {"shallow_crease", "a crease within half a degree of flat: nearly parallel sliding planes", shallow_crease_mesh(), {0, 0, 1}},
      {"room_corner", "floor and two walls: three planes, motion must stop", room_corner_mesh(), {1, 1, 1}},
      {"thin_wedge", "planes closing at 1:64: near-zero crease angle", thin_wedge_mesh(), {-4, 0, 0.03125}},
      {"sliver_floor", "64 needle triangles 256:1: edge and vertex hits everywhere", sliver_floor_mesh(), {0, 0, 1}},
      {"huge_triangle", "one triangle 2^15 across: large plane constants, small contact", huge_triangle_mesh(), {0, 0, 1}},
      {"seams", "coplanar quads with shared seams and T-junctions: internal-edge snagging", seams_mesh(), {0, 0, 1}},
      {"terrain", "8 x 8 heightfield: many small creases at many angles", terrain_mesh(), {0, 0, 10}},
      {"box_room", "a closed room seen from inside: corners and creases on every side", box_room_mesh(), {0, 0, 2}},
  };
}

}  // namespace

const std::vector<CanonicalShape>& canonical_shapes() {
  static const std::vector<CanonicalShape> shapes = make_shapes();
  return shapes;
}

const CanonicalShape& canonical_shape(std::string_view name) {
  for (const auto& s : canonical_shapes())
    if (s.name == name) return s;
  std::string known;
  for (const auto& s : canonical_shapes()) known += (known.empty() ? "" : ", ") + s.name;
  throw std::invalid_argument("unknown canonical shape '" + std::string(name) + "' (known: " + known + ")");
}

const std::vector<CanonicalShape>& capsule_scenes() {
  static const std::vector<CanonicalShape> scenes = make_capsule_scenes();
  return scenes;
}

const CanonicalShape* find_scene(std::string_view name) {
  for (const auto* list : {&canonical_shapes(), &capsule_scenes()})
    for (const auto& s : *list)
      if (s.name == name) return &s;
  return nullptr;
}

std::vector<std::string> scene_names() {
  std::vector<std::string> names;
  for (const auto* list : {&canonical_shapes(), &capsule_scenes()})
    for (const auto& s : *list) names.push_back(s.name);
  return names;
}

IndexedMesh<double> place_canonical(const CanonicalShape& shape, double scale, double offset,
                                    formats::Precision precision) {
  const Rational s = num::from_double<Rational>(scale), o = num::from_double<Rational>(offset);
  auto place = [&](double unit) -> double {
    const Rational exact = num::from_double<Rational>(unit) * s + o;
    return precision == formats::Precision::single_float ? double(formats::round_to_nearest<float>(exact))
                                                     : formats::round_to_nearest<double>(exact);
  };
  return convert_mesh<double>(shape.unit_mesh, place);
}

const std::vector<double>& canonical_scales() {
  static const std::vector<double> v{1e-2, 1e-1, 1, 1e1, 1e2};
  return v;
}

const std::vector<double>& canonical_offsets() {
  static const std::vector<double> v{0, 1e2, 1e4, 1e6};
  return v;
}

IndexedMesh<double> sine_heightfield(int cells, double amplitude, double fx, double fy) {
  const int n = cells + 1;
  IndexedMesh<double> m;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      m.vertices.push_back({double(i), double(j), double(static_cast<float>(amplitude * std::sin(i * fx) * std::cos(j * fy)))});
  auto v = [n](int i, int j) { return static_cast<std::uint32_t>(i * n + j); };
  for (int i = 0; i + 1 < n; ++i)
    for (int j = 0; j + 1 < n; ++j) {
      m.triangles.push_back({v(i, j), v(i + 1, j), v(i + 1, j + 1)});
      m.triangles.push_back({v(i, j), v(i + 1, j + 1), v(i, j + 1)});
    }
  return m;
}

}  // namespace slidecheck::corpora
