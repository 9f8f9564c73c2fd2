// slidecheck-suite 1: built from the corpus generators and search's constructions with fixed
// seeds (suite.hpp, docs/rate.md).
#include <slidecheck/verify/rate/suite.hpp>

#include <slidecheck/verify/rate/sha256.hpp>
#include <slidecheck/verify/run/registry.hpp>
#include <slidecheck/verify/search/constructions.hpp>
#include <slidecheck/verify/search/search.hpp>

#include "search/search_generators.hpp"

#include <slidecheck/corpora/bsp.hpp>
#include <slidecheck/corpora/bsp_soup.hpp>
#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/corpora/capsule_moves.hpp>
#include <slidecheck/corpora/errors.hpp>
#include <slidecheck/corpora/movement_sets.hpp>
#include <slidecheck/corpora/openarena.hpp>
#include <slidecheck/corpora/pk3.hpp>
#include <slidecheck/corpora/rotated_corpus.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/formats/scene_io.hpp>
#include <slidecheck/reference/geometry/exact_rotation.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>
#include <rapidcheck.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

namespace slidecheck::verify::rate {

namespace {

namespace fs = std::filesystem;

/// The seed of every generator of the suite (walks, tangent and grazing moves, search's draws).
constexpr std::uint64_t kSeed = 1;
/// One rotated move in this many is kept, and one canonical move in this many runs level C.
constexpr std::size_t kRotatedSampling = 8;
constexpr std::size_t kLevelCSampling = 31;
/// Frames of a push into a corner, crease or wedge.
constexpr int kPushFrames = 8;
/// Candidates drawn per construction of search.
constexpr std::size_t kAdversarialPerConstruction = 32;
/// The shapes whose scripted paths push into corners, creases and wedges.
const std::set<std::string> kPushShapes = {"obtuse_corner", "acute_corner", "v_trough", "shallow_crease",
                                           "room_corner",   "thin_wedge",   "box_room"};
/// The shapes whose scripted paths, started half a radius lower, start inside the mesh.
const std::set<std::string> kRecoveryShapes = {"floor", "ramp", "stairs", "room_corner", "v_trough"};
const std::vector<std::string> kMaps = {"oa_dm1", "oa_ctf2"};
/// Candidates per exact construction on a rotated scene or a map (as `corpus build`).
constexpr std::size_t kRotatedAttempts = 512;

std::string short_number(double x) { return x == 0 ? "0" : fmt::format("{:g}", x); }

/// The canonical movement set's options with the suite's seed (walks and constructions at their defaults).
corpora::CanonicalMovementOptions movement_options() {
  corpora::CanonicalMovementOptions o;
  o.seed = kSeed;
  return o;
}

class Builder {
 public:
  explicit Builder(const SuiteOptions& o) : o_(o) {}

  Suite take() { return std::move(suite_); }

  /// Adds a scene under `file` (once: a file already added is not added again).
  void scene(const std::string& file, formats::Scene s) {
    if (!files_.insert(file).second) return;
    suite_.scene_files.push_back(file);
    suite_.scenes.push_back(std::move(s));
  }

  void queries(const std::string& part, const std::string& file, std::vector<formats::Query> qs,
               std::optional<double> scale, std::optional<double> offset, std::size_t sampling = 1,
               bool all_level_c = false) {
    if (std::find(suite_.parts.begin(), suite_.parts.end(), part) == suite_.parts.end()) suite_.parts.push_back(part);
    const std::string stem = fs::path(file).stem().string();
    for (std::size_t i = 0; i < qs.size(); i += sampling) {
      formats::Query q = std::move(qs[i]);
      q.id = part + "/" + stem + "/" + q.id;
      q.scene = file;
      q.algorithm_given = false;
      q.tolerances.clear();
      const bool level_c = all_level_c || (part == "canonical" && canonical_count_++ % kLevelCSampling == 0);
      suite_.queries.push_back({std::move(q), {.part = part, .scale = scale, .offset = offset, .level_c = level_c}});
    }
  }

  const SuiteOptions& o_;

