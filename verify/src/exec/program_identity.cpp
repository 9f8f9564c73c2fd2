// The files an exec command names, fingerprinted for --resume (program_identity.hpp).
#include <slidecheck/verify/exec/program_identity.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <vector>

namespace slidecheck::verify {

namespace fs = std::filesystem;

namespace {

/// The command's words, split at blanks, with one level of single or double quotes removed.
/// Not a shell: enough to find the file names a command line mentions.
std::vector<std::string> words_of(const std::string& command) {
  std::vector<std::string> words;
  std::string word;
  char quote = 0;
  bool in_word = false;
  for (const char c : command) {
    if (quote) {
      if (c == quote) quote = 0;
      else word += c;
    } else if (c == '\'' || c == '"') {
      quote = c;
      in_word = true;
    } else if (c == ' ' || c == '\t' || c == '\n') {
      if (in_word) words.push_back(word);
      word.clear();
      in_word = false;
    } else {
      word += c;
      in_word = true;
    }
  }
  if (in_word) words.push_back(word);
  return words;
}

/// The first word as the shell would find it: itself when it holds a '/', else on PATH.
std::string on_path(const std::string& name) {
  if (name.find('/') != std::string::npos) return name;
  const char* path = std::getenv("PATH");
  std::stringstream dirs(path ? path : "");
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    std::error_code ec;
    const fs::path candidate = fs::path(dir.empty() ? "." : dir) / name;
    if (fs::is_regular_file(candidate, ec)) return candidate.string();
  }
  return {};
}

std::string fingerprint(const fs::path& file) {
  std::error_code ec;
  const std::uintmax_t size = fs::file_size(file, ec);
  if (ec) return "unreadable";
  if (size > program_identity_max_hashed_bytes) {
    const auto mtime = fs::last_write_time(file, ec).time_since_epoch().count();
    return "size:" + std::to_string(size) + " mtime:" + std::to_string(mtime);
  }
  std::ifstream in(file, std::ios::binary);
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a, 64 bits
  char buffer[1 << 16];
  while (in) {
    in.read(buffer, sizeof buffer);
    for (std::streamsize i = 0; i < in.gcount(); ++i) h = (h ^ static_cast<unsigned char>(buffer[i])) * 1099511628211ull;
  }
  if (in.bad()) return "unreadable";
  char hex[17];
  std::snprintf(hex, sizeof hex, "%016llx", static_cast<unsigned long long>(h));
  return hex;
}

}  // namespace

nlohmann::json program_files_identity(const std::string& command) {
  nlohmann::json files = nlohmann::json::object();
  const std::vector<std::string> words = words_of(command);
  for (std::size_t i = 0; i < words.size(); ++i) {
    const std::string name = i == 0 ? on_path(words[i]) : words[i];
    std::error_code ec;
    if (name.empty() || name.find('\0') != std::string::npos || !fs::is_regular_file(name, ec)) continue;
    files[name] = fingerprint(name);
  }
  return {{"files", std::move(files)}};
}

}  // namespace slidecheck::verify
