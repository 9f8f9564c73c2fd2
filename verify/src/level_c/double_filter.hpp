#pragma once
// The first stage of Certified (certified.hpp): DAG nodes are built with an enclosure in
// doubles, outward rounded, so that most decisions are settled by these bounds alone.
#include <slidecheck/verify/level_c/certified.hpp>

#include <memory>

namespace slidecheck::certified::detail {

/// A lower and an upper bound of the exact sum or difference whose rounding to nearest is x;
/// a sum that rounds to 0 is exact (gradual underflow), so 0 stays 0.
double down_sum(double x);
double up_sum(double x);

/// The enclosure is the single point 0.
bool is_point_zero(const Node& n);

/// Small integer constants are shared per thread (T(0), T(1), T(2) are made constantly).
constexpr int kFirstShared = -4, kLastShared = 4;

/// A leaf holding the double v exactly.
std::shared_ptr<Node> make_leaf(double v);
/// The calling thread's shared leaf of v, kFirstShared <= v <= kLastShared.
const std::shared_ptr<Node>& shared_int(int v);
/// The node op(a, b) (b empty for unary operations) with its double enclosure.
std::shared_ptr<Node> make_op(Op op, std::shared_ptr<Node> a, std::shared_ptr<Node> b = nullptr);

}  // namespace slidecheck::certified::detail
