// Exact number text for slidecheck's formats (docs/formats.md): C99 %a output of a double, and
// hexfloat/decimal input rounded once, to nearest with ties to even, to double or float.
// Everything goes through BigInt, so no step rounds twice.

/** Binary formats a text can be read into: significand bits, smallest normal and largest exponent. */
export const DOUBLE = Object.freeze({ name: 'double', bits: 53, emin: -1022, emax: 1023 });
export const FLOAT = Object.freeze({ name: 'float', bits: 24, emin: -126, emax: 127 });

export function formatOf(name) {
  if (name === 'double') return DOUBLE;
  if (name === 'float') return FLOAT;
  throw new NumberError(`unknown precision '${name}' (float or double)`);
}

/** A number text that is malformed or that the target format cannot hold. */
export class NumberError extends Error {}

const scratch = new DataView(new ArrayBuffer(8));

/** The IEEE fields of a double: sign, biased exponent, 52-bit fraction (BigInt). */
function fieldsOf(x) {
  scratch.setFloat64(0, x);
  const hi = scratch.getUint32(0);
  const lo = scratch.getUint32(4);
  return {
    negative: hi >>> 31 === 1,
    biased: (hi >>> 20) & 0x7ff,
    fraction: (BigInt(hi & 0xfffff) << 32n) | BigInt(lo),
  };
}

/**
 * The C99 `%a` text of a double, as glibc's printf writes it: "0x1.8p+1", "-0x0p+0",
 * subnormals as "0x0.0000000000001p-1022", no trailing zero digits. Exact by construction.
 */
export function toHex(x) {
  if (typeof x !== 'number' || !Number.isFinite(x)) throw new NumberError(`not a finite number: ${x}`);
  const { negative, biased, fraction } = fieldsOf(x);
  const sign = negative ? '-' : '';
  if (biased === 0 && fraction === 0n) return `${sign}0x0p+0`;
  const digits = fraction.toString(16).padStart(13, '0').replace(/0+$/, '');
  const lead = biased === 0 ? '0' : '1';
  const exp = biased === 0 ? -1022 : biased - 1023;
  return `${sign}0x${lead}${digits ? '.' + digits : ''}p${exp < 0 ? '-' : '+'}${Math.abs(exp)}`;
}

/** Hexfloat text of a vector. */
export function vecToHex(v) {
  return [toHex(v[0]), toHex(v[1]), toHex(v[2])];
}

const HEX_RE = /^([+-]?)0[xX]([0-9a-fA-F]+)(?:\.([0-9a-fA-F]+))?(?:[pP]([+-]?[0-9]+))?$/;
const DEC_RE = /^([+-]?)([0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE]([+-]?[0-9]+))?$/;

function bitLength(n) {
  return n === 0n ? 0 : n.toString(2).length;
}

// Exponents beyond this cannot matter for any format here and would make BigInt powers huge.
const EXP_LIMIT = 100000;

function parseExponent(text, what) {
  if (text === undefined) return 0;
  const digits = text.replace(/^[+-]/, '').replace(/^0+(?=.)/, '');
  if (digits.length > 7) return text.startsWith('-') ? -Infinity : Infinity;
  const e = Number(text);
  if (!Number.isSafeInteger(e)) throw new NumberError(`bad ${what} exponent`);
  return e;
}

/**
 * Rounds the exact value (-1)^neg * num / den (num, den BigInt, den > 0) to `fmt`.
 * mode 'nearest' rounds to nearest, ties to even; 'exact' refuses any value that needs rounding.
 * underflow 'zero' gives a signed zero for a value that rounds to zero; 'error' refuses it.
 * Returns a JS number (a double, which holds every value of both formats exactly).
 */
function roundRational(negative, num, den, fmt, mode, text, underflow) {
  if (num === 0n) return negative ? -0 : 0;
  // e = floor(log2(num/den)).
  let e = bitLength(num) - bitLength(den);
  const ge = (k) => (k >= 0 ? num >= den << BigInt(k) : num << BigInt(-k) >= den);
  if (!ge(e)) e -= 1;
  if (e > fmt.emax) throw new NumberError(`${text} overflows ${fmt.name}`);
  // Value of the last significand bit at this magnitude (subnormals share the smallest one).
  const ulpExp = Math.max(e, fmt.emin) - (fmt.bits - 1);
  let n = num, d = den;
  if (ulpExp >= 0) d <<= BigInt(ulpExp);
  else n <<= BigInt(-ulpExp);
  let q = n / d;
  const r2 = (n - q * d) * 2n;
  if (r2 !== 0n) {
    if (mode === 'exact') {
      const why = e < fmt.emin - fmt.bits + 1 ? 'is below the smallest subnormal' : 'has more significant bits than';
      throw new NumberError(`${text} ${why} ${fmt.name} holds (not exact)`);
    }
    if (r2 > d || (r2 === d && (q & 1n) === 1n)) q += 1n;
  }
  if (q === 0n) {
    if (underflow === 'zero') return negative ? -0 : 0;
    throw new NumberError(`${text} is non-zero but rounds to zero in ${fmt.name}`);
  }
  // Rounding up may carry into the next binade; check the largest finite value again.
  if (bitLength(q) + ulpExp - 1 > fmt.emax) throw new NumberError(`${text} overflows ${fmt.name}`);
  // q < 2^(bits+1) and the result is representable, so this product is exact.
  const value = Number(q) * 2 ** ulpExp;
  if (!Number.isFinite(value)) throw new NumberError(`${text} overflows ${fmt.name}`);
  return negative ? -value : value;
}

