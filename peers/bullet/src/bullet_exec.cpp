// Bullet as an exec-protocol engine (bullet_exec.hpp).
#include "bullet_exec.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/scene_io.hpp>
#include <slidecheck/peers/bullet_character.hpp>

#include <cmath>
#include <filesystem>
#include <stdexcept>
#include <utility>

namespace slidecheck::peers {

namespace {

using Scalar = btScalar;

Vec3<Scalar> narrow(const Vec3<double>& v) { return {Scalar(v.x), Scalar(v.y), Scalar(v.z)}; }
Vec3<double> widen(const Vec3<Scalar>& v) { return {double(v.x), double(v.y), double(v.z)}; }
std::vector<Vec3<double>> widen(const std::vector<Vec3<Scalar>>& vs) {
  std::vector<Vec3<double>> out;
  for (const auto& v : vs) out.push_back(widen(v));
  return out;
}

/// The sweep of one pass as the protocol reports it, with the shape Bullet swept (`held`).
formats::PathSweep reported(const BulletPeer::Sweep& s, const Vec3<Scalar>& from, const Vec3<Scalar>& move,
                            const Shape<double>& held) {
  if (s.hit && s.triangle < 0) throw std::runtime_error("Bullet reported a hit without a triangle");
  formats::PathSweep e;
  e.start = widen(from);
  e.displacement = widen(move);
  e.shape = held;
  e.hit = s.hit;
  if (s.hit) {
    e.time = double(s.fraction);
    e.triangle = std::size_t(s.triangle);
  }
  return e;
}

}  // namespace

std::optional<BulletMode> find_bullet_mode(std::string_view name) {
  if (name == "sweep") return BulletMode::sweep;
  if (name == "kcc") return BulletMode::kcc;
  return std::nullopt;
}

formats::Precision bullet_precision() {
  return sizeof(Scalar) == 4 ? formats::Precision::single_float : formats::Precision::double_float;
}

BulletPeer& BulletScenes::world(const std::string& path) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const std::uintmax_t bytes = fs::file_size(path, ec);
  if (ec) throw formats::InputError(path, 0, "cannot read the scene: " + ec.message());
  const std::int64_t modified = fs::last_write_time(path, ec).time_since_epoch().count();
  auto it = worlds_.find(path);
  if (it != worlds_.end() && (it->second.bytes != bytes || it->second.modified != modified)) {
    uses_.erase(it->second.use);
    worlds_.erase(it);
    it = worlds_.end();
  }
  if (it == worlds_.end()) {
    const formats::Scene scene = formats::read_scene(path);
    for (const Vec3<double>& v : scene.mesh.vertices)
      if (!std::isfinite(Scalar(v.x)) || !std::isfinite(Scalar(v.y)) || !std::isfinite(Scalar(v.z)))
        throw formats::InputError(path, 0, "a vertex overflows float: the scene cannot be run in float");
    while (worlds_.size() >= capacity_ && !uses_.empty()) {
      worlds_.erase(uses_.back());
      uses_.pop_back();
    }
    uses_.push_front(path);
    it = worlds_.emplace(path, Entry{bytes, modified, std::make_unique<BulletPeer>(scene.mesh), uses_.begin()}).first;
  } else {
    uses_.splice(uses_.begin(), uses_, it->second.use);
  }
  return *it->second.peer;
}

formats::ExecDescribeAnswer BulletExec::describe() const {
  return {mode_ == BulletMode::sweep ? "bullet_sweep" : "bullet_kcc", {bullet_precision()}, tolerances(), {},
          {"sphere", "capsule"}};
}

std::vector<std::pair<std::string, double>> BulletExec::tolerances() const {
  // convexSweepTest's allowedCcdPenetration argument defaults to 0 (btCollisionWorld.h).
  const double sweep_default = double(Scalar(0));
  if (mode_ == BulletMode::sweep) return {{"allowed_penetration", sweep_default}};
  const CharacterSettings d = CharacterSettings::bullet_defaults();
  return {{"step_height", double(d.step_height)},
          {"max_penetration_depth", double(d.max_penetration_depth)},
          {"allowed_ccd_penetration", double(d.allowed_ccd_penetration)},
          {"max_slope", double(d.max_slope)},
          {"sweep_allowed_penetration", sweep_default}};
}

formats::PathRecord BulletExec::run(const formats::ExecRequest& request) {
  const formats::Query& q = request.query;
  // The swept body (sweeps, and the sweeps reported beside the controller) and the controller's own.
  BulletBody swept, carried;
  try {
    swept = bullet_body(q.shape);
    carried = bullet_body(q.shape);
  } catch (const std::invalid_argument& e) {
    throw RequestError("query '" + q.id + "': " + e.what());
  }
  for (const auto& [name, value] : request.tolerances)
    if (!(value >= 0))
      throw RequestError("query '" + q.id + "': tolerance '" + name + "': must be >= 0, got " + formats::exact_text(value));
  BulletPeer& peer = scenes_.world(request.scene);
  const Vec3<Scalar> move = narrow(q.displacement), gravity = narrow(q.gravity);
  const int passes_per_frame = has_gravity(q) ? 2 : 1;
  formats::PathRecord a;
  a.query_id = q.id;
  a.positions.push_back(q.start);
  Vec3<Scalar> at = narrow(q.start);
  const std::map<std::string, double>& tolerance = request.tolerances;

  if (mode_ == BulletMode::sweep) {
    const Scalar allowed = Scalar(tolerance.at("allowed_penetration"));
    for (int frame = 0; frame < q.frames; ++frame)
      for (int pass = 0; pass < passes_per_frame; ++pass) {
        const Vec3<Scalar>& d = pass == 0 ? move : gravity;
        const BulletPeer::Sweep s = peer.sweep(*swept.shape, at, d, allowed);
        a.sweeps.push_back(reported(s, at, d, swept.held));
        at = s.end;
        a.positions.push_back(widen(at));
      }
    return a;
  }

  CharacterSettings settings;
  settings.step_height = Scalar(tolerance.at("step_height"));
  settings.max_penetration_depth = Scalar(tolerance.at("max_penetration_depth"));
  settings.allowed_ccd_penetration = Scalar(tolerance.at("allowed_ccd_penetration"));
  settings.max_slope = Scalar(tolerance.at("max_slope"));
  const Scalar sweep_allowed = Scalar(tolerance.at("sweep_allowed_penetration"));
  CharacterRun character(peer, at, std::move(carried), has_gravity(q) ? gravity : Vec3<Scalar>{0, 0, 0}, settings);
  for (int frame = 0; frame < q.frames; ++frame)
    for (int pass = 0; pass < passes_per_frame; ++pass) {
      const Vec3<Scalar>& d = pass == 0 ? move : gravity;
      a.sweeps.push_back(reported(peer.sweep(*swept.shape, at, d, sweep_allowed), at, d, swept.held));
      const CharacterPass p = pass == 0 ? character.move(d) : character.fall();
      at = p.end;
      a.positions.push_back(widen(at));
      a.waypoints.push_back(widen(p.waypoints));
    }
  return a;
}

}  // namespace slidecheck::peers
