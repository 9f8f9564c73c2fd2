// The identity stage's cut (identity_cut.hpp).
#include "level_c/identity_cut.hpp"

#include <boost/graph/adjacency_list.hpp>
#include <boost/graph/edmonds_karp_max_flow.hpp>

#include <algorithm>
#include <deque>
#include <vector>

namespace slidecheck::certified::detail {

int NestingDepth::of(const Node* n) {
  if (auto it = depth_.find(n); it != depth_.end()) return it->second;
  int d = 0;
  if (n->a) d = of(n->a.get());
  if (n->b) d = std::max(d, of(n->b.get()));
  if (n->op == Op::sqrt) d += 1;
  return depth_[n] = d;
}

namespace {

using Traits = boost::adjacency_list_traits<boost::vecS, boost::vecS, boost::directedS>;
using Graph = boost::adjacency_list<
    boost::vecS, boost::vecS, boost::directedS, boost::no_property,
    boost::property<boost::edge_capacity_t, long,
                    boost::property<boost::edge_residual_capacity_t, long,
                                    boost::property<boost::edge_reverse_t, Traits::edge_descriptor>>>>;

constexpr long kUncuttable = 1L << 40;

class FlowNetwork {
 public:
  explicit FlowNetwork(std::size_t vertices) : g_(vertices) {}
  void edge(std::size_t from, std::size_t to, long capacity) {
    const auto e = boost::add_edge(from, to, g_).first;
    const auto r = boost::add_edge(to, from, g_).first;
    boost::put(boost::edge_capacity, g_, e, capacity);
    boost::put(boost::edge_capacity, g_, r, 0);
    boost::put(boost::edge_reverse, g_, e, r);
    boost::put(boost::edge_reverse, g_, r, e);
  }
  /// The vertices the source reaches in the residual network after a maximum flow.
  std::vector<bool> source_side(std::size_t source, std::size_t sink) {
    boost::edmonds_karp_max_flow(g_, source, sink);
    std::vector<bool> reached(boost::num_vertices(g_), false);
    std::deque<std::size_t> queue{source};
    reached[source] = true;
    while (!queue.empty()) {
      const std::size_t v = queue.front();
      queue.pop_front();
      for (auto [e, end] = boost::out_edges(v, g_); e != end; ++e) {
        const std::size_t w = boost::target(*e, g_);
        if (!reached[w] && boost::get(boost::edge_residual_capacity, g_, *e) > 0) {
          reached[w] = true;
          queue.push_back(w);
        }
      }
    }
    return reached;
  }

 private:
  Graph g_;
};

bool is_atom(const Node& n) { return n.op == Op::div || n.op == Op::sqrt || n.op == Op::abs; }

}  // namespace

std::unordered_set<const Node*> opaque_cut(const Node& root, std::uint64_t serial, NestingDepth& depth) {
  // The nodes of depth >= 2, numbered; each is split into in (2i) and out (2i + 1).
  std::unordered_map<const Node*, std::size_t> index;
  std::vector<const Node*> nodes;
  std::vector<const Node*> stack{&root};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (depth.of(n) < 2 || index.count(n)) continue;
    index.emplace(n, nodes.size());
    nodes.push_back(n);
    if (n->a) stack.push_back(n->a.get());
    if (n->b) stack.push_back(n->b.get());
  }
  const std::size_t source = 2 * nodes.size(), sink = source + 1;
  FlowNetwork net(sink + 1);
  bool any_atom = false;
  for (std::size_t i = 0; i < nodes.size(); ++i) {
    const Node& n = *nodes[i];
    const bool old = n.serial < serial && &n != &root;
    net.edge(2 * i, 2 * i + 1, old ? 1 : kUncuttable);
    for (const Node* child : {n.a.get(), n.b.get()})
      if (child)
        if (auto it = index.find(child); it != index.end()) net.edge(2 * i + 1, 2 * it->second, kUncuttable);
    if (old && is_atom(n)) {
      net.edge(2 * i + 1, sink, kUncuttable);
      any_atom = true;
    }
  }
  std::unordered_set<const Node*> cut;
  if (!any_atom) return cut;
  net.edge(source, 2 * index.at(&root), kUncuttable);
  const std::vector<bool> reached = net.source_side(source, sink);
  for (std::size_t i = 0; i < nodes.size(); ++i)
    if (reached[2 * i] && !reached[2 * i + 1]) cut.insert(nodes[i]);
  return cut;
}

}  // namespace slidecheck::certified::detail
