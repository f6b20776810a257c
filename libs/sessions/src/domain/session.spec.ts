import fc from 'fast-check';
import { ConflictError } from '@pos/kernel';
import { expectedCash, SessionAction, SessionStatus, transition } from './session';

describe('cashier session rules', () => {
  it('moves open -> suspended -> open -> closed', () => {
    expect(transition('open', 'suspend')).toBe('suspended');
    expect(transition('suspended', 'resume')).toBe('open');
    expect(transition('open', 'close')).toBe('closed');
    expect(transition('suspended', 'close')).toBe('closed');
    expect(transition('open', 'cash_movement')).toBe('open');
  });

  it('refuses every other move with a conflict', () => {
    const bad: [SessionStatus, SessionAction][] = [
      ['open', 'resume'],
      ['suspended', 'suspend'],
      ['suspended', 'cash_movement'],
      ['suspended', 'sell'],
      ['closed', 'close'],
      ['closed', 'resume'],
      ['closed', 'suspend'],
      ['closed', 'cash_movement'],
      ['closed', 'sell'],
    ];
    for (const [status, action] of bad) expect(() => transition(status, action)).toThrow(ConflictError);
  });

  it('computes the expected cash', () => {
    expect(
      expectedCash({
        openingBalance: 10000,
        salesByMethod: { cash: 2500, card: 9000 },
        salesCount: 3,
        cashSales: 2500,
        cashRefunds: 500,
        cashIn: 1000,
        cashOut: 2000,
      }),
    ).toBe(11000);
    fc.assert(
      fc.property(
        fc.nat(1e7),
        fc.nat(1e7),
        fc.nat(1e7),
        fc.nat(1e7),
        fc.nat(1e7),
        (o, s, r, i, x) =>
          expectedCash({ openingBalance: o, salesByMethod: {}, salesCount: 0, cashSales: s, cashRefunds: r, cashIn: i, cashOut: x }) === o + s - r + i - x,
      ),
    );
  });
});
