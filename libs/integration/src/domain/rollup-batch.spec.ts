import fc from 'fast-check';
import { RollupBatch } from './rollup-batch';
import { addSale, addSaleAsItStands, addVoid, SaleFactsInput } from './rollup-deltas';

const store = { id: 1, currencyCode: 'USD', timeZone: 'America/New_York' };

const saleArb = fc.record({
  id: fc.integer({ min: 1, max: 1e6 }),
  at: fc.integer({ min: Date.UTC(2024, 0, 1), max: Date.UTC(2025, 11, 31) }),
  customer: fc.option(fc.integer({ min: 1, max: 5 }), { nil: null }),
  onAccount: fc.boolean(),
  user: fc.integer({ min: 1, max: 3 }),
  lines: fc.array(
    fc.record({
      item: fc.integer({ min: 1, max: 6 }),
      qty: fc.integer({ min: 1, max: 4 }),
      price: fc.integer({ min: 1, max: 5000 }),
      wh: fc.constantFrom(1, 3),
    }),
    {
      minLength: 1,
      maxLength: 4,
    },
  ),
});

type SaleSpec = {
  id: number;
  at: number;
  customer: number | null;
  onAccount: boolean;
  user: number;
  lines: { item: number; qty: number; price: number; wh: number }[];
};

function facts(s: SaleSpec, status = 'completed'): SaleFactsInput {
  const items = s.lines.map((l, i) => {
    const gross = l.price * l.qty;
    const tax = Math.round(gross * 0.0825);
    return {
      id: s.id * 10 + i,
      itemId: l.item,
      quantity: l.qty,
      baseQuantity: l.qty,
      unitCost: Math.round(l.price / 2),
      priceSource: i % 2 ? 'base' : 'pricing_rule',
      gross,
      ruleDiscount: 0,
      bundleDiscount: 0,
      manualDiscount: 0,
      cartDiscount: 0,
      taxRateBp: 825,
      tax,
      total: gross + tax,
      warehouseId: l.wh,
    };
  });
  const total = items.reduce((a, l) => a + l.total, 0);
  const whs = [...new Set(items.map((l) => l.warehouseId))];
  return {
    sale: {
      id: s.id,
      storeId: 1,
      warehouseId: whs.length === 1 ? whs[0] : null,
      sessionId: 7,
      userId: s.user,
      customerId: s.customer,
      status,
      discountTotal: 0,
      totalAmount: total,
      paidAmount: s.onAccount ? 0 : total,
      changeAmount: 0,
      balanceDue: s.onAccount ? total : 0,
      taxExempt: false,
      createdAt: new Date(s.at),
    },
    items,
    payments: [{ methodCode: s.onAccount ? 'on_account' : 'card', methodType: s.onAccount ? 'on_account' : 'card', amount: total, changeAmount: 0 }],
  };
}

const rows = (b: RollupBatch) => b.list().map((r) => [r.table.name, ...r.key, ...r.attrs, ...r.values].join('|'));

describe('rollup batch', () => {
  it('daily rows summed up into blocks equal rows written per span (the rebuild and the subscribers agree)', () => {
    fc.assert(
      fc.property(fc.array(saleArb, { minLength: 1, maxLength: 25 }), (sales) => {
        const everySpan = new RollupBatch();
        const daily = new RollupBatch('daily');
        for (const s of sales) {
          addSale(everySpan, facts(s), store);
          addSale(daily, facts(s), store);
        }
        expect(rows(daily)).toEqual(rows(everySpan));
      }),
    );
  });

  it('a sale then its void leaves exactly what a rebuild of the voided sale gives', () => {
    fc.assert(
      fc.property(fc.array(saleArb, { minLength: 1, maxLength: 10 }), fc.array(fc.boolean(), { minLength: 10, maxLength: 10 }), (sales, voided) => {
        const incremental = new RollupBatch();
        const rebuilt = new RollupBatch('daily');
        sales.forEach((s, i) => {
          addSale(incremental, facts(s), store);
          if (voided[i]) addVoid(incremental, facts(s, 'voided'), store);
          addSaleAsItStands(rebuilt, facts(s, voided[i] ? 'voided' : 'completed'), store);
        });
        expect(rows(rebuilt)).toEqual(rows(incremental));
      }),
    );
  });
});
