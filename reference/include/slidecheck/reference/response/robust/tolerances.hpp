#pragma once
/// The tolerances of `robust`, named in case files and by `--tolerance`: the only plain numbers
/// it compares against. Every other length (the contact radius, the stop length, the solver's
/// slack, the independence threshold, the write-back bound) is derived from the skin
/// (skin.hpp); docs/robust.md gives how each default was chosen.

namespace slidecheck::robust {

struct Tolerances {
  /// K of the skin's own term K u M max(1, L) (skin.hpp): how many unit roundoffs of the pass's
  /// coordinate magnitude the sphere keeps from what it touches. Set by robust's stress runs
  /// over scales and offsets, where failures fall to none at 64 in float and double alike.
  double skin_factor = 64;
  /// Q of the skin's output term Q u_out M_out (skin.hpp): a position written back to world
  /// coordinates in T is a rounding below or above it per component (write_back.hpp), so at
  /// most one ulp of T per component: 2 u_out |p_i|, 2 sqrt(3) u_out M_out in eSpace,
  /// sqrt(3) u_out M_out rounded to nearest. The sphere stops at clearance h >= Q u_out M_out
  /// (Skin) and write_back takes 7h/8 >= 1.75 u_out M_out as its bound: Q = 2 covers the
  /// rounding to nearest of every point within M_out; a rounding it does not cover is certified
  /// or refused (another candidate, or the point is held). eps-sweep --level-c finds level C
  /// holding from Q = 2 up.
  double output_rounding_factor = 2;
  /// Q2 of an optional quadratic term Q2 u M_e^2, 0 by default. Measured as |p - a|^2 -
  /// (e . (p - a))^2 / |e|^2, an edge's distance cancels and errs by about u M^2 / 2; the exact
  /// formulation takes |e x (p - a)|^2 / |e|^2 (detection/swept_sphere_triangle.hpp), whose
  /// error u M d the linear term covers, and a quadratic term puts spheres hundreds of radii off
  /// the edges of huge triangles. Kept so that eps-sweep can try it and recorded cases replay.
  double quadratic_skin_factor = 0;
  /// The least skin, in eSpace units (radii). 0: the exact types run without a skin.
  double min_skin = 0;
  /// A pass drops the output term when it exceeds this fraction of the pass's move (eSpace):
  /// it stops at its own round-off, and each written-back rounding is certified by a sweep or,
  /// touching allowed, exactly (certified_write_back.hpp). Why: where a whole move is a few ulps
  /// of T (float at offset/scale >= 10^5) the term is an ulp or more, and the sphere it kept from
  /// what it touched lost motion beyond float's grid (level C). Elsewhere the term costs under
  /// this fraction of the move, and covering a rounding needs no sweep, which a certified
  /// rounding costs. 0: never dropped.
  double certify_fraction = 0x1p-10;
  /// Sweeps per pass before it stops with `recursion_cap` (a safety net: a pass needs one sweep
  /// per new contact, and at most three contacts bind).
  int max_iterations = 16;
};

}  // namespace slidecheck::robust