/**
 * Parses a hexfloat text. mode 'exact' (the files' rule) refuses a value `fmt` cannot hold
 * exactly; 'nearest' rounds the exact value once.
 */
export function parseHex(text, fmt = DOUBLE, mode = 'exact', underflow = 'error') {
  const m = HEX_RE.exec(text);
  if (!m) throw new NumberError(`'${text}' is not a hexfloat`);
  const [, sign, intDigits, fracDigits = '', expText] = m;
  const exp = parseExponent(expText, 'binary') - 4 * fracDigits.length;
  const mant = BigInt('0x' + intDigits + fracDigits);
  const negative = sign === '-';
  if (mant === 0n) return negative ? -0 : 0;
  const mag = bitLength(mant) + exp;
  if (mag > fmt.emax + 1) throw new NumberError(`${text} overflows ${fmt.name}`);
  if (mag < fmt.emin - fmt.bits - 1) {
    if (mode !== 'exact' && underflow === 'zero') return negative ? -0 : 0;
    throw new NumberError(mode === 'exact'
      ? `${text} is below the smallest subnormal ${fmt.name} holds (not exact)`
      : `${text} is non-zero but rounds to zero in ${fmt.name}`);
  }
  return exp >= 0
    ? roundRational(negative, mant << BigInt(exp), 1n, fmt, mode, text, underflow)
    : roundRational(negative, mant, 1n << BigInt(-exp), fmt, mode, text, underflow);
}

/** Parses a decimal text, rounded once to `fmt` (to nearest, ties to even). */
export function parseDecimal(text, fmt = DOUBLE, underflow = 'error') {
  const m = DEC_RE.exec(text);
  if (!m) throw new NumberError(`'${text}' is not a decimal number`);
  const [, sign, body, expText] = m;
  const dot = body.indexOf('.');
  const intPart = dot < 0 ? body : body.slice(0, dot);
  const fracPart = dot < 0 ? '' : body.slice(dot + 1);
  const digits = (intPart + fracPart).replace(/^0+/, '');
  const negative = sign === '-';
  if (digits === '') return negative ? -0 : 0;
  const exp10 = parseExponent(expText, 'decimal') - fracPart.length;
  // log2 of the value is within digits.length*log2(10) + exp10*log2(10) (+-1 digit).
  const mag10 = digits.length + exp10;
  if (mag10 > (fmt.emax + 2) * 0.30103 + 2) throw new NumberError(`${text} overflows ${fmt.name}`);
  if (mag10 < (fmt.emin - fmt.bits - 2) * 0.30103 - 2) {
    if (underflow === 'zero') return negative ? -0 : 0;
    throw new NumberError(`${text} is non-zero but rounds to zero in ${fmt.name}`);
  }
  if (Math.abs(exp10) > EXP_LIMIT) throw new NumberError(`${text}: exponent out of range`);
  const mant = BigInt(digits);
  return exp10 >= 0
    ? roundRational(negative, mant * 10n ** BigInt(exp10), 1n, fmt, 'nearest', text, underflow)
    : roundRational(negative, mant, 10n ** BigInt(-exp10), fmt, 'nearest', text, underflow);
}

/**
 * A number as the formats allow it: a hexfloat or decimal string, or a JSON number (already a
 * double, correctly rounded by JSON.parse; to float it is rounded a second time, from that double).
 * `hexMode`: 'exact' refuses a hexfloat `fmt` cannot hold (files); 'nearest' rounds it once from its
 * exact value (an engine taking a double into its float API does the same).
 * `underflow`: 'error' refuses a non-zero value that rounds to zero (files); 'zero' gives the
 * signed zero a float API would get.
 */
export function parseNumber(value, fmt = DOUBLE, hexMode = 'exact', underflow = 'error') {
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new NumberError(`not a finite number: ${value}`);
    if (fmt === DOUBLE) return value;
    const f = Math.fround(value);
    if (!Number.isFinite(f)) throw new NumberError(`${value} overflows float`);
    if (f === 0 && value !== 0 && underflow !== 'zero') throw new NumberError(`${value} is non-zero but rounds to zero in float`);
    return f;
  }
  if (typeof value !== 'string') throw new NumberError(`expected a number or a number string, got ${JSON.stringify(value)}`);
  if (/^[+-]?0[xX]/.test(value)) return parseHex(value, fmt, hexMode, underflow);
  if (/^\s|\s$/.test(value) || value === '') throw new NumberError(`'${value}' is not a number`);
  if (/^[+-]?(nan|inf|infinity)$/i.test(value)) throw new NumberError(`'${value}': NaN and infinities are refused`);
  return parseDecimal(value, fmt, underflow);
}

/** Human-readable companion: hexfloat with the shortest round-tripping decimal. */
export function describeNumber(x) {
  return `${toHex(x)} (${Object.is(x, -0) ? '-0' : String(x)})`;
}
