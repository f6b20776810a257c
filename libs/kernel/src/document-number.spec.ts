import { documentNumber } from './document-number';

describe('documentNumber', () => {
  it('prefixes invoices, returns and credit notes; receipts carry the store code alone', () => {
    expect(documentNumber('receipt', 'MAIN', 42)).toBe('MAIN-000042');
    expect(documentNumber('invoice', 'MAIN', 42)).toBe('INV-MAIN-000042');
    expect(documentNumber('return', 'DT', 1)).toBe('RET-DT-000001');
    expect(documentNumber('credit_note', 'DT', 19)).toBe('CN-DT-000019');
  });

  it('pads to six digits and keeps every digit beyond them', () => {
    expect(documentNumber('receipt', 'S1', 999_999)).toBe('S1-999999');
    expect(documentNumber('invoice', 'S1', 1_000_000)).toBe('INV-S1-1000000');
  });

  it('refuses a counter that is not a positive integer (a defect upstream, never printed)', () => {
    for (const n of [0, -1, 1.5, Number.NaN, 2 ** 53]) expect(() => documentNumber('return', 'S1', n)).toThrow(RangeError);
  });
});
