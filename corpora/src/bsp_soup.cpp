// Draw-surface and collision-brush soups of a Quake III map.
#include <slidecheck/corpora/bsp_soup.hpp>
#include <slidecheck/corpora/errors.hpp>
#include <slidecheck/formats/convert.hpp>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <unordered_map>

namespace slidecheck::corpora {

namespace {

using bsp::BspFile;
using bsp::SurfaceType;

const bsp::Model& world_model(const BspFile& map) {
  if (map.models.empty()) throw FormatError(map.name, "lump 'models'", "no model 0 (the world)");
  return map.models[0];
}

/// Bit pattern of a double with -0 folded into +0, for hashing exact coordinates.
std::uint64_t key_bits(double x) { return std::bit_cast<std::uint64_t>(x + 0.0); }

struct TripleHash {
  std::size_t operator()(const std::array<std::uint64_t, 3>& k) const {
    std::size_t h = 0;
    for (std::uint64_t v : k) h = (h ^ std::hash<std::uint64_t>{}(v)) * 0x100000001b3ULL;
    return h;
  }
};

/// Shares vertices of a double mesh by exact value.
class DoubleVertexPool {
 public:
  explicit DoubleVertexPool(IndexedMesh<double>& mesh) : mesh_(mesh) {}
  std::uint32_t add(double x, double y, double z) {
    x += 0.0, y += 0.0, z += 0.0;  // -0 becomes +0: one vertex per point
    const std::array<std::uint64_t, 3> key{key_bits(x), key_bits(y), key_bits(z)};
    const auto [it, inserted] = index_.try_emplace(key, std::uint32_t(mesh_.vertices.size()));
    if (inserted) mesh_.vertices.push_back({x, y, z});
    return it->second;
  }

