import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createContext, runInContext } from 'node:vm';

interface PosFormat {
  number(v: unknown): string;
  money(v: unknown, currency?: string | null): string;
  percent(v: unknown): string;
  dateTime(text: string): string;
  date(text: string, short?: boolean): string;
  words(text: string): string;
  text(v: unknown): string;
  seriesName(s: { name: string; currency: string | null }): string;
  useCurrencies(list: { code: string; decimals: number }[]): void;
}

/**
 * The dashboard's formatters (format.js, browser JavaScript) run in a sandbox whose viewer reads
 * en-GB in Asia/Tokyo: the browser's default locale and zone, pinned so the figures are exact.
 */
function load(): PosFormat {
  const pinned = <T extends new (locale?: string | string[], options?: object) => unknown>(Base: T, zone: boolean) =>
    function (locale?: string | string[], options: Record<string, unknown> = {}) {
      return new Base(locale ?? 'en-GB', zone && !options.timeZone ? { ...options, timeZone: 'Asia/Tokyo' } : options);
    };
  const sandbox: Record<string, unknown> = {
    Intl: { ...Intl, NumberFormat: pinned(Intl.NumberFormat, false), DateTimeFormat: pinned(Intl.DateTimeFormat, true) },
  };
  sandbox.window = sandbox;
  createContext(sandbox);
  runInContext(readFileSync(join(__dirname, 'format.js'), 'utf8'), sandbox);
  return sandbox.PosFormat as PosFormat;
}

describe('dashboard formatters (format.js)', () => {
  const F = load();
  F.useCurrencies([
    { code: 'USD', decimals: 2 },
    { code: 'JPY', decimals: 0 },
    { code: 'KWD', decimals: 3 },
    { code: 'XTS', decimals: 4 },
  ]);

  it("writes money with its own currency's decimals, never a default scale", () => {
    expect(F.money(1234.5, 'USD')).toMatch(/^US\$1,234\.50$/);
    expect(F.money(1234.4, 'JPY')).toMatch(/¥1,234$/);
    expect(F.money(1.5, 'KWD')).toMatch(/^KWD\s1\.500$/);
    expect(F.money(0.1234, 'XTS')).toMatch(/0\.1234$/); // the decimals GET /currencies gives win over ISO's
    expect(F.money(1.23456, null)).toBe('1.23456'); // no currency: the value as it is, not rounded to 2
    expect(F.money(null, 'USD')).toBe('–');
  });

  it('writes times in the viewer zone, business days as dates, percentages with %', () => {
    expect(F.dateTime('2026-11-26T05:05:00.000Z')).toBe('26 Nov 2026, 14:05');
    expect(F.text('2026-11-26T05:05:00Z')).toBe('26 Nov 2026, 14:05');
    expect(F.text('2026-11-26')).toBe('26 Nov 2026'); // a calendar day: no shift by the zone
    expect(F.date('2026-11-26', true)).toBe('26 Nov');
    expect(F.percent(64.33)).toBe('64.33 %');
  });

  it('writes enum and snake_case values as words, other text as it is', () => {
    expect(F.text('cash_drop')).toBe('Cash drop');
    expect(F.text('closed')).toBe('Closed');
    expect(F.text('card')).toBe('Card');
    expect(F.text('HSE-001')).toBe('HSE-001');
    expect(F.text('Dish Soap 750ml')).toBe('Dish Soap 750ml');
    expect(F.text(null)).toBe('–');
  });

  it('names a series with its currency once', () => {
    expect(F.seriesName({ name: 'cash (USD)', currency: 'USD' })).toBe('Cash (USD)');
    expect(F.seriesName({ name: 'on_account', currency: 'USD' })).toBe('On account (USD)');
    expect(F.seriesName({ name: 'USD', currency: 'USD' })).toBe('USD');
    expect(F.seriesName({ name: 'units', currency: null })).toBe('Units');
  });
});
