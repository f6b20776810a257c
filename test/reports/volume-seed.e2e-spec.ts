import request from 'supertest';
import { utcDate } from '@pos/platform';
import { runCommand } from '../../apps/cli/src/commands';
import { describeRefusal } from '../../apps/cli/src/cli/run';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { ALL_REPORT_PERMISSIONS, fig, report } from './report-helpers';

type Row = Record<string, unknown>;
const num = (v: unknown) => Number(v);

/**
 * `seed:volume` on a small scale (3,000 sales over 60 days): the benchmark database is only worth
 * its figures if it is data the service itself could have written. Checked here: returns are
 * about 2.5% of the sales paid at the till and each one adds up (lines, refunds, credit note,
 * claims, the sale's lines and status, its invoice), stock levels are the sum of their movements,
 * every session's expected cash follows its sales and cash refunds, the reports rebuilt from it
 * count the same returns, and the returns API takes the seeded claims into account.
 */
describe('seed:volume', () => {
  let t: TestApp;
  let seeded: Record<string, number>;
  const lines: string[] = [];
  const progress = { isTTY: false, write: (chunk: string) => lines.push(...chunk.split('\n').filter(Boolean)) };
  const q = (sql: string, params: unknown[] = []) => t.db.query(sql, params) as Promise<Row[]>;

  beforeAll(async () => {
    t = await startTestApp();
    const out = (await runCommand(t.app, 'seed:volume', { sales: '3000', items: '80', customers: '60', days: '60', seed: '5' }, progress)) as {
      seeded: Record<string, number>;
    };
    seeded = out.seeded;
  });
  afterAll(() => t?.close());

  it('returns about 2.5% of the sales paid at the till, each one processed and within its sale', async () => {
    const [{ n: tillSales }] = await q(
      "SELECT COUNT(*) AS n FROM sales s WHERE s.status <> 'voided' AND NOT EXISTS (SELECT 1 FROM sale_payments p WHERE p.sale_id = s.id AND p.method_type = 'on_account')",
    );
    const returns = await q('SELECT * FROM sale_returns');
    expect(seeded.returns).toBe(returns.length);
    // 2.5% of the sales, less those of the last days (their return would fall after today).
    expect(returns.length).toBeGreaterThan(num(tillSales) * 0.012);
    expect(returns.length).toBeLessThan(num(tillSales) * 0.035);
    expect(new Set(returns.map((r) => r.status))).toEqual(new Set(['processed']));
    const refunded = await q("SELECT id FROM sales WHERE status IN ('refunded', 'partially_refunded')");
    expect(refunded.length).toBe(returns.length);
    const [{ n: onAccount }] = await q(
      "SELECT COUNT(*) AS n FROM sale_returns r JOIN sale_payments p ON p.sale_id = r.sale_id WHERE p.method_type = 'on_account'",
    );
    expect(num(onAccount)).toBe(0);
    const [{ n: early }] = await q('SELECT COUNT(*) AS n FROM sale_returns r JOIN sales s ON s.id = r.sale_id WHERE r.processed_at <= s.created_at');
    expect(num(early)).toBe(0);
  });

  it('adds up: lines, refunds and credit note equal the return; claims equal the sale lines; the sale and invoice follow', async () => {
    const mismatches = await q(`
      SELECT r.id,
        r.refund_total AS total,
        (SELECT SUM(i.refund_total) FROM sale_return_items i WHERE i.return_id = r.id) AS line_total,
        (SELECT SUM(i.refund_net) FROM sale_return_items i WHERE i.return_id = r.id) AS lines_net,
        r.refund_net AS net,
        (SELECT SUM(f.amount) FROM return_refunds f WHERE f.return_id = r.id) AS refunds,
        (SELECT SUM(c.amount) FROM credit_notes c WHERE c.return_id = r.id) AS credit
      FROM sale_returns r`);
    for (const m of mismatches)
      expect([num(m.line_total), num(m.refunds), num(m.credit), num(m.lines_net)]).toEqual([num(m.total), num(m.total), num(m.total), num(m.net)]);

    // Each claimed line: claimed = returned on the sale line, refund within what the line cost.
    const lines = await q(`
      SELECT si.id, si.quantity, si.returned_quantity, si.total, c.claimed_quantity, c.claimed_total, c.sold_quantity,
        (SELECT COALESCE(SUM(i.quantity), 0) FROM sale_return_items i WHERE i.sale_item_id = si.id) AS in_returns
      FROM sale_items si LEFT JOIN sale_item_return_claims c ON c.sale_item_id = si.id
      WHERE si.returned_quantity > 0 OR c.sale_item_id IS NOT NULL`);
    expect(lines.length).toBeGreaterThan(0);
    for (const l of lines) {
      expect(num(l.claimed_quantity)).toBe(num(l.returned_quantity));
      expect(num(l.in_returns)).toBe(num(l.returned_quantity));
      expect(num(l.sold_quantity)).toBe(num(l.quantity));
      expect(num(l.claimed_total)).toBeLessThanOrEqual(num(l.total));
      if (num(l.returned_quantity) === num(l.quantity)) expect(num(l.claimed_total)).toBe(num(l.total));
    }

    // Sale status: refunded exactly when every unit came back; a full return refunds the sale's total.
    const sales = await q(`
      SELECT s.id, s.status, s.total_amount, r.refund_total,
        (SELECT COUNT(*) FROM sale_items si WHERE si.sale_id = s.id AND si.returned_quantity < si.quantity) AS left_lines,
        i.credited, i.amount, i.status AS invoice_status, i.balance
      FROM sales s JOIN sale_returns r ON r.sale_id = s.id JOIN invoices i ON i.sale_id = s.id`);
    const statuses = new Set<string>();
    for (const s of sales) {
      statuses.add(String(s.status));
      expect(s.status).toBe(num(s.left_lines) === 0 ? 'refunded' : 'partially_refunded');
      if (s.status === 'refunded') expect(num(s.refund_total)).toBe(num(s.total_amount));
      expect(num(s.credited)).toBe(num(s.refund_total));
      expect(s.invoice_status).toBe(num(s.credited) >= num(s.amount) ? 'credited' : 'paid');
      expect(num(s.balance)).toBe(0);
    }
    expect(statuses).toEqual(new Set(['refunded', 'partially_refunded']));

    // Cash first: a sale paid partly in cash refunds cash before card.
    const split = await q(`
      SELECT r.id, r.refund_total,
        (SELECT SUM(p.amount) FROM sale_payments p WHERE p.sale_id = r.sale_id AND p.method_type = 'cash') AS cash_paid,
        (SELECT COALESCE(SUM(f.amount), 0) FROM return_refunds f WHERE f.return_id = r.id AND f.method_type = 'cash') AS cash_back
      FROM sale_returns r`);
    for (const r of split) expect(num(r.cash_back)).toBe(Math.min(num(r.refund_total), num(r.cash_paid ?? 0)));

    // Numbers: one sequence per store and kind, the counters at their last number.
    const counters = await q('SELECT store_id, kind, last_number FROM return_counters ORDER BY store_id, kind');
    const perStore = await q('SELECT store_id, COUNT(*) AS n FROM sale_returns GROUP BY store_id ORDER BY store_id');
    for (const s of perStore) {
      expect(counters.find((c) => num(c.store_id) === num(s.store_id) && c.kind === 'return')?.last_number).toEqual(s.n);
      expect(counters.find((c) => num(c.store_id) === num(s.store_id) && c.kind === 'credit_note')?.last_number).toEqual(s.n);
    }
  });

  it('keeps the stock ledger whole: returned goods come back in (and out again when written off); levels are the sum of movements', async () => {
    const off = await q(`
      SELECT l.item_id, l.warehouse_id, l.quantity, COALESCE(SUM(m.quantity), 0) AS moved
      FROM stock_levels l LEFT JOIN stock_movements m ON m.item_id = l.item_id AND m.warehouse_id = l.warehouse_id
      GROUP BY l.item_id, l.warehouse_id, l.quantity
      HAVING l.quantity <> COALESCE(SUM(m.quantity), 0)`);
    expect(off).toEqual([]);
    const [units] = await q(`
      SELECT
        (SELECT COALESCE(SUM(quantity), 0) FROM sale_return_items WHERE item_condition IN ('resellable', 'opened') AND restock = 1) AS restocked,
        (SELECT COALESCE(SUM(quantity), 0) FROM sale_return_items WHERE item_condition IN ('damaged', 'defective', 'spoiled')) AS written_off,
        (SELECT COALESCE(SUM(quantity), 0) FROM stock_movements WHERE reference_type = 'return' AND type = 'return') AS back_in,
        (SELECT COALESCE(-SUM(quantity), 0) FROM stock_movements WHERE reference_type = 'return' AND type IN ('damage', 'spoilage')) AS out_again`);
    expect(num(units.written_off)).toBeGreaterThan(0);
    expect([num(units.back_in), num(units.out_again)]).toEqual([num(units.restocked) + num(units.written_off), num(units.written_off)]);
  });

  it("counts cash refunds in the session's drawer: expected cash = opening + cash taken - cash refunded", async () => {
    const off = await q(`
      SELECT c.id, c.expected_cash, c.opening_balance,
        (SELECT COALESCE(SUM(p.amount), 0) FROM sale_payments p JOIN sales s ON s.id = p.sale_id
          WHERE s.session_id = c.id AND s.status <> 'voided' AND p.method_type = 'cash') AS cash_in,
        (SELECT COALESCE(SUM(f.amount), 0) FROM return_refunds f JOIN sale_returns r ON r.id = f.return_id
          WHERE r.session_id = c.id AND f.method_type = 'cash') AS cash_out
      FROM cashier_sessions c`);
    const wrong = off.filter((c) => num(c.expected_cash) !== num(c.opening_balance) + num(c.cash_in) - num(c.cash_out));
    expect(wrong).toEqual([]);
    expect(off.some((c) => num(c.cash_out) > 0)).toBe(true);
  });

  it('is what the rebuilt reports count: returns, refunds and credit notes per currency', async () => {
    const token = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
    const today = new Date();
    const period = {
      date_from: new Date(today.getTime() - 70 * 86_400_000).toISOString().slice(0, 10),
      date_to: new Date(today.getTime() + 86_400_000).toISOString().slice(0, 10),
    };
    const stores = await q('SELECT id, currency_code FROM stores WHERE id IN (SELECT DISTINCT store_id FROM sale_returns)');
    expect(stores.length).toBeGreaterThanOrEqual(2);
    for (const s of stores) {
      const [want] = await q('SELECT COUNT(*) AS n, SUM(refund_total) AS total FROM sale_returns WHERE store_id = ?', [s.id]);
      const res = await report(t, token, 'returns', { ...period, store_id: num(s.id) });
      expect(res.status).toBe(200);
      const currency = String(s.currency_code);
      expect(fig(res.body, 'returns', currency)).toBe(num(want.n));
      expect(Math.round(Number(fig(res.body, 'refund_total', currency)) * 100)).toBe(num(want.total));
      const notes = await report(t, token, 'invoices/credit-notes', { ...period, store_id: num(s.id) });
      expect(notes.status).toBe(200);
      // One row per credit note of the store's returns, by date then id, created_at the return's processing time in ISO 8601 UTC.
      const rows = notes.body.data.rows as { id: number; date: string; return_id: number; number: string; created_at: string }[];
      const processed = new Map(
        (await q('SELECT r.id, r.processed_at FROM sale_returns r WHERE r.store_id = ?', [s.id])).map((r) => [
          num(r.id),
          utcDate.from(r.processed_at as Date | string) as Date,
        ]),
      );
      expect(rows.length).toBe(num(want.n));
      expect(rows.map((r) => `${r.date}|${String(r.id).padStart(9, '0')}`)).toEqual(rows.map((r) => `${r.date}|${String(r.id).padStart(9, '0')}`).sort());
      for (const r of rows) {
        expect(r.number).toMatch(/^CN-/);
        expect(r.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        expect(Math.abs(Date.parse(r.created_at) - processed.get(r.return_id)!.getTime())).toBeLessThan(1000);
      }
    }
  });

  it('leaves sales the returns API reads as it wrote them: what is left is returnable, what came back is not', async () => {
    const manager = await login(t, DEMO.manager);
    // A recent partly returned sale of a store the manager works in, within the return window.
    const [sale] = await q(
      `SELECT s.id FROM sales s WHERE s.status = 'partially_refunded' AND s.store_id IN (SELECT store_id FROM user_stores WHERE user_id = (SELECT id FROM users WHERE email = ?))
       ORDER BY s.created_at DESC LIMIT 1`,
      [DEMO.manager],
    );
    expect(sale).toBeDefined();
    const lines = await q('SELECT id, quantity, returned_quantity FROM sale_items WHERE sale_id = ? ORDER BY id', [sale.id]);
    const check = await request(t.http)
      .get('/api/v1/returns/check-sale')
      .query({ sale_id: num(sale.id) })
      .set(bearer(manager));
    expect(check.status).toBe(200);
    const [returnedLine] = lines.filter((l) => num(l.returned_quantity) > 0);
    const openLines = lines.filter((l) => num(l.returned_quantity) < num(l.quantity));
    if (num(returnedLine.returned_quantity) === num(returnedLine.quantity)) {
      const again = await request(t.http)
        .post('/api/v1/returns')
        .set(bearer(manager))
        .send({ sale_id: num(sale.id), items: [{ sale_item_id: num(returnedLine.id), quantity: 1 }] });
      expect(again.status).toBe(422);
    }
    const rest = await request(t.http)
      .post('/api/v1/returns')
      .set(bearer(manager))
      .send({
        sale_id: num(sale.id),
        process_immediately: true,
        items: openLines.map((l) => ({ sale_item_id: num(l.id), quantity: num(l.quantity) - num(l.returned_quantity) })),
      });
    expect(rest.status).toBe(200);
    const [after] = await q(
      'SELECT s.status, s.total_amount, i.credited, i.status AS invoice_status FROM sales s JOIN invoices i ON i.sale_id = s.id WHERE s.id = ?',
      [sale.id],
    );
    // Both returns together refund exactly what the sale cost.
    expect([after.status, num(after.credited), after.invoice_status]).toEqual(['refunded', num(after.total_amount), 'credited']);
  });

  it('reports its progress in plain lines off a TTY: a line per tenth of the sales, records read and rollup rows written', () => {
    const sales = lines.filter((l) => l.startsWith('writing sales: '));
    expect(sales.length).toBeGreaterThanOrEqual(10);
    expect(sales[0]).toMatch(/^writing sales: 10% 300\/3,000 sales [\d,]+\/s ETA \w+$/);
    expect(sales[sales.length - 1]).toMatch(/ done$/);
    expect(lines.some((l) => /^reading records: \d+% [\d,]+\/[\d,]+ records .* done$/.test(l))).toBe(true);
    expect(lines.some((l) => /^writing rollups: 100% [\d,]+\/[\d,]+ rows .* done$/.test(l))).toBe(true);
  });

  it('refuses a second seed on a database with sales: one line, exit 65, no stack trace', async () => {
    const refused = await runCommand(t.app, 'seed:volume', { sales: '10' }).catch((e: unknown) => e);
    expect(describeRefusal(refused)).toEqual({
      message: expect.stringMatching(/^seed:volume refused: the database already has [\d]+ sales; it fills an empty \(demo\) database$/),
      code: 65,
    });
  });
});
