// Exact number text: %a output, hexfloat/decimal input rounded once (node --test peers/).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DOUBLE, FLOAT, toHex, parseHex, parseDecimal, parseNumber, NumberError } from '../hexfloat.mjs';

const same = (a, b, msg) => assert.ok(Object.is(a, b), `${msg ?? ''} ${a} (${toHex(a)}) is not ${b} (${toHex(b)})`);

/** A double from raw bits (hi, lo 32-bit words). */
function fromBits(hi, lo) {
  const dv = new DataView(new ArrayBuffer(8));
  dv.setUint32(0, hi >>> 0);
  dv.setUint32(4, lo >>> 0);
  return dv.getFloat64(0);
}

/** A small deterministic generator (xorshift32), so failures reproduce. */
function rng(seed) {
  let s = seed >>> 0 || 1;
  return () => { s ^= s << 13; s >>>= 0; s ^= s >>> 17; s ^= s << 5; s >>>= 0; return s; };
}

// Expected texts checked against glibc's printf("%a").
test('toHex writes C99 %a as glibc does', () => {
  const cases = [
    [0, '0x0p+0'], [-0, '-0x0p+0'], [1, '0x1p+0'], [-1, '-0x1p+0'], [3, '0x1.8p+1'], [0.5, '0x1p-1'],
    [0.1, '0x1.999999999999ap-4'], [Math.fround(0.1), '0x1.99999ap-4'], [1e6, '0x1.e848p+19'],
    [Number.MIN_VALUE, '0x0.0000000000001p-1022'], [2 ** -1022, '0x1p-1022'],
    [2 ** -1022 - Number.MIN_VALUE, '0x0.fffffffffffffp-1022'], [-(2 ** -1030), '-0x0.01p-1022'],
    [Number.MAX_VALUE, '0x1.fffffffffffffp+1023'], [-Number.MAX_VALUE, '-0x1.fffffffffffffp+1023'],
    [2 ** -149, '0x1p-149'], [3.4028234663852886e38, '0x1.fffffep+127'], [2 ** 1023, '0x1p+1023'],
    [1 + Number.EPSILON, '0x1.0000000000001p+0'],
  ];
  for (const [x, h] of cases) assert.equal(toHex(x), h, `toHex(${x})`);
  for (const bad of [NaN, Infinity, -Infinity, '1', undefined]) assert.throws(() => toHex(bad), NumberError);
});

test('hexfloat round trip is bit-exact: random bit patterns, subnormals, -0, extremes', () => {
  const next = rng(12345);
  const values = [0, -0, Number.MIN_VALUE, -Number.MIN_VALUE, Number.MAX_VALUE, -Number.MAX_VALUE, 2 ** -1022,
    2 ** -1022 - Number.MIN_VALUE, 1, Math.PI];
  for (let i = 0; i < 20000; i++) {
    const hi = next();
    const lo = next();
    // every third one subnormal: biased exponent 0
    const x = fromBits(i % 3 === 0 ? hi & 0x800fffff : hi, lo);
    if (Number.isFinite(x)) values.push(x);
  }
  for (const x of values) {
    same(parseHex(toHex(x)), x, 'round trip');
    same(parseNumber(toHex(x)), x, 'round trip through parseNumber');
  }
});

test('float values round trip in FLOAT exactly', () => {
  const next = rng(777);
  const f = new Float32Array(1);
  const u = new Uint32Array(f.buffer);
  for (let i = 0; i < 20000; i++) {
    u[0] = next();
    if (i % 4 === 0) u[0] &= 0x807fffff; // subnormal floats
    const x = f[0];
    if (!Number.isFinite(x)) continue;
    same(parseHex(toHex(x), FLOAT), x, 'float round trip');
    same(parseDecimal(String(x), FLOAT), x, 'shortest double decimal of a float, read to float');
  }
});

test('hexfloats are exact: too many bits, below the smallest subnormal or above the largest are errors', () => {
  assert.equal(parseHex('0x1.0000000000001p+0'), 1 + Number.EPSILON);
  assert.throws(() => parseHex('0x1.00000000000008p+0'), /not exact/); // 53 fraction bits
  assert.throws(() => parseHex('0x1.000001p+0', FLOAT), /not exact/);
  assert.equal(parseHex('0x1.000002p+0', FLOAT), 1 + 2 ** -23);
  assert.throws(() => parseHex('0x1p-1075'), /subnormal/);
  assert.throws(() => parseHex('0x1p-150', FLOAT), /subnormal/);
  assert.throws(() => parseHex('0x1p+1024'), /overflows/);
  assert.throws(() => parseHex('0x1p+128', FLOAT), /overflows/);
  assert.throws(() => parseHex('0x1p+99999999999'), /overflows/);
  assert.throws(() => parseHex('0x1p-99999999999'), /subnormal/);
  same(parseHex('0x0p+99999999999'), 0);
  same(parseHex('-0x0p+0'), -0);
  assert.equal(parseHex('0X1.8P+1'), 3); // case-insensitive
  assert.equal(parseHex('0x18p-3'), 3); // non-normalized mantissa
  assert.equal(parseHex('0x1'), 1); // exponent optional
  assert.equal(parseHex('0x0.0000000000001p-1022'), Number.MIN_VALUE);
  assert.equal(parseHex('0x1.fffffffffffffp+1023'), Number.MAX_VALUE);
  for (const bad of ['0x', '0x.8p0', '0x1.p0', '1.0x', ' 0x1p0', '0x1p0 ', '0x1p', '0x1g', '0x1p+-1', '0xp1', 'x1'])
    assert.throws(() => parseHex(bad), NumberError, bad);
});

