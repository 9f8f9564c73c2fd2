// Havok client: the shared protocol/behaviour suite plus what is Havok's own (node --test peers/).
// SLIDECHECK_HAVOK_CLIENT runs an installed copy instead (e.g. the build directory's); when the
// build could not install Havok (its status file says why), these tests are skipped with that line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { conformanceSuite, engineInstalled, nodeClient, request, scenePath, vec } from '../../node-common/peer_conformance.mjs';
import { PeerProcess } from '../../node-common/peer_process.mjs';
import { readScene } from '../../node-common/scene.mjs';

const { clientPath, clientArgs, engineDir } = nodeClient('SLIDECHECK_HAVOK_CLIENT', fileURLToPath(new URL('..', import.meta.url)));

const statusFile = join(engineDir, 'status');
const status = existsSync(statusFile) ? readFileSync(statusFile, 'utf8').split('\n')[0] : 'ok';

/** Why a pass whose first cast meets a surface does not move (README, "What it runs"). */
const STOPS_AT_FIRST_CAST =
  'the controller does not move in a pass whose first cast meets a surface: its simplex solver takes every manifold contact as touching';

if (!status.startsWith('ok')) {
  test(`Havok engine tests (havok is missing: ${status})`, { skip: status }, () => {});
} else if (engineInstalled(engineDir, '@babylonjs/havok') && engineInstalled(engineDir, '@babylonjs/core')) {
  conformanceSuite({
    clientPath,
    clientArgs,
    engineName: 'Havok',
    gap: [0, 0.0505], // keep_distance, 0.05 by default, where it stops at all
    wallGap: [0.0495, Infinity], // a head-on move the first cast sees is not made at all
    requiredTolerances: ['keep_distance', 'keep_contact_tolerance', 'max_cast_iterations', 'penetration_recovery_speed',
      'max_slope_cosine', 'max_step_height', 'max_character_speed_for_solver'],
    capsules: true,
    expectedDifferences: { drop: STOPS_AT_FIRST_CAST, far: STOPS_AT_FIRST_CAST, capsule_drop: STOPS_AT_FIRST_CAST },
  });

  const q = (id, extra) => ({ id, start: [0, -1, 0.6], displacement: [0.3, 0, 0], radius: 0.5, ...extra });

  test('Havok: keep_distance sets the gap kept from a wall reached through its re-cast', async () => {
    const p = new PeerProcess(clientPath, clientArgs);
    try {
      // Frames of 0.3 towards the wall at x = 1: the third frame's re-cast finds it and stops keep_distance short.
      const a = await p.send(request('corner.scene', q('gap', { frames: 4 })));
      assert.ok(Math.abs(vec(a.positions[4])[0] - (1 - 0.5 - 0.05)) < 1e-6, `x = ${vec(a.positions[4])[0]}`);
      const b = await p.send(request('corner.scene', q('gap16', { frames: 4 }), { tolerances: { keep_distance: '0x1p-4' } }));
      assert.equal(vec(b.positions[4])[0], 1 - 0.5 - 0.0625);
      assert.ok(!('iterations' in b)); // the controller does not say how many casts it made
    } finally {
      await p.close();
    }
  });

  test('Havok: a pass whose first cast meets a surface ends where it started', async () => {
    const p = new PeerProcess(clientPath, clientArgs);
    try {
      const a = await p.send(request('floor.scene', { id: 'fall', start: [0.5, -1, 2], displacement: [0, 0, 0], gravity: [0, 0, -3], radius: 0.5 }));
      assert.deepEqual(vec(a.positions[2]), [0.5, -1, 2]);
      assert.equal(a.sweeps[1].hit, true); // the single sweep meets the floor half way
      assert.equal(vec([a.sweeps[1].time, '0x0p+0', '0x0p+0'])[0], 0.5);
      // The same fall in steps the first cast does not see comes down onto the floor (within keep_distance).
      const b = await p.send(request('floor.scene', { id: 'steps', start: [0.5, -1, 2], displacement: [0, 0, 0], gravity: [0, 0, -0.25], radius: 0.5, frames: 12 }));
      const z = vec(b.positions.at(-1))[2];
      assert.ok(z >= 0.5 && z <= 0.5 + 0.0505, `z = ${z}`);
    } finally {
      await p.close();
    }
  });

  test('Havok: a sphere resting on a floor moves through a wall ahead', async () => {
    const p = new PeerProcess(clientPath, clientArgs);
    try {
      // The first cast's one contact kept is the floor, touched at time 0; sliding along it leaves the
      // displacement as cast, so nothing is cast again and the wall at x = 1 is never seen.
      const a = await p.send(request('corner.scene', { id: 'through', start: [0, -1, 0.5], displacement: [3, 0, 0], radius: 0.5 }));
      assert.deepEqual(vec(a.positions[1]), [3, -1, 0.5]);
      assert.equal(a.sweeps[0].hit, true);
      assert.equal(a.sweeps[0].time, '0x0p+0');
    } finally {
      await p.close();
    }
  });

  test('Havok: capsuleShape is the segment -a..a with radius R along x, y or z, and refuses another axis', async () => {
    const peer = await import(pathToFileURL(join(engineDir, 'peer.mjs')).href);
    const engine = await peer.createEngine();
    const path = scenePath('floor.scene');
    const world = engine.buildScene(readScene(path), path);
    const capsuleQuery = (halfAxis) => ({ id: 'c', shape: { kind: 'capsule', radius: 0.25, halfAxis } });
    try {
      // A fall of 3 from z = 2 onto the floor z = 0: the capsule's lowest point is |a_z| + R below its centre.
      for (const [halfAxis, lowest] of [[[0, 0, 0.5], 0.75], [[0.5, 0, 0], 0.25], [[0, -0.375, 0], 0.25], [[0, 0, -1], 1.25]]) {
        const capsule = peer.capsuleShape(world.scene, capsuleQuery(halfAxis), [0, 0, 1]);
        assert.equal(capsule.footOffset, lowest);
        const s = peer.shapeSweep(world, capsule.shape, [0.25, -1, 2], [0, 0, -3]);
        capsule.shape.dispose();
        assert.equal(s.hit, true);
        assert.ok(Math.abs(s.time - (2 - lowest) / 3) < 1e-5, `axis ${halfAxis}: time ${s.time}`);
      }
      assert.throws(() => peer.capsuleShape(world.scene, capsuleQuery([0, 0.3, -0.4]), [0, 0, 1]),
        /query 'c': Havok runs capsules whose half_axis is along x, y or z only/);
    } finally {
      engine.freeScene(world);
    }
  });

  test('Havok: a capsule falling in steps comes to rest above the floor, within keep_distance + keep_contact_tolerance', async () => {
    const p = new PeerProcess(clientPath, clientArgs);
    try {
      // Steps of 0.1 from its lower cap 1.25 above the floor: the floor enters the manifold once it
      // is within 0.15 (keep_distance + keep_contact_tolerance), and the capsule stops there.
      const a = await p.send(request('floor.scene', { id: 'capsule-steps', start: [0.5, -1, 2], displacement: [0, 0, 0],
        gravity: [0, 0, -0.1], capsule: { radius: 0.25, half_axis: [0, 0, 0.5] }, frames: 20 }));
      for (const x of a.positions) assert.ok(vec(x)[2] >= 0.75, `inside the floor: ${x}`);
      const z = vec(a.positions.at(-1))[2];
      assert.ok(z > 0.75 + 0.05 && z <= 0.75 + 0.1505, `z = ${z}`);
      for (const sw of a.sweeps) assert.deepEqual(sw.capsule, { radius: '0x1p-2', half_axis: ['0x0p+0', '0x0p+0', '0x1p-1'] });
      const tilted = await p.send(request('floor.scene', { id: 'tilted', start: [0, 0, 2], displacement: [0, 0, -1],
        capsule: { radius: 0.25, half_axis: [0.5, 0, 0.5] } }));
      assert.deepEqual(Object.keys(tilted), ['error']);
      assert.match(tilted.error, /query 'tilted': Havok runs capsules whose half_axis is along x, y or z only/);
    } finally {
      await p.close();
    }
  });
}
