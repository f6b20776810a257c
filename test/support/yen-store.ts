import { TestApp } from './test-app';

export interface YenStore {
  storeId: number;
  warehouseId: number;
  /** Still Water (BEV-001): its tax class pays 10% consumption tax in this store. */
  waterId: number;
}

/**
 * A Tokyo store selling in Japanese yen (0 decimals, prices include tax, Asia/Tokyo), with a
 * warehouse of its own as default, payment methods, and a 10% rate on the water's tax class.
 * Written with SQL: the API has no route that creates stores. Stock and staff are the caller's.
 */
export async function createYenStore(
  t: TestApp,
  o: { code?: string; name?: string; allowNegativeStock?: boolean; paymentMethods?: 'cash_and_card' | 'all' } = {},
): Promise<YenStore> {
  const code = o.code ?? 'TK';
  const name = o.name ?? 'Tokyo Store';
  const now = t.isMysql ? new Date() : new Date().toISOString().replace('T', ' ').replace('Z', '');
  const q = (sql: string, params: unknown[] = []) => t.db.query(sql, params) as Promise<Record<string, unknown>[]>;
  await q(
    'INSERT INTO stores (name, code, currency_code, timezone, prices_include_tax, allow_negative_stock, receipt_header, receipt_footer, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [name, code, 'JPY', 'Asia/Tokyo', 1, o.allowNegativeStock ? 1 : 0, name, 'Arigato!', 1, now, now],
  );
  const storeId = Number((await q('SELECT id FROM stores WHERE code = ?', [code]))[0].id);
  await q('INSERT INTO warehouses (store_id, name, code, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
    storeId,
    `${name} Floor`,
    `${code}-MAIN`,
    1,
    now,
    now,
  ]);
  const warehouseId = Number((await q('SELECT id FROM warehouses WHERE code = ?', [`${code}-MAIN`]))[0].id);
  await q('UPDATE stores SET default_warehouse_id = ? WHERE id = ?', [warehouseId, storeId]);
  const methods =
    o.paymentMethods === 'all' ? await q('SELECT id FROM payment_methods') : await q("SELECT id FROM payment_methods WHERE code IN ('cash', 'card')");
  for (const { id } of methods) await q('INSERT INTO store_payment_methods (store_id, payment_method_id) VALUES (?, ?)', [storeId, id]);
  const [water] = await q("SELECT id, tax_class_id FROM items WHERE sku = 'BEV-001'");
  await q('INSERT INTO tax_rates (tax_class_id, store_id, name, rate_bp, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    water.tax_class_id,
    storeId,
    'Consumption tax 10%',
    1000,
    1,
    now,
    now,
  ]);
  return { storeId, warehouseId, waterId: Number(water.id) };
}
