// The part of every Node engine client that is not the engine's (peer.mjs, scene_cache.mjs,
// client.mjs, nearest_triangle.mjs), with stand-in engines (node --test peers/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SceneCache } from '../scene_cache.mjs';
import { createPeer, runPasses } from '../peer.mjs';
import { nearestTriangle, pointTriangleDistanceSq } from '../nearest_triangle.mjs';
import { parseRequest } from '../protocol.mjs';
import { PeerProcess } from '../peer_process.mjs';
import { NODE_CLIENT, scenePath, vec } from '../peer_conformance.mjs';

const info = { name: 'stub_cc', shortName: 'Stub', precisions: ['float'], tolerances: { skin: 0 } };
const request = (query) => parseRequest({ scene: scenePath('floor.scene'), query: { id: 'q', radius: 0.5, ...query } }, info);

/** A character that moves by `step(d)` of each displacement and sweeps without hitting. */
function stubCharacter(start, step = (d) => d) {
  let at = start;
  return {
    radius: 0.5,
    position: () => at,
    sweep: () => ({ hit: false }),
    move(d, from) {
      assert.deepEqual(from, at); // each pass starts where the previous one ended
      const s = step(d);
      at = [from[0] + s[0], from[1] + s[1], from[2] + s[2]];
    },
  };
}

test('SceneCache keeps the most recently used worlds and frees the others', () => {
  const freed = [];
  const cache = new SceneCache(2, (w) => freed.push(w));
  let built = 0;
  const build = (name) => () => { built++; return name; };
  assert.equal(cache.get('a', build('A')), 'A');
  assert.equal(cache.get('b', build('B')), 'B');
  assert.equal(cache.get('a', build('A2')), 'A'); // kept: not built again, now the most recent
  assert.equal(cache.get('c', build('C')), 'C'); // drops b, the least recently used
  assert.deepEqual(freed, ['B']);
  assert.equal(built, 3);
  assert.equal(cache.size, 2);
  assert.equal(cache.get('b', build('B2')), 'B2');
  assert.deepEqual(freed, ['B', 'A']);
});

test('runPasses: the start, then per frame the move and the gravity pass, each with its sweep', () => {
  const req = request({ start: [0, 0, 2], displacement: [0.25, 0, 0], gravity: [0, 0, -0.5], frames: 2 });
  const a = runPasses(req, 'Stub', stubCharacter(req.start));
  assert.equal(a.query_id, 'q');
  assert.deepEqual(a.positions.map(vec), [[0, 0, 2], [0.25, 0, 2], [0.25, 0, 1.5], [0.5, 0, 1.5], [0.5, 0, 1]]);
  assert.equal(a.sweeps.length, 4);
  assert.deepEqual(a.sweeps[1], { start: a.positions[1], displacement: ['0x0p+0', '0x0p+0', '-0x1p-1'], radius: '0x1p-1', hit: false });
  assert.ok(!('iterations' in a)); // only from a character that counts them
  const counted = { ...stubCharacter(req.start), iterations: () => 7 };
  assert.deepEqual(runPasses(req, 'Stub', counted).iterations, [7, 7, 7, 7]);
});

test('runPasses: a non-finite centre is an error naming the engine and the pass', () => {
  const req = request({ start: [0, 0, 2], displacement: [1, 0, 0], frames: 3 });
  let n = 0;
  const character = stubCharacter(req.start, (d) => (++n === 2 ? [NaN, 0, 0] : d));
  assert.throws(() => runPasses(req, 'Stub', character), /^Error: Stub produced a non-finite position in pass 2$/);
});

test('createPeer builds each world once, frees the dropped ones and every character', () => {
  const log = [];
  const engine = {
    info,
    sceneKey: (req) => `${req.tolerances.skin}:${req.scene}`,
    buildScene: (scene, path) => { log.push(`build ${scene.triangles.length / 3} triangles`); return { path }; },
    freeScene: (w) => log.push(`free ${w.path}`),
    character: (world, req) => ({ ...stubCharacter(req.start), free: () => log.push('character freed') }),
  };
  const peer = createPeer(engine, 1);
  assert.equal(peer.describe().implementation, 'stub_cc');
  const q = { start: [0, 0, 2], displacement: [0, 0, 0] };
  peer.query(request(q));
  peer.query(request(q));
  const other = parseRequest({ scene: scenePath('corner.scene'), query: { id: 'c', radius: 0.5, ...q } }, info);
  assert.equal(peer.query(other).query_id, 'c');
  // The new world is built before the least recently used one is dropped.
  assert.deepEqual(log, ['build 2 triangles', 'character freed', 'character freed', 'build 6 triangles',
    `free ${scenePath('floor.scene')}`, 'character freed']);
});

test('client.mjs runs the engine module of the folder it is given', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'slidecheck-stub-engine-'));
  // A stand-in engine: a character that moves by half of every displacement.
  writeFileSync(join(dir, 'peer.mjs'), `export async function createEngine() {
  return {
    info: { name: 'half_cc', shortName: 'Half', precisions: ['float'], tolerances: {} },
    buildScene: () => ({}),
    freeScene: () => {},
    character: (world, req) => {
      let at = req.start;
      return { radius: req.radius, position: () => at, sweep: () => ({ hit: false }),
               move: (d, from) => { at = from.map((x, i) => x + d[i] / 2); } };
    },
  };
}
`);
  const p = new PeerProcess(NODE_CLIENT, [dir]);
  try {
    assert.equal((await p.send({ describe: true })).implementation, 'half_cc');
    const a = await p.send({ scene: scenePath('floor.scene'), query: { id: 'h', start: [0, 0, 2], displacement: [1, 0, 0], radius: 0.5 } });
    assert.deepEqual(a.positions.map(vec), [[0, 0, 2], [0.5, 0, 2]]);
  } finally {
    const { code } = await p.close();
    assert.equal(code, 0);
    rmSync(dir, { recursive: true, force: true });
  }
});

test('nearestTriangle: the triangle nearest a point, by exact-enough point-triangle distance', () => {
  const v = [0, 0, 0, 1, 0, 0, 0, 1, 0];
  assert.equal(pointTriangleDistanceSq([0.25, 0.25, 2], v, 0, 1, 2), 4); // above the face
  assert.equal(pointTriangleDistanceSq([-1, 0, 0], v, 0, 1, 2), 1); // beyond vertex a
  assert.equal(pointTriangleDistanceSq([2, 0, 0], v, 0, 1, 2), 1); // beyond vertex b
  assert.equal(pointTriangleDistanceSq([0.5, -1, 0], v, 0, 1, 2), 1); // beyond edge ab
  assert.equal(pointTriangleDistanceSq([1, 1, 0], v, 0, 1, 2), 0.5); // beyond edge bc
  // Two triangles: a floor at z = 0 and a wall at x = 1.
  const v2 = [0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1];
  assert.equal(nearestTriangle(v2, [0, 1, 2, 3, 4, 5], [0.2, 0.2, 0.1]), 0);
  assert.equal(nearestTriangle(v2, [0, 1, 2, 3, 4, 5], [1.1, 0.2, 0.5]), 1);
});
