import { ForbiddenError, ValidationFailedError } from '@pos/kernel';
import type { Principal } from '@pos/identity';
import type { AppConfig } from '@pos/platform';
import { StoreRecord, StoreRepository } from './store.ports';
import { StoreContext } from './store-context';

const store = (id: number): StoreRecord => ({ id, code: `S${id}`, defaultWarehouseId: id * 10 }) as StoreRecord;
const principal = (stores: number[] | 'all', defaultStoreId: number | null = null): Principal =>
  ({ stores, defaultStoreId, token: { storeId: null } }) as unknown as Principal;

describe('StoreContext (with a fake store repository)', () => {
  const repo = {
    findStore: async (id: number) => ([1, 2].includes(id) ? store(id) : null),
    storesOfWarehouse: async (w: number) => (w === 10 ? [1] : w === 99 ? [1, 2] : w === 20 ? [2] : []),
  } as unknown as StoreRepository;
  const ctx = new StoreContext(repo);
  const fieldOf = (e: unknown) => Object.keys((e as ValidationFailedError).fields);

  it("resolves the named store, else the principal's current one", async () => {
    expect((await ctx.resolve(principal([1, 2]), 2)).id).toBe(2);
    expect((await ctx.resolve(principal([2, 1]))).id).toBe(2);
    expect((await ctx.resolve(principal('all', 1))).id).toBe(1);
  });

  it('answers no store with 422, another store with 403 and an unknown one with 422', async () => {
    expect(fieldOf(await ctx.resolve(principal('all')).catch((e: unknown) => e))).toEqual(['store_id']);
    await expect(ctx.resolve(principal([1]), 2)).rejects.toBeInstanceOf(ForbiddenError);
    expect(fieldOf(await ctx.resolve(principal('all'), 3).catch((e: unknown) => e))).toEqual(['store_id']);
  });

  it("sells from the store's default warehouse, or a named one only if it serves the store", async () => {
    expect(await ctx.selling(principal([1]), { storeId: 1 })).toMatchObject({ warehouseId: 10 });
    expect(await ctx.selling(principal([1]), { storeId: 1, warehouseId: 99 })).toMatchObject({ warehouseId: 99 });
    expect(fieldOf(await ctx.selling(principal([1]), { storeId: 1, warehouseId: 20 }).catch((e: unknown) => e))).toEqual(['warehouse_id']);
  });

  it('keeps found stores and warehouse lists for the TTL, reads none and empty again, and forgets all on invalidate', async () => {
    const reads: string[] = [];
    const known = new Set([1]);
    const counting = {
      findStore: async (id: number) => (reads.push(`s${id}`), known.has(id) ? store(id) : null),
      storesOfWarehouse: async (w: number) => (reads.push(`w${w}`), known.has(2) && w === 20 ? [2] : []),
    } as unknown as StoreRepository;
    const cached = new StoreContext(counting, { referenceCacheTtlMs: 600_000 } as AppConfig);
    await Promise.all([cached.store(1), cached.store(1)]);
    await cached.store(1);
    expect(await cached.store(2)).toBeNull();
    expect(await cached.storesOfWarehouse(20)).toEqual([]);
    known.add(2); // created behind the service: shows at once
    expect((await cached.store(2))?.id).toBe(2);
    expect(await cached.storesOfWarehouse(20)).toEqual([2]);
    await cached.store(2);
    await cached.storesOfWarehouse(20);
    expect(reads).toEqual(['s1', 's2', 'w20', 's2', 'w20']);
    known.delete(1); // deleted behind the service: kept until invalidated
    expect((await cached.store(1))?.id).toBe(1);
    cached.invalidate();
    expect(await cached.store(1)).toBeNull();
  });
});
