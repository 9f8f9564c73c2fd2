// `slidecheck corpus list|build|stats`: the canonical scenes listed or written as .scene files,
// with movement sets (queries.jsonl) and OpenArena maps on request, and statistics of scene
// and query files.
#include "commands.hpp"
#include "common_options.hpp"

#include <slidecheck/corpora/bsp.hpp>
#include <slidecheck/corpora/bsp_soup.hpp>
#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/corpora/capsule_moves.hpp>
#include <slidecheck/corpora/errors.hpp>
#include <slidecheck/corpora/movement_sets.hpp>
#include <slidecheck/corpora/openarena.hpp>
#include <slidecheck/corpora/pk3.hpp>
#include <slidecheck/corpora/rotated_corpus.hpp>
#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/formats/convert.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/formats/mesh_import.hpp>
#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/formats/scene.hpp>
#include <slidecheck/formats/scene_io.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <stdexcept>
#include <sstream>
#include <variant>

namespace slidecheck::cli {
namespace {

namespace fs = std::filesystem;

/// The maps written by `--maps` when no `--map` is given: a small deathmatch map and the
/// patch-heavy capture-the-flag map.
const std::vector<std::string> kDefaultMaps = {"oa_dm1", "oa_ctf2"};

struct CorpusBuildArgs : CommonArgs {
  std::vector<std::string> shapes;
  bool movements = false;
  std::uint64_t seed = 1;
  std::size_t walks = 2;
  std::size_t frames = 16;
  std::size_t exact_count = 8;
  std::string maps;  ///< pak1-maps.pk3, optional
  std::vector<std::string> map_names;
  std::string mesh;   ///< --mesh: the user's own mesh instead of the canonical shapes
  double radius = 0;  ///< --radius (0: default_radius of the mesh)
  std::size_t rotations = 0;  ///< --rotations: also each shape rotated by r1..rN
};

/// Candidates per exact construction on a rotated scene: as on the maps, a vertex of a shape
/// in general position is rarely clear on all sides along a coordinate axis.
constexpr std::size_t kRotatedAttempts = 512;

/// What `--shape` names: the bodies of the moves (names of shape_names()) and the scenes (canonical
/// shapes and capsule scenes). The two lists share no name.
struct ShapeSelection {
  bool sphere = false;
  bool capsule = false;
  bool scenes_named = false;  ///< scenes were named (else every canonical shape, and with a capsule the capsule scenes)
  std::vector<const corpora::CanonicalShape*> scenes;
};

std::string joined(const auto& names) {
  std::string out;
  for (const auto& n : names) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

ShapeSelection select_shapes(const std::vector<std::string>& names) {
  const std::vector<std::string_view> bodies = shape_names();
  const std::vector<std::string> scenes = corpora::scene_names();
  for (const std::string& scene : scenes)
    if (std::find(bodies.begin(), bodies.end(), scene) != bodies.end())
      throw std::logic_error("the scene '" + scene + "' has the name of a body shape");
  ShapeSelection out;
  for (const std::string& name : names) {
    if (std::find(bodies.begin(), bodies.end(), name) != bodies.end()) {
      if (name == Sphere<double>::name) out.sphere = true;
      else if (name == Capsule<double>::name) out.capsule = true;
      else
        throw verify::UsageError("--shape", "no moves are generated for a body '" + name + "' (the corpus's bodies: " +
                                                std::string(Sphere<double>::name) + ", " +
                                                std::string(Capsule<double>::name) + ")");
    } else if (const corpora::CanonicalShape* scene = corpora::find_scene(name)) {
      out.scenes_named = true;
      if (std::find(out.scenes.begin(), out.scenes.end(), scene) == out.scenes.end()) out.scenes.push_back(scene);
    } else {
      throw verify::UsageError("--shape", "unknown shape '" + name + "': neither a body (" + joined(bodies) +
                                              ") nor a scene (" + joined(scenes) + ")");
    }
  }
  if (!out.sphere && !out.capsule) out.sphere = true;
  if (!out.scenes_named) {
    for (const auto& s : corpora::canonical_shapes()) out.scenes.push_back(&s);
    if (out.capsule)
      for (const auto& s : corpora::capsule_scenes()) out.scenes.push_back(&s);
  }
  return out;
}

/// "1e-2", "1", "1e6": the file-name form of a scale or offset.
std::string short_number(double x) { return x == 0 ? "0" : fmt::format("{:g}", x); }

/// Writes the queries, each id prefixed by the stem of its scene file (ids are unique per file).
/// A generated move names no algorithm: it runs under those `verify --algorithm` chooses.
void append_queries(std::ostream& out, const std::vector<formats::Query>& queries, std::size_t& count) {
  for (formats::Query q : queries) {
    q.id = fs::path(q.scene).stem().string() + "/" + q.id;
    q.algorithm_given = false;
    out << formats::query_to_json_line(q) << '\n';
    ++count;
  }
}

/// The OpenArena maps: draw and brush soups as scenes, and (with --movements) walks, tangent
/// and grazing moves for a Quake III player on each.
void build_maps(const CorpusBuildArgs& args, const ShapeSelection& bodies, std::ostream* queries, std::size_t& scenes,
                std::size_t& query_count) {
  const std::vector<std::string>& names = args.map_names.empty() ? kDefaultMaps : args.map_names;
  try {
    const corpora::Pk3Archive archive(args.maps);
    for (const std::string& name : names) {
      const std::string entry = "maps/" + name + ".bsp";
      const corpora::bsp::BspFile map = corpora::bsp::parse_bsp(archive.read(entry), archive.path() + ":" + entry);
      for (const formats::Scene& scene : {corpora::openarena::draw_scene(name, corpora::extract_draw_soup(map)),
                                         corpora::openarena::brush_scene(name, corpora::extract_brush_soup(map))}) {
        const std::string file = scene.name + ".scene";
        formats::write_scene_file(args.out + "/" + file, scene);
        ++scenes;
        if (queries) {
          const corpora::MovementScene ms{file, &scene.mesh, corpora::quake_character()};
          // More candidates than on the canonical shapes: a random vertex of a level is rarely clear
          // on all sides (64 attempts gave 2 to 8 grazing moves of 8 per soup).
          const corpora::ExactMoveOptions exact{.count = args.exact_count, .attempts = 512};
          const corpora::WalkOptions walk{.walks = args.walks, .frames = args.frames};
          if (bodies.sphere) append_queries(*queries, corpora::mesh_moves(ms, args.seed, walk, exact), query_count);
          if (bodies.capsule)
            append_queries(*queries,
                           corpora::capsule_walks(ms, corpora::quake_player_capsule(), "player", args.seed, walk),
                           query_count);
        }
        std::cerr << "corpus build: " << scene.name << " done (" << scene.mesh.triangle_count() << " triangles)\n";
      }
    }
  } catch (const corpora::FormatError& e) {
    // A bad archive or map is bad input: exit code 2, with the archive, entry and lump named.
    throw formats::InputError(e.file(), 0, e.where().empty() ? e.problem() : e.where() + ": " + e.problem());
  }
}

/// "forms" of forms.obj, with what a file name should not hold replaced.
std::string file_stem(const std::string& path) {
  std::string stem = fs::path(path).stem().string();
  for (char& c : stem)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.') c = '_';
  return stem;
}

/// `--mesh`: the user's mesh as a .scene per precision (an OBJ or OFF read as check-scene reads
/// it; a .scene as it is), with walks, tangent and grazing moves of a character of --radius.
int build_mesh(const CorpusBuildArgs& args, const ShapeSelection& bodies, const std::vector<formats::Precision>& precisions) {
  if (bodies.scenes_named || !args.maps.empty() || !args.map_names.empty())
    throw verify::UsageError("--mesh", "builds the moves of one mesh: leave out --shape's scene names, --maps and --map");
  const bool decimal = formats::is_decimal_mesh_file(args.mesh);
  std::vector<formats::Scene> scenes;
  for (const formats::Precision p : precisions) {
    if (!decimal && !scenes.empty()) break;  // a .scene declares its own precision
    scenes.push_back(formats::load_scene_file(args.mesh, {.precision = p}));
  }
  double radius = args.radius;
  std::ostringstream how;
  if (radius == 0) {
    radius = corpora::default_radius(scenes.front().mesh);
    const formats::SceneStats st = formats::compute_stats(scenes.front());
    how << " (1/32 of the mesh's bounding-box diagonal "
        << fmt::format("{:.6g}", std::sqrt(length_squared(st.bbox_max - st.bbox_min)))
        << ", rounded down to a power of two; --radius to choose)";
  }
  fs::create_directories(args.out);
  const std::string query_file = args.out + "/queries.jsonl";
  std::ofstream queries(query_file, std::ios::binary | std::ios::trunc);
  if (!queries) throw formats::InputError(query_file, 0, "cannot write");
  const corpora::Character character = corpora::character_with_radius(radius);
  // As on the maps: a random vertex of a real mesh is rarely clear on all sides.
  const corpora::ExactMoveOptions exact{.count = args.exact_count, .attempts = 512};
  std::size_t query_count = 0;
  std::cout << "radius " << formats::to_decimal(radius) << " (" << formats::to_hex(radius) << ")" << how.str() << '\n';
  for (const formats::Scene& scene : scenes) {
    const std::string file = file_stem(args.mesh) + "_" + std::string(formats::precision_name(scene.precision)) + ".scene";
    formats::write_scene_file(args.out + "/" + file, scene);
    const corpora::MovementScene ms{file, &scene.mesh, character};
    const std::size_t before = query_count;
    const corpora::WalkOptions walk{.walks = args.walks, .frames = args.frames};
    if (bodies.sphere) append_queries(queries, corpora::mesh_moves(ms, args.seed, walk, exact), query_count);
    if (bodies.capsule)
      append_queries(queries, corpora::capsule_walks(ms, corpora::standing_capsule(radius), "upright", args.seed, walk),
                     query_count);
    std::cout << "wrote " << args.out << "/" << file << " (" << scene.mesh.triangle_count() << " triangles, "
              << query_count - before << " moves)\n";
  }
  queries.close();
  if (!queries) throw std::runtime_error("error writing " + query_file);
  std::cout << "wrote " << query_count << " queries to " << query_file << " (seed " << args.seed << ")\n";
  if (query_count == 0)
    std::cout << "warning: no move could be generated on this mesh (no start clear of it at this radius?)\n";
  return verify::exit_ok;
}

int build(const CorpusBuildArgs& args) {
  const auto t0 = std::chrono::steady_clock::now();
  check_output_dir(args.out);
  const std::vector<formats::Precision> precisions = precision_list(args.precisions);
  const ShapeSelection selection = select_shapes(args.shapes);
  if (!args.mesh.empty()) {
    if (args.rotations > 0) throw verify::UsageError("--rotations", "rotates the canonical shapes: leave out --mesh");
    return build_mesh(args, selection, precisions);
  }
  if (args.rotations > std::size(general_rotations))
    throw verify::UsageError("--rotations",
                             fmt::format("at most {} (the general rotations r1..r{}), got {}", std::size(general_rotations),
                                         std::size(general_rotations), args.rotations));
  const std::vector<const corpora::CanonicalShape*>& shapes = selection.scenes;
  if (!args.maps.empty() && !fs::is_regular_file(args.maps))
    throw formats::InputError(args.maps, 0, "cannot open: no such file (--maps wants pak1-maps.pk3)");
  if (!args.map_names.empty() && args.maps.empty())
    throw verify::UsageError("--map", "--map needs --maps PK3");
  fs::create_directories(args.out);
  std::ofstream queries;
  const std::string query_file = args.out + "/queries.jsonl";
  if (args.movements) {
    queries.open(query_file, std::ios::binary | std::ios::trunc);
    if (!queries) throw formats::InputError(query_file, 0, "cannot write");
  }
  const corpora::CanonicalMovementOptions movement{
      .seed = args.seed, .walk = {.walks = args.walks, .frames = args.frames}, .exact = {.count = args.exact_count}};
  std::size_t written = 0, with_degenerate = 0, query_count = 0;
  for (const corpora::CanonicalShape* shape : shapes) {
    const std::vector<formats::Query> unit_moves = args.movements && selection.sphere
                                                       ? corpora::canonical_unit_moves(*shape, movement)
                                                       : std::vector<formats::Query>{};
    const std::vector<formats::Query> capsule_moves = args.movements && selection.capsule
                                                          ? corpora::capsule_unit_moves(*shape, movement)
                                                          : std::vector<formats::Query>{};
    // Rotation 0 is the shape as it is; 1..N are general_rotations' r1..rN (rotated_corpus.hpp).
    for (std::size_t k = 0; k <= args.rotations; ++k)
      for (const formats::Precision precision : precisions)
        for (double scale : corpora::canonical_scales())
          for (double offset : corpora::canonical_offsets()) {
            const ExactRotation* rotation = k == 0 ? nullptr : &general_rotations[k - 1];
            const std::string turn = k == 0 ? "" : fmt::format("r{}", k);
            formats::Scene scene;
            scene.name = fmt::format("{}{} scale {} offset {}", shape->name, turn.empty() ? "" : " " + turn,
                                     short_number(scale), short_number(offset));
            scene.units = "meter";
            scene.source = "slidecheck canonical scene '" + shape->name + "'" +
                           (rotation ? fmt::format(" rotated by {} (quaternion {}, {:.0f} degrees)", turn,
                                                   rotation->text(), rotation->angle_degrees())
                                     : std::string()) +
                           ": " + shape->purpose;
            scene.licence = "CC0-1.0";
            scene.precision = precision;
            scene.mesh = rotation ? corpora::place_rotated(*shape, *rotation, scale, offset, precision)
                                  : corpora::place_canonical(*shape, scale, offset, precision);
            // Rounding far from the origin can collapse triangles: say so in the file.
            for (std::size_t i = 0; i < scene.mesh.triangle_count(); ++i)
              if (formats::is_degenerate_exact(scene.mesh.triangle(i))) scene.degenerate_allowed = true;
            with_degenerate += scene.degenerate_allowed;
            const std::string file = fmt::format("{}{}_s{}_o{}_{}.scene", shape->name, turn.empty() ? "" : "_" + turn,
                                                 short_number(scale), short_number(offset),
                                                 formats::precision_name(precision));
            formats::write_scene_file(args.out + "/" + file, scene);
            ++written;
            if (!args.movements) continue;
            if (selection.sphere)
              append_queries(queries,
                             rotation ? corpora::rotated_canonical_moves(*shape, *rotation, scene.mesh, scale, offset,
                                                                         precision, file, movement, kRotatedAttempts)
                                      : corpora::place_canonical_moves(unit_moves, scene.mesh, scale, offset, precision, file),
                             query_count);
            if (selection.capsule)
              append_queries(queries,
                             rotation ? corpora::rotated_capsule_moves(*shape, *rotation, scene.mesh, scale, offset,
                                                                       precision, file, movement)
                                      : corpora::place_capsule_moves(capsule_moves, scale, offset, precision, file),
                             query_count);
          }
    std::cerr << "corpus build: " << shape->name << " done\n";
  }
  std::size_t map_scenes = 0;
  if (!args.maps.empty()) build_maps(args, selection, args.movements ? &queries : nullptr, map_scenes, query_count);
  if (args.movements) {
    queries.close();
    if (!queries) throw std::runtime_error("error writing " + query_file);
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "wrote " << written << " scenes to " << args.out << " (" << with_degenerate
            << " with triangles collapsed by rounding, marked `degenerate allowed`)\n";
  if (map_scenes) std::cout << "wrote " << map_scenes << " OpenArena scenes (draw and brush soups)\n";
  if (args.movements)
    std::cout << "wrote " << query_count << " queries to " << query_file << " (seed " << args.seed << ")\n";
  std::cerr << "corpus build: " << fmt::format("{:.2f}", seconds) << " s\n";
  return verify::exit_ok;
}

// ---------------------------------------------------------------------------------------
// stats

std::string lossless(double x) {
  if (!num::is_finite(x)) return x > 0 ? "inf" : "-inf";
  return formats::to_hex(x) + " (" + formats::to_decimal(x) + ")";
}
std::string vec_text(const Vec3<double>& v) {
  return "(" + formats::to_decimal(v.x) + ", " + formats::to_decimal(v.y) + ", " + formats::to_decimal(v.z) + ")";
}
nlohmann::ordered_json number_json(double x) {
  if (!num::is_finite(x)) return x > 0 ? "inf" : "-inf";
  return {{"hex", formats::to_hex(x)}, {"decimal", formats::to_decimal(x)}};
}
nlohmann::ordered_json vec_json(const Vec3<double>& v) {
  return nlohmann::ordered_json::array({formats::to_decimal(v.x), formats::to_decimal(v.y), formats::to_decimal(v.z)});
}

enum class FileKind { scene, queries };

std::optional<FileKind> stats_kind(const fs::path& p) {
  std::string ext = p.extension().string();
  std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (ext == ".scene" || ext == ".off" || ext == ".obj") return FileKind::scene;
  if (ext == ".jsonl") return FileKind::queries;
  return std::nullopt;
}

nlohmann::ordered_json scene_stats(const std::string& file, bool json) {
  const formats::Scene scene = formats::load_scene_file(file, {.allow_degenerate = true});
  const formats::SceneStats st = formats::compute_stats(scene);
  if (json)
    return {{"file", file},           {"kind", "scene"},
            {"triangles", st.triangles}, {"vertices", st.vertices},
            {"degenerate", st.degenerate}, {"bbox_min", vec_json(st.bbox_min)},
            {"bbox_max", vec_json(st.bbox_max)}, {"min_edge", number_json(st.min_edge)},
            {"max_edge", number_json(st.max_edge)}};
  std::cout << file << ": scene, " << st.triangles << " triangles, " << st.vertices << " vertices, " << st.degenerate
            << " degenerate\n  bbox " << vec_text(st.bbox_min) << " .. " << vec_text(st.bbox_max) << "\n  edge min "
            << lossless(st.min_edge) << ", max " << lossless(st.max_edge) << '\n';
  return {};
}

/// A statistic: the double square root of the exactly computed, once-rounded squared length.
double vector_length(const Vec3<double>& v) {
  const Vec3<Rational> r{formats::to_rational(v.x), formats::to_rational(v.y), formats::to_rational(v.z)};
  return num::sqrt(formats::round_to_nearest<double>(length_squared(r)));
}

nlohmann::ordered_json query_stats(const std::string& file, bool json) {
  const std::vector<formats::Query> queries = formats::read_queries(file);
  std::vector<double> lengths;
  // Radii are the lengths a shape needs positive: a sphere's radius, an ellipsoid's semi-axes,
  // a capsule's radius. A capsule's half axis is a vector, listed apart.
  std::set<double> radii;
  std::set<std::array<double, 3>> half_axes;
  std::map<std::string, std::size_t> shapes;
  std::map<std::string, std::size_t> generators;
  for (const formats::Query& q : queries) {
    lengths.push_back(vector_length(q.displacement));
    ++shapes[std::string(shape_name(q.shape))];
    std::visit(
        [&](const auto& s) {
          for (std::size_t i = 0; i < s.length_count; ++i)
            if (s.must_be_positive(i)) radii.insert(s.length(i));
        },
        q.shape);
    if (const auto* c = std::get_if<Capsule<double>>(&q.shape)) half_axes.insert({c->half_axis.x, c->half_axis.y, c->half_axis.z});
    // The generator is the id's first word after any "scene/" prefix ("walk", "script", ...).
    std::string_view id = q.id;
    if (const std::size_t slash = id.rfind('/'); slash != std::string_view::npos) id.remove_prefix(slash + 1);
    ++generators[std::string(id.substr(0, id.find('-')))];
  }
  std::sort(lengths.begin(), lengths.end());
  const double median = lengths[(lengths.size() - 1) / 2];  // the lower median: an actual length
  if (json) {
    nlohmann::ordered_json r = nlohmann::ordered_json::array();
    for (const double x : radii) r.push_back(number_json(x));
    nlohmann::ordered_json j = {{"file", file},
                                {"kind", "queries"},
                                {"count", queries.size()},
                                {"displacement_length", {{"min", number_json(lengths.front())}, {"median", number_json(median)}, {"max", number_json(lengths.back())}}},
                                {"shapes", shapes},
                                {"radii", r}};
    if (!half_axes.empty()) {
      nlohmann::ordered_json h = nlohmann::ordered_json::array();
      for (const auto& [x, y, z] : half_axes) h.push_back(vec_json({x, y, z}));
      j["capsule_half_axes"] = h;
    }
    j["generators"] = generators;
    return j;
  }
  std::cout << file << ": queries, " << queries.size() << " queries\n  displacement length: min "
            << lossless(lengths.front()) << ", median " << lossless(median) << ", max " << lossless(lengths.back())
            << "\n  shapes:";
  for (const auto& [name, n] : shapes) std::cout << ' ' << name << ' ' << n;
  std::cout << "\n  radii (" << radii.size() << " distinct): min " << lossless(*radii.begin()) << ", max "
            << lossless(*radii.rbegin()) << '\n';
  if (!half_axes.empty()) {
    // The axis from the centre to one end; its length is half the distance between the caps' centres.
    std::vector<double> axis_lengths;
    for (const auto& [x, y, z] : half_axes) axis_lengths.push_back(vector_length({x, y, z}));
    std::sort(axis_lengths.begin(), axis_lengths.end());
    std::cout << "  capsule half axes (" << half_axes.size() << " distinct): length min " << lossless(axis_lengths.front())
              << ", max " << lossless(axis_lengths.back()) << ";";
    constexpr std::size_t kListed = 4;
    std::size_t listed = 0;
    for (const auto& [x, y, z] : half_axes) {
      if (listed++ == kListed) break;
      std::cout << ' ' << vec_text({x, y, z});
    }
    if (half_axes.size() > kListed) std::cout << " and " << half_axes.size() - kListed << " more";
    std::cout << '\n';
  }
  std::cout << "  by generator:";
  for (const auto& [name, n] : generators) std::cout << ' ' << name << ' ' << n;
  std::cout << '\n';
  return {};
}

int stats(const std::vector<std::string>& paths, bool json) {
  // Every file first (so that a bad argument fails before any output), directories expanded
  // recursively in sorted order, then the statistics.
  std::vector<std::pair<std::string, FileKind>> files;
  for (const std::string& path : paths) {
    if (fs::is_directory(path)) {
      std::vector<fs::path> found;
      for (const auto& e : fs::recursive_directory_iterator(path))
        if (e.is_regular_file() && stats_kind(e.path())) found.push_back(e.path());
      std::sort(found.begin(), found.end());
      if (found.empty()) throw formats::InputError(path, 0, "no scene (.scene, .obj, .off) or query (.jsonl) files");
      for (const fs::path& p : found) files.emplace_back(p.string(), *stats_kind(p));
    } else if (!fs::exists(path)) {
      throw formats::InputError(path, 0, "cannot open: no such file or directory");
    } else if (const auto kind = stats_kind(path)) {
      files.emplace_back(path, *kind);
    } else {
      throw formats::InputError(path, 0, "not a scene (.scene, .obj, .off) or query (.jsonl) file");
    }
  }
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  for (const auto& [file, kind] : files) {
    nlohmann::ordered_json j = kind == FileKind::scene ? scene_stats(file, json) : query_stats(file, json);
    if (json) all.push_back(std::move(j));
  }
  if (json) std::cout << all.dump(2) << '\n';
  return verify::exit_ok;
}

}  // namespace

void register_corpus(CLI::App& app, CommandAction& action) {
  auto* corpus = app.add_subcommand("corpus", "The canonical scenes and movement sets: list, build, statistics");
  corpus->require_subcommand(1);
  auto* list = corpus->add_subcommand("list", "List the canonical shapes, the capsule scenes and capsules, and what each tests");
  list->callback([&action] {
    action = [] {
      for (const auto& s : corpora::canonical_shapes())
        std::cout << s.name << ": " << s.purpose << " (" << s.unit_mesh.triangle_count() << " triangles)\n";
      for (const auto& s : corpora::capsule_scenes())
        std::cout << s.name << ": " << s.purpose << " (" << s.unit_mesh.triangle_count()
                  << " triangles; capsule scene, written with --shape capsule)\n";
      for (const auto& b : corpora::capsule_bodies())
        std::cout << "capsule " << b.name << ": " << b.purpose << " (radius " << formats::to_decimal(b.capsule.radius)
                  << ", half axis " << vec_text(b.capsule.half_axis) << ")\n";
      return int(verify::exit_ok);
    };
  });
  auto args = std::make_shared<CorpusBuildArgs>();
  auto* b = corpus->add_subcommand(
      "build",
      "Write every canonical shape at every scale (1e-2..1e2) and offset (0..1e6) as .scene files, or (--mesh) "
      "your own mesh, with movement sets (queries.jsonl) for slidecheck verify");
  add_out(*b, *args, "corpus", "Directory to write into (created)");
  add_precisions(*b, *args, "float",
                 "the placed coordinates (--mesh: the mesh's decimals) are rounded once to each, a scene each");
  b->add_option("--mesh", args->mesh,
                "Your own mesh (.obj, .off or .scene) instead of the canonical shapes: writes it as .scene (read "
                "exactly) and queries.jsonl with random walks, tangent and grazing moves on it (+z up)")
      ->check(existing_file());
  b->add_option("--radius", args->radius,
                "--mesh: the moving sphere's radius (default 1/32 of the mesh's bounding-box diagonal, rounded down "
                "to a power of two; printed)")
      ->check(finite_number(true));
  b->add_option("--shape", args->shapes,
                "Scenes and bodies (repeatable). A scene name (canonical shape or capsule scene, `corpus list`) "
                "writes only those scenes; a body name (sphere, capsule) chooses the moves' body: sphere by default, "
                "capsule writes capsule moves (and, without scene names, the capsule scenes too), both write both. "
                "Default: every canonical shape with sphere moves");
  b->add_flag("--movements", args->movements,
              "Also write queries.jsonl: scripted paths, random walks, exact tangent and grazing moves per scene");
  b->add_option("--seed", args->seed, "Seed of the random generators (recorded in every query id)")
      ->check(whole_number(0))
      ->capture_default_str();
  b->add_option("--walks", args->walks, "Random walks per shape, map or mesh")->check(whole_number(0))->capture_default_str();
  b->add_option("--frames", args->frames, "Frames (queries) per walk")->check(whole_number(0))->capture_default_str();
  b->add_option("--exact-moves", args->exact_count, "Tangent and grazing constructions tried per shape, map or mesh")
      ->check(whole_number(0))
      ->capture_default_str();
  b->add_option("--rotations", args->rotations,
                "Also every shape rotated exactly by the general rotations r1..rN (at most 8; docs/corpora.md): "
                "SHAPE_rK_s..._o..._PRECISION.scene, with moves")
      ->check(whole_number(0))
      ->capture_default_str();
  b->add_option("--maps", args->maps, "OpenArena's pak1-maps.pk3 (scripts/fetch-openarena-maps.sh): also write map scenes");
  b->add_option("--map", args->map_names, "Maps to take from --maps (repeatable; default oa_dm1 and oa_ctf2)");
  b->callback([&action, args] { action = [args] { return build(*args); }; });

  struct StatsArgs : CommonArgs {
    std::vector<std::string> paths;
  };
  auto stats_args = std::make_shared<StatsArgs>();
  auto* st = corpus->add_subcommand("stats", "Statistics of scene (.scene, .obj, .off) and query (.jsonl) files");
  st->add_option("paths", stats_args->paths, "Files, or directories searched recursively")->required();
  add_json(*st, *stats_args, "Machine-readable output");
  st->callback([&action, stats_args] { action = [stats_args] { return stats(stats_args->paths, stats_args->json); }; });
}

}  // namespace slidecheck::cli
