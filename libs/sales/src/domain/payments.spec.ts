import fc from 'fast-check';
import { settle, Tender, TenderType } from './payments';

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
  it('hands change back on cash tenders only, first cash tender first, never more than each gave', () => {
    const s = settle(1850, [
      { type: 'card', amount: 1000 },
      { type: 'cash', amount: 100 },
      { type: 'cash', amount: 1000 },
    ]);
    expect(s.problems).toEqual([]);
    expect(s.change).toBe(250);
    expect(s.changeGiven).toEqual([0, 100, 150]);
    expect(s.applied).toEqual([1000, 0, 850]);
  });

  it('writes amounts in messages with the formatter it is given', () => {
    expect(settle(1000, [{ type: 'cash', amount: 999 }], (v) => (v / 100).toFixed(2)).problems[0].message).toBe(
      'The payments (9.99) do not cover the total (10.00).',
    );
  });
});
