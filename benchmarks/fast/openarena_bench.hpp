// What the mains of the fast/ benchmarks on OpenArena maps (sweep_vs_bullet.cpp,
// capsule_vs_bullet.cpp) share, so each says only what it measures: the command line, a map's
// meshes, the exact overlap test of a resting body, the callgrind runs of one peer and the CSV
// report, whose header is written beside the values so the two cannot drift apart.
#pragma once

#include "openarena_queries.hpp"

#include <slidecheck/reference/numbers/mp.hpp>

#include <valgrind/callgrind.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <string>
#include <vector>

namespace slidecheck::bench {

/// A benchmark's command line: `--pk3 PAK1` (else $SLIDECHECK_OPENARENA_PK3), `--map NAME`
/// (repeated), `--queries N`, `--seed S`, `--reps R`, `--only PEER` (one of the benchmark's own),
/// `--machine TEXT` (the report's first column), `--header`.
struct Options {
  std::string pk3, only, machine = "unknown";
  std::vector<std::string> maps;
  std::size_t queries = 20000;
  std::uint64_t seed = 20261124;
  int reps = 5;
  bool header = false;
};

/// "a, b or c".
inline std::string either(const std::vector<std::string>& words) {
  std::string s;
  for (std::size_t i = 0; i < words.size(); ++i)
    s += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return s;
}

/// The options of the command line, or nothing once stderr says why (the program then exits
/// with 2). `name` names the program in messages; `peers` are the values `--only` takes.
inline std::optional<Options> parse_options(int argc, char** argv, const std::string& name,
                                            const std::vector<std::string>& peers) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--pk3") o.pk3 = next();
    else if (a == "--map") o.maps.push_back(next());
    else if (a == "--queries") o.queries = std::stoul(next());
    else if (a == "--seed") o.seed = std::stoull(next());
    else if (a == "--reps") o.reps = std::stoi(next());
    else if (a == "--only") o.only = next();
    else if (a == "--machine") o.machine = next();
    else if (a == "--header") o.header = true;
    else {
      std::string only;
      for (const std::string& p : peers) only += (only.empty() ? "" : "|") + p;
      std::fprintf(stderr, "usage: %s --pk3 PAK1 --map NAME... [--queries N] [--seed S] [--reps R] [--only %s] "
                   "[--machine TEXT] [--header]\n", argv[0], only.c_str());
      return std::nullopt;
    }
  }
  if (o.pk3.empty()) o.pk3 = std::getenv("SLIDECHECK_OPENARENA_PK3") ? std::getenv("SLIDECHECK_OPENARENA_PK3") : "";
  if (o.pk3.empty() || o.maps.empty()) {
    std::fprintf(stderr, "%s: need --pk3 (or SLIDECHECK_OPENARENA_PK3) and at least one --map\n", name.c_str());
    return std::nullopt;
  }
  if (!o.only.empty() && std::find(peers.begin(), peers.end(), o.only) == peers.end()) {
    std::fprintf(stderr, "%s: --only takes %s, not '%s'\n", name.c_str(), either(peers).c_str(), o.only.c_str());
    return std::nullopt;
  }
  return o;
}

/// The precision F stands for, as the report names it.
template <class F>
constexpr const char* precision_name() {
  return sizeof(F) == 4 ? "float" : "double";
}

/// A map as both benchmarks hold it: the pk3's soup in double, the same rounded once to F, and
/// the BVH of the double soup with exact boxes (the set's clearance filter and exact_overlap).
template <class F>
struct MapMeshes {
  IndexedMesh<double> exact;
  IndexedMesh<F> mesh;
  fast::World<double> exact_world;
};

template <class F>
MapMeshes<F> load_map_meshes(const corpora::Pk3Archive& archive, const std::string& map) {
  MapMeshes<F> m;
  m.exact = load_map(archive, map);
  m.mesh = convert_mesh<F>(m.exact, [](double x) { return F(x); });
  fast::BvhBuildOptions o;
  o.slack.float_faithful = false;
  m.exact_world = fast::World<double>::build(m.exact, o);
  return m;
}

/// Whether a body resting at a position overlaps the map, and its deepest depth (in double).
struct Overlap {
  bool inside = false;
  double depth = 0;
};

