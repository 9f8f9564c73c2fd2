#pragma once
/// The bookkeeping of Certified's decisions (certified.hpp): how each was settled, the budget
/// of a decision, and the per-thread session that counts and logs them. docs/level-c.md says
/// what the budget costs.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace slidecheck::certified {

/// How a decision was settled.
enum class Method : std::uint8_t {
  filter,      ///< the double enclosure decided
  escalation,  ///< an MPFR enclosure at higher precision decided
  rational,    ///< exact rational evaluation (no irrational square root in the DAG)
  field,       ///< exact evaluation in a tower of quadratic extensions (square roots of field numbers)
  identity,    ///< a tie proven as a polynomial identity over the DAG's older values (identity_stage.hpp)
  core,        ///< exact real-algebraic evaluation (CORE::Expr, exact mode)
  undecided,   ///< not proven within the budget: a documented guess was taken
};
inline constexpr int method_count = 7;
std::string_view to_string(Method m);
inline std::ostream& operator<<(std::ostream& os, Method m) { return os << to_string(m); }

/// The budget of a decision. Defaults: see docs/level-c.md for what they cost.
struct Options {
  /// First MPFR precision tried when the double filter fails.
  int first_precision_bits = 128;
  /// Highest MPFR precision (the ladder doubles up to it).
  int max_precision_bits = 1024;
  /// Try exact adjudication at all (off: the ladder is the last resort).
  bool exact_adjudication = true;
  /// Largest DAG (distinct nodes) an exact adjudication may evaluate; for the rational pass,
  /// the most nodes it newly evaluates for one decision (nodes evaluated before are reused).
  std::size_t max_exact_nodes = 200000;
  /// Largest number of distinct square-root nodes in a DAG sent to CORE (its root bounds,
  /// and so its cost, grow as 2 to this power).
  int max_exact_sqrt = 24;
  /// Wall-time budget of one CORE zero test, in seconds. CORE cannot be interrupted, so with
  /// a positive budget the test runs in a forked child process that is killed when the budget
  /// runs out (the decision is then undecided, and the trajectory goes on). 0: in-process,
  /// unbounded (CORE may then run for hours on a deep tie).
  double exact_timeout_seconds = 2.0;
  /// Decisions logged in full (the counters count all of them).
  std::size_t max_logged = 100000;
  /// Try the field stage (exact arithmetic in a tower of quadratic extensions) before CORE
  /// (docs/level-c.md). Off: rationals, then the ladder, then CORE, as without it.
  bool field_stage = true;
  /// Try the identity stage (a tie proven as a polynomial identity over the DAG's older values,
  /// docs/level-c.md) when the field stage cannot decide, and before it for DAGs of at least
  /// identity_first_sqrts square roots. It only proves zeros; its wall time per decision is
  /// 0.5 s, or exact_timeout_seconds when smaller. Off: as without it.
  bool identity_stage = true;
  /// From this many square roots on (count_dag's), the identity stage goes first: the field
  /// stage's towers there mostly outgrow their budget, after spending it, while the identity
  /// stage settles a slide's ties in tens of milliseconds (measured: docs/level-c.md).
  int identity_first_sqrts = 14;
  /// Log filter decisions too (the counters always count them).
  bool log_filter_decisions = false;
  /// Count the DAG of every decision past the filter for its record (Decision::dag_nodes,
  /// sqrt_nodes). Off, a DAG is counted only where a stage needs its size or the decision is
  /// unproven: counting walks the whole DAG, which grows over a run's frames. The ideal run sets
  /// it for its size trigger (IdealOptions::cut_sqrt_nodes), which reads the records.
  bool count_every_dag = false;
  /// Apply exact symbolic identities when building nodes: the squared length of a normalised
  /// (and possibly scaled) vector, |v/|v| s|^2 = s^2, and sqrt(s s) = |s| (docs/level-c.md,
  /// "Deep ties"). Off: the DAG is the reference's operations as written.
  bool symbolic_identities = true;
};

/// One decision: a sign (or the sign of a difference, for a comparison).
struct Decision {
  int sign = 0;                   ///< the outcome taken, -1, 0 or +1
  Method method = Method::filter;
  bool tie = false;               ///< an exact zero, proven
  int precision_bits = 53;        ///< precision of the enclosure that decided (or the last tried)
  double lo = 0, hi = 0;          ///< the best enclosure of the compared quantity (outward rounded)
  /// Distinct DAG nodes and square roots: 0 when not counted (the filter decided, or a stage
  /// settled it before any needed its size; Options::count_every_dag counts them all).
  std::size_t dag_nodes = 0;
  int sqrt_nodes = 0;
  std::string where;              ///< the Session's location label when it was taken
  std::string reason;             ///< undecided: why (budget, error)
  bool proven() const { return method != Method::undecided; }
};

/// Counts of decisions by method, and proven ties.
struct Summary {
  std::array<std::size_t, method_count> by_method{};
  std::size_t ties = 0;
  std::size_t total() const;
  std::size_t count(Method m) const { return by_method[static_cast<std::size_t>(m)]; }
  std::size_t undecided() const { return count(Method::undecided); }
  Summary& operator+=(const Summary& o);
};

/// The decision log and budget of the calling thread while alive (sessions nest; the
/// innermost is current). Not copyable.
class Session {
 public:
  explicit Session(Options options = {});
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  const Options& options() const { return options_; }
  const Summary& summary() const { return summary_; }
  /// Logged decisions (non-filter ones unless Options::log_filter_decisions), oldest first.
  const std::vector<Decision>& decisions() const { return decisions_; }
  /// The label recorded with each following decision (e.g. the algorithm step).
  void set_where(std::string where) { where_ = std::move(where); }
  const std::string& where() const { return where_; }

  /// The counters and the length of the log at a moment, to forget what follows (rewind): an
  /// attempt whose result is dropped (ideal_trajectory's iteration cuts run a frame again).
  struct Mark {
    Summary summary;
    std::size_t logged = 0;
  };
  Mark mark() const { return {summary_, decisions_.size()}; }
  void rewind(const Mark& m) {
    summary_ = m.summary;
    if (decisions_.size() > m.logged) decisions_.resize(m.logged);
  }

  /// The calling thread's current session (a per-thread default when none is open).
  static Session& current();
  void record(Decision d);

  /// Exact-evaluation state shared by the session's adjudications (opaque here:
  /// verify/src/level_c/exact_adjudication.hpp).
  struct ExactState;
  ExactState& exact_state();

 private:
  Options options_;
  Summary summary_;
  std::vector<Decision> decisions_;
  std::string where_;
  Session* previous_ = nullptr;
  std::unique_ptr<ExactState> exact_;
};

}  // namespace slidecheck::certified
