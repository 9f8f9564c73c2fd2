// Godot 3's KinematicBody as an exec-protocol engine (godot_exec.hpp).
#include "godot_exec.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/formats/scene_io.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>

namespace slidecheck::peers {

namespace {

constexpr std::uint32_t op_scene = 1, op_query = 2;

// The messages' little-endian payloads (peer.gd's header).
void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += char((v >> (8 * i)) & 0xffu);
}
void put_float(std::string& out, float f) { put_u32(out, std::bit_cast<std::uint32_t>(f)); }
void put_vec(std::string& out, const Vec3<float>& v) {
  put_float(out, v.x);
  put_float(out, v.y);
  put_float(out, v.z);
}

/// Reads a reply's payload front to back; a short reply is Godot's failure.
class Reader {
 public:
  explicit Reader(const std::string& data) : data_(data) {}
  std::uint32_t u32() {
    if (at_ + 4 > data_.size()) throw std::runtime_error("godot peer: Godot's reply is shorter than expected");
    std::uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= std::uint32_t(static_cast<unsigned char>(data_[at_ + i])) << (8 * i);
    at_ += 4;
    return v;
  }
  float f32() { return std::bit_cast<float>(u32()); }
  Vec3<float> vec() {
    const float x = f32(), y = f32(), z = f32();
    return {x, y, z};
  }
  std::string rest() const { return data_.substr(at_); }

 private:
  const std::string& data_;
  std::size_t at_ = 0;
};

/// The reply's status word: 0, or 1 and Godot's error text.
void check_status(Reader& r) {
  if (r.u32() != 0) throw std::runtime_error("godot peer: Godot refused the message: " + r.rest());
}

Vec3<float> narrow(const Vec3<double>& v) { return {float(v.x), float(v.y), float(v.z)}; }
Vec3<double> widen(const Vec3<float>& v) { return {double(v.x), double(v.y), double(v.z)}; }

/// The scene triangle nearest `p` (the first of equally near ones): the one Godot's contact
/// point lies on. Degenerate triangles whose distance cannot be computed are passed over.
std::size_t nearest_triangle(const IndexedMesh<double>& mesh, const Vec3<double>& p) {
  std::size_t best = 0;
  double best_distance = INFINITY;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const double d = point_triangle_squared_distance(p, mesh.triangle(i));
    if (d < best_distance) {
      best_distance = d;
      best = i;
    }
  }
  return best;
}

/// The fraction of `d` that `travel` is: its projection on d, computed in double and rounded once
/// to float, the precision the answer is in (0 for a zero d). The travel includes Godot's push out
/// of a contact closer than safe_margin before the sweep (which may point against d, or add to
/// it), so the fraction is clamped to [0, 1].
float time_of(const Vec3<float>& travel, const Vec3<float>& d) {
  const Vec3<double> t = widen(travel), m = widen(d);
  const double mm = dot(m, m);
  return mm == 0 ? 0.0f : float(std::clamp(dot(t, m) / mm, 0.0, 1.0));
}

}  // namespace

std::optional<GodotBackend> find_godot_backend(std::string_view name) {
  if (name == "bullet") return GodotBackend::bullet;
  if (name == "godotphysics") return GodotBackend::godot_physics;
  return std::nullopt;
}

GodotShape godot_capsule(float radius, const Vec3<float>& half_axis) {
  const int along = (half_axis.x != 0) + (half_axis.y != 0) + (half_axis.z != 0);
  if (along != 1)
    throw std::invalid_argument(
        "Godot runs capsules whose half_axis is along x, y or z only (its CapsuleShape lies along local Z, and a "
        "basis turning Z onto another axis is not exact in float)");
  const std::uint32_t axis = half_axis.x != 0 ? 0 : (half_axis.y != 0 ? 1 : 2);
  const float half = std::fabs(axis == 0 ? half_axis.x : (axis == 1 ? half_axis.y : half_axis.z));
  const float height = half + half;  // exact unless it overflows
  if (!std::isfinite(height)) throw std::invalid_argument("the capsule's height 2 |half_axis| overflows float");
  return {true, radius, height, axis, half_axis};
}

