import fc from 'fast-check';
import { settle as settleWith, Tender, TenderType } from './payments';

const settle = (total: number, tenders: Tender[], format: (v: number) => string = String) => settleWith(total, tenders, format);

describe('settle', () => {
  it('gives change on over-tendered cash only', () => {
    expect(settle(1850, [{ type: 'cash', amount: 2000 }])).toMatchObject({ applied: [1850], change: 150, paid: 1850, onAccount: 0, problems: [] });
    expect(
      settle(1850, [
        { type: 'card', amount: 1000 },
        { type: 'cash', amount: 1000 },
      ]),
    ).toMatchObject({ applied: [1000, 850], change: 150, paid: 1850, problems: [] });
    expect(settle(1850, [{ type: 'card', amount: 2000 }]).problems).toHaveLength(1);
  });

  it('leaves on-account amounts as a balance', () => {
    expect(
      settle(5000, [
        { type: 'cash', amount: 2000 },
        { type: 'on_account', amount: 3000 },
      ]),
    ).toMatchObject({ paid: 2000, onAccount: 3000, change: 0, problems: [] });
  });

  it('refuses payments that do not cover the total, and empty or negative tenders', () => {
    expect(settle(1000, [{ type: 'cash', amount: 999 }]).problems.map((p) => p.index)).toEqual([null]);
    expect(
      settle(1000, [
        { type: 'cash', amount: 0 },
        { type: 'card', amount: 1000 },
      ]).problems.map((p) => p.index),
    ).toEqual([0]);
  });

  it('always balances: applied amounts sum to the total when covered', () => {
    const tender = fc.record({ type: fc.constantFrom<TenderType>('cash', 'card', 'on_account', 'other'), amount: fc.integer({ min: 1, max: 100_000 }) });
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), fc.array(tender, { minLength: 1, maxLength: 5 }), (total, tenders: Tender[]) => {
        const s = settle(total, tenders);
        if (s.problems.length) return true;
        return s.applied.reduce((a, b) => a + b, 0) === total && s.paid + s.onAccount === total && s.change >= 0 && s.applied.every((a) => a >= 0);
      }),
    );
  });
});

describe('settle: change per tender', () => {
  it('hands change back on cash tenders only, last cash tender first, never more than each gave', () => {
    const s = settle(1850, [
      { type: 'card', amount: 1000 },
      { type: 'cash', amount: 100 },
      { type: 'cash', amount: 1000 },
    ]);
    expect(s.problems).toEqual([]);
    expect(s.change).toBe(250);
    expect(s.changeGiven).toEqual([0, 0, 250]);
    expect(s.applied).toEqual([1000, 100, 750]);
  });

  it('writes amounts in messages with the formatter it is given', () => {
    expect(settle(1000, [{ type: 'cash', amount: 999 }], (v) => (v / 100).toFixed(2)).problems[0].message).toBe(
      'The payments (9.99) do not cover the total (10.00).',
    );
  });
});

describe('settle: tendered cash and change', () => {
  it('computes the change from tendered cash (exact amount, 20.00 handed over)', () => {
    const s = settle(1850, [{ type: 'cash', amount: 1850, tendered: 2000 }]);
    expect(s).toMatchObject({ applied: [1850], tendered: [2000], changeGiven: [150], change: 150, paid: 1850, problems: [] });
  });

  it('refuses tendered cash below the amount, and tendered beyond the amount on a card', () => {
    expect(settle(1850, [{ type: 'cash', amount: 1850, tendered: 1000 }]).problems).toEqual([expect.objectContaining({ index: 0, field: 'tendered' })]);
    expect(settle(1850, [{ type: 'card', amount: 1850, tendered: 2000 }]).problems).toEqual([expect.objectContaining({ index: 0, field: 'tendered' })]);
    expect(settle(1850, [{ type: 'card', amount: 1850, tendered: 1850 }]).problems).toEqual([]);
  });

  it('checks a change the till sent against its own', () => {
    expect(settle(1850, [{ type: 'cash', amount: 1850, tendered: 2000, change: 150 }]).problems).toEqual([]);
    expect(settle(1850, [{ type: 'cash', amount: 1850, tendered: 2000, change: 0 }]).problems).toEqual([
      expect.objectContaining({ index: 0, field: 'change' }),
    ]);
    expect(settle(1850, [{ type: 'card', amount: 1850, change: 10 }]).problems).toEqual([expect.objectContaining({ index: 0, field: 'change' })]);
  });

  it('refuses a cash tender that would all be handed back', () => {
    const s = settle(1850, [
      { type: 'card', amount: 1850 },
      { type: 'cash', amount: 1000 },
    ]);
    expect(s.problems).toEqual([expect.objectContaining({ index: 1, field: 'amount' })]);
  });

  it('balances every tender: tendered = applied + change, applied sums to the total', () => {
    const tender = fc
      .record({
        type: fc.constantFrom<TenderType>('cash', 'card', 'on_account', 'other'),
        amount: fc.integer({ min: 1, max: 100_000 }),
        extra: fc.option(fc.integer({ min: 0, max: 50_000 }), { nil: undefined }),
      })
      .map(({ type, amount, extra }): Tender => (type === 'cash' && extra !== undefined ? { type, amount, tendered: amount + extra } : { type, amount }));
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 200_000 }), fc.array(tender, { minLength: 1, maxLength: 5 }), (total, tenders) => {
        const s = settle(total, tenders);
        if (s.problems.length) return true;
        const handed = tenders.map((t, i) => s.tendered[i] ?? t.amount);
        return (
          s.applied.reduce((a, b) => a + b, 0) === total &&
          handed.every((h, i) => h === s.applied[i] + s.changeGiven[i]) &&
          s.change === s.changeGiven.reduce((a, b) => a + b, 0) &&
          tenders.every((t, i) => t.type === 'cash' || s.changeGiven[i] === 0) &&
          s.applied.every((a) => a > 0 || total === 0)
        );
      }),
    );
  });
});
