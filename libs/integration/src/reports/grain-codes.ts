import { formatDay } from '../domain/calendar';
import { grain, Group } from './grain';

const num = (g: Group, c: string) => Number(g[c] ?? 0);
const text = (g: Group, c: string) => String(g[c]);
// Codes in the database's order (binary, as GROUP BY returns them), not the locale's.
const byText = (a: Group, b: Group, c: string) => (text(a, c) < text(b, c) ? -1 : text(a, c) > text(b, c) ? 1 : 0);

/** One row per payment method (and currency). */
export const BY_METHOD = grain({
  name: 'method',
  groupBy: ['method_code', 'method_type'],
  dims: { method_code: (g) => text(g, 'method_code'), method_type: (g) => text(g, 'method_type'), currency: (g) => text(g, 'currency_code') },
  order: (a, b) => byText(a, b, 'method_code') || byText(a, b, 'method_type') || byText(a, b, 'currency_code'),
});

/** One point per business day and payment method (a line per method). */
export const BY_METHOD_DAY = grain({
  name: 'method-day',
  groupBy: ['day', 'method_code'],
  daily: true,
  dims: { method_code: (g) => text(g, 'method_code'), currency: (g) => text(g, 'currency_code') },
  order: (a, b) => num(a, 'day') - num(b, 'day') || byText(a, b, 'method_code') || byText(a, b, 'currency_code'),
});

/** One row per price source (and currency). */
export const BY_PRICE_SOURCE = grain({
  name: 'price-source',
  groupBy: ['price_source'],
  dims: { price_source: (g) => text(g, 'price_source'), currency: (g) => text(g, 'currency_code') },
  order: (a, b) => byText(a, b, 'price_source') || byText(a, b, 'currency_code'),
});

/** One row per business day and cashier (a cashier's own report), with the cashier's name. */
export const BY_CASHIER_DAY = grain<Map<number, string>>({
  name: 'cashier-day',
  groupBy: ['day', 'user_id'],
  daily: true,
  labels: (groups, ctx) => ctx.kit.users(groups.map((g) => num(g, 'user_id'))),
  dims: {
    date: (g) => formatDay(num(g, 'day')),
    cashier_id: (g) => num(g, 'user_id'),
    cashier_name: (g, l) => l.get(num(g, 'user_id')) ?? null,
    currency: (g) => text(g, 'currency_code'),
  },
  order: (a, b) => num(a, 'day') - num(b, 'day') || num(a, 'user_id') - num(b, 'user_id') || byText(a, b, 'currency_code'),
});
