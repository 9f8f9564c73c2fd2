// `slidecheck view CASE|REPORT_DIR` (docs/view.md): an HTML page per case that draws the
// triangles, the spheres, the float and exact paths, the sliding planes and the first divergent
// step with three.js, beside the per-step trace; no network when it is opened.
#include "commands.hpp"
#include "common_options.hpp"
#include "progress.hpp"
#include "run_results.hpp"
#include <slidecheck/viewer/assets.hpp>

#include <slidecheck/verify/cases/case_file.hpp>
#include <slidecheck/verify/view/case_view.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/verify/report/report.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

namespace slidecheck::cli {

namespace fs = std::filesystem;

namespace {

/// The name of the shared script that holds three.js for the pages of a report directory.
constexpr const char* kSharedThree = "slidecheck-three.js";

/// Text safe inside a <script> element: "</" cannot end it early ("<\/" means the same in
/// JavaScript strings and in JSON).
std::string script_safe(std::string text) {
  for (std::size_t at = text.find("</"); at != std::string::npos; at = text.find("</", at + 3)) text.insert(at + 1, "\\");
  return text;
}

/// The classic script that hands three.js and OrbitControls to the page as strings (the page
/// imports them from blob URLs, which works from file:// where module files would not).
std::string three_sources_script() {
  nlohmann::json sources;
  sources["three"] = std::string(viewer_assets::three);
  sources["controls"] = std::string(viewer_assets::orbit_controls);
  return "window.SLIDECHECK_THREE_SOURCES = " + script_safe(sources.dump()) + ";\n";
}

/// The page of one case; three.js inline (`shared_three` empty) or from that sibling file.
std::string view_page(const nlohmann::ordered_json& data, const std::string& shared_three) {
  std::string h = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n<title>" +
                  verify::html_escape(data["title"].get<std::string>()) + "</title>\n<style>\n" +
                  std::string(viewer_assets::css) + "</style>\n</head>\n<body>\n" + std::string(viewer_assets::body);
  h += "<script type=\"application/json\" id=\"slidecheck-data\">" + script_safe(data.dump()) + "</script>\n";
  if (shared_three.empty())
    h += "<script>\n" + three_sources_script() + "</script>\n";
  else
    h += "<script src=\"" + verify::html_escape(shared_three) + "\"></script>\n";
  h += "<script type=\"module\">\n" + script_safe(std::string(viewer_assets::script)) + "</script>\n";
  h += "<!-- three.js " + std::string(viewer_assets::three_version) + " (https://threejs.org), embedded under its licence:\n" +
       std::string(viewer_assets::three_licence) + "-->\n</body>\n</html>\n";
  return h;
}

void require_viewer() {
  if (!viewer_assets::unavailable.empty())
    throw std::runtime_error("slidecheck view is not available in this build: " +
                             std::string(viewer_assets::unavailable));
}

struct ViewArgs : CommonArgs {
  std::string input;
  bool no_level_c = false;
  double exact_timeout = 2;
  std::size_t limit = 50;
};

/// The case files directly in `dir`, sorted by name (empty when it does not exist).
std::vector<std::string> case_files_in(const fs::path& dir) {
  std::vector<std::string> files;
  if (fs::is_directory(dir))
    for (const auto& e : fs::directory_iterator(dir))
      if (e.is_regular_file() && e.path().extension() == ".case") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

/// The views a run writes for its report: a deep exact tie must not hold the run up.
verify::CaseViewOptions report_view_options() {
  verify::CaseViewOptions o;
  o.exact_timeout_seconds = 0.25;
  return o;
}

verify::CaseViewOptions view_options(const ViewArgs& a) {
  verify::CaseViewOptions o;
  o.level_c = !a.no_level_c;
  o.exact_timeout_seconds = a.exact_timeout;
  return o;
}

int run(const ViewArgs& a) {
  require_viewer();
  nlohmann::ordered_json j;
  std::ostringstream text;
  if (fs::is_directory(a.input)) {
    const fs::path cases = fs::path(a.input) / "cases";
    if (!fs::is_directory(cases))
      throw formats::InputError(a.input, 0, "holds no cases/ directory: give a case file or a verify output directory");
    std::vector<std::string> files = case_files_in(cases);
    if (files.size() > a.limit) files.resize(a.limit);
    const fs::path out = a.out.empty() ? fs::path(a.input) / "views" : fs::path(a.out);
    write_views(files, out.string(), view_options(a), !a.quiet);
    j["views"] = files.size();
    j["out"] = out.string();
    text << "wrote " << files.size() << " views in " << out.string() << "/ (open any .html in a browser)\n";
  } else {
    if (!fs::exists(a.input)) throw formats::InputError(a.input, 0, "no such file or directory");
    const verify::CaseFile c = verify::read_case_file(a.input);
    const fs::path page = fs::path(a.input).filename().replace_extension(".html");
    // The page beside the case, at --out, or in --out when that is a directory.
    std::string out = a.out.empty() ? fs::path(a.input).replace_extension(".html").string() : a.out;
    if (fs::is_directory(out)) out = (fs::path(out) / page).string();
    const std::string parent = fs::path(out).parent_path().string();
    check_output_dir(parent.empty() ? "." : parent);
    if (!parent.empty()) fs::create_directories(parent);
    const nlohmann::ordered_json data =
        nlohmann::ordered_json::parse(verify::case_view_json(c, a.input, view_options(a)));
    verify::write_text_file(out, view_page(data, ""));
    j["out"] = out;
    j["steps"] = data["steps"].size();
    j["first_divergent"] = data["case"]["first_divergent"];
    text << "wrote " << out << " (" << data["steps"].size() << " steps"
         << (data["focus_step"].is_null() ? "" : ", first divergent or failing step " + data["focus_step"].dump())
         << "; self-contained: open it in a browser)\n";
  }
  if (a.json)
    std::cout << j.dump(2) << '\n';
  else
    std::cout << text.str();
  return verify::exit_ok;
}

}  // namespace

bool viewer_available() { return viewer_assets::unavailable.empty(); }

std::string view_file_name(const std::string& case_file_name) {
  return fs::path(case_file_name).replace_extension(".html").string();
}

void write_views(const std::vector<std::string>& case_files, const std::string& out_dir,
                 const verify::CaseViewOptions& options, bool progress) {
  require_viewer();
  check_output_dir(out_dir);
  fs::create_directories(out_dir);
  if (progress)
    std::cerr << "writing " << case_files.size() << " view" << (case_files.size() == 1 ? "" : "s") << " in " << out_dir
              << "/ (3D pages; each replays its case with the exact path)\n";
  ProgressLine line(progress);
  verify::write_text_file((fs::path(out_dir) / kSharedThree).string(),
                          "// three.js " + std::string(viewer_assets::three_version) +
                              " and OrbitControls for slidecheck view; MIT licence:\n/*\n" +
                              std::string(viewer_assets::three_licence) + "*/\n" + three_sources_script());
  for (std::size_t i = 0; i < case_files.size(); ++i) {
    const std::string& file = case_files[i];
    const verify::CaseFile c = verify::read_case_file(file);
    const nlohmann::ordered_json data = nlohmann::ordered_json::parse(verify::case_view_json(c, file, options));
    verify::write_text_file((fs::path(out_dir) / view_file_name(fs::path(file).filename().string())).string(),
                            view_page(data, kSharedThree));
    std::ostringstream state;
    state << "view: " << i + 1 << "/" << case_files.size() << " cases";
    line.update(state.str());
  }
}

void write_report_views(const std::string& out, const verify::VerifyRunResult& r, std::size_t views, bool progress) {
  if (!viewer_available() || views == 0) return;
  std::vector<std::string> files;
  for (const verify::QueryRecord* rec : verify::records_with_views(r.records, views))
    files.push_back((fs::path(out) / "cases" / verify::case_file_name(*rec)).string());
  if (!files.empty()) write_views(files, (fs::path(out) / "views").string(), report_view_options(), progress);
}

void write_eps_sweep_views(const std::string& out, const verify::EpsSweepResult& r, std::size_t views, bool progress) {
  if (!viewer_available()) return;
  // The rows of the eps* table that have a case, in its order: the ones the report links.
  std::vector<std::string> files;
  for (const verify::EpsStar& s : r.stars) {
    const fs::path file = fs::path(out) / "cases" / verify::worst_case_file_name(s);
    if (files.size() < views && s.worst_query && fs::exists(file)) files.push_back(file.string());
  }
  fs::remove_all(fs::path(out) / "views");
  if (!files.empty()) write_views(files, (fs::path(out) / "views").string(), report_view_options(), progress);
}

void register_view(CLI::App& app, CommandAction& action) {
  auto args = std::make_shared<ViewArgs>();
  auto* cmd = app.add_subcommand(
      "view",
      "Write an HTML page that shows a case in 3D (docs/view.md): the triangles, the sphere at every resting "
      "position, the float and the exact (ideal) paths, the sliding planes and creases, the first divergent step "
      "highlighted, zoom down to the scale of the divergence, and the per-step trace beside it (click a row to go "
      "there). CASE.case gives CASE.html, self-contained; a verify output directory gives views/ for its cases. "
      "Exit 0, 2 on bad input, 3 when this build has no three.js.");
  cmd->add_option("input", args->input, "A case file, or a verify output directory (its cases/)")->required();
  cmd->add_option("--out", args->out,
                  "The page to write (a case; a directory: the page goes in it) or the directory of the pages (a "
                  "verify output directory); default: beside the input (CASE.html, DIR/views/)");
  cmd->add_flag("--no-level-c", args->no_level_c, "Do not run the ideal trajectory (no exact path; faster)");
  cmd->add_option("--exact-timeout", args->exact_timeout, "Seconds per undecided exact decision of the ideal run")
      ->check(finite_number(true))
      ->capture_default_str();
  cmd->add_option("--limit", args->limit, "At most this many cases of a directory")
      ->check(whole_number(0))
      ->capture_default_str();
  add_quiet_json(*cmd, *args, "Print what was written as JSON");
  cmd->callback([&action, args] { action = [args] { return run(*args); }; });
}

}  // namespace slidecheck::cli
