import type { AppConfig } from '@pos/platform';
import { ItemFilter } from './catalog.ports';
import { ItemListTotals } from './item-list-totals';
import { ItemReferenceCache } from './item-reference.cache';

/** Totals with a fake reference cache whose write signal the test sends (`written`). */
function totals(ttlMs = 60_000, asOf: () => Date | undefined = () => undefined) {
  const listeners: (() => void)[] = [];
  const references = { onChanged: (l: () => void) => listeners.push(l) } as unknown as ItemReferenceCache;
  const t = new ItemListTotals(references, { referenceCacheTtlMs: ttlMs } as AppConfig);
  Object.defineProperty(t, 'freshness', { value: asOf });
  const calls: (number | undefined)[] = [];
  /** A page whose count (when asked) answers `total`; records what each read was given. */
  const page = (filter: ItemFilter, total: number, during?: () => void) =>
    t.page(filter, async (known) => {
      calls.push(known);
      during?.();
      return { total: known ?? total };
    });
  return { page, calls, written: () => listeners.forEach((l) => l()) };
}

describe('ItemListTotals', () => {
  it("counts a filter's first page and gives its total to the next pages", async () => {
    const t = totals();
    expect(await t.page({ q: 'apple' }, 7)).toEqual({ total: 7 });
    expect(await t.page({ q: 'apple' }, 99)).toEqual({ total: 7 });
    expect(t.calls).toEqual([undefined, 7]);
  });

  it('keeps each filter apart: term, category and active flag', async () => {
    const t = totals();
    await t.page({ q: 'apple' }, 7);
    await t.page({ q: 'apple', isActive: true }, 5);
    await t.page({ q: 'apple', categoryId: 3 }, 2);
    await t.page({ q: 'Apple' }, 6);
    await t.page({}, 100);
    expect(t.calls).toEqual([undefined, undefined, undefined, undefined, undefined]);
    expect(await t.page({ q: 'apple', isActive: true }, 0)).toEqual({ total: 5 });
    expect(await t.page({}, 0)).toEqual({ total: 100 });
  });

  it('forgets every total when an item is written', async () => {
    const t = totals();
    await t.page({ q: 'apple' }, 7);
    t.written();
    expect(await t.page({ q: 'apple' }, 8)).toEqual({ total: 8 });
    expect(t.calls).toEqual([undefined, undefined]);
  });

  it('does not keep a total whose read overlapped a write', async () => {
    const t = totals();
    expect(await t.page({ q: 'apple' }, 7, t.written)).toEqual({ total: 7 });
    await t.page({ q: 'apple' }, 8);
    expect(t.calls).toEqual([undefined, undefined]);
  });

  it('does not keep a total read on a replica whose data predates the last write heard of', async () => {
    let moment: Date | undefined = new Date(0);
    const t = totals(60_000, () => moment);
    t.written();
    await t.page({ q: 'apple' }, 7); // a replica as of 1970: older than the write
    moment = new Date(Date.now() + 60_000); // a replica past the write
    await t.page({ q: 'apple' }, 8);
    expect(await t.page({ q: 'apple' }, 9)).toEqual({ total: 8 });
    expect(t.calls).toEqual([undefined, undefined, 8]);
    // Nothing heard since the process started: a replica older than the start is not trusted either
    const fresh = totals(60_000, () => new Date(Date.now() - 60_000));
    await fresh.page({ q: 'apple' }, 7);
    await fresh.page({ q: 'apple' }, 7);
    expect(fresh.calls).toEqual([undefined, undefined]);
  });

  it('lets concurrent pages of one filter share one count', async () => {
    const t = totals();
    const answers = await Promise.all([t.page({ q: 'pear' }, 4), t.page({ q: 'pear' }, 5), t.page({ q: 'pear' }, 6)]);
    expect(answers).toEqual([{ total: 4 }, { total: 4 }, { total: 4 }]);
    expect(t.calls).toEqual([undefined, 4, 4]);
  });

  it('keeps nothing for change mode or a field it does not key on, nor with a TTL of 0', async () => {
    const t = totals();
    const feed = { change: { after: null, horizon: new Date(), limit: 10 } } as unknown as ItemFilter;
    await t.page(feed, 3);
    await t.page(feed, 3);
    expect(t.calls).toEqual([undefined, undefined]);
    // A field the key does not hold (one added to ItemFilter later): counted every time
    const other = { q: 'apple', shelf: 'top' } as unknown as ItemFilter;
    await t.page(other, 3);
    await t.page(other, 3);
    expect(t.calls).toEqual([undefined, undefined, undefined, undefined]);
    // Fields left undefined are no filter
    await t.page({ q: 'kiwi', categoryId: undefined }, 2);
    expect(await t.page({ q: 'kiwi' }, 9)).toEqual({ total: 2 });
    const off = totals(0);
    await off.page({ q: 'apple' }, 7);
    await off.page({ q: 'apple' }, 7);
    expect(off.calls).toEqual([undefined, undefined]);
  });
});
