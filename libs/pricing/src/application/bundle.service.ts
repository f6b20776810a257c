import { Injectable } from '@nestjs/common';
import { Clock, fromMinor, NotFoundError, Page, PageRequest, ValidationFailedError } from '@pos/kernel';
import { currentStoreId, Principal } from '@pos/identity';
import { CatalogCurrency, ItemCatalog, StockLedger, StoreContext } from '@pos/catalog';
import { AuditLog, ChangeLog, Transactional } from '@pos/platform';
import { ActivePricingCache } from './active-pricing.cache';
import { StoreScopePolicy } from './store-scope.policy';
import { bundleCount, validityAt } from '../domain/pricing-engine';
import { BundleRecord, BundleWrite, PricingRepository } from './pricing.ports';

/** The bundle's view with its price in a currency of `decimals` decimals (the catalog's; a store's for offline sync). */
export function bundleViewInCurrency(b: BundleRecord, decimals: number) {
  return {
    id: b.id,
    name: b.name,
    code: b.code,
    description: b.description,
    price: fromMinor(b.price, decimals),
    is_active: b.active,
    store_ids: b.storeIds ?? [],
    valid_from: b.validFrom?.toISOString() ?? null,
    valid_to: b.validTo?.toISOString() ?? null,
    items: b.components.map((c) => ({ item_id: c.itemId, quantity: c.quantity })),
    created_at: b.createdAt.toISOString(),
    updated_at: b.updatedAt.toISOString(),
  };
}

/**
 * Bundles: a set of items sold together for one price (the engine applies the saving). Store
 * scoping (StoreScopePolicy): a caller sees the bundles sold in one of their stores (and those
 * sold everywhere) and changes only those whose every store is theirs (sold everywhere: every store).
 */
@Injectable()
export class BundleService {
  constructor(
    private readonly pricing: PricingRepository,
    private readonly items: ItemCatalog,
    private readonly stock: StockLedger,
    private readonly stores: StoreContext,
    private readonly changes: ChangeLog,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly active: ActivePricingCache,
    private readonly currency: CatalogCurrency,
    private readonly scope: StoreScopePolicy,
  ) {}

  /** Views in the catalog currency (bundle prices are chain-wide amounts). */
  private async views(): Promise<(b: BundleRecord) => ReturnType<typeof bundleViewInCurrency>> {
    const decimals = await this.currency.decimals();
    return (b) => bundleViewInCurrency(b, decimals);
  }

  /** Bundles sold in the caller's stores (unscoped bundles are sold everywhere). */
  async list(
    principal: Principal,
    filter: { storeId?: number; validity?: 'active' | 'upcoming' | 'expired' },
    page: PageRequest,
  ): Promise<Page<ReturnType<typeof bundleViewInCurrency>>> {
    if (filter.storeId !== undefined) await this.stores.requireStoreFilter(principal, filter.storeId);
    const at = this.clock.now();
    const mine = (await this.pricing.bundles()).filter((b) => {
      if (!this.visibleTo(principal, b)) return false;
      if (filter.storeId !== undefined && b.storeIds?.length && !b.storeIds.includes(filter.storeId)) return false;
      if (filter.validity === 'active' && !b.active) return false;
      return filter.validity === undefined || validityAt(b, at) === filter.validity;
    });
    const start = (page.page - 1) * page.perPage;
    return new Page(mine.slice(start, start + page.perPage).map(await this.views()), mine.length, page.page, page.perPage);
  }

  /** Offline sync: the active bundles sold in this store (scoped to it or to every store), expired ones left out. */
  async activeForStore(storeId: number): Promise<BundleRecord[]> {
    const now = this.clock.now();
    return (await this.active.activeBundles()).filter((b) => (!b.storeIds?.length || b.storeIds.includes(storeId)) && !(b.validTo && b.validTo < now));
  }

  async show(principal: Principal, id: number) {
    const [b, view] = await Promise.all([this.visible(principal, id), this.views()]);
    return view(b);
  }

