// Rapier client: the shared protocol/behaviour suite plus what is Rapier's own (node --test peers/).
// SLIDECHECK_RAPIER_CLIENT runs an installed copy instead (e.g. the build directory's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { conformanceSuite, engineInstalled, nodeClient, request, vec } from '../../node-common/peer_conformance.mjs';
import { PeerProcess } from '../../node-common/peer_process.mjs';

const { clientPath, clientArgs, engineDir } = nodeClient('SLIDECHECK_RAPIER_CLIENT', fileURLToPath(new URL('..', import.meta.url)));

if (engineInstalled(engineDir, '@dimforge/rapier3d-compat')) {
  conformanceSuite({
    clientPath,
    clientArgs,
    engineName: 'Rapier',
    gap: [0.0095, 0.0105], // offset (0.01) plus normal nudges
    requiredTolerances: ['offset', 'normal_nudge_factor'],
    capsules: true,
  });

  test('Rapier: offset sets the gap kept from a wall; iterations count collisions per pass', async () => {
    const p = new PeerProcess(clientPath, clientArgs);
    try {
      const q = { id: 'off', start: [0, -1, 0.6], displacement: [3, 0, 0], gravity: [0, 0, -1], radius: 0.5 };
      const a = await p.send(request('corner.scene', q, { tolerances: { offset: '0x1p-4' } }));
      const x = vec(a.positions[1])[0];
      assert.ok(Math.abs(x - (1 - 0.5 - 0.0625)) < 1e-3, `x = ${x}`);
      assert.equal(a.iterations.length, 2);
      assert.ok(a.iterations.every((n) => Number.isInteger(n) && n >= 0));
      assert.ok(a.iterations[0] >= 1); // the move hit the wall
    } finally {
      await p.close();
    }
  });
}
