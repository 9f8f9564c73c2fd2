#pragma once
// slidecheck's own algorithms as registry entries, one source each (each instantiates its
// algorithm for every number type and tracer the verifier uses, which takes a while to compile).
#include <slidecheck/verify/run/registry.hpp>

namespace slidecheck::verify {

AlgorithmEntry builtin_fauerby();
AlgorithmEntry builtin_linahan();
AlgorithmEntry builtin_monter();
AlgorithmEntry builtin_pseudo_distance();
AlgorithmEntry builtin_robust();

}  // namespace slidecheck::verify