 private:
  IndexedMesh<double>& mesh_;
  std::unordered_map<std::array<std::uint64_t, 3>, std::uint32_t, TripleHash> index_;
};

// --- draw surfaces ---------------------------------------------------------------------------

/// Adds triangle (a, b, c) unless two of its vertices are the same point.
bool add_triangle(DrawSoup& soup, std::uint32_t a, std::uint32_t b, std::uint32_t c, std::uint32_t surface) {
  if (a == b || b == c || a == c) {
    ++soup.degenerate_dropped;
    return false;
  }
  soup.mesh.triangles.push_back({a, b, c});
  soup.surface_of_triangle.push_back(surface);
  return true;
}

/// Tessellates a patch surface: a (w x h) grid of control points is ((w-1)/2) x ((h-1)/2)
/// biquadratic Bezier patches sharing their border rows; each is sampled at u, v = k / L.
/// B(u, v) = sum_ij b_i(u) b_j(v) C_ij with b = ((1-u)^2, 2u(1-u), u^2). With u = k/L the
/// weights are integers over L^4, so the sum is formed exactly in rationals and rounded once.
void tessellate_patch(const BspFile& map, std::uint32_t surface_index, int L, DoubleVertexPool& pool,
                      DrawSoup& soup) {
  const bsp::Surface& s = map.surfaces[surface_index];
  const int w = s.patch_width, h = s.patch_height;
  const int pw = (w - 1) / 2, ph = (h - 1) / 2;
  const int gw = pw * L + 1, gh = ph * L + 1;
  auto control = [&](int col, int row) -> const bsp::DrawVert& {
    return map.drawverts[std::size_t(s.first_vert + row * w + col)];
  };
  // Integer Bernstein weights times L^2: (L-k)^2, 2k(L-k), k^2.
  auto weight = [L](int i, int k) -> long { return i == 0 ? long(L - k) * (L - k) : i == 1 ? 2L * k * (L - k) : long(k) * k; };
  const Rational denominator = Rational(long(L) * L) * Rational(long(L) * L);

  std::vector<std::uint32_t> grid(std::size_t(gw) * std::size_t(gh));
  for (int gy = 0; gy < gh; ++gy) {
    const int py = std::min(gy / L, ph - 1), kv = gy - py * L;
    for (int gx = 0; gx < gw; ++gx) {
      const int px = std::min(gx / L, pw - 1), ku = gx - px * L;
      std::array<double, 3> p{};
      for (int a = 0; a < 3; ++a) {
        Rational sum = 0;
        for (int j = 0; j < 3; ++j)
          for (int i = 0; i < 3; ++i) {
            const long wij = weight(i, ku) * weight(j, kv);
            if (wij != 0) sum += Rational(wij) * Rational(double(control(2 * px + i, 2 * py + j).position[a]));
          }
        p[a] = formats::round_to_nearest<double>(sum / denominator);
      }
      grid[std::size_t(gy) * gw + gx] = pool.add(p[0], p[1], p[2]);
    }
  }
  // u runs along a control row (+column), v down the columns (+row). The drawvert normals of
  // the shipped maps point along du x dv (checked on every 3 x 3 block of the 50 OpenArena maps),
  // so each cell is wound (a, b, d), (a, d, c): counter-clockwise seen from that side.
  for (int gy = 0; gy + 1 < gh; ++gy)
    for (int gx = 0; gx + 1 < gw; ++gx) {
      const std::uint32_t a = grid[std::size_t(gy) * gw + gx], b = grid[std::size_t(gy) * gw + gx + 1];
      const std::uint32_t c = grid[std::size_t(gy + 1) * gw + gx], d = grid[std::size_t(gy + 1) * gw + gx + 1];
      soup.patch_triangles += add_triangle(soup, a, b, d, surface_index);
      soup.patch_triangles += add_triangle(soup, a, d, c, surface_index);
    }
}

}  // namespace

DrawSoup extract_draw_soup(const BspFile& map, const DrawSoupOptions& options) {
  if (options.patch_subdivisions < 1 || options.patch_subdivisions > 64)
    throw std::invalid_argument("patch_subdivisions must be in [1, 64]");
  const bsp::Model& world = world_model(map);
  DrawSoup soup;
  soup.filter = options.filter;
  soup.patch_subdivisions = options.patch_subdivisions;
  DoubleVertexPool pool(soup.mesh);
  std::vector<std::uint32_t> local;  // drawvert offset -> soup vertex, per surface
  for (std::int32_t k = 0; k < world.num_surfaces; ++k) {
    const std::uint32_t si = std::uint32_t(world.first_surface + k);
    const bsp::Surface& s = map.surfaces[si];
    if (s.type == SurfaceType::flare) {
      ++soup.flares_skipped;
      continue;
    }
    if (options.filter == SurfaceFilter::solid && !(map.shaders[std::size_t(s.shader)].contents & bsp::kContentsSolid)) {
      ++soup.nonsolid_skipped;
      continue;
    }
    ++soup.surfaces_used;
    if (s.type == SurfaceType::patch) {
      tessellate_patch(map, si, options.patch_subdivisions, pool, soup);
      continue;
    }
    local.assign(std::size_t(s.num_verts), 0);
    for (std::int32_t v = 0; v < s.num_verts; ++v) {
      const auto& pos = map.drawverts[std::size_t(s.first_vert + v)].position;
      local[std::size_t(v)] = pool.add(pos[0], pos[1], pos[2]);  // float -> double: exact
    }
    std::size_t& count = s.type == SurfaceType::planar ? soup.planar_triangles : soup.soup_triangles;
    for (std::int32_t t = 0; t + 2 < s.num_indexes; t += 3) {
      const std::int32_t* idx = &map.drawindexes[std::size_t(s.first_index + t)];
      // The file winds triangles clockwise seen from the front: reversed, fewer than 0.2% of the
      // planar triangles of the 50 OpenArena maps face against their surface's stored normal.
      count += add_triangle(soup, local[std::size_t(idx[0])], local[std::size_t(idx[2])], local[std::size_t(idx[1])], si);
    }
  }
  return soup;
}

// --- collision brushes ---------------------------------------------------------------------

namespace {

/// Half the side of the box the initial face polygons span. Brushes reaching beyond it are
/// reported as unbounded; Quake III maps stay within +-2^17 (MAX_WORLD_COORD).
constexpr long kClipExtent = 1L << 20;

/// dot(n, p) = d, inside where dot(n, p) <= d.
struct ExactPlane {
  Vec3<Rational> n;
  Rational d;
};

/// The point on three planes (Cramer's rule): p = (d1 (n2 x n3) + d2 (n3 x n1) + d3 (n1 x n2)) / det.
Vec3<Rational> intersect(const ExactPlane& a, const ExactPlane& b, const ExactPlane& c) {
  const Vec3<Rational> bc = cross(b.n, c.n), ca = cross(c.n, a.n), ab = cross(a.n, b.n);
  const Rational det = dot(a.n, bc);
  if (det == 0) throw std::logic_error("brush clipping intersected three planes without a common point");
  return (bc * a.d + ca * b.d + ab * c.d) / det;
}

/// A brush plane with its exact value and its float value (as double, exact).
struct BrushPlane {
  ExactPlane exact;
  std::array<double, 4> approx;  ///< normal, dist
};

/// A polygon corner, exact, with a double approximation (within 1 ulp per coordinate).
struct BrushPoint {
  Vec3<Rational> exact;
  std::array<double, 3> approx;
};

/// Sign of dot(n, x) - d. A static filter first (Shewchuk's idea, "Adaptive Precision
/// Floating-Point Arithmetic", 1997): evaluated in double from the approximate point, the error
/// is at most 2u * sum|n_k x_k| (the point's approximation) plus gamma_4 * (sum|n_k x_k| + |d|)
/// (the evaluation), u = 2^-53; a result beyond 16u times that magnitude, plus an absolute term
/// that covers underflow, has the exact sign. Otherwise the sign is computed exactly.
int side(const BrushPlane& p, const BrushPoint& x) {
  const auto& n = p.approx;
  const double value = n[0] * x.approx[0] + n[1] * x.approx[1] + n[2] * x.approx[2] - n[3];
  const double magnitude = std::fabs(n[0] * x.approx[0]) + std::fabs(n[1] * x.approx[1]) +
                           std::fabs(n[2] * x.approx[2]) + std::fabs(n[3]);
  const double bound = magnitude * 0x1p-49 + 0x1p-960;
  if (value > bound) return 1;
  if (value < -bound) return -1;
  const Rational s = dot(p.exact.n, x.exact) - p.exact.d;
  return s.sign();
}

struct PolygonVertex {
  std::uint32_t point;  ///< index into the brush's point pool
  int edge;             ///< plane bounding the edge from this vertex to the next
};

/// The points of one brush, keyed by the (sorted) planes they are the intersection of.
class BrushPoints {
 public:
  explicit BrushPoints(const std::vector<BrushPlane>& planes) : planes_(planes) {}
  std::uint32_t get(int a, int b, int c) {
    std::array<int, 3> key{a, b, c};
    std::sort(key.begin(), key.end());
    const auto [it, inserted] = index_.try_emplace(key, std::uint32_t(points.size()));
    if (inserted) {
      BrushPoint p;
      p.exact = intersect(planes_[std::size_t(a)].exact, planes_[std::size_t(b)].exact, planes_[std::size_t(c)].exact);
      p.approx = {p.exact.x.convert_to<double>(), p.exact.y.convert_to<double>(), p.exact.z.convert_to<double>()};
      points.push_back(std::move(p));
    }
    return it->second;
  }
  std::vector<BrushPoint> points;

