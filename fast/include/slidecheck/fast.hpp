#pragma once
/// slidecheck::fast in one include: every public header of fast/ (the BVH, its build and
/// traversal, the float/double sweeps, robust's sweep and collide-and-slide on a World, the
/// batch API). tests/fast/test_aabb.cpp includes it, so it stays compilable.

#include <slidecheck/fast/aabb.hpp>
#include <slidecheck/fast/batch.hpp>
#include <slidecheck/fast/bvh.hpp>
#include <slidecheck/fast/bvh_build.hpp>
#include <slidecheck/fast/bvh_collapse.hpp>
#include <slidecheck/fast/bvh_traversal.hpp>
#include <slidecheck/fast/candidate_slack.hpp>
#include <slidecheck/fast/collide_and_slide.hpp>
#include <slidecheck/fast/local_frame_box.hpp>
#include <slidecheck/fast/robust_boxes.hpp>
#include <slidecheck/fast/robust_capsule.hpp>
#include <slidecheck/fast/sah_build.hpp>
#include <slidecheck/fast/sweep.hpp>
#include <slidecheck/fast/sweep_robust.hpp>
#include <slidecheck/fast/world.hpp>
