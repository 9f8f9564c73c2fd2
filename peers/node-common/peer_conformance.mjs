// The protocol and behaviour tests every engine client must pass, run through its own process
// (node:test). Each engine's test file calls conformanceSuite with what it may differ in. A client
// is a Node script or an executable (the C++ clients, e.g. Bullet's, which may answer in double).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PeerProcess } from './peer_process.mjs';
import { parseHex } from './hexfloat.mjs';

export const DATA = join(dirname(fileURLToPath(import.meta.url)), 'test', 'data');
export const scenePath = (name) => join(DATA, name);

const HEX = /^-?0x[01](\.[0-9a-f]+)?p[+-][0-9]+$/;
export const num = (h) => { assert.match(h, HEX, `not a %a hexfloat: ${h}`); return parseHex(h); };
export const vec = (v) => v.map(num);

/** A query request on a test scene; numbers may be given as JS numbers. */
export function request(scene, query, extra = {}) {
  return { scene: scenePath(scene), query, precision: 'float', ...extra };
}

/** The one entry point of the Node clients (client.mjs beside this module). */
export const NODE_CLIENT = fileURLToPath(new URL('./client.mjs', import.meta.url));

/**
 * The Node client to test for an engine: the installed copy `process.env[envVar]` names (e.g. the
 * build's, build/peers/node/<engine>/client.mjs beside its peer.mjs), or the source tree's client.mjs
 * run on `engineDir` (the engine's folder, peers/<folder>). Returns { clientPath, clientArgs, engineDir }.
 */
export function nodeClient(envVar, engineDir) {
  const installed = process.env[envVar];
  if (installed) return { clientPath: installed, clientArgs: [], engineDir: dirname(installed) };
  return { clientPath: NODE_CLIENT, clientArgs: [engineDir], engineDir };
}

/**
 * Skips (or, with SLIDECHECK_PEERS_REQUIRE=1, fails) when the engine package is not installed in
 * the engine's directory (nodeClient's engineDir): the engine tests need `npm ci` there.
 */
export function engineInstalled(engineDir, packageName) {
  const here = join(engineDir, 'node_modules', ...packageName.split('/'));
  if (existsSync(here)) return true;
  const msg = `${packageName} is not installed in ${engineDir}: run npm ci --no-audit --no-fund there`;
  if (process.env.SLIDECHECK_PEERS_REQUIRE === '1') throw new Error(msg);
  test(`engine tests (${msg})`, { skip: msg }, () => {});
  return false;
}

/**
 * The half axis of the capsule a capsule-only engine runs in place of a test's sphere: along z,
 * short enough that every sphere test's tolerance (1e-5 at the tightest) holds for it as for the
 * sphere of the same radius.
 */
export const SPHERE_LIKE_HALF_AXIS = 2 ** -18;

/** A query of a sphere (`radius`) as the capsule of that radius with SPHERE_LIKE_HALF_AXIS along z. */
export function sphereLike(query) {
  const { radius, ...rest } = query;
  return { ...rest, capsule: { radius, half_axis: [0, 0, SPHERE_LIKE_HALF_AXIS] } };
}

/**
 * clientPath: the client script or executable; clientArgs: its arguments.
 * engineName: the word its ellipsoid error and (case aside) its implementation name contain.
 * precision: the one precision it describes ('float' or 'double'); requests are sent in it.
 * gap: [min, max] distance the engine keeps from a surface it stopped at (its padding/offset); a
 *   negative min is the depth it may sink into one. wallGap: the same for a wall it walks into
 *   head-on (default gap; max Infinity for an engine that stops short of it).
 * requiredTolerances: names describe must list (the first must accept '0x1p-4').
 * contactHits: true for an engine whose sweep starting within its gap of a surface may be stopped by
 *   that surface (or a coplanar neighbour triangle) while sliding along it (Bullet's swept sphere).
 * capsules: true for an engine that runs capsules along x, y or z (and says so in its describe
 *   answer): the capsule tests run with the same gaps.
 * spheres: false for an engine whose controller has no sphere (PhysX's: capsules only, so capsules
 *   must be true): it must refuse a sphere, and every other test runs with SPHERE_LIKE_CAPSULE in
 *   place of the test's sphere.
 * expectedDifferences: {drop, wall, corner, far, capsule_drop, capsule_wall: reason} for the behaviour
 *   tests an engine is known to fail (documented findings): they still run, reported as TODO with the reason.
 */
