// Scene reader: strict like slidecheck's, exact coordinates (node --test peers/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readScene, parseSceneText, parseSceneBytes, SceneError } from '../scene.mjs';

const DATA = join(dirname(fileURLToPath(import.meta.url)), 'data');

const HEAD = 'slidecheck-scene 1\nunits meter\nsource test\nlicence CC0-1.0\n';
const BODY = 'vertices 3\nv 0 0 0\nv 1 0 0\nv 0 1 0\ntriangles 1\nt 0 1 2\nend\n';
const parse = (text, options) => parseSceneText(text, 't.scene', options);
const fails = (text, re, options) => assert.throws(() => parse(text, options), (e) => e instanceof SceneError && re.test(e.message), text);

test('reads the test scenes', () => {
  const floor = readScene(join(DATA, 'floor.scene'));
  assert.equal(floor.name, 'floor');
  assert.equal(floor.units, 'meter');
  assert.equal(floor.precision, 'float');
  assert.deepEqual(Array.from(floor.vertices.slice(0, 6)), [-2, -2, 0, 2, -2, 0]);
  assert.deepEqual(Array.from(floor.triangles), [0, 1, 2, 0, 2, 3]);
  const shuffled = readScene(join(DATA, 'shuffled.scene'));
  assert.deepEqual(shuffled.degenerate, [0]);
  assert.equal(readScene(join(DATA, 'corner.scene')).triangles.length, 18);
  assert.equal(readScene(join(DATA, 'far.scene')).vertices[3], 2 ** 20 + 4);
});

test('headers, comments, blank lines, CRLF and a UTF-8 byte-order mark', () => {
  const s = parse('# lead comment\n\nslidecheck-scene 1 # magic\r\nname  my  scene  \r\nunits meter\nsource a b c\n' +
    'licence CC0-1.0\nprecision double\nvertices 3\n\nv 0 0 0 # origin\nv 0x1p+0 0 0\n# between\nv 0 1 0\ntriangles 1\nt 0 1 2\nend\n# trailing\n');
  assert.equal(s.name, 'my  scene');
  assert.equal(s.source, 'a b c');
  const bom = parseSceneBytes(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(HEAD + BODY)]), 'bom.scene');
  assert.equal(bom.triangles.length, 3);
  assert.equal(parse(HEAD.replace('\n', ' \t\n') + BODY.replace('v 1 0 0', 'v\t1  0\t0')).vertices[3], 1);
});

test('coordinates: exact hexfloats, decimals rounded once to the declared precision', () => {
  const dbl = parse(HEAD + BODY.replace('v 1 0 0', 'v 0.1 0x1.0000000000001p+0 -0x0p+0'));
  assert.equal(dbl.vertices[3], 0.1);
  assert.equal(dbl.vertices[4], 1 + Number.EPSILON);
  assert.ok(Object.is(dbl.vertices[5], -0));
  const flt = parse(HEAD + 'precision float\n' + BODY.replace('v 1 0 0', 'v 0.1 1.00000005960464477539062501 0'));
  assert.equal(flt.vertices[3], Math.fround(0.1));
  assert.equal(flt.vertices[4], 1 + 2 ** -23);
  fails(HEAD + 'precision float\n' + BODY.replace('v 1 0 0', 'v 0x1.0000000000001p+0 0 0'), /t.scene:8: coordinate x: .*not exact/);
  fails(HEAD + BODY.replace('v 1 0 0', 'v nan 0 0'), /t.scene:7: coordinate x/);
  fails(HEAD + BODY.replace('v 1 0 0', 'v 1 inf 0'), /coordinate y/);
  fails(HEAD + BODY.replace('v 1 0 0', 'v 1 0 1e999'), /coordinate z: .*overflows/);
  fails(HEAD + BODY.replace('v 1 0 0', 'v 1.0x 0 0'), /coordinate x/);
});

