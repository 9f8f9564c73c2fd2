#pragma once
/// The OpenArena corpus: Debian's openarena-081-maps package (50 Quake III maps, GPL-2+),
/// fetched and verified by scripts/fetch-openarena-maps.sh, never redistributed. These
/// constants are the ones the script pins (a test checks that they agree).

#include <slidecheck/corpora/bsp_soup.hpp>
#include <slidecheck/formats/scene.hpp>

#include <string>
#include <string_view>

namespace slidecheck::corpora::openarena {

inline constexpr std::string_view kPackage = "openarena-081-maps";
inline constexpr std::string_view kVersion = "0.8.5split-14";  ///< Debian 12 (bookworm)
inline constexpr std::string_view kDebSha256 = "dc2584d3af84696366080bc8d54c6c70d82085b7d3220f6cc878caed16aaf7d2";
/// The archive inside the package: usr/share/games/openarena/baseoa/pak1-maps.pk3.
inline constexpr std::string_view kPk3Sha256 = "76912e8e6dc6895d38555ebf84dfb6d2c01a127b060f04f3ccbce1d31ff55654";
inline constexpr std::string_view kLicence = "GPL-2.0-or-later";
/// Quake units: about an inch; z is up; players have a radius of 15 to 24 units.
inline constexpr std::string_view kUnits = "quake unit";
inline constexpr std::size_t kMapCount = 50;

/// The draw soup of map `map_name` (e.g. "oa_dm1") as a scene with its provenance: double
/// precision, zero-area triangles allowed (rounded patch points and slivers occur).
formats::Scene draw_scene(const std::string& map_name, const DrawSoup& soup);
/// The brush soup of map `map_name` as a scene, likewise.
formats::Scene brush_scene(const std::string& map_name, const BrushSoup& soup);

}  // namespace slidecheck::corpora::openarena