std::string godot_version(const std::string& godot) {
  std::string out;
  if (FILE* p = ::popen(("'" + godot + "' --version 2>/dev/null").c_str(), "r")) {
    char buffer[256];
    while (std::fgets(buffer, sizeof buffer, p)) out += buffer;
    ::pclose(p);
  }
  while (!out.empty() && (out.back() == '\n' || out.back() == '\r' || out.back() == ' ')) out.pop_back();
  if (const auto nl = out.rfind('\n'); nl != std::string::npos) out = out.substr(nl + 1);
  return out.empty() ? "unknown" : out;
}

GodotWorld::GodotWorld(std::string godot, GodotBackend backend)
    : process_(std::move(godot), backend == GodotBackend::bullet ? "Bullet" : "GodotPhysics") {}

void GodotWorld::set_scene(const std::string& key, const IndexedMesh<float>& mesh) {
  std::string payload;
  put_u32(payload, std::uint32_t(mesh.triangle_count()));
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const Triangle<float> t = mesh.triangle(i);
    put_vec(payload, t.p0);
    put_vec(payload, t.p1);
    put_vec(payload, t.p2);
  }
  scene_key_.clear();
  const std::string reply = process_.exchange(op_scene, payload);
  Reader r(reply);
  check_status(r);
  scene_key_ = key;
  scene_start_ = process_.starts();
}

std::vector<GodotPass> GodotWorld::run(const GodotShape& shape, const Vec3<float>& start, const Vec3<float>& up,
                                       const GodotSettings& s, const std::vector<Vec3<float>>& passes) {
  if (scene_key_.empty() || scene_start_ != process_.starts())
    throw std::runtime_error("godot peer: Godot holds no scene (it was restarted)");
  std::string payload;
  put_u32(payload, shape.capsule ? 1 : 0);
  put_float(payload, shape.radius);
  put_float(payload, shape.height);
  put_u32(payload, shape.axis);
  put_vec(payload, start);
  put_vec(payload, up);
  put_float(payload, s.safe_margin);
  put_float(payload, s.floor_max_angle);
  put_float(payload, s.shape_margin);
  put_u32(payload, std::uint32_t(s.max_slides));
  put_u32(payload, (s.stop_on_slope ? 1u : 0u) | (s.infinite_inertia ? 2u : 0u));
  put_u32(payload, std::uint32_t(passes.size()));
  for (const Vec3<float>& d : passes) put_vec(payload, d);
  const std::string reply = process_.exchange(op_query, payload);
  Reader r(reply);
  check_status(r);
  std::vector<GodotPass> out(passes.size());
  for (GodotPass& p : out) {
    p.hit = r.u32() != 0;
    if (p.hit) {
      p.travel = r.vec();
      p.contact = r.vec();
    }
    const std::uint32_t n = r.u32();
    for (std::uint32_t i = 0; i < n; ++i) p.waypoints.push_back(r.vec());
    p.end = r.vec();
  }
  return out;
}

GodotExec::GodotExec(GodotBackend backend, std::string godot)
    : backend_(backend), version_(godot_version(godot)), world_(godot, backend) {}

formats::ExecDescribeAnswer GodotExec::describe() const {
  const GodotSettings d;
  std::vector<std::pair<std::string, double>> tolerances{{"safe_margin", double(d.safe_margin)},
                                                         {"max_slides", double(d.max_slides)},
                                                         {"floor_max_angle", double(d.floor_max_angle)}};
  // Shape margins are Bullet's (GodotPhysics does not use them: Shape.margin's documentation).
  if (backend_ == GodotBackend::bullet) tolerances.emplace_back("shape_margin", double(d.shape_margin));
  const bool bullet = backend_ == GodotBackend::bullet;
  return {bullet ? "godot" : "godot_sw",
          {formats::Precision::single_float},
          tolerances,
          "Godot " + version_ + " KinematicBody.move_and_slide, " + (bullet ? "Bullet" : "GodotPhysics") +
              " backend (godot3-server)",
          {"sphere", "capsule"}};
}

