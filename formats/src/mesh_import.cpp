// OBJ and OFF importers: decimal coordinates rounded once to the declared precision.
#include <slidecheck/formats/mesh_import.hpp>

#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/formats/scene_io.hpp>

#include <slidecheck/formats/text_lines.hpp>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <filesystem>

namespace slidecheck::formats {

namespace {

using detail::LineCursor;

Scene imported_scene(const std::string& file, std::string_view format, const ImportOptions& options) {
  Scene s;
  s.name = std::filesystem::path(file).stem().string();
  s.units = "unknown";
  s.source = "imported from " + std::filesystem::path(file).filename().string() + " (" + std::string(format) + ")";
  s.licence = "unknown";
  s.precision = options.precision;
  s.degenerate_allowed = options.allow_degenerate;
  // A file name may contain what the scene writer refuses; keep the scene writable.
  for (std::string* f : {&s.name, &s.source})
    std::replace_if(f->begin(), f->end(), [](char c) { return c == '#' || c == '\n' || c == '\r'; }, '_');
  return s;
}

/// Adds the polygon as a fan (v0, v[k], v[k+1]): exact for convex polygons, which is what
/// OBJ and OFF exporters write. A face the fan would not reproduce is refused rather than
/// silently replaced by triangles outside it (assimp-testmodels' concave_polygon.obj): one whose
/// fan triangle turns against the face, decided exactly in rationals (the normal of fan triangle
/// k against the sum of all of them, the face's area vector). Faces that are only slightly
/// non-planar, as decimal exports are, pass; zero-area fan triangles are left to the exact
/// degeneracy check of validate_scene. Not caught: a face winding twice around its first vertex.
void add_fan(Scene& s, const std::vector<std::uint32_t>& poly, const std::string& file, std::size_t line) {
  if (poly.size() > 3) {
    const auto q = [&](std::uint32_t i) {
      return convert_vec<Rational>(s.mesh.vertices[i], [](double x) { return num::from_double<Rational>(x); });
    };
    const Vec3<Rational> v0 = q(poly[0]);
    std::vector<Vec3<Rational>> normals;
    Vec3<Rational> area{0, 0, 0};
    for (std::size_t k = 1; k + 1 < poly.size(); ++k) {
      normals.push_back(cross(q(poly[k]) - v0, q(poly[k + 1]) - v0));
      area = area + normals.back();
    }
    for (std::size_t k = 0; k < normals.size(); ++k)
      if (dot(normals[k], area) < 0)
        throw InputError(file, line,
                         "a face of " + std::to_string(poly.size()) + " vertices is not convex: its fan triangle " +
                             std::to_string(k) + " (face vertices 1, " + std::to_string(k + 2) + ", " +
                             std::to_string(k + 3) +
                             ") turns against the face, so triangulating it from its first vertex would add "
                             "triangles outside it; export it triangulated");
  }
  for (std::size_t k = 1; k + 1 < poly.size(); ++k) {
    s.mesh.triangles.push_back({poly[0], poly[k], poly[k + 1]});
    s.triangle_lines.push_back(line);
  }
}

std::vector<double> coordinates(const LineCursor& c, std::size_t first, std::size_t count, Precision p,
                                const std::string& what) {
  static constexpr const char* axis[] = {"x", "y", "z"};
  std::vector<double> xyz;
  for (std::size_t k = 0; k < count; ++k)
    xyz.push_back(detail::parse_coordinate_at(c, c.tokens()[first + k], p, what + " " + axis[k]));
  return xyz;
}

// ---- OBJ -------------------------------------------------------------------------------

/// A face vertex reference i, i/t, i//n or i/t/n: the position index i, 1-based, or
/// negative for "relative to the last vertex defined so far" (-1 is the last).
long long obj_index(const LineCursor& c, std::string_view ref, std::size_t vertices_so_far) {
  const std::string_view i_text = ref.substr(0, ref.find('/'));
  long long i = 0;
  const auto [ptr, ec] = std::from_chars(i_text.data(), i_text.data() + i_text.size(), i);
  if (i_text.empty() || ec != std::errc() || ptr != i_text.data() + i_text.size())
    c.fail("face vertex '" + std::string(ref) + "': expected an index i, i/t, i//n or i/t/n");
  if (i == 0) c.fail("face vertex '" + std::string(ref) + "': index 0 is invalid (OBJ indices start at 1)");
  if (i > 0) return i - 1;
  const long long resolved = static_cast<long long>(vertices_so_far) + i;
  if (resolved < 0)
    c.fail("face vertex '" + std::string(ref) + "': relative index out of range (only " +
           std::to_string(vertices_so_far) + " vertices defined so far)");
  return resolved;
}

}  // namespace

Scene parse_obj(std::string_view text, const std::string& file, const ImportOptions& options) {
  if (text.empty()) throw InputError(file, 0, "empty file");
  text = detail::text_without_bom(text, file);
  Scene s = imported_scene(file, "OBJ", options);
  LineCursor c(text, file);
  struct PendingFace { std::size_t line; std::vector<long long> indices; std::vector<std::string_view> refs; };
  std::vector<PendingFace> faces;  // positive indices may point forward: checked at the end
  bool any_content = false;
  while (c.next()) {
    any_content = true;
    const auto& t = c.tokens();
    const std::string what = "vertex " + std::to_string(s.mesh.vertices.size() + 1);
    if (t[0] == "v") {
      if (t.size() != 4 && t.size() != 5 && t.size() != 7)
        c.fail("'v' needs 3 coordinates (optionally w, or r g b), got " + std::to_string(t.size() - 1));
      const std::vector<double> xyz = coordinates(c, 1, 3, options.precision, what);
      if (t.size() == 5) {
        double w = 0;
        try {
          w = parse_double(t[4]);
        } catch (const NumberError& e) {
          c.fail(what + " w: " + e.what());
        }
        if (w != 1.0) c.fail(what + ": homogeneous w = " + std::string(t[4]) + " is not supported (only w = 1)");
      }
      s.mesh.vertices.push_back({xyz[0], xyz[1], xyz[2]});
    } else if (t[0] == "f") {
      if (t.size() < 4) c.fail("a face needs at least 3 vertices, got " + std::to_string(t.size() - 1));
      PendingFace f{c.line(), {}, {}};
      for (std::size_t k = 1; k < t.size(); ++k) {
        f.indices.push_back(obj_index(c, t[k], s.mesh.vertices.size()));
        f.refs.push_back(t[k]);
      }
      faces.push_back(std::move(f));
    }
    // vt, vn, vp, g, o, s, usemtl, mtllib, l, p and the rest do not describe triangles.
  }
  if (!any_content) throw InputError(file, 0, "no content (only blank lines and comments)");
  const std::size_t n = s.mesh.vertices.size();
  for (const PendingFace& f : faces) {
    std::vector<std::uint32_t> poly;
    for (std::size_t k = 0; k < f.indices.size(); ++k) {
      if (f.indices[k] >= static_cast<long long>(n))
        throw InputError(file, f.line, "face vertex '" + std::string(f.refs[k]) + "' out of range (the file has " +
                                           std::to_string(n) + " vertices)");
      poly.push_back(static_cast<std::uint32_t>(f.indices[k]));
    }
    add_fan(s, poly, file, f.line);
  }
  if (s.mesh.triangles.empty()) throw InputError(file, 0, "no faces ('f' lines)");
  validate_scene(s, file, {options.allow_degenerate});
  return s;
}

Scene import_obj(const std::string& path, const ImportOptions& options) {
  return parse_obj(detail::read_whole_file(path), path, options);
}

// ---- OFF -------------------------------------------------------------------------------

Scene parse_off(std::string_view text, const std::string& file, const ImportOptions& options) {
  if (text.empty()) throw InputError(file, 0, "empty file");
  text = detail::text_without_bom(text, file);
  Scene s = imported_scene(file, "OFF", options);
  LineCursor c(text, file);
  if (!c.next()) throw InputError(file, 0, "no content (only blank lines and comments)");

  // Header keyword [ST][C][N]OFF: each prefix adds values to every vertex line.
  std::string_view kw = c.tokens()[0];
  const bool st = kw.starts_with("ST");
  if (st) kw.remove_prefix(2);
  const bool colour = kw.starts_with("C");
  if (colour) kw.remove_prefix(1);
  const bool normal = kw.starts_with("N");
  if (normal) kw.remove_prefix(1);
  if (kw != "OFF") {
    if (kw.ends_with("OFF")) c.fail("unsupported OFF variant '" + std::string(c.tokens()[0]) + "' (supported: [ST][C][N]OFF)");
    c.fail("not an OFF file: the first statement must be OFF (or COFF, NOFF, CNOFF, STOFF ...)");
  }
  std::vector<std::string_view> counts(c.tokens().begin() + 1, c.tokens().end());
  if (!counts.empty() && counts[0] == "BINARY") c.fail("binary OFF is not supported");
  if (counts.empty()) {
    if (!c.next()) throw InputError(file, c.line(), "file ends before the counts line 'vertices faces [edges]'");
    counts = c.tokens();
  }
  if (counts.size() != 2 && counts.size() != 3) c.fail("expected the counts 'vertices faces [edges]'");
  const std::uint64_t nv = detail::parse_count(c, counts[0], "vertex count");
  const std::uint64_t nf = detail::parse_count(c, counts[1], "face count");
  if (counts.size() == 3) detail::parse_count(c, counts[2], "edge count");  // unused, but must be a count

  const std::size_t extra_base = (normal ? 3 : 0) + (st ? 2 : 0);
  s.mesh.vertices.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(nv, 1u << 20)));
  for (std::uint64_t k = 0; k < nv; ++k) {
    if (!c.next())
      throw InputError(file, c.line(), "file ends after " + std::to_string(k) + " of " + std::to_string(nv) +
                                           " declared vertex lines (truncated?)");
    const std::size_t extra = c.tokens().size() - 3;
    const bool ok = c.tokens().size() >= 3 &&
                    (colour ? (extra == extra_base + 3 || extra == extra_base + 4) : extra == extra_base);
    if (!ok)
      c.fail("vertex line " + std::to_string(k + 1) + " of " + std::to_string(nv) + ": expected " +
             std::to_string(3 + extra_base) + (colour ? " + 3 or 4 colour" : "") + " values, got " +
             std::to_string(c.tokens().size()));
    const std::vector<double> xyz = coordinates(c, 0, 3, options.precision, "vertex " + std::to_string(k));
    s.mesh.vertices.push_back({xyz[0], xyz[1], xyz[2]});
  }
  for (std::uint64_t k = 0; k < nf; ++k) {
    if (!c.next())
      throw InputError(file, c.line(), "file ends after " + std::to_string(k) + " of " + std::to_string(nf) +
                                           " declared face lines (truncated?)");
    const auto& t = c.tokens();
    const std::uint64_t n = detail::parse_count(c, t[0], "face vertex count");
    if (n < 3) c.fail("a face needs at least 3 vertices, got " + std::to_string(n));
    const std::size_t extra = t.size() - 1 < n ? 0 : t.size() - 1 - n;
    if (t.size() - 1 < n || !(extra == 0 || extra == 1 || extra == 3 || extra == 4))
      c.fail("face with " + std::to_string(n) + " vertices: expected " + std::to_string(n) +
             " indices (then 0, 1, 3 or 4 colour values), got " + std::to_string(t.size() - 1) + " values");
    std::vector<std::uint32_t> poly;
    for (std::size_t j = 0; j < n; ++j) {
      const std::uint64_t i = detail::parse_count(c, t[1 + j], "vertex index");
      if (i >= nv)
        c.fail("vertex index " + std::to_string(i) + " out of range (the file has " + std::to_string(nv) +
               " vertices, numbered from 0)");
      poly.push_back(static_cast<std::uint32_t>(i));
    }
    add_fan(s, poly, file, c.line());
  }
  if (c.next()) c.fail("unexpected content after the " + std::to_string(nf) + " declared faces");
  validate_scene(s, file, {options.allow_degenerate});
  return s;
}

Scene import_off(const std::string& path, const ImportOptions& options) {
  return parse_off(detail::read_whole_file(path), path, options);
}

// ---- by extension ------------------------------------------------------------------------

MeshFileKind mesh_file_kind(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  if (ext == ".scene") return MeshFileKind::scene;
  if (ext == ".obj") return MeshFileKind::obj;
  if (ext == ".off") return MeshFileKind::off;
  throw InputError(path, 0, "unknown file type '" + ext + "' (expected .scene, .obj or .off)");
}

bool is_decimal_mesh_file(const std::string& path) {
  std::string ext = std::filesystem::path(path).extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char ch) { return static_cast<char>(std::tolower(ch)); });
  return ext == ".obj" || ext == ".off";
}

Scene load_scene_file(const std::string& path, const ImportOptions& options) {
  switch (mesh_file_kind(path)) {
    case MeshFileKind::scene: return read_scene(path, {options.allow_degenerate});
    case MeshFileKind::obj: return import_obj(path, options);
    case MeshFileKind::off: return import_off(path, options);
  }
  throw std::logic_error("unreachable");
}

}  // namespace slidecheck::formats
