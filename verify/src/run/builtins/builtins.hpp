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

// Each one's own level B steps and level C stop margins (<name>_checks.cpp).
AlgorithmChecks fauerby_checks();
AlgorithmChecks linahan_checks();
AlgorithmChecks monter_checks();
AlgorithmChecks pseudo_distance_checks();
AlgorithmChecks robust_checks();

}  // namespace slidecheck::verify
