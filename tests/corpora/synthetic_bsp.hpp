#pragma once
// A tiny IBSP 46 map written byte by byte by the tests (no map data is ever committed).
// Contents, all in model 0 unless noted:
//   brushes: 0 solid cube [0,64]^3 plus a bevel plane touching its edge x = y = 64;
//            1 solid ramp (triangular prism, x in [100,164], 0 <= z <= ~0.75 y, y <= 64);
//            2 water cube (not solid); 3 flat solid brush (z <= 10 and z >= 10);
//            4 solid brush with only 3 planes (unbounded); 5 solid cube in model 1 (a door).
//   surfaces: 0 planar quad on the cube's top (z = 64, stored clockwise from +z);
//             1 a 3 x 3 patch over [0,64]^2, z = 32 at the centre control point;
//             2 a flare; 3 a planar quad with the water shader;
//             4 a triangle-soup quad at z = 0 sharing surface 0's index run.
#include <slidecheck/corpora/bsp.hpp>

#include <array>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

namespace slidecheck::test {

/// Little-endian record writer for one lump.
struct LumpWriter {
  std::vector<std::uint8_t> bytes;
  void i32(std::int32_t v) {
    const auto u = static_cast<std::uint32_t>(v);
    for (int k = 0; k < 4; ++k) bytes.push_back(std::uint8_t(u >> (8 * k)));
  }
  void f32(float v) { i32(static_cast<std::int32_t>(std::bit_cast<std::uint32_t>(v))); }
  void name(const std::string& s, std::size_t n) {
    for (std::size_t k = 0; k < n; ++k) bytes.push_back(k < s.size() ? std::uint8_t(s[k]) : 0);
  }
};

struct SyntheticBsp {
  std::array<LumpWriter, 17> lumps;

  LumpWriter& operator[](corpora::bsp::Lump l) { return lumps[std::size_t(l)]; }

