// Text form of trace events (traced_run.hpp): one line per event, numbers in hexfloat.
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/verify/level_b/traced_run.hpp>

#include <string>
#include <type_traits>

namespace slidecheck::verify {
namespace {

/// Appends ` key=value` pairs; numbers via exact_text (lossless %a; nan/inf as words).
template <IeeeBinary F>
struct Line {
  std::string s;
  void num(std::string_view key, F x) { field(key, exact_text(x)); }
  void vec(std::string_view key, const Vec3<F>& v) {
    std::string text = "(";
    text += exact_text(v.x);
    text += ',';
    text += exact_text(v.y);
    text += ',';
    text += exact_text(v.z);
    text += ')';
    field(key, text);
  }
  void integer(std::string_view key, long long i) { field(key, std::to_string(i)); }
  void flag(std::string_view key, bool b) { field(key, b ? "true" : "false"); }
  void field(std::string_view key, std::string_view value) {
    s += ' ';
    s += key;
    s += '=';
    s += value;
  }
};

}  // namespace

template <IeeeBinary F>
std::string_view event_name(const TraceEvent<F>& e) {
  return std::visit([](const auto& ev) -> std::string_view { return std::remove_cvref_t<decltype(ev)>::name; }, e);
}

template <IeeeBinary F>
std::string format_event(const TraceEvent<F>& e) {
  namespace fa = trace::fauerby;
  namespace rs = trace::response;
  Line<F> l;
  l.s = std::string(event_name<F>(e));
  std::visit(
      [&l](const auto& ev) {
        using E = std::remove_cvref_t<decltype(ev)>;
        if constexpr (requires { ev.pass; }) {
          l.integer("pass", ev.pass);
          l.integer("iteration", ev.iteration);
        }
        if constexpr (std::is_same_v<E, fa::PlaneInterval<F>>) {
          l.integer("triangle", static_cast<long long>(ev.triangle));
          l.vec("normal", ev.normal);
          l.num("plane_constant", ev.plane_constant);
          l.num("signed_distance", ev.signed_distance);
          l.num("normal_dot_velocity", ev.normal_dot_velocity);
          l.num("t0", ev.t0);
          l.num("t1", ev.t1);
          l.field("decision", trace::fauerby::to_string(ev.decision));
        } else if constexpr (std::is_same_v<E, fa::InsideTest<F>>) {
          l.integer("triangle", static_cast<long long>(ev.triangle));
          l.vec("point", ev.point);
          l.num("x", ev.x);
          l.num("y", ev.y);
          l.num("z", ev.z);
          l.flag("inside", ev.inside);
        } else if constexpr (std::is_same_v<E, fa::VertexRoot<F>> || std::is_same_v<E, fa::EdgeRoot<F>>) {
          l.integer("triangle", static_cast<long long>(ev.triangle));
          if constexpr (std::is_same_v<E, fa::VertexRoot<F>>)
            l.integer("vertex", ev.vertex);
          else
            l.integer("edge", ev.edge);
          l.num("a", ev.a);
          l.num("b", ev.b);
          l.num("c", ev.c);
          l.num("max_root", ev.max_root);
          l.flag("found", ev.found);
          l.num("root", ev.root);
          if constexpr (std::is_same_v<E, fa::EdgeRoot<F>>) {
            l.num("f", ev.f);
            l.flag("within_segment", ev.within_segment);
          }
        } else if constexpr (std::is_same_v<E, fa::NearestHit<F>>) {
          l.integer("triangle", static_cast<long long>(ev.triangle));
          l.num("time", ev.time);
          l.num("distance", ev.distance);
          l.field("feature", to_string(ev.feature));
          l.integer("feature_index", ev.feature_index);
          l.flag("replaced", ev.replaced);
        } else if constexpr (std::is_same_v<E, rs::CollisionQuery<F>>) {
          l.vec("base_point", ev.base_point);
          l.vec("velocity", ev.velocity);
          l.flag("hit", ev.hit);
          l.integer("triangle", static_cast<long long>(ev.triangle));
          l.num("time", ev.time);
          l.num("distance", ev.distance);
        } else if constexpr (std::is_same_v<E, rs::NearPoint<F>>) {
          l.num("distance", ev.distance);
          l.num("short_distance", ev.short_distance);
          l.vec("near_point", ev.near_point);
          l.flag("moved", ev.moved);
        } else if constexpr (std::is_same_v<E, rs::TouchPoint<F>>) {
          l.vec("intersection_point", ev.intersection_point);
          l.vec("touch_point", ev.touch_point);
          l.vec("contact_point", ev.contact_point);
        } else if constexpr (std::is_same_v<E, rs::SlidingPlane<F>>) {
          l.vec("origin", ev.origin);
          l.vec("normal", ev.normal);
          l.flag("undefined", ev.undefined);
        } else if constexpr (std::is_same_v<E, rs::ProjectedDestination<F>>) {
          l.vec("destination", ev.destination);
          l.num("signed_distance", ev.signed_distance);
          l.vec("new_destination", ev.new_destination);
          l.vec("new_velocity", ev.new_velocity);
        } else if constexpr (std::is_same_v<E, rs::Crease<F>>) {
          l.vec("first_normal", ev.first_normal);
          l.vec("second_normal", ev.second_normal);
          l.vec("crease", ev.crease);
          l.num("signed_distance", ev.signed_distance);
          l.vec("new_velocity", ev.new_velocity);
          l.vec("new_destination", ev.new_destination);
          l.flag("undefined", ev.undefined);
        } else if constexpr (std::is_same_v<E, rs::Bias<F>>) {
          l.vec("pushed_position", ev.pushed_position);
          l.num("reflection", ev.reflection);
          l.vec("new_velocity", ev.new_velocity);
        } else if constexpr (std::is_same_v<E, rs::StartCheck<F>>) {
          l.vec("position", ev.position);
          l.num("pseudo_distance", ev.pseudo_distance);
          l.integer("triangle", static_cast<long long>(ev.triangle));
          l.flag("in_collision", ev.in_collision);
        } else if constexpr (std::is_same_v<E, rs::RootSearch<F>>) {
          l.integer("triangle", static_cast<long long>(ev.triangle));
          l.num("t_low", ev.t_low);
          l.num("t_high", ev.t_high);
          l.integer("steps", ev.steps);
        } else if constexpr (std::is_same_v<E, rs::Stop<F>>) {
          l.field("reason", to_string(ev.reason));
          l.vec("position", ev.position);
        } else {
          static_assert(sizeof(E) == 0, "format_event: an event type is not printed");
        }
      },
      e);
  return l.s;
}

template <IeeeBinary F>
StepShape step_shape(const TraceEvent<F>& e) {
  // float and double widen to double exactly.
  auto widen = [](const Vec3<F>& v) { return Vec3<double>{double(v.x), double(v.y), double(v.z)}; };
  StepShape out;
  std::visit(
      [&](const auto& ev) {
        namespace rs = trace::response;
        using E = std::remove_cvref_t<decltype(ev)>;
        if constexpr (requires { ev.triangle; }) out.triangle = ev.triangle;
        if constexpr (std::is_same_v<E, rs::CollisionQuery<F>>) {
          out.sphere = widen(ev.base_point);
          out.move = widen(ev.velocity);
          if (!ev.hit) out.triangle.reset();
        } else if constexpr (std::is_same_v<E, rs::NearPoint<F>>) {
          out.sphere = widen(ev.near_point);
        } else if constexpr (std::is_same_v<E, rs::TouchPoint<F>>) {
          out.sphere = widen(ev.touch_point);
          out.point = widen(ev.intersection_point);
        } else if constexpr (std::is_same_v<E, rs::SlidingPlane<F>>) {
          out.plane_origin = widen(ev.origin);
          out.plane_normal = widen(ev.normal);
        } else if constexpr (std::is_same_v<E, rs::ProjectedDestination<F>>) {
          out.point = widen(ev.new_destination);
          out.move = widen(ev.new_velocity);
        } else if constexpr (std::is_same_v<E, rs::Crease<F>>) {
          out.crease = widen(ev.crease);
          out.point = widen(ev.new_destination);
          out.move = widen(ev.new_velocity);
        } else if constexpr (std::is_same_v<E, rs::Bias<F>>) {
          out.sphere = widen(ev.pushed_position);
          out.move = widen(ev.new_velocity);
        } else if constexpr (std::is_same_v<E, rs::StartCheck<F>> || std::is_same_v<E, rs::Stop<F>>) {
          out.sphere = widen(ev.position);
        } else if constexpr (std::is_same_v<E, trace::fauerby::InsideTest<F>>) {
          out.point = widen(ev.point);
        }
      },
      e);
  return out;
}

template StepShape step_shape<float>(const TraceEvent<float>&);
template StepShape step_shape<double>(const TraceEvent<double>&);
template std::string_view event_name<float>(const TraceEvent<float>&);
template std::string_view event_name<double>(const TraceEvent<double>&);
template std::string format_event<float>(const TraceEvent<float>&);
template std::string format_event<double>(const TraceEvent<double>&);

}  // namespace slidecheck::verify