 private:
  const std::vector<BrushPlane>& planes_;
  std::map<std::array<int, 3>, std::uint32_t> index_;
};

/// Sutherland-Hodgman clipping (Sutherland and Hodgman, "Reentrant polygon clipping", CACM 17(1),
/// 1974) of the convex polygon on plane `face` by the half-space of plane `m`, exactly: signs are exact, and a new vertex is the intersection of the face plane, the
/// crossed edge's plane and m. A strictly convex polygon stays strictly convex or drops to at
/// most two vertices (no area), which the caller treats as empty.
std::vector<PolygonVertex> clip(const std::vector<PolygonVertex>& poly, int face, int m,
                                const std::vector<BrushPlane>& planes, BrushPoints& points) {
  std::vector<int> s(poly.size());
  bool any_out = false;
  for (std::size_t k = 0; k < poly.size(); ++k) {
    s[k] = side(planes[std::size_t(m)], points.points[poly[k].point]);
    any_out |= s[k] > 0;
  }
  if (!any_out) return poly;
  std::vector<PolygonVertex> out;
  for (std::size_t k = 0; k < poly.size(); ++k) {
    const std::size_t next = (k + 1) % poly.size();
    const int sa = s[k], sb = s[next], e = poly[k].edge;
    // A kept vertex on m's line whose edge leaves the half-space now starts an edge along m.
    if (sa <= 0) out.push_back({poly[k].point, sa == 0 && sb > 0 ? m : e});
    if ((sa < 0 && sb > 0) || (sa > 0 && sb < 0)) out.push_back({points.get(face, e, m), sa < 0 ? m : e});
  }
  return out;
}

enum class BrushResult { ok, degenerate, unbounded };

struct BrushFaces {
  std::vector<std::vector<std::uint32_t>> faces;  ///< point indices, counter-clockwise from outside
  std::vector<BrushPoint> points;
  std::size_t sides_without_face = 0;
};

BrushPlane make_plane(Vec3<Rational> n, Rational d) {
  BrushPlane p{{std::move(n), std::move(d)}, {}};
  p.approx = {p.exact.n.x.convert_to<double>(), p.exact.n.y.convert_to<double>(), p.exact.n.z.convert_to<double>(),
              p.exact.d.convert_to<double>()};  // exact: floats, or the integer extent
  return p;
}

/// Whether two planes bound the same half-space: n_a = l n_b and d_a = l d_b for some l > 0.
/// Equal floats are the common case; scaled copies are only decided exactly when the double
/// cross product of the normals is small (it is exact up to rounding of 48-bit products).
bool same_half_space(const BrushPlane& a, const BrushPlane& b) {
  if (a.approx == b.approx) return true;
  const auto& p = a.approx;
  const auto& q = b.approx;
  const double dot_pq = p[0] * q[0] + p[1] * q[1] + p[2] * q[2];
  if (!(dot_pq > 0)) return false;
  const double cx = p[1] * q[2] - p[2] * q[1], cy = p[2] * q[0] - p[0] * q[2], cz = p[0] * q[1] - p[1] * q[0];
  if (std::fabs(cx) + std::fabs(cy) + std::fabs(cz) > 0x1p-20 * dot_pq) return false;
  if (!is_zero(cross(a.exact.n, b.exact.n))) return false;
  // Parallel and same direction: l = dot(n_a, n_b) / dot(n_b, n_b).
  return a.exact.d * dot(b.exact.n, b.exact.n) == b.exact.d * dot(a.exact.n, b.exact.n);
}

/// The axis of the largest normal component: the face is a graph over the other two axes.
int dominant_axis(const std::array<double, 4>& n) {
  int a = 0;
  for (int k = 1; k < 3; ++k)
    if (std::fabs(n[std::size_t(k)]) > std::fabs(n[std::size_t(a)])) a = k;
  return a;
}

/// The faces of the convex solid { p : dot(n_i, p) <= d_i for every plane i of `planes` }.
/// Appends the bounding planes of the initial polygons to `planes`.
BrushResult build_brush(std::vector<BrushPlane>& planes, BrushFaces& out) {
  const int n = int(planes.size());
  // A side repeating an earlier side's half-space would give a second, coincident face.
  std::vector<bool> duplicate(std::size_t(n), false);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < i && !duplicate[std::size_t(i)]; ++j)
      duplicate[std::size_t(i)] = same_half_space(planes[std::size_t(i)], planes[std::size_t(j)]);
  // After the n real planes, 4 bounding planes per face, only used to start its polygon:
  // edges u = B, v = B, u = -B, v = -B, counter-clockwise seen from +axis a.
  const Rational extent(kClipExtent);
  for (int i = 0; i < n; ++i) {
    const int a = dominant_axis(planes[std::size_t(i)].approx);
    const int u = (a + 1) % 3, v = (a + 2) % 3;
    auto axis = [](int k, int sign) {
      Vec3<Rational> e;
      e[k] = sign;
      return e;
    };
    planes.push_back(make_plane(axis(u, 1), extent));
    planes.push_back(make_plane(axis(v, 1), extent));
    planes.push_back(make_plane(axis(u, -1), extent));
    planes.push_back(make_plane(axis(v, -1), extent));
  }
  BrushPoints points(planes);
  for (int i = 0; i < n; ++i) {
    if (duplicate[std::size_t(i)]) {
      ++out.sides_without_face;
      continue;
    }
    const int a = dominant_axis(planes[std::size_t(i)].approx);
    const int b0 = n + 4 * i;
    std::array<int, 4> edges{b0, b0 + 1, b0 + 2, b0 + 3};
    if (planes[std::size_t(i)].approx[std::size_t(a)] < 0) edges = {b0 + 3, b0 + 2, b0 + 1, b0};  // face the normal's side
    std::vector<PolygonVertex> poly;
    for (int k = 0; k < 4; ++k)
      poly.push_back({points.get(i, edges[std::size_t((k + 3) % 4)], edges[std::size_t(k)]), edges[std::size_t(k)]});
    for (int m = 0; m < n && poly.size() >= 3; ++m)
      if (m != i && !duplicate[std::size_t(m)]) poly = clip(poly, i, m, planes, points);
    if (poly.size() < 3) {
      ++out.sides_without_face;
      continue;
    }
    std::vector<std::uint32_t> face;
    for (const PolygonVertex& pv : poly) {
      if (pv.edge >= n) return BrushResult::unbounded;
      face.push_back(pv.point);
    }
    out.faces.push_back(std::move(face));
  }
  // Six times the volume (divergence theorem over the fans): zero means a flat brush.
  Rational six_volume = 0;
  for (const auto& f : out.faces)
    for (std::size_t k = 1; k + 1 < f.size(); ++k)
      six_volume += dot(points.points[f[0]].exact, cross(points.points[f[k]].exact, points.points[f[k + 1]].exact));
  if (out.faces.size() < 4 || six_volume.sign() == 0) return BrushResult::degenerate;
  if (six_volume.sign() < 0) throw std::logic_error("brush faces wound inwards");
  out.points = std::move(points.points);
  return BrushResult::ok;
}

/// Shares the brush soup's vertices by exact value; each is rounded to double once.
class ExactVertexPool {
 public:
  explicit ExactVertexPool(BrushSoup& soup) : soup_(soup) {}
  std::uint32_t add(const Vec3<Rational>& p) {
    const double x = formats::round_to_nearest<double>(p.x), y = formats::round_to_nearest<double>(p.y),
                 z = formats::round_to_nearest<double>(p.z);
    // Equal exact values round to equal doubles, so the rounded value is a sound hash key.
    auto& bucket = index_[{key_bits(x), key_bits(y), key_bits(z)}];
    for (std::uint32_t idx : bucket)
      if (soup_.exact_vertices[idx] == p) return idx;
    const std::uint32_t idx = std::uint32_t(soup_.exact_vertices.size());
    soup_.exact_vertices.push_back(p);
    soup_.mesh.vertices.push_back({x + 0.0, y + 0.0, z + 0.0});
    bucket.push_back(idx);
    return idx;
  }

