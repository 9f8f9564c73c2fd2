#pragma once
// `mpirun -np K slidecheck verify|eps-sweep|search ...` (docs/campaigns.md): rank r runs shard
// r/K of the work in a scratch directory of its own node and sends the shard's files to rank
// 0, which writes them under OUT/shards/shard-r-of-K and merges them into OUT, exactly as
// `slidecheck merge` does. No shared file system is needed. Built when CMake finds MPI.
#include "commands.hpp"

#include <optional>

namespace slidecheck::cli {

/// MPI for the life of the process, initialised only when the process was started by an MPI
/// launcher (mpirun/mpiexec/srun environment), so plain runs never touch MPI.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
  int rank() const { return rank_; }
  int size() const { return size_; }
  bool active() const { return size_ > 1; }

 private:
  int rank_ = 0, size_ = 1;
  bool initialised_ = false;
};

/// Whether this slidecheck was built with MPI (CMake found it).
bool built_with_mpi();

/// True when the environment says an MPI launcher started this process with more than one rank.
bool launched_by_mpi_with_several_ranks();

/// Runs the chosen command under MPI: the shards of a sharded command spread over the ranks
/// and merged on rank 0; any other command on rank 0 only. Returns this rank's exit code
/// (rank 0: the merged run's; other ranks: 0, or 3 when their shard broke).
int run_under_mpi(const MpiSession& mpi, const CommandAction& action, const ShardedCommand& sharded);

}  // namespace slidecheck::cli
