// The slidecheck-exec 1 loop and request checking, with a stand-in engine (node --test peers/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { parseRequest, runProtocol, describeAnswer, passesOf, upOf, sweepRecord, RequestError } from '../protocol.mjs';
import { MAX_FRAMES } from '../limits.mjs';
import { yCapsule } from '../capsule.mjs';

const engine = { name: 'Stub', precisions: ['float'], tolerances: { padding: Math.fround(0.02), speed: 1 } };
/** A request; a field given as undefined is left out. */
const base = (query, extra = {}) => JSON.parse(JSON.stringify(
  { scene: '/s.scene', query: { id: 'q', start: [0, 0, 1], displacement: [1, 0, 0], radius: 0.5, ...query }, ...extra }));

test('parseRequest converts every number to float and fills defaults', () => {
  const r = parseRequest(base({ start: ['0x1.8p+1', '0.1', 2], gravity: ['0', '-9.81', 0], frames: 3 }, { precision: 'float', tolerances: { speed: '0x1p-1' } }), engine);
  assert.equal(r.scene, '/s.scene');
  assert.equal(r.id, 'q');
  assert.deepEqual(r.start, [3, Math.fround(0.1), 2]);
  assert.deepEqual(r.gravity, [0, Math.fround(-9.81), 0]);
  assert.equal(r.gravityNonZero, true);
  assert.equal(r.frames, 3);
  assert.deepEqual(r.tolerances, { padding: Math.fround(0.02), speed: 0.5 });
  const d = parseRequest(base({ algorithm: 'robust', scene: 'rel.scene', tolerances: { eps: 1 } }), engine);
  assert.equal(d.frames, 1);
  // The most frames slidecheck writes (formats::max_frames) is taken.
  assert.equal(parseRequest(base({ frames: MAX_FRAMES }), engine).frames, MAX_FRAMES);
  assert.deepEqual(d.gravity, [0, 0, 0]);
  assert.equal(d.gravityNonZero, false);
  assert.equal(d.scene, '/s.scene'); // the request's absolute path wins over the query's own
  assert.deepEqual(d.tolerances, engine.tolerances); // query.tolerances are slidecheck's, not the engine's
  // hexfloats that float cannot hold are rounded once, as a float API would take them
  assert.equal(parseRequest(base({ radius: '0x1.0000000000001p+0' }), engine).radius, 1);
});

test('parseRequest refuses what slidecheck would not send', () => {
  const refuses = (req, re) => assert.throws(() => parseRequest(req, engine), (e) => e instanceof RequestError && re.test(e.message), JSON.stringify(req));
  refuses(null, /JSON object/);
  refuses([], /JSON object/);
  refuses({ ...base({}), extra: 1 }, /unknown request field 'extra'/);
  refuses(base({}, { precision: 'double' }), /precision 'double' is not supported by Stub/);
  refuses({ scene: '/s.scene' }, /'query': expected an object/);
  refuses(base({ id: '' }), /'id'/);
  refuses(base({ id: 7 }), /'id'/);
  refuses(base({ radii: [1, 1, 1], radius: undefined }), /query 'q': ellipsoids are not supported by Stub/);
  refuses(base({ radii: [1, 1, 1] }), /both 'radius' and 'radii'/);
  refuses(base({ radius: undefined }), /missing field 'radius'/);
  refuses(base({ radius: 0 }), /must be > 0/);
  refuses(base({ radius: '-0x1p+0' }), /must be > 0/);
  refuses(base({ start: [0, 0] }), /'start': expected \[x, y, z\]/);
  refuses(base({ start: undefined }), /missing field 'start'/);
  refuses(base({ displacement: [0, 0, 'inf'] }), /'displacement'\[2\].*NaN and infinities/);
  refuses(base({ displacement: [0, 0, '1.0x'] }), /not a decimal/);
  refuses(base({ displacement: [0, 0, 1e39] }), /overflows float/);
  refuses(base({ gravity: [0, 0] }), /'gravity'/);
  refuses(base({ frames: 0 }), /'frames'/);
  refuses(base({ frames: MAX_FRAMES + 1 }), new RegExp(`'frames': expected an integer from 1 to ${MAX_FRAMES}, got`));
  refuses(base({ frames: 1.5 }), /'frames'/);
  refuses(base({ color: 'red' }), /unknown query field 'color'/);
  refuses(base({ algorithm: 3 }), /'algorithm'/);
  refuses(base({}, { scene: '' }), /'scene'/);
  refuses(base({}, { tolerances: { nope: 1 } }), /unknown tolerance 'nope' for Stub \(known: padding, speed\)/);
  refuses(base({}, { tolerances: { speed: 'nan' } }), /tolerance 'speed'/);
  refuses(base({}, { tolerances: [1] }), /'tolerances'/);
});

