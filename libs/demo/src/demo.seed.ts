import { EntityManager } from 'typeorm';
import { fillItemNameWords } from '@pos/catalog';
import { DEFAULT_RETURN_REASONS } from '@pos/returns';

/**
 * The demo data set of decisions.md. Idempotent: every row is found by its natural key (code,
 * SKU, email, ...) before it is inserted, so running it twice creates nothing twice. Demo only:
 * production never runs it (the passwords are "password").
 */
export interface DemoSeedDeps {
  hashPassword(plain: string): Promise<string>;
  now?: Date;
}

export interface DemoSeedReport {
  created: Record<string, number>;
}

export const DEMO_USERS = [
  { email: 'admin@example.com', name: 'Ada Admin', role: 'admin', stores: ['DT', 'AP'] },
  { email: 'manager@example.com', name: 'Max Manager', role: 'manager', stores: ['DT', 'AP'] },
  { email: 'cashier@example.com', name: 'Cass Cashier', role: 'cashier', stores: ['DT'] },
] as const;

export const DEMO_PASSWORD = 'password';

type Row = Record<string, unknown>;

/** Roles (with their permission names) are passed in by the identity context's DEFAULT_ROLES. */
export async function seedDemoData(
  em: EntityManager,
  deps: DemoSeedDeps,
  roles: readonly {
    slug: string;
    name: string;
    isSuperAdmin: boolean;
    permissions: readonly string[];
    maxDiscountPercentBp: number;
    maxDiscountAmount: number;
  }[],
): Promise<DemoSeedReport> {
  const now = deps.now ?? new Date();
  const created: Record<string, number> = {};
  const ts = { created_at: now, updated_at: now };

  const q = (name: string) => em.connection.driver.escape(name);
  const bind = (v: unknown) => (v instanceof Date ? v.toISOString().replace('T', ' ').replace('Z', '') : typeof v === 'boolean' ? (v ? 1 : 0) : v);

  async function findId(table: string, where: Row): Promise<number | undefined> {
    const clauses = Object.entries(where).map(([k, v]) => (v === null ? `${q(k)} IS NULL` : `${q(k)} = ?`));
    const params = Object.values(where)
      .filter((v) => v !== null)
      .map(bind);
    const rows = (await em.query(`SELECT id FROM ${q(table)} WHERE ${clauses.join(' AND ')} LIMIT 1`, params)) as { id: number }[];
    return rows[0] ? Number(rows[0].id) : undefined;
  }

  async function insert(table: string, values: Row): Promise<void> {
    const cols = Object.keys(values);
    await em.query(`INSERT INTO ${q(table)} (${cols.map(q).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`, Object.values(values).map(bind));
  }

  /** The id of the row matching `where`, inserting `where + values` first when there is none. */
  async function ensure(table: string, where: Row, values: Row): Promise<number> {
    const found = await findId(table, where);
    if (found !== undefined) return found;
    await insert(table, { ...where, ...values });
    created[table] = (created[table] ?? 0) + 1;
    return (await findId(table, where))!;
  }

  // Stores and warehouses
  const dt = await ensure(
    'stores',
    { code: 'DT' },
    {
      name: 'Downtown Store',
      address: '1 Main Street, Springfield',
      phone: '+1 555 0100',
      currency_code: 'USD',
      timezone: 'America/New_York',
      prices_include_tax: false,
      allow_negative_stock: false,
      receipt_header: 'Downtown Store\n1 Main Street',
      receipt_footer: 'Thank you for shopping with us!',
      is_active: true,
      ...ts,
    },
  );
  const ap = await ensure(
    'stores',
    { code: 'AP' },
    {
      name: 'Airport Store',
      address: 'Terminal 2, Springfield Airport',
      phone: '+1 555 0200',
      currency_code: 'USD',
      timezone: 'America/New_York',
      prices_include_tax: true,
      allow_negative_stock: false,
      receipt_header: 'Airport Store\nTerminal 2',
      receipt_footer: 'Safe travels!',
      is_active: true,
      ...ts,
    },
  );
  const whDt = await ensure('warehouses', { code: 'DT-MAIN' }, { store_id: dt, name: 'Downtown Floor', is_active: true, ...ts });
  const whAp = await ensure('warehouses', { code: 'AP-MAIN' }, { store_id: ap, name: 'Airport Floor', is_active: true, ...ts });
  const whCentral = await ensure(
    'warehouses',
    { code: 'CENTRAL' },
    { store_id: null, name: 'Central Warehouse', address: '99 Depot Road', is_active: true, ...ts },
  );
  await ensure('warehouse_stores', { warehouse_id: whCentral, store_id: dt }, {});
  await ensure('warehouse_stores', { warehouse_id: whCentral, store_id: ap }, {});
  for (const [store, wh] of [
    [dt, whDt],
    [ap, whAp],
  ]) {
    await em.query(`UPDATE ${q('stores')} SET ${q('default_warehouse_id')} = ? WHERE id = ? AND ${q('default_warehouse_id')} IS NULL`, [wh, store]);
  }

  // Reference data
  for (const [i, pm] of [
    { code: 'cash', name: 'Cash', type: 'cash' },
    { code: 'card', name: 'Card', type: 'card' },
    { code: 'on_account', name: 'On Account', type: 'on_account' },
  ].entries()) {
    const id = await ensure('payment_methods', { code: pm.code }, { name: pm.name, type: pm.type, is_active: true, sort_order: i, ...ts });
    for (const store of [dt, ap]) await ensure('store_payment_methods', { store_id: store, payment_method_id: id }, {});
  }
  await ensure('currencies', { code: 'USD' }, { name: 'US Dollar', symbol: '$', decimals: 2, is_base: true, is_active: true, ...ts });
  await ensure('currencies', { code: 'EUR' }, { name: 'Euro', symbol: '€', decimals: 2, is_base: false, is_active: true, ...ts });
  await ensure('currencies', { code: 'JPY' }, { name: 'Japanese Yen', symbol: '¥', decimals: 0, is_base: false, is_active: true, ...ts });
  // Exchange rates: units per 1 USD, scaled by 10^8.
  await ensure('exchange_rates', { currency_code: 'EUR' }, { rate_e8: 92_000_000, effective_at: now, created_at: now });
  await ensure('exchange_rates', { currency_code: 'JPY' }, { rate_e8: 14_950_000_000, effective_at: now, created_at: now });

  const taxStandard = await ensure('tax_classes', { code: 'standard' }, { name: 'Standard rate', ...ts });
  const taxReduced = await ensure('tax_classes', { code: 'reduced' }, { name: 'Reduced rate (food)', ...ts });
  const taxZero = await ensure('tax_classes', { code: 'zero' }, { name: 'Zero rated', ...ts });
  await ensure('tax_rates', { tax_class_id: taxStandard, store_id: dt }, { name: 'Sales tax 8.25%', rate_bp: 825, is_active: true, ...ts });
  await ensure('tax_rates', { tax_class_id: taxStandard, store_id: ap }, { name: 'Sales tax 7.5%', rate_bp: 750, is_active: true, ...ts });
  await ensure('tax_rates', { tax_class_id: taxReduced, store_id: null }, { name: 'Food tax 2%', rate_bp: 200, is_active: true, ...ts });
  await ensure('tax_rates', { tax_class_id: taxZero, store_id: null }, { name: 'Zero', rate_bp: 0, is_active: true, ...ts });

  // Return reasons (the returns migration wrote them everywhere; here too, so the demo set stands on its own).
  for (const [i, r] of DEFAULT_RETURN_REASONS.entries())
    await ensure('return_reasons', { code: r.code }, { name: r.name, is_active: true, sort_order: i, ...ts });

  const retail = await ensure('customer_groups', { code: 'retail' }, { name: 'Retail', ...ts });
  const members = await ensure('customer_groups', { code: 'members' }, { name: 'Members', ...ts });
  await ensure('customers', { is_walk_in: true, name: 'Walk-in Customer' }, { customer_group_id: retail, status: 'active', payment_terms_days: 0, ...ts });
  await ensure(
    'customers',
    { email: 'jane.doe@example.com' },
    {
      name: 'Jane Doe',
      phone: '+1 555 0142',
      address: '12 Elm Street, Springfield',
      customer_group_id: members,
      status: 'active',
      payment_terms_days: 30,
      is_walk_in: false,
      ...ts,
    },
  );

  const cat: Record<string, number> = {};
  for (const [i, c] of [
    ['beverages', 'Beverages', null],
    ['coffee', 'Coffee & Tea', 'beverages'],
    ['snacks', 'Snacks', null],
    ['groceries', 'Groceries', null],
    ['household', 'Household', null],
    ['electronics', 'Electronics', null],
  ].entries()) {
    cat[c[0] as string] = await ensure('categories', { slug: c[0] }, { name: c[1], parent_id: c[2] ? cat[c[2]] : null, is_active: true, sort_order: i, ...ts });
  }

  // Items: [sku, name, category, price (cents), cost (cents), tax, serial?]
  const items: [string, string, string, number, number, number, boolean][] = [
    ['BEV-001', 'Still Water 500ml', 'beverages', 129, 40, taxReduced, false],
    ['BEV-002', 'Sparkling Water 500ml', 'beverages', 149, 45, taxReduced, false],
    ['BEV-003', 'Cola 330ml', 'beverages', 179, 60, taxStandard, false],
    ['BEV-004', 'Orange Juice 1L', 'beverages', 349, 150, taxReduced, false],
    ['BEV-005', 'Iced Tea 500ml', 'beverages', 229, 80, taxStandard, false],
    ['COF-001', 'Espresso Beans 250g', 'coffee', 899, 420, taxReduced, false],
    ['COF-002', 'Ground Coffee 500g', 'coffee', 1249, 610, taxReduced, false],
    ['COF-003', 'Green Tea 20 bags', 'coffee', 459, 180, taxReduced, false],
    ['SNK-001', 'Salted Crisps 150g', 'snacks', 249, 90, taxStandard, false],
    ['SNK-002', 'Chocolate Bar 100g', 'snacks', 199, 70, taxStandard, false],
    ['SNK-003', 'Mixed Nuts 200g', 'snacks', 549, 260, taxStandard, false],
    ['SNK-004', 'Granola Bar', 'snacks', 129, 45, taxStandard, false],
    ['SNK-005', 'Pretzels 250g', 'snacks', 299, 110, taxStandard, false],
    ['GRO-001', 'White Bread', 'groceries', 279, 120, taxReduced, false],
    ['GRO-002', 'Whole Milk 1L', 'groceries', 119, 70, taxReduced, false],
    ['GRO-003', 'Free Range Eggs x12', 'groceries', 429, 250, taxReduced, false],
    ['GRO-004', 'Basmati Rice 1kg', 'groceries', 389, 190, taxReduced, false],
    ['GRO-005', 'Olive Oil 500ml', 'groceries', 799, 420, taxReduced, false],
    ['GRO-006', 'Pasta 500g', 'groceries', 169, 60, taxReduced, false],
    ['HSE-001', 'Dish Soap 750ml', 'household', 349, 140, taxStandard, false],
    ['HSE-002', 'Paper Towels x4', 'household', 599, 280, taxStandard, false],
    ['HSE-003', 'Laundry Detergent 2L', 'household', 1199, 560, taxStandard, false],
    ['HSE-004', 'AA Batteries x4', 'household', 649, 300, taxStandard, false],
    ['HSE-005', 'Trash Bags x30', 'household', 449, 190, taxStandard, false],
    ['ELC-001', 'USB-C Cable 1m', 'electronics', 1299, 400, taxStandard, false],
    ['ELC-002', 'Wireless Earbuds', 'electronics', 4999, 2100, taxStandard, true],
    ['ELC-003', 'Power Bank 10000mAh', 'electronics', 2999, 1300, taxStandard, true],
    ['ELC-004', 'Phone Charger 20W', 'electronics', 1999, 700, taxStandard, false],
    ['ELC-005', 'Bluetooth Speaker', 'electronics', 3999, 1700, taxStandard, true],
    ['ELC-006', 'Screen Protector', 'electronics', 999, 200, taxStandard, false],
    ['GRO-007', 'Sea Salt 500g', 'groceries', 149, 50, taxZero, false],
    ['SNK-006', 'Gift Card Sleeve', 'snacks', 0, 0, taxZero, false],
  ];
  const stockPlan: [number, number][] = [
    [whDt, 50],
    [whAp, 30],
    [whCentral, 200],
  ];
  const itemIds: Record<string, number> = {};
  for (const [idx, [sku, name, category, price, cost, tax, serial]] of items.entries()) {
    const itemId = await ensure(
      'items',
      { sku },
      {
        name,
        category_id: cat[category],
        base_price: price,
        cost,
        tax_class_id: tax,
        base_unit: 'each',
        is_active: sku !== 'SNK-006',
        is_serial_tracked: serial,
        reorder_level: 10,
        reorder_quantity: 40,
        ...ts,
      },
    );
    itemIds[sku] = itemId;
    await ensure('item_barcodes', { barcode: String(4006381333900 + idx * 7) }, { item_id: itemId, item_unit_id: null });
    for (const [wh, planned] of stockPlan) {
      const qty = serial ? 5 : planned;
      if ((await findId('stock_levels', { item_id: itemId, warehouse_id: wh })) !== undefined) continue;
      await ensure('stock_levels', { item_id: itemId, warehouse_id: wh }, { quantity: qty, reorder_level: null, updated_at: now });
      // The opening balance is a ledger row too, so stock always equals the sum of movements.
      await insert('stock_movements', {
        item_id: itemId,
        warehouse_id: wh,
        type: 'receive',
        quantity: qty,
        balance_after: qty,
        unit_cost: cost,
        reference_type: 'seed',
        reference_id: 'demo',
        user_id: null,
        notes: 'Demo opening stock',
        created_at: now,
      });
      // Written straight to the ledger, not through StockLedger: no report rollup hears of it (DemoDataService rebuilds them).
      created.stock_movements = (created.stock_movements ?? 0) + 1;
      if (serial) {
        for (let n = 1; n <= qty; n++) {
          await ensure(
            'serial_numbers',
            { item_id: itemId, serial: `${sku}-${wh}-${String(n).padStart(4, '0')}` },
            { warehouse_id: wh, status: 'in_stock', sale_id: null, ...ts },
          );
        }
      }
    }
  }
  // One item sold by the case: water, a case of 12 with its own barcode.
  const caseUnit = await ensure('item_units', { item_id: itemIds['BEV-001'], name: 'case' }, { factor: 12, price: 1399, ...ts });
  await ensure('item_barcodes', { barcode: '14006381333907' }, { item_id: itemIds['BEV-001'], item_unit_id: caseUnit });

  // Price books: member prices (customer group) and airport prices (store), both active.
  const memberBook = await ensure(
    'price_books',
    { code: 'MEMBERS' },
    { name: 'Member prices', currency_code: 'USD', priority: 10, is_active: true, valid_from: null, valid_to: null, ...ts },
  );
  await ensure('price_book_customer_groups', { price_book_id: memberBook, customer_group_id: members }, {});
  for (const [sku, price] of [
    ['COF-001', 799],
    ['COF-002', 1099],
    ['SNK-003', 499],
  ] as const) {
    await ensure('price_book_entries', { price_book_id: memberBook, item_id: itemIds[sku], min_quantity: 1 }, { price, ...ts });
  }
  const airportBook = await ensure(
    'price_books',
    { code: 'AIRPORT' },
    { name: 'Airport prices', currency_code: 'USD', priority: 5, is_active: true, valid_from: null, valid_to: null, ...ts },
  );
  await ensure('price_book_stores', { price_book_id: airportBook, store_id: ap }, {});
  for (const [sku, price] of [
    ['BEV-001', 249],
    ['BEV-003', 299],
    ['SNK-002', 299],
  ] as const) {
    await ensure('price_book_entries', { price_book_id: airportBook, item_id: itemIds[sku], min_quantity: 1 }, { price, ...ts });
  }

  // Roles and users
  const roleIds: Record<string, number> = {};
  for (const role of roles) {
    roleIds[role.slug] = await ensure(
      'roles',
      { slug: role.slug },
      {
        name: role.name,
        is_super_admin: role.isSuperAdmin,
        max_discount_percent_bp: role.maxDiscountPercentBp,
        max_discount_amount: role.maxDiscountAmount,
        ...ts,
      },
    );
    for (const permission of role.permissions) await ensure('role_permissions', { role_id: roleIds[role.slug], permission }, {});
  }
  const storeIds: Record<string, number> = { DT: dt, AP: ap };
  const hash = await deps.hashPassword(DEMO_PASSWORD);
  for (const u of DEMO_USERS) {
    const userId = await ensure(
      'users',
      { email: u.email },
      {
        name: u.name,
        password_hash: hash,
        pin_hash: u.role === 'cashier' ? null : await deps.hashPassword(u.role === 'admin' ? '9999' : '1234'),
        role_id: roleIds[u.role],
        default_store_id: storeIds[u.stores[0]],
        is_api_application: false,
        is_active: true,
        ...ts,
      },
    );
    for (const s of u.stores) await ensure('user_stores', { user_id: userId, store_id: storeIds[s] }, {});
  }
  // The items above were written around the catalog's repository: their name search rows too.
  await fillItemNameWords(em);
  return { created };
}
