import { applyBasisPoints } from '@pos/kernel';
import { CliRefusal, EXIT } from '../cli/errors';
import { Rand } from './random';
import { dt, RowWriter } from './row-writer';
import { Item, Reference, Store, VolumeOptions } from './types';

/**
 * The reference data the trading runs on, added to the demo's: a third store (Berlin, EUR, prices
 * including VAT, its own warehouse and tax rates), four cashiers a store, generated customers and
 * items (the items' popularity a shuffled long tail). Idempotent: what is there is kept.
 */
export async function loadReference(db: RowWriter, rand: Rand, o: VolumeOptions): Promise<Reference> {
  const now = o.now;
  const ts = { created_at: dt(now), updated_at: dt(now) };
  const one = async (sql: string, params: unknown[] = []) => (await db.qr.query(sql, params))[0] as Record<string, unknown> | undefined;
  const id = async (sql: string, params: unknown[] = []) => Number((await one(sql, params))?.id);

  // Berlin: EUR, prices include VAT (19% standard, 7% food), its own warehouse.
  let be = await id("SELECT id FROM stores WHERE code = 'BE'");
  if (!be) {
    await db.insertRow('stores', {
      name: 'Berlin Store',
      code: 'BE',
      address: 'Friedrichstrasse 1, Berlin',
      currency_code: 'EUR',
      timezone: 'Europe/Berlin',
      prices_include_tax: 1,
      allow_negative_stock: 0,
      is_active: 1,
      ...ts,
    });
    be = await id("SELECT id FROM stores WHERE code = 'BE'");
    await db.insertRow('warehouses', { store_id: be, name: 'Berlin Floor', code: 'BE-MAIN', is_active: 1, ...ts });
    const wh = await id("SELECT id FROM warehouses WHERE code = 'BE-MAIN'");
    await db.qr.query('UPDATE stores SET default_warehouse_id = ? WHERE id = ?', [wh, be]);
    for (const pm of (await db.qr.query('SELECT id FROM payment_methods')) as { id: number }[]) {
      await db.insertRow('store_payment_methods', { store_id: be, payment_method_id: Number(pm.id) });
    }
    const cls = async (code: string) => id('SELECT id FROM tax_classes WHERE code = ?', [code]);
    await db.insertRow('tax_rates', { tax_class_id: await cls('standard'), store_id: be, name: 'MwSt 19%', rate_bp: 1900, is_active: 1, ...ts });
    await db.insertRow('tax_rates', { tax_class_id: await cls('reduced'), store_id: be, name: 'MwSt 7%', rate_bp: 700, is_active: 1, ...ts });
  }
  const storeRows = (await db.qr.query(
    "SELECT s.id, s.code, s.timezone, s.currency_code, c.decimals, s.prices_include_tax, s.default_warehouse_id FROM stores s LEFT JOIN currencies c ON c.code = s.currency_code WHERE s.code IN ('DT', 'AP', 'BE') ORDER BY s.id",
  )) as Record<string, unknown>[];
  const rates = (await db.qr.query(
    'SELECT r.store_id, r.rate_bp, c.code FROM tax_rates r JOIN tax_classes c ON c.id = r.tax_class_id WHERE r.is_active = 1',
  )) as Record<string, unknown>[];
  const shares: Record<string, number> = { DT: 0.45, AP: 0.35, BE: 0.2 };
  const cashierRole = await id("SELECT id FROM roles WHERE slug = 'cashier'");
  const hash = String((await one("SELECT password_hash FROM users WHERE email = 'cashier@example.com'"))?.password_hash ?? '');
  const stores: Store[] = [];
  for (const s of storeRows) {
    const storeId = Number(s.id);
    const code = String(s.code);
    // Money has no default scale: a store whose currency is unknown cannot be priced.
    if (s.decimals === null || s.decimals === undefined)
      throw new CliRefusal(`seed:volume refused: the currency ${String(s.currency_code)} of store ${code} is not configured`, EXIT.refused);
    const cashiers: number[] = [];
    for (let k = 1; k <= 4; k++) {
      const email = `cashier${k}.${code.toLowerCase()}@volume.example.com`;
      let uid = await id('SELECT id FROM users WHERE email = ?', [email]);
      if (!uid) {
        await db.insertRow('users', {
          name: `Cashier ${k} ${code}`,
          email,
          password_hash: hash,
          role_id: cashierRole,
          default_store_id: storeId,
          is_api_application: 0,
          is_active: 1,
          ...ts,
        });
        uid = await id('SELECT id FROM users WHERE email = ?', [email]);
        await db.insertRow('user_stores', { user_id: uid, store_id: storeId });
      }
      cashiers.push(uid);
    }
    const rateOf = (cls: string) => {
      const own = rates.find((r) => Number(r.store_id) === storeId && r.code === cls);
      const general = rates.find((r) => r.store_id === null && r.code === cls);
      return Number((own ?? general)?.rate_bp ?? 0);
    };
    stores.push({
      id: storeId,
      code,
      tz: String(s.timezone),
      currency: String(s.currency_code),
      decimals: Number(s.decimals),
      inclusive: Boolean(Number(s.prices_include_tax)),
      warehouseId: Number(s.default_warehouse_id),
      share: shares[code] ?? 0.1,
      cashiers,
      rates: { standard: rateOf('standard'), reduced: rateOf('reduced'), zero: rateOf('zero') },
    });
  }

  // Customers: demo ones plus generated ones (terms 30 days).
  const group = await id("SELECT id FROM customer_groups WHERE code = 'retail'");
  const haveCustomers = Number((await one("SELECT COUNT(*) AS n FROM customers WHERE email LIKE '%@customers.volume.example.com'"))?.n ?? 0);
  for (let c = haveCustomers + 1; c <= o.customers; c++) {
    db.push('customers', {
      name: `Customer ${String(c).padStart(5, '0')}`,
      email: `customer${c}@customers.volume.example.com`,
      phone: `+1 555 ${String(100000 + c).slice(-6)}`,
      customer_group_id: group,
      store_id: stores[c % stores.length].id,
      is_walk_in: 0,
      status: 'active',
      payment_terms_days: 30,
      ...ts,
    });
  }
  await db.flushAll();
  const customers = ((await db.qr.query('SELECT id FROM customers WHERE is_walk_in = 0 AND deleted_at IS NULL ORDER BY id')) as { id: number }[]).map((r) =>
    Number(r.id),
  );

  // Items: the demo's plus generated ones across the demo categories, with opening stock everywhere.
  const categories = ((await db.qr.query('SELECT id FROM categories ORDER BY id')) as { id: number }[]).map((r) => Number(r.id));
  const taxClasses = (await db.qr.query('SELECT id, code FROM tax_classes')) as { id: number; code: string }[];
  const classId = (code: string) => Number(taxClasses.find((t) => t.code === code)?.id);
  const haveItems = Number((await one("SELECT COUNT(*) AS n FROM items WHERE sku LIKE 'VOL-%'"))?.n ?? 0);
  const demoItems = Number((await one("SELECT COUNT(*) AS n FROM items WHERE sku NOT LIKE 'VOL-%'"))?.n ?? 0);
  for (let k = haveItems + 1; k <= o.items - demoItems; k++) {
    const price = 99 + Math.floor(rand() * rand() * 4900);
    const cls = rand() < 0.45 ? 'reduced' : rand() < 0.97 ? 'standard' : 'zero';
    db.push('items', {
      sku: `VOL-${String(k).padStart(5, '0')}`,
      name: `Volume item ${k}`,
      category_id: categories[k % categories.length],
      base_price: price,
      cost: Math.round(price * (0.35 + rand() * 0.3)),
      tax_class_id: classId(cls),
      base_unit: 'each',
      is_active: 1,
      is_serial_tracked: 0,
      reorder_level: 5 + Math.floor(rand() * 20),
      reorder_quantity: 20 + Math.floor(rand() * 60),
      ...ts,
    });
  }
  await db.flushAll();
  const itemRows = (await db.qr.query(
    'SELECT i.id, i.sku, i.name, i.category_id, i.base_price, i.cost, i.is_serial_tracked, c.code AS tax FROM items i LEFT JOIN tax_classes c ON c.id = i.tax_class_id WHERE i.is_active = 1 AND i.deleted_at IS NULL ORDER BY i.id',
  )) as Record<string, unknown>[];
  const items: Item[] = itemRows
    .filter((r) => Number(r.base_price) > 0)
    .map((r) => ({
      id: Number(r.id),
      sku: String(r.sku),
      name: String(r.name),
      categoryId: r.category_id === null ? null : Number(r.category_id),
      price: Number(r.base_price),
      bookPrice: Number(r.base_price) - applyBasisPoints(Number(r.base_price), 800),
      bundlePrice: Number(r.base_price) - applyBasisPoints(Number(r.base_price), 500),
      cost: Number(r.cost),
      taxClass: String(r.tax ?? 'standard'),
      serial: Boolean(Number(r.is_serial_tracked)),
    }))
    .filter((i) => !i.serial);
  // Popularity: a long tail (Zipf-like), shuffled so it does not follow the ids.
  const order = items.map((_, i) => i).sort(() => rand() - 0.5);
  const weights = order.map((_, rank) => 1 / (rank + 3) ** 0.9);
  const cumulative: number[] = [];
  weights.reduce((a, w, i) => (cumulative[i] = a + w), 0);
  const warehouses = ((await db.qr.query('SELECT id FROM warehouses ORDER BY id')) as { id: number }[]).map((r) => Number(r.id));
  const central = await id("SELECT id FROM warehouses WHERE code = 'CENTRAL'");
  return {
    stores,
    customers,
    items,
    order,
    cumulative,
    warehouses,
    central,
    managerId: await id("SELECT id FROM users WHERE email = 'manager@example.com'"),
  };
}

/** An item drawn by popularity (binary search over the cumulative weights). */
export function itemPicker(ref: Reference, rand: Rand): () => Item {
  const { items, order, cumulative } = ref;
  return () => {
    const x = rand() * cumulative[cumulative.length - 1];
    let lo = 0;
    let hi = cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return items[order[lo]];
  };
}
