#pragma once
// Bullet as an exec-protocol engine (peers/bullet/README.md), in the precision of the linked
// Bullet build (btScalar). Two modes, one per process:
//
// sweep ("bullet_sweep"): per pass, one btCollisionWorld::convexSweepTest of a btSphereShape from
//   the pass's start along its displacement (ClosestConvexResultCallback); the sphere rests at
//   start + fraction * displacement, computed in btScalar as Bullet users do. The pass's sweep is
//   reported with Bullet's hit triangle.
// kcc ("bullet_kcc"): a btKinematicCharacterController, one updateAction per pass
//   (bullet_character.hpp); positions are the ghost's origin, waypoints where the controller put
//   it within the pass. Each pass also reports the plain convexSweepTest from its start along its
//   displacement (a swept sphere from the same start, not the controller's own ghost sweeps).
//
// Scenes are read with slidecheck::formats, rounded once to btScalar with every triangle kept
// (so Bullet's triangle index is the file's), and cached per path (re-read when the file changes).
#include "exec_protocol.hpp"

#include <slidecheck/peers/bullet_peer.hpp>

#include <cstdint>
#include <list>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace slidecheck::peers {

enum class BulletMode { sweep, kcc };

/// "sweep" or "kcc"; nothing for another name.
std::optional<BulletMode> find_bullet_mode(std::string_view name);

/// The precision of the linked Bullet build.
formats::Precision bullet_precision();

/// Each scene's Bullet world, built on first use; at most `capacity` kept (least recently used
/// dropped). A file whose size or modification time changed is read again.
class BulletScenes {
 public:
  explicit BulletScenes(std::size_t capacity = 16) : capacity_(capacity) {}
  /// Throws formats::InputError for an unreadable or malformed scene, or one that overflows btScalar.
  BulletPeer& world(const std::string& path);
  std::size_t size() const { return worlds_.size(); }

 private:
  struct Entry {
    std::uintmax_t bytes = 0;
    std::int64_t modified = 0;
    std::unique_ptr<BulletPeer> peer;
    std::list<std::string>::iterator use;
  };
  std::size_t capacity_;
  std::map<std::string, Entry> worlds_;
  std::list<std::string> uses_;  ///< most recent first
};

class BulletExec : public ExecEngine {
 public:
  explicit BulletExec(BulletMode mode) : mode_(mode) {}
  /// "bullet_sweep" or "bullet_kcc", the precision of the linked build, and the mode's tolerances.
  formats::ExecDescribeAnswer describe() const override;
  formats::PathRecord run(const formats::ExecRequest& request) override;

 private:
  std::vector<std::pair<std::string, double>> tolerances() const;
  BulletMode mode_;
  BulletScenes scenes_;
};

}  // namespace slidecheck::peers