/// Whether the body of radius `r` at `p` overlaps a triangle within `reach` of `p` on every axis:
/// `squared_distance(p, t)`, generic in its number type, is the squared distance from the body's
/// core (its centre, a capsule's axis segment) to t. Decided in double where it has a margin of
/// 1e-9 relative, otherwise in rationals from the same doubles.
template <class SquaredDistance>
Overlap exact_overlap(const fast::World<double>& w, const Vec3<double>& p, double r, double reach,
                      std::vector<fast::CandidateKey>& keys, SquaredDistance&& squared_distance) {
  triangles_near(w, p, reach, keys);
  Overlap o;
  const double r2 = r * r;
  for (auto k : keys) {
    const Triangle<double> t = w.mesh.triangle(fast::candidate_triangle(k));
    const double d2 = squared_distance(p, t);
    if (d2 > r2 * (1 + 1e-9)) continue;  // clear beyond any double rounding of this evaluation
    bool inside = d2 < r2 * (1 - 1e-9);
    if (!inside) {  // undecided in double: decide in rationals
      auto q = [](double x) { return num::from_double<Rational>(x); };
      const Triangle<Rational> tq{convert_vec<Rational>(t.p0, q), convert_vec<Rational>(t.p1, q),
                                  convert_vec<Rational>(t.p2, q)};
      inside = squared_distance(convert_vec<Rational>(p, q), tq) < q(r) * q(r);
    }
    if (inside) {
      o.inside = true;
      o.depth = std::max(o.depth, r - std::sqrt(std::max(d2, 0.0)));
    }
  }
  return o;
}

/// `--only`: `run` (one pass of a peer over the set, returning a count that keeps the work from
/// the optimiser) twice, the second between callgrind's collection toggles (`valgrind
/// --tool=callgrind --collect-atstart=no` counts only it), then the line saying what ran:
/// "PEER PRECISION MAP: N queries, COUNT WHAT(two runs)".
template <class F, class Run>
void callgrind_runs(const Options& o, const std::string& map, std::size_t queries, const char* what, Run&& run) {
  std::size_t count = run();  // a warm pass
  CALLGRIND_TOGGLE_COLLECT;
  count += run();
  CALLGRIND_TOGGLE_COLLECT;
  std::printf("%s %s %s: %zu queries, %zu %s(two runs)\n", o.only.c_str(), precision_name<F>(), map.c_str(), queries,
              count, what);
}

/// One line of a benchmark's CSV report, each column named beside its value.
class CsvLine {
 public:
  CsvLine& quoted(const char* name, const std::string& v) { return add(name, "\"" + v + "\""); }
  CsvLine& text(const char* name, const std::string& v) { return add(name, v); }
  CsvLine& count(const char* name, std::uint64_t v) { return add(name, std::to_string(v)); }
  /// printf's %.<decimals>f.
  CsvLine& fixed(const char* name, double v, int decimals) { return add(name, printed("%.*f", decimals, v)); }
  /// printf's %g: six significant digits.
  CsvLine& general(const char* name, double v) { return add(name, printed("%.*g", 6, v)); }

  const std::string& header() const { return names_; }
  const std::string& values() const { return values_; }

 private:
  static std::string printed(const char* format, int digits, double v) {
    std::string s(std::size_t(std::snprintf(nullptr, 0, format, digits, v)), '\0');
    std::snprintf(s.data(), s.size() + 1, format, digits, v);
    return s;
  }
  CsvLine& add(const char* name, const std::string& v) {
    names_ += (names_.empty() ? "" : ",") + std::string(name);
    values_ += (values_.empty() ? "" : ",") + v;
    return *this;
  }
  std::string names_, values_;
};

/// A report line's first columns, the run's: machine, precision, map, triangles, queries, seed.
template <class F>
CsvLine report_line(const Options& o, const std::string& map, std::size_t triangles, std::size_t queries) {
  CsvLine line;
  line.quoted("machine", o.machine)
      .text("precision", precision_name<F>())
      .text("map", map)
      .count("triangles", triangles)
      .count("queries", queries)
      .count("seed", o.seed);
  return line;
}

/// A benchmark's CSV report on stdout: the header before the first line when asked, then one line
/// per map, each flushed as it is written.
class CsvReport {
 public:
  explicit CsvReport(bool header) : header_(header) {}
  void write(const CsvLine& line) {
    if (header_) std::printf("%s\n", line.header().c_str());
    header_ = false;
    std::printf("%s\n", line.values().c_str());
    std::fflush(stdout);
  }

 private:
  bool header_;
};

}  // namespace slidecheck::bench
