// Candidates of search and shrink: their numbers, sizes and failure signatures (candidate.hpp).
#include <slidecheck/verify/search/candidate.hpp>

#include "search/capsule_clearance.hpp"

#include <slidecheck/verify/run/algorithms.hpp>
#include <slidecheck/verify/run/run_inputs.hpp>
#include <slidecheck/formats/errors.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <variant>

namespace slidecheck::verify {

Candidate candidate_of(const CaseFile& c) {
  Candidate out{c.scene, c.query};
  out.query.algorithm = c.algorithm;
  return out;
}

Candidate candidate_of(const SceneContext& scene, const QueryRecord& record, const ExternalSubject* external) {
  Candidate out;
  out.scene = scene.scene;
  out.scene.mesh = scene.mesh(record.precision);
  if (record.precision == Precision::single_float) out.scene.precision = Precision::single_float;
  out.query = record.query;
  out.query.algorithm = record.algorithm;
  // An external implementation's tolerances are its own (sent with each request, not the query's).
  if (external)
    out.query.tolerances.clear();
  else
    out.query.tolerances = tolerance_values(tolerances_for(record.query, record.algorithm));
  if (record.run_triangles.empty()) return out;
  return with_triangles(out, record.run_triangles);
}

int significant_bits(double x) {
  if (x == 0 || !std::isfinite(x)) return 0;
  int e = 0;
  double m = std::fabs(std::frexp(x, &e));  // m in [0.5, 1): scaling by 2 is exact
  int k = 0;
  while (m != std::floor(m)) {
    m *= 2;
    ++k;
  }
  return k;
}

double round_to_bits(double x, int k) {
  if (x == 0 || !std::isfinite(x) || k >= 53) return x;
  k = std::max(k, 1);
  int e = 0;
  std::frexp(x, &e);  // |x| in [2^(e-1), 2^e)
  const double scaled = std::ldexp(x, k - e);  // |scaled| in [2^(k-1), 2^k)
  return std::ldexp(std::round(scaled), e - k);
}

double round_to(double x, Precision p) {
  return p == Precision::single_float ? static_cast<double>(static_cast<float>(x)) : x;
}

namespace {

// Indices of the vertices some triangle uses, ascending.
std::vector<std::uint32_t> used_vertices(const Candidate& c) {
  std::vector<char> used(c.scene.mesh.vertices.size(), 0);
  for (const auto& t : c.scene.mesh.triangles)
    for (const std::uint32_t v : t) used[v] = 1;
  std::vector<std::uint32_t> out;
  for (std::uint32_t v = 0; v < used.size(); ++v)
    if (used[v]) out.push_back(v);
  return out;
}


}  // namespace

std::size_t number_count(const Candidate& c) { return 3 * c.scene.mesh.vertices.size() + 9 + length_count(c.query.shape); }

double number(const Candidate& c, std::size_t i) {
  const std::size_t nv = 3 * c.scene.mesh.vertices.size();
  if (i < nv) return c.scene.mesh.vertices[i / 3][i % 3];
  i -= nv;
  if (i < 3) return c.query.start[i];
  if (i < 6) return c.query.displacement[i - 3];
  if (i < 9) return c.query.gravity[i - 6];
  return length(c.query.shape, i - 9);
}

bool is_length_number(const Candidate& c, std::size_t i) { return i >= 3 * c.scene.mesh.vertices.size() + 9; }

bool is_radius_number(const Candidate& c, std::size_t i) {
  if (!is_length_number(c, i)) return false;
  const std::size_t k = i - (3 * c.scene.mesh.vertices.size() + 9);
  return std::visit([k](const auto& b) { return b.must_be_positive(k); }, c.query.shape);
}

Candidate with_number(const Candidate& c, std::size_t i, double v) {
  Candidate out = c;
  v = round_to(v, c.scene.precision);
  const std::size_t nv = 3 * out.scene.mesh.vertices.size();
  if (i < nv) {
    out.scene.mesh.vertices[i / 3][i % 3] = v;
    return out;
  }
  i -= nv;
  if (i < 3)
    out.query.start[i] = v;
  else if (i < 6)
    out.query.displacement[i - 3] = v;
  else if (i < 9)
    out.query.gravity[i - 6] = v;
  else
    set_length(out.query.shape, i - 9, v);
  return out;
}

Candidate with_triangles(const Candidate& c, const std::vector<std::size_t>& keep) {
  Candidate out = c;
  IndexedMesh<double>& m = out.scene.mesh;
  m.triangles.clear();
  m.vertices.clear();
  out.scene.triangle_lines.clear();
  out.scene.degenerate_triangles.clear();
  std::map<std::uint32_t, std::uint32_t> remap;
  for (const std::size_t t : keep) {
    std::array<std::uint32_t, 3> tri{};
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t v = c.scene.mesh.triangles[t][k];
      const auto [it, fresh] = remap.emplace(v, static_cast<std::uint32_t>(m.vertices.size()));
      if (fresh) m.vertices.push_back(c.scene.mesh.vertices[v]);
      tri[k] = it->second;
    }
    m.triangles.push_back(tri);
  }
  return out;
}

