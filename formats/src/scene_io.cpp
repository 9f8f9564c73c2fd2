// Reader and writer of the slidecheck scene format (docs/formats.md).
#include <slidecheck/formats/scene_io.hpp>

#include <slidecheck/formats/text_lines.hpp>

#include <algorithm>
#include <fstream>
#include <optional>
#include <ostream>
#include <sstream>

namespace slidecheck::formats {

namespace {

using detail::LineCursor;

std::string join_tokens(const std::vector<std::string_view>& t) {
  std::string s;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (i) s += ' ';
    s.append(t[i]);
  }
  return s;
}

/// The metadata fields that take the rest of the line as their value.
struct TextField {
  std::string_view keyword;
  std::string Scene::*member;
  bool required;
};
constexpr TextField text_fields[] = {{"name", &Scene::name, false},
                                     {"units", &Scene::units, true},
                                     {"source", &Scene::source, true},
                                     {"licence", &Scene::licence, true}};

void read_header(LineCursor& c, Scene& scene) {
  std::vector<std::string_view> seen;
  const auto once = [&](std::string_view kw) {
    if (std::find(seen.begin(), seen.end(), kw) != seen.end()) c.fail("'" + std::string(kw) + "' given twice");
    seen.push_back(kw);
  };
  while (true) {
    if (!c.next()) throw InputError(c.file(), c.line(), "file ends before 'vertices N' (truncated?)");
    const std::string_view kw = c.tokens()[0];
    if (kw == "vertices") break;
    bool handled = false;
    for (const TextField& f : text_fields) {
      if (kw != f.keyword) continue;
      once(kw);
      const std::string_view value = detail::trim(c.content().substr(kw.size()));
      if (value.empty()) c.fail("'" + std::string(kw) + "' needs a value");
      scene.*f.member = std::string(value);
      handled = true;
    }
    if (handled) continue;
    if (kw == "precision") {
      once(kw);
      if (c.tokens().size() != 2) c.fail("expected 'precision float' or 'precision double'");
      try {
        scene.precision = parse_precision(c.tokens()[1]);
      } catch (const std::invalid_argument& e) {
        c.fail(e.what());
      }
    } else if (kw == "degenerate") {
      once(kw);
      if (c.tokens().size() != 2 || c.tokens()[1] != "allowed") c.fail("expected 'degenerate allowed'");
      scene.degenerate_allowed = true;
    } else if (kw == "v" || kw == "t" || kw == "triangles" || kw == "end") {
      // append() rather than "'" + std::string(kw): GCC 12 warns falsely (-Wrestrict, bug 105329) on the latter.
      c.fail(std::string("'").append(kw).append("' before 'vertices N'"));
    } else {
      c.fail("unknown statement '" + std::string(kw) + "'");
    }
  }
  for (const TextField& f : text_fields)
    if (f.required && std::find(seen.begin(), seen.end(), f.keyword) == seen.end())
      c.fail("missing '" + std::string(f.keyword) + "' line (required before 'vertices')");
}

void read_vertices(LineCursor& c, Scene& scene) {
  if (c.tokens().size() != 2) c.fail("expected 'vertices N'");
  const std::uint64_t n = detail::parse_count(c, c.tokens()[1], "vertex count");
  // Reserve a bounded amount: the count is untrusted until the lines are there.
  scene.mesh.vertices.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(n, 1u << 20)));
  for (std::uint64_t k = 0; k < n; ++k) {
    if (!c.next())
      throw InputError(c.file(), c.line(), "file ends after " + std::to_string(k) + " of " + std::to_string(n) +
                                               " declared vertex lines (truncated?)");
    const auto& t = c.tokens();
    if (t[0] != "v")
      c.fail("expected vertex line " + std::to_string(k + 1) + " of " + std::to_string(n) + " ('v x y z'), got '" +
             join_tokens(t) + "'");
    if (t.size() != 4)
      c.fail("a vertex line needs 3 coordinates ('v x y z'), got " + std::to_string(t.size() - 1));
    const std::string what = "vertex " + std::to_string(k);
    const double x = detail::parse_coordinate_at(c, t[1], scene.precision, what + " x");
    const double y = detail::parse_coordinate_at(c, t[2], scene.precision, what + " y");
    const double z = detail::parse_coordinate_at(c, t[3], scene.precision, what + " z");
    scene.mesh.vertices.push_back({x, y, z});
  }
}