test('parseRequest reads a capsule for an engine that runs capsules, and refuses it otherwise', () => {
  const capsuleEngine = { ...engine, shapes: ['sphere', 'capsule'] };
  const q = { radius: undefined, capsule: { radius: '0x1p-1', half_axis: [0, '0.1', '-0x1p+0'] } };
  const r = parseRequest(base(q), capsuleEngine);
  assert.deepEqual(r.shape, { kind: 'capsule', radius: 0.5, halfAxis: [0, Math.fround(0.1), -1] });
  assert.equal(r.radius, 0.5);
  assert.deepEqual(parseRequest(base({}), capsuleEngine).shape, { kind: 'sphere', radius: 0.5 });
  const refuses = (req, eng, re) => assert.throws(() => parseRequest(req, eng), (e) => e instanceof RequestError && re.test(e.message), JSON.stringify(req));
  refuses(base(q), engine, /query 'q': capsules are not supported by Stub/); // an engine without `shapes` runs spheres
  refuses(base({ capsule: q.capsule }), capsuleEngine, /both 'radius' and 'capsule' given/);
  refuses(base({ radius: undefined, capsule: [1, 2] }), capsuleEngine, /field 'capsule': expected/);
  refuses(base({ radius: undefined, capsule: { radius: 1 } }), capsuleEngine, /missing field 'capsule.half_axis'/);
  refuses(base({ radius: undefined, capsule: { half_axis: [0, 0, 1] } }), capsuleEngine, /missing field 'capsule.radius'/);
  refuses(base({ radius: undefined, capsule: { radius: 1, half_axis: [0, 0, 1], height: 2 } }), capsuleEngine, /unknown field 'capsule.height'/);
  refuses(base({ radius: undefined, capsule: { radius: 0, half_axis: [0, 0, 1] } }), capsuleEngine, /'capsule.radius': must be > 0/);
  refuses(base({ radius: undefined, capsule: { radius: 1, half_axis: [0, '-0x0p+0', 0] } }), capsuleEngine, /'capsule.half_axis': must not be zero/);
  refuses(base({ radius: undefined, capsule: { radius: 1, half_axis: [0, 0] } }), capsuleEngine, /'capsule.half_axis': expected \[x, y, z\]/);
});

