import fc from 'fast-check';
import { adjustmentDelta, stockStatus } from './stock-status';

describe('stock policy', () => {
  it('classifies against the reorder level', () => {
    expect(stockStatus(0, 10)).toBe('out');
    expect(stockStatus(-3, 10)).toBe('out');
    expect(stockStatus(10, 10)).toBe('low');
    expect(stockStatus(11, 10)).toBe('in_stock');
    expect(stockStatus(1, 0)).toBe('in_stock');
  });

  it('a count always lands on the counted quantity', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1000, max: 1000 }),
        fc.integer({ min: 0, max: 1000 }),
        (onHand, counted) => onHand + adjustmentDelta('count', counted, onHand) === counted,
      ),
    );
  });

  it('receives add and losses remove', () => {
    expect(adjustmentDelta('receive', 5, 2)).toBe(5);
    expect(adjustmentDelta('damage', 5, 2)).toBe(-5);
    expect(adjustmentDelta('spoilage', 1, 2)).toBe(-1);
    expect(adjustmentDelta('transfer', 4, 9)).toBe(-4);
  });
});
