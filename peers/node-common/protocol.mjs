// The "slidecheck-exec 1" protocol, client side: JSON lines on stdin, one JSON answer per line on
// stdout. Shared by the engine clients: request checking, the loop, and the answer's shape.
import { createInterface } from 'node:readline';
import { FLOAT, parseNumber, toHex, vecToHex, NumberError } from './hexfloat.mjs';
import { MAX_FRAMES } from './limits.mjs';

export const FORMAT = 'slidecheck-exec 1';

/** A request the client refuses; answered as {"error": message}, and the loop goes on. */
export class RequestError extends Error {}

const QUERY_FIELDS = new Set(['id', 'scene', 'algorithm', 'start', 'displacement', 'radius', 'radii', 'capsule',
  'gravity', 'tolerances', 'frames']);
/** Each shape's field in a query (docs/formats.md), in the order messages name them. */
const SHAPE_FIELDS = [['radius', 'sphere'], ['radii', 'ellipsoid'], ['capsule', 'capsule']];

/** The shapes an engine runs: its `shapes`, or the sphere alone. */
export const shapesOf = (engine) => engine.shapes ?? ['sphere'];
const REQUEST_FIELDS = new Set(['scene', 'query', 'precision', 'tolerances']);

function isObject(x) {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/** A request number in the engine's format: rounded once, as its float API would take it. */
function num(value, where, fmt) {
  try {
    return parseNumber(value, fmt, 'nearest', 'zero');
  } catch (e) {
    if (e instanceof NumberError) throw new RequestError(`${where}: ${e.message}`);
    throw e;
  }
}

function vec(value, where, fmt) {
  if (!Array.isArray(value) || value.length !== 3)
    throw new RequestError(`${where}: expected [x, y, z], got ${JSON.stringify(value)}`);
  return value.map((v, i) => num(v, `${where}[${i}]`, fmt));
}

/**
 * Checks a query request and converts its numbers to the engine's format (float): hexfloats are
 * rounded once from their exact value, decimal strings once from their text, JSON numbers from
 * the double JSON.parse made; what underflows becomes a signed zero, what overflows is refused.
 * `engine` = { name, precisions: ['float'], tolerances: {name: default}, shapes?: ['sphere', ...] };
 * a query of a shape the engine does not list is refused.
 * Returns { scene, id, start, displacement, radius, shape, gravity, gravityNonZero, frames, tolerances }:
 * shape is { kind: 'sphere', radius } or { kind: 'capsule', radius, halfAxis }, radius its radius.
 */
export function parseRequest(req, engine) {
  if (!isObject(req)) throw new RequestError('a request must be a JSON object');
  for (const k of Object.keys(req))
    if (!REQUEST_FIELDS.has(k)) throw new RequestError(`unknown request field '${k}'`);
  const precision = req.precision ?? 'float';
  if (!engine.precisions.includes(precision))
    throw new RequestError(`precision '${precision}' is not supported by ${engine.description ?? engine.name} (${engine.precisions.join(', ')})`);
  const fmt = FLOAT;
  const q = req.query;
  if (!isObject(q)) throw new RequestError("field 'query': expected an object");
  const id = q.id;
  const tag = typeof id === 'string' && id !== '' ? `query '${id}': ` : '';
  const fail = (msg) => { throw new RequestError(tag + msg); };
  for (const k of Object.keys(q)) if (!QUERY_FIELDS.has(k)) fail(`unknown query field '${k}'`);
  if (typeof id !== 'string' || id === '') fail("field 'id': expected a non-empty string");
  const given = SHAPE_FIELDS.filter(([field]) => field in q);
  if (given.length > 1) fail(`both '${given[0][0]}' and '${given[1][0]}' given`);
  if (given.length === 0) fail("missing field 'radius' (or 'capsule')");
  const kind = given[0][1];
  if (!shapesOf(engine).includes(kind)) fail(`${kind}s are not supported by ${engine.description ?? engine.name}`);
  const scene = req.scene;
  if (typeof scene !== 'string' || scene === '') fail("field 'scene': expected the scene file's path");
  if (!('start' in q)) fail("missing field 'start'");
  if (!('displacement' in q)) fail("missing field 'displacement'");
  const wrap = (f) => { try { return f(); } catch (e) { if (e instanceof RequestError) fail(e.message); throw e; } };
  const start = wrap(() => vec(q.start, "field 'start'", fmt));
  const displacement = wrap(() => vec(q.displacement, "field 'displacement'", fmt));
  let shape;
  if (kind === 'capsule') {
    const c = q.capsule;
    if (!isObject(c)) fail("field 'capsule': expected {\"radius\": r, \"half_axis\": [x, y, z]}");
    for (const k of Object.keys(c)) if (k !== 'radius' && k !== 'half_axis') fail(`unknown field 'capsule.${k}'`);
    if (!('radius' in c)) fail("missing field 'capsule.radius'");
    if (!('half_axis' in c)) fail("missing field 'capsule.half_axis'");
    const r = wrap(() => num(c.radius, "field 'capsule.radius'", fmt));
    if (!(r > 0)) fail(`field 'capsule.radius': must be > 0, got ${toHex(r)}`);
    const halfAxis = wrap(() => vec(c.half_axis, "field 'capsule.half_axis'", fmt));
    if (halfAxis.every((x) => x === 0)) fail("field 'capsule.half_axis': must not be zero (a capsule without an axis is a sphere)");
    shape = { kind, radius: r, halfAxis };
  } else {
    const r = wrap(() => num(q.radius, "field 'radius'", fmt));
    if (!(r > 0)) fail(`field 'radius': must be > 0, got ${toHex(r)}`);
    shape = { kind, radius: r };
  }
  const radius = shape.radius;
  let gravity = [0, 0, 0];
  let gravityNonZero = false;
  if (q.gravity !== undefined) {
    // Zero or not is decided on the rounded value, as slidecheck does: a gravity that rounds to
    // zero in the precision has no pass (and the judge expects none).
    gravity = wrap(() => vec(q.gravity, "field 'gravity'", fmt));
    gravityNonZero = gravity.some((g) => g !== 0);
  }
  let frames = 1;
  if (q.frames !== undefined) {
    if (!Number.isInteger(q.frames) || q.frames < 1 || q.frames > MAX_FRAMES)
      fail(`field 'frames': expected an integer from 1 to ${MAX_FRAMES}, got ${JSON.stringify(q.frames)}`);
    frames = q.frames;
  }
  if (q.algorithm !== undefined && typeof q.algorithm !== 'string') fail("field 'algorithm': expected a string");
  if (q.tolerances !== undefined && !isObject(q.tolerances)) fail("field 'tolerances': expected an object");
  const tolerances = { ...engine.tolerances };
  if (req.tolerances !== undefined) {
    if (!isObject(req.tolerances)) fail("field 'tolerances': expected an object of name -> number");
    for (const [name, value] of Object.entries(req.tolerances)) {
      if (!(name in engine.tolerances))
        fail(`unknown tolerance '${name}' for ${engine.description ?? engine.name} (known: ${Object.keys(engine.tolerances).join(', ')})`);
      tolerances[name] = wrap(() => num(value, `tolerance '${name}'`, fmt));
    }
  }
  return { scene, id, start, displacement, radius, shape, gravity, gravityNonZero, frames, tolerances };
}

/** The describe answer. */
export function describeAnswer(engine) {
  const tolerances = {};
  for (const [k, v] of Object.entries(engine.tolerances)) tolerances[k] = toHex(v);
  const answer = { format: FORMAT, implementation: engine.name, precisions: [...engine.precisions], tolerances };
  if (engine.description !== undefined) answer.description = engine.description;
  if (engine.shapes !== undefined) answer.shapes = [...engine.shapes];
  return answer;
}

/**
 * The passes of a query, in order: per frame the move, then gravity when it is non-zero.
 * Each is { kind: 'move' | 'gravity', displacement }.
 */
export function passesOf(request) {
  const passes = [];
  for (let f = 0; f < request.frames; f++) {
    passes.push({ kind: 'move', displacement: request.displacement });
    if (request.gravityNonZero) passes.push({ kind: 'gravity', displacement: request.gravity });
  }
  return passes;
}

/** The up direction the clients give their character: opposite gravity, +z without gravity. */
export function upOf(request) {
  const g = request.gravity;
  const len = Math.hypot(g[0], g[1], g[2]);
  if (!request.gravityNonZero || !(len > 0)) return [0, 0, 1];
  return [0 - g[0] / len, 0 - g[1] / len, 0 - g[2] / len]; // 0 - x: no -0 components
}

/**
 * A sweep record with its numbers as hexfloats. `shape`: the sphere's radius, or the capsule
 * { radius, halfAxis } swept (the record then carries "capsule", which the judge sweeps exactly).
 */
export function sweepRecord(start, displacement, shape, hit, time, triangle) {
  const rec = { start: vecToHex(start), displacement: vecToHex(displacement) };
  if (typeof shape === 'number') rec.radius = toHex(shape);
  else rec.capsule = { radius: toHex(shape.radius), half_axis: vecToHex(shape.halfAxis) };
  rec.hit = hit;
  if (hit) {
    rec.time = toHex(time);
    rec.triangle = triangle;
  }
  return rec;
}

/**
 * Runs the protocol loop until EOF: `handler.describe()` answers {"describe": true};
 * `handler.query(parsedRequest)` answers a query. Any exception becomes {"error": ...}.
 * Lines are handled strictly one after another; every answer is written as one line.
 */
export async function runProtocol(handler, input = process.stdin, output = process.stdout) {
  const write = (obj) => new Promise((resolve, reject) => {
    output.write(JSON.stringify(obj) + '\n', (err) => (err ? reject(err) : resolve()));
  });
  const rl = createInterface({ input, crlfDelay: Infinity, terminal: false });
  for await (const raw of rl) {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line.trim() === '') continue;
    let answer;
    try {
      let req;
      try {
        req = JSON.parse(line);
      } catch (e) {
        throw new RequestError(`invalid JSON: ${e.message}`);
      }
      if (isObject(req) && 'describe' in req) {
        if (req.describe !== true || Object.keys(req).length !== 1)
          throw new RequestError('a describe request is exactly {"describe": true}');
        answer = handler.describe();
      } else {
        answer = await handler.query(parseRequest(req, handler.engine));
      }
    } catch (e) {
      if (!(e instanceof RequestError) && process.env.SLIDECHECK_PEER_DEBUG) console.error(e);
      answer = { error: e instanceof Error ? e.message : String(e) };
    }
    await write(answer);
  }
}

/**
 * Makes stdout carry protocol answers only: console.log and the engines' own printing (Emscripten
 * prints through console.log) go to stderr instead. Exits quietly when the reader closes the pipe.
 */
export function reserveStdout() {
  console.log = console.error;
  console.info = console.error;
  console.debug = console.error;
  process.stdout.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}
