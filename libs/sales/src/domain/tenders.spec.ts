import { settle } from './payments';
import { resolveTenderMethods, settlementProblems, TenderMethod, tenderType } from './tenders';

const cash: TenderMethod = { id: 1, code: 'cash', type: 'cash' };
const card: TenderMethod = { id: 2, code: 'card', type: 'card' };
const account: TenderMethod = { id: 3, code: 'account', type: 'on_account' };
const voucher: TenderMethod = { id: 4, code: 'voucher', type: 'gift_voucher' };
const methods = [cash, card, account, voucher];
const fmt = (v: number) => (v / 100).toFixed(2);

describe('tender rules', () => {
  it('settles the three known method types as such, any other as other', () => {
    expect([cash, card, account, voucher].map(tenderType)).toEqual(['cash', 'card', 'on_account', 'other']);
  });

  it("finds each tender's method by code or by id", () => {
    const r = resolveTenderMethods([{ code: 'card' }, { methodId: 1 }, { code: 'voucher', methodId: 4 }], methods);
    expect(r.methods).toEqual([card, cash, voucher]);
    expect(r.errors).toEqual({});
  });

  it('refuses a method the store does not have, and a code and an id naming two methods', () => {
    const r = resolveTenderMethods([{ code: 'cheque' }, { methodId: 99 }, { code: 'cash', methodId: 2 }, {}], methods);
    expect(r.methods).toEqual([undefined, undefined, cash, undefined]);
    expect(r.errors).toEqual({
      'payments.0.payment_method_code': ['The selected payment method is not available in this store.'],
      'payments.1.payment_method_code': ['The selected payment method is not available in this store.'],
      'payments.2.payment_method_id': ['The payment_method_id names another method than payment_method_code.'],
      'payments.3.payment_method_code': ['The selected payment method is not available in this store.'],
    });
  });

  it("puts the settlement's problems on their fields (the whole payments when no tender is to blame)", () => {
    const short = settle(1000, [{ type: 'card', amount: 400 }], fmt);
    expect(settlementProblems(short, true)).toEqual({ payments: ['The payments (4.00) do not cover the total (10.00).'] });
    const wrongChange = settle(1000, [{ type: 'cash', amount: 1000, tendered: 2000, change: 500 }], fmt);
    expect(settlementProblems(wrongChange, true)).toEqual({ 'payments.0.change': ['The change on this payment is 10.00, not 5.00.'] });
    const zero = settle(
      1000,
      [
        { type: 'card', amount: 1000 },
        { type: 'card', amount: 0 },
      ],
      fmt,
    );
    expect(settlementProblems(zero, true)).toEqual({ 'payments.1.amount': ['The amount must be greater than 0.'] });
  });

  it('needs a customer for an on-account part, and only then', () => {
    const onAccount = settle(
      1000,
      [
        { type: 'cash', amount: 400 },
        { type: 'on_account', amount: 600 },
      ],
      fmt,
    );
    expect(settlementProblems(onAccount, false)).toEqual({ customer_id: ['An on-account payment needs a named customer (not the walk-in customer).'] });
    expect(settlementProblems(onAccount, true)).toEqual({});
    expect(settlementProblems(settle(1000, [{ type: 'cash', amount: 1000 }], fmt), false)).toEqual({});
  });
});
