// Bullet through the verifier (bullet_adapter.hpp).
#include "bullet_adapter.hpp"

#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/verify/level_a/invariants.hpp>

#include <algorithm>
#include <cmath>
#include <sstream>

namespace slidecheck::peers {

namespace {

using Scalar = btScalar;
using verify::FailureClass;
using verify::StepLocation;

Vec3<Scalar> narrow(const Vec3<double>& v) { return {Scalar(v.x), Scalar(v.y), Scalar(v.z)}; }
Vec3<double> widen(const Vec3<Scalar>& v) { return {double(v.x), double(v.y), double(v.z)}; }
bool finite(const Vec3<double>& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }

using ojson = nlohmann::ordered_json;
ojson vec(const Vec3<double>& v) {
  return ojson::array({formats::exact_text(v.x), formats::exact_text(v.y), formats::exact_text(v.z)});
}
/// A metric: a JSON number when finite (shortest round-trip form), else its exact text.
ojson metric(double x) { return std::isfinite(x) ? ojson(x) : ojson(formats::exact_text(x)); }

}  // namespace

std::string_view bullet_algorithm_name(BulletAlgorithm a) {
  return a == BulletAlgorithm::sweep ? "bullet_sweep" : "bullet_kcc";
}

std::optional<BulletAlgorithm> find_bullet_algorithm(std::string_view name) {
  for (const BulletAlgorithm a : all_bullet_algorithms)
    if (bullet_algorithm_name(a) == name) return a;
  return std::nullopt;
}

formats::Precision bullet_precision() {
  return sizeof(Scalar) == 4 ? formats::Precision::single_float : formats::Precision::double_float;
}

bool BulletRecord::has(FailureClass c) const {
  return std::any_of(failures.begin(), failures.end(), [c](const verify::Failure& f) { return f.kind == c; });
}

BulletPeer& BulletScenes::world(const std::shared_ptr<const verify::SceneContext>& sc) {
  auto it = worlds_.find(sc.get());
  if (it == worlds_.end())
    it = worlds_.emplace(sc.get(), std::make_pair(sc, std::make_unique<BulletPeer>(sc->mesh(bullet_precision())))).first;
  return *it->second.second;
}

double exact_clearance(const verify::TriangleIndex& index, double radius, const Vec3<double>& p) {
  if (!finite(p)) return std::nan("");
  // check_invariants reports the clearance of path[1..], or of path[0] when that overlaps.
  const verify::InvariantReport r =
      verify::check_invariants(index, {radius, radius, radius}, {p, p}, std::vector<StepLocation>(2));
  return r.min_clearance;
}

void judge(const verify::TriangleIndex& index, const std::vector<StepLocation>& where, BulletRecord& r) {
  const double radius = r.query.radii.radii.x;
  const verify::InvariantReport inv =
      verify::check_invariants(index, {radius, radius, radius}, r.resting_positions, where);
  r.min_clearance = inv.min_clearance;
  r.invalid_start = inv.invalid_start;
  r.start_detail = inv.start_detail;
  r.failures.clear();
  if (inv.invalid_start) return;  // the input's fault, as `slidecheck verify` counts it
  r.failures = inv.failures;
  for (std::size_t i = 1; i < r.resting_positions.size(); ++i)
    if (!finite(r.resting_positions[i])) {
      verify::Failure f;
      f.kind = FailureClass::nonfinite;
      f.where = where[i];
      const Vec3<double>& p = r.resting_positions[i];
      f.detail = "resting position " + std::to_string(i) + " is (" + formats::exact_text(p.x) + ", " +
                 formats::exact_text(p.y) + ", " + formats::exact_text(p.z) + ")";
      r.failures.push_back(std::move(f));
      break;  // every later position descends from it
    }
}

BulletRecord run_bullet(const std::shared_ptr<const verify::SceneContext>& scene, BulletScenes& worlds,
                        const formats::Query& query, const std::string& query_file, BulletAlgorithm algorithm) {
  const verify::SceneContext& sc = *scene;
  BulletRecord r;
  r.query_id = query.id;
  r.query_file = query_file;
  r.scene_file = sc.file;
  r.algorithm = algorithm;
  r.precision = bullet_precision();
  // The query that runs: rounded once to btScalar (as `slidecheck verify` rounds to float).
  formats::Query& q = r.query;
  q = query;
  q.start = widen(narrow(query.start));
  q.displacement = widen(narrow(query.displacement));
  q.radii.radii = widen(narrow(query.radii.radii));
  q.gravity = widen(narrow(query.gravity));
  if (query.ellipsoid) {
    r.skipped = "an ellipsoid: Bullet's btSphereShape is a sphere (a scaled sphere would not sweep as Fauerby's eSpace)";
    r.resting_positions = {q.start};
    return r;
  }
  const verify::TriangleIndex& index = sc.index(r.precision);
  BulletPeer& world = worlds.world(scene);
  const Scalar radius = Scalar(q.radii.radii.x);
  const Vec3<Scalar> start = narrow(q.start), move = narrow(q.displacement), gravity = narrow(q.gravity);
  const bool has_gravity = !(gravity.x == 0 && gravity.y == 0 && gravity.z == 0);
  std::vector<StepLocation> where{StepLocation{}};
  r.resting_positions.push_back(q.start);

  if (algorithm == BulletAlgorithm::sweep) {
    const btSphereShape sphere(radius);
    Vec3<Scalar> at = start;
    double at_clearance = exact_clearance(index, q.radii.radii.x, q.start);
    int step = 0;
    for (int frame = 0; frame < q.frames; ++frame)
      for (int pass = 0; pass < (has_gravity ? 2 : 1); ++pass) {
        const BulletPeer::Sweep s = world.sweep(sphere, at, pass == 0 ? move : gravity);
        SweepEvent e;
        e.frame = frame;
        e.pass = pass;
        e.hit = s.hit;
        e.fraction = double(s.fraction);
        e.start_clearance = at_clearance;
        at = s.end;
        at_clearance = exact_clearance(index, q.radii.radii.x, widen(at));
        e.end_clearance = at_clearance;
        r.sweeps.push_back(e);
        r.resting_positions.push_back(widen(at));
        where.push_back(StepLocation{frame * (has_gravity ? 2 : 1) + pass, 0, ++step});
      }
  } else {
    const BulletPeer::Walk w = world.walk_character(start, move, gravity, radius, q.frames);
    r.frames_without_pair = w.frames_without_pair;
    for (std::size_t k = 0; k < w.ends.size(); ++k) {
      r.resting_positions.push_back(widen(w.ends[k]));
      where.push_back(StepLocation{int(k), 0, int(k) + 1});
      r.frame_clearances.push_back(exact_clearance(index, q.radii.radii.x, widen(w.ends[k])));
    }
  }
  judge(index, where, r);
  return r;
}

ojson to_json(const BulletRecord& r) {
  ojson j;
  j["query_id"] = r.query_id;
  j["query_file"] = r.query_file;
  j["scene_file"] = r.scene_file;
  j["algorithm"] = std::string(bullet_algorithm_name(r.algorithm));
  j["precision"] = std::string(formats::precision_name(r.precision));
  j["query"] = ojson::parse(formats::query_to_json_line(r.query));
  if (!r.skipped.empty()) j["skipped"] = r.skipped;
  j["invalid_start"] = r.invalid_start;
  if (r.invalid_start) j["start_detail"] = r.start_detail;
  ojson classes = ojson::array();
  for (const FailureClass c : verify::all_failure_classes)
    if (r.has(c)) classes.push_back(std::string(verify::to_string(c)));
  j["classes"] = classes;
  j["final_position"] = vec(r.resting_positions.back());
  ojson path = ojson::array();
  for (const auto& p : r.resting_positions) path.push_back(vec(p));
  j["resting_positions"] = path;
  j["min_clearance"] = r.skipped.empty() ? metric(r.min_clearance) : ojson(nullptr);
  ojson failures = ojson::array();
  for (const verify::Failure& f : r.failures) failures.push_back(ojson::parse(verify::failure_json(f)));
  j["failures"] = failures;
  if (r.algorithm == BulletAlgorithm::sweep && r.skipped.empty()) {
    ojson sweeps = ojson::array();
    for (const SweepEvent& e : r.sweeps)
      sweeps.push_back(ojson{{"frame", e.frame},
                             {"pass", e.pass},
                             {"hit", e.hit},
                             {"fraction", formats::exact_text(e.fraction)},
                             {"start_clearance", metric(e.start_clearance)},
                             {"end_clearance", metric(e.end_clearance)}});
    j["sweeps"] = sweeps;
  }
  if (r.algorithm == BulletAlgorithm::kcc && r.skipped.empty()) {
    ojson c = ojson::array();
    for (const double x : r.frame_clearances) c.push_back(metric(x));
    j["frame_clearances"] = c;
    j["frames_without_pair"] = r.frames_without_pair;
  }
  return j;
}

void BulletTally::add(const BulletRecord& r) {
  Counts& c = counts_[r.algorithm];
  ++c.records;
  if (!r.skipped.empty()) {
    ++c.skipped;
    return;
  }
  if (r.invalid_start) {
    ++c.invalid_start;
    return;
  }
  c.failing += r.failed();
  for (const FailureClass k : verify::all_failure_classes) c.queries_with[k] += r.has(k);
  for (const verify::Failure& f : r.failures) {
    ++c.rows[f.kind];
    Worst* w = f.kind == FailureClass::penetration        ? &c.deepest_penetration
               : f.kind == FailureClass::path_penetration ? &c.deepest_path_penetration
                                                          : nullptr;
    if (w && f.depth > w->depth) *w = Worst{f.depth, r.query_id, r.scene_file};
  }
  for (const SweepEvent& e : r.sweeps) {
    ++c.sweeps;
    if (!e.hit) continue;
    ++c.hits;
    if (e.fraction == 0) {
      ++c.zero_hits;
      c.zero_hits_clear_start += e.start_clearance > kBulletGap;
      c.zero_hits_start_within_gap += e.start_clearance >= 0 && e.start_clearance <= kBulletGap;
    }
    if (e.end_clearance < 0) ++c.hit_ends_inside;
    else if (e.end_clearance <= kBulletGap) ++c.hit_ends_within_gap;
    else if (std::isfinite(e.end_clearance)) ++c.hit_ends_beyond_gap;
    if (e.end_clearance >= 0 && std::isfinite(e.end_clearance)) c.hit_end_gaps.push_back(e.end_clearance);
  }
  for (const double x : r.frame_clearances) {
    ++c.frames;
    c.frame_ends_inside += x < 0;
    c.frame_ends_within_gap += x >= 0 && x <= kBulletGap;
  }
  c.frames_without_pair += std::size_t(r.frames_without_pair);
  c.failing_without_pair += r.failed() && r.frames_without_pair > 0;
}

bool BulletTally::any_failure() const {
  return std::any_of(counts_.begin(), counts_.end(), [](const auto& kv) { return kv.second.failing > 0; });
}

std::string BulletTally::text() const {
  std::ostringstream o;
  o.precision(17);
  for (const auto& [alg, c] : counts_) {
    const std::size_t run = c.records - c.skipped - c.invalid_start;
    o << bullet_algorithm_name(alg) << " (Bullet " << BT_BULLET_VERSION / 100 << '.' << BT_BULLET_VERSION % 100 << ", "
      << formats::precision_name(bullet_precision()) << "): " << c.records << " queries, " << c.skipped
      << " skipped (ellipsoids), " << c.invalid_start << " invalid starts, " << run << " judged, " << c.failing
      << " failing\n";
    o << "  failing queries per class (failure rows):";
    bool any = false;
    for (const FailureClass k : verify::all_failure_classes) {
      const auto q = c.queries_with.find(k);
      if (q == c.queries_with.end() || q->second == 0) continue;
      o << ' ' << verify::to_string(k) << ' ' << q->second << " (" << c.rows.at(k) << ')';
      any = true;
    }
    o << (any ? "\n" : " none\n");
    auto worst = [&o](const char* what, const Worst& w) {
      o << "  deepest " << what << ": ";
      if (w.query_id.empty()) o << "none\n";
      else o << w.depth << " (" << formats::to_hex(w.depth) << ") in query '" << w.query_id << "' of " << w.scene_file << '\n';
    };
    worst("penetration", c.deepest_penetration);
    worst("path_penetration", c.deepest_path_penetration);
    if (alg == BulletAlgorithm::sweep) {
      o << "  sweeps " << c.sweeps << ", hits " << c.hits << ", hits at fraction 0: " << c.zero_hits << " (start clearance > "
        << kBulletGap << ": " << c.zero_hits_clear_start << ", in [0, " << kBulletGap << "]: " << c.zero_hits_start_within_gap
        << ")\n";
      o << "  hit end poses by exact clearance: inside " << c.hit_ends_inside << ", in [0, " << kBulletGap
        << "] " << c.hit_ends_within_gap << ", beyond " << c.hit_ends_beyond_gap << '\n';
      if (!c.hit_end_gaps.empty()) {
        std::vector<double> g = c.hit_end_gaps;
        std::sort(g.begin(), g.end());
        o << "  clearance of hit end poses outside the mesh: min " << g.front() << ", median " << g[g.size() / 2]
          << ", max " << g.back() << '\n';
      }
    } else {
      o << "  frames " << c.frames << ", frame ends inside " << c.frame_ends_inside << ", in [0, " << kBulletGap
        << "] " << c.frame_ends_within_gap << ", frames whose sweeps saw no object (empty ghost pair cache after preStep) " << c.frames_without_pair
        << " (in " << c.failing_without_pair << " failing queries)\n";
    }
  }
  return o.str();
}

}  // namespace slidecheck::peers
