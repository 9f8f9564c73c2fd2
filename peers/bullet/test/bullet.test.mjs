// Bullet's exec clients (slidecheck_bullet_float, _double; both modes): the shared protocol and
// behaviour suite plus what is Bullet's own (node --test peers/). The clients are C++ executables
// of the build: SLIDECHECK_BULLET_CLIENTS lists their paths (':'-separated); without it these
// tests are skipped (ctest's peer tests pass the built binaries).
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { delimiter } from 'node:path';
import { conformanceSuite, request, vec } from '../../node-common/peer_conformance.mjs';
import { PeerProcess } from '../../node-common/peer_process.mjs';

const clients = (process.env.SLIDECHECK_BULLET_CLIENTS ?? '').split(delimiter).filter((c) => c !== '');
if (clients.length === 0) {
  const why = 'SLIDECHECK_BULLET_CLIENTS names no Bullet client (build slidecheck_bullet_float/_double and list them)';
  test(`Bullet clients (${why})`, { skip: why }, () => {});
}

/** The precision a client describes (each Bullet build answers in its own). */
async function precisionOf(client) {
  const p = new PeerProcess(client, ['--mode', 'sweep']);
  try {
    return (await p.send({ describe: true })).precisions[0];
  } finally {
    await p.close();
  }
}

/** Runs `f(peer)` on a fresh client process. */
async function withPeer(client, mode, f) {
  const p = new PeerProcess(client, ['--mode', mode]);
  try {
    await f(p);
  } finally {
    await p.close();
  }
}

// The controller's documented finding (docs/fast.md, "Findings about Bullet"): a floor scene's
// box is flat, and the ghost sees the mesh only while its own box overlaps it.
const ghostBox = 'btKinematicCharacterController sees only what its ghost box overlaps where the pass starts: a '
  + 'fall from above a flat floor passes through it';

const r = 0.5;

for (const client of clients) {
  const precision = await precisionOf(client);
  const req = (scene, query, extra = {}) => request(scene, query, { precision, ...extra });

  describe(`${client} --mode sweep (${precision})`, () => {
    conformanceSuite({
      clientPath: client,
      clientArgs: ['--mode', 'sweep'],
      engineName: 'Bullet',
      precision,
      gap: [0, 0.001], // btContinuousConvexCollision stops within 0.001 of the contact
      requiredTolerances: ['allowed_penetration'],
      contactHits: true, // a sphere resting within 0.001 of a wall can be stopped by it sliding down
      capsules: true,
    });

    test('Bullet sweep: allowed_penetration lets the sweep end that far inside', () => withPeer(client, 'sweep', async (p) => {
      const q = { id: 'allow', start: [0.5, -1, 2], displacement: [0, 0, -3], radius: r };
      const plain = vec((await p.send(req('floor.scene', q))).positions[1])[2];
      const deep = vec((await p.send(req('floor.scene', q, { tolerances: { allowed_penetration: '0x1p-2' } }))).positions[1])[2];
      assert.ok(plain >= r - 1e-6 && plain <= r + 0.001, `z = ${plain}`);
      assert.ok(deep < plain - 0.2 && deep >= r - 0.25 - 1e-3, `z = ${deep} with allowed_penetration 0.25`);
    }));
  });

  describe(`${client} --mode kcc (${precision})`, () => {
    conformanceSuite({
      clientPath: client,
      clientArgs: ['--mode', 'kcc'],
      engineName: 'Bullet',
      precision,
      gap: [-0.04, 0.001], // sweeps allow m_allowedCcdPenetration (0.04); no recovery above 0.2
      wallGap: [-0.04, Infinity], // a head-on walk into a wall does not advance towards it
      requiredTolerances: ['allowed_ccd_penetration', 'max_penetration_depth', 'step_height', 'max_slope',
        'sweep_allowed_penetration'],
      capsules: true,
      expectedDifferences: { drop: ghostBox, far: ghostBox },
    });

    test('Bullet kcc: a fall from farther than its clearance passes through the floor', () => withPeer(client, 'kcc', async (p) => {
      const a = await p.send(req('floor.scene', { id: 'through', start: [0.5, -1, 2], displacement: [0, 0, 0], gravity: [0, 0, -3], radius: r }));
      assert.equal(a.sweeps[1].hit, true); // a plain sweep would have stopped
      assert.ok(vec(a.positions[2])[2] < 0, `z = ${vec(a.positions[2])[2]}`);
    }));

    test('Bullet kcc: a gentle drop lands at most 0.04 inside and rests', () => withPeer(client, 'kcc', async (p) => {
      const a = await p.send(req('floor.scene', { id: 'land', start: [0.5, -1, 1], displacement: [0, 0, 0], gravity: [0, 0, -0.25], radius: r, frames: 4 }));
      for (const h of a.positions) assert.ok(vec(h)[2] >= r - 0.04 - 1e-6, `z = ${vec(h)[2]}`);
      const end = vec(a.positions.at(-1))[2];
      assert.ok(end <= r + 0.001, `z = ${end}`);
    }));

    test('Bullet kcc: a head-on walk into a wall does not move towards it', () => withPeer(client, 'kcc', async (p) => {
      const a = await p.send(req('corner.scene', { id: 'head-on', start: [0, -1, 0.6], displacement: [3, 0, 0], radius: r }));
      assert.ok(Math.abs(vec(a.positions[1])[0]) < 1e-5, `x = ${vec(a.positions[1])[0]}`);
    }));

    test('Bullet kcc: waypoints are where it was put: deep, then each 20 % recovery push', () => withPeer(client, 'kcc', async (p) => {
      // Walking straight down onto a floor it cannot see: the centre ends on the floor, and five
      // recovery pushes of 20 % of the depth leave 0.8^5 r inside.
      const a = await p.send(req('floor.scene', { id: 'down', start: [0.5, -1, 1.5], displacement: [0, 0, -1.5], radius: r }));
      assert.equal(a.waypoints.length, 1);
      const w = a.waypoints[0].map(vec);
      assert.equal(w.length, 5, JSON.stringify(a.waypoints));
      assert.ok(Math.abs(w[0][2]) < 1e-6, `before recovery: z = ${w[0][2]}`);
      for (let k = 1; k < w.length; k++) assert.ok(w[k][2] > w[k - 1][2]);
      const end = vec(a.positions[1])[2];
      assert.ok(Math.abs(end - (r - 0.8 ** 5 * r)) < 1e-5, `z = ${end}`);
    }));

    test('Bullet kcc: max_penetration_depth sets what is recovered from', () => withPeer(client, 'kcc', async (p) => {
      const q = { id: 'depth', start: [0.5, -1, 1.5], displacement: [0, 0, -1.5], radius: r };
      const a = await p.send(req('floor.scene', q, { tolerances: { max_penetration_depth: '0x1p+0' } }));
      assert.ok(Math.abs(vec(a.positions[1])[2]) < 1e-6, 'a 0.5 deep end is not recovered from under a limit of 1');
      assert.deepEqual(a.waypoints, [[]]);
    }));
  });
}
