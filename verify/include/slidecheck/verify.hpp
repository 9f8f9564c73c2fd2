#pragma once
/// slidecheck::verify, every public header: the verifier's levels A (exact invariants), B
/// (per-step round-off and decision flips) and C (the certified ideal trajectory), the runner
/// and its records, reports, search and shrink, eps sweeps, case files and views. The levels
/// and failure classes are defined in docs/architecture.md.

#include <slidecheck/verify/cases/case_file.hpp>
#include <slidecheck/verify/cases/case_replay.hpp>
#include <slidecheck/verify/eps_sweep/eps_sweep.hpp>
#include <slidecheck/verify/eps_sweep/eps_sweep_report.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/verify/level_a/invariants.hpp>
#include <slidecheck/verify/level_a/surd_rounding.hpp>
#include <slidecheck/verify/level_a/triangle_index.hpp>
#include <slidecheck/verify/level_b/error_metrics.hpp>
#include <slidecheck/verify/level_b/local_error.hpp>
#include <slidecheck/verify/level_b/surd.hpp>
#include <slidecheck/verify/level_b/traced_run.hpp>
#include <slidecheck/verify/level_c/certified.hpp>
#include <slidecheck/verify/level_c/certified_session.hpp>
#include <slidecheck/verify/level_c/core_diagnostics.hpp>
#include <slidecheck/verify/level_c/grid_allowance.hpp>
#include <slidecheck/verify/level_c/ideal_trajectory.hpp>
#include <slidecheck/verify/report/csv.hpp>
#include <slidecheck/verify/report/html.hpp>
#include <slidecheck/verify/report/plots.hpp>
#include <slidecheck/verify/report/report.hpp>
#include <slidecheck/verify/report/summary.hpp>
#include <slidecheck/verify/report/text_file.hpp>
#include <slidecheck/verify/run/algorithms.hpp>
#include <slidecheck/verify/run/build_info.hpp>
#include <slidecheck/verify/run/records.hpp>
#include <slidecheck/verify/run/run_inputs.hpp>
#include <slidecheck/verify/run/scene_context.hpp>
#include <slidecheck/verify/run/shard.hpp>
#include <slidecheck/verify/run/slide_difference.hpp>
#include <slidecheck/verify/run/verify_query.hpp>
#include <slidecheck/verify/run/verify_run.hpp>
#include <slidecheck/verify/search/candidate.hpp>
#include <slidecheck/verify/search/case_shrink.hpp>
#include <slidecheck/verify/search/constructions.hpp>
#include <slidecheck/verify/search/ddmin.hpp>
#include <slidecheck/verify/search/search.hpp>
#include <slidecheck/verify/search/search_merge.hpp>
#include <slidecheck/verify/view/case_view.hpp>
