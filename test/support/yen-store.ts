import { TestApp } from './test-app';

export interface ForeignStore {
  storeId: number;
  warehouseId: number;
  /** Still Water (BEV-001): its tax class pays the store's rate (when it has one). */
  waterId: number;
}
export type YenStore = ForeignStore;

interface StoreShape {
  code: string;
  name: string;
  currency: string;
  timezone: string;
  pricesIncludeTax: boolean;
  /** A rate on the water's tax class in this store, in basis points; none when left out. */
  waterTaxBp?: number;
  allowNegativeStock?: boolean;
  paymentMethods?: 'cash_and_card' | 'all';
  /** Add the currency when the database lacks it (reference data: the API has no route for it). */
  currencyRow?: { name: string; symbol: string; decimals: number };
}

/**
 * A store selling in a currency other than the catalog's, with a warehouse of its own as default
 * and payment methods. Written with SQL: the API has no route that creates stores or currencies.
 * Stock and staff are the caller's.
 */
export async function createForeignStore(t: TestApp, o: StoreShape): Promise<ForeignStore> {
  const now = t.isMysql ? new Date() : new Date().toISOString().replace('T', ' ').replace('Z', '');
  const q = (sql: string, params: unknown[] = []) => t.db.query(sql, params) as Promise<Record<string, unknown>[]>;
  if (o.currencyRow && !(await q('SELECT id FROM currencies WHERE code = ?', [o.currency])).length) {
    const c = o.currencyRow;
    await q('INSERT INTO currencies (code, name, symbol, decimals, is_base, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
      o.currency,
      c.name,
      c.symbol,
      c.decimals,
      0,
      1,
      now,
      now,
    ]);
  }
  await q(
    'INSERT INTO stores (name, code, currency_code, timezone, prices_include_tax, allow_negative_stock, receipt_header, receipt_footer, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    [o.name, o.code, o.currency, o.timezone, o.pricesIncludeTax ? 1 : 0, o.allowNegativeStock ? 1 : 0, o.name, 'Thank you', 1, now, now],
  );
  const storeId = Number((await q('SELECT id FROM stores WHERE code = ?', [o.code]))[0].id);
  await q('INSERT INTO warehouses (store_id, name, code, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
    storeId,
    `${o.name} Floor`,
    `${o.code}-MAIN`,
    1,
    now,
    now,
  ]);
  const warehouseId = Number((await q('SELECT id FROM warehouses WHERE code = ?', [`${o.code}-MAIN`]))[0].id);
  await q('UPDATE stores SET default_warehouse_id = ? WHERE id = ?', [warehouseId, storeId]);
  const methods =
    o.paymentMethods === 'all' ? await q('SELECT id FROM payment_methods') : await q("SELECT id FROM payment_methods WHERE code IN ('cash', 'card')");
  for (const { id } of methods) await q('INSERT INTO store_payment_methods (store_id, payment_method_id) VALUES (?, ?)', [storeId, id]);
  const [water] = await q("SELECT id, tax_class_id FROM items WHERE sku = 'BEV-001'");
  if (o.waterTaxBp !== undefined) {
    await q('INSERT INTO tax_rates (tax_class_id, store_id, name, rate_bp, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
      water.tax_class_id,
      storeId,
      `Tax ${o.waterTaxBp / 100}%`,
      o.waterTaxBp,
      1,
      now,
      now,
    ]);
  }
  return { storeId, warehouseId, waterId: Number(water.id) };
}

/**
 * A Tokyo store selling in Japanese yen (0 decimals, prices include tax, Asia/Tokyo), with a 10%
 * consumption tax on the water's tax class.
 */
export function createYenStore(
  t: TestApp,
  o: { code?: string; name?: string; allowNegativeStock?: boolean; paymentMethods?: 'cash_and_card' | 'all' } = {},
): Promise<YenStore> {
  return createForeignStore(t, {
    code: o.code ?? 'TK',
    name: o.name ?? 'Tokyo Store',
    currency: 'JPY',
    timezone: 'Asia/Tokyo',
    pricesIncludeTax: true,
    waterTaxBp: 1000,
    allowNegativeStock: o.allowNegativeStock,
    paymentMethods: o.paymentMethods,
  });
}
