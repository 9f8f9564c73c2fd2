// The exec protocol's client loop (exec_protocol.hpp).
#include "exec_protocol.hpp"

#include <slidecheck/formats/errors.hpp>

#include <cerrno>
#include <istream>

#include <unistd.h>

namespace slidecheck::peers {

bool has_gravity(const formats::Query& q) { return q.gravity.x != 0 || q.gravity.y != 0 || q.gravity.z != 0; }

std::string answer_request(std::string_view line, ExecEngine& engine) {
  const formats::ExecDescribeAnswer description = engine.describe();
  formats::ExecRequest request;
  try {
    request = formats::parse_exec_request(line, description);
  } catch (const formats::InputError& e) {  // a refused request: its problem is the answer
    return formats::exec_error_to_json_line(e.problem());
  }
  if (request.describe) return formats::exec_describe_to_json_line(description);
  try {
    return formats::path_record_to_json_line(engine.run(request));
  } catch (const std::exception& e) {  // a refused query, an unreadable scene, an engine failure
    return formats::exec_error_to_json_line(e.what());
  }
}

void run_protocol(std::istream& in, const std::function<bool(const std::string&)>& write_line, ExecEngine& engine) {
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (!write_line(answer_request(line, engine))) return;
  }
}

bool write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

}  // namespace slidecheck::peers
