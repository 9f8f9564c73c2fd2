// Paths files and exec processes as external subjects of a run (subjects.hpp).
#include <slidecheck/verify/judge/subjects.hpp>

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>
#include <slidecheck/formats/paths_io.hpp>
#include <slidecheck/formats/scene_io.hpp>
#include <slidecheck/verify/run/run_inputs.hpp>
#include <slidecheck/verify/run/scene_context.hpp>
#include <slidecheck/verify/exec/program_identity.hpp>
#include <slidecheck/formats/hexfloat.hpp>

#include "process/temporary_folder.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>
#include <unistd.h>

namespace slidecheck::verify {

namespace fs = std::filesystem;

namespace {

/// Paths files by column, records by query id.
struct PathsColumns {
  struct Column {
    std::string file;
    std::map<std::string, formats::PathRecord> by_id;
  };
  std::map<std::pair<std::string, Precision>, Column> columns;
};

std::string column_text(const Algorithm& a, Precision p) {
  return "'" + a.name() + "' in " + std::string(precision_name(p));
}

}  // namespace

std::shared_ptr<const ExternalSubject> paths_subject(const std::vector<std::string>& files, const JudgeOptions& options) {
  if (files.empty()) throw UsageError("--paths", "no paths file given");
  auto data = std::make_shared<PathsColumns>();
  auto subject = std::make_shared<ExternalSubject>();
  std::string names;
  for (const std::string& f : files) {
    formats::PathsFile pf = formats::read_paths(f);
    if (!valid_algorithm_name(pf.header.implementation))
      throw InputError(f, 1,
                       "implementation '" + pf.header.implementation +
                           "' is not a usable name (letters, digits, '_', '-', '.'; it names output files)");
    const Algorithm a(pf.header.implementation);
    const auto key = std::make_pair(a.name(), pf.header.precision);
    if (data->columns.count(key))
      throw InputError(f, 1,
                       "holds " + column_text(a, pf.header.precision) + " again (also in " +
                           data->columns[key].file + "): give each implementation and precision once");
    PathsColumns::Column c{f, {}};
    for (formats::PathRecord& r : pf.records) c.by_id.emplace(r.query_id, std::move(r));
    data->columns.emplace(key, std::move(c));
    subject->columns.emplace_back(a, pf.header.precision);
    names += (names.empty() ? "" : ",") + f;
  }
  subject->description = "paths:" + names;
  subject->check = [data](const std::vector<QueryInput>& inputs) {
    std::map<std::string, const QueryInput*> queries;
    for (const QueryInput& in : inputs) queries.emplace(in.query.id, &in);
    for (const auto& [key, c] : data->columns) {
      for (const auto& [id, r] : c.by_id)
        if (!queries.count(id))
          throw InputError(c.file, r.line, "query '" + id + "' is not in the corpus (a path for an unknown query)");
      for (const QueryInput& in : inputs)
        if (!c.by_id.count(in.query.id))
          throw InputError(c.file, 0,
                           "has no path for query '" + in.query.id + "' (" + in.file + ":" +
                               std::to_string(in.line) + "): every query of the corpus needs one");
    }
    // Every path must fit its query before the first is judged: bad input runs nothing.
    for (const auto& [key, c] : data->columns)
      for (const QueryInput& in : inputs) {
        check_runnable(in, key.second);
        check_path_fits(*in.scene, in.query, in.file, c.by_id.at(in.query.id), c.file, key.second);
      }
  };
  subject->run = [data, options](const QueryInput& in, const Algorithm& a, Precision p) {
    const PathsColumns::Column& c = data->columns.at({a.name(), p});
    const auto it = c.by_id.find(in.query.id);
    if (it == c.by_id.end())
      throw InputError(c.file, 0, "has no path for query '" + in.query.id + "'");
    return judge_path(*in.scene, in.query, in.file, it->second, c.file, a, p, options);
  };
  return subject;
}

std::string scene_file_for_exec(const SceneContext& sc, Precision p, const std::string& scene_dir) {
  // A .scene file holds exactly the numbers every precision runs (float scenes hold floats);
  // a scene transformed after reading (offset, scale, rotation, shrinking) is written anew.
  if (sc.as_in_file && fs::path(sc.file).extension() == ".scene" && fs::is_regular_file(sc.file))
    return fs::absolute(sc.file).lexically_normal().string();
  Scene s = sc.scene;
  s.mesh = sc.mesh(p);
  s.precision = p;
  s.triangle_lines.clear();
  s.degenerate_triangles.clear();
  // Rounding a moved or scaled scene to float can collapse a thin triangle: the file must still
  // read (the built-in runs see the same mesh, degenerate triangles and all).
  for (std::size_t i = 0; i < s.mesh.triangle_count() && !s.degenerate_allowed; ++i)
    if (is_degenerate_exact(s.mesh.triangle(i))) s.degenerate_allowed = true;
  if (s.name.empty()) s.name = "candidate";
  if (s.units.empty()) s.units = "unknown";
  if (s.source.empty()) s.source = sc.file;
  if (s.licence.empty()) s.licence = "unknown";
  const std::string text = formats::scene_to_string(s);
  // FNV-1a: a name per content, so equal scenes share one file.
  std::uint64_t h = 1469598103934665603ull;
  for (const unsigned char ch : text) h = (h ^ ch) * 1099511628211ull;
  std::ostringstream name;
  name << std::hex << h << ".scene";
  fs::create_directories(scene_dir);
  const fs::path file = fs::absolute(fs::path(scene_dir) / name.str()).lexically_normal();
  if (!fs::exists(file)) {
    std::ostringstream tmp_name;
    tmp_name << name.str() << ".tmp." << ::getpid() << "." << std::this_thread::get_id();
    const fs::path tmp = fs::path(scene_dir) / tmp_name.str();
    {
      std::ofstream out(tmp, std::ios::binary);
      out << text;
      if (!out) throw std::runtime_error("cannot write " + tmp.string());
    }
    fs::rename(tmp, file);
  }
  return file.string();
}

std::shared_ptr<const ExternalSubject> exec_subject(const ExecSubjectOptions& o) {
  ExecDescription d = describe_exec(o.settings);
  if (!valid_algorithm_name(d.implementation))
    throw UsageError("--implementation",
                     "the implementation calls itself '" + d.implementation +
                         "', which is not a usable name (letters, digits, '_', '-', '.')");
  auto subject = std::make_shared<ExternalSubject>();
  subject->description = "exec:" + o.settings.command;
  const Algorithm a(d.implementation);
  const std::vector<Precision> wanted = o.precisions.empty() ? d.precisions : o.precisions;
  for (const Precision p : wanted) {
    if (std::find(d.precisions.begin(), d.precisions.end(), p) == d.precisions.end())
      throw UsageError("--precision",
                       d.implementation + " does not run in " + std::string(precision_name(p)) +
                           " (it describes itself with " +
                           [&] {
                             std::string s;
                             for (const Precision q : d.precisions)
                               s += (s.empty() ? "" : ", ") + std::string(precision_name(q));
                             return s;
                           }() +
                           ")");
    subject->columns.emplace_back(a, p);
  }
  for (const auto& [name, value] : d.tolerances) subject->tolerances[name] = value;
  subject->identity = program_files_identity(o.settings.command);
  nlohmann::json described = {{"implementation", d.implementation}, {"description", d.description}};
  for (const Precision p : d.precisions) described["precisions"].push_back(std::string(precision_name(p)));
  for (const auto& [name, value] : d.tolerances) described["tolerances"][name] = to_hex(value);
  subject->identity["describe"] = std::move(described);
  for (const auto& [name, value] : o.tolerances) {
    if (!subject->tolerances.count(name)) {
      std::string known;
      for (const auto& [n, v] : d.tolerances) known += (known.empty() ? "" : ", ") + n;
      throw UsageError("--implementation",
                       d.implementation + " has no tolerance '" + name + "' (" + (known.empty() ? "none" : known) + ")");
    }
    subject->tolerances[name] = value;
  }
  auto impl = std::make_shared<ExecImplementation>(o.settings, std::move(d));
  const std::map<std::string, double> overrides = o.tolerances;
  const JudgeOptions judge = o.judge;
  // Without a folder given, the scenes go to a temporary one removed with the subject (or by
  // the interruption handler when a signal ends the run).
  std::shared_ptr<process::TemporaryFolder> folder;
  if (o.scene_dir.empty()) folder = std::make_shared<process::TemporaryFolder>("slidecheck-exec-");
  const std::string scene_dir = folder ? folder->path() : o.scene_dir;
  subject->run_with = [impl, judge, scene_dir, folder](const QueryInput& in, const Algorithm& a, Precision p,
                                                        const std::map<std::string, double>& tolerances) {
    const std::string scene = scene_file_for_exec(*in.scene, p, scene_dir);
    formats::PathRecord path = impl->run(scene, in.query, p, tolerances);
    // An answer that does not fit its query is the implementation's fault: judge_path records it.
    return judge_path(*in.scene, in.query, in.file, path, "the answer of " + a.name(), a, p, judge);
  };
  subject->run = [run_with = subject->run_with, overrides](const QueryInput& in, const Algorithm& a, Precision p) {
    return run_with(in, a, p, overrides);
  };
  return subject;
}

}  // namespace slidecheck::verify
