#pragma once
/// The rating's pages (docs/rate.md): rating.html, one implementation's scorecard with its
/// operating envelope drawn as a heat map, and the comparison page of `rate --compare`, several
/// ratings side by side on one grid. Self-contained HTML (inline CSS and SVG, no script, no
/// network), everything taken from a rating HTML-escaped, and a function of the ratings alone:
/// the same ratings give the same bytes.
#include <slidecheck/verify/rate/rating.hpp>

#include <string>
#include <utility>
#include <vector>

namespace slidecheck::verify::rate {

/// The envelope's grid: every world scale and offset any of the ratings holds, ascending, so
/// heat maps drawn on it line up cell for cell.
struct EnvelopeGrid {
  std::vector<double> scales, offsets;
};
EnvelopeGrid envelope_grid(const std::vector<const Rating*>& ratings);

/// The heat map of `r`'s envelope on `grid` as one SVG element: a row per scale, a column per
/// offset; a cell is green when safe (judged, nothing failing), shaded from orange to red by its
/// failing fraction, grey and empty where the suite has no query. Each cell is a <rect> with
/// data-scale, data-offset and data-state ("safe", "failing", "none") and a <title> saying its
/// counts and classes. `id` prefixes the element ids (unique per page).
std::string envelope_svg(const Rating& r, const EnvelopeGrid& grid, const std::string& id);

/// rating.html of one rating.
std::string rating_html(const Rating& r);

/// Every envelope of `ratings` on their shared grid as one standalone SVG image (for documents:
/// scripts/ratings.sh writes it beside the committed ratings), `columns` heat maps to a row, each
/// under its implementation's name, with the colours' key at the bottom.
std::string comparison_svg(const std::vector<std::pair<std::string, Rating>>& ratings, int columns = 3);

/// The comparison page: the ratings (each labelled, e.g. by its file) in one table of classes and
/// one row of heat maps on a shared grid. The caller checks they are comparable.
std::string comparison_html(const std::vector<std::pair<std::string, Rating>>& ratings);

}  // namespace slidecheck::verify::rate