export function conformanceSuite({
  clientPath, clientArgs = [], engineName, precision = 'float', gap, wallGap = gap, requiredTolerances,
  contactHits = false, capsules = false, spheres = true, expectedDifferences = {},
}) {
  if (!spheres && !capsules) throw new Error(`${engineName}: an engine runs spheres, capsules or both`);
  let peer;
  before(() => { peer = new PeerProcess(clientPath, clientArgs); });
  after(async () => {
    if (peer) await peer.close();
  });

  const r = 0.5;
  const sink = Math.max(0, -gap[0]);
  const round = precision === 'float' ? Math.fround : (x) => x;
  const other = precision === 'float' ? 'double' : 'float';
  // A capsule-only engine gets the sphere tests' queries with a capsule as short as they allow.
  const body = (query) => (spheres || !('radius' in query) ? query : sphereLike(query));
  const req = (scene, query, extra = {}) => request(scene, body(query), { precision, ...extra });
  const radiusOf = (sweep) => num(spheres ? sweep.radius : sweep.capsule.radius);
  const behaviour = (key) => (expectedDifferences[key] ? { todo: expectedDifferences[key] } : {});

  test('describe answer is well formed', async () => {
    const a = await peer.send({ describe: true });
    assert.equal(a.format, 'slidecheck-exec 1');
    assert.equal(typeof a.implementation, 'string');
    assert.match(a.implementation, new RegExp(engineName, 'i'));
    assert.deepEqual(a.precisions, [precision]);
    assert.equal(typeof a.tolerances, 'object');
    for (const name of requiredTolerances) assert.ok(name in a.tolerances, `describe lacks tolerance ${name}`);
    for (const [name, v] of Object.entries(a.tolerances)) {
      const x = typeof v === 'number' ? v : num(v); // a JSON number or an exact hexfloat string
      assert.ok(Number.isFinite(x) && x >= 0, `tolerance ${name} = ${v}`);
      assert.equal(round(x), x, `tolerance ${name} is not a ${precision} value`);
    }
  });

  test('a drop onto the floor ends resting on it, never inside', behaviour('drop'), async () => {
    const a = await peer.send(req('floor.scene', {
      id: 'drop', start: [0.5, -1, 2], displacement: [0, 0, 0], gravity: [0, 0, -3], radius: r, frames: 3,
    }));
    assert.equal(a.query_id, 'drop');
    assert.equal(a.positions.length, 1 + 3 * 2);
    assert.deepEqual(vec(a.positions[0]), [0.5, -1, 2]);
    for (const p of a.positions) assert.ok(vec(p)[2] >= r - sink - 1e-5, `inside the floor: ${p}`);
    const end = vec(a.positions.at(-1));
    assert.ok(end[2] <= r + gap[1] + 1e-4, `not resting: z = ${end[2]}`);
    assert.ok(Math.abs(end[0] - 0.5) < 1e-2 && Math.abs(end[1] + 1) < 1e-2, `drifted: ${end}`);
    assert.equal(a.sweeps.length, 6);
  });

  test('a move into a wall stops before it', behaviour('wall'), async () => {
    const a = await peer.send(req('corner.scene', { id: 'wall', start: [0, -1, 0.6], displacement: [3, 0, 0], radius: r }));
    assert.equal(a.positions.length, 2);
    const end = vec(a.positions[1]);
    assert.ok(end[0] + r <= 1 - wallGap[0] + 1e-5, `into the wall: x = ${end[0]}`);
    assert.ok(end[0] + r >= 1 - wallGap[1] - 1e-3, `stopped short: x = ${end[0]}`);
  });

  test('a move into the corner stays out of both walls and the floor', behaviour('corner'), async () => {
    const a = await peer.send(req('corner.scene', {
      id: 'corner', start: [0, -0.5, 0.6], displacement: [2, 3, 0], gravity: [0, 0, -1], radius: r, frames: 4,
    }));
    assert.equal(a.positions.length, 1 + 4 * 2);
    for (const h of a.positions) {
      const p = vec(h);
      const out = p[0] + r <= 1 + sink + 1e-5 && p[1] + r <= 1 + sink + 1e-5 && p[2] >= r - sink - 1e-5;
      assert.ok(out, `penetrates: ${p}`);
    }
  });

  test('sweeps report hit, time and triangle', async () => {
    const a = await peer.send(req('corner.scene', {
      id: 'sweeps', start: [0, -1, 0.6], displacement: [3, 0, 0], gravity: [0, 0, -1], radius: r,
    }));
    assert.equal(a.sweeps.length, 2);
    const [move, fall] = a.sweeps;
    assert.deepEqual(vec(move.start), [0, -1, round(0.6)]);
    assert.deepEqual(vec(move.displacement), [3, 0, 0]);
    assert.equal(radiusOf(move), r);
    assert.equal(move.hit, true);
    assert.ok(Math.abs(num(move.time) - 1 / 6) < 1e-3, `time ${num(move.time)}`);
    assert.equal(move.triangle, 3); // the wall triangle holding (1, -1, 0.6), not the floor
    assert.deepEqual(vec(fall.start), vec(a.positions[1]));
    assert.equal(fall.hit, true);
    const onFloor = fall.triangle === 0 || fall.triangle === 1;
    const onWall = contactHits && (fall.triangle === 2 || fall.triangle === 3); // the wall it rests against
    assert.ok(onFloor || onWall, `the fall hit ${JSON.stringify(fall)}`);

    const b = await peer.send(req('floor.scene', { id: 'down', start: [-1, 1.5, 2], displacement: [0, 0, -3], radius: r }));
    assert.equal(b.sweeps[0].hit, true);
    assert.ok(Math.abs(num(b.sweeps[0].time) - 0.5) < 1e-3);
    assert.equal(b.sweeps[0].triangle, 1);

    const c = await peer.send(req('floor.scene', { id: 'up', start: [0.5, -1, 1], displacement: [0, 0, 2], radius: r }));
    assert.deepEqual(c.sweeps[0].hit, false);
    assert.ok(!('time' in c.sweeps[0]) && !('triangle' in c.sweeps[0]));
    assert.deepEqual(vec(c.positions[1]), [0.5, -1, 3]);
  });

  test('triangle indices are the file\'s, whatever the engine drops or reorders', async () => {
    const a = await peer.send(req('shuffled.scene', {
      id: 'shuffled', start: [0.25, -1, 0.6], displacement: [0, 0, -3], radius: r,
    }));
    assert.equal(a.sweeps[0].triangle, 4);
    const b = await peer.send(req('shuffled.scene', { id: 'shuffled2', start: [-1, 1.5, 0.6], displacement: [0, 0, -3], radius: r }));
    assert.equal(b.sweeps[0].triangle, 2);
    const c = await peer.send(req('shuffled.scene', { id: 'shuffled3', start: [0, -1, 0.6], displacement: [3, 0, 0], radius: r }));
    assert.equal(c.sweeps[0].triangle, 3);
  });

  test('numbers: hexfloat, decimal strings and JSON numbers in, exact hexfloats out', async () => {
    const a = await peer.send(req('floor.scene', {
      id: 'numbers', start: ['0x1p-1', '-1.0', 3], displacement: ['-0x0p+0', '0.1', 0], radius: '0x1p-1',
    }));
    assert.deepEqual(a.positions[0], ['0x1p-1', '-0x1p+0', '0x1.8p+1']);
    // 0.1 rounded once to the precision
    assert.equal(a.sweeps[0].displacement[1], precision === 'float' ? '0x1.99999ap-4' : '0x1.999999999999ap-4');
    assert.equal(a.sweeps[0].displacement[0], '-0x0p+0');
    for (const p of a.positions) for (const h of p) num(h);
  });

  test('positions[0] is the query start exactly, whatever the up axis', async () => {
    const start = [3.0000002, 2 ** 20 + 0.0625, 1234.5678].map(Math.fround);
    for (const gravity of [[0, 0, -1], [0, -0.6, -0.8], [0.3, 0, 0]]) {
      const a = await peer.send(req('floor.scene', { id: 'start', start, displacement: [0, 0, 0], gravity, radius: r }));
      assert.deepEqual(vec(a.positions[0]), start, `gravity ${gravity}`);
      assert.deepEqual(vec(a.sweeps[0].start), start);
    }
  });

  test('frames repeat the passes from each end; no gravity pass without gravity', async () => {
    const a = await peer.send(req('floor.scene', { id: 'frames', start: [0, 0, 1], displacement: [0.25, 0, 0], radius: r, frames: 3 }));
    assert.equal(a.positions.length, 4);
    assert.equal(a.sweeps.length, 3);
    assert.deepEqual(vec(a.positions[3]), [0.75, 0, 1]);
    for (let i = 0; i < 3; i++) assert.deepEqual(a.sweeps[i].start, a.positions[i]);
    if ('iterations' in a) assert.equal(a.iterations.length, 3);
  });

  test('unknown tolerances and bad values are refused; known ones are taken', async () => {
    const q = { id: 't', start: [0, -1, 0.6], displacement: [3, 0, 0], radius: r };
    const bad = await peer.send(req('corner.scene', q, { tolerances: { no_such_tolerance: 1 } }));
    assert.match(bad.error, /unknown tolerance 'no_such_tolerance'/);
    const badValue = await peer.send(req('corner.scene', q, { tolerances: { [requiredTolerances[0]]: 'nan' } }));
    assert.match(badValue.error, /NaN/);
    const ok = await peer.send(req('corner.scene', q, { tolerances: { [requiredTolerances[0]]: '0x1p-4' } }));
    assert.ok(ok.positions, JSON.stringify(ok));
  });

  test('ellipsoids are refused', async () => {
    const a = await peer.send(req('floor.scene', { id: 'e', start: [0, 0, 2], displacement: [0, 0, -1], radii: [0.5, 0.5, 1] }));
    assert.deepEqual(Object.keys(a), ['error']);
    assert.match(a.error, new RegExp(`ellipsoids are not supported by ${engineName}`));
  });

  test('malformed lines get an error and the client keeps going', async () => {
    const bad = [
      'not json', '[1,2,3]', '{}', '{"describe": false}', '"text"',
      JSON.stringify(req('floor.scene', { id: 'x' })),
      JSON.stringify(req('floor.scene', { id: 'x', start: [0, 0], displacement: [0, 0, 0], radius: 1 })),
      JSON.stringify(req('floor.scene', { id: 'x', start: [0, 0, 'inf'], displacement: [0, 0, 0], radius: 1 })),
      JSON.stringify(req('floor.scene', { id: 'x', start: [0, 0, 1], displacement: [0, 0, 0], radius: -1 })),
      JSON.stringify(req('floor.scene', { id: 'x', start: [0, 0, 1], displacement: [0, 0, 0], radius: 1, frames: 0 })),
      JSON.stringify(req('floor.scene', { id: 'x', start: [0, 0, 1], displacement: [0, 0, 0], radius: 1, extra: 1 })),
      JSON.stringify(request('floor.scene', { id: 'x', start: [0, 0, 1], displacement: [0, 0, 0], radius: 1 }, { precision: other })),
      JSON.stringify(req('no-such.scene', { id: 'x', start: [0, 0, 1], displacement: [0, 0, 0], radius: 1 })),
      JSON.stringify({ scene: scenePath('floor.scene'), query: { id: 'x', start: [0, 0, 1], displacement: [0, 0, 0], radius: 1 }, bogus: 1 }),
    ];
    for (const line of bad) {
      const a = JSON.parse(await peer.sendRaw(line));
      assert.deepEqual(Object.keys(a), ['error'], `for ${line}: ${JSON.stringify(a)}`);
      assert.ok(a.error.length > 0);
    }
    const good = await peer.send(req('floor.scene', { id: 'after', start: [0, 0, 1], displacement: [0, 0, 0], radius: r }));
    assert.equal(good.query_id, 'after');
  });

  test('a scene far from the origin still answers in hexfloats', behaviour('far'), async () => {
    const c = 2 ** 20 + 2;
    const a = await peer.send(req('far.scene', { id: 'far', start: [c, c, 2], displacement: [0, 0, -3], radius: r }));
    assert.equal(a.sweeps[0].hit, true);
    const end = vec(a.positions[1]);
    assert.ok(end[2] >= r - sink - 1e-3 && end[2] <= r + 0.1 + 1e-5, `z = ${end[2]}`);
  });

  if (!spheres) {
    test('spheres are refused (a controller without a sphere)', async () => {
      const a = await peer.send(request('floor.scene', { id: 's', start: [0, 0, 2], displacement: [0, 0, -1], radius: r }, { precision }));
      assert.deepEqual(Object.keys(a), ['error']);
      assert.match(a.error, new RegExp(`spheres are not supported by ${engineName}`));
    });
  }

  if (capsules) capsuleTests({ peer: () => peer, engineName, r, h: 0.5, sink, gap, wallGap, req, behaviour, spheres });

  test('EOF ends the client with exit code 0', async () => {
    const p = new PeerProcess(clientPath, clientArgs);
    await p.send({ describe: true });
    const { code } = await p.close();
    assert.equal(code, 0);
  });

  return () => peer;
}

