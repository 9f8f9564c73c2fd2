#include <slidecheck/verify/level_a/triangle_index.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace slidecheck::verify {

namespace {

constexpr std::uint32_t max_leaf_size = 4;
constexpr int bin_count = 16;

exact::Box empty_box() {
  constexpr double inf = std::numeric_limits<double>::infinity();
  return {{inf, inf, inf}, {-inf, -inf, -inf}};
}

void grow(exact::Box& b, const exact::Box& o) {
  for (int j = 0; j < 3; ++j) {
    b.lo[j] = std::min(b.lo[j], o.lo[j]);
    b.hi[j] = std::max(b.hi[j], o.hi[j]);
  }
}

/// Half the surface area; 0 for an empty box. Only steers the split, never correctness.
double half_area(const exact::Box& b) {
  if (!(b.lo[0] <= b.hi[0])) return 0;
  const double dx = b.hi[0] - b.lo[0], dy = b.hi[1] - b.lo[1], dz = b.hi[2] - b.lo[2];
  return dx * dy + dy * dz + dz * dx;
}

}  // namespace

TriangleIndex::TriangleIndex(IndexedMesh<double> mesh) : mesh_(std::move(mesh)) {
  for (const Vec3<double>& v : mesh_.vertices)
    if (!is_finite(v)) throw std::invalid_argument("TriangleIndex: a vertex coordinate is not finite");
  const std::size_t n = mesh_.triangle_count();
  if (n > std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("TriangleIndex: more than 2^32 - 1 triangles");
  boxes_.reserve(n);
  std::vector<std::array<double, 3>> centroid(n);
  for (std::size_t i = 0; i < n; ++i) {
    exact::Box b = empty_box();
    for (std::uint32_t vi : mesh_.triangles[i]) {
      if (vi >= mesh_.vertices.size())
        throw std::invalid_argument("TriangleIndex: triangle " + std::to_string(i) + " refers to vertex " +
                                    std::to_string(vi) + " of " + std::to_string(mesh_.vertices.size()));
      const Vec3<double>& v = mesh_.vertices[vi];
      const double c[3] = {v.x, v.y, v.z};
      for (int j = 0; j < 3; ++j) {
        b.lo[j] = std::min(b.lo[j], c[j]);
        b.hi[j] = std::max(b.hi[j], c[j]);
      }
    }
    boxes_.push_back(b);
    // Box centre, halved first so that huge coordinates cannot overflow.
    for (int j = 0; j < 3; ++j) centroid[i][j] = b.lo[j] * 0.5 + b.hi[j] * 0.5;
  }
  order_.resize(n);
  for (std::size_t i = 0; i < n; ++i) order_[i] = static_cast<std::uint32_t>(i);
  if (n == 0) return;

  nodes_.reserve(2 * n);
  nodes_.push_back({});
  struct Work {
    std::uint32_t node, begin, end, level;
  };
  std::vector<Work> work{{0, 0, static_cast<std::uint32_t>(n), 1}};
  while (!work.empty()) {
    const Work w = work.back();
    work.pop_back();
    depth_ = std::max<std::size_t>(depth_, w.level);
    exact::Box box = empty_box(), cbox = empty_box();
    for (std::uint32_t k = w.begin; k < w.end; ++k) {
      grow(box, boxes_[order_[k]]);
      const auto& c = centroid[order_[k]];
      grow(cbox, exact::Box{{c[0], c[1], c[2]}, {c[0], c[1], c[2]}});
    }
    nodes_[w.node].box = box;
    const std::uint32_t count = w.end - w.begin;
    if (count <= max_leaf_size) {
      nodes_[w.node].first = w.begin;
      nodes_[w.node].count = count;
      continue;
    }

    // Binned SAH: for each axis, bin the centroids and evaluate the 15 planes between bins.
    int best_axis = -1, best_plane = -1;
    double best_cost = std::numeric_limits<double>::infinity();
    auto bin_of = [&](const std::array<double, 3>& c, int axis) {
      const double extent = cbox.hi[axis] - cbox.lo[axis];
      const int b = static_cast<int>((c[axis] - cbox.lo[axis]) / extent * bin_count);
      return std::clamp(b, 0, bin_count - 1);
    };
    for (int axis = 0; axis < 3; ++axis) {
      if (!(cbox.hi[axis] > cbox.lo[axis])) continue;
      exact::Box bin_box[bin_count];
      std::uint32_t bin_n[bin_count] = {};
      for (auto& b : bin_box) b = empty_box();
      for (std::uint32_t k = w.begin; k < w.end; ++k) {
        const int b = bin_of(centroid[order_[k]], axis);
        ++bin_n[b];
        grow(bin_box[b], boxes_[order_[k]]);
      }
      // right_cost[p]: area x count of bins p+1 .. end.
      double right_cost[bin_count] = {};
      exact::Box acc = empty_box();
      std::uint32_t acc_n = 0;
      for (int b = bin_count - 1; b > 0; --b) {
        grow(acc, bin_box[b]);
        acc_n += bin_n[b];
        right_cost[b - 1] = half_area(acc) * acc_n;
      }
      acc = empty_box();
      acc_n = 0;
      for (int p = 0; p < bin_count - 1; ++p) {
        grow(acc, bin_box[p]);
        acc_n += bin_n[p];
        if (acc_n == 0 || acc_n == count) continue;
        const double cost = half_area(acc) * acc_n + right_cost[p];
        if (cost < best_cost) {
          best_cost = cost;
          best_axis = axis;
          best_plane = p;
        }
      }
    }

    std::uint32_t mid;
    if (best_axis >= 0) {
      auto* first = order_.data() + w.begin;
      auto* last = order_.data() + w.end;
      mid = static_cast<std::uint32_t>(
          std::stable_partition(first, last, [&](std::uint32_t t) { return bin_of(centroid[t], best_axis) <= best_plane; }) -
          order_.data());
    } else {
      // Every centroid coincides: halve the range (keeps index order, so deterministic).
      mid = w.begin + count / 2;
    }
    const auto left = static_cast<std::uint32_t>(nodes_.size());
    nodes_.push_back({});
    nodes_.push_back({});
    nodes_[w.node].first = left;
    nodes_[w.node].count = 0;
    work.push_back({left + 1, mid, w.end, w.level + 1});
    work.push_back({left, w.begin, mid, w.level + 1});
  }
}

void TriangleIndex::candidates(const exact::Box& box, std::vector<std::size_t>& out) const {
  out.clear();
  if (nodes_.empty()) return;
  // Depth first with an explicit stack, which holds at most one node per level: on the
  // machine stack for any sensible tree, on the heap for a pathological one.
  constexpr std::size_t local_size = 128;
  std::uint32_t local[local_size];
  std::vector<std::uint32_t> heap;
  std::uint32_t* stack = local;
  if (depth_ + 1 > local_size) {
    heap.resize(depth_ + 1);
    stack = heap.data();
  }
  std::size_t top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    if (!node.box.overlaps(box)) continue;
    if (node.is_leaf()) {
      for (std::uint32_t k = node.first; k < node.first + node.count; ++k)
        if (boxes_[order_[k]].overlaps(box)) out.push_back(order_[k]);
    } else {
      stack[top++] = node.first + 1;
      stack[top++] = node.first;
    }
  }
  std::sort(out.begin(), out.end());
}