 private:
  BrushSoup& soup_;
  std::unordered_map<std::array<std::uint64_t, 3>, std::vector<std::uint32_t>, TripleHash> index_;
};

}  // namespace

BrushSoup extract_brush_soup(const BspFile& map) {
  const bsp::Model& world = world_model(map);
  BrushSoup soup;
  ExactVertexPool pool(soup);
  std::vector<BrushPlane> planes;
  for (std::int32_t k = 0; k < world.num_brushes; ++k) {
    const std::uint32_t bi = std::uint32_t(world.first_brush + k);
    const bsp::Brush& brush = map.brushes[bi];
    if (!(map.shaders[std::size_t(brush.shader)].contents & bsp::kContentsSolid)) {
      ++soup.nonsolid_skipped;
      continue;
    }
    planes.clear();
    for (std::int32_t j = 0; j < brush.num_sides; ++j) {
      const bsp::Plane& p = map.planes[std::size_t(map.brushsides[std::size_t(brush.first_side + j)].plane)];
      planes.push_back(make_plane(Vec3<Rational>::from_double(p.normal[0], p.normal[1], p.normal[2]),
                                  Rational(double(p.dist))));
    }
    BrushFaces faces;
    const BrushResult result = build_brush(planes, faces);
    if (result == BrushResult::degenerate) {
      ++soup.degenerate_skipped;
      continue;
    }
    if (result == BrushResult::unbounded) {
      ++soup.unbounded_skipped;
      continue;
    }
    ++soup.brushes_used;
    soup.sides_without_face += faces.sides_without_face;
    std::vector<std::uint32_t> soup_index(faces.points.size(), UINT32_MAX);  // each point pooled once
    for (const auto& f : faces.faces) {
      std::vector<std::uint32_t> ids;
      for (std::uint32_t p : f) {
        if (soup_index[p] == UINT32_MAX) soup_index[p] = pool.add(faces.points[p].exact);
        ids.push_back(soup_index[p]);
      }
      for (std::size_t t = 1; t + 1 < ids.size(); ++t) {
        soup.mesh.triangles.push_back({ids[0], ids[t], ids[t + 1]});
        soup.brush_of_triangle.push_back(bi);
      }
    }
  }
  return soup;
}

}  // namespace slidecheck::corpora
