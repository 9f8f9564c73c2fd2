#pragma once
// Godot 3's KinematicBody as an exec-protocol engine (peers/godot/README.md), on one of its two
// physics backends per process:
//
// bullet ("godot"): Godot's default 3D physics, its Bullet module;
// godotphysics ("godot_sw"): Godot's own physics engine (physics/3d/physics_engine="GodotPhysics").
//
// Per pass (per frame the move, then gravity when non-zero) Godot runs, from the body's place:
// move_and_collide(d, test_only) as the pass's single sweep (reported), then
// move_and_slide(d, up, ...) with frame time 1 (the velocity is the displacement). Positions are
// Godot's float32 values, read bit for bit; waypoints are where each slide's move left the body.
// The scene is sent to Godot when it changes, every triangle in file order; the sweep's triangle
// is the scene triangle nearest Godot's contact point (Godot names none).
#include "exec_protocol.hpp"
#include "godot_process.hpp"

#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/reference/geometry/vec3.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace slidecheck::peers {

enum class GodotBackend { bullet, godot_physics };

/// "bullet" or "godotphysics"; nothing for another name.
std::optional<GodotBackend> find_godot_backend(std::string_view name);

/// The settings of move_and_slide and of the shapes, with Godot 3.2's defaults
/// (KinematicBody::move_and_slide's arguments, KinematicBody's collision/safe_margin, Shape's
/// margin). The first four are the engine's tolerances (GodotExec::describe).
struct GodotSettings {
  float safe_margin = 0.001f;                 ///< KinematicBody collision/safe_margin
  int max_slides = 4;                         ///< move_and_slide's max_slides
  float floor_max_angle = 0.785398163397448f; ///< move_and_slide's floor_max_angle, deg2rad(45) in float
  float shape_margin = 0.04f;                 ///< Shape margin (both shapes; used by the Bullet backend only)
  bool stop_on_slope = false;                 ///< move_and_slide's stop_on_slope
  bool infinite_inertia = true;               ///< move_and_slide's and move_and_collide's infinite_inertia
};

/// The character's shape as Godot gets it: a sphere, or a capsule as Godot 3 holds one. Godot 3's
/// CapsuleShape lies along its local Z axis, and its `height` is the distance between the cap
/// centres (the cylinder part, without the caps); peer.gd's character_shape turns its local Z onto
/// the world axis `axis` with a basis that permutes the axes (entries 0 and 1: exact).
struct GodotShape {
  bool capsule = false;
  float radius = 0;
  float height = 0;               ///< capsule: CapsuleShape.height, 2 |half_axis|
  std::uint32_t axis = 2;         ///< capsule: the world axis its local Z lies along (0 x, 1 y, 2 z)
  Vec3<float> half_axis{0, 0, 0}; ///< capsule: slidecheck's half axis, as Godot's capsule covers it
};

/// Godot's capsule for slidecheck's capsule of `radius` whose axis segment runs from -half_axis to
/// +half_axis: height 2 |half_axis| along the one axis, x, y or z, the half axis lies along.
/// Throws std::invalid_argument for a half axis along no coordinate axis (turning Z onto it would
/// need a basis float cannot hold exactly) or a height that overflows float.
GodotShape godot_capsule(float radius, const Vec3<float>& half_axis);

/// What Godot answered for one pass.
struct GodotPass {
  bool hit = false;              ///< the single sweep's collision
  Vec3<float> travel{0, 0, 0};   ///< when hit: how far the sweep moved the body
  Vec3<float> contact{0, 0, 0};  ///< when hit: Godot's contact point
  std::vector<Vec3<float>> waypoints;
  Vec3<float> end{0, 0, 0};
};

/// One Godot process and the scene it holds.
class GodotWorld {
 public:
  GodotWorld(std::string godot, GodotBackend backend);
  /// Makes `mesh` Godot's scene unless it already is (`key` names it, e.g. the file's path and
  /// modification time).
  void set_scene(const std::string& key, const IndexedMesh<float>& mesh);
  /// Runs one character from `start` through `passes` in the current scene.
  std::vector<GodotPass> run(const GodotShape& shape, const Vec3<float>& start, const Vec3<float>& up,
                             const GodotSettings& settings, const std::vector<Vec3<float>>& passes);

 private:
  GodotProcess process_;
  std::string scene_key_;
  int scene_start_ = 0;  ///< the process (GodotProcess::starts) that holds scene_key_
};

class GodotExec : public ExecEngine {
 public:
  GodotExec(GodotBackend backend, std::string godot);
  /// "godot" or "godot_sw", float, and the backend's tolerances; the description names Godot's
  /// version and the backend.
  formats::ExecDescribeAnswer describe() const override;
  formats::PathRecord run(const formats::ExecRequest& request) override;

 private:
  GodotBackend backend_;
  std::string version_;
  GodotWorld world_;
  std::string mesh_key_;
  IndexedMesh<double> mesh_;  ///< the current scene as read (the sweeps' triangles are found in it)
};

/// Godot's version as `godot --version` prints it ("3.2.3.stable.custom_build"), or "unknown".
std::string godot_version(const std::string& godot);

}  // namespace slidecheck::peers
