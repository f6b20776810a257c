import request from 'supertest';
import { StoreContext } from '@pos/catalog';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';

/**
 * The invariant suite's world. One API per suite (SQLite in memory, or a MariaDB database of its
 * own with TEST_DB=mysql); every sequence of operations runs in three stores of its own, created
 * for it, so its records, sessions and report figures are its alone (a shrunk sequence replays on
 * stores as fresh as the original's) and each check reads only that sequence's stores:
 *   X  tax-exclusive USD, New York (the demo Downtown store's settings: standard 8.25%, food 2%)
 *   I  tax-inclusive USD, New York (the demo Airport store's: standard 7.5%, food 2%, airport prices)
 *   J  tax-inclusive JPY (0 decimals), Tokyo (standard 10%, food 8%)
 * each with a floor (the default warehouse) and a back room, the cashier and the manager assigned,
 * stock received and a session open for both users.
 */
export type StoreKey = 'X' | 'I' | 'J';
export type Actor = 'cashier' | 'manager';
export const STORE_KEYS: StoreKey[] = ['X', 'I', 'J'];
export const ACTORS: Actor[] = ['cashier', 'manager'];

/** Items the sequences sell (none serial-tracked): tax classes standard, reduced and zero, book prices. */
export const POOL = ['BEV-001', 'BEV-003', 'SNK-002', 'COF-002', 'SNK-003', 'HSE-001', 'GRO-007', 'GRO-003', 'ELC-001', 'SNK-001'] as const;

export interface Suite {
  t: TestApp;
  /** Integration token with every report permission. */
  reports: string;
  admin: string;
  items: Record<string, number>;
  caseUnitId: number;
  memberCustomerId: number;
  exemptCustomerId: number;
  users: Record<Actor, number>;
  taxClasses: Record<string, number>;
  airportBookId: number;
  q: (sql: string, params?: unknown[]) => Promise<Record<string, unknown>[]>;
}

export interface StoreWorld {
  key: StoreKey;
  id: number;
  code: string;
  currency: string;
  decimals: number;
  inclusive: boolean;
  timezone: string;
  floor: number;
  back: number;
}

export interface World {
  suite: Suite;
  n: number;
  stores: Record<StoreKey, StoreWorld>;
  tokens: Record<Actor, string>;
  /** Open (or suspended) session ids per store and actor; null once closed and not reopened. */
  sessions: Record<StoreKey, Record<Actor, number | null>>;
  /** Sales of this sequence in the order they were made (ids), with their store. */
  sales: { id: number; store: StoreKey }[];
  returns: number[];
  /** One line per operation: what was sent and how it was answered (for failure messages). */
  log: string[];
  startedAt: Date;
  key: (prefix: string) => string;
}

export const storeIds = (w: World): number[] => STORE_KEYS.map((k) => w.stores[k].id);

