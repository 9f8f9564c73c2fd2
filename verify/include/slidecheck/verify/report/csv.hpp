#pragma once
/// The CSV tables of a verification run (docs/report.md): summary.csv, steps.csv and
/// failures.csv.

#include <slidecheck/verify/report/summary.hpp>
#include <slidecheck/verify/run/records.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::verify {

/// One CSV field (RFC 4180): quoted, with quotes doubled, when it holds a comma, a quote, a
/// CR or an LF (or starts or ends with a space); as is otherwise.
std::string csv_field(std::string_view text);

/// Writes dir/summary.csv, dir/steps.csv and dir/failures.csv (docs/report.md), creating
/// `dir` if needed, each file atomically. Throws std::runtime_error when it cannot write.
void write_csv(const std::string& dir, const Summary& s, const std::vector<QueryRecord>& records);

}  // namespace slidecheck::verify