 private:
  Suite suite_;
  std::set<std::string> files_;
  std::size_t canonical_count_ = 0;
};

formats::Scene placed_scene(const corpora::CanonicalShape& shape, const ExactRotation* rotation, double scale,
                            double offset, formats::Precision precision) {
  formats::Scene s;
  s.name = fmt::format("{}{} scale {} offset {}", shape.name, rotation ? " r1" : "", short_number(scale),
                       short_number(offset));
  s.units = "meter";
  s.source = "slidecheck canonical scene '" + shape.name + "'" + (rotation ? " rotated by r1" : "") + ": " +
             shape.purpose;
  s.licence = "CC0-1.0";
  s.precision = precision;
  s.mesh = rotation ? corpora::place_rotated(shape, *rotation, scale, offset, precision)
                    : corpora::place_canonical(shape, scale, offset, precision);
  for (std::size_t i = 0; i < s.mesh.triangle_count(); ++i)
    if (formats::is_degenerate_exact(s.mesh.triangle(i))) s.degenerate_allowed = true;
  return s;
}

std::string scene_file(const corpora::CanonicalShape& shape, bool rotated, double scale, double offset,
                       formats::Precision p) {
  return fmt::format("{}{}_s{}_o{}_{}.scene", shape.name, rotated ? "_r1" : "", short_number(scale),
                     short_number(offset), formats::precision_name(p));
}

/// The shapes of the suite: every canonical shape, and for capsules the capsule scenes too.
std::vector<const corpora::CanonicalShape*> suite_shapes(bool capsule) {
  std::vector<const corpora::CanonicalShape*> out;
  for (const auto& s : corpora::canonical_shapes()) out.push_back(&s);
  if (capsule)
    for (const auto& s : corpora::capsule_scenes()) out.push_back(&s);
  return out;
}

/// The body's radius: a sphere's or a capsule's.
double radius_of(const formats::Query& q) {
  return std::visit([](const auto& s) { return double(s.length(0)); }, q.shape);
}

void add_placed(Builder& b, bool capsule) {
  const formats::Precision p = b.o_.precision;
  const corpora::CanonicalMovementOptions movement = movement_options();
  for (const corpora::CanonicalShape* shape : suite_shapes(capsule)) {
    const std::vector<formats::Query> unit =
        capsule ? corpora::capsule_unit_moves(*shape, movement) : corpora::canonical_unit_moves(*shape, movement);
    const std::vector<formats::Query> scripted =
        capsule ? corpora::capsule_scripted_moves(*shape) : corpora::scripted_moves(*shape);
    for (double scale : corpora::canonical_scales())
      for (double offset : corpora::canonical_offsets()) {
        const std::string file = scene_file(*shape, false, scale, offset, p);
        formats::Scene scene = placed_scene(*shape, nullptr, scale, offset, p);
        std::vector<formats::Query> moves =
            capsule ? corpora::place_capsule_moves(unit, scale, offset, p, file)
                    : corpora::place_canonical_moves(unit, scene.mesh, scale, offset, p, file);
        b.scene(file, std::move(scene));
        b.queries("canonical", file, std::move(moves), scale, offset);
      }
  }
}

void add_rotated(Builder& b, bool capsule) {
  const formats::Precision p = b.o_.precision;
  const corpora::CanonicalMovementOptions movement = movement_options();
  const ExactRotation& r1 = general_rotations[0];
  for (const corpora::CanonicalShape* shape : suite_shapes(capsule))
    for (double scale : corpora::canonical_scales())
      for (double offset : corpora::canonical_offsets()) {
        const std::string file = scene_file(*shape, true, scale, offset, p);
        formats::Scene scene = placed_scene(*shape, &r1, scale, offset, p);
        std::vector<formats::Query> moves =
            capsule ? corpora::rotated_capsule_moves(*shape, r1, scene.mesh, scale, offset, p, file, movement)
                    : corpora::rotated_canonical_moves(*shape, r1, scene.mesh, scale, offset, p, file, movement,
                                                       kRotatedAttempts);
        b.scene(file, std::move(scene));
        b.queries("rotated", file, std::move(moves), scale, offset, kRotatedSampling);
      }
}

void add_maps(Builder& b, bool capsule) {
  try {
    const corpora::Pk3Archive archive(b.o_.maps);
    for (const std::string& name : kMaps) {
      const std::string entry = "maps/" + name + ".bsp";
      const corpora::bsp::BspFile map = corpora::bsp::parse_bsp(archive.read(entry), archive.path() + ":" + entry);
      for (formats::Scene scene : {corpora::openarena::draw_scene(name, corpora::extract_draw_soup(map)),
                                   corpora::openarena::brush_scene(name, corpora::extract_brush_soup(map))}) {
        // The maps are double; a float suite rates them rounded once to float, as verify would.
        const std::string file = scene.name + ".scene";
        const corpora::MovementScene ms{file, &scene.mesh, corpora::quake_character()};
        const corpora::WalkOptions walk{};
        std::vector<formats::Query> moves =
            capsule ? corpora::capsule_walks(ms, corpora::quake_player_capsule(), "player", kSeed, walk)
                    : corpora::mesh_moves(ms, kSeed, walk, {.count = 8, .attempts = kRotatedAttempts});
        b.scene(file, std::move(scene));
        b.queries("maps", file, std::move(moves), std::nullopt, std::nullopt);
      }
    }
  } catch (const corpora::FormatError& e) {
    throw formats::InputError(e.file(), 0, e.where().empty() ? e.problem() : e.where() + ": " + e.problem());
  }
}

/// The scripted paths of the corner, crease and wedge shapes as 8-frame pushes, and those of
/// the floor-like shapes started half a radius lower (recovery starts), at every scale and offset.
void add_pushes_and_recovery(Builder& b, bool capsule, bool recovery) {
  const formats::Precision p = b.o_.precision;
  for (const corpora::CanonicalShape* shape : suite_shapes(capsule)) {
    if (!(recovery ? kRecoveryShapes : kPushShapes).contains(shape->name)) continue;
    std::vector<formats::Query> unit = capsule ? corpora::capsule_scripted_moves(*shape) : corpora::scripted_moves(*shape);
    for (formats::Query& q : unit) {
      if (recovery) {
        q.start.z -= radius_of(q) / 2;  // dyadic unit coordinates: exact
        q.id = "recover-" + q.id;
      } else {
        q.frames = kPushFrames;
        q.id = "push8-" + q.id;
      }
    }
    for (double scale : corpora::canonical_scales())
      for (double offset : corpora::canonical_offsets()) {
        const std::string file = scene_file(*shape, false, scale, offset, p);
        std::vector<formats::Query> placed;
        for (const formats::Query& q : unit) placed.push_back(corpora::place_query(q, scale, offset, p));
        b.queries(recovery ? "recovery" : "pushes", file, std::move(placed), scale, offset, 1, !recovery);
      }
  }
}

void add_adversarial(Builder& b) {
  const Algorithm algorithm = *find_algorithm("robust");
  std::size_t index = 0;
  for (const std::string_view construction : constructions_for(b.o_.shape)) {
    const rc::Gen<Candidate> gen = gen_construction(construction, algorithm, b.o_.precision, false, b.o_.shape);
    for (std::size_t i = 0; i < kAdversarialPerConstruction; ++i, ++index) {
      Candidate c = gen(rc::Random(attempt_seed(kSeed, index)), rc::kNominalSize).value();
      const std::string file = fmt::format("adversarial_{}_{}_{}.scene", construction, i,
                                           formats::precision_name(b.o_.precision));
      c.scene.name = fmt::format("search construction {} (seed {}, attempt {})", construction, kSeed, index);
      c.query.id = fmt::format("{}-s{}-{}", construction, kSeed, index);
      // A sliver may round to zero area: said in the file, as verify requires.
      for (std::size_t t = 0; t < c.scene.mesh.triangle_count(); ++t)
        if (formats::is_degenerate_exact(c.scene.mesh.triangle(t))) c.scene.degenerate_allowed = true;
      b.scene(file, std::move(c.scene));
      b.queries("adversarial", file, {std::move(c.query)}, std::nullopt, std::nullopt);
    }
  }
}

/// The query's line in queries.jsonl.
std::string query_line(const formats::Query& q) { return formats::query_to_json_line(q); }

std::string placement_line(const SuiteQuery& q) {
  return fmt::format("{}\t{}\t{}\t{}\t{}", q.query.id, q.placement.part,
                     q.placement.scale ? formats::to_hex(*q.placement.scale) : "-",
                     q.placement.offset ? formats::to_hex(*q.placement.offset) : "-", q.placement.level_c ? "C" : "AB");
}

nlohmann::ordered_json identity_json(const SuiteIdentity& s) {
  return {{"name", "slidecheck-suite"}, {"version", s.version}, {"variant", s.variant}, {"hash", s.hash},
          {"shape", s.shape},           {"precision", s.precision}, {"queries", s.queries},
          {"level_c_queries", s.level_c_queries}};
}

std::string slice_stem(const Slice& s) { return fmt::format("slice-{}-of-{}", s.k, s.n); }

void write_text(const std::string& path, const std::string& text) {
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + tmp);
    out << text;
    out.close();
    if (!out) throw std::runtime_error("error writing " + tmp);
  }
  fs::rename(tmp, path);
}

}  // namespace

