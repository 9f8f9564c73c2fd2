#pragma once
/// What the long-running commands (verify, eps-sweep) share: the corpus read and checked
/// before anything runs, output files appended and synced so that a killed run keeps every
/// line it completed, and the output directory of a merge. The peers' tools (peers/) read
/// their corpora with it too.
#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/verify/run/shard.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer

/// One query of the corpus with where it came from.
struct QueryInput {
  std::string file;  ///< the query file
  std::size_t line = 0;
  Query query;
  std::shared_ptr<const SceneContext> scene;
};

/// Every query of the files, each with its scene (read once per path). InputError naming the
/// file and line of whatever is malformed, the query's line for its scene's problems.
std::vector<QueryInput> load_query_inputs(const std::vector<std::string>& files);

/// InputError naming the query's file and line when it cannot run in `p`: a number or the
/// scene overflows float, or a radius rounds to 0 (`context` is added, e.g. the world).
void check_runnable(const QueryInput& in, Precision p, const std::string& context = {});

/// A file appended to line by line, each batch flushed and synced to disk before returning.
class SyncedAppender {
 public:
  explicit SyncedAppender(const std::string& path);
  SyncedAppender(const SyncedAppender&) = delete;
  SyncedAppender& operator=(const SyncedAppender&) = delete;
  ~SyncedAppender();
  void append(const std::string& text);

 private:
  std::string path_;
  int fd_ = -1;
};

/// The complete lines of a file a previous run appended to, with their 1-based numbers; a
/// torn last line (no newline) is cut off the file, to be redone (left alone when
/// `cut_torn_line` is false: merge only reads). Empty when it does not exist.
std::vector<std::pair<std::size_t, std::string>> read_complete_lines(const std::string& path,
                                                                      bool cut_torn_line = true);

/// The "format" of DIR/run.json: which command's run (verify, eps-sweep or search) the
/// directory holds. InputError naming the directory or the file when it holds none.
std::string read_run_format(const std::string& dir);

/// For merge: InputError when `out` is one of the shards or holds a run (unless `overwrite`);
/// removes the previous run's files (`run_files`, cases/) and creates the directory.
void prepare_merge_output(const std::string& out, const std::vector<std::string>& shard_dirs, bool overwrite,
                          const std::vector<std::string>& run_files);

}  // namespace slidecheck::verify