test('yCapsule maps an axis-aligned half axis exactly onto a Y capsule, and refuses any other', () => {
  const capsuleEngine = { ...engine, shapes: ['sphere', 'capsule'] };
  const req = (halfAxis) => parseRequest(base({ radius: undefined, capsule: { radius: 0.5, half_axis: halfAxis } }), capsuleEngine);
  // Rotating local Y by the quaternion gives the axis; toLocal is the inverse rotation.
  const rotate = (q, v) => { // v + 2w (u x v) + 2 u x (u x v), u = (x, y, z)
    const u = [q.x, q.y, q.z];
    const cross = (a, b) => [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
    const t = cross(u, v).map((c) => 2 * c);
    const ut = cross(u, t);
    return v.map((c, i) => c + q.w * t[i] + ut[i]);
  };
  for (const [halfAxis, axis] of [[[0, 0, -0.75], [0, 0, 1]], [[2, 0, 0], [1, 0, 0]], [[0, 0.25, 0], [0, 1, 0]]]) {
    const c = yCapsule(req(halfAxis), 'Stub');
    assert.equal(c.halfHeight, Math.abs(halfAxis.find((x) => x !== 0)));
    assert.equal(c.radius, 0.5);
    assert.deepEqual(rotate(c.rotation, [0, 1, 0]), axis);
    for (const v of [[1, 2, 3], [-4, 5, 0.5]]) assert.deepEqual(rotate(c.rotation, c.toLocal(v)), v);
  }
  assert.throws(() => yCapsule(req([0.5, 0, 0.5]), 'Stub'),
    (e) => e instanceof RequestError && /query 'q': Stub runs capsules whose half_axis is along x, y or z only/.test(e.message));
});

test('passes and up axis', () => {
  const r = parseRequest(base({ gravity: [0, 0, -2], frames: 2 }), engine);
  assert.deepEqual(passesOf(r).map((p) => p.kind), ['move', 'gravity', 'move', 'gravity']);
  assert.deepEqual(upOf(r), [0, 0, 1]);
  const s = parseRequest(base({ gravity: [-3, 0, 0] }), engine);
  assert.deepEqual(upOf(s), [1, 0, 0]);
  const n = parseRequest(base({ frames: 3 }), engine);
  assert.deepEqual(passesOf(n).map((p) => p.kind), ['move', 'move', 'move']);
  assert.deepEqual(upOf(n), [0, 0, 1]);
  // gravity that rounds to zero in float makes no pass, as in slidecheck's rounded query
  const tiny = parseRequest(base({ gravity: [0, 0, '-0x1p-200'] }), engine);
  assert.equal(passesOf(tiny).length, 1);
  assert.deepEqual(upOf(tiny), [0, 0, 1]);
});

test('describe answer and sweep records are hexfloat text', () => {
  assert.deepEqual(describeAnswer(engine), {
    format: 'slidecheck-exec 1', implementation: 'Stub', precisions: ['float'],
    tolerances: { padding: '0x1.47ae14p-6', speed: '0x1p+0' },
  });
  assert.deepEqual(sweepRecord([0, -0, 1], [0.5, 0, 0], 0.25, true, 0.75, 3),
    { start: ['0x0p+0', '-0x0p+0', '0x1p+0'], displacement: ['0x1p-1', '0x0p+0', '0x0p+0'], radius: '0x1p-2', hit: true, time: '0x1.8p-1', triangle: 3 });
  assert.deepEqual(sweepRecord([0, 0, 0], [1, 0, 0], 1, false), { start: ['0x0p+0', '0x0p+0', '0x0p+0'], displacement: ['0x1p+0', '0x0p+0', '0x0p+0'], radius: '0x1p+0', hit: false });
  // A capsule's sweep carries the capsule (docs/formats.md), so the judge sweeps the same body.
  assert.deepEqual(sweepRecord([0, 0, 0], [1, 0, 0], { radius: 0.5, halfAxis: [0, 0, -2] }, true, 0.5, 1),
    { start: ['0x0p+0', '0x0p+0', '0x0p+0'], displacement: ['0x1p+0', '0x0p+0', '0x0p+0'],
      capsule: { radius: '0x1p-1', half_axis: ['0x0p+0', '0x0p+0', '-0x1p+1'] }, hit: true, time: '0x1p-1', triangle: 1 });
  assert.deepEqual(describeAnswer({ ...engine, shapes: ['sphere', 'capsule'] }).shapes, ['sphere', 'capsule']);
});

/** Runs the loop on the given input text with a stub handler; returns the answer lines. */
async function run(text, query = (r) => ({ query_id: r.id, positions: [] })) {
  const input = new PassThrough();
  const output = new PassThrough();
  let out = '';
  output.on('data', (d) => { out += d; });
  const handler = { engine, describe: () => describeAnswer(engine), query };
  const done = runProtocol(handler, input, output);
  input.end(text);
  await done;
  return out.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

test('the loop answers one line per request, in order, and ends at EOF', async () => {
  const lines = [
    '{"describe": true}',
    JSON.stringify(base({ id: 'a' })),
    '',
    'not json',
    '{"describe": false}',
    '{"describe": true, "x": 1}',
    JSON.stringify(base({ id: 'b', radii: [1, 2, 3], radius: undefined })),
    JSON.stringify(base({ id: 'c' })) + '\r',
    JSON.stringify(base({ id: 'd' })), // no newline at EOF
  ];
  const answers = await run(lines.join('\n'));
  assert.equal(answers.length, 8);
  assert.equal(answers[0].format, 'slidecheck-exec 1');
  assert.equal(answers[1].query_id, 'a');
  assert.match(answers[2].error, /invalid JSON/);
  assert.match(answers[3].error, /describe request/);
  assert.match(answers[4].error, /describe request/);
  assert.match(answers[5].error, /ellipsoids are not supported by Stub/);
  assert.equal(answers[6].query_id, 'c');
  assert.equal(answers[7].query_id, 'd');
});

test('an engine failure becomes an error answer and the loop goes on', async () => {
  let n = 0;
  const answers = await run([base({ id: 'x' }), base({ id: 'y' })].map((r) => JSON.stringify(r)).join('\n') + '\n', (r) => {
    if (n++ === 0) throw new Error('engine exploded');
    return { query_id: r.id };
  });
  assert.deepEqual(answers, [{ error: 'engine exploded' }, { query_id: 'y' }]);
});

test('empty input gives no answers', async () => {
  assert.deepEqual(await run(''), []);
});