bool Slice::contains(std::string_view id) const {
  std::uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a, 64 bits
  for (const char c : id) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ull;
  }
  return h % n == k - 1;
}

std::string Slice::text() const { return std::to_string(k) + "/" + std::to_string(n); }

Slice parse_slice(std::string_view text) {
  const std::size_t slash = text.find('/');
  auto number = [&](std::string_view s) {
    std::size_t v = 0;
    if (s.empty() || s.size() > 9) throw std::invalid_argument("expected K/N, got '" + std::string(text) + "'");
    for (const char c : s) {
      if (c < '0' || c > '9') throw std::invalid_argument("expected K/N, got '" + std::string(text) + "'");
      v = v * 10 + std::size_t(c - '0');
    }
    return v;
  };
  if (slash == std::string_view::npos) throw std::invalid_argument("expected K/N, got '" + std::string(text) + "'");
  const Slice s{number(text.substr(0, slash)), number(text.substr(slash + 1))};
  if (s.n == 0 || s.k == 0 || s.k > s.n)
    throw std::invalid_argument("expected K/N with 1 <= K <= N, got '" + std::string(text) + "'");
  return s;
}

Suite build_suite(const SuiteOptions& o) {
  if (o.shape != "sphere" && o.shape != "capsule")
    throw std::invalid_argument("the suite's bodies are sphere and capsule, not '" + o.shape + "'");
  const bool capsule = o.shape == "capsule";
  Builder b(o);
  add_placed(b, capsule);
  add_rotated(b, capsule);
  if (!o.maps.empty()) add_maps(b, capsule);
  add_pushes_and_recovery(b, capsule, false);
  add_pushes_and_recovery(b, capsule, true);
  add_adversarial(b);
  Suite s = b.take();
  s.identity.version = kSuiteVersion;
  s.identity.variant = o.maps.empty() ? "nomaps" : "full";
  s.identity.shape = o.shape;
  s.identity.precision = std::string(formats::precision_name(o.precision));
  s.identity.queries = s.queries.size();
  for (const SuiteQuery& q : s.queries) s.identity.level_c_queries += q.placement.level_c;
  s.identity.hash = suite_hash(s);
  return s;
}

