#pragma once
/// A box of the mesh a loop reads outside its sweeps, offered to its tracer.
///
/// robust's sweeps and start check skip every triangle whose box misses the step's box, and the
/// tracer sees those boxes in the events it is handed (CollisionQuery). A search that reads the
/// mesh otherwise (the cells a start inside a capsule's prism is pushed out near,
/// inside_start.hpp) offers its box with offer_read_box. A tracer with a member
/// `read_box(const exact::Box&)` receives it: fast/'s region argument (fast/robust_boxes.hpp)
/// needs every box a pass reads to lie in its sub-mesh's region. For every other tracer the call
/// compiles to nothing.

#include <slidecheck/reference/detection/boxes.hpp>

namespace slidecheck::trace {

template <class Tracer>
void offer_read_box(Tracer&& tracer, const ::slidecheck::exact::Box& box) {
  if constexpr (requires { tracer.read_box(box); }) tracer.read_box(box);
}

}  // namespace slidecheck::trace
