// Level C's cost per query (docs/level-c.md, "Cost"): the ideal trajectory of every query of a
// corpus, per algorithm and precision, as `verify --level-c` runs it (verify_query: the culled
// mesh, the inputs rounded to the precision), one query at a time on one thread. Prints per
// algorithm and precision the median, p99 and largest wall time of the ideal trajectory, the
// unproven decisions and how the others were settled (each unproven decision, with its place and
// reason, on stderr). Reported, never asserted.
//
// usage: bench_verify_level_c [--queries FILE.jsonl] [--algorithms a,b,..] [--precisions float,double]
//                             [--limit N] [--exact-timeout SECONDS] [--per-query FILE.csv]
//                             [--frames N] [--anchored 0|1] [--exact-ends 0|1]
// Without --queries: the built-in corpus (corpora/builtin), a smoke run. --frames plays every query
// for N frames (0: each query's own); --anchored 1 judges them with anchored frames
// (docs/level-c.md, "Anchored frames"), else the ideal frames continue each other; --exact-ends 1
// runs them without cuts (`verify --level-c-exact-ends`: docs/level-c.md, "Iteration cuts").
#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/verify/level_c/ideal_trajectory.hpp>
#include <slidecheck/verify/run/scene_context.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  for (std::string item; std::getline(in, item, ',');)
    if (!item.empty()) out.push_back(item);
  return out;
}

double percentile(std::vector<double> v, double p) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  const std::size_t i = static_cast<std::size_t>(p * static_cast<double>(v.size() - 1) + 0.5);
  return v[std::min(i, v.size() - 1)];
}

struct Args {
  std::string queries = std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/builtin/queries.jsonl";
  std::vector<std::string> algorithms{"fauerby", "linahan", "monter", "pseudo_distance", "robust"};
  std::vector<std::string> precisions{"float", "double"};
  std::size_t limit = 0;
  double exact_timeout = 2.0;
  std::string per_query;
  int frames = 0;
  bool anchored = false;
  bool exact_ends = false;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string key = argv[i], value = argv[i + 1];
    if (key == "--queries") a.queries = value;
    else if (key == "--algorithms") a.algorithms = split(value);
    else if (key == "--precisions") a.precisions = split(value);
    else if (key == "--limit") a.limit = std::stoul(value);
    else if (key == "--exact-timeout") a.exact_timeout = std::stod(value);
    else if (key == "--per-query") a.per_query = value;
    else if (key == "--frames") a.frames = std::stoi(value);
    else if (key == "--anchored") a.anchored = value == "1";
    else if (key == "--exact-ends") a.exact_ends = value == "1";
    else throw std::invalid_argument("unknown option " + key);
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) try {
  const Args args = parse(argc, argv);
  std::vector<Query> queries = read_queries(args.queries);
  if (args.limit != 0 && queries.size() > args.limit) queries.resize(args.limit);
  if (args.frames > 0)
    for (Query& q : queries) q.frames = args.frames;
  std::map<std::string, std::shared_ptr<const SceneContext>> scenes;
  for (const Query& q : queries) {
    const std::string path = resolve_scene_path(args.queries, q);
    if (!scenes.count(path)) scenes[path] = load_scene_context(path);
  }
  std::ofstream csv;
  if (!args.per_query.empty()) {
    csv.open(args.per_query);
    csv << "algorithm,precision,frames,anchored,query,ms,unproven,fully_proven,filter,escalation,rational,field,identity,core,cut_frames\n";
  }
  std::printf("%s, %zu queries, CORE budget %g s, frames %s, %s%s\n", args.queries.c_str(), queries.size(),
              args.exact_timeout, args.frames > 0 ? std::to_string(args.frames).c_str() : "each query's own",
              args.anchored ? "anchored" : "continuous", args.exact_ends ? ", exact ends (no cuts)" : "");
  std::printf("%-16s %-6s %8s %10s %10s %10s %9s %11s %9s %10s %9s %9s %9s %6s\n", "algorithm", "prec", "queries",
              "median ms", "p99 ms", "max ms", "unproven", "not proven", "filter", "escalation", "rational",
              "field", "identity", "core");
  const auto started = std::chrono::steady_clock::now();
  for (const std::string& precision_name : args.precisions) {
    const Precision precision = parse_precision(precision_name);
    for (const std::string& name : args.algorithms) {
      const std::optional<Algorithm> algorithm = find_algorithm(name);
      if (!algorithm) throw std::invalid_argument("unknown algorithm " + name);
      VerifyQueryOptions options;
      options.level_b = false;
      options.level_c = true;
      options.level_c_options.exact_timeout_seconds = args.exact_timeout;
      options.level_c_options.anchored_frames = args.anchored;
      options.level_c_options.exact_ends = args.exact_ends;
      std::vector<double> ms;
      std::size_t unproven = 0, not_proven = 0;
      certified::Summary total;
      for (const Query& q : queries) {
        IdealTrajectory ideal;
        options.ideal_trajectory = &ideal;
        const QueryRecord r =
            verify_query(*scenes.at(resolve_scene_path(args.queries, q)), q, args.queries, *algorithm, precision, options);
        if (!r.ideal) continue;  // an invalid start: nothing judged, no ideal run
        ms.push_back(ideal.seconds * 1e3);
        unproven += ideal.decisions.undecided();
        not_proven += ideal.fully_proven() ? 0 : 1;
        total += ideal.decisions;
        // Where the open decisions are, and why: what to work on next.
        for (const certified::Decision& d : ideal.unproven)
          std::fprintf(stderr, "unproven: %s %s %s: %s: %s (%s; %zu nodes, %d square roots)\n", name.c_str(),
                       precision_name.c_str(), q.id.c_str(), d.where.c_str(), d.reason.c_str(),
                       std::string(certified::to_string(d.method)).c_str(), d.dag_nodes, d.sqrt_nodes);
        if (csv) {
          using certified::Method;
          const certified::Summary& s = ideal.decisions;
          csv << name << ',' << precision_name << ',' << q.frames << ',' << args.anchored << ',' << q.id << ',' << ms.back() << ',' << s.undecided() << ','
              << ideal.fully_proven() << ',' << s.count(Method::filter) << ',' << s.count(Method::escalation) << ','
              << s.count(Method::rational) << ',' << s.count(Method::field) << ',' << s.count(Method::identity) << ','
              << s.count(Method::core) << ',' << ideal.cut_frames << std::endl;
        }
      }
      using certified::Method;
      std::printf("%-16s %-6s %8zu %10.3f %10.3f %10.3f %9zu %11zu %9zu %10zu %9zu %9zu %9zu %6zu\n", name.c_str(),
                  precision_name.c_str(), ms.size(), percentile(ms, 0.5), percentile(ms, 0.99),
                  ms.empty() ? 0.0 : *std::max_element(ms.begin(), ms.end()), unproven, not_proven,
                  total.count(Method::filter), total.count(Method::escalation), total.count(Method::rational),
                  total.count(Method::field), total.count(Method::identity), total.count(Method::core));
      std::fflush(stdout);
    }
  }
  std::printf("total %.1f s\n", std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count());
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "bench_verify_level_c: %s\n", e.what());
  return 2;
}
