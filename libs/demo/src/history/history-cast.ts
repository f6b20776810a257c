import { DataSource } from 'typeorm';
import { OPERATOR, Principal, UserAdminService } from '@pos/identity';
import { CustomerService } from '@pos/customers';
import { PricingRuleService } from '@pos/pricing';
import { DAY_MS } from './trading-plan';

/** The staff the history adds to the demo's three users (password "password", like theirs). */
const HISTORY_STAFF = [
  { key: 'dana', email: 'dana@example.com', name: 'Dana Diaz', stores: ['DT'] },
  { key: 'ari', email: 'ari@example.com', name: 'Ari Patel', stores: ['AP'] },
  { key: 'bea', email: 'bea@example.com', name: 'Bea Lopez', stores: ['AP'] },
] as const;

const HISTORY_CUSTOMERS = [
  { name: 'Liam Chen', email: 'liam.chen@example.com', group: 'members', store: 'DT' },
  { name: 'Olivia Brooks', email: 'olivia.brooks@example.com', group: 'members', store: 'DT' },
  { name: 'Noah Kim', email: 'noah.kim@example.com', group: 'retail', store: 'AP' },
  { name: 'Emma Garcia', email: 'emma.garcia@example.com', group: 'members', store: 'AP' },
] as const;

export interface HistoryStore {
  id: number;
  code: string;
  timeZone: string;
  warehouseId: number;
  /** Decimals of the store's currency: amounts are minor units of it. */
  decimals: number;
}

/** Who and what the history trades with: ids of the demo data set, and principals to act as. */
export interface HistoryCast {
  stores: HistoryStore[];
  items: Map<string, { id: number; serial: boolean }>;
  /** Cashier key (cass, dana, ari, bea, manager) -> the principal who works the till. */
  staff: Map<string, Principal>;
  manager: Principal;
  admin: Principal;
  /** Named customers (Jane Doe and the history's). */
  customers: number[];
  returnReasons: number[];
}

const n = (v: unknown) => Number(v);

/**
 * Adds the history's cast through the use cases (staff through user administration, customers
 * through the customers context, two promotions through the pricing rules), then reads the ids
 * the days need. The promotions: "Coffee Tuesday" (10% off coffee and tea on Tuesdays, still on)
 * and "Snack multibuy" (3 or more of a snack: 15% off), which ran for the first half of the history.
 */
export async function castHistory(
  db: DataSource,
  deps: { users: UserAdminService; customers: CustomerService; rules: PricingRuleService },
  start: Date,
  days: number,
): Promise<HistoryCast> {
  const q = async (sql: string, params: unknown[] = []) => (await db.query(sql, params)) as Record<string, unknown>[];
  const stores = (
    await q('SELECT s.id, s.code, s.timezone, s.default_warehouse_id, c.decimals FROM stores s JOIN currencies c ON c.code = s.currency_code ORDER BY s.id')
  ).map((r) => ({
    id: n(r.id),
    code: String(r.code),
    timeZone: String(r.timezone),
    warehouseId: n(r.default_warehouse_id),
    decimals: n(r.decimals),
  }));
  const storeId = (code: string) => stores.find((s) => s.code === code)!.id;
  const userId = async (email: string) => (await q('SELECT id FROM users WHERE email = ?', [email]))[0]?.id;

  for (const s of HISTORY_STAFF) {
    if ((await userId(s.email)) !== undefined) continue;
    await deps.users.createUser({ name: s.name, email: s.email, password: 'password', role: 'cashier', storeIds: s.stores.map(storeId) });
  }
  const principalOf = async (email: string) => deps.users.principalOf(n(await userId(email)));
  const admin = await principalOf('admin@example.com');
  const manager = await principalOf('manager@example.com');
  const staff = new Map<string, Principal>([
    ['cass', await principalOf('cashier@example.com')],
    ['manager', manager],
  ]);
  for (const s of HISTORY_STAFF) staff.set(s.key, await principalOf(s.email));

  const groups = new Map((await q('SELECT id, code FROM customer_groups')).map((r) => [String(r.code), n(r.id)]));
  for (const c of HISTORY_CUSTOMERS) {
    if ((await q('SELECT id FROM customers WHERE email = ?', [c.email])).length) continue;
    await deps.customers.create(admin, { name: c.name, email: c.email, customerGroupId: groups.get(c.group) ?? null, storeId: storeId(c.store) });
  }
  const customers = (await q("SELECT id FROM customers WHERE is_walk_in = 0 AND email LIKE '%@example.com' ORDER BY id")).map((r) => n(r.id));

  const categories = new Map((await q('SELECT id, slug FROM categories')).map((r) => [String(r.slug), n(r.id)]));
  if (!(await q("SELECT id FROM pricing_rules WHERE name IN ('Coffee Tuesday', 'Snack multibuy')")).length) {
    const rule = {
      description: null,
      priority: 10,
      exclusive: false,
      active: true,
      value: null,
      tiers: null,
      buyQuantity: null,
      getQuantity: null,
      getPercentOffBp: null,
    };
    await deps.rules.create(
      OPERATOR,
      { ...rule, name: 'Coffee Tuesday', kind: 'percent_off', conditions: { categoryIds: [categories.get('coffee')!], daysOfWeek: [2], validFrom: start } },
      { percentOffBp: 1000 },
    );
    await deps.rules.create(OPERATOR, {
      ...rule,
      name: 'Snack multibuy',
      kind: 'quantity_tiers',
      tiers: [{ minQuantity: 3, percentOffBp: 1500 }],
      conditions: { categoryIds: [categories.get('snacks')!], validFrom: start, validTo: new Date(start.getTime() + Math.ceil(days / 2) * DAY_MS) },
    });
  }

  const items = new Map(
    (await q('SELECT id, sku, is_serial_tracked FROM items')).map((r) => [String(r.sku), { id: n(r.id), serial: Boolean(n(r.is_serial_tracked)) }]),
  );
  const returnReasons = (await q('SELECT id FROM return_reasons WHERE is_active = 1 ORDER BY sort_order, id')).map((r) => n(r.id));
  return { stores, items, staff, manager, admin, customers, returnReasons };
}
