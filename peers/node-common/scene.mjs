// Reader of slidecheck scene files (`.scene`, docs/formats.md), strict like the C++ reader:
// every problem is an error `file:line: problem`. Coordinates are read in the file's declared
// precision (hexfloats exact, decimals rounded once), held as doubles.
import { readFileSync } from 'node:fs';
import { formatOf, parseNumber, NumberError } from './hexfloat.mjs';

export class SceneError extends Error {}

/** Reads and parses a scene file. */
export function readScene(path, options = {}) {
  let bytes;
  try {
    bytes = readFileSync(path);
  } catch (e) {
    throw new SceneError(`${path}:0: cannot read the file: ${e.code ?? e.message}`);
  }
  return parseSceneBytes(bytes, path, options);
}

/** Parses the bytes of a scene file; `name` is used in error messages. */
export function parseSceneBytes(bytes, name, options = {}) {
  const fail = (line, msg) => { throw new SceneError(`${name}:${line}: ${msg}`); };
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff))
    fail(0, 'UTF-16/UTF-32 byte-order mark: convert the file to UTF-8 (e.g. iconv -t UTF-8)');
  if (bytes[0] === 0 && bytes[1] === 0 && bytes[2] === 0xfe && bytes[3] === 0xff)
    fail(0, 'UTF-32 byte-order mark: convert the file to UTF-8 (e.g. iconv -t UTF-8)');
  const nul = bytes.indexOf(0);
  if (nul >= 0) {
    let line = 1;
    for (let i = 0; i < nul; i++) if (bytes[i] === 0x0a) line++;
    fail(line, 'NUL byte: this is a binary file, not a scene');
  }
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return parseSceneText(text, name, options);
}

/**
 * Parses scene text. Returns { name, units, source, licence, precision, degenerateAllowed,
 * vertices: Float64Array (x,y,z per vertex), triangles: Uint32Array (i,j,k per triangle),
 * degenerate: [triangle indices of zero area] }.
 * options.allowDegenerate accepts zero-area triangles even when the file does not say so.
 */