formats::PathRecord GodotExec::run(const formats::ExecRequest& request) {
  const formats::Query& q = request.query;
  // The request's numbers are rounded once to float (the precision described), so the shape's are
  // float values and narrowing them is exact.
  GodotShape shape;
  if (const auto* sphere = std::get_if<Sphere<double>>(&q.shape)) {
    shape.radius = float(sphere->radius);
  } else if (const auto* c = std::get_if<Capsule<double>>(&q.shape)) {
    try {
      shape = godot_capsule(float(c->radius), narrow(c->half_axis));
    } catch (const std::invalid_argument& e) {
      throw RequestError("query '" + q.id + "': " + e.what());
    }
  } else {
    throw RequestError("query '" + q.id + "': " + std::string(shape_name(q.shape)) +
                       "s are not supported by Godot's peer (spheres and capsules)");
  }
  GodotSettings settings;
  for (const auto& [name, value] : request.tolerances) {
    if (!(value >= 0))
      throw RequestError("query '" + q.id + "': tolerance '" + name + "': must be >= 0, got " + formats::exact_text(value));
    if (name == "safe_margin") settings.safe_margin = float(value);
    if (name == "floor_max_angle") settings.floor_max_angle = float(value);
    if (name == "shape_margin") settings.shape_margin = float(value);
    if (name == "max_slides") {
      if (value != std::floor(value) || value < 1 || value > 1000)
        throw RequestError("query '" + q.id + "': tolerance 'max_slides': must be a whole number from 1 to 1000, got " +
                           formats::exact_text(value));
      settings.max_slides = int(value);
    }
  }

  // The scene, kept while the file stays the same (path, size and modification time).
  namespace fs = std::filesystem;
  std::error_code ec;
  const auto bytes = fs::file_size(request.scene, ec);
  if (ec) throw formats::InputError(request.scene, 0, "cannot read the scene: " + ec.message());
  const auto modified = fs::last_write_time(request.scene, ec).time_since_epoch().count();
  const std::string key = request.scene + "\n" + std::to_string(bytes) + "\n" + std::to_string(modified);
  IndexedMesh<float> godot_mesh;
  if (key != mesh_key_) {
    mesh_key_.clear();
    formats::ReadOptions options;
    options.allow_degenerate = true;  // slidecheck has validated the scene; Godot gets every triangle
    const formats::Scene scene = formats::read_scene(request.scene, options);
    godot_mesh = convert_mesh<float>(scene.mesh, [](double v) { return float(v); });
    for (const Vec3<float>& v : godot_mesh.vertices)
      if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
        throw formats::InputError(request.scene, 0, "a vertex overflows float: the scene cannot be run in float");
    mesh_ = convert_mesh<double>(godot_mesh, [](float v) { return double(v); });
    world_.set_scene(key, godot_mesh);
    mesh_key_ = key;
  }

  const Vec3<float> move = narrow(q.displacement), gravity = narrow(q.gravity);
  const bool falls = has_gravity(q);
  // The up axis: opposite gravity, +z without gravity (as every peer gives its character).
  const Vec3<float> up = falls ? Vec3<float>{-gravity.x, -gravity.y, -gravity.z} : Vec3<float>{0, 0, 1};
  std::vector<Vec3<float>> passes;
  for (int frame = 0; frame < q.frames; ++frame) {
    passes.push_back(move);
    if (falls) passes.push_back(gravity);
  }
  std::vector<GodotPass> result;
  try {
    result = world_.run(shape, narrow(q.start), up, settings, passes);
  } catch (...) {
    mesh_key_.clear();  // a restarted Godot needs the scene again
    throw;
  }

  formats::PathRecord a;
  a.query_id = q.id;
  a.positions.push_back(q.start);
  Vec3<float> at = narrow(q.start);
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const GodotPass& p = result[i];
    formats::PathSweep s;
    s.start = widen(at);
    s.displacement = widen(passes[i]);
    if (shape.capsule)
      s.shape = Capsule<double>{double(shape.radius), widen(shape.half_axis)};
    else
      s.shape = Sphere<double>{double(shape.radius)};
    s.hit = p.hit;
    if (p.hit) {
      s.time = time_of(p.travel, passes[i]);
      s.triangle = nearest_triangle(mesh_, widen(p.contact));
    }
    a.sweeps.push_back(s);
    std::vector<Vec3<double>> waypoints;
    for (const Vec3<float>& w : p.waypoints) waypoints.push_back(widen(w));
    a.waypoints.push_back(std::move(waypoints));
    if (!std::isfinite(p.end.x) || !std::isfinite(p.end.y) || !std::isfinite(p.end.z))
      throw std::runtime_error("query '" + q.id + "': Godot produced a non-finite position in pass " +
                               std::to_string(i + 1));
    at = p.end;
    a.positions.push_back(widen(at));
  }
  return a;
}

}  // namespace slidecheck::peers
