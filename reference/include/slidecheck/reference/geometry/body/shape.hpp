#pragma once
/// The swept body's shape: the one list of shapes slidecheck knows. Queries, records, paths
/// and exec requests carry a Shape; each algorithm says which shapes it runs
/// (verify/run/registry.hpp), and what a shape must provide is written in
/// docs/architecture.md ("Adding a shape").
///
/// Each alternative S provides: `S::name` (files, help, messages), `S::field` (its field in
/// queries and sweeps, formats/src/shape_fields.hpp), `length_count` and `length(i)` (the
/// sizes that scaling scales and rounding rounds, and search varies), `must_be_positive(i)`
/// (whether length i must be positive: radii must, a capsule's axis need not), `extent()` (half-widths of its axis-aligned
/// box around the centre: culling boxes, BVH queries), `converted<To>(c)` and, when the
/// algorithms of Fauerby's family can run it, `espace_radii()` (the eSpace map that makes it
/// the unit sphere).

#include <slidecheck/reference/geometry/body/capsule.hpp>
#include <slidecheck/reference/geometry/body/ellipsoid.hpp>
#include <slidecheck/reference/geometry/body/sphere.hpp>

#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

namespace slidecheck {

/// Every shape, in the order files list them.
template <Number T>
using Shape = std::variant<Sphere<T>, Ellipsoid<T>, Capsule<T>>;

/// A shape that Fauerby's eSpace maps to the unit sphere.
template <class S>
concept EspaceShape = requires(const S& s) { s.espace_radii(); };

template <Number T>
std::string_view shape_name(const Shape<T>& s) {
  return std::visit([](const auto& b) { return b.name; }, s);
}

/// Calls f(std::type_identity<S<T>>{}) for every shape S, in the list's order.
template <Number T, class F>
void for_each_shape_type(F&& f) {
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (f(std::type_identity<std::variant_alternative_t<I, Shape<T>>>{}), ...);
  }(std::make_index_sequence<std::variant_size_v<Shape<T>>>{});
}

/// The names of every shape, in the list's order.
inline std::vector<std::string_view> shape_names() {
  std::vector<std::string_view> names;
  for_each_shape_type<double>([&](auto tag) { names.push_back(decltype(tag)::type::name); });
  return names;
}

/// The names of the shapes Fauerby's eSpace maps to the unit sphere (EspaceShape): those an
/// algorithm working on SlideInput's radii runs.
inline std::vector<std::string_view> espace_shape_names() {
  std::vector<std::string_view> names;
  for_each_shape_type<double>([&](auto tag) {
    using S = typename decltype(tag)::type;
    if constexpr (EspaceShape<S>) names.push_back(S::name);
  });
  return names;
}

template <Number T>
Vec3<T> extent(const Shape<T>& s) {
  return std::visit([](const auto& b) { return b.extent(); }, s);
}

template <Number T>
bool has_espace(const Shape<T>& s) {
  return std::visit([](const auto& b) { return EspaceShape<std::decay_t<decltype(b)>>; }, s);
}

/// The eSpace semi-axes of a shape that has them (has_espace); std::invalid_argument
/// naming the shape otherwise.
template <Number T>
EllipsoidRadii<T> espace_radii(const Shape<T>& s) {
  return std::visit(
      [](const auto& b) -> EllipsoidRadii<T> {
        if constexpr (EspaceShape<std::decay_t<decltype(b)>>) return b.espace_radii();
        else throw std::invalid_argument("a " + std::string(b.name) + " has no eSpace radii");
      },
      s);
}

template <Number T>
std::size_t length_count(const Shape<T>& s) {
  return std::visit([](const auto& b) { return b.length_count; }, s);
}

/// Length i (from 0, below length_count) of the shape.
template <Number T>
T length(const Shape<T>& s, std::size_t i) {
  return std::visit([&](const auto& b) { return b.length(i); }, s);
}

template <Number T>
void set_length(Shape<T>& s, std::size_t i, T value) {
  std::visit([&](auto& b) { b.length(i) = std::move(value); }, s);
}

/// The shape with each length l replaced by f(l): scaled, rounded to a precision.
template <Number T, class F>
Shape<T> map_lengths(Shape<T> s, F&& f) {
  for (std::size_t i = 0; i < length_count(s); ++i) set_length(s, i, f(length(s, i)));
  return s;
}

/// Whether every length is finite, positive where the shape needs it (must_be_positive), and
/// the body is not degenerate where it can be (a body's `degenerate()`, e.g. a capsule without
/// an axis): a rounding may make a radius or a tiny axis 0, or a length infinite.
template <Number T>
bool lengths_positive(const Shape<T>& s) {
  return std::visit(
      [](const auto& b) {
        for (std::size_t i = 0; i < b.length_count; ++i) {
          const T& l = b.length(i);
          if (!num::is_finite(l) || (b.must_be_positive(i) && !(num::sign(l) > 0))) return false;
        }
        if constexpr (requires { b.degenerate(); }) return !b.degenerate();
        return true;
      },
      s);
}

/// The shape in number type To, each number converted by `c`.
template <Number To, Number From, class Convert>
Shape<To> convert_shape(const Shape<From>& s, Convert&& c) {
  return std::visit([&](const auto& b) -> Shape<To> { return b.template converted<To>(c); }, s);
}

}  // namespace slidecheck