std::string suite_hash(const Suite& suite) {
  Sha256 h;
  h.update(fmt::format("slidecheck-suite {}\nvariant {}\nshape {}\nprecision {}\n", suite.identity.version,
                       suite.identity.variant, suite.identity.shape, suite.identity.precision));
  std::vector<std::size_t> order(suite.scenes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return suite.scene_files[a] < suite.scene_files[b]; });
  for (const std::size_t i : order) {
    const std::string text = formats::scene_to_string(suite.scenes[i]);
    h.update(fmt::format("scene {} {}\n", suite.scene_files[i], text.size()));
    h.update(text);
  }
  std::vector<std::string> lines;
  lines.reserve(2 * suite.queries.size());
  for (const SuiteQuery& q : suite.queries) {
    lines.push_back("query " + query_line(q.query) + "\n");
    lines.push_back("placement " + placement_line(q) + "\n");
  }
  std::sort(lines.begin(), lines.end());
  for (const std::string& l : lines) h.update(l);
  return h.hex_digest();
}

void write_suite(const Suite& suite, const std::string& dir) {
  fs::create_directories(dir);
  for (std::size_t i = 0; i < suite.scenes.size(); ++i)
    formats::write_scene_file((fs::path(dir) / suite.scene_files[i]).string(), suite.scenes[i]);
  std::string queries;
  for (const SuiteQuery& q : suite.queries) queries += query_line(q.query) + "\n";
  write_text((fs::path(dir) / "queries.jsonl").string(), queries);
  nlohmann::ordered_json j;
  j["format"] = "slidecheck-suite";
  j["suite"] = identity_json(suite.identity);
  j["parts"] = suite.parts;
  j["scenes"] = suite.scene_files;
  nlohmann::ordered_json placements = nlohmann::ordered_json::array();
  for (const SuiteQuery& q : suite.queries) placements.push_back(placement_line(q));
  j["placements"] = std::move(placements);
  // suite.json last: a directory with it is complete.
  write_text((fs::path(dir) / "suite.json").string(), j.dump(1) + "\n");
}

