#pragma once
/// What a rating says to people, and the comparisons of ratings (docs/rate.md): the scorecard
/// text (classes, envelope table with "safe up to" per scale, parts, speed), the CI gate's
/// differences from a baseline, and the side-by-side table of `rate --compare`.
#include <slidecheck/verify/rate/rating.hpp>

#include <string>
#include <utility>
#include <vector>

namespace slidecheck::verify::rate {

/// The scorecard as `rate` prints it.
std::string scorecard_text(const Rating& r);

/// The envelope as a table: a row per scale, a column per offset, each cell "ok N" (N checked
/// queries, none failing) or "F/N" failing, then per scale the largest offset up to which every
/// cell is safe.
std::string envelope_table(const Rating& r);

/// "safe up to offset 1e+04 at scale 1" per scale (or "not safe at offset 0 at scale ...").
std::vector<std::string> safe_up_to(const Rating& r);

/// formats::InputError naming `baseline_file` when the two ratings are not of the same suite
/// (version, variant, hash), shape, precision and slice: they cannot be compared.
void check_comparable(const Rating& baseline, const Rating& current, const std::string& baseline_file);

/// One way the current rating is worse than the baseline.
struct Regression {
  std::string what;          ///< one line: the class or the cell, before and after
  std::string minimal_case;  ///< the current rating's minimal case of that class, "" when none
};

/// Every class that got worse (more failing queries, or a deeper worst depth per radius) and
/// every envelope cell that was safe and now fails. Empty: the gate passes.
std::vector<Regression> regressions(const Rating& baseline, const Rating& current);

/// One table of classes x implementations (failing/judged per class), the envelope's "safe up
/// to" per implementation, and speeds, side by side; each rating labelled by its file.
std::string compare_text(const std::vector<std::pair<std::string, Rating>>& ratings);

/// The same comparison as Markdown for documents (scripts/ratings.sh puts it in docs/peers.md
/// and the README): a row per rating (failing of all queries, then failing of judged for every
/// class any of them fails, the envelope's safe cells, speed), then each rating's "safe up to"
/// lines. Classes no rating fails are named in one line below the table.
std::string compare_markdown(const std::vector<std::pair<std::string, Rating>>& ratings);

/// A narrow variant for a README: a row per rating with its failing queries, the three classes
/// it fails most (failing of judged), its safe envelope cells and speed; then the "safe up to"
/// lines of the ratings with a safe cell.
std::string compare_markdown_brief(const std::vector<std::pair<std::string, Rating>>& ratings);

}  // namespace slidecheck::verify::rate
