// The godot3-server process and its connection (godot_process.hpp).
#include "godot_process.hpp"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

namespace slidecheck::peers {

namespace fs = std::filesystem;

std::string godot_problem(const std::string& godot) {
  const std::string install = " (install godot3-server)";
  if (!fs::path(godot).is_absolute()) return "godot peer: Godot's executable must be an absolute path, not '" + godot + "'";
  std::error_code ec;
  if (!fs::is_regular_file(godot, ec)) return "godot peer: cannot run " + godot + ": no such file" + install;
  if (::access(godot.c_str(), X_OK) != 0)
    return "godot peer: cannot run " + godot + ": " + std::strerror(errno) + install;
  return {};
}

namespace {

std::runtime_error system_error(const std::string& what) {
  return std::runtime_error("godot peer: " + what + ": " + std::strerror(errno));
}

void put_u32(std::string& out, std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out += char((v >> (8 * i)) & 0xffu);
}

std::uint32_t get_u32(const char* p) {
  std::uint32_t v = 0;
  for (int i = 0; i < 4; ++i) v |= std::uint32_t(static_cast<unsigned char>(p[i])) << (8 * i);
  return v;
}

bool send_all(int fd, const std::string& data) {
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::send(fd, data.data() + done, data.size() - done, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

bool receive_all(int fd, char* data, std::size_t size) {
  std::size_t done = 0;
  while (done < size) {
    const ssize_t n = ::recv(fd, data + done, size - done, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    done += std::size_t(n);
  }
  return true;
}

/// The private folder Godot runs in: project.godot, peer.gd and the XDG folders.
fs::path make_project(const std::string& physics_engine) {
  std::string pattern = (fs::temp_directory_path() / "slidecheck-godot-XXXXXX").string();
  if (::mkdtemp(pattern.data()) == nullptr) throw system_error("cannot create a folder for Godot's project");
  const fs::path dir(pattern);
  std::ofstream(dir / "project.godot") << "config_version=4\n\n[application]\n\nconfig/name=\"slidecheck peer\"\n\n"
                                       << "[physics]\n\n3d/physics_engine=\"" << physics_engine << "\"\n\n"
                                       // No log file (Godot 3.2 writes logs/godot.log into the project folder,
                                       // which is removed while Godot runs); its messages go to stderr anyway.
                                       << "[logging]\n\nfile_logging/enable_file_logging.pc=false\n";
  std::ofstream(dir / "peer.gd") << godot_script;
  for (const char* d : {"data", "config", "cache"}) fs::create_directories(dir / "xdg" / d);
  return dir;
}

}  // namespace

GodotProcess::GodotProcess(std::string godot, std::string physics_engine)
    : godot_(std::move(godot)), physics_engine_(std::move(physics_engine)) {}

GodotProcess::~GodotProcess() {
  if (socket_ >= 0) {
    std::string quit;
    put_u32(quit, 0);
    put_u32(quit, 0);
    send_all(socket_, quit);
  }
  stop();
}

void GodotProcess::stop() {
  if (socket_ >= 0) ::close(socket_);
  socket_ = -1;
  if (pid_ > 0) {
    // A Godot that has been told to quit, or whose connection closed, ends by itself; one that
    // hangs (a script error stops the script, not the process) is killed.
    for (int i = 0; i < 100; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
        pid_ = -1;
        return;
      }
      ::usleep(10000);
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  pid_ = -1;
}

void GodotProcess::start() {
  const int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (listener < 0) throw system_error("socket");
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = 0;  // any free port
  socklen_t length = sizeof address;
  if (::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 || ::listen(listener, 1) != 0 ||
      ::getsockname(listener, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    const auto e = system_error("cannot listen on loopback");
    ::close(listener);
    throw e;
  }
  const fs::path dir = make_project(physics_engine_);
  const pid_t parent = ::getpid();
  const pid_t child = ::fork();
  if (child < 0) {
    const auto e = system_error("fork");
    ::close(listener);
    fs::remove_all(dir);
    throw e;
  }
  if (child == 0) {
    // Godot dies with its client; its stdout (the engine's banner and prints) goes to stderr, so
    // that the client's stdout carries answers only.
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);
    ::dup2(STDERR_FILENO, STDOUT_FILENO);
    const int null = ::open("/dev/null", O_RDONLY);
    if (null >= 0) ::dup2(null, STDIN_FILENO);
    const std::string xdg = (dir / "xdg").string();
    ::setenv("LANG", "en_US.UTF-8", 1);  // "C" makes Godot complain that it has no such locale
    ::unsetenv("LC_ALL");
    ::setenv("XDG_DATA_HOME", (xdg + "/data").c_str(), 1);
    ::setenv("XDG_CONFIG_HOME", (xdg + "/config").c_str(), 1);
    ::setenv("XDG_CACHE_HOME", (xdg + "/cache").c_str(), 1);
    ::setenv("SLIDECHECK_GODOT_PORT", std::to_string(ntohs(address.sin_port)).c_str(), 1);
    if (::chdir(dir.c_str()) != 0) ::_exit(127);
    ::execl(godot_.c_str(), godot_.c_str(), "--path", dir.c_str(), "-s", "peer.gd", static_cast<char*>(nullptr));
    const std::string message = "godot peer: cannot run " + godot_ + ": " + std::strerror(errno) + "\n";
    [[maybe_unused]] const auto n = ::write(STDERR_FILENO, message.data(), message.size());
    ::_exit(127);
  }
  pid_ = child;
  ++starts_;
  // Wait for the script to connect, or for Godot to end without connecting.
  const auto deadline = std::chrono::steady_clock::now() + connect_timeout;
  int connection = -1;
  while (connection < 0) {
    pollfd p{listener, POLLIN, 0};
    const int ready = ::poll(&p, 1, 50);
    if (ready > 0) {
      connection = ::accept4(listener, nullptr, nullptr, SOCK_CLOEXEC);
      if (connection < 0 && errno != EINTR) break;
      continue;
    }
    if (::waitpid(pid_, nullptr, WNOHANG) == pid_) {
      pid_ = -1;
      break;
    }
    if (std::chrono::steady_clock::now() > deadline) break;
  }
  ::close(listener);
  std::error_code ignored;
  fs::remove_all(dir, ignored);  // Godot has read the project and the script by now
  if (connection < 0) {
    stop();
    throw std::runtime_error("godot peer: " + godot_ + " did not start the peer script (its messages are on stderr)");
  }
  const int one = 1;
  ::setsockopt(connection, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
  socket_ = connection;
}

std::string GodotProcess::exchange(std::uint32_t op, const std::string& payload) {
  if (socket_ < 0) start();
  std::string message;
  message.reserve(payload.size() + 8);
  put_u32(message, op);
  put_u32(message, std::uint32_t(payload.size()));
  message += payload;
  char header[4];
  std::string reply;
  bool ok = send_all(socket_, message) && receive_all(socket_, header, 4);
  if (ok) {
    reply.resize(get_u32(header));
    ok = receive_all(socket_, reply.data(), reply.size());
  }
  if (!ok) {
    stop();
    throw std::runtime_error("godot peer: Godot closed the connection (it crashed or failed; its messages are on stderr)");
  }
  return reply;
}

}  // namespace slidecheck::peers
