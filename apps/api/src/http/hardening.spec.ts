import fc from 'fast-check';
import { QueryFailedError } from 'typeorm';
import { stripQuerySecrets } from '@pos/platform';
import { jsonShapeProblem } from './body-parsing';
import { loggableError } from './exception.filter';
import { decimalPlaces, unsafeTextReason } from './validators';

describe('decimalPlaces', () => {
  it('counts decimals as JSON writes them, exponent form included', () => {
    expect(decimalPlaces(1e-7)).toBe(7);
    expect(decimalPlaces(1.5e-9)).toBe(10);
    expect(decimalPlaces(12.5)).toBe(1);
    expect(decimalPlaces(1e21)).toBe(0);
    expect(decimalPlaces(1.5e1)).toBe(0);
    expect(decimalPlaces(Number.NaN)).toBe(Number.POSITIVE_INFINITY);
  });

  it('agrees with the written decimals of every cent amount', () => {
    fc.assert(fc.property(fc.integer({ min: -1e12, max: 1e12 }), (cents) => decimalPlaces(cents / 100) <= 2));
  });
});

describe('jsonShapeProblem', () => {
  const check = (text: string) => jsonShapeProblem(Buffer.from(text));
  it('measures depth and width outside strings only', () => {
    expect(check('{"a":' + '['.repeat(32) + ']'.repeat(32) + '}')).toMatch(/nested more than 32/);
    expect(check('{"a":' + '['.repeat(31) + ']'.repeat(31) + '}')).toBeNull();
    expect(check(JSON.stringify({ s: '[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[{{{{{{{{{{{,,,,,,,\\"' }))).toBeNull();
    expect(check(JSON.stringify(Object.fromEntries(Array.from({ length: 1001 }, (_, i) => [`k${i}`, i]))))).toMatch(/more than 1000 keys/);
    expect(check(JSON.stringify(Array.from({ length: 1000 }, () => ({ a: 1, b: 2 }))))).toBeNull();
  });
});

describe('unsafeTextReason', () => {
  it('refuses controls, bidi overrides and lone surrogates; keeps emoji and (multi-line) breaks', () => {
    expect(unsafeTextReason('a\u0000b')).toMatch(/control/);
    expect(unsafeTextReason('a\u202eb')).toMatch(/bidirectional/);
    expect(unsafeTextReason('a\ud800b')).toMatch(/surrogate/);
    expect(unsafeTextReason('\udc00')).toMatch(/surrogate/);
    expect(unsafeTextReason('Zoë 😀')).toBeNull();
    expect(unsafeTextReason('a\nb')).toMatch(/control/);
    expect(unsafeTextReason('a\r\n\tb', true)).toBeNull();
  });
});

describe('500 log hygiene', () => {
  it('logs the query and the driver code, never the parameters or the driver SQL with values', () => {
    const driverError = Object.assign(new Error("Duplicate entry 'jane@example.com' for key 'customers.email'"), {
      code: 'ER_DUP_ENTRY',
      errno: 1062,
      sqlState: '23000',
      sql: "INSERT INTO customers (name, email) VALUES ('Jane Doe', 'jane@example.com')",
    });
    const error = new QueryFailedError('INSERT INTO customers (name, email) VALUES (?, ?)', ['Jane Doe', 'jane@example.com'], driverError);
    const logged = JSON.stringify(loggableError(error));
    expect(logged).toContain('INSERT INTO customers (name, email) VALUES (?, ?)');
    expect(logged).toContain('ER_DUP_ENTRY');
    expect(logged).not.toMatch(/jane|Jane Doe/);
  });

  it('redacts credentials in query strings', () => {
    expect(stripQuerySecrets('/api/v1/auth/me?access_token=pos_abc&x=1')).toBe('/api/v1/auth/me?access_token=[redacted]&x=1');
    expect(stripQuerySecrets('/x?a=1&password=p&pin=1234')).toBe('/x?a=1&password=[redacted]&pin=[redacted]');
  });
});