export function parseSceneText(text, name = '<scene>', options = {}) {
  const fail = (line, msg) => { throw new SceneError(`${name}:${line}: ${msg}`); };
  const lines = text.split('\n');
  // Statements: [lineNumber, tokens, restOfLineAfterKeyword]
  const stmts = [];
  for (let i = 0; i < lines.length; i++) {
    let l = lines[i];
    if (l.endsWith('\r')) l = l.slice(0, -1);
    const hash = l.indexOf('#');
    if (hash >= 0) l = l.slice(0, hash);
    const trimmed = l.trim();
    if (trimmed === '') continue;
    const tokens = trimmed.split(/[ \t]+/);
    const rest = trimmed.slice(tokens[0].length).trim();
    stmts.push([i + 1, tokens, rest]);
  }
  if (stmts.length === 0) fail(0, 'empty file (no statements)');
  let k = 0;
  const [magicLine, magic] = stmts[k++];
  if (magic[0] !== 'slidecheck-scene' || magic.length !== 2 || magic[1] !== '1')
    fail(magicLine, "expected 'slidecheck-scene 1' as the first statement");

  const header = { name: undefined, units: undefined, source: undefined, licence: undefined, precision: 'double', degenerate: false };
  const seen = new Set();
  for (; k < stmts.length; k++) {
    const [line, tokens, rest] = stmts[k];
    const key = tokens[0];
    if (key === 'vertices') break;
    if (!['name', 'units', 'source', 'licence', 'precision', 'degenerate'].includes(key))
      fail(line, `unknown statement '${key}' (expected a header or 'vertices')`);
    if (seen.has(key)) fail(line, `repeated statement '${key}'`);
    seen.add(key);
    if (key === 'precision') {
      if (tokens.length !== 2 || (tokens[1] !== 'float' && tokens[1] !== 'double'))
        fail(line, "precision must be 'float' or 'double'");
      header.precision = tokens[1];
    } else if (key === 'degenerate') {
      if (tokens.length !== 2 || tokens[1] !== 'allowed') fail(line, "expected 'degenerate allowed'");
      header.degenerate = true;
    } else {
      if (rest === '') fail(line, `'${key}' needs a text`);
      header[key] = rest;
    }
  }
  for (const req of ['units', 'source', 'licence'])
    if (!seen.has(req)) fail(k < stmts.length ? stmts[k][0] : 0, `missing '${req}' header`);
  const fmt = formatOf(header.precision);

  const count = (keyword) => {
    if (k >= stmts.length) fail(0, `missing '${keyword}'`);
    const [line, tokens] = stmts[k];
    if (tokens[0] !== keyword) fail(line, `expected '${keyword} N', got '${tokens[0]}'`);
    if (tokens.length !== 2 || !/^[0-9]+$/.test(tokens[1])) fail(line, `expected '${keyword} N' with N a non-negative integer`);
    const n = Number(tokens[1]);
    if (!Number.isSafeInteger(n) || n > 0xffffffff) fail(line, `${keyword} count too large`);
    k++;
    return n;
  };

  const nv = count('vertices');
  const vertices = new Float64Array(3 * nv);
  for (let v = 0; v < nv; v++, k++) {
    if (k >= stmts.length) fail(0, `only ${v} of ${nv} 'v' lines`);
    const [line, tokens] = stmts[k];
    if (tokens[0] !== 'v') fail(line, `expected 'v' line ${v + 1} of ${nv}, got '${tokens[0]}'`);
    if (tokens.length !== 4) fail(line, `a 'v' line needs 3 coordinates, got ${tokens.length - 1}`);
    for (let c = 0; c < 3; c++) {
      try {
        vertices[3 * v + c] = parseNumber(tokens[1 + c], fmt, 'exact');
      } catch (e) {
        if (e instanceof NumberError) fail(line, `coordinate ${'xyz'[c]}: ${e.message}`);
        throw e;
      }
    }
  }
  const nt = count('triangles');
  if (nt < 1) fail(stmts[k - 1][0], 'a scene needs at least one triangle');
  const triangles = new Uint32Array(3 * nt);
  const triangleLines = new Uint32Array(nt);
  for (let t = 0; t < nt; t++, k++) {
    if (k >= stmts.length) fail(0, `only ${t} of ${nt} 't' lines`);
    const [line, tokens] = stmts[k];
    if (tokens[0] !== 't') fail(line, `expected 't' line ${t + 1} of ${nt}, got '${tokens[0]}'`);
    if (tokens.length !== 4) fail(line, `a 't' line needs 3 vertex indices, got ${tokens.length - 1}`);
    for (let c = 0; c < 3; c++) {
      const s = tokens[1 + c];
      if (!/^[0-9]+$/.test(s)) fail(line, `vertex index '${s}' is not a non-negative decimal integer`);
      const idx = Number(s);
      if (idx >= nv) fail(line, `vertex index ${s} out of range (${nv} vertices)`);
      triangles[3 * t + c] = idx;
    }
    triangleLines[t] = line;
  }
  if (k >= stmts.length) fail(0, "missing 'end'");
  const [endLine, endTokens] = stmts[k];
  if (endTokens[0] !== 'end' || endTokens.length !== 1)
    fail(endLine, `expected 'end', got '${endTokens.join(' ')}'`);
  if (k + 1 < stmts.length) fail(stmts[k + 1][0], "only comments may follow 'end'");

  const degenerate = [];
  for (let t = 0; t < nt; t++) {
    if (zeroArea(vertices, triangles[3 * t], triangles[3 * t + 1], triangles[3 * t + 2])) {
      if (!header.degenerate && !options.allowDegenerate)
        fail(triangleLines[t], `triangle ${t} has zero area (allow with 'degenerate allowed')`);
      degenerate.push(t);
    }
  }
  return {
    name: header.name, units: header.units, source: header.source, licence: header.licence,
    precision: header.precision, degenerateAllowed: header.degenerate, vertices, triangles, degenerate,
  };
}

const dv = new DataView(new ArrayBuffer(8));

/** A double as an integer significand and a power of two (x = m * 2^e), both exact. */
function decompose(x) {
  dv.setFloat64(0, x);
  const hi = dv.getUint32(0), lo = dv.getUint32(4);
  const biased = (hi >>> 20) & 0x7ff;
  let m = (BigInt(hi & 0xfffff) << 32n) | BigInt(lo);
  let e;
  if (biased === 0) e = -1074;
  else { m |= 1n << 52n; e = biased - 1075; }
  return { m: hi >>> 31 ? -m : m, e };
}

/** Whether (p1-p0) x (p2-p0) is exactly zero, evaluated in integers scaled to the smallest exponent. */
export function zeroArea(vertices, i0, i1, i2) {
  const parts = [];
  for (const i of [i0, i1, i2]) for (let c = 0; c < 3; c++) parts.push(decompose(vertices[3 * i + c]));
  let emin = Infinity;
  for (const p of parts) if (p.m !== 0n && p.e < emin) emin = p.e;
  if (emin === Infinity) return true; // all coordinates zero
  const n = parts.map((p) => p.m << BigInt(p.e - emin));
  const a = [n[3] - n[0], n[4] - n[1], n[5] - n[2]];
  const b = [n[6] - n[0], n[7] - n[1], n[8] - n[2]];
  return a[1] * b[2] - a[2] * b[1] === 0n && a[2] * b[0] - a[0] * b[2] === 0n && a[0] * b[1] - a[1] * b[0] === 0n;
}
