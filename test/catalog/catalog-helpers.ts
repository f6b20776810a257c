import request from 'supertest';
import { TestApp } from '../support/test-app';

/** Ids of the demo data, looked up by natural key (code, SKU) instead of guessed. */
export interface DemoIds {
  store: { DT: number; AP: number };
  warehouse: { DT: number; AP: number; CENTRAL: number };
  item: Record<string, number>;
  category: Record<string, number>;
}

export async function demoIds(t: TestApp): Promise<DemoIds> {
  const stores = (await t.db.query('SELECT id, code FROM stores')) as { id: number; code: string }[];
  const warehouses = (await t.db.query('SELECT id, code FROM warehouses')) as { id: number; code: string }[];
  const items = (await t.db.query('SELECT id, sku FROM items')) as { id: number; sku: string }[];
  const categories = (await t.db.query('SELECT id, slug FROM categories')) as { id: number; slug: string }[];
  const byCode = <T extends { id: number }>(rows: T[], key: keyof T, value: string) => Number(rows.find((r) => r[key] === value)!.id);
  return {
    store: { DT: byCode(stores, 'code', 'DT'), AP: byCode(stores, 'code', 'AP') },
    warehouse: { DT: byCode(warehouses, 'code', 'DT-MAIN'), AP: byCode(warehouses, 'code', 'AP-MAIN'), CENTRAL: byCode(warehouses, 'code', 'CENTRAL') },
    item: Object.fromEntries(items.map((i) => [i.sku, Number(i.id)])),
    category: Object.fromEntries(categories.map((c) => [c.slug, Number(c.id)])),
  };
}

/** Barcode the demo seed gives the item at zero-based position `index` of its list. */
export const demoBarcode = (index: number): string => String(4006381333900 + index * 7);

/** A request that must be answered without a server error and, when `allowed` is given, with one of those statuses. */
export function expectNo5xx(res: request.Response, allowed?: number[]): void {
  const req = (res as unknown as { req?: { method?: string; path?: string } }).req;
  const what = `${req?.method ?? ''} ${(req?.path ?? '').slice(0, 200)}`;
  if (res.status >= 500) throw new Error(`${res.status} for ${what}: ${JSON.stringify(res.body)}`);
  if (allowed && !allowed.includes(res.status))
    throw new Error(`expected one of ${allowed.join(',')} but got ${res.status} for ${what}: ${JSON.stringify(res.body)}`);
}

/** Values that must never produce a 5xx when they land in a path segment or a query parameter. */
export const HOSTILE_IDS = [
  "1' OR '1'='1",
  '1;DROP TABLE items',
  'abc',
  '-1',
  '0',
  '1.5',
  '1e3',
  '99999999999999999999',
  '2147483648',
  '%00',
  'null',
  'x'.repeat(10_000),
];

export const LONG = 'x'.repeat(10_000);