export async function startSuite(): Promise<Suite> {
  // Each sequence's stores are new: reports read the store directory afresh (it is kept 30 s by default).
  const t = await startTestApp({ REPORTS_DIRECTORY_TTL_MS: '0' });
  const q = async (sql: string, params: unknown[] = []) => (await t.db.query(sql, params)) as Record<string, unknown>[];
  const reports = (
    await integrationToken(t, [
      'reports.view',
      'reports.sales',
      'reports.profit',
      'reports.inventory',
      'reports.customers',
      'reports.payments',
      'reports.stores',
      'reports.tax',
      'inventory.reports',
    ])
  ).token;
  const admin = await login(t, DEMO.admin);
  const items = Object.fromEntries((await q('SELECT id, sku FROM items')).map((r) => [String(r.sku), Number(r.id)]));
  const [unit] = await q("SELECT id FROM item_units WHERE item_id = ? AND name = 'case'", [items['BEV-001']]);
  const [jane] = await q("SELECT id FROM customers WHERE email = 'jane.doe@example.com'");
  const exempt = await request(t.http).post('/api/v1/customers').set(bearer(admin)).send({ name: 'Springfield Food Bank', tax_exempt: true });
  if (exempt.status !== 201) throw new Error(`exempt customer: ${exempt.status} ${JSON.stringify(exempt.body)}`);
  const users = Object.fromEntries(
    await Promise.all(ACTORS.map(async (a) => [a, Number((await q('SELECT id FROM users WHERE email = ?', [DEMO[a]]))[0].id)] as const)),
  ) as Record<Actor, number>;
  // Pricing rules (a new price, and a free unit: a rule discount) and a bundle on pool items.
  for (const [path, body] of [
    ['/pricing-rules', { name: 'Invariant crisps 10% off', kind: 'percent_off', percent_off: 10, item_ids: [items['SNK-001']] }],
    ['/pricing-rules', { name: 'Invariant salt 2 + 1 free', kind: 'buy_x_get_y', buy_quantity: 2, get_quantity: 1, item_ids: [items['GRO-007']] }],
    [
      '/bundles',
      {
        name: 'Invariant coffee and eggs',
        code: 'INV-BREAKFAST',
        price: 15,
        items: [items['COF-002'], items['GRO-003']].map((item_id) => ({ item_id, quantity: 1 })),
      },
    ],
  ] as const) {
    const res = await request(t.http).post(`/api/v1${path}`).set(bearer(admin)).send(body);
    if (res.status >= 300) throw new Error(`${path}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const taxClasses = Object.fromEntries((await q('SELECT id, code FROM tax_classes')).map((r) => [String(r.code), Number(r.id)]));
  const [book] = await q("SELECT id FROM price_books WHERE code = 'AIRPORT'");
  return {
    t,
    reports,
    admin,
    items,
    caseUnitId: Number(unit.id),
    memberCustomerId: Number(jane.id),
    exemptCustomerId: Number(exempt.body.data.id),
    users,
    taxClasses,
    airportBookId: Number(book.id),
    q,
  };
}

let worlds = 0;

const SETTINGS: Record<StoreKey, { currency: string; decimals: number; inclusive: boolean; timezone: string; standard: number; reduced?: number }> = {
  X: { currency: 'USD', decimals: 2, inclusive: false, timezone: 'America/New_York', standard: 825 },
  I: { currency: 'USD', decimals: 2, inclusive: true, timezone: 'America/New_York', standard: 750 },
  J: { currency: 'JPY', decimals: 0, inclusive: true, timezone: 'Asia/Tokyo', standard: 1000, reduced: 800 },
};

/** Opening floats in major units of the store currency. */
export const OPENING: Record<StoreKey, Record<Actor, number>> = {
  X: { cashier: 100, manager: 50 },
  I: { cashier: 80, manager: 40 },
  J: { cashier: 10000, manager: 5000 },
};

export async function newWorld(suite: Suite): Promise<World> {
  const n = ++worlds;
  const { t, q } = suite;
  const now = t.isMysql ? new Date() : new Date().toISOString().replace('T', ' ').replace('Z', '');
  const stores = {} as Record<StoreKey, StoreWorld>;
  for (const key of STORE_KEYS) {
    const s = SETTINGS[key];
    const code = `Q${n}${key}`;
    await q(
      'INSERT INTO stores (name, code, currency_code, timezone, prices_include_tax, allow_negative_stock, receipt_header, receipt_footer, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      [`Invariant ${code}`, code, s.currency, s.timezone, s.inclusive ? 1 : 0, 0, code, 'Thanks', 1, now, now],
    );
    const id = Number((await q('SELECT id FROM stores WHERE code = ?', [code]))[0].id);
    const wh: number[] = [];
    for (const suffix of ['FLOOR', 'BACK']) {
      await q('INSERT INTO warehouses (store_id, name, code, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)', [
        id,
        `${code} ${suffix}`,
        `${code}-${suffix}`,
        1,
        now,
        now,
      ]);
      wh.push(Number((await q('SELECT id FROM warehouses WHERE code = ?', [`${code}-${suffix}`]))[0].id));
    }
    await q('UPDATE stores SET default_warehouse_id = ? WHERE id = ?', [wh[0], id]);
    for (const { id: pm } of await q("SELECT id FROM payment_methods WHERE code IN ('cash', 'card', 'on_account')"))
      await q('INSERT INTO store_payment_methods (store_id, payment_method_id) VALUES (?, ?)', [id, pm]);
    for (const [cls, bp] of [
      ['standard', s.standard],
      ['reduced', s.reduced],
    ] as const) {
      if (bp === undefined) continue;
      await q('INSERT INTO tax_rates (tax_class_id, store_id, name, rate_bp, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        suite.taxClasses[cls],
        id,
        `${cls} ${bp / 100}%`,
        bp,
        1,
        now,
        now,
      ]);
    }
    for (const user of Object.values(suite.users)) await q('INSERT INTO user_stores (user_id, store_id) VALUES (?, ?)', [user, id]);
    if (key === 'I') await q('INSERT INTO price_book_stores (price_book_id, store_id) VALUES (?, ?)', [suite.airportBookId, id]);
    stores[key] = { key, id, code, currency: s.currency, decimals: s.decimals, inclusive: s.inclusive, timezone: s.timezone, floor: wh[0], back: wh[1] };
  }
  t.app.get(StoreContext).invalidate();
  const tokens = { cashier: await login(t, DEMO.cashier), manager: await login(t, DEMO.manager) };
  const sessions = {} as World['sessions'];
  for (const key of STORE_KEYS) {
    const s = stores[key];
    for (const [warehouse, quantity] of [
      [s.floor, 60],
      [s.back, 15],
    ]) {
      const res = await request(t.http)
        .post('/api/v1/inventory/adjustments')
        .set(bearer(tokens.manager))
        .send({ type: 'receive', warehouse_id: warehouse, items: POOL.map((sku) => ({ item_id: suite.items[sku], quantity })) });
      if (res.status !== 201) throw new Error(`stock for ${s.code}: ${res.status} ${JSON.stringify(res.body)}`);
    }
    sessions[key] = { cashier: null, manager: null };
    for (const actor of ACTORS) sessions[key][actor] = await openSession(suite, tokens[actor], s, OPENING[key][actor]);
  }
  let keys = 0;
  return { suite, n, stores, tokens, sessions, sales: [], returns: [], log: [], startedAt: new Date(), key: (prefix) => `inv-${n}-${prefix}-${++keys}` };
}

export async function openSession(suite: Suite, token: string, store: StoreWorld, opening: number): Promise<number> {
  const res = await request(suite.t.http).post('/api/v1/sessions/open').set(bearer(token)).send({ store_id: store.id, opening_balance: opening });
  if (res.status !== 200) throw new Error(`open session in ${store.code}: ${res.status} ${JSON.stringify(res.body)}`);
  return Number(res.body.data.id);
}

/** Minor units of a JSON amount in a currency with `decimals` (exact for the amounts JSON carries). */
export const minor = (v: number, decimals: number): number => Math.round(v * 10 ** decimals);
/** A JSON amount from minor units. */
export const major = (v: number, decimals: number): number => Number((v / 10 ** decimals).toFixed(decimals));

export interface Answer {
  status: number;
  body: { success?: boolean; data?: any; errors?: Record<string, string[]>; message?: string; code?: string; [k: string]: unknown };
  headers: Record<string, string>;
}

export async function call(w: World | Suite, method: 'get' | 'post', path: string, token: string, body?: unknown): Promise<Answer> {
  const t = 'suite' in w ? w.suite.t : w.t;
  const req = request(t.http)[method](`/api/v1${path}`).set(bearer(token));
  const res = body === undefined ? await req : await req.send(body as object);
  return { status: res.status, body: res.body, headers: res.headers as Record<string, string> };
}