test('structure errors name their line', () => {
  fails('', /t.scene:0: empty/);
  fails('# only a comment\n', /t.scene:0: empty/);
  fails('slidecheck-scene 2\n', /t.scene:1: expected 'slidecheck-scene 1'/);
  fails('units meter\n' + HEAD, /t.scene:1:/);
  fails(HEAD + 'units meter\n' + BODY, /t.scene:5: repeated statement 'units'/);
  fails(HEAD + 'colour red\n' + BODY, /t.scene:5: unknown statement 'colour'/);
  fails(HEAD.replace('units meter\n', '') + BODY, /missing 'units'/);
  fails(HEAD.replace('licence CC0-1.0\n', '') + BODY, /missing 'licence'/);
  fails(HEAD + 'precision half\n' + BODY, /t.scene:5: precision must be/);
  fails(HEAD + 'name\n' + BODY, /t.scene:5: 'name' needs a text/);
  fails(HEAD + 'degenerate sometimes\n' + BODY, /expected 'degenerate allowed'/);
  fails(HEAD + BODY.replace('vertices 3', 'vertices 4'), /expected 'v' line 4 of 4, got 'triangles'/);
  fails(HEAD + BODY.replace('vertices 3', 'vertices 2'), /expected 'triangles N', got 'v'/);
  fails(HEAD + BODY.replace('vertices 3', 'vertices -3'), /non-negative integer/);
  fails(HEAD + BODY.replace('v 0 1 0', 'v 0 1'), /t.scene:8: a 'v' line needs 3 coordinates, got 2/);
  fails(HEAD + BODY.replace('v 0 1 0', 'v 0 1 0 1'), /got 4/);
  fails(HEAD + BODY.replace('t 0 1 2', 't 0 1 3'), /t.scene:10: vertex index 3 out of range/);
  fails(HEAD + BODY.replace('t 0 1 2', 't 0 1 -2'), /not a non-negative decimal integer/);
  fails(HEAD + BODY.replace('t 0 1 2', 't 0 1'), /needs 3 vertex indices/);
  fails(HEAD + BODY.replace('triangles 1', 'triangles 0').replace('t 0 1 2\n', ''), /at least one triangle/);
  fails(HEAD + BODY.replace('triangles 1', 'triangles 2'), /expected 't' line 2 of 2, got 'end'/);
  fails(HEAD + BODY.replace('end\n', ''), /t.scene:0: missing 'end'/);
  fails(HEAD + BODY + 'v 0 0 0\n', /t.scene:12: only comments may follow 'end'/);
  fails(HEAD + BODY.replace('end', 'end now'), /expected 'end'/);
});

test('zero-area triangles: refused unless allowed, decided exactly', () => {
  const degenerate = BODY.replace('v 0 1 0', 'v 2 0 0');
  fails(HEAD + degenerate, /t.scene:10: triangle 0 has zero area/);
  assert.deepEqual(parse(HEAD + 'degenerate allowed\n' + degenerate).degenerate, [0]);
  assert.deepEqual(parse(HEAD + degenerate, { allowDegenerate: true }).degenerate, [0]);
  // Nearly collinear: a double cross product would round it to zero; the exact one does not.
  const thin = BODY.replace('v 1 0 0', 'v 0x1p+0 0x1p+0 0').replace('v 0 1 0', 'v 0x1p+60 0x1.0000000000001p+60 0');
  assert.deepEqual(parse(HEAD + thin).degenerate, []);
  // Collinear with coordinates 2^-1074 apart in scale: still exactly zero area.
  const tiny = BODY.replace('v 1 0 0', 'v 0x0.0000000000001p-1022 0 0').replace('v 0 1 0', 'v 0x0.0000000000002p-1022 0 0');
  assert.deepEqual(parse(HEAD + tiny, { allowDegenerate: true }).degenerate, [0]);
  const big = BODY.replace('v 1 0 0', 'v 0x1p+1000 0x1p-1000 0').replace('v 0 1 0', 'v 0x1p+1001 0x1p-999 0');
  assert.deepEqual(parse(HEAD + big, { allowDegenerate: true }).degenerate, [0]);
});

test('encodings: UTF-16/32 byte-order marks and NUL bytes are refused', () => {
  const bytes = (...b) => Buffer.from(b);
  assert.throws(() => parseSceneBytes(bytes(0xff, 0xfe, 0x73, 0), 'u16.scene'), /u16.scene:0: UTF-16/);
  assert.throws(() => parseSceneBytes(bytes(0xfe, 0xff, 0, 0x73), 'u16.scene'), /UTF-16/);
  assert.throws(() => parseSceneBytes(bytes(0, 0, 0xfe, 0xff), 'u32.scene'), /UTF-32/);
  assert.throws(() => parseSceneBytes(Buffer.from(HEAD + 'na\0me x\n' + BODY), 'nul.scene'), /nul.scene:5: NUL byte/);
  assert.throws(() => readScene(join(DATA, 'no-such.scene')), /no-such.scene:0: cannot read the file: ENOENT/);
});