CandidateSize size_of(const Candidate& c) {
  CandidateSize s;
  s.triangles = c.scene.mesh.triangle_count();
  long total_bits = 0;
  auto count = [&](double x) {
    const int b = significant_bits(x);
    s.max_bits = std::max(s.max_bits, b);
    total_bits += b;
    ++s.numbers;
  };
  for (const std::uint32_t v : used_vertices(c)) {
    const Vec3<double>& p = c.scene.mesh.vertices[v];
    for (std::size_t k = 0; k < 3; ++k) {
      count(p[k]);
      s.magnitude = std::max(s.magnitude, std::fabs(p[k]));
    }
  }
  const std::size_t nv = 3 * c.scene.mesh.vertices.size();
  for (std::size_t i = nv; i < number_count(c); ++i) count(number(c, i));
  for (std::size_t k = 0; k < 3; ++k) s.magnitude = std::max(s.magnitude, std::fabs(c.query.start[k]));
  s.mean_bits = s.numbers ? static_cast<double>(total_bits) / static_cast<double>(s.numbers) : 0;
  s.move_length = length(c.query.displacement);
  return s;
}

std::ostream& operator<<(std::ostream& os, const CandidateSize& s) {
  return os << s.triangles << " triangles, " << s.numbers << " numbers of at most " << s.max_bits
            << " significant bits (mean " << std::round(s.mean_bits * 10) / 10 << "), move length "
            << exact_text(s.move_length) << ", largest coordinate " << exact_text(s.magnitude);
}

bool same_signature(const FailureSignature& a, const FailureSignature& b) {
  if (a.kind != b.kind || a.first_divergent.has_value() != b.first_divergent.has_value()) return false;
  if (!a.first_divergent) return true;
  const DivergentStep& x = *a.first_divergent;
  const DivergentStep& y = *b.first_divergent;
  return x.where.pass == y.where.pass && x.where.iteration == y.where.iteration && x.step == y.step &&
         x.decision == y.decision;
}

std::ostream& operator<<(std::ostream& os, const FailureSignature& s) {
  os << to_string(s.kind) << ", first divergent ";
  if (!s.first_divergent) return os << "none (no decision differs: algorithmic)";
  const DivergentStep& d = *s.first_divergent;
  return os << d.step << "/" << d.decision << " (pass " << d.where.pass << ", iteration " << d.where.iteration
            << ", margin " << d.margin_ulps << " ulps)";
}

std::optional<FailureSignature> signature_of(const QueryRecord& r, FailureClass kind) {
  if (!kept_by_search(kind, r.invalid_start) || !r.has(kind)) return std::nullopt;
  return FailureSignature{kind, r.first_divergent};
}

std::optional<QueryRecord> evaluate_candidate(const Candidate& c, Precision precision, bool level_c,
                                              const std::string& label, const ExternalSubject* external) {
  if (zero_half_axis(c.query.shape)) return std::nullopt;
  Scene scene = c.scene;
  try {
    validate_scene(scene, label);
    if (external) {
      const QueryInput in{label, 0, c.query, std::make_shared<SceneContext>(label, std::move(scene))};
      return external->run(in, c.query.algorithm, precision);
    }
    const SceneContext context(label, std::move(scene));
    VerifyQueryOptions o;
    o.level_c = level_c;
    // Search and shrink run thousands of candidates: a deep exact tie gets a quarter of a
    // second, not verify's two (an unproven decision is reported, never guessed).
    o.level_c_options.exact_timeout_seconds = 0.25;
    return verify_query(context, c.query, label, c.query.algorithm, precision, o);
  } catch (const InputError&) {
    return std::nullopt;
  }
}

CaseFile case_of(const Candidate& c, const QueryRecord& record, const std::string& source,
                 const ExternalSubject* external) {
  CaseFile out = make_case(record,
                           external ? external->tolerances : tolerance_values(tolerances_for(c.query, c.query.algorithm)),
                           c.scene, c.scene.mesh, {});
  out.scene.name = c.scene.name;
  out.scene.source = source;
  out.source_scene_file = source;
  return out;
}

}  // namespace slidecheck::verify
