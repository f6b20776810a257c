import { MigrationInterface, QueryRunner, TableColumn } from 'typeorm';
import { col } from '../columns';

/**
 * The books before tax (issue 23): a sale line's gross, discounts and net are recorded before tax
 * in either tax mode, so subtotal - discounts + tax = total holds for every sale. Until now a
 * tax-inclusive store recorded them with the tax inside (and an exempt sale there did not add up).
 *
 * - sales.prices_include_tax: the store's tax mode when the sale was made;
 * - sale_items.tax_exempted: in a tax-inclusive store, the tax an exempt customer did not pay;
 * - existing rows of tax-inclusive stores are converted: each shelf amount x becomes
 *   x - round(x * rate / (1 + rate)) (half away from zero, as the pricing engine does), the
 *   discounts the differences along gross -> rule -> bundle -> manual -> cart -> net, and the sales'
 *   subtotal and discount_total their sums; return lines, returns and credit notes of those sales
 *   record their net as total - tax.
 * Frozen history: the conversion is written out here, not imported from the engine. The report
 * rollups summed the old amounts: run `npm run reports:rebuild` once after this migration when it
 * converted rows (it says so on the console).
 */
export class SaleBooksBeforeTax1764230000000 implements MigrationInterface {
  name = 'SaleBooksBeforeTax1764230000000';

  async up(q: QueryRunner): Promise<void> {
    await q.addColumn('sales', new TableColumn(col.bool('prices_include_tax')));
    await q.addColumn('sale_items', new TableColumn(col.money('tax_exempted')));
    const stores: { id: number }[] = await q.query('SELECT id FROM stores WHERE prices_include_tax = 1');
    let converted = 0;
    for (const { id: storeId } of stores) {
      await q.query('UPDATE sales SET prices_include_tax = 1 WHERE store_id = ?', [storeId]);
      let after = 0;
      for (;;) {
        const sales: { id: number }[] = await q.query('SELECT id FROM sales WHERE store_id = ? AND id > ? ORDER BY id LIMIT 500', [storeId, after]);
        if (!sales.length) break;
        for (const { id } of sales) converted += await convertSale(q, Number(id));
        after = Number(sales[sales.length - 1].id);
      }
      await q.query(
        `UPDATE sale_return_items SET refund_net = refund_total - refund_tax
          WHERE return_id IN (SELECT r.id FROM sale_returns r JOIN sales s ON s.id = r.sale_id WHERE s.store_id = ?)`,
        [storeId],
      );
      await q.query('UPDATE sale_returns SET refund_net = refund_total - refund_tax WHERE sale_id IN (SELECT id FROM sales WHERE store_id = ?)', [storeId]);
      await q.query('UPDATE credit_notes SET net = amount - tax WHERE sale_id IN (SELECT id FROM sales WHERE store_id = ?)', [storeId]);
    }
    if (converted > 0) {
      console.log(`SaleBooksBeforeTax: ${converted} sale lines of tax-inclusive stores now record amounts before tax; run reports:rebuild.`);
    }
  }

  async down(q: QueryRunner): Promise<void> {
    await q.dropColumn('sale_items', 'tax_exempted');
    await q.dropColumn('sales', 'prices_include_tax');
  }
}

interface LineRow {
  id: number;
  gross: number;
  rule_discount: number;
  bundle_discount: number;
  manual_discount: number;
  cart_discount: number;
  net: number;
  tax_rate_bp: number;
  total: number;
}

async function convertSale(q: QueryRunner, saleId: number): Promise<number> {
  const rows: LineRow[] = await q.query(
    'SELECT id, gross, rule_discount, bundle_discount, manual_discount, cart_discount, net, tax_rate_bp, total FROM sale_items WHERE sale_id = ?',
    [saleId],
  );
  let subtotal = 0;
  let discounts = 0;
  for (const raw of rows) {
    const r = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, Number(v)])) as unknown as LineRow;
    const rate = Math.max(0, r.tax_rate_bp);
    const ex = (x: number) => (rate === 0 ? x : x - roundHalfAway(x * rate, 10000 + rate));
    const chain = [r.gross];
    for (const d of [r.rule_discount, r.bundle_discount, r.manual_discount, r.cart_discount]) chain.push(chain[chain.length - 1] - d);
    const e = chain.map(ex);
    // Shelf net minus what the customer paid: the tax an exempt customer did not pay (0 otherwise).
    const exempted = r.net - r.total;
    await q.query(
      `UPDATE sale_items SET gross = ?, rule_discount = ?, bundle_discount = ?, manual_discount = ?, cart_discount = ?, net = ?, tax_exempted = ? WHERE id = ?`,
      [e[0], e[0] - e[1], e[1] - e[2], e[2] - e[3], e[3] - e[4], e[4], exempted, r.id],
    );
    subtotal += e[0];
    discounts += e[0] - e[4];
  }
  await q.query('UPDATE sales SET subtotal = ?, discount_total = ? WHERE id = ?', [subtotal, discounts, saleId]);
  return rows.length;
}

/** n / d rounded half away from zero, for non-negative integers (exact while n stays below 2^53). */
function roundHalfAway(n: number, d: number): number {
  const q = Math.floor(n / d);
  return (n - q * d) * 2 >= d ? q + 1 : q;
}
