// The symbolic identities of Certified (symbolic_identities.hpp).
#include "level_c/symbolic_identities.hpp"

#include "level_c/double_filter.hpp"

namespace slidecheck::certified::detail {
namespace {

/// x * x of the same node, or nullptr.
const Node* square_of(const Node& n) {
  return n.op == Op::mul && n.a == n.b ? n.a.get() : nullptr;
}

/// For P = (a / L) * s (or a / L, s = nullptr): sets a, L and s. False for other shapes.
bool unit_component(const Node& p, const Node*& a, const Node*& length, const Node*& scale) {
  const Node* q = &p;
  scale = nullptr;
  if (q->op == Op::mul && q->a->op == Op::div) {
    scale = q->b.get();
    q = q->a.get();
  }
  if (q->op != Op::div || q->b->op != Op::sqrt || !(q->b->lo > 0)) return false;
  a = q->a.get();
  length = q->b.get();
  return true;
}

}  // namespace

std::shared_ptr<Node> unit_norm_squared(const std::shared_ptr<Node>& x, const std::shared_ptr<Node>& y) {
  if (x->op != Op::add) return nullptr;
  const Node* sq[3] = {square_of(*x->a), square_of(*x->b), square_of(*y)};
  const Node *comp[3], *length = nullptr, *scale = nullptr;
  for (int i = 0; i < 3; ++i) {
    const Node *l, *s;
    if (!sq[i] || !unit_component(*sq[i], comp[i], l, s)) return nullptr;
    if (i == 0) {
      length = l;
      scale = s;
    } else if (l != length || s != scale) {
      return nullptr;
    }
  }
  const Node& sum = *length->a;  // L = sqrt(sum)
  if (sum.op != Op::add || sum.a->op != Op::add) return nullptr;
  const Node* terms[3] = {square_of(*sum.a->a), square_of(*sum.a->b), square_of(*sum.b)};
  for (int i = 0; i < 3; ++i)
    if (terms[i] != comp[i]) return nullptr;
  if (!scale) return shared_int(1);
  // The scale's shared_ptr: the mul node that holds it.
  const std::shared_ptr<Node>& s = sq[0]->b;
  return make_op(Op::mul, s, s);
}

/// sqrt(s * s) is |s|.
std::shared_ptr<Node> sqrt_of_square(const std::shared_ptr<Node>& x) {
  return square_of(*x) ? make_op(Op::abs, x->a) : nullptr;
}

bool symbolic_identities() { return Session::current().options().symbolic_identities; }

}  // namespace slidecheck::certified::detail
