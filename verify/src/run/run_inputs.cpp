// The corpus and output files of long runs (run_inputs.hpp).
#include <slidecheck/verify/run/run_inputs.hpp>

#include "run/run_json.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <cmath>
#include <map>
#include <sstream>
#include <stdexcept>

#include <fcntl.h>
#include <unistd.h>

namespace slidecheck::verify {

namespace fs = std::filesystem;

namespace {

/// The 1-based line of each query of a query file (parse_queries skips blank lines).
std::vector<std::size_t> query_lines(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::vector<std::size_t> lines;
  std::string text;
  for (std::size_t n = 1; std::getline(in, text); ++n)
    if (text.find_first_not_of(" \t\r") != std::string::npos) lines.push_back(n);
  return lines;
}

}  // namespace

std::vector<QueryInput> load_query_inputs(const std::vector<std::string>& files) {
  std::map<std::string, std::shared_ptr<const SceneContext>> scenes;
  std::vector<QueryInput> inputs;
  for (const std::string& file : files) {
    std::vector<Query> queries = read_queries(file);
    const std::vector<std::size_t> lines = query_lines(file);
    for (std::size_t k = 0; k < queries.size(); ++k) {
      QueryInput in;
      in.file = file;
      in.line = k < lines.size() ? lines[k] : 0;
      in.query = std::move(queries[k]);
      const std::string scene_path = resolve_scene_path(file, in.query);
      auto it = scenes.find(scene_path);
      if (it == scenes.end()) {
        try {
          it = scenes.emplace(scene_path, load_scene_context(scene_path)).first;
        } catch (const InputError& e) {
          throw InputError(e.file(), e.line(),
                           e.problem() + " (the scene of query '" + in.query.id + "', " + file + ":" +
                               std::to_string(in.line) + ")");
        }
      }
      in.scene = it->second;
      inputs.push_back(std::move(in));
    }
  }
  return inputs;
}

void check_runnable(const QueryInput& in, Precision p, const std::string& context) {
  if (p != Precision::single_float) return;
  (void)in.scene->index(p);  // rounds a double scene to float once; InputError if it cannot
  const Vec3<double>* vs[] = {&in.query.start, &in.query.displacement, &in.query.gravity};
  const auto overflows = [](double x) { return !std::isfinite(static_cast<float>(x)); };
  bool overflow = false;
  for (const Vec3<double>* v : vs) overflow = overflow || overflows(v->x) || overflows(v->y) || overflows(v->z);
  for (std::size_t i = 0; i < length_count(in.query.shape); ++i) overflow = overflow || overflows(length(in.query.shape, i));
  if (overflow) throw InputError(in.file, in.line, "a number overflows float: the query cannot be run in float" + context);
  const Shape<float> in_float = convert_shape<float>(in.query.shape, [](double x) { return static_cast<float>(x); });
  if (!lengths_positive(in_float)) throw InputError(in.file, in.line, "a radius or a capsule's half axis rounds to 0 in float" + context);
}

SyncedAppender::SyncedAppender(const std::string& path) : path_(path) {
  fd_ = ::open(path.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (fd_ < 0) throw std::runtime_error(path + ": cannot open for appending");
}

SyncedAppender::~SyncedAppender() {
  if (fd_ >= 0) ::close(fd_);
}

void SyncedAppender::append(const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd_, text.data() + done, text.size() - done);
    if (n < 0) throw std::runtime_error(path_ + ": write failed");
    done += static_cast<std::size_t>(n);
  }
  if (::fsync(fd_) != 0) throw std::runtime_error(path_ + ": fsync failed");
}

std::vector<std::pair<std::size_t, std::string>> read_complete_lines(const std::string& path, bool cut_torn_line) {
  std::vector<std::pair<std::size_t, std::string>> out;
  if (!fs::exists(path)) return out;
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = buffer.str();
  std::size_t pos = 0, line = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) break;  // a torn last line: redone
    out.emplace_back(++line, text.substr(pos, end - pos));
    pos = end + 1;
  }
  if (pos < text.size() && cut_torn_line) fs::resize_file(path, pos);
  return out;
}

std::string read_run_format(const std::string& dir) {
  const nlohmann::json d = read_run_description(dir);
  if (!d.is_object() || !d.contains("format") || !d["format"].is_string())
    throw InputError(dir + "/run.json", 0, "not a run description: no \"format\"");
  return d["format"].get<std::string>();
}

void prepare_merge_output(const std::string& out, const std::vector<std::string>& shard_dirs, bool overwrite,
                          const std::vector<std::string>& run_files) {
  if (out.empty()) throw UsageError("--out", "no output directory given");
  std::error_code ec;
  for (const std::string& dir : shard_dirs)
    if (fs::equivalent(out, dir, ec))
      throw InputError(out, 0, "is one of the shards: merge into another directory");
  if (fs::exists(fs::path(out) / "run.json") && !overwrite)
    throw InputError(out, 0, "holds a run already: use --overwrite to replace it");
  for (const std::string& f : run_files) fs::remove(fs::path(out) / f);
  fs::remove_all(fs::path(out) / "cases");
  fs::remove_all(fs::path(out) / "views");
  fs::create_directories(out);
}

}  // namespace slidecheck::verify
