#pragma once
/// Quake III Arena BSP files ("IBSP", version 46): the on-disk layout, read with every lump and
/// every index bounds-checked.
///
/// The layout follows the public description of the format (Kekoa Proudfoot, "Unofficial Quake 3
/// Map Specs", 2000; id Software's GPL release of the Quake III tools names the same lumps).
/// All integers and floats are little-endian, 4 bytes. The header is the magic "IBSP", the
/// version, then 17 (offset, length) pairs, one per lump, in the order of `Lump`.
///
/// `parse_bsp` refuses anything malformed with a FormatError naming the file, the lump and the
/// record: a short header, a wrong magic or version, a lump outside the file or not a whole
/// number of records, an index out of its lump, a non-finite plane or vertex coordinate.
/// After it returns, every index in the result is in range, so consumers need no more checks.
/// One exception is tolerated because shipped maps contain it (OpenArena's aggressor.bsp): a
/// surface's fog index beyond the fogs lump is replaced by -1 (no fog) and noted in `warnings`;
/// it only selects a rendering effect, and the engine does not check it either.

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::corpora::bsp {

inline constexpr std::int32_t kVersion = 46;
inline constexpr std::size_t kHeaderBytes = 4 + 4 + 17 * 8;

/// The 17 lumps, in directory order.
enum class Lump : int {
  entities, shaders, planes, nodes, leafs, leaffaces, leafbrushes, models, brushes, brushsides,
  drawverts, drawindexes, fogs, surfaces, lightmaps, lightgrid, visdata,
};
inline constexpr int kLumpCount = 17;
/// The lump's name as used in error messages ("planes", "brushsides", ...).
std::string_view lump_name(Lump lump);
/// Bytes per record of a lump (1 for the text and byte lumps).
std::size_t lump_record_size(Lump lump);

/// Shader contents flags (surfaceparm); a brush or surface blocks players when it has SOLID.
inline constexpr std::int32_t kContentsSolid = 0x1;
inline constexpr std::int32_t kContentsPlayerClip = 0x10000;

/// Surface types of the surfaces lump.
enum class SurfaceType : std::int32_t { planar = 1, patch = 2, triangle_soup = 3, flare = 4 };

/// Lightmaps are 128 x 128 RGB.
inline constexpr std::size_t kLightmapBytes = 128 * 128 * 3;
/// A light-grid cell: ambient RGB, directed RGB, direction (2 bytes).
inline constexpr std::size_t kLightGridCellBytes = 8;

struct Shader {
  std::string name;                ///< up to 64 characters
  std::int32_t surface_flags = 0;
  std::int32_t contents = 0;       ///< kContentsSolid, ...
};

/// The plane dot(normal, p) = dist; the normal is unit length up to float rounding. A brush is
/// the intersection of its sides' half-spaces dot(normal, p) <= dist (normals point out).
struct Plane {
  std::array<float, 3> normal{};
  float dist = 0;
};

struct Node {
  std::int32_t plane = 0;
  /// >= 0: a node index; < 0: the leaf -(child + 1).
  std::array<std::int32_t, 2> children{};
  std::array<std::int32_t, 3> mins{}, maxs{};
};

struct Leaf {
  std::int32_t cluster = 0;  ///< -1: outside the map / opaque
  std::int32_t area = 0;
  std::array<std::int32_t, 3> mins{}, maxs{};
  std::int32_t first_leafface = 0, num_leaffaces = 0;
  std::int32_t first_leafbrush = 0, num_leafbrushes = 0;
};

/// Model 0 is the static world; the others are brush entities (doors, platforms, triggers).
struct Model {
  std::array<float, 3> mins{}, maxs{};
  std::int32_t first_surface = 0, num_surfaces = 0;
  std::int32_t first_brush = 0, num_brushes = 0;
};

struct Brush {
  std::int32_t first_side = 0, num_sides = 0;
  std::int32_t shader = 0;  ///< its contents flags decide whether it is solid
};

struct BrushSide {
  std::int32_t plane = 0;
  std::int32_t shader = 0;
};

struct DrawVert {
  std::array<float, 3> position{};
  std::array<float, 2> st{}, lightmap{};
  std::array<float, 3> normal{};
  std::array<std::uint8_t, 4> color{};
};

struct Fog {
  std::string shader;
  std::int32_t brush = 0;
  std::int32_t visible_side = 0;  ///< -1: none
};

/// A draw surface. Planar and triangle-soup surfaces are triangles drawindexes[first_index +
/// 3k + j] (offsets from first_vert); a patch is a patch_width x patch_height grid of control
/// points drawverts[first_vert + row * patch_width + column].
struct Surface {
  std::int32_t shader = 0;
  std::int32_t fog = 0;  ///< -1: none
  SurfaceType type = SurfaceType::planar;
  std::int32_t first_vert = 0, num_verts = 0;
  std::int32_t first_index = 0, num_indexes = 0;
  std::int32_t lightmap_index = 0;  ///< < 0: none or a special (vertex-lit) mode
  std::array<std::int32_t, 2> lightmap_corner{}, lightmap_size{};
  std::array<float, 3> lightmap_origin{};
  std::array<std::array<float, 3>, 2> lightmap_vecs{};
  std::array<float, 3> normal{};
  std::int32_t patch_width = 0, patch_height = 0;
};

struct VisData {
  std::int32_t num_clusters = 0;
  std::int32_t bytes_per_cluster = 0;
  std::vector<std::uint8_t> bits;  ///< num_clusters * bytes_per_cluster bytes
};

/// A whole map, every index checked against its target lump.
struct BspFile {
  std::string name;       ///< for error messages, e.g. "pak1-maps.pk3:maps/oa_dm1.bsp"
  std::string entities;   ///< the entity text, without its trailing NUL
  std::vector<Shader> shaders;
  std::vector<Plane> planes;
  std::vector<Node> nodes;
  std::vector<Leaf> leafs;
  std::vector<std::int32_t> leaffaces;
  std::vector<std::int32_t> leafbrushes;
  std::vector<Model> models;
  std::vector<Brush> brushes;
  std::vector<BrushSide> brushsides;
  std::vector<DrawVert> drawverts;
  std::vector<std::int32_t> drawindexes;
  std::vector<Fog> fogs;
  std::vector<Surface> surfaces;
  std::vector<std::uint8_t> lightmaps;  ///< lightmap_count() * kLightmapBytes
  std::vector<std::uint8_t> lightgrid;  ///< a multiple of kLightGridCellBytes
  VisData visdata;
  /// Tolerated defects, one line each ("lump 'surfaces' record 12: ..."): references that real
  /// maps get wrong but that do not affect geometry, replaced by a neutral value (see parse_bsp).
  std::vector<std::string> warnings;

  std::size_t lightmap_count() const { return lightmaps.size() / kLightmapBytes; }
};

/// Parses and validates a whole BSP file held in memory. `name` only labels error messages.
/// Throws FormatError on any malformed content; never reads outside `bytes`.
BspFile parse_bsp(std::span<const std::uint8_t> bytes, std::string name);

}  // namespace slidecheck::corpora::bsp
