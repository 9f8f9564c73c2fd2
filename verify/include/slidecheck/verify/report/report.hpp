#pragma once
/// The outputs of `slidecheck verify` made from its records: the aggregates per algorithm and
/// precision and the console summary (summary.hpp), the CSV tables (csv.hpp) and the
/// self-contained HTML report (html.hpp) with plots drawn by gnuplot (plots.hpp), each file
/// written atomically (text_file.hpp). Every number is defined in docs/report.md. Every output
/// is a function of the records alone: the same records give byte-identical text, whatever
/// their order.

#include <slidecheck/verify/report/csv.hpp>
#include <slidecheck/verify/report/html.hpp>
#include <slidecheck/verify/report/plots.hpp>
#include <slidecheck/verify/report/summary.hpp>
#include <slidecheck/verify/report/text_file.hpp>
