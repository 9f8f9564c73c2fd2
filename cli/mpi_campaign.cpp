// The MPI backend of sharded commands (mpi_campaign.hpp). Message protocol, per rank r > 0:
// rank 0 sends r the files of its earlier shard (for --resume; empty otherwise), r runs its
// shard and sends back its exit code, an error text and the shard directory's files.
#include "mpi_campaign.hpp"
#include "run_results.hpp"

#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/verify/run/shard.hpp>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#if SLIDECHECK_WITH_MPI
#include <mpi.h>
#endif

#include <stdlib.h>  // mkdtemp

namespace slidecheck::cli {

namespace fs = std::filesystem;

bool launched_by_mpi_with_several_ranks() {
  // Open MPI's mpirun, then PMI launchers (MPICH's hydra, Slurm's srun).
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_SIZE"})
    if (const char* v = std::getenv(var); v && std::atoi(v) > 1) return true;
  return false;
}

#if SLIDECHECK_WITH_MPI

namespace {

constexpr int kTagFiles = 1, kTagStatus = 2;

/// A directory's regular files, by path relative to it.
using Bundle = std::vector<std::pair<std::string, std::string>>;

Bundle read_bundle(const fs::path& dir) {
  Bundle b;
  if (!fs::is_directory(dir)) return b;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (!e.is_regular_file()) continue;
    std::ifstream in(e.path(), std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    b.emplace_back(fs::relative(e.path(), dir).generic_string(), content.str());
  }
  std::sort(b.begin(), b.end());
  return b;
}

void write_bundle(const fs::path& dir, const Bundle& b) {
  fs::remove_all(dir);
  fs::create_directories(dir);
  for (const auto& [name, content] : b) {
    const fs::path path = dir / name;
    fs::create_directories(path.parent_path());
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(content.data(), static_cast<std::streamsize>(content.size()));
    if (!out) throw std::runtime_error(path.string() + ": cannot write");
  }
}

std::string pack(const Bundle& b) {
  std::string out;
  auto put = [&](const std::string& s) {
    const std::uint64_t n = s.size();
    out.append(reinterpret_cast<const char*>(&n), sizeof n);
    out += s;
  };
  for (const auto& [name, content] : b) {
    put(name);
    put(content);
  }
  return out;
}

Bundle unpack(const std::string& bytes) {
  Bundle b;
  std::size_t pos = 0;
  auto get = [&] {
    std::uint64_t n = 0;
    if (bytes.size() - pos < sizeof n) throw std::runtime_error("mpi: truncated message");
    std::copy_n(bytes.data() + pos, sizeof n, reinterpret_cast<char*>(&n));
    pos += sizeof n;
    if (bytes.size() - pos < n) throw std::runtime_error("mpi: truncated message");
    std::string s = bytes.substr(pos, n);
    pos += n;
    return s;
  };
  while (pos < bytes.size()) {
    std::string name = get();
    b.emplace_back(std::move(name), get());
  }
  return b;
}

/// Sends bytes in pieces below MPI's int count limit, the length first.
void send_bytes(const std::string& bytes, int to, int tag) {
  const std::uint64_t n = bytes.size();
  MPI_Send(&n, 1, MPI_UINT64_T, to, tag, MPI_COMM_WORLD);
  constexpr std::size_t piece = std::size_t{1} << 30;
  for (std::size_t pos = 0; pos < bytes.size(); pos += piece)
    MPI_Send(bytes.data() + pos, static_cast<int>(std::min(piece, bytes.size() - pos)), MPI_CHAR, to, tag,
             MPI_COMM_WORLD);
}

std::string receive_bytes(int from, int tag) {
  std::uint64_t n = 0;
  MPI_Recv(&n, 1, MPI_UINT64_T, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  std::string bytes(n, '\0');
  constexpr std::size_t piece = std::size_t{1} << 30;
  for (std::size_t pos = 0; pos < bytes.size(); pos += piece)
    MPI_Recv(bytes.data() + pos, static_cast<int>(std::min(piece, bytes.size() - pos)), MPI_CHAR, from, tag,
             MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return bytes;
}

/// Runs one shard with stdout silenced; the exit code and the error text (empty when none).
std::pair<int, std::string> run_one_shard(const ShardedCommand& c, const verify::Shard& shard, const fs::path& dir,
                                          bool resume) {
  std::ostringstream sink;
  std::streambuf* const saved = std::cout.rdbuf(sink.rdbuf());
  std::pair<int, std::string> result{verify::exit_ok, {}};
  try {
    result.first = c.run_shard(shard, dir.string(), resume);
  } catch (const std::exception& e) {
    result = {verify::exit_code_of(e), e.what()};
  }
  std::cout.rdbuf(saved);
  return result;
}

fs::path shard_dir(const ShardedCommand& c, const verify::Shard& s) {
  return fs::path(c.merged_out) / "shards" / ("shard-" + std::to_string(s.index) + "-of-" + std::to_string(s.count));
}

/// Rank 0's checks before any work, so that a mistake costs no campaign: the same rules as a
/// single run for an existing output.
std::string check_output(const ShardedCommand& c) {
  if (c.shard_given) return "--shard and mpirun exclude each other: under mpirun the ranks are the shards";
  const fs::path out(c.merged_out);
  const bool existing = fs::exists(out / "run.json") || fs::exists(out / "shards");
  if (existing && !c.resume && !c.overwrite)
    return out.string() + ": holds a run already: use --resume to continue it or --overwrite to replace it";
  return {};
}

}  // namespace

MpiSession::MpiSession(int& argc, char**& argv) {
  if (!launched_by_mpi_with_several_ranks()) return;
  MPI_Init(&argc, &argv);
  initialised_ = true;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiSession::~MpiSession() {
  if (initialised_) MPI_Finalize();
}

int run_under_mpi(const MpiSession& mpi, const CommandAction& action, const ShardedCommand& c) {
  const int k = mpi.size(), rank = mpi.rank();
  if (!c.run_shard) {
    // Not a sharded command: rank 0 does it alone.
    return rank == 0 && action ? action() : verify::exit_ok;
  }
  const verify::Shard mine{static_cast<std::size_t>(rank), static_cast<std::size_t>(k)};

  // Rank 0 checks the output first and tells every rank whether to go on.
  int go = 1;
  if (rank == 0) {
    if (const std::string problem = check_output(c); !problem.empty()) {
      std::cerr << "slidecheck: error: " << problem << '\n';
      go = 0;
    } else if (!c.resume) {
      fs::remove_all(fs::path(c.merged_out) / "shards");
    }
  }
  MPI_Bcast(&go, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!go) return rank == 0 ? verify::exit_bad_input : verify::exit_ok;

  if (rank != 0) {
    // The earlier shard (for --resume), then the run in a scratch directory, then the result;
    // whatever breaks, rank 0 gets a status, so it never waits for a rank that gave up.
    std::int64_t status = verify::exit_ok;
    std::string error, files;
    fs::path scratch;
    try {
      const Bundle earlier = unpack(receive_bytes(0, kTagFiles));
      std::string tmpl = (fs::temp_directory_path() / "slidecheck-mpi-XXXXXX").string();
      if (!mkdtemp(tmpl.data())) throw std::runtime_error("cannot create a scratch directory in " + tmpl);
      scratch = fs::path(tmpl);
      const fs::path dir = scratch / shard_dir(c, mine).filename();
      if (!earlier.empty()) write_bundle(dir, earlier);
      std::tie(status, error) = run_one_shard(c, mine, dir, c.resume && !earlier.empty());
      files = pack(read_bundle(dir));
    } catch (const std::exception& e) {
      status = verify::exit_internal_error;
      error = e.what();
    }
    MPI_Send(&status, 1, MPI_INT64_T, 0, kTagStatus, MPI_COMM_WORLD);
    send_bytes(error, 0, kTagStatus);
    send_bytes(files, 0, kTagFiles);
    std::error_code ec;
    if (!scratch.empty()) fs::remove_all(scratch, ec);
    return status >= verify::exit_bad_input ? static_cast<int>(status) : verify::exit_ok;
  }

  // Rank 0: hand out the earlier shards, run shard 0 in place, gather the others.
  for (int r = 1; r < k; ++r) {
    const fs::path dir = shard_dir(c, {static_cast<std::size_t>(r), static_cast<std::size_t>(k)});
    send_bytes(c.resume ? pack(read_bundle(dir)) : std::string(), r, kTagFiles);
  }
  const fs::path dir0 = shard_dir(c, mine);
  std::cerr << "mpi: " << k << " ranks, one shard each; shards in " << (fs::path(c.merged_out) / "shards").string()
            << "\n";
  auto [code0, error0] = run_one_shard(c, mine, dir0, c.resume && fs::exists(dir0 / "run.json"));
  std::vector<std::string> dirs{dir0.string()};
  int worst = code0 >= verify::exit_bad_input ? code0 : verify::exit_ok;
  if (!error0.empty()) std::cerr << "slidecheck: rank 0 (shard " << mine.text() << "): " << error0 << '\n';
  for (int r = 1; r < k; ++r) {
    const verify::Shard s{static_cast<std::size_t>(r), static_cast<std::size_t>(k)};
    std::int64_t status = 0;
    MPI_Recv(&status, 1, MPI_INT64_T, r, kTagStatus, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    const std::string error = receive_bytes(r, kTagStatus);
    const Bundle files = unpack(receive_bytes(r, kTagFiles));
    const fs::path dir = shard_dir(c, s);
    write_bundle(dir, files);
    dirs.push_back(dir.string());
    if (!error.empty()) std::cerr << "slidecheck: rank " << r << " (shard " << s.text() << "): " << error << '\n';
    if (status >= verify::exit_bad_input) worst = std::max(worst, static_cast<int>(status));
  }
  if (worst >= verify::exit_bad_input) {
    std::cerr << "mpi: not merged; the finished shards are kept in " << (fs::path(c.merged_out) / "shards").string()
              << " (run again with --resume to continue them)\n";
    return worst;
  }
  std::cerr << "mpi: gathered " << k << " shards; merging into " << c.merged_out << "\n";
  return merge_and_report(dirs, c.merged_out, true, c.json, "gnuplot", c.views, c.progress);
}

bool built_with_mpi() { return true; }

#else  // no MPI in this build

bool built_with_mpi() { return false; }

MpiSession::MpiSession(int&, char**&) {}
MpiSession::~MpiSession() = default;

int run_under_mpi(const MpiSession&, const CommandAction& action, const ShardedCommand&) {
  return action ? action() : verify::exit_bad_input;
}

#endif

}  // namespace slidecheck::cli
