/**
 * The demo history's plan, pure and deterministic: who works which till on a day, how many
 * customers come and when, what they buy and how they pay. Every draw comes from a PRNG seeded by
 * the store and the calendar date (mulberry32), so a given date trades the same on every machine
 * and whenever the demo is loaded; the amounts themselves are left to the pricing engine.
 */
import { DAY_MS, seededRandom } from '@pos/kernel';
import { weekdayOf, ZoneCalendar } from '@pos/integration';

export { DAY_MS };

/** The plan's random stream (the kernel's seeded mulberry32). */
export const prng = seededRandom;

/** FNV-1a of a text: the seed of one store's day. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

export type Rand = () => number;

export const between = (rand: Rand, lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));

export function pick<T>(rand: Rand, weighted: readonly (readonly [T, number])[]): T {
  const total = weighted.reduce((a, [, w]) => a + w, 0);
  let r = rand() * total;
  for (const [v, w] of weighted) if ((r -= w) < 0) return v;
  return weighted[weighted.length - 1][0];
}

/** The store's calendar date (days since 1970-01-01) at an instant: the reports' own calendar. */
export function localDay(at: Date, timeZone: string): number {
  return ZoneCalendar.of(timeZone).dayOf(at);
}

/** The instant of a local wall time (minutes after midnight) on a store's calendar date. */
export function instantOf(day: number, minuteOfDay: number, timeZone: string): Date {
  return new Date(ZoneCalendar.of(timeZone).startOf(day).getTime() + minuteOfDay * 60_000);
}

/** How a store trades: its customers per day, rhythm over the week, hours, tills and shelves. */
export interface StoreProfile {
  code: string;
  /** Customers on an average day at the start of the history. */
  baseCustomers: number;
  /** Factor per ISO weekday, Monday first. */
  weekly: readonly number[];
  /** Growth over the whole history (0.12: a day at the end sees 12% more customers than at the start). */
  trend: number;
  opensAt: number;
  closesAt: number;
  /** Cashier keys per till, Monday first (one key per weekday per till). */
  rota: readonly (readonly string[])[];
  /** SKUs on the shelf, with how often they are picked. */
  assortment: readonly (readonly [string, number])[];
  cashShare: number;
}

const h = (hours: number) => hours * 60;

export const STORE_PROFILES: readonly StoreProfile[] = [
  {
    code: 'DT',
    baseCustomers: 27,
    weekly: [0.85, 0.9, 0.95, 1.0, 1.15, 1.35, 0.8],
    trend: 0.12,
    opensAt: h(8),
    closesAt: h(20),
    rota: [
      ['cass', 'cass', 'cass', 'cass', 'cass', 'dana', 'dana'],
      ['manager', 'dana', 'dana', 'dana', 'dana', 'cass', 'cass'],
    ],
    assortment: [
      ['BEV-001', 8],
      ['BEV-002', 4],
      ['BEV-003', 7],
      ['BEV-004', 5],
      ['BEV-005', 3],
      ['COF-001', 3],
      ['COF-002', 3],
      ['COF-003', 2],
      ['SNK-001', 5],
      ['SNK-002', 6],
      ['SNK-003', 2],
      ['SNK-004', 4],
      ['SNK-005', 2],
      ['GRO-001', 7],
      ['GRO-002', 8],
      ['GRO-003', 4],
      ['GRO-004', 2],
      ['GRO-005', 2],
      ['GRO-006', 4],
      ['GRO-007', 1],
      ['HSE-001', 2],
      ['HSE-002', 2],
      ['HSE-003', 1],
      ['HSE-004', 2],
      ['HSE-005', 1],
      ['ELC-001', 1],
      ['ELC-004', 1],
      ['ELC-006', 1],
    ],
    cashShare: 0.45,
  },
  {
    code: 'AP',
    baseCustomers: 22,
    weekly: [1.0, 0.85, 0.85, 1.0, 1.25, 0.95, 1.2],
    trend: 0.1,
    opensAt: h(6),
    closesAt: h(21),
    rota: [
      ['ari', 'ari', 'ari', 'ari', 'ari', 'bea', 'bea'],
      ['bea', 'bea', 'bea', 'manager', 'bea', 'ari', 'ari'],
    ],
    assortment: [
      ['BEV-001', 10],
      ['BEV-002', 5],
      ['BEV-003', 8],
      ['BEV-005', 5],
      ['COF-003', 2],
      ['SNK-001', 5],
      ['SNK-002', 7],
      ['SNK-003', 4],
      ['SNK-004', 5],
      ['SNK-005', 3],
      ['ELC-001', 3],
      ['ELC-004', 3],
      ['ELC-006', 2],
      ['HSE-004', 2],
    ],
    cashShare: 0.25,
  },
];

