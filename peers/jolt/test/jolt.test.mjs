// Jolt client: the shared protocol/behaviour suite plus what is Jolt's own (node --test peers/).
// SLIDECHECK_JOLT_CLIENT runs an installed copy instead (e.g. the build directory's).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { conformanceSuite, engineInstalled, nodeClient, request, vec } from '../../node-common/peer_conformance.mjs';
import { PeerProcess } from '../../node-common/peer_process.mjs';

const { clientPath, clientArgs, engineDir } = nodeClient('SLIDECHECK_JOLT_CLIENT', fileURLToPath(new URL('..', import.meta.url)));

if (engineInstalled(engineDir, 'jolt-physics')) {
  conformanceSuite({
    clientPath,
    clientArgs,
    engineName: 'Jolt',
    gap: [0.0195, 0.0205], // character_padding, 0.02 by default
    requiredTolerances: ['character_padding', 'penetration_recovery_speed', 'predictive_contact_distance', 'collision_tolerance'],
    capsules: true,
  });

  test('Jolt: character_padding sets the gap kept from a wall', async () => {
    const p = new PeerProcess(clientPath, clientArgs);
    try {
      const q = { id: 'pad', start: [0, -1, 0.6], displacement: [3, 0, 0], radius: 0.5 };
      const a = await p.send(request('corner.scene', q, { tolerances: { character_padding: '0x1p-4' } }));
      const x = vec(a.positions[1])[0];
      assert.ok(Math.abs(x - (1 - 0.5 - 0.0625)) < 1e-4, `x = ${x}`);
      assert.ok(!('iterations' in a)); // Jolt does not expose its iteration counts
    } finally {
      await p.close();
    }
  });
}
