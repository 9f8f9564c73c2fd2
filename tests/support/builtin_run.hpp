#pragma once
// Runs one of slidecheck's own algorithms in any number type (Real, Mpfr, ...), chosen by the
// type of its Tolerances: the tests' reference runs beside the registry's, which offers only
// the verifier's number types (verify/run/algorithms.hpp, run_slide).
#include <slidecheck/reference/response/fauerby.hpp>
#include <slidecheck/reference/response/linahan.hpp>
#include <slidecheck/reference/response/monter.hpp>
#include <slidecheck/reference/response/pseudo_distance.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>
#include <slidecheck/verify/run/registry.hpp>

#include <stdexcept>

namespace slidecheck::test {

template <num::WithSqrt T>
SlideResult<T> run_builtin(const verify::AlgorithmTolerances& tol, const SlideInput<T>& in, const IndexedMesh<T>& mesh) {
  if (const auto* t = tol.get_if<fauerby::Tolerances>()) return fauerby::collide_and_slide(in, mesh, *t);
  if (const auto* t = tol.get_if<linahan::Tolerances>()) return linahan::collide_and_slide(in, mesh, *t);
  if (const auto* t = tol.get_if<monter::Tolerances>()) return monter::collide_and_slide(in, mesh, *t);
  if (const auto* t = tol.get_if<pseudo_distance::Tolerances>()) return pseudo_distance::collide_and_slide(in, mesh, *t);
  if (const auto* t = tol.get_if<robust::Tolerances>()) return robust::collide_and_slide(in, mesh, *t);
  throw std::invalid_argument("run_builtin: not one of slidecheck's own algorithms");
}

}  // namespace slidecheck::test
