import fc from 'fast-check';
import { PaidTender, RefundableTender, refundableTenders, RefundExceedsPaymentsError, splitRefund } from './refund-split';

const cash = { paymentMethodId: 1, methodCode: 'cash', methodType: 'cash' };
const card = { paymentMethodId: 2, methodCode: 'card', methodType: 'card' };
const account = { paymentMethodId: 3, methodCode: 'on_account', methodType: 'on_account' };

describe('refundableTenders', () => {
  it('sums each method in the order first used, less earlier refunds; on account no more than still owed', () => {
    const paid: PaidTender[] = [
      { ...card, amount: 1000 },
      { ...cash, amount: 274 },
      { ...account, amount: 500 },
      { ...card, amount: 200 }, // a later invoice payment by card
    ];
    expect(refundableTenders(paid, [{ paymentMethodId: 2, amount: 150 }], 300).map((t) => [t.methodCode, t.amount, t.available])).toEqual([
      ['card', 1200, 1050],
      ['cash', 274, 274],
      ['on_account', 500, 300],
    ]);
  });
});

describe('splitRefund', () => {
  const tenders = (avail: Record<string, number>): RefundableTender[] =>
    [card, cash, account].map((m) => ({ ...m, amount: avail[m.methodCode] ?? 0, available: avail[m.methodCode] ?? 0 }));

  it('pays cash first up to what was paid in cash, then the others in order', () => {
    expect(splitRefund(1200, tenders({ card: 1000, cash: 274 })).map((p) => [p.methodCode, p.amount])).toEqual([
      ['cash', 274],
      ['card', 926],
    ]);
    expect(() => splitRefund(1500, tenders({ card: 1000, cash: 274 }))).toThrow(RefundExceedsPaymentsError);
    expect(splitRefund(200, tenders({ card: 1000, cash: 274 })).map((p) => [p.methodCode, p.amount])).toEqual([['cash', 200]]);
    expect(splitRefund(500, tenders({ card: 100, on_account: 1000 })).map((p) => [p.methodCode, p.amount])).toEqual([
      ['card', 100],
      ['on_account', 400],
    ]);
    expect(splitRefund(0, tenders({ cash: 5 }))).toEqual([]);
  });

  it('always splits the whole refund, never more than a method can take, cash as much as possible', () => {
    const method = fc.constantFrom(cash, card, account, { paymentMethodId: 4, methodCode: 'voucher', methodType: 'other' });
    fc.assert(
      fc.property(
        fc.array(fc.record({ m: method, available: fc.integer({ min: 0, max: 1_000_000 }) }), { maxLength: 6 }),
        fc.integer({ min: 0, max: 3_000_000 }),
        (rows, amount) => {
          const ts: RefundableTender[] = rows.map((r) => ({ ...r.m, amount: r.available, available: r.available }));
          const capacity = ts.reduce((a, t) => a + t.available, 0);
          if (amount > capacity) {
            expect(() => splitRefund(amount, ts)).toThrow(RefundExceedsPaymentsError);
            return;
          }
          const parts = splitRefund(amount, ts);
          expect(parts.reduce((a, p) => a + p.amount, 0)).toBe(amount);
          for (const p of parts) expect(p.amount).toBeGreaterThan(0);
          const cashAvailable = ts.filter((t) => t.methodType === 'cash').reduce((a, t) => a + t.available, 0);
          const cashRefunded = parts.filter((p) => p.methodType === 'cash').reduce((a, p) => a + p.amount, 0);
          expect(cashRefunded).toBe(Math.min(amount, cashAvailable));
          // no tender gives back more than it can, in order: cash tenders, then the others
          let i = 0;
          const order = [...ts.filter((t) => t.methodType === 'cash'), ...ts.filter((t) => t.methodType !== 'cash')].filter((t) => t.available > 0);
          for (const p of parts) {
            const t = order[i++];
            expect(p.amount).toBeLessThanOrEqual(t.available);
            expect(p.paymentMethodId).toBe(t.paymentMethodId);
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});