test('hexfloats in nearest mode round once from their exact value', () => {
  // exactly between two floats, ties to even
  assert.equal(parseHex('0x1.000001p+0', FLOAT, 'nearest'), 1);
  assert.equal(parseHex('0x1.000003p+0', FLOAT, 'nearest'), 1 + 2 ** -22);
  // a hair above the tie (not a double: needs more bits than 53) rounds up
  assert.equal(parseHex('0x1.0000010000000000001p+0', FLOAT, 'nearest'), 1 + 2 ** -23);
  assert.equal(parseNumber('0x1.99999999999999999999p-4', FLOAT, 'nearest'), Math.fround(0.1));
  assert.throws(() => parseHex('0x1p-151', FLOAT, 'nearest'), /rounds to zero/);
  assert.equal(parseHex('0x1.8p-150', FLOAT, 'nearest'), 2 ** -149); // above half the smallest: up
});

test('decimals round once to nearest, ties to even, directly to the target format', () => {
  assert.equal(parseDecimal('0.1'), 0.1);
  assert.equal(parseDecimal('.5'), 0.5);
  assert.equal(parseDecimal('5.'), 5);
  assert.equal(parseDecimal('-2.5e-3'), -2.5e-3);
  same(parseDecimal('-0.0'), -0);
  same(parseDecimal('0e999999999999'), 0);
  // docs/formats.md's case: rounding through double would give 1
  assert.equal(toHex(parseDecimal('1.00000005960464477539062501', FLOAT)), '0x1.000002p+0');
  assert.equal(Math.fround(Number('1.00000005960464477539062501')), 1);
  assert.equal(parseDecimal('1.000000059604644775390625', FLOAT), 1); // the tie itself: to even
  assert.equal(parseDecimal('4.9406564584124654e-324'), Number.MIN_VALUE);
  assert.equal(parseDecimal('2.4703282292062328e-324'), Number.MIN_VALUE); // just above half: up
  assert.throws(() => parseDecimal('2.4703282292062327e-324'), /rounds to zero/); // below half
  assert.throws(() => parseDecimal('1e-400'), /rounds to zero/);
  assert.throws(() => parseDecimal('1e309'), /overflows/);
  assert.throws(() => parseDecimal('3.5e38', FLOAT), /overflows/);
  assert.equal(parseDecimal('1.7976931348623157e308'), Number.MAX_VALUE);
  assert.equal(parseDecimal('1.7976931348623158e308'), Number.MAX_VALUE); // below the overflow midpoint
  assert.throws(() => parseDecimal('1.7976931348623159e308'), /overflows/); // above it
  for (const bad of ['', '.', 'e5', '1e', '1.2.3', '+-1', '1e+', '0x1', '1,5', ' 1', '1 ', 'nan', 'inf'])
    assert.throws(() => parseDecimal(bad), NumberError, bad);
});

test('decimal reading agrees with the correctly rounded JS parser on random texts', () => {
  const next = rng(4242);
  for (let i = 0; i < 5000; i++) {
    const digits = String(next()) + String(next()).padStart(10, '0');
    const cut = next() % digits.length;
    const exp = (next() % 700) - 350;
    const text = `${next() & 1 ? '-' : ''}${digits.slice(0, cut)}.${digits.slice(cut)}e${exp}`;
    const expected = Number(text);
    if (!Number.isFinite(expected) || expected === 0) continue;
    same(parseDecimal(text), expected, text);
  }
});

test('parseNumber takes hexfloat strings, decimal strings and JSON numbers; refuses the rest', () => {
  assert.equal(parseNumber(0.1), 0.1);
  same(parseNumber(-0), -0);
  assert.equal(parseNumber(0.1, FLOAT), Math.fround(0.1));
  assert.equal(parseNumber('0.1', FLOAT), Math.fround(0.1));
  assert.equal(parseNumber('0x1.8p+1', DOUBLE), 3);
  assert.throws(() => parseNumber('0x1.000001p+0', FLOAT), /not exact/);
  assert.equal(parseNumber('0x1.000001p+0', FLOAT, 'nearest'), 1);
  assert.throws(() => parseNumber(1e39, FLOAT), /overflows/);
  assert.throws(() => parseNumber(1e-50, FLOAT), /rounds to zero/);
  for (const bad of ['nan', 'NaN', 'inf', '-Infinity', 'infinity', '', ' 1', '1 ', '1.0x', null, true, [1], {}, NaN, Infinity])
    assert.throws(() => parseNumber(bad), NumberError, String(bad));
});

test("underflow 'zero' gives the signed zero a float API would get", () => {
  same(parseNumber('-0x1p-200', FLOAT, 'nearest', 'zero'), -0);
  same(parseNumber('1e-50', FLOAT, 'nearest', 'zero'), 0);
  same(parseNumber('-1e-99999999', FLOAT, 'nearest', 'zero'), -0);
  same(parseNumber(-1e-50, FLOAT, 'nearest', 'zero'), -0);
  assert.equal(parseNumber('0x1.8p-150', FLOAT, 'nearest', 'zero'), 2 ** -149);
  assert.throws(() => parseNumber('1e39', FLOAT, 'nearest', 'zero'), /overflows/);
});
