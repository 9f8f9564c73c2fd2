// PhysX client: the shared protocol/behaviour suite (capsules only: PhysX's controller has no
// sphere) plus what is PhysX's own (node --test peers/). SLIDECHECK_PHYSX_CLIENT runs an installed
// copy instead (e.g. the build directory's); when the build could not install PhysX (its status
// file says why), these tests are skipped with that line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { conformanceSuite, engineInstalled, nodeClient, request, scenePath, vec, num } from '../../node-common/peer_conformance.mjs';
import { PeerProcess } from '../../node-common/peer_process.mjs';
import { readScene } from '../../node-common/scene.mjs';
import { parseRequest } from '../../node-common/protocol.mjs';

const { clientPath, clientArgs, engineDir } = nodeClient('SLIDECHECK_PHYSX_CLIENT', fileURLToPath(new URL('..', import.meta.url)));

const statusFile = join(engineDir, 'status');
const status = existsSync(statusFile) ? readFileSync(statusFile, 'utf8').split('\n')[0] : 'ok';

/** contact_offset, PhysX's default 0.1 rounded to float: the gap its controller keeps from what it touches. */
const CONTACT_OFFSET = Math.fround(0.1);

if (!status.startsWith('ok')) {
  test(`PhysX engine tests (physx is missing: ${status})`, { skip: status }, () => {});
} else if (engineInstalled(engineDir, 'physx-js-webidl')) {
  conformanceSuite({
    clientPath,
    clientArgs,
    engineName: 'PhysX',
    gap: [0, CONTACT_OFFSET + 1e-4],
    requiredTolerances: ['contact_offset', 'step_offset', 'slope_limit', 'invisible_wall_height', 'max_jump_height',
      'volume_growth', 'min_dist', 'tessellation_max_edge_length', 'overlap_recovery', 'precise_sweeps',
      'prevent_vertical_sliding_against_ceiling'],
    capsules: true,
    spheres: false,
  });

  const capsule = (halfAxis, radius = 0.5) => ({ radius, half_axis: halfAxis });

  test('PhysX: contact_offset is the gap kept from a wall', async () => {
    const p = new PeerProcess(clientPath, clientArgs);
    try {
      const q = { id: 'gap', start: [0, -1, 1.1], displacement: [3, 0, 0], capsule: capsule([0, 0, 0.5]) };
      const a = await p.send(request('corner.scene', q));
      assert.ok(Math.abs(vec(a.positions[1])[0] - (1 - 0.5 - CONTACT_OFFSET)) < 1e-6, JSON.stringify(a.positions));
      const b = await p.send(request('corner.scene', q, { tolerances: { contact_offset: '0x1p-4' } }));
      assert.ok(Math.abs(vec(b.positions[1])[0] - (1 - 0.5 - 0.0625)) < 1e-6, JSON.stringify(b.positions));
      assert.ok(!('iterations' in b)); // the controller does not say how many sweeps it made
    } finally {
      await p.close();
    }
  });

  test('PhysX: every triangle stops the capsule from either side (the client adds each reversed)', async () => {
    const p = new PeerProcess(clientPath, clientArgs);
    try {
      // The floor faces +z; from below, moving up into it, the capsule stops contact_offset short.
      const a = await p.send(request('floor.scene', { id: 'below', start: [0.5, -1, -2], displacement: [0, 0, 3], capsule: capsule([0, 0, 0.5]) }));
      const z = vec(a.positions[1])[2];
      assert.ok(Math.abs(z - (-1 - CONTACT_OFFSET)) < 1e-6, `z = ${z}`);
      // The single sweep meets it too, and names the file's triangle (not its reversed copy's index).
      assert.equal(a.sweeps[0].hit, true);
      assert.ok(Math.abs(num(a.sweeps[0].time) - 1 / 3) < 1e-5, JSON.stringify(a.sweeps[0]));
      assert.ok(a.sweeps[0].triangle === 0 || a.sweeps[0].triangle === 1, JSON.stringify(a.sweeps[0]));
    } finally {
      await p.close();
    }
  });

  test('PhysX: a pass shorter than min_dist does not move', async () => {
    const p = new PeerProcess(clientPath, clientArgs);
    try {
      const q = { id: 'short', start: [0, -1, 2], displacement: [0.0005, 0, 0], capsule: capsule([0, 0, 0.5]) };
      const a = await p.send(request('floor.scene', q));
      assert.deepEqual(vec(a.positions[1]), [0, -1, 2]);
      const b = await p.send(request('floor.scene', q, { tolerances: { min_dist: '0x0p+0' } }));
      assert.deepEqual(vec(b.positions[1]), [Math.fround(0.0005), -1, 2]);
    } finally {
      await p.close();
    }
  });

  test('PhysX: a capsule shorter than step_offset runs, stepping at most its own height', async () => {
    const p = new PeerProcess(clientPath, clientArgs);
    try {
      // 0.2 tall in all, under the default step_offset 0.5: PhysX would refuse the controller as given.
      const a = await p.send(request('floor.scene', { id: 'small', start: [0.5, -1, 0.3], displacement: [0, 0, -1], capsule: capsule([0, 0, 0.05], 0.05) }));
      assert.ok(a.positions, JSON.stringify(a));
      assert.ok(Math.abs(vec(a.positions[1])[2] - (0.1 + CONTACT_OFFSET)) < 1e-6, JSON.stringify(a.positions));
    } finally {
      await p.close();
    }
  });

  test('PhysX: a scene whose every triangle has zero area in float is refused, and the client goes on', async () => {
    const p = new PeerProcess(clientPath, clientArgs);
    try {
      const collapsed = fileURLToPath(new URL('./data/collapsed.scene', import.meta.url));
      const q = { id: 'collapsed', start: [0.5, 0, 2], displacement: [0, 0, -3], capsule: capsule([0, 0, 0.5]) };
      const a = await p.send({ ...request('floor.scene', q), scene: collapsed });
      assert.deepEqual(Object.keys(a), ['error']);
      assert.match(a.error, /every triangle has zero area in float/);
      const b = await p.send(request('floor.scene', q));
      assert.equal(b.sweeps[0].hit, true, JSON.stringify(b));
    } finally {
      await p.close();
    }
  });

  test('PhysX: positions are rounded to float after every pass', async () => {
    const p = new PeerProcess(clientPath, clientArgs);
    try {
      const a = await p.send(request('floor.scene', {
        id: 'float', start: [0.1, 0.2, 3], displacement: [0.1, 0.7, 0], gravity: [0, 0, -0.3], capsule: capsule([0, 0, 0.5]), frames: 5,
      }));
      for (const pos of a.positions) for (const x of vec(pos)) assert.equal(Math.fround(x), x, JSON.stringify(pos));
    } finally {
      await p.close();
    }
  });

  test('PhysX: a long run frees what each query and scene allocates (the WebAssembly heap stays put)', async () => {
    const peer = await import(pathToFileURL(join(engineDir, 'peer.mjs')).href);
    const common = await import(pathToFileURL(join(engineDir, '..', 'node-common', 'peer.mjs')).href);
    const engine = await peer.createEngine();
    const scenes = ['floor.scene', 'corner.scene', 'shuffled.scene'];
    const client = common.createPeer(engine, scenes.length);
    const run = (n) => {
      for (let i = 0; i < n; i++) {
        const halfAxis = [[0, 0, 0.5], [0.5, 0, 0], [0, -0.5, 0]][i % 3];
        const raw = request(scenes[i % 3], {
          id: `q${i}`, start: [0, -0.5, 1.2], displacement: [0.4, 0.3, -0.2], gravity: [0, 0, -0.5], capsule: capsule(halfAxis),
        });
        assert.equal(client.query(parseRequest(raw, engine.info)).positions.length, 3);
      }
    };
    run(500);
    const heap = engine.heapBytes();
    const shapes = engine.liveShapes();
    // Characters: each query's controller (its actor and capsule shape) and sweeps are freed.
    run(6000);
    assert.equal(engine.liveShapes(), shapes, 'controllers left behind');
    // Worlds: a scene built and freed leaves nothing (its mesh, shape, actor, scene, manager).
    for (let i = 0; i < 300; i++) {
      const path = scenePath(scenes[i % 3]);
      engine.freeScene(engine.buildScene(readScene(path, { allowDegenerate: true }), path));
    }
    assert.equal(engine.liveShapes(), shapes, 'scene shapes left behind');
    assert.equal(engine.heapBytes(), heap, 'the WebAssembly heap grew');
  });

  test('PhysX: the loader leaves the Node globals it hides as they were', async () => {
    const peer = await import(pathToFileURL(join(engineDir, 'peer.mjs')).href);
    const processBefore = globalThis.process;
    await peer.loadPhysX();
    assert.equal(globalThis.process, processBefore);
    assert.equal('window' in globalThis, false);
  });

  test('PhysX: the mesh is cooked from the file\'s float vertices and indices, both windings', async () => {
    const peer = await import(pathToFileURL(join(engineDir, 'peer.mjs')).href);
    const engine = await peer.createEngine();
    const path = scenePath('shuffled.scene');
    const scene = readScene(path);
    const world = engine.buildScene(scene, path);
    try {
      // Each file triangle is named twice (as written and reversed), whatever order cooking left,
      // but the zero-area one (triangle 0), which cooking drops in both windings.
      const nt = scene.triangles.length / 3;
      assert.equal(world.mesh.getNbTriangles(), 2 * (nt - 1));
      const counts = new Array(nt).fill(0);
      for (const t of world.fileTriangle) counts[t]++;
      assert.deepEqual(counts, [0, 2, 2, 2, 2]);
    } finally {
      engine.freeScene(world);
    }
  });
}
