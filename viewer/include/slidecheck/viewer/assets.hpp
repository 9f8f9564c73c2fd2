#pragma once
// The page of `slidecheck view`, embedded in the binary when it is built
// (viewer/embed_assets.cmake): our stylesheet, body and script (viewer/page/), and three.js
// with its OrbitControls and licence from the npm registry (viewer/package-lock.json).
#include <string_view>

namespace slidecheck::viewer_assets {
extern const std::string_view css, body, script;
extern const std::string_view three, orbit_controls, three_licence, three_version;
/// Why three.js is not embedded (empty when it is): `slidecheck view` reports it.
extern const std::string_view unavailable;
}  // namespace slidecheck::viewer_assets
