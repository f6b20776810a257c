import { ValidationFailedError } from './errors';

/**
 * Money is carried as integer minor units everywhere inside the service.
 * Conversions from and to the JSON decimal numbers of the contract go through strings so
 * binary floating point never takes part in arithmetic. Money has no default scale: every
 * conversion names the decimals of the currency it is in (USD 2, JPY 0).
 */
export type Minor = number;

/**
 * The most decimals a currency may have: ISO 4217's largest minor unit (CLF, UYW: 4; KWD, BHD,
 * OMR: 3). The HTTP layer takes money with up to this many decimals; every use case then holds an
 * amount to its own currency's with `amountToMinor` (USD 1.005 or 0.5 yen: 422 on the field).
 */
export const MAX_CURRENCY_DECIMALS = 4;

/** Parses a JSON number or decimal string ("12.5", 12.5, "-0.01") into minor units. */
export function toMinor(value: number | string, decimals: number): Minor {
  const text = typeof value === 'number' ? numberToPlainString(value) : value.trim();
  const match = /^([+-])?(\d+)(?:\.(\d+))?$/.exec(text);
  if (!match) throw new RangeError(`Not a decimal amount: ${String(value)}`);
  const [, sign, whole, fraction = ''] = match;
  const padded = (fraction + '0'.repeat(decimals + 1)).slice(0, decimals + 1);
  let minor = BigInt(whole) * 10n ** BigInt(decimals) + BigInt(padded.slice(0, decimals) || '0');
  // Half away from zero on the first dropped digit (the one rounding policy of the service).
  if (Number(padded[decimals]) >= 5) minor += 1n;
  const result = sign === '-' ? -minor : minor;
  if (result > BigInt(Number.MAX_SAFE_INTEGER) || result < BigInt(Number.MIN_SAFE_INTEGER)) {
    throw new RangeError('Amount out of range');
  }
  return Number(result) === 0 ? 0 : Number(result);
}

const POWERS_OF_TEN = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000];

/**
 * Minor units to the JSON number with the currency's decimals (e.g. 1999 -> 19.99): the double
 * nearest to the exact decimal value, which is what parsing `minorToString` gives. For a safe
 * integer and a power of ten that are both exact doubles, IEEE division is correctly rounded, so
 * `minor / 10^decimals` is that same nearest double (a property test checks the two agree); no
 * arithmetic is done on the result, it is only what JSON carries. (Reports write thousands.)
 */
export function fromMinor(minor: Minor, decimals: number): number {
  assertInteger(minor);
  const power = POWERS_OF_TEN[decimals];
  return power === undefined ? Number(minorToString(minor, decimals)) : minor / power + 0;
}

export function minorToString(minor: Minor, decimals: number): string {
  assertInteger(minor);
  const negative = minor < 0;
  const digits = Math.abs(minor)
    .toString()
    .padStart(decimals + 1, '0');
  const whole = decimals === 0 ? digits : digits.slice(0, -decimals);
  const fraction = decimals === 0 ? '' : '.' + digits.slice(-decimals);
  return (negative ? '-' : '') + whole + fraction;
}

/** Rounds a rational amount numerator/denominator to an integer, half away from zero. */
export function roundHalfAwayFromZero(numerator: bigint, denominator: bigint): bigint {
  if (denominator === 0n) throw new RangeError('Division by zero');
  const negative = numerator < 0n !== denominator < 0n;
  const n = numerator < 0n ? -numerator : numerator;
  const d = denominator < 0n ? -denominator : denominator;
  const q = n / d;
  const rounded = (n % d) * 2n >= d ? q + 1n : q;
  return negative ? -rounded : rounded;
}

/** amount x basisPoints / 10000, rounded half away from zero. */
export function applyBasisPoints(amount: Minor, basisPoints: number): Minor {
  return Number(roundHalfAwayFromZero(BigInt(amount) * BigInt(basisPoints), 10000n));
}

/**
 * Splits `total` over `weights` proportionally so the parts sum exactly to `total`
 * (largest remainder method; ties go to the earlier weight for determinism).
 */
export function allocateByLargestRemainder(total: Minor, weights: Minor[]): Minor[] {
  if (weights.length === 0) return [];
  const sum = weights.reduce((a, b) => a + BigInt(b), 0n);
  if (sum === 0n) return weights.map((_, i) => (i === 0 ? total : 0));
  const sign = total < 0 ? -1n : 1n;
  const absTotal = BigInt(Math.abs(total));
  const parts = weights.map((w) => (absTotal * BigInt(w)) / sum);
  const remainders = weights.map((w, i) => ({ i, r: (absTotal * BigInt(w)) % sum }));
  let left = absTotal - parts.reduce((a, b) => a + b, 0n);
  remainders.sort((a, b) => (b.r > a.r ? 1 : b.r < a.r ? -1 : a.i - b.i));
  for (const { i } of remainders) {
    if (left <= 0n) break;
    parts[i] += 1n;
    left -= 1n;
  }
  return parts.map((p) => Number(p * sign));
}

function assertInteger(minor: number): void {
  if (!Number.isSafeInteger(minor)) throw new RangeError(`Not an integer minor amount: ${minor}`);
}

function numberToPlainString(value: number): string {
  if (!Number.isFinite(value)) throw new RangeError('Amount must be finite');
  // toString gives the shortest round-trip form; expand exponents for tiny or huge values.
  const text = value.toString();
  if (!/e/i.test(text)) return text;
  return value.toFixed(20).replace(/\.?0+$/, '');
}

/**
 * A JSON amount sent in a currency with `decimals` decimals, to minor units; more decimals than
 * the currency has (0.5 of a yen, 1.005 dollars) is a 422 on the field, never a silent rounding.
 */
export function amountToMinor(value: number, decimals: number, field: string): Minor {
  const places = decimalPlaces(value);
  if (places > decimals) {
    throw ValidationFailedError.field(
      field,
      decimals === 0 ? `The ${field} must be a whole amount in this currency.` : `The ${field} must have at most ${decimals} decimal places.`,
    );
  }
  try {
    return toMinor(value, decimals);
  } catch {
    throw ValidationFailedError.field(field, `The ${field} is not a valid amount.`);
  }
}

/** Decimal places of a finite number as written in its shortest form (1e-7 has 7). */
export function decimalPlaces(value: number): number {
  if (!Number.isFinite(value)) return Infinity;
  const text = numberToPlainString(value);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}
