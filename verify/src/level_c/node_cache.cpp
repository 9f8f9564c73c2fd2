// The per-node cache of Certified's DAG (node_cache.hpp), and the node's own lifetime, which
// owns it.
#include "level_c/node_cache.hpp"

namespace slidecheck::certified {

NodeCache::~NodeCache() {
  if (prec != 0) {
    mpfr_clear(lo);
    mpfr_clear(hi);
  }
}

NodeCache& cache_of(Node& n) {
  if (!n.cache) n.cache = std::make_unique<NodeCache>();
  return *n.cache;
}

Node::Node() = default;
Node::~Node() = default;

}  // namespace slidecheck::certified