Suite read_suite(const std::string& dir) {
  const std::string index_file = (fs::path(dir) / "suite.json").string();
  std::ifstream in(index_file, std::ios::binary);
  if (!in) throw formats::InputError(index_file, 0, "cannot open (not a suite directory)");
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw formats::InputError(index_file, 0, std::string("not JSON: ") + e.what());
  }
  Suite s;
  try {
    if (j.at("format") != "slidecheck-suite") throw formats::InputError(index_file, 0, "not a suite index");
    const auto& id = j.at("suite");
    s.identity.version = id.at("version").get<int>();
    s.identity.variant = id.at("variant").get<std::string>();
    s.identity.hash = id.at("hash").get<std::string>();
    s.identity.shape = id.at("shape").get<std::string>();
    s.identity.precision = id.at("precision").get<std::string>();
    s.identity.queries = id.at("queries").get<std::size_t>();
    s.identity.level_c_queries = id.at("level_c_queries").get<std::size_t>();
    s.parts = j.at("parts").get<std::vector<std::string>>();
    s.scene_files = j.at("scenes").get<std::vector<std::string>>();
    const std::string query_file = (fs::path(dir) / "queries.jsonl").string();
    std::vector<formats::Query> queries = formats::read_queries(query_file);
    const auto& placements = j.at("placements");
    if (placements.size() != queries.size())
      throw formats::InputError(index_file, 0, "placements do not match queries.jsonl");
    for (std::size_t i = 0; i < queries.size(); ++i) {
      const std::string line = placements[i].get<std::string>();
      std::vector<std::string> f;
      std::istringstream fields(line);
      for (std::string x; std::getline(fields, x, '\t');) f.push_back(x);
      if (f.size() != 5 || f[0] != queries[i].id)
        throw formats::InputError(index_file, 0, "placement " + std::to_string(i) + " does not match its query");
      Placement p;
      p.part = f[1];
      p.level_c = f[4] == "C";
      if (f[2] != "-") p.scale = formats::parse_double(f[2]);
      if (f[3] != "-") p.offset = formats::parse_double(f[3]);
      s.queries.push_back({std::move(queries[i]), std::move(p)});
    }
  } catch (const nlohmann::json::exception& e) {
    throw formats::InputError(index_file, 0, std::string("not a suite index: ") + e.what());
  }
  for (const std::string& f : s.scene_files)
    s.scenes.push_back(formats::read_scene((fs::path(dir) / f).string()));
  const std::string hash = suite_hash(s);
  if (hash != s.identity.hash)
    throw formats::InputError(index_file, 0,
                              "the suite's content has hash " + hash + ", not the " + s.identity.hash +
                                  " it records: the directory was changed");
  return s;
}

std::pair<std::string, std::string> write_slice(const Suite& suite, const Slice& slice, const std::string& dir) {
  std::string ab, c;
  for (std::size_t i = 0; i < suite.queries.size(); ++i)
    if (slice.contains(suite.queries[i].query.id)) (suite.queries[i].placement.level_c ? c : ab) += query_line(suite.queries[i].query) + "\n";
  std::pair<std::string, std::string> files;
  if (!ab.empty()) {
    files.first = (fs::path(dir) / (slice_stem(slice) + "-ab.jsonl")).string();
    write_text(files.first, ab);
  }
  if (!c.empty()) {
    files.second = (fs::path(dir) / (slice_stem(slice) + "-c.jsonl")).string();
    write_text(files.second, c);
  }
  return files;
}

std::map<std::string, Placement> placements_of(const Suite& suite) {
  std::map<std::string, Placement> out;
  for (const SuiteQuery& q : suite.queries) out[q.query.id] = q.placement;
  return out;
}

}  // namespace slidecheck::verify::rate
