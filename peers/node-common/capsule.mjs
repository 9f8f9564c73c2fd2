// An engine's capsule for a query's: the engines' capsules lie along their local Y axis with a
// half height of the segment between the cap centres (Jolt's CapsuleShape(inHalfHeightOfCylinder,
// inRadius), Rapier's Capsule(halfHeight, radius): see each engine's README), while slidecheck's
// capsule is any segment centre ± half_axis. A half axis along x, y or z is mapped exactly: the
// half height is its one non-zero component's magnitude, and the rotation taking Y onto the axis
// permutes the axes, with quaternion components 0 and ±1/2 that every float rotation formula
// applies without rounding. Any other axis is refused: no float quaternion would hold it exactly.
import { RequestError } from './protocol.mjs';

/** The permutation rotations taking local Y to world x, y, z: quaternion, and world -> local. */
const AXES = [
  { rotation: { x: -0.5, y: -0.5, z: -0.5, w: 0.5 }, toLocal: (v) => [v[2], v[0], v[1]] }, // Y -> x (x -> z, z -> y)
  { rotation: { x: 0, y: 0, z: 0, w: 1 }, toLocal: (v) => [v[0], v[1], v[2]] },            // Y -> y
  { rotation: { x: 0.5, y: 0.5, z: 0.5, w: 0.5 }, toLocal: (v) => [v[1], v[2], v[0]] },    // Y -> z (x -> y, z -> x)
];

/**
 * The engine's Y capsule for `request.shape` (a capsule): { halfHeight, radius, halfAxis, rotation:
 * {x, y, z, w}, toLocal(v) } with toLocal the inverse rotation (world vector to the shape's local
 * frame). A half axis with more than one non-zero component is refused (RequestError naming the
 * query and the engine, `who`).
 */
export function yCapsule(request, who) {
  const { radius, halfAxis } = request.shape;
  const along = [0, 1, 2].filter((i) => halfAxis[i] !== 0);
  if (along.length !== 1)
    throw new RequestError(`query '${request.id}': ${who} runs capsules whose half_axis is along x, y or z only ` +
      `(a rotation onto another axis is not exact in float), got [${halfAxis.join(', ')}]`);
  const i = along[0];
  return { halfHeight: Math.abs(halfAxis[i]), radius, halfAxis, ...AXES[i] };
}