/**
 * The capsule tests of conformanceSuite: a capsule of radius r and half axis h along z, x or y
 * rests on a floor with its lowest point r below its axis's end, stops r from a wall, reports its
 * capsule in every sweep, and a tilted axis is refused.
 */
function capsuleTests({ peer, engineName, r, h, sink, gap, wallGap, req, behaviour, spheres }) {
  const capsule = (halfAxis) => ({ radius: r, half_axis: halfAxis });

  test('describe lists the shapes it runs', async () => {
    const a = await peer().send({ describe: true });
    assert.deepEqual(a.shapes, spheres ? ['sphere', 'capsule'] : ['capsule']);
  });

  test('an upright capsule dropped onto the floor rests on its lower cap', behaviour('capsule_drop'), async () => {
    // Its lower cap 0.5 above the floor, falling 0.25 a pass for four frames.
    const a = await peer().send(req('floor.scene', {
      id: 'capsule-drop', start: [0.5, -1, r + h + 0.5], displacement: [0, 0, 0], gravity: [0, 0, -0.25],
      capsule: capsule([0, 0, h]), frames: 4,
    }));
    assert.equal(a.positions.length, 1 + 4 * 2, JSON.stringify(a));
    for (const p of a.positions) assert.ok(vec(p)[2] >= r + h - sink - 1e-5, `inside the floor: ${p}`);
    const end = vec(a.positions.at(-1));
    assert.ok(end[2] <= r + h + gap[1] + 1e-4, `not resting: z = ${end[2]}`);
    assert.ok(Math.abs(end[0] - 0.5) < 1e-2 && Math.abs(end[1] + 1) < 1e-2, `drifted: ${end}`);
    assert.equal(a.sweeps.length, 8);
    for (const sw of a.sweeps) {
      assert.ok(!('radius' in sw), JSON.stringify(sw));
      assert.deepEqual(sw.capsule, { radius: '0x1p-1', half_axis: ['0x0p+0', '0x0p+0', '0x1p-1'] });
    }
  });

  test('an upright capsule walking into a wall stops its radius before it', behaviour('capsule_wall'), async () => {
    const a = await peer().send(req('corner.scene', { id: 'capsule-wall', start: [0, -1, r + h + 0.1], displacement: [3, 0, 0], capsule: capsule([0, 0, h]) }));
    assert.equal(a.positions.length, 2, JSON.stringify(a));
    const end = vec(a.positions[1]);
    assert.ok(end[0] + r <= 1 - wallGap[0] + 1e-5, `into the wall: x = ${end[0]}`);
    assert.ok(end[0] + r >= 1 - wallGap[1] - 1e-3, `stopped short: x = ${end[0]}`);
    assert.ok(Math.abs(end[2] - (r + h + 0.1)) < 1e-2, `left its height: z = ${end[2]}`);
    const [move] = a.sweeps;
    assert.equal(move.hit, true);
    assert.ok(Math.abs(num(move.time) - 1 / 6) < 1e-3, `time ${num(move.time)}`);
    assert.ok(move.triangle === 2 || move.triangle === 3, `hit ${JSON.stringify(move)}`); // the wall at x = 1
  });

  test('capsules lying along x and y stop their half axis and radius before a wall', async () => {
    // The rotation onto x and y: a wrong axis would stop r (not h + r) before the wall, or hit the floor.
    for (const [axis, halfAxis, start, d, k] of [
      ['x', [h, 0, 0], [-0.5, -1, r + 0.1], [3, 0, 0], 0],
      ['y', [0, -h, 0], [0, -0.5, r + 0.1], [0, 3, 0], 1],
    ]) {
      const a = await peer().send(req('corner.scene', { id: `capsule-${axis}`, start, displacement: d, capsule: capsule(halfAxis) }));
      assert.equal(a.positions.length, 2, JSON.stringify(a));
      const end = vec(a.positions[1]);
      assert.ok(end[k] + h + r <= 1 - wallGap[0] + 1e-5, `${axis}: into the wall: ${end}`);
      if (Number.isFinite(wallGap[1])) assert.ok(end[k] + h + r >= 1 - wallGap[1] - 1e-3, `${axis}: stopped short: ${end}`);
      assert.ok(a.sweeps[0].hit && Math.abs(num(a.sweeps[0].time) - (1 - h - r - start[k]) / 3) < 1e-3, `${axis}: ${JSON.stringify(a.sweeps[0])}`);
    }
  });

  test('a capsule\'s positions[0] is the query start exactly, whatever its axis and the up axis', async () => {
    const start = [3.0000002, 2 ** 20 + 0.0625, 1234.5678].map(Math.fround);
    for (const gravity of [[0, 0, -1], [0, -0.6, -0.8], [0.3, 0, 0]])
      for (const halfAxis of [[0, 0, h], [h, 0, 0], [0, -h, 0]]) {
        const a = await peer().send(req('floor.scene', { id: 'start', start, displacement: [0, 0, 0], gravity, capsule: capsule(halfAxis) }));
        assert.deepEqual(vec(a.positions[0]), start, `gravity ${gravity}, half axis ${halfAxis}: ${JSON.stringify(a)}`);
      }
  });

  test('a capsule whose axis is not along x, y or z is refused', async () => {
    const a = await peer().send(req('floor.scene', { id: 'tilted', start: [0, 0, 2], displacement: [0, 0, -1], capsule: capsule([h, 0, h]) }));
    assert.deepEqual(Object.keys(a), ['error']);
    assert.match(a.error, new RegExp(`query 'tilted': ${engineName} runs capsules whose half_axis is along x, y or z only`));
  });
}