std::vector<std::size_t> TriangleIndex::candidates(const exact::Box& box) const {
  std::vector<std::size_t> out;
  candidates(box, out);
  return out;
}

CulledMesh TriangleIndex::culled_mesh(const exact::Box& box) const {
  std::vector<std::size_t> chosen;
  candidates(box, chosen);
  return sub_mesh(std::move(chosen));
}

CulledMesh TriangleIndex::sub_mesh(std::vector<std::size_t> original_index) const {
  CulledMesh c;
  c.original_index = std::move(original_index);
  // Compact the vertices, numbered in order of first use: (old id, first use) sorted by old id.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> use;
  use.reserve(3 * c.original_index.size());
  for (std::size_t k = 0; k < c.original_index.size(); ++k)
    for (int j = 0; j < 3; ++j)
      use.emplace_back(mesh_.triangles[c.original_index[k]][j], static_cast<std::uint32_t>(3 * k + j));
  std::sort(use.begin(), use.end());
  use.erase(std::unique(use.begin(), use.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
            use.end());
  // `use` now holds each old id once with its first use; number them by that first use.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> by_first(use.size());
  for (std::size_t i = 0; i < use.size(); ++i) by_first[i] = {use[i].second, static_cast<std::uint32_t>(i)};
  std::sort(by_first.begin(), by_first.end());
  std::vector<std::uint32_t> new_id(use.size());
  c.sub.vertices.reserve(use.size());
  for (std::size_t k = 0; k < by_first.size(); ++k) {
    new_id[by_first[k].second] = static_cast<std::uint32_t>(k);
    c.sub.vertices.push_back(mesh_.vertices[use[by_first[k].second].first]);
  }
  c.sub.triangles.reserve(c.original_index.size());
  for (std::size_t t : c.original_index) {
    std::array<std::uint32_t, 3> tri{};
    for (int j = 0; j < 3; ++j) {
      const std::uint32_t old = mesh_.triangles[t][j];
      const auto it = std::lower_bound(use.begin(), use.end(), std::pair<std::uint32_t, std::uint32_t>(old, 0));
      tri[j] = new_id[static_cast<std::size_t>(it - use.begin())];
    }
    c.sub.triangles.push_back(tri);
  }
  return c;
}

}  // namespace slidecheck::verify
