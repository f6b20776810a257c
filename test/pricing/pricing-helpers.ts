import request from 'supertest';
import { bearer, DEMO, login, TestApp } from '../support/test-app';

/** Rounds numerator / denominator (non-negative integers) half away from zero, in integers. */
export function divRound(numerator: number, denominator: number): number {
  const n = BigInt(numerator);
  const d = BigInt(denominator);
  const q = n / d;
  return Number((n % d) * 2n >= d ? q + 1n : q);
}

/** Decimal (2 places) to cents without binary rounding surprises. */
export const cents = (v: number): number => Math.round(v * 100);

/** Tax-exclusive store: tax = net x rate, per line. */
export const exclusiveTax = (netCents: number, rateBp: number): number => divRound(netCents * rateBp, 10000);

/** Tax-inclusive store: tax = gross x rate / (1 + rate), per line. */
export const inclusiveTax = (grossCents: number, rateBp: number): number => divRound(grossCents * rateBp, 10000 + rateBp);

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];

/** Day of week (0 = Sunday) and minutes after midnight now in America/New_York (the demo stores' zone). */
export function newYorkNow(): { day: number; minutes: number } {
  const f = new Intl.DateTimeFormat('en-US', { timeZone: 'America/New_York', weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });
  const parts = Object.fromEntries(f.formatToParts(new Date()).map((p) => [p.type, p.value]));
  return { day: WEEKDAYS.indexOf(parts.weekday), minutes: Number(parts.hour) * 60 + Number(parts.minute) };
}

/** Minutes after midnight (any integer, wraps around the day) as HH:MM. */
export function hhmm(minutes: number): string {
  const m = ((minutes % 1440) + 1440) % 1440;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
}

/** A token of an API application holding exactly `permissions`, with the POS ability. */
export async function appToken(t: TestApp, permissions: string[]): Promise<string> {
  const admin = await login(t, DEMO.admin);
  const app = await request(t.http)
    .post('/api/v1/api-applications')
    .set(bearer(admin))
    .send({ name: `App ${permissions.join(' ')}`, permissions });
  if (app.status !== 201) throw new Error(`create app failed: ${app.status} ${JSON.stringify(app.body)}`);
  const tok = await request(t.http)
    .post(`/api/v1/api-applications/${app.body.data.id}/tokens`)
    .set(bearer(admin))
    .send({ name: 'pos', abilities: ['pos'] });
  if (tok.status !== 201) throw new Error(`issue token failed: ${tok.status} ${JSON.stringify(tok.body)}`);
  return tok.body.data.token as string;
}

/** Creating rules through the API (pricing.manage) and removing them again, so tests do not leak rules. */
export function ruleKit(app: () => TestApp, token: () => string) {
  const create = async (body: Record<string, unknown>): Promise<number> => {
    const res = await request(app().http).post('/api/v1/pricing-rules').set(bearer(token())).send(body);
    if (res.status !== 200) throw new Error(`create rule failed: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body.data.id as number;
  };
  const remove = async (id: number): Promise<void> => {
    const res = await request(app().http).delete(`/api/v1/pricing-rules/${id}`).set(bearer(token()));
    if (res.status !== 200) throw new Error(`delete rule ${id} failed: ${res.status} ${JSON.stringify(res.body)}`);
  };
  const withRules = async (bodies: Record<string, unknown>[], fn: (ids: number[]) => Promise<void>): Promise<void> => {
    const ids: number[] = [];
    try {
      for (const b of bodies) ids.push(await create(b));
      await fn(ids);
    } finally {
      for (const id of ids) await remove(id);
    }
  };
  return { create, remove, withRules };
}

/** Line of a priced cart as the API returns it. */
export interface PricedLine {
  line: number;
  item_id: number;
  sku: string;
  quantity: number;
  unit: { id: number; name: string; factor: number } | null;
  base_quantity: number;
  base_price: number;
  server_unit_price: number;
  unit_price: number;
  price_source: string;
  gross: number;
  discounts: { rule: number; bundle: number; manual: number; cart: number; total: number };
  net: number;
  tax_rate: number;
  tax: number;
  total: number;
  steps: { step: string; id: number | null; name: string | null; unit_price: number | null; amount: number | null }[];
}

/** Sum of decimals (2 places) through cents. */
export const sumMoney = (values: number[]): number => values.reduce((a, v) => a + cents(v), 0) / 100;
