// IBSP version 46 reader: decodes each lump record by record from little-endian bytes (never by
// casting the buffer, so alignment and host byte order do not matter) and checks every offset,
// length and index before anything is used.
#include <slidecheck/corpora/bsp.hpp>
#include <slidecheck/corpora/errors.hpp>

#include <bit>
#include <cmath>
#include <cstring>

namespace slidecheck::corpora::bsp {

namespace {

constexpr std::array<std::string_view, kLumpCount> kLumpNames = {
    "entities", "shaders",  "planes",      "nodes", "leafs",    "leaffaces", "leafbrushes", "models",  "brushes",
    "brushsides", "drawverts", "drawindexes", "fogs", "surfaces", "lightmaps", "lightgrid",   "visdata"};
constexpr std::array<std::size_t, kLumpCount> kRecordSizes = {
    1, 72, 16, 36, 48, 4, 4, 40, 12, 8, 44, 4, 72, 104, kLightmapBytes, kLightGridCellBytes, 1};

std::uint32_t u32_at(const std::uint8_t* p) {
  return std::uint32_t(p[0]) | (std::uint32_t(p[1]) << 8) | (std::uint32_t(p[2]) << 16) | (std::uint32_t(p[3]) << 24);
}
std::int32_t i32_at(const std::uint8_t* p) { return static_cast<std::int32_t>(u32_at(p)); }
float f32_at(const std::uint8_t* p) { return std::bit_cast<float>(u32_at(p)); }
/// A fixed-size, NUL-padded name field (no NUL at all: all `n` characters).
std::string name_at(const std::uint8_t* p, std::size_t n) {
  std::size_t len = 0;
  while (len < n && p[len] != 0) ++len;
  return std::string(reinterpret_cast<const char*>(p), len);
}

/// Decodes one lump and reports errors against it.
class LumpReader {
 public:
  LumpReader(const std::string& file, Lump lump, std::span<const std::uint8_t> data)
      : file_(file), lump_(lump), data_(data) {}

  std::size_t count() const { return data_.size() / kRecordSizes[int(lump_)]; }
  const std::uint8_t* record(std::size_t i) const { return data_.data() + i * kRecordSizes[int(lump_)]; }
  std::span<const std::uint8_t> bytes() const { return data_; }

  std::string where(std::size_t i) const {
    return "lump '" + std::string(lump_name(lump_)) + "' record " + std::to_string(i);
  }
  [[noreturn]] void fail(std::size_t i, const std::string& problem) const {
    throw FormatError(file_, where(i), problem);
  }
  /// `value` must index lump `target` of `size` records.
  void check_index(std::size_t i, const char* field, std::int64_t value, Lump target, std::size_t size) const {
    if (value < 0 || std::uint64_t(value) >= size)
      fail(i, std::string(field) + " " + std::to_string(value) + " is out of range [0, " + std::to_string(size) +
                  ") of lump '" + std::string(lump_name(target)) + "'");
  }
  /// [first, first + num) must lie inside lump `target` of `size` records.
  void check_range(std::size_t i, const char* field, std::int64_t first, std::int64_t num, Lump target,
                   std::size_t size) const {
    if (first < 0 || num < 0 || std::uint64_t(first) + std::uint64_t(num) > size)
      fail(i, std::string(field) + " range first " + std::to_string(first) + " count " + std::to_string(num) +
                  " exceeds lump '" + std::string(lump_name(target)) + "' (" + std::to_string(size) + " records)");
  }
  void check_finite(std::size_t i, const char* field, float v) const {
    if (!std::isfinite(v)) fail(i, std::string(field) + " is not finite");
  }

