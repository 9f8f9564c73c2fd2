#pragma once
// The Tolerances structs of slidecheck's own algorithms: level B and level C's margins
// recompute some of their threshold tests, which they recognise by the Tolerances type.
#include <slidecheck/reference/response/fauerby.hpp>
#include <slidecheck/reference/response/linahan.hpp>
#include <slidecheck/reference/response/monter.hpp>
#include <slidecheck/reference/response/pseudo_distance.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>
