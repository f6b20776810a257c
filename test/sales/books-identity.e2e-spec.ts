import request from 'supertest';
import { bearer, DEMO, login, startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 23, item 2: every sale, line and receipt satisfies subtotal - discounts + tax = total, in
 * both tax modes, discounted or exempt (JPY: test/sales/jpy-store). Downtown (store 1) prices
 * exclude tax, Airport (store 2) include it. The figures are read back through GET /sales/{id}
 * and both receipts, and from the raw rows.
 */
describe('The books of a sale add up in both tax modes', () => {
  let t: TestApp;
  let admin: string;
  const api = () => request(t.http);
  const cents = (v: number) => Math.round(v * 100);
  let items: Record<string, number>;

  beforeAll(async () => {
    t = await startTestApp();
    admin = await login(t, DEMO.admin);
    items = Object.fromEntries((await t.db.query('SELECT sku, id FROM items')).map((r: { sku: string; id: number }) => [r.sku, Number(r.id)]));
    for (const store of [1, 2])
      expect((await api().post('/api/v1/sessions/open').set(bearer(admin)).send({ store_id: store, opening_balance: 0 })).status).toBe(200);
  });
  afterAll(() => t.close());

  /** Prices the cart, then sells it at the server's total (cash, exact). */
  async function sell(store: number, extra: Record<string, unknown>) {
    const cart = {
      store_id: store,
      items: [
        { id: items['SNK-001'], qty: 2, discount_type: 'amount', discount_value: 0.5 },
        { id: items['COF-001'], qty: 1 },
      ],
      ...extra,
    };
    const priced = await api().post('/api/v1/pricing/cart').set(bearer(admin)).send(cart);
    expect(priced.status).toBe(200);
    const total = priced.body.data.total;
    const res = await api()
      .post('/api/v1/pos/checkout')
      .set(bearer(admin))
      .send({ ...cart, idempotency_key: `books-${Math.random()}`, total_amount: total, payments: [{ payment_method_code: 'cash', amount: total }] });
    expect(res.status).toBe(201);
    return res.body.data;
  }

  async function expectBooks(sale: { id: number }) {
    const d = (await api().get(`/api/v1/sales/${sale.id}`).set(bearer(admin))).body.data;
    expect(cents(d.subtotal) - cents(d.discount_total) + cents(d.tax_total)).toBe(cents(d.total_amount));
    for (const l of d.items) {
      expect(cents(l.gross) - cents(l.discounts.total)).toBe(cents(l.net));
      expect(cents(l.net) + cents(l.tax)).toBe(cents(l.total));
    }
    const sum = (f: (l: Record<string, number>) => number) => d.items.reduce((a: number, l: Record<string, number>) => a + f(l), 0);
    expect(sum((l) => cents(l.gross))).toBe(cents(d.subtotal));
    expect(sum((l) => cents(l.total))).toBe(cents(d.total_amount));
    const r = (await api().get(`/api/v1/sales/${sale.id}/receipt`).set(bearer(admin))).body.data;
    expect(cents(r.subtotal) - cents(r.discount_total) + cents(r.tax_total)).toBe(cents(r.total));
    for (const l of r.lines) expect(cents(l.gross) - cents(l.discount) + cents(l.tax)).toBe(cents(l.total));
    const [row] = await t.db.query('SELECT subtotal, discount_total, tax_total, total_amount FROM sales WHERE id = ?', [sale.id]);
    expect(Number(row.subtotal) - Number(row.discount_total) + Number(row.tax_total)).toBe(Number(row.total_amount));
    return { detail: d, receipt: r };
  }

  it('adds up in a tax-exclusive store, discounted and exempt', async () => {
    const plain = await expectBooks(await sell(1, { cart_discount_type: 'percent', cart_discount_value: 10 }));
    expect(plain.detail.prices_include_tax).toBe(false);
    expect(plain.detail.tax_total).toBeGreaterThan(0);
    const exempt = await expectBooks(await sell(1, { tax_exempt: true, tax_exempt_reason: 'Reseller' }));
    expect(exempt.detail).toMatchObject({ tax_total: 0, tax_exempted: 0 });
  });

  it('adds up in a tax-inclusive store: amounts before tax, unit prices as on the shelf', async () => {
    const { detail, receipt } = await expectBooks(await sell(2, { cart_discount_type: 'amount', cart_discount_value: 1 }));
    expect(detail.prices_include_tax).toBe(true);
    // the shelf price is what the customer saw; the gross is that without the tax it holds
    const crisps = detail.items[0];
    expect(crisps.unit_price).toBe(2.49);
    expect(cents(crisps.gross)).toBeLessThan(cents(crisps.unit_price) * 2);
    // the text receipt prints the shelf discount under the line, and the books below
    const text = (await api().get(`/api/v1/sales/${detail.id}/receipt?format=text`).set(bearer(admin))).text;
    expect(text).toMatch(/Subtotal excl\. tax\s+\d+\.\d\d\n/);
    expect(receipt.lines[0].shelf_discount).toBeGreaterThan(0);
    expect(cents(receipt.lines[0].unit_price) * 2 - cents(receipt.lines[0].shelf_discount)).toBe(cents(receipt.lines[0].total));
  });

  it('adds up for an exempt customer in a tax-inclusive store, and says what was not charged', async () => {
    const { detail, receipt } = await expectBooks(await sell(2, { tax_exempt: true, tax_exempt_reason: 'Diplomat' }));
    expect(detail.tax_total).toBe(0);
    expect(detail.tax_exempted).toBeGreaterThan(0);
    // what the customer paid is the price before tax: the shelf amounts less the tax they hold
    for (const l of detail.items) expect(l.total).toBe(l.net);
    expect(receipt).toMatchObject({ tax_exempt: true, taxes: [] });
    expect(cents(receipt.tax_exempted)).toBe(cents(detail.tax_exempted));
    const text = (await api().get(`/api/v1/sales/${detail.id}/receipt?format=text`).set(bearer(admin))).text;
    expect(text).toMatch(/Tax exempt\s+-\d+\.\d\d\n/);
    expect(text).toMatch(/Tax not charged \(exempt\)\s+\d+\.\d\d\n/);
  });
});
