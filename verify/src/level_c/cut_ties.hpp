#pragma once
// Decisions near a tie after an iteration cut (docs/level-c.md, "Iteration cuts"). A frame run
// again with its iteration starts cut decides for the cut state, which lies within the cut gap of
// the exact one; where the exact value of a decision is 0 (an exact tie) or nearly so, the cut
// state can lie on the other side. While a frame runs with cuts, the watch sees every decision
// past the double filter (Certified's decider calls it), and flags the first whose value depends
// on a cut value and is a tie, or is smaller than 2^-margin_bits of what a relative perturbation
// of its cut values moves it by (its sensitivity): ideal_trajectory then runs the frame again with
// the cuts it depends on left exact.
#include <slidecheck/verify/level_c/certified.hpp>

#include <cstdint>
#include <limits>
#include <string>
#include <unordered_map>
#include <vector>

namespace slidecheck::certified::detail {

class CutTieWatch {
 public:
  /// Installed as the calling thread's watch while alive (watches do not nest).
  explicit CutTieWatch(int margin_bits);
  ~CutTieWatch();
  CutTieWatch(const CutTieWatch&) = delete;
  CutTieWatch& operator=(const CutTieWatch&) = delete;

  /// The calling thread's watch, or nullptr.
  static CutTieWatch* current();

  /// `c` replaced a value at the frame's cut call `index` (kept alive while the watch is).
  void add_cut(const Certified& c, int index);
  /// A decision past the double filter, proven (d's sign, tie and enclosure set), of node n.
  void decided(const Node& n, const Decision& d);

  /// The newest cut call the first flagged decision depends on; -1 while none is flagged.
  int flagged() const { return flagged_; }
  /// Where that decision was taken (the session's label).
  const std::string& flagged_where() const { return flagged_where_; }

  /// The first-order bound of |f(x) - f(c)| per unit of relative perturbation of each cut value
  /// c in n's DAG (0 when n depends on none; infinite when a divisor's or radicand's enclosure
  /// reaches 0), and the newest cut call n depends on (-1 when none).
  double sensitivity(const Node& n, int& newest) const;

 private:
  int margin_bits_;
  std::unordered_map<const Node*, int> cuts_;  ///< cut node -> cut call
  std::vector<Certified> kept_;                ///< the cut values, alive so their nodes stay distinct
  std::uint64_t oldest_ = std::numeric_limits<std::uint64_t>::max();  ///< smallest serial of a cut node
  int flagged_ = -1;
  std::string flagged_where_;
  CutTieWatch* previous_ = nullptr;
};

}  // namespace slidecheck::certified::detail
