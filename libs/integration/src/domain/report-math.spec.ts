import fc from 'fast-check';
import {
  abcClassify,
  agingCutoffs,
  average,
  daysOfInventory,
  daysSalesOutstanding,
  inventoryTurns,
  isDeadStock,
  percent,
  reorderSuggestion,
} from './report-math';

describe('report math (decisions.md definitions)', () => {
  it('ABC: A while the cumulative share is <= 80%, B <= 95%, C after; nothing sold is C', () => {
    const out = abcClassify([
      { id: 1, revenue: 5000 },
      { id: 2, revenue: 3000 },
      { id: 3, revenue: 1000 },
      { id: 4, revenue: 500 },
      { id: 5, revenue: 500 },
      { id: 6, revenue: 0 },
    ]);
    expect(out.map((i) => [i.id, i.cumulative, i.abc])).toEqual([
      [1, 50, 'A'],
      [2, 80, 'A'],
      [3, 90, 'B'],
      [4, 95, 'B'],
      [5, 100, 'C'],
      [6, 100, 'C'],
    ]);
  });

  it('ABC: classes are monotone along the ranking and shares add up', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 60 }), (revenues) => {
        const out = abcClassify(revenues.map((revenue, id) => ({ id, revenue })));
        const order = { A: 0, B: 1, C: 2 };
        for (let i = 1; i < out.length; i++) expect(order[out[i].abc]).toBeGreaterThanOrEqual(order[out[i - 1].abc]);
        if (revenues.some((r) => r > 0)) expect(out[out.length - 1].cumulative).toBe(100);
      }),
    );
  });

  it('DSO, turns, replenishment, dead stock, aging cutoffs, averages', () => {
    expect(daysSalesOutstanding(1461, 1661, 30)).toBe(26.4);
    expect(daysSalesOutstanding(100, 0, 30)).toBeNull();
    expect(inventoryTurns(12_000, 4_000)).toBe(3);
    expect(inventoryTurns(12_000, 0)).toBeNull();
    // days of inventory from the unrounded figures: 30 days x 7,350 / 150 = 1,470 (turns 0.0204, shown 0.02: 1,500 if divided)
    expect(inventoryTurns(150, 7_350)).toBe(0.02);
    expect(daysOfInventory(30, 150, 7_350)).toBe(1470);
    // turns below 0.005 show 0.00, yet stock did turn: 30 x 100,000 / 100 = 30,000 days, not none
    expect(inventoryTurns(100, 100_000)).toBe(0);
    expect(daysOfInventory(30, 100, 100_000)).toBe(30_000);
    expect(daysOfInventory(30, 0, 100_000)).toBeNull();
    expect(daysOfInventory(30, 100, 0)).toBeNull();
    expect(reorderSuggestion(3, 10, 40)).toBe(40);
    expect(reorderSuggestion(-50, 10, 40)).toBe(60);
    expect(reorderSuggestion(10, 10, 0)).toBe(0);
    expect(reorderSuggestion(11, 10, 40)).toBeNull();
    expect(isDeadStock(5, null, 1000)).toBe(true);
    expect(isDeadStock(5, 910, 1000)).toBe(true);
    expect(isDeadStock(5, 911, 1000)).toBe(false);
    expect(isDeadStock(0, null, 1000)).toBe(false);
    const asOf = new Date('2025-06-30T12:00:00Z');
    expect(agingCutoffs(asOf).map((d) => d.toISOString())).toEqual([
      '2025-05-30T12:00:00.000Z',
      '2025-04-30T12:00:00.000Z',
      '2025-03-31T12:00:00.000Z',
      '2025-03-01T12:00:00.000Z',
    ]);
    expect(percent(1, 3)).toBe(33.33);
    expect(percent(1, 0)).toBeNull();
    expect(average(3732, 5)).toBe(746);
    expect(average(5, 2)).toBe(3);
    expect(average(-5, 2)).toBe(-3);
  });
});
