#pragma once
// A test-only capsule implementation and judge for search and shrink, while the verifier's own
// level A for capsules is elsewhere: the "ghost" moves the whole displacement and gravity of
// every frame ignoring the mesh (so it sinks into or passes through whatever is in the way), and
// its record has `penetration` when a resting position after the start overlaps a triangle and
// `invalid_start` when the start does, both decided exactly (capsule_clearance.hpp).
#include <slidecheck/verify/run/external_subject.hpp>
#include <slidecheck/verify/run/run_inputs.hpp>

#include "search/capsule_clearance.hpp"

#include <memory>
#include <variant>

namespace slidecheck::verify::test {

/// `judge_start`: false for a judge that never looks at the start (a shrink must still keep it
/// out of the mesh on its own).
inline std::shared_ptr<const ExternalSubject> ghost_capsule(Precision precision, bool judge_start = true) {
  auto s = std::make_shared<ExternalSubject>();
  s->description = "test:ghost";
  s->columns = {{Algorithm("ghost"), precision}};
  s->run = [judge_start](const QueryInput& in, const Algorithm& a, Precision p) {
    const Query& q = in.query;
    const auto& body = std::get<Capsule<double>>(q.shape);
    const IndexedMesh<double>& mesh = in.scene->mesh(p);
    QueryRecord r;
    r.query_id = q.id;
    r.query = q;
    r.algorithm = a;
    r.precision = p;
    Vec3<double> at = q.start;
    r.resting_positions = {at};
    const bool gravity = q.gravity.x != 0 || q.gravity.y != 0 || q.gravity.z != 0;
    for (int f = 0; f < q.frames; ++f) {
      at = at + q.displacement;
      r.resting_positions.push_back(at);
      if (gravity) {
        at = at + q.gravity;
        r.resting_positions.push_back(at);
      }
    }
    r.final_position = at;
    r.invalid_start = judge_start && capsule_clearance(body, q.start, mesh) < 0;
    for (std::size_t i = 1; i < r.resting_positions.size(); ++i)
      if (capsule_clearance(body, r.resting_positions[i], mesh) < 0) {
        Failure f;
        f.kind = FailureClass::penetration;
        f.where.step = static_cast<int>(i);
        f.detail = "the ghost's capsule overlaps the mesh at resting position " + std::to_string(i);
        r.failures.push_back(f);
        break;
      }
    return r;
  };
  return s;
}

}  // namespace slidecheck::verify::test
