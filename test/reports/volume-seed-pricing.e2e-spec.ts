import { allocateByLargestRemainder, applyBasisPoints, roundHalfAwayFromZero } from '@pos/kernel';
import { runCommand } from '../../apps/cli/src/commands';
import { describeRefusal } from '../../apps/cli/src/cli/run';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v);
const quiet = { isTTY: false, write: () => true };
const AS_OF = '2026-06-30';

/**
 * `seed:volume` writes sales the pricing engine and the payment settlement would have produced:
 * every line's books, tax and total reconcile, and so do the sale's totals and payments; a
 * cart discount is one amount on the cart split over its lines by largest remainder, never
 * rounded line by line (the seeder used to, and wrote carts whose discount was off by a cent
 * or its split differed from checkout's).
 */
describe('seed:volume prices and settles its sales as checkout does', () => {
  let t: TestApp;
  const q = async (sql: string) => (await t.db.query(sql)) as Row[];

  beforeAll(async () => {
    t = await startTestApp();
    // A fixed day as well as a fixed seed: the sales per day and store follow the calendar, so the
    // carts drawn (and how many have a cart discount over several lines) would change with the date.
    await runCommand(t.app, 'seed:volume', { sales: '2000', items: '60', customers: '40', days: '20', seed: '11', 'as-of': AS_OF }, quiet);
  });
  afterAll(() => t?.close());

  it('splits each cart discount by largest remainder over the lines (tax-exclusive stores: the books are the shelf amounts)', async () => {
    const rows = await q(`
      SELECT i.sale_id, i.net, i.cart_discount FROM sale_items i JOIN sales s ON s.id = i.sale_id
      WHERE s.prices_include_tax = 0 AND i.sale_id IN (SELECT sale_id FROM sale_items WHERE cart_discount > 0)
      ORDER BY i.sale_id, i.line_no`);
    const carts = new Map<number, Row[]>();
    for (const r of rows) carts.set(num(r.sale_id), [...(carts.get(num(r.sale_id)) ?? []), r]);
    let multiLine = 0;
    let perLineWouldDiffer = 0;
    const wrong: unknown[] = [];
    for (const [saleId, lines] of carts) {
      const before = lines.map((l) => num(l.net) + num(l.cart_discount));
      // checkout: 5% of the cart, half away from zero, then split in proportion to the lines
      const parts = allocateByLargestRemainder(
        applyBasisPoints(
          before.reduce((a, b) => a + b, 0),
          500,
        ),
        before,
      );
      const written = lines.map((l) => num(l.cart_discount));
      if (parts.some((p, i) => p !== written[i])) wrong.push({ saleId, before, written, parts });
      if (lines.length > 1) multiLine++;
      if (before.some((b, i) => applyBasisPoints(b, 500) !== parts[i])) perLineWouldDiffer++;
    }
    expect(wrong).toEqual([]);
    // The seed exercises the case: carts of several lines, some where rounding each line differs.
    expect(multiLine).toBeGreaterThan(5);
    expect(perLineWouldDiffer).toBeGreaterThan(0);
  });

  it('records every line as the engine books it: discounts off the gross give the net, net + tax = total, tax per line', async () => {
    const lines = await q(`
      SELECT i.id, i.gross, i.rule_discount, i.bundle_discount, i.manual_discount, i.cart_discount, i.net, i.tax, i.tax_rate_bp, i.tax_exempted,
        i.total, i.unit_price, i.base_price, i.quantity, i.price_source, s.prices_include_tax
      FROM sale_items i JOIN sales s ON s.id = i.sale_id`);
    expect(lines.length).toBeGreaterThan(2000);
    const wrong = lines.filter((l) => {
      const [gross, net, tax, rate, total] = [num(l.gross), num(l.net), num(l.tax), num(l.tax_rate_bp), num(l.total)];
      const discounts = num(l.rule_discount) + num(l.bundle_discount) + num(l.manual_discount) + num(l.cart_discount);
      const expectedTax = num(l.prices_include_tax)
        ? Number(roundHalfAwayFromZero(BigInt(total) * BigInt(rate), BigInt(10000 + rate))) // the shelf total holds the tax
        : applyBasisPoints(net, rate);
      return gross - discounts !== net || net + tax !== total || tax !== expectedTax || num(l.tax_exempted) !== 0;
    });
    expect(wrong).toEqual([]);
    // A rule changes the unit price (book and promotion prices sit below the base price); rule discounts are free units only.
    const sources = new Set(lines.map((l) => String(l.price_source)));
    expect(sources).toEqual(new Set(['base', 'price_book', 'pricing_rule', 'manual', 'bundle', 'offline']));
    for (const l of lines) {
      if (l.price_source === 'pricing_rule' || l.price_source === 'price_book') expect(num(l.unit_price)).toBeLessThan(num(l.base_price));
      if (num(l.rule_discount) > 0) expect([l.price_source, num(l.quantity) >= 3]).toEqual(['pricing_rule', true]);
    }
  });

  it("adds the sale's totals up from its lines and pays exactly the total, cash change as settled", async () => {
    const sales = await q(`
      SELECT s.id, s.subtotal, s.discount_total, s.tax_total, s.total_amount, s.paid_amount, s.balance_due, s.change_amount,
        (SELECT SUM(i.gross) FROM sale_items i WHERE i.sale_id = s.id) AS gross,
        (SELECT SUM(i.gross - i.net) FROM sale_items i WHERE i.sale_id = s.id) AS discounts,
        (SELECT SUM(i.tax) FROM sale_items i WHERE i.sale_id = s.id) AS tax,
        (SELECT SUM(i.total) FROM sale_items i WHERE i.sale_id = s.id) AS total,
        (SELECT SUM(p.amount) FROM sale_payments p WHERE p.sale_id = s.id) AS payments,
        (SELECT SUM(p.amount) FROM sale_payments p WHERE p.sale_id = s.id AND p.method_type = 'on_account') AS on_account,
        (SELECT SUM(p.change_amount) FROM sale_payments p WHERE p.sale_id = s.id) AS change_given
      FROM sales s`);
    expect(sales.length).toBe(2000);
    const wrong = sales.filter(
      (s) =>
        num(s.gross) !== num(s.subtotal) ||
        num(s.discounts) !== num(s.discount_total) ||
        num(s.tax) !== num(s.tax_total) ||
        num(s.total) !== num(s.total_amount) ||
        num(s.subtotal) - num(s.discount_total) + num(s.tax_total) !== num(s.total_amount) ||
        num(s.payments) !== num(s.total_amount) ||
        num(s.on_account ?? 0) !== num(s.balance_due) ||
        num(s.paid_amount) + num(s.balance_due) !== num(s.total_amount) ||
        num(s.change_given) !== num(s.change_amount),
    );
    expect(wrong).toEqual([]);
    const tenders = await q('SELECT method_type, amount, tendered, change_amount FROM sale_payments');
    const badTender = tenders.filter((p) =>
      p.method_type === 'cash' ? num(p.tendered) !== num(p.amount) + num(p.change_amount) : p.tendered !== null || num(p.change_amount) !== 0,
    );
    expect(badTender).toEqual([]);
    expect(tenders.some((p) => p.method_type === 'cash' && num(p.change_amount) > 0)).toBe(true);
  });
});

describe('seed:volume on a store whose currency is not configured', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('refuses in one line (money has no default scale) and writes no sale', async () => {
    await t.db.query("UPDATE stores SET currency_code = 'XTS' WHERE code = 'DT'");
    const refused = await runCommand(t.app, 'seed:volume', { sales: '10', items: '5', customers: '2', days: '2' }, quiet).catch((e: unknown) => e);
    expect(describeRefusal(refused)).toEqual({ message: 'seed:volume refused: the currency XTS of store DT is not configured', code: 65 });
    const [{ n }] = (await t.db.query('SELECT COUNT(*) AS n FROM sales')) as Row[];
    expect(num(n)).toBe(0);
  });
});
