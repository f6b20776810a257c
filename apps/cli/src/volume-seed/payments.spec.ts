import { paySale } from './payments';
import { Store } from './types';

const store = (decimals: number): Store => ({
  id: 1,
  code: 'DT',
  tz: 'UTC',
  currency: decimals === 0 ? 'JPY' : 'USD',
  decimals,
  inclusive: false,
  warehouseId: 1,
  share: 1,
  cashiers: [1],
  rates: {},
});
/** A random stream that answers `r` to the payment draw. */
const drawing = (r: number) => () => r;

describe('volume seed payments, settled as checkout settles them', () => {
  it('hands cash over to the next 5-unit note of the currency and gives the change back', () => {
    expect(paySale(drawing(0.3), store(2), 1234, false)).toEqual({
      tenders: [{ code: 'cash', type: 'cash', amount: 1234, tendered: 1500, change: 266 }],
      change: 266,
      paid: 1234,
      onAccount: 0,
    });
    // No default scale: a currency without decimals hands over 5 yen notes.
    expect(paySale(drawing(0.3), store(0), 1234, false).tenders[0]).toMatchObject({ tendered: 1235, change: 1 });
  });

  it('splits half card, the rest cash; pays by card; leaves on account only with a customer', () => {
    const split = paySale(drawing(0.17), store(2), 999, false);
    expect(split.tenders.map((t) => [t.type, t.amount, t.tendered, t.change])).toEqual([
      ['card', 499, null, 0],
      ['cash', 500, 500, 0],
    ]);
    expect(split.paid).toBe(999);
    expect(paySale(drawing(0.7), store(2), 999, true).tenders).toEqual([{ code: 'card', type: 'card', amount: 999, tendered: null, change: 0 }]);
    expect(paySale(drawing(0.1), store(2), 999, true)).toMatchObject({ paid: 0, onAccount: 999, change: 0 });
    expect(paySale(drawing(0.1), store(2), 999, false).tenders.map((t) => t.type)).toEqual(['card', 'cash']);
  });

  it('pays a total of one minor unit without a split (a card part of 0 is no payment)', () => {
    expect(paySale(drawing(0.17), store(2), 1, false).tenders.map((t) => [t.type, t.amount])).toEqual([['cash', 1]]);
  });

  it('stops the seed on a total no tender can settle', () => {
    expect(() => paySale(drawing(0.7), store(2), 0, false)).toThrow(/could not be settled/);
  });
});
