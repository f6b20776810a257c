import { Inject, Injectable, Optional } from '@nestjs/common';
import { NotFoundError, ValidationFailedError } from '@pos/kernel';
import { assertStoreAccess, canAccessStore, currentStoreId, Principal } from '@pos/identity';
import { APP_CONFIG, AppConfig, KeyedCache } from '@pos/platform';
import { PaymentMethodRecord, StoreRecord, StoreRepository, WarehouseRecord } from './store.ports';

/**
 * Published by the catalog: "which store (and warehouse) does this request act in, and may the
 * caller act there". Every context resolves stores through it, so the rules live once:
 *  - no store named: the principal's current store (token, default, first assigned); none: 422;
 *  - another store named: 403; an unknown one: 422 on the field;
 *  - a warehouse named must serve the store (its own or a standalone one serving it): else 422.
 */
@Injectable()
export class StoreContext {
  /**
   * Stores, warehouses and payment methods are read on every sale and lookup and change rarely
   * (no API route writes them: seeds, the CLI or the database do): each answer is kept per process
   * for REFERENCE_CACHE_TTL_MS, found rows only (none and empty lists are read again: a store
   * created behind the service shows at once), and `invalidate()` forgets them at once.
   */
  private readonly storeCache: KeyedCache<StoreRecord>;
  private readonly warehouseCache: KeyedCache<WarehouseRecord>;
  private readonly warehouseStores: KeyedCache<number[]>;
  private readonly methods: KeyedCache<PaymentMethodRecord[]>;

  constructor(
    private readonly stores: StoreRepository,
    @Optional() @Inject(APP_CONFIG) config?: AppConfig,
  ) {
    const ttlMs = config?.referenceCacheTtlMs ?? 0;
    const options = { max: 10_000, keepAbsent: false };
    this.storeCache = new KeyedCache(ttlMs, options);
    this.warehouseCache = new KeyedCache(ttlMs, options);
    this.warehouseStores = new KeyedCache(ttlMs, options);
    this.methods = new KeyedCache(ttlMs, options);
  }

  /** Forgets every cached store, warehouse and payment method (after they were edited). */
  invalidate(): void {
    for (const cache of [this.storeCache, this.warehouseCache, this.warehouseStores, this.methods]) cache.forget();
  }

  private findStore(id: number): Promise<StoreRecord | null> {
    return this.storeCache.get(id, () => this.stores.findStore(id));
  }

  private findWarehouse(id: number): Promise<WarehouseRecord | null> {
    return this.warehouseCache.get(id, () => this.stores.findWarehouse(id));
  }

  /** A list, or null when empty: not kept. */
  private static found<T>(list: T[]): T[] | null {
    return list.length ? list : null;
  }

  /** The store a request acts in (403 for another store, 422 for none or an unknown one). */
  async resolve(principal: Principal, storeId?: number, field = 'store_id'): Promise<StoreRecord> {
    const id = storeId ?? currentStoreId(principal);
    if (id === null) throw ValidationFailedError.field(field, `The ${field} field is required.`);
    assertStoreAccess(principal, id);
    const store = await this.findStore(id);
    if (!store) throw ValidationFailedError.field(field, 'The selected store does not exist.');
    return store;
  }

  /** The store and the warehouse a till sells from: the one named (if it serves the store), else the store's default. */
  async selling(principal: Principal, ctx: { storeId?: number; warehouseId?: number }): Promise<{ store: StoreRecord; warehouseId: number | null }> {
    const store = await this.resolve(principal, ctx.storeId);
    if (ctx.warehouseId === undefined) return { store, warehouseId: store.defaultWarehouseId };
    if (!(await this.serves(ctx.warehouseId, store.id))) throw ValidationFailedError.field('warehouse_id', 'The selected warehouse does not serve this store.');
    return { store, warehouseId: ctx.warehouseId };
  }

  /** Whether a warehouse belongs to or serves (standalone) a store. */
  async serves(warehouseId: number, storeId: number): Promise<boolean> {
    return (await this.storesOfWarehouse(warehouseId)).includes(storeId);
  }

  /** Stores a warehouse belongs to or serves. */
  async storesOfWarehouse(warehouseId: number): Promise<number[]> {
    return (await this.warehouseStores.get(warehouseId, async () => StoreContext.found(await this.stores.storesOfWarehouse(warehouseId)))) ?? [];
  }

  /**
   * A store named as a list's filter: another store's is 403 (the caller's scope), an unknown one
   * 422 on the field, so a typo is never read as "no records".
   */
  async requireStoreFilter(principal: Principal, storeId: number, field = 'store_id'): Promise<void> {
    assertStoreAccess(principal, storeId);
    if (!(await this.store(storeId))) throw ValidationFailedError.field(field, 'The selected store does not exist.');
  }

  /**
   * An active warehouse the caller may use (its store, or one of the stores it serves, is
   * theirs). Unknown: 422 on the field; another store's: 403 or 404 as the caller asks.
   */
  async requireWarehouse(principal: Principal, warehouseId: number, onOther: 'forbidden' | 'not_found', field = 'warehouse_id'): Promise<WarehouseRecord> {
    const w = await this.findWarehouse(warehouseId);
    if (!w || !w.isActive) throw ValidationFailedError.field(field, 'The selected warehouse does not exist.');
    const stores = await this.storesOfWarehouse(warehouseId);
    if (principal.stores !== 'all' && !stores.some((s) => canAccessStore(principal, s))) {
      if (onOther === 'not_found') throw new NotFoundError('Warehouse');
      assertStoreAccess(principal, stores[0] ?? -1);
    }
    return w;
  }

  /** Whether the caller may see a warehouse (any store it belongs to or serves is theirs). */
  async canSeeWarehouse(principal: Principal, warehouseId: number): Promise<boolean> {
    return principal.stores === 'all' || (await this.storesOfWarehouse(warehouseId)).some((s) => canAccessStore(principal, s));
  }

  /** A store by id with no access check (for views of records the caller may already see). */
  store(id: number): Promise<StoreRecord | null> {
    return this.findStore(id);
  }

  warehouse(id: number): Promise<WarehouseRecord | null> {
    return this.findWarehouse(id);
  }

  /** Active payment methods offered in a store. */
  async paymentMethods(storeId: number): Promise<PaymentMethodRecord[]> {
    const load = async () => StoreContext.found((await this.stores.paymentMethodsByStore([storeId])).get(storeId) ?? []);
    return (await this.methods.get(storeId, load)) ?? [];
  }

  /**
   * Every live store with its active warehouses (own first, then the standalone ones serving it),
   * read only: for callers that resolve many requests against the same stores (reports cache it).
   */
  async directory(): Promise<{ store: StoreRecord; warehouses: WarehouseRecord[] }[]> {
    const stores = (await this.stores.listStores('all', { page: 1, perPage: 100_000 })).items;
    const warehouses = await this.stores.warehousesByStore(
      stores.map((s) => s.id),
      true,
    );
    return stores.map((store) => ({ store, warehouses: warehouses.get(store.id) ?? [] }));
  }

  /** Names of stores and warehouses, for views. */
  async names(storeIds: number[], warehouseIds: number[]): Promise<{ stores: Map<number, string>; warehouses: Map<number, string> }> {
    const [s, w] = await Promise.all([
      Promise.all([...new Set(storeIds)].map(async (id) => [id, (await this.findStore(id))?.name ?? ''] as const)),
      Promise.all([...new Set(warehouseIds)].map(async (id) => [id, (await this.findWarehouse(id))?.name ?? ''] as const)),
    ]);
    return { stores: new Map(s), warehouses: new Map(w) };
  }
}