  private visibleTo(principal: Principal, b: BundleRecord): boolean {
    return StoreScopePolicy.visible(principal, b.storeIds);
  }

  private async visible(principal: Principal, id: number): Promise<BundleRecord> {
    const b = await this.pricing.bundle(id);
    if (!b || !this.visibleTo(principal, b)) throw new NotFoundError('Bundle');
    return b;
  }

  /** The bundle as saved (after a write the caller was allowed to make). */
  private async saved(id: number) {
    const b = await this.pricing.bundle(id);
    if (!b) throw new NotFoundError('Bundle');
    return (await this.views())(b);
  }

  /** A bundle the caller may change: unknown or unseen 404, sold in a store not theirs 403. */
  private async mine(principal: Principal, id: number): Promise<BundleRecord> {
    const current = await this.pricing.bundle(id);
    if (!current) throw new NotFoundError('Bundle');
    await this.scope.assertMayChange(principal, current.storeIds, 'Bundle');
    return current;
  }

  /** A bundle for stores not all the caller's (or for every store, unless every store is theirs): 403. */
  @Transactional()
  async create(principal: Principal, input: BundleWrite) {
    await this.scope.assertMayApplyIn(principal, input.storeIds);
    await this.validate(input);
    const id = await this.pricing.saveBundle(null, input, this.clock.now());
    this.active.clear();
    const view = await this.saved(id);
    await this.audit.record({ action: 'bundle.created', target: { type: 'bundle', id }, after: view });
    return view;
  }

  @Transactional()
  async update(principal: Principal, id: number, input: Partial<BundleWrite>) {
    const current = await this.mine(principal, id);
    // Moving it to other stores (or to every store) needs those stores too.
    if (input.storeIds !== undefined) await this.scope.assertMayApplyIn(principal, input.storeIds);
    const merged: BundleWrite = {
      name: input.name ?? current.name,
      code: input.code ?? current.code,
      description: input.description === undefined ? current.description : input.description,
      price: input.price ?? current.price,
      active: input.active ?? current.active,
      storeIds: input.storeIds ?? current.storeIds ?? [],
      validFrom: input.validFrom === undefined ? (current.validFrom ?? null) : input.validFrom,
      validTo: input.validTo === undefined ? (current.validTo ?? null) : input.validTo,
      components: input.components ?? current.components,
    };
    await this.validate(merged, id, current.components);
    await this.pricing.saveBundle(id, merged, this.clock.now());
    this.active.clear();
    const view = await this.saved(id);
    await this.audit.record({ action: 'bundle.updated', target: { type: 'bundle', id }, before: (await this.views())(current), after: view });
    return view;
  }

  @Transactional()
  async remove(principal: Principal, id: number): Promise<void> {
    const current = await this.mine(principal, id);
    await this.pricing.deleteBundle(id, this.clock.now());
    await this.audit.record({ action: 'bundle.deleted', target: { type: 'bundle', id }, before: (await this.views())(current) });
    this.active.clear();
    await this.changes.tombstone('bundle', id);
  }