  /// The file: header, then the lumps in directory order.
  std::vector<std::uint8_t> bytes() const {
    LumpWriter out;
    out.name("IBSP", 4);
    out.i32(46);
    std::int32_t offset = std::int32_t(corpora::bsp::kHeaderBytes);
    for (const LumpWriter& l : lumps) {
      out.i32(offset);
      out.i32(std::int32_t(l.bytes.size()));
      offset += std::int32_t(l.bytes.size());
    }
    for (const LumpWriter& l : lumps) out.bytes.insert(out.bytes.end(), l.bytes.begin(), l.bytes.end());
    return out.bytes;
  }
  /// Byte offset of record `record` of lump `l` (plus `field` bytes) in bytes().
  std::size_t offset_of(corpora::bsp::Lump l, std::size_t record, std::size_t field = 0) const {
    std::size_t offset = corpora::bsp::kHeaderBytes;
    for (int k = 0; k < int(l); ++k) offset += lumps[std::size_t(k)].bytes.size();
    return offset + record * corpora::bsp::lump_record_size(l) + field;
  }
};

inline void put_i32(std::vector<std::uint8_t>& b, std::size_t at, std::int32_t v) {
  const auto u = static_cast<std::uint32_t>(v);
  for (int k = 0; k < 4; ++k) b.at(at + std::size_t(k)) = std::uint8_t(u >> (8 * k));
}
inline void put_f32(std::vector<std::uint8_t>& b, std::size_t at, float v) {
  put_i32(b, at, static_cast<std::int32_t>(std::bit_cast<std::uint32_t>(v)));
}

/// The ramp's slope plane: normal (0, -0.6f, 0.8f), dist 0 (inside: z <= 0.75 y, up to rounding).
inline constexpr float kSlopeY = -0.6f, kSlopeZ = 0.8f;

inline SyntheticBsp make_synthetic_bsp() {
  using corpora::bsp::Lump;
  SyntheticBsp m;
  const std::string entities = "{\n\"classname\" \"worldspawn\"\n}\n";
  m[Lump::entities].name(entities, entities.size() + 1);

  // Shaders: 0 solid, 1 water.
  m[Lump::shaders].name("textures/base/solid", 64), m[Lump::shaders].i32(0), m[Lump::shaders].i32(0x1);
  m[Lump::shaders].name("textures/liquids/water", 64), m[Lump::shaders].i32(0), m[Lump::shaders].i32(0x20);

  // Planes and brush sides; each brush lists its planes.
  std::int32_t plane_count = 0;
  auto plane = [&](float nx, float ny, float nz, float d) {
    LumpWriter& w = m[Lump::planes];
    w.f32(nx), w.f32(ny), w.f32(nz), w.f32(d);
    return plane_count++;
  };
  std::int32_t side_count = 0;
  auto brush = [&](std::int32_t shader, std::initializer_list<std::int32_t> planes) {
    m[Lump::brushes].i32(side_count), m[Lump::brushes].i32(std::int32_t(planes.size())), m[Lump::brushes].i32(shader);
    for (std::int32_t p : planes) m[Lump::brushsides].i32(p), m[Lump::brushsides].i32(shader), ++side_count;
  };
  auto box = [&](float x0, float y0, float z0, float x1, float y1, float z1) {
    return std::array<std::int32_t, 6>{plane(-1, 0, 0, -x0), plane(1, 0, 0, x1), plane(0, -1, 0, -y0),
                                       plane(0, 1, 0, y1),   plane(0, 0, -1, -z0), plane(0, 0, 1, z1)};
  };
  const auto cube = box(0, 0, 0, 64, 64, 64);
  const float f = 0.70710678f;  // a float near 1/sqrt(2); the bevel passes exactly through x = y = 64
  const std::int32_t bevel = plane(f, f, 0, 128 * f);
  brush(0, {cube[0], cube[1], cube[2], cube[3], cube[4], cube[5], bevel});
  const auto ramp = box(100, 0, 0, 164, 64, 64);
  const std::int32_t slope = plane(0, kSlopeY, kSlopeZ, 0);
  brush(0, {ramp[0], ramp[1], ramp[2], ramp[3], ramp[4], slope});
  const auto water = box(200, 0, 0, 264, 64, 32);
  brush(1, {water[0], water[1], water[2], water[3], water[4], water[5]});
  const auto flat = box(300, 0, 10, 364, 64, 10);  // zero thickness
  brush(0, {flat[0], flat[1], flat[2], flat[3], flat[4], flat[5]});
  brush(0, {plane(1, 0, 0, 0), plane(0, 1, 0, 0), plane(0, 0, 1, 0)});
  const auto door = box(400, 0, 0, 416, 64, 64);
  brush(0, {door[0], door[1], door[2], door[3], door[4], door[5]});

  // Vertices: 4 of the top quad, 9 patch controls, 1 flare, 4 water, 4 soup.
  auto vert = [&](float x, float y, float z, float nz = 1) {
    LumpWriter& w = m[Lump::drawverts];
    w.f32(x), w.f32(y), w.f32(z);
    for (int k = 0; k < 4; ++k) w.f32(0);  // st, lightmap
    w.f32(0), w.f32(0), w.f32(nz);
    w.i32(-1);  // colour
  };
  for (auto [x, y] : {std::pair{0, 0}, {64, 0}, {64, 64}, {0, 64}}) vert(float(x), float(y), 64);
  for (int row = 0; row < 3; ++row)
    for (int col = 0; col < 3; ++col) vert(32.0f * float(col), 32.0f * float(row), row == 1 && col == 1 ? 32.0f : 0.0f);
  vert(32, 32, 100);
  for (auto [x, y] : {std::pair{200, 0}, {264, 0}, {264, 64}, {200, 64}}) vert(float(x), float(y), 32);
  for (auto [x, y] : {std::pair{0, 0}, {64, 0}, {64, 64}, {0, 64}}) vert(float(x), float(y), 0);

  // One index run (0,2,1),(0,3,2): clockwise from +z, shared by surfaces 0, 3 and 4.
  for (std::int32_t i : {0, 2, 1, 0, 3, 2}) m[Lump::drawindexes].i32(i);

  auto surface = [&](std::int32_t shader, std::int32_t type, std::int32_t first_vert, std::int32_t num_verts,
                     std::int32_t first_index, std::int32_t num_indexes, std::int32_t w = 0, std::int32_t h = 0) {
    LumpWriter& s = m[Lump::surfaces];
    s.i32(shader), s.i32(-1), s.i32(type), s.i32(first_vert), s.i32(num_verts), s.i32(first_index), s.i32(num_indexes);
    s.i32(-1);                                     // lightmap index: none
    for (int k = 0; k < 4; ++k) s.i32(0);          // lightmap corner, size
    for (int k = 0; k < 9; ++k) s.f32(0);          // lightmap origin, vecs
    s.f32(0), s.f32(0), s.f32(1);                  // normal
    s.i32(w), s.i32(h);
  };
  surface(0, 1, 0, 4, 0, 6);
  surface(0, 2, 4, 9, 0, 0, 3, 3);
  surface(0, 4, 13, 1, 0, 0);
  surface(1, 1, 14, 4, 0, 6);
  surface(0, 3, 18, 4, 0, 6);

  // Model 0: surfaces 0-4, brushes 0-4; model 1 (the door): brush 5.
  auto model = [&](std::int32_t fs, std::int32_t ns, std::int32_t fb, std::int32_t nb) {
    LumpWriter& w = m[Lump::models];
    for (int k = 0; k < 6; ++k) w.f32(0);
    w.i32(fs), w.i32(ns), w.i32(fb), w.i32(nb);
  };
  model(0, 5, 0, 5);
  model(5, 0, 5, 1);

  // A node splitting on plane 0 into leafs 0 and 1.
  LumpWriter& node = m[Lump::nodes];
  node.i32(0), node.i32(-1), node.i32(-2);
  for (int k = 0; k < 6; ++k) node.i32(k < 3 ? -512 : 512);
  auto leaf = [&](std::int32_t cluster, std::int32_t ff, std::int32_t nf, std::int32_t fb, std::int32_t nb) {
    LumpWriter& w = m[Lump::leafs];
    w.i32(cluster), w.i32(0);
    for (int k = 0; k < 6; ++k) w.i32(k < 3 ? -512 : 512);
    w.i32(ff), w.i32(nf), w.i32(fb), w.i32(nb);
  };
  leaf(0, 0, 2, 0, 2);
  leaf(-1, 2, 0, 2, 0);
  for (std::int32_t s : {0, 1}) m[Lump::leaffaces].i32(s);
  for (std::int32_t b : {0, 1}) m[Lump::leafbrushes].i32(b);

  m[Lump::fogs].name("textures/fog/mist", 64), m[Lump::fogs].i32(2), m[Lump::fogs].i32(-1);
  for (int k = 0; k < 8; ++k) m[Lump::lightgrid].bytes.push_back(std::uint8_t(k));
  m[Lump::visdata].i32(1), m[Lump::visdata].i32(1), m[Lump::visdata].bytes.push_back(1);
  return m;
}

/// A map whose model 0 is a single solid brush with the given planes (normal, dist).
inline SyntheticBsp make_single_brush_bsp(const std::vector<std::array<float, 4>>& planes) {
  using corpora::bsp::Lump;
  SyntheticBsp m;
  m[Lump::shaders].name("textures/base/solid", 64), m[Lump::shaders].i32(0), m[Lump::shaders].i32(0x1);
  for (std::size_t i = 0; i < planes.size(); ++i) {
    for (float c : planes[i]) m[Lump::planes].f32(c);
    m[Lump::brushsides].i32(std::int32_t(i)), m[Lump::brushsides].i32(0);
  }
  m[Lump::brushes].i32(0), m[Lump::brushes].i32(std::int32_t(planes.size())), m[Lump::brushes].i32(0);
  LumpWriter& model = m[Lump::models];
  for (int k = 0; k < 6; ++k) model.f32(0);
  model.i32(0), model.i32(0), model.i32(0), model.i32(1);
  return m;
}

}  // namespace slidecheck::test
