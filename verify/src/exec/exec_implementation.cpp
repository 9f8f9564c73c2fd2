// The exec protocol's client side (exec_implementation.hpp, docs/judge.md).
#include <slidecheck/verify/exec/exec_implementation.hpp>

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>
#include <slidecheck/formats/excerpt.hpp>
#include <slidecheck/verify/exec/exec_log.hpp>
#include <slidecheck/verify/exec/exec_process.hpp>

#include <nlohmann/json.hpp>

#include <chrono>
#include <cmath>
#include <limits>

namespace slidecheck::verify {

namespace {

using ojson = nlohmann::ordered_json;

std::chrono::duration<double> timeout_of(const ExecSettings& s) { return std::chrono::duration<double>(s.timeout_seconds); }

std::string where_of(const ExecSettings& s) { return "exec:" + s.command; }

}  // namespace

ExecDescription describe_exec(const ExecSettings& settings) {
  if (settings.command.empty()) throw UsageError("--implementation", "exec: needs a command, e.g. exec:'python3 mine.py'");
  // Its stderr is held in memory, not written, until the run starts.
  const auto log = settings.stderr_path.empty() ? nullptr : std::make_shared<ExecLog>(settings.stderr_path);
  ExecProcess p(settings.command, log);
  ExecFault fault;
  const auto answer = p.exchange(R"({"describe":true})", timeout_of(settings), fault);
  if (!answer) throw InputError(where_of(settings), 0, "did not answer the describe request: " + fault.what);
  ExecDescription d{parse_exec_describe_answer(*answer, where_of(settings)), {}};
  p.stop();
  if (log) d.describe_stderr = log->held();
  return d;
}

std::string exec_request(const std::string& scene_file, const Query& query, Precision precision,
                         const std::map<std::string, double>& tolerances) {
  return exec_request_to_json_line(scene_file, query, precision, tolerances);
}

ExecImplementation::ExecImplementation(ExecSettings settings, ExecDescription description)
    : settings_(std::move(settings)), description_(std::move(description)) {
  if (!settings_.stderr_path.empty()) {
    log_ = std::make_shared<ExecLog>(settings_.stderr_path);
    log_->write(description_.describe_stderr);
  }
}

ExecImplementation::~ExecImplementation() = default;

std::unique_ptr<ExecProcess> ExecImplementation::take() const {
  {
    std::lock_guard lock(mutex_);
    if (!idle_.empty()) {
      std::unique_ptr<ExecProcess> p = std::move(idle_.back());
      idle_.pop_back();
      return p;
    }
  }
  return std::make_unique<ExecProcess>(settings_.command, log_);
}

void ExecImplementation::give_back(std::unique_ptr<ExecProcess> p) const {
  std::lock_guard lock(mutex_);
  idle_.push_back(std::move(p));
}

formats::PathRecord ExecImplementation::run(const std::string& scene_file, const Query& query, Precision precision,
                                            const std::map<std::string, double>& tolerances) const {
  if (log_) log_->start();  // a query is asked: the run has started
  std::unique_ptr<ExecProcess> process = take();
  formats::PathRecord r;
  ExecFault fault;
  const auto answer = process->exchange(exec_request(scene_file, query, precision, tolerances), timeout_of(settings_), fault);
  if (!answer) {
    r.query_id = query.id;
    r.error = "the process " + fault.what;
  } else {
    try {
      r = formats::parse_exec_answer(*answer, precision, where_of(settings_), 0);
      if (r.query_id.empty() && r.error) {
        r.query_id = query.id;
        r.error = "the implementation reports: " + *r.error;
      } else if (r.query_id != query.id) {
        const std::string other = r.query_id;
        r = formats::PathRecord{};
        r.query_id = query.id;
        r.error = "answered for query '" + other + "' instead";
        process->stop();  // out of step with the requests: start afresh
      } else if (r.error) {
        r.error = "the implementation reports: " + *r.error;
      }
    } catch (const InputError& e) {
      r = formats::PathRecord{};
      r.query_id = query.id;
      // Both the parser's message (it quotes the token it stopped at) and the answer are the
      // client's bytes: escaped, so that the record is valid UTF-8 whatever the client wrote.
      r.error = "malformed answer: " + printable_excerpt(e.problem(), 2 * kExcerptBytes) +
                " (got: " + printable_excerpt(*answer) + ")";
      process->stop();
    }
  }
  give_back(std::move(process));
  return r;
}

}  // namespace slidecheck::verify