export interface PlannedLine {
  sku: string;
  qty: number;
  /** A cashier's manual discount (within the cashier role's 10%), in bp, and why. */
  discountBp?: number;
  reason?: string;
}

export interface PlannedSale {
  minute: number;
  till: number;
  lines: PlannedLine[];
  tender: 'cash' | 'card';
  /** Index into the demo's named customers, or none (walk in). */
  customer?: number;
}

export interface DayPlan {
  day: number;
  /** Cashier key per till. */
  tills: string[];
  sales: PlannedSale[];
  /** Sales of the day a manager voids (indexes into `sales`; only on a manager's shift). */
  voids: number[];
  /** Returns the manager takes at the desk (of earlier sales), when on shift. */
  returns: number;
  /** The closing count's difference from the expected cash, per till, in minor units. */
  overShort: number[];
  rand: Rand;
}

const DISCOUNT_REASONS = ['Damaged packaging', 'Price match', 'Short date'];

/**
 * One store's day. `progress` runs from 0 (the first day of the history) to 1 (yesterday) and
 * carries the trend; `customers` is how many named customers the demo has (Jane and the others).
 */
export function planDay(p: StoreProfile, day: number, progress: number, customers: number): DayPlan {
  const rand = prng(seedOf(`${p.code}:${day}`));
  const weekday = weekdayOf(day);
  const tills = p.rota.map((r) => r[weekday]);
  const expected = p.baseCustomers * p.weekly[weekday] * (1 + p.trend * progress) * (0.85 + rand() * 0.3);
  const count = Math.max(4, Math.round(expected));
  const sales: PlannedSale[] = [];
  for (let i = 0; i < count; i++) {
    // busier around lunch and after work: two humps over the opening hours
    const hump = rand() < 0.5 ? h(12.5) : h(17.5);
    const spread = (rand() + rand() + rand() - 1.5) * h(3);
    const minute = Math.min(p.closesAt - 10, Math.max(p.opensAt + 5, Math.round(hump + spread)));
    const size = pick(rand, [
      [1, 30],
      [2, 28],
      [3, 20],
      [4, 12],
      [5, 7],
      [6, 3],
    ] as const);
    const lines: PlannedLine[] = [];
    for (let n = 0; n < size; n++) {
      const sku = pick(rand, p.assortment);
      if (lines.some((l) => l.sku === sku)) continue;
      const line: PlannedLine = {
        sku,
        qty: pick(rand, [
          [1, 70],
          [2, 20],
          [3, 7],
          [4, 3],
        ] as const),
      };
      if (rand() < 0.03) Object.assign(line, { discountBp: rand() < 0.6 ? 500 : 1000, reason: DISCOUNT_REASONS[between(rand, 0, 2)] });
      lines.push(line);
    }
    sales.push({
      minute,
      till: between(rand, 0, tills.length - 1),
      lines,
      tender: rand() < p.cashShare ? 'cash' : 'card',
      customer: customers > 0 && rand() < 0.15 ? between(rand, 0, customers - 1) : undefined,
    });
  }
  sales.sort((a, b) => a.minute - b.minute);
  const managerOn = tills.includes('manager');
  const voids = managerOn && rand() < 0.7 ? [between(rand, 0, sales.length - 1)] : [];
  const returns = managerOn ? between(rand, 1, 3) : 0;
  const overShort = tills.map(() =>
    rand() < 0.12
      ? pick(rand, [
          [-500, 1],
          [-100, 2],
          [-25, 2],
          [25, 2],
          [100, 2],
          [200, 1],
        ] as const)
      : 0,
  );
  return { day, tills, sales, voids, returns, overShort, rand };
}

/** Cash handed over for a total: exact, or the next round note above it. */
export function cashTendered(total: number, rand: Rand): number {
  const r = rand();
  if (r < 0.2) return total;
  const note = r < 0.45 ? 500 : r < 0.75 ? 1000 : r < 0.95 ? 2000 : 5000;
  return Math.ceil((total + 1) / note) * note;
}