  /** The bundle's price against its components' base prices, and the saving. */
  async calculate(principal: Principal, input: { bundleId?: number; components?: { itemId: number; quantity: number }[]; price?: number; quantity?: number }) {
    let components = input.components;
    let price = input.price;
    if (input.bundleId !== undefined) {
      const b = await this.pricing.bundle(input.bundleId);
      // Another store's bundle is as unknown here as at GET /bundles/{id}.
      if (!b || !this.visibleTo(principal, b)) throw ValidationFailedError.field('bundle_id', 'The selected bundle does not exist.');
      components = b.components;
      price = b.price;
    }
    if (!components?.length || price === undefined) throw ValidationFailedError.field('bundle_id', 'Give bundle_id, or items and price.');
    const found = await this.items.findByIds(components.map((c) => c.itemId));
    const errors: Record<string, string[]> = {};
    components.forEach((c, i) => !found.some((f) => f.id === c.itemId) && (errors[`items.${i}.item_id`] = ['The selected item does not exist.']));
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
    const qty = input.quantity ?? 1;
    const decimals = await this.currency.decimals();
    const m = (v: number) => fromMinor(v, decimals);
    const lines = components.map((c) => {
      const item = found.find((f) => f.id === c.itemId)!;
      return {
        item_id: item.id,
        sku: item.sku,
        name: item.name,
        quantity: c.quantity * qty,
        unit_price: m(item.basePrice),
        total: m(item.basePrice * c.quantity * qty),
        minor: item.basePrice * c.quantity * qty,
      };
    });
    const componentsTotal = lines.reduce((a, l) => a + l.minor, 0);
    const bundleTotal = price * qty;
    return {
      bundle_id: input.bundleId ?? null,
      quantity: qty,
      items: lines.map(({ minor: _minor, ...l }) => l),
      components_total: m(componentsTotal),
      bundle_price: m(bundleTotal),
      saving: m(Math.max(0, componentsTotal - bundleTotal)),
      saving_percent: componentsTotal > 0 ? Math.max(0, Math.round(((componentsTotal - bundleTotal) / componentsTotal) * 10000) / 100) : 0,
    };
  }

  /** How many bundles the warehouse's component stock allows (the scarcest component decides). */
  async availability(principal: Principal, id: number, warehouseId?: number) {
    const b = await this.visible(principal, id);
    let wh = warehouseId;
    if (wh === undefined) {
      const storeId = currentStoreId(principal);
      wh = storeId === null ? undefined : ((await this.stores.store(storeId))?.defaultWarehouseId ?? undefined);
    }
    if (wh === undefined) throw ValidationFailedError.field('warehouse_id', 'The warehouse_id field is required.');
    // A warehouse of another store, named as a filter: 403 (as on the inventory endpoints).
    await this.stores.requireWarehouse(principal, wh, 'forbidden');
    const levels = await this.stock.levels(
      b.components.map((c) => c.itemId),
      [wh],
    );
    const onHand = new Map(levels.map((l) => [l.itemId, Math.max(0, l.quantity)]));
    const available = bundleCount(b, onHand);
    return {
      bundle_id: b.id,
      warehouse_id: wh,
      available,
      components: b.components.map((c) => ({
        item_id: c.itemId,
        required: c.quantity,
        on_hand: onHand.get(c.itemId) ?? 0,
        bundles_possible: Math.floor((onHand.get(c.itemId) ?? 0) / c.quantity),
      })),
    };
  }

  /**
   * `before`: an edited bundle's components, checked when they were set: an item deleted since
   * stays in the bundle (which then never applies) and never stops it being edited or switched off.
   */
  private async validate(b: BundleWrite, id?: number, before: BundleWrite['components'] = []): Promise<void> {
    const errors: Record<string, string[]> = {};
    const other = await this.pricing.bundleByCode(b.code);
    if (other && other.id !== id) errors.code = ['The code has already been taken.'];
    if (b.components.length < 1) errors.items = ['A bundle needs at least one item.'];
    const added = b.components.map((c) => c.itemId).filter((itemId) => !before.some((o) => o.itemId === itemId));
    const found = new Set(added.length ? (await this.items.findByIds(added)).map((f) => f.id) : []);
    b.components.forEach((c, i) => {
      if (added.includes(c.itemId) && !found.has(c.itemId)) errors[`items.${i}.item_id`] = ['The selected item does not exist.'];
      if (b.components.findIndex((o) => o.itemId === c.itemId) !== i) errors[`items.${i}.item_id`] = ['The item is listed twice.'];
    });
    if (b.validFrom && b.validTo && b.validFrom > b.validTo) errors.valid_to = ['The valid_to must be after valid_from.'];
    for (const [i, storeId] of (b.storeIds ?? []).entries()) {
      if (!(await this.stores.store(storeId))) errors[`store_ids.${i}`] = ['The selected store does not exist.'];
    }
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
  }
}