 private:
  const std::string& file_;
  Lump lump_;
  std::span<const std::uint8_t> data_;
};

std::string printable_magic(const std::uint8_t* p) {
  std::string s;
  for (int i = 0; i < 4; ++i) {
    const unsigned c = p[i];
    if (c >= 0x20 && c < 0x7f) s += char(c);
    else {
      static const char hex[] = "0123456789abcdef";
      s += "\\x";
      s += hex[c >> 4];
      s += hex[c & 15];
    }
  }
  return s;
}

}  // namespace

std::string_view lump_name(Lump lump) { return kLumpNames[int(lump)]; }
std::size_t lump_record_size(Lump lump) { return kRecordSizes[int(lump)]; }

BspFile parse_bsp(std::span<const std::uint8_t> bytes, std::string name) {
  BspFile bsp;
  bsp.name = std::move(name);
  const std::string& file = bsp.name;

  if (bytes.size() < kHeaderBytes)
    throw FormatError(file, "header", "the file has " + std::to_string(bytes.size()) +
                                          " bytes, fewer than the " + std::to_string(kHeaderBytes) + "-byte header");
  if (std::memcmp(bytes.data(), "IBSP", 4) != 0)
    throw FormatError(file, "header", "bad magic '" + printable_magic(bytes.data()) + "' (expected 'IBSP')");
  const std::int32_t version = i32_at(bytes.data() + 4);
  if (version != kVersion)
    throw FormatError(file, "header", "unsupported version " + std::to_string(version) + " (expected " +
                                          std::to_string(kVersion) + ", Quake III Arena)");

  std::array<std::span<const std::uint8_t>, kLumpCount> lumps;
  for (int l = 0; l < kLumpCount; ++l) {
    const std::int32_t offset = i32_at(bytes.data() + 8 + 8 * l);
    const std::int32_t length = i32_at(bytes.data() + 12 + 8 * l);
    const std::string where = "lump '" + std::string(kLumpNames[l]) + "'";
    if (offset < 0 || length < 0)
      throw FormatError(file, where, "negative offset " + std::to_string(offset) + " or length " + std::to_string(length));
    if (std::uint64_t(offset) + std::uint64_t(length) > bytes.size())
      throw FormatError(file, where, "offset " + std::to_string(offset) + " + length " + std::to_string(length) +
                                         " extends past the end of the file (" + std::to_string(bytes.size()) +
                                         " bytes): truncated");
    if (std::size_t(length) % kRecordSizes[l] != 0)
      throw FormatError(file, where, "length " + std::to_string(length) + " is not a multiple of its record size " +
                                         std::to_string(kRecordSizes[l]) + ": truncated record");
    lumps[l] = bytes.subspan(std::size_t(offset), std::size_t(length));
  }
  auto reader = [&](Lump l) { return LumpReader(file, l, lumps[int(l)]); };

  // Entities: text, normally NUL-terminated.
  {
    const auto b = lumps[int(Lump::entities)];
    bsp.entities.assign(reinterpret_cast<const char*>(b.data()), b.size());
    while (!bsp.entities.empty() && bsp.entities.back() == '\0') bsp.entities.pop_back();
  }

  // Counts first: records are checked against the sizes of the lumps they point into.
  const std::size_t n_shaders = reader(Lump::shaders).count();
  const std::size_t n_planes = reader(Lump::planes).count();
  const std::size_t n_nodes = reader(Lump::nodes).count();
  const std::size_t n_leafs = reader(Lump::leafs).count();
  const std::size_t n_leaffaces = reader(Lump::leaffaces).count();
  const std::size_t n_leafbrushes = reader(Lump::leafbrushes).count();
  const std::size_t n_brushes = reader(Lump::brushes).count();
  const std::size_t n_brushsides = reader(Lump::brushsides).count();
  const std::size_t n_drawverts = reader(Lump::drawverts).count();
  const std::size_t n_drawindexes = reader(Lump::drawindexes).count();
  const std::size_t n_fogs = reader(Lump::fogs).count();
  const std::size_t n_surfaces = reader(Lump::surfaces).count();

  {
    const LumpReader r = reader(Lump::shaders);
    for (std::size_t i = 0; i < r.count(); ++i) {
      const std::uint8_t* p = r.record(i);
      bsp.shaders.push_back({name_at(p, 64), i32_at(p + 64), i32_at(p + 68)});
    }
  }
  {
    const LumpReader r = reader(Lump::planes);
    for (std::size_t i = 0; i < r.count(); ++i) {
      const std::uint8_t* p = r.record(i);
      Plane pl{{f32_at(p), f32_at(p + 4), f32_at(p + 8)}, f32_at(p + 12)};
      for (float c : pl.normal) r.check_finite(i, "normal component", c);
      r.check_finite(i, "dist", pl.dist);
      if (pl.normal[0] == 0 && pl.normal[1] == 0 && pl.normal[2] == 0) r.fail(i, "the normal is zero");
      bsp.planes.push_back(pl);
    }
  }
  {
    const LumpReader r = reader(Lump::nodes);
    for (std::size_t i = 0; i < r.count(); ++i) {
      const std::uint8_t* p = r.record(i);
      Node n;
      n.plane = i32_at(p);
      r.check_index(i, "plane", n.plane, Lump::planes, n_planes);
      for (int c = 0; c < 2; ++c) {
        n.children[c] = i32_at(p + 4 + 4 * c);
        if (n.children[c] >= 0) r.check_index(i, "child node", n.children[c], Lump::nodes, n_nodes);
        else r.check_index(i, "child leaf", -(std::int64_t(n.children[c]) + 1), Lump::leafs, n_leafs);
      }
      for (int a = 0; a < 3; ++a) {
        n.mins[a] = i32_at(p + 12 + 4 * a);
        n.maxs[a] = i32_at(p + 24 + 4 * a);
      }
      bsp.nodes.push_back(n);
    }
  }
  // Visdata before leafs: a leaf's cluster indexes its rows.
  {
    const auto b = lumps[int(Lump::visdata)];
    if (!b.empty()) {
      const std::string where = "lump 'visdata'";
      if (b.size() < 8) throw FormatError(file, where, "length " + std::to_string(b.size()) + " is shorter than its 8-byte header");
      bsp.visdata.num_clusters = i32_at(b.data());
      bsp.visdata.bytes_per_cluster = i32_at(b.data() + 4);
      const std::int64_t n = bsp.visdata.num_clusters, w = bsp.visdata.bytes_per_cluster;
      if (n < 0 || w < 0) throw FormatError(file, where, "negative cluster count or row size");
      if (w * 8 < n)
        throw FormatError(file, where, "rows of " + std::to_string(w) + " bytes cannot hold " + std::to_string(n) + " clusters");
      if (std::uint64_t(n) * std::uint64_t(w) > b.size() - 8)
        throw FormatError(file, where, std::to_string(n) + " rows of " + std::to_string(w) + " bytes exceed its " +
                                           std::to_string(b.size() - 8) + " data bytes: truncated");
      bsp.visdata.bits.assign(b.begin() + 8, b.begin() + 8 + n * w);
    }
  }
  {
    const LumpReader r = reader(Lump::leafs);
    for (std::size_t i = 0; i < r.count(); ++i) {
      const std::uint8_t* p = r.record(i);
      Leaf f;
      f.cluster = i32_at(p);
      f.area = i32_at(p + 4);
      for (int a = 0; a < 3; ++a) {
        f.mins[a] = i32_at(p + 8 + 4 * a);
        f.maxs[a] = i32_at(p + 20 + 4 * a);
      }
      f.first_leafface = i32_at(p + 32);
      f.num_leaffaces = i32_at(p + 36);
      f.first_leafbrush = i32_at(p + 40);
      f.num_leafbrushes = i32_at(p + 44);
      if (f.cluster < -1) r.fail(i, "cluster " + std::to_string(f.cluster) + " is below -1");
      if (!lumps[int(Lump::visdata)].empty() && f.cluster >= bsp.visdata.num_clusters)
        r.fail(i, "cluster " + std::to_string(f.cluster) + " is out of range [-1, " +
                      std::to_string(bsp.visdata.num_clusters) + ") of lump 'visdata'");
      if (f.area < -1) r.fail(i, "area " + std::to_string(f.area) + " is below -1");
      r.check_range(i, "leafface", f.first_leafface, f.num_leaffaces, Lump::leaffaces, n_leaffaces);
      r.check_range(i, "leafbrush", f.first_leafbrush, f.num_leafbrushes, Lump::leafbrushes, n_leafbrushes);
      bsp.leafs.push_back(f);
    }
  }
  {
    const LumpReader r = reader(Lump::leaffaces);
    for (std::size_t i = 0; i < r.count(); ++i) {
      bsp.leaffaces.push_back(i32_at(r.record(i)));
      r.check_index(i, "surface", bsp.leaffaces.back(), Lump::surfaces, n_surfaces);
    }
  }
  {
    const LumpReader r = reader(Lump::leafbrushes);
    for (std::size_t i = 0; i < r.count(); ++i) {
      bsp.leafbrushes.push_back(i32_at(r.record(i)));
      r.check_index(i, "brush", bsp.leafbrushes.back(), Lump::brushes, n_brushes);
    }
  }
  {
    const LumpReader r = reader(Lump::models);
    for (std::size_t i = 0; i < r.count(); ++i) {
      const std::uint8_t* p = r.record(i);
      Model m;
      for (int a = 0; a < 3; ++a) {
        m.mins[a] = f32_at(p + 4 * a);
        m.maxs[a] = f32_at(p + 12 + 4 * a);
      }
      m.first_surface = i32_at(p + 24);
      m.num_surfaces = i32_at(p + 28);
      m.first_brush = i32_at(p + 32);
      m.num_brushes = i32_at(p + 36);
      r.check_range(i, "surface", m.first_surface, m.num_surfaces, Lump::surfaces, n_surfaces);
      r.check_range(i, "brush", m.first_brush, m.num_brushes, Lump::brushes, n_brushes);
      bsp.models.push_back(m);
    }
  }
  {
    const LumpReader r = reader(Lump::brushes);
    for (std::size_t i = 0; i < r.count(); ++i) {
      const std::uint8_t* p = r.record(i);
      Brush b{i32_at(p), i32_at(p + 4), i32_at(p + 8)};
      r.check_range(i, "brushside", b.first_side, b.num_sides, Lump::brushsides, n_brushsides);
      r.check_index(i, "shader", b.shader, Lump::shaders, n_shaders);
      bsp.brushes.push_back(b);
    }
  }
  {
    const LumpReader r = reader(Lump::brushsides);
    for (std::size_t i = 0; i < r.count(); ++i) {
      const std::uint8_t* p = r.record(i);
      BrushSide s{i32_at(p), i32_at(p + 4)};
      r.check_index(i, "plane", s.plane, Lump::planes, n_planes);
      r.check_index(i, "shader", s.shader, Lump::shaders, n_shaders);
      bsp.brushsides.push_back(s);
    }
  }
  {
    const LumpReader r = reader(Lump::drawverts);
    bsp.drawverts.reserve(r.count());
    for (std::size_t i = 0; i < r.count(); ++i) {
      const std::uint8_t* p = r.record(i);
      DrawVert v;
      for (int a = 0; a < 3; ++a) {
        v.position[a] = f32_at(p + 4 * a);
        r.check_finite(i, "position component", v.position[a]);
      }
      for (int a = 0; a < 2; ++a) {
        v.st[a] = f32_at(p + 12 + 4 * a);
        v.lightmap[a] = f32_at(p + 20 + 4 * a);
      }
      for (int a = 0; a < 3; ++a) v.normal[a] = f32_at(p + 28 + 4 * a);
      for (int a = 0; a < 4; ++a) v.color[a] = p[40 + a];
      bsp.drawverts.push_back(v);
    }
  }
  {
    const LumpReader r = reader(Lump::drawindexes);
    bsp.drawindexes.reserve(r.count());
    for (std::size_t i = 0; i < r.count(); ++i) bsp.drawindexes.push_back(i32_at(r.record(i)));
    // Checked per surface below: an index is an offset from its surface's first vertex.
  }
  {
    const LumpReader r = reader(Lump::fogs);
    for (std::size_t i = 0; i < r.count(); ++i) {
      const std::uint8_t* p = r.record(i);
      Fog f{name_at(p, 64), i32_at(p + 64), i32_at(p + 68)};
      r.check_index(i, "brush", f.brush, Lump::brushes, n_brushes);
      const std::int32_t sides = bsp.brushes[std::size_t(f.brush)].num_sides;
      if (f.visible_side != -1 && (f.visible_side < 0 || f.visible_side >= sides))
        r.fail(i, "visible side " + std::to_string(f.visible_side) + " is out of range [-1, " + std::to_string(sides) +
                      ") of brush " + std::to_string(f.brush) + "'s sides");
      bsp.fogs.push_back(std::move(f));
    }
  }
  {
    const auto b = lumps[int(Lump::lightmaps)];
    bsp.lightmaps.assign(b.begin(), b.end());
  }
  {
    const auto b = lumps[int(Lump::lightgrid)];
    bsp.lightgrid.assign(b.begin(), b.end());
  }
  {
    const LumpReader r = reader(Lump::surfaces);
    for (std::size_t i = 0; i < r.count(); ++i) {
      const std::uint8_t* p = r.record(i);
      Surface s;
      s.shader = i32_at(p);
      s.fog = i32_at(p + 4);
      const std::int32_t type = i32_at(p + 8);
      s.first_vert = i32_at(p + 12);
      s.num_verts = i32_at(p + 16);
      s.first_index = i32_at(p + 20);
      s.num_indexes = i32_at(p + 24);
      s.lightmap_index = i32_at(p + 28);
      for (int a = 0; a < 2; ++a) {
        s.lightmap_corner[a] = i32_at(p + 32 + 4 * a);
        s.lightmap_size[a] = i32_at(p + 40 + 4 * a);
      }
      for (int a = 0; a < 3; ++a) {
        s.lightmap_origin[a] = f32_at(p + 48 + 4 * a);
        s.lightmap_vecs[0][a] = f32_at(p + 60 + 4 * a);
        s.lightmap_vecs[1][a] = f32_at(p + 72 + 4 * a);
        s.normal[a] = f32_at(p + 84 + 4 * a);
      }
      s.patch_width = i32_at(p + 96);
      s.patch_height = i32_at(p + 100);

      r.check_index(i, "shader", s.shader, Lump::shaders, n_shaders);
      if (s.fog != -1 && (s.fog < 0 || std::size_t(s.fog) >= n_fogs)) {
        bsp.warnings.push_back(r.where(i) + ": fog " + std::to_string(s.fog) + " is out of range [0, " +
                               std::to_string(n_fogs) + ") of lump 'fogs': treated as no fog");
        s.fog = -1;
      }
      if (type < 1 || type > 4) r.fail(i, "unknown surface type " + std::to_string(type) + " (expected 1 to 4)");
      s.type = SurfaceType(type);
      r.check_range(i, "vertex", s.first_vert, s.num_verts, Lump::drawverts, n_drawverts);
      r.check_range(i, "index", s.first_index, s.num_indexes, Lump::drawindexes, n_drawindexes);
      // Negative lightmap indexes are the engine's special modes (none, vertex-lit, ...).
      if (s.lightmap_index >= 0)
        r.check_index(i, "lightmap", s.lightmap_index, Lump::lightmaps, bsp.lightmap_count());
      if (s.type == SurfaceType::planar || s.type == SurfaceType::triangle_soup) {
        if (s.num_indexes % 3 != 0)
          r.fail(i, "index count " + std::to_string(s.num_indexes) + " is not a multiple of 3");
        for (std::int32_t k = 0; k < s.num_indexes; ++k) {
          const std::int32_t idx = bsp.drawindexes[std::size_t(s.first_index + k)];
          if (idx < 0 || idx >= s.num_verts)
            r.fail(i, "drawindexes[" + std::to_string(s.first_index + k) + "] = " + std::to_string(idx) +
                          " is out of range [0, " + std::to_string(s.num_verts) + ") of the surface's vertices");
        }
      } else if (s.type == SurfaceType::patch) {
        const std::int32_t w = s.patch_width, h = s.patch_height;
        if (w < 3 || h < 3 || w % 2 == 0 || h % 2 == 0)
          r.fail(i, "patch size " + std::to_string(w) + " x " + std::to_string(h) + " is not odd and at least 3 x 3");
        if (std::int64_t(w) * h != s.num_verts)
          r.fail(i, "patch size " + std::to_string(w) + " x " + std::to_string(h) + " does not match its " +
                        std::to_string(s.num_verts) + " vertices");
      }
      bsp.surfaces.push_back(s);
    }
  }
  return bsp;
}

}  // namespace slidecheck::corpora::bsp
