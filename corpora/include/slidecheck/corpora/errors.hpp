#pragma once
/// The error every corpus importer throws for malformed input.

#include <stdexcept>
#include <string>

namespace slidecheck::corpora {

/// A malformed or unreadable corpus file. Names the file, where in it the problem is (a zip
/// entry, a BSP lump and record; empty when it concerns the whole file) and what is wrong.
/// what() is "file: where: problem" (or "file: problem"). The CLI maps it to exit code 2.
class FormatError : public std::runtime_error {
 public:
  FormatError(std::string file, std::string where, std::string problem)
      : std::runtime_error(format(file, where, problem)),
        file_(std::move(file)), where_(std::move(where)), problem_(std::move(problem)) {}

  const std::string& file() const { return file_; }
  const std::string& where() const { return where_; }
  const std::string& problem() const { return problem_; }

 private:
  static std::string format(const std::string& file, const std::string& where, const std::string& problem) {
    return where.empty() ? file + ": " + problem : file + ": " + where + ": " + problem;
  }
  std::string file_;
  std::string where_;
  std::string problem_;
};

}  // namespace slidecheck::corpora
