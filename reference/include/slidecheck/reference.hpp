#pragma once
/// slidecheck::reference in one include: every public header of reference/ (number types,
/// geometry, detection, the five responses, traces). For a program that wants all of it;
/// a translation unit that needs less includes the headers it uses (numbers/real.hpp brings
/// CGAL's CORE, which is heavy to compile). tests/reference/test_instantiate.cpp includes it,
/// so it stays compilable.

#include <slidecheck/reference/config.hpp>
#include <slidecheck/reference/detection/closest_feature.hpp>
#include <slidecheck/reference/detection/detection_result.hpp>
#include <slidecheck/reference/detection/fauerby.hpp>
#include <slidecheck/reference/detection/linahan.hpp>
#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/detection/quadratic_root.hpp>
#include <slidecheck/reference/detection/shape_sweep.hpp>
#include <slidecheck/reference/detection/sweep_decisions.hpp>
#include <slidecheck/reference/detection/swept_capsule_triangle.hpp>
#include <slidecheck/reference/detection/swept_sphere_triangle.hpp>
#include <slidecheck/reference/detection/swept_sphere_triangle_filtered.hpp>
#include <slidecheck/reference/geometry/body/shape.hpp>
#include <slidecheck/reference/geometry/closest_point.hpp>
#include <slidecheck/reference/geometry/ellipsoid_space.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/reference/geometry/vec3.hpp>
#include <slidecheck/reference/numbers/integer.hpp>
#include <slidecheck/reference/numbers/interval.hpp>
#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/reference/numbers/number_traits.hpp>
#include <slidecheck/reference/numbers/real.hpp>
#include <slidecheck/reference/response/espace_slide.hpp>
#include <slidecheck/reference/response/fauerby.hpp>
#include <slidecheck/reference/response/linahan.hpp>
#include <slidecheck/reference/response/monter.hpp>
#include <slidecheck/reference/response/pseudo_distance.hpp>
#include <slidecheck/reference/response/robust/axis_locks.hpp>
#include <slidecheck/reference/response/robust/certified_write_back.hpp>
#include <slidecheck/reference/response/robust/constraints.hpp>
#include <slidecheck/reference/response/robust/detection.hpp>
#include <slidecheck/reference/response/robust/local_espace.hpp>
#include <slidecheck/reference/response/robust/local_frame.hpp>
#include <slidecheck/reference/response/robust/pass.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>
#include <slidecheck/reference/response/robust/skin.hpp>
#include <slidecheck/reference/response/robust/slab_filter.hpp>
#include <slidecheck/reference/response/robust/stored_type_tracer.hpp>
#include <slidecheck/reference/response/robust/sweep.hpp>
#include <slidecheck/reference/response/robust/tolerances.hpp>
#include <slidecheck/reference/response/robust/working_type.hpp>
#include <slidecheck/reference/response/robust/write_back.hpp>
#include <slidecheck/reference/response/slide_result.hpp>
#include <slidecheck/reference/trace/response_trace.hpp>
#include <slidecheck/reference/trace/trace.hpp>
