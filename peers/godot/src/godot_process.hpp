#pragma once
// A godot3-server process running the peer's SceneTree script (peer.gd), and the loopback TCP
// connection to it. GDScript 3 cannot read a pipe, so the script connects back to a port this
// side listens on; both sides then exchange length-prefixed binary messages (peer.gd's header).
//
// The process is started on first use in a private folder (the project file naming the physics
// backend, the script, and the XDG folders Godot writes its user data into, so nothing lands in
// the user's home); the folder is removed as soon as the script has connected. Godot is killed
// with this process (PR_SET_PDEATHSIG), so a client killed by slidecheck's exec timeout leaves no
// Godot behind, and a Godot that dies or hangs up makes the exchange throw; the next exchange
// starts a new one.
#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

namespace slidecheck::peers {

/// peer.gd's text, compiled in (godot_script.cpp, generated from peers/godot/peer.gd).
extern const std::string_view godot_script;

/// Why `godot` cannot be run as GodotProcess runs it (an absolute path to an executable file:
/// it is run from the process's private folder), or empty. godot3-server can be removed after
/// slidecheck_godot was built with its path; `slidecheck version` and peer:godot ask this first.
std::string godot_problem(const std::string& godot);

class GodotProcess {
 public:
  /// `godot`: the godot3-server executable; `physics_engine`: the project setting
  /// physics/3d/physics_engine ("Bullet" or "GodotPhysics"). Starts nothing.
  GodotProcess(std::string godot, std::string physics_engine);
  ~GodotProcess();
  GodotProcess(const GodotProcess&) = delete;
  GodotProcess& operator=(const GodotProcess&) = delete;

  /// Sends message `op` with `payload` and returns the reply's payload (its status word
  /// included), starting Godot first if needed. Throws std::runtime_error when Godot cannot be
  /// started or the connection breaks (Godot is then stopped).
  std::string exchange(std::uint32_t op, const std::string& payload);

  /// How many Godot processes were started so far: a new one knows no scene.
  int starts() const { return starts_; }

  /// How long Godot may take from start to connecting back.
  static constexpr std::chrono::seconds connect_timeout{30};

 private:
  void start();
  void stop();

  std::string godot_;
  std::string physics_engine_;
  int pid_ = -1;
  int socket_ = -1;
  int starts_ = 0;
};

}  // namespace slidecheck::peers
