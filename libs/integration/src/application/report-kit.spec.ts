import type { ItemCatalog, StockReadModel } from '@pos/catalog';
import type { AppConfig } from '@pos/platform';
import type { CurrencyDecimals, ReferenceService } from '@pos/pricing';
import type { NameDirectory } from './name.directory';
import { ReportKit } from './report-kit';
import type { RollupReader } from './rollup.ports';

/** The kit's label and base-currency caches: what is read, and when it is read again. */
describe('ReportKit caches', () => {
  const known = new Map([
    [1, 'Ann'],
    [2, 'Bob'],
  ]);
  function kit(ttlMs: number, currencies = [{ code: 'EUR', is_base: true }]) {
    const reads: number[][] = [];
    let currencyReads = 0;
    const names = {
      users: async (ids: number[]) => {
        reads.push([...ids]);
        return new Map(ids.filter((id) => known.has(id)).map((id) => [id, known.get(id)!]));
      },
      customers: async () => new Map<number, string>(),
      staffName: async () => undefined,
    } as NameDirectory;
    const reference = {
      currencies: async () => {
        currencyReads++;
        return currencies;
      },
    } as unknown as ReferenceService;
    const k = new ReportKit({} as RollupReader, {} as CurrencyDecimals, names, {} as ItemCatalog, {} as StockReadModel, reference, {
      reportsDirectoryTtlMs: ttlMs,
    } as AppConfig);
    return { k, reads, currencyReads: () => currencyReads };
  }

  it('reads only the ids not held, answers only the ids found, and reads an id not found again', async () => {
    const { k, reads } = kit(30_000);
    expect([...(await k.users([1, 3]))]).toEqual([[1, 'Ann']]);
    expect([...(await k.users([1, 2, 3]))]).toEqual([
      [1, 'Ann'],
      [2, 'Bob'],
    ]);
    expect(reads).toEqual([
      [1, 3],
      [2, 3],
    ]);
  });

  it('with REPORTS_DIRECTORY_TTL_MS 0 keeps nothing: every call reads', async () => {
    const { k, reads } = kit(0);
    await k.users([1]);
    await k.users([1]);
    expect(reads).toEqual([[1], [1]]);
  });

  it('reads the base currency once for its minute, whatever the directory TTL', async () => {
    const { k, currencyReads } = kit(0);
    expect(await k.baseCurrencyCode()).toBe('EUR');
    expect(await k.baseCurrencyCode()).toBe('EUR');
    expect(currencyReads()).toBe(1);
  });

  it('no base currency configured: 409 base_currency_missing, never a guessed currency', async () => {
    const { k } = kit(0, [{ code: 'EUR', is_base: false }]);
    await expect(k.baseCurrencyCode()).rejects.toMatchObject({ code: 'base_currency_missing' });
  });
});
