import request from 'supertest';
import { bearer, DEMO, login, TestApp } from '../support/test-app';
import { DemoIds, demoIds } from '../catalog/catalog-helpers';
import { PricedLine, ruleKit, sumMoney } from './pricing-helpers';

/**
 * Shared setup of the cart pricing suites (cart-*.e2e-spec.ts, contract 4.2, 4.3, 4.8): the users, the demo
 * rows they price against, and the request and assertion helpers. Every figure the suites check is worked
 * out by hand from the demo prices, so the fixtures here are the ones those figures assume.
 */
export interface CartFixtures {
  admin: string;
  manager: string;
  cashier: string;
  ids: DemoIds;
  jane: number;
  walkIn: number;
  caseUnit: number;
  membersBook: number;
  airportBook: number;
  membersGroup: number;
}

/** Logs in, looks up the demo rows and adds Iced Tea (BEV-005) to both price books. */
export async function cartFixtures(t: TestApp): Promise<CartFixtures> {
  const [admin, manager, cashier] = await Promise.all([login(t, DEMO.admin), login(t, DEMO.manager), login(t, DEMO.cashier)]);
  const ids = await demoIds(t);
  const item = (sku: string) => ids.item[sku];
  const jane = Number((await t.db.query("SELECT id FROM customers WHERE email = 'jane.doe@example.com'"))[0].id);
  const walkIn = Number((await t.db.query("SELECT id FROM customers WHERE name = 'Walk-in Customer'"))[0].id);
  const caseUnit = Number((await t.db.query("SELECT id FROM item_units WHERE name = 'case' AND item_id = ?", [item('BEV-001')]))[0].id);
  const membersBook = Number((await t.db.query("SELECT id FROM price_books WHERE code = 'MEMBERS'"))[0].id);
  const airportBook = Number((await t.db.query("SELECT id FROM price_books WHERE code = 'AIRPORT'"))[0].id);
  const membersGroup = Number((await t.db.query("SELECT id FROM customer_groups WHERE code = 'members'"))[0].id);
  // Iced Tea (2.29) in both books: members 2.79 (from 1) and 2.39 (from 6), airport 2.59.
  const stamp = '2026-01-01 00:00:00';
  for (const [book, price, minQty] of [
    [membersBook, 279, 1],
    [membersBook, 239, 6],
    [airportBook, 259, 1],
  ]) {
    await t.db.query('INSERT INTO price_book_entries (price_book_id, item_id, price, min_quantity, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
      book,
      item('BEV-005'),
      price,
      minQty,
      stamp,
      stamp,
    ]);
  }
  return { admin, manager, cashier, ids, jane, walkIn, caseUnit, membersBook, airportBook, membersGroup };
}

/** Requests and assertions over a booted app and its fixtures (read lazily: both exist only after beforeAll). */
export function cartKit(app: () => TestApp, fixtures: () => CartFixtures) {
  const api = () => request(app().http);
  const item = (sku: string) => fixtures().ids.item[sku];
  const cart = (body: Record<string, unknown>, token = fixtures().cashier) => api().post('/api/v1/pricing/cart').set(bearer(token)).send(body);
  const lines = (res: request.Response) => res.body.data.items as PricedLine[];
  const rules = ruleKit(app, () => fixtures().manager);
  const priceOf = (sku: string, query = '', token = fixtures().cashier) =>
    api()
      .get(`/api/v1/items/${item(sku)}/price${query}`)
      .set(bearer(token));

  /** Asserts every money figure of a priced cart line. */
  const expectLine = (
    l: PricedLine,
    e: { sku: string; qty: number; unit: number; source: string; gross: number; tax: number; total: number; rate?: number; discount?: number; net?: number },
  ) => {
    expect({ sku: l.sku, qty: l.quantity, unit: l.unit_price, source: l.price_source, gross: l.gross, tax: l.tax, total: l.total }).toEqual({
      sku: e.sku,
      qty: e.qty,
      unit: e.unit,
      source: e.source,
      gross: e.gross,
      tax: e.tax,
      total: e.total,
    });
    if (e.rate !== undefined) expect(l.tax_rate).toBe(e.rate);
    if (e.discount !== undefined) expect(l.discounts.total).toBe(e.discount);
    if (e.net !== undefined) expect(l.net).toBe(e.net);
  };

  /** The cart's totals add up from its lines. */
  const expectConsistent = (res: request.Response) => {
    const d = res.body.data;
    const ls = lines(res);
    expect(d.subtotal).toBe(sumMoney(ls.map((l) => l.gross)));
    expect(d.tax_total).toBe(sumMoney(ls.map((l) => l.tax)));
    expect(d.total).toBe(sumMoney(ls.map((l) => l.total)));
    expect(d.discount_total).toBe(sumMoney(ls.map((l) => l.discounts.total)));
  };

  return { api, item, cart, lines, rules, priceOf, expectLine, expectConsistent };
}