void read_triangles(LineCursor& c, Scene& scene) {
  const std::size_t n_vertices = scene.mesh.vertices.size();
  if (!c.next()) throw InputError(c.file(), c.line(), "file ends before 'triangles M' (truncated?)");
  if (c.tokens()[0] == "v") c.fail("more vertex lines than the " + std::to_string(n_vertices) + " declared");
  if (c.tokens()[0] != "triangles" || c.tokens().size() != 2) c.fail("expected 'triangles M'");
  const std::uint64_t m = detail::parse_count(c, c.tokens()[1], "triangle count");
  if (m == 0) c.fail("a scene needs at least one triangle");
  scene.mesh.triangles.reserve(static_cast<std::size_t>(std::min<std::uint64_t>(m, 1u << 20)));
  for (std::uint64_t k = 0; k < m; ++k) {
    if (!c.next())
      throw InputError(c.file(), c.line(), "file ends after " + std::to_string(k) + " of " + std::to_string(m) +
                                               " declared triangle lines (truncated?)");
    const auto& t = c.tokens();
    if (t[0] != "t")
      c.fail("expected triangle line " + std::to_string(k + 1) + " of " + std::to_string(m) + " ('t i j k'), got '" +
             join_tokens(t) + "'");
    if (t.size() != 4) c.fail("a triangle line needs 3 vertex indices ('t i j k'), got " + std::to_string(t.size() - 1));
    std::array<std::uint32_t, 3> tri{};
    for (int j = 0; j < 3; ++j) {
      const std::uint64_t i = detail::parse_count(c, t[1 + j], "vertex index");
      if (i >= n_vertices)
        c.fail("vertex index " + std::to_string(i) + " out of range (the scene has " + std::to_string(n_vertices) +
               " vertices, numbered from 0)");
      tri[j] = static_cast<std::uint32_t>(i);
    }
    scene.mesh.triangles.push_back(tri);
    scene.triangle_lines.push_back(c.line());
  }
}

void read_end(LineCursor& c, const Scene& scene) {
  if (!c.next()) throw InputError(c.file(), c.line(), "file ends without 'end' (truncated?)");
  if (c.tokens()[0] == "t") c.fail("more triangle lines than the " + std::to_string(scene.mesh.triangles.size()) + " declared");
  if (c.tokens().size() != 1 || c.tokens()[0] != "end") c.fail("expected 'end', got '" + join_tokens(c.tokens()) + "'");
  if (c.next()) c.fail("unexpected content after 'end'");
}

/// A metadata value must read back unchanged: one line, no comment mark, no blanks at the ends.
void check_writable(std::string_view keyword, const std::string& value, bool required) {
  if (value.empty()) {
    if (required) throw std::invalid_argument("scene field '" + std::string(keyword) + "' is empty");
    return;
  }
  if (value.find_first_of("\n\r#") != std::string::npos || detail::trim(value) != value)
    throw std::invalid_argument("scene field '" + std::string(keyword) + "' = '" + value +
                                "' cannot be written: no line breaks, no '#', no blanks at either end");
}

}  // namespace

Scene parse_scene(std::string_view text, const std::string& file, const ReadOptions& options) {
  if (text.empty()) throw InputError(file, 0, "empty file");
  text = detail::text_without_bom(text, file);
  LineCursor c(text, file);
  if (!c.next()) throw InputError(file, 0, "no content (only blank lines and comments)");
  if (c.tokens()[0] != "slidecheck-scene")
    c.fail("not a slidecheck scene: the first statement must be '" + std::string(scene_magic) + "'");
  if (c.tokens().size() != 2 || c.tokens()[1] != "1")
    c.fail("unsupported scene format '" + std::string(c.content()) + "' (this slidecheck reads '" +
           std::string(scene_magic) + "')");
  Scene scene;
  read_header(c, scene);
  read_vertices(c, scene);
  read_triangles(c, scene);
  read_end(c, scene);
  validate_scene(scene, file, options);
  return scene;
}

Scene read_scene(const std::string& path, const ReadOptions& options) {
  return parse_scene(detail::read_whole_file(path), path, options);
}

void write_scene(std::ostream& out, const Scene& scene) {
  for (const TextField& f : text_fields) check_writable(f.keyword, scene.*f.member, f.required);
  std::ostringstream s;  // built first, so a bad coordinate leaves `out` untouched
  s << scene_magic << '\n';
  for (const TextField& f : text_fields)
    if (!(scene.*f.member).empty()) s << f.keyword << ' ' << scene.*f.member << '\n';
  s << "precision " << precision_name(scene.precision) << '\n';
  if (scene.degenerate_allowed) s << "degenerate allowed\n";
  s << "vertices " << scene.mesh.vertices.size() << '\n';
  const bool single = scene.precision == Precision::single_float;
  // The decimal comment is for people; in a float scene the float's shortest form is the readable one.
  const auto decimal = [single](double x) { return single ? to_decimal(static_cast<float>(x)) : to_decimal(x); };
  for (const Vec3<double>& v : scene.mesh.vertices)
    for (const double c : {v.x, v.y, v.z})
      if (num::is_finite(c) && !representable_in(c, scene.precision))
        throw std::invalid_argument("coordinate " + to_hex(c) + " is not exactly representable in the scene's precision " +
                                    std::string(precision_name(scene.precision)));
  for (const Vec3<double>& v : scene.mesh.vertices)
    s << "v " << to_hex(v.x) << ' ' << to_hex(v.y) << ' ' << to_hex(v.z) << "  # " << decimal(v.x) << ' '
      << decimal(v.y) << ' ' << decimal(v.z) << '\n';
  s << "triangles " << scene.mesh.triangles.size() << '\n';
  for (const auto& t : scene.mesh.triangles) s << "t " << t[0] << ' ' << t[1] << ' ' << t[2] << '\n';
  s << "end\n";
  out << s.str();
}

std::string scene_to_string(const Scene& scene) {
  std::ostringstream s;
  write_scene(s, scene);
  return s.str();
}

void write_scene_file(const std::string& path, const Scene& scene) {
  const std::string text = scene_to_string(scene);
  std::ofstream out(path, std::ios::binary);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path);
}

}  // namespace slidecheck::formats
