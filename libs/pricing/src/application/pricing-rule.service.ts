import { Injectable } from '@nestjs/common';
import { assertVersion, Clock, ExpectedVersions, fromMinor, NotFoundError, Page, pageOffset, PageRequest, ValidationFailedError } from '@pos/kernel';
import { CatalogCurrency, ItemCatalog, StoreContext } from '@pos/catalog';
import { CustomerService } from '@pos/customers';
import { Principal } from '@pos/identity';
import { AuditLog, ChangeLog, Transactional } from '@pos/platform';
import { ActivePricingCache } from './active-pricing.cache';
import { StoreScopePolicy } from './store-scope.policy';
import { validityAt } from '../domain/pricing-engine';
import { RuleFilter, RuleRecord, RuleWrite, PricingRepository } from './pricing.ports';

/** The rule's view with amounts in a currency of `decimals` decimals (a store's, for offline sync). */
export function ruleViewInCurrency(r: RuleRecord, decimals: number) {
  const money = (v: number | undefined) => (v === undefined ? null : fromMinor(v, decimals));
  const c = r.conditions;
  return {
    id: r.id,
    name: r.name,
    description: r.description,
    kind: r.kind,
    priority: r.priority,
    is_exclusive: r.exclusive,
    is_active: r.active,
    percent_off: r.kind === 'percent_off' && r.value !== undefined ? r.value / 100 : null,
    amount_off: r.kind === 'amount_off' ? money(r.value) : null,
    fixed_price: r.kind === 'fixed_price' ? money(r.value) : null,
    tiers:
      r.kind === 'quantity_tiers'
        ? (r.tiers ?? []).map((t) => ({
            min_quantity: t.minQuantity,
            percent_off: t.percentOffBp === undefined ? null : t.percentOffBp / 100,
            unit_price: t.unitPrice === undefined ? null : fromMinor(t.unitPrice, decimals),
          }))
        : null,
    buy_quantity: r.buyQuantity ?? null,
    get_quantity: r.getQuantity ?? null,
    get_percent_off: r.getPercentOffBp === undefined ? null : r.getPercentOffBp / 100,
    conditions: {
      item_ids: c.itemIds ?? [],
      category_ids: c.categoryIds ?? [],
      customer_group_ids: c.customerGroupIds ?? [],
      store_ids: c.storeIds ?? [],
      min_quantity: c.minQuantity ?? null,
      min_subtotal: c.minSubtotal === undefined ? null : fromMinor(c.minSubtotal, decimals),
      days_of_week: c.daysOfWeek ?? [],
      start_time: c.startTime ?? null,
      end_time: c.endTime ?? null,
    },
    valid_from: c.validFrom?.toISOString() ?? null,
    valid_to: c.validTo?.toISOString() ?? null,
    version: r.version,
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** percent_off in bp, amount_off and fixed_price in minor units, as the request gave them. */
export interface RuleValues {
  percentOffBp?: number;
  amountOff?: number;
  fixedPrice?: number;
}

/** At most this many rules in the in-force listings (a POS screen's worth; a chain runs far fewer). */
const IN_FORCE_MAX = 1000;

/**
 * Whether a rule's scope reaches an item: the rule names the item, or the item's category, or
 * neither items nor categories (it is for every item). Other conditions (customer group, store,
 * quantity, subtotal, days and hours) are the engine's to judge on a cart.
 */
export function ruleCoversItem(conditions: { item_ids: number[]; category_ids: number[] }, item: { id: number; categoryId: number | null }): boolean {
  const { item_ids: itemIds, category_ids: categoryIds } = conditions;
  return (itemIds.length === 0 && categoryIds.length === 0) || itemIds.includes(item.id) || (item.categoryId !== null && categoryIds.includes(item.categoryId));
}

function valueFor(kind: RuleWrite['kind'], values: RuleValues): number | undefined {
  if (kind === 'percent_off') return values.percentOffBp;
  if (kind === 'amount_off') return values.amountOff;
  if (kind === 'fixed_price') return values.fixedPrice;
  return undefined;
}

/**
 * Pricing rules management (pricing.manage). Rule semantics live in the engine. Store scoping
 * (StoreScopePolicy): a caller sees the rules that apply in one of their stores (chain-wide ones
 * too) and changes only those whose every store is theirs (chain-wide: every store).
 */
@Injectable()
export class PricingRuleService {
  constructor(
    private readonly pricing: PricingRepository,
    private readonly items: ItemCatalog,
    private readonly changes: ChangeLog,
    private readonly audit: AuditLog,
    private readonly clock: Clock,
    private readonly active: ActivePricingCache,
    private readonly currency: CatalogCurrency,
    private readonly stores: StoreContext,
    private readonly customers: CustomerService,
    private readonly scope: StoreScopePolicy,
  ) {}

  /** Views in the catalog currency (rule amounts are chain-wide). */
  private async views(): Promise<(r: RuleRecord) => ReturnType<typeof ruleViewInCurrency>> {
    const decimals = await this.currency.decimals();
    return (r) => ruleViewInCurrency(r, decimals);
  }

  /** The rules the caller sees (StoreScopePolicy.visible), filtered. */
  async list(principal: Principal, filter: Omit<RuleFilter, 'at'>, page: PageRequest): Promise<Page<ReturnType<typeof ruleViewInCurrency>>> {
    const at = this.clock.now();
    const all = (await this.pricing.rules(filter.isActive)).filter((r) => {
      const c = r.conditions;
      if (!StoreScopePolicy.visible(principal, c.storeIds)) return false;
      if (filter.storeId !== undefined && c.storeIds?.length && !c.storeIds.includes(filter.storeId)) return false;
      if (filter.itemId !== undefined && !c.itemIds?.includes(filter.itemId)) return false;
      if (filter.categoryId !== undefined && !c.categoryIds?.includes(filter.categoryId)) return false;
      return filter.validity === undefined || validityAt(c, at) === filter.validity;
    });
    return new Page(all.slice(pageOffset(page), pageOffset(page) + page.perPage).map(await this.views()), all.length, page.page, page.perPage);
  }

  /** The rules in force now (active and inside their validity window), highest priority first. */
  async inForce(principal: Principal): Promise<ReturnType<typeof ruleViewInCurrency>[]> {
    return (await this.list(principal, { validity: 'active', isActive: true }, { page: 1, perPage: IN_FORCE_MAX })).items;
  }

  /** The rules in force whose scope reaches an item (ruleCoversItem): by the item, its category, or all items. */
  async inForceForItem(principal: Principal, item: { id: number; categoryId: number | null }): Promise<ReturnType<typeof ruleViewInCurrency>[]> {
    return (await this.inForce(principal)).filter((r) => ruleCoversItem(r.conditions, item));
  }

  /**
   * Offline sync: the active rules a terminal of this store must apply (scoped to it or to every
   * store), expired ones left out; validity windows, days and hours stay for the terminal to judge.
   */
  async activeForStore(storeId: number): Promise<RuleRecord[]> {
    const now = this.clock.now();
    return (await this.active.activeRules()).filter(
      (r) => (!r.conditions.storeIds?.length || r.conditions.storeIds.includes(storeId)) && !(r.conditions.validTo && r.conditions.validTo < now),
    );
  }

  /** A rule the caller sees (another store's is 404, as if unknown). */
  async show(principal: Principal, id: number) {
    const r = await this.pricing.rule(id);
    if (!r || !StoreScopePolicy.visible(principal, r.conditions.storeIds)) throw new NotFoundError('Pricing rule');
    return (await this.views())(r);
  }

  /** The rule as saved (after a write the caller was allowed to make). */
  private async saved(id: number) {
    const r = await this.pricing.rule(id);
    if (!r) throw new NotFoundError('Pricing rule');
    return (await this.views())(r);
  }

  /** A rule for stores not all the caller's (or for every store, unless every store is theirs): 403. */
  @Transactional()
  async create(principal: Principal, input: RuleWrite, values: RuleValues = {}) {
    await this.scope.assertMayApplyIn(principal, input.conditions.storeIds);
    input = { ...input, value: valueFor(input.kind, values) ?? input.value };
    await this.validate(input);
    const id = await this.pricing.saveRule(null, input, this.clock.now());
    this.active.clear();
    const view = await this.saved(id);
    await this.audit.record({ action: 'pricing_rule.created', target: { type: 'pricing_rule', id }, after: view });
    return view;
  }

  /**
   * `expected`: the versions the caller's edit was based on (If-Match or body version); a newer
   * rule is a 412, told only to a caller who may change the rule (else 404 or 403 first).
   */
  @Transactional()
  async update(principal: Principal, id: number, input: Partial<RuleWrite>, values: RuleValues = {}, expected?: ExpectedVersions) {
    if (expected !== undefined) {
      const version = await this.pricing.lockRuleVersion(id);
      await this.mine(principal, id);
      assertVersion(version, expected, 'pricing rule');
    }
    return this.change(principal, id, input, values, 'pricing_rule.updated');
  }

  /** A rule the caller may change: unknown or unseen 404, applying in a store not theirs 403. */
  private async mine(principal: Principal, id: number): Promise<RuleRecord> {
    const current = await this.pricing.rule(id);
    if (!current) throw new NotFoundError('Pricing rule');
    await this.scope.assertMayChange(principal, current.conditions.storeIds, 'Pricing rule');
    return current;
  }

  private async change(principal: Principal, id: number, input: Partial<RuleWrite>, values: RuleValues, action: string) {
    const current = await this.mine(principal, id);
    // Moving it to other stores (or to every store) needs those stores too.
    if (input.conditions?.storeIds !== undefined) await this.scope.assertMayApplyIn(principal, input.conditions.storeIds);
    const kind = input.kind ?? current.kind;
    // The value follows the resulting kind: kept when the kind stays, required when it changes.
    const given = valueFor(kind, values);
    const value = given !== undefined ? given : kind === current.kind ? (current.value ?? null) : null;
    const merged: RuleWrite = {
      name: input.name ?? current.name,
      description: input.description === undefined ? current.description : input.description,
      kind,
      priority: input.priority ?? current.priority,
      exclusive: input.exclusive ?? current.exclusive,
      active: input.active ?? current.active,
      value,
      tiers: input.tiers === undefined ? (current.tiers ?? null) : input.tiers,
      buyQuantity: input.buyQuantity === undefined ? (current.buyQuantity ?? null) : input.buyQuantity,
      getQuantity: input.getQuantity === undefined ? (current.getQuantity ?? null) : input.getQuantity,
      getPercentOffBp: input.getPercentOffBp === undefined ? (current.getPercentOffBp ?? null) : input.getPercentOffBp,
      conditions: { ...current.conditions, ...(input.conditions ?? {}) },
    };
    await this.validate(merged, current.conditions);
    await this.pricing.saveRule(id, merged, this.clock.now());
    this.active.clear();
    const view = await this.saved(id);
    await this.audit.record({ action, target: { type: 'pricing_rule', id }, before: (await this.views())(current), after: view });
    return view;
  }

  @Transactional()
  async toggle(principal: Principal, id: number) {
    const current = await this.mine(principal, id);
    return this.change(principal, id, { active: !current.active }, {}, 'pricing_rule.toggled');
  }

  @Transactional()
  async remove(principal: Principal, id: number): Promise<void> {
    const current = await this.mine(principal, id);
    await this.pricing.deleteRule(id, this.clock.now());
    await this.audit.record({ action: 'pricing_rule.deleted', target: { type: 'pricing_rule', id }, before: (await this.views())(current) });
    this.active.clear();
    await this.changes.tombstone('pricing_rule', id);
  }

  /**
   * Each kind needs its own parameters; targets must exist; windows must be ordered. `before`: an
   * edited rule's conditions, whose targets were checked when they were set: an item or category
   * deleted since stays named (it never matches) and never stops the rule being edited or switched off.
   */
  private async validate(r: RuleWrite, before?: RuleWrite['conditions']): Promise<void> {
    const errors: Record<string, string[]> = {};
    const need = (cond: boolean, field: string, message: string) => {
      if (!cond) (errors[field] ??= []).push(message);
    };
    if (r.kind === 'percent_off')
      need(r.value !== null && r.value > 0 && r.value <= 10000, 'percent_off', 'A percent_off rule needs percent_off between 0 and 100.');
    if (r.kind === 'amount_off') need(r.value !== null && r.value > 0, 'amount_off', 'An amount_off rule needs a positive amount_off.');
    if (r.kind === 'fixed_price') need(r.value !== null && r.value >= 0, 'fixed_price', 'A fixed_price rule needs fixed_price.');
    if (r.kind === 'quantity_tiers') {
      need(!!r.tiers?.length, 'tiers', 'A quantity_tiers rule needs at least one tier.');
      (r.tiers ?? []).forEach((t, i) => {
        need((t.percentOffBp === undefined) !== (t.unitPrice === undefined), `tiers.${i}`, 'Each tier needs either percent_off or unit_price.');
        need((r.tiers ?? []).findIndex((o) => o.minQuantity === t.minQuantity) === i, `tiers.${i}.min_quantity`, 'Another tier starts at the same quantity.');
      });
    }
    if (r.kind === 'buy_x_get_y') {
      need((r.buyQuantity ?? 0) >= 1, 'buy_quantity', 'A buy_x_get_y rule needs buy_quantity.');
      need((r.getQuantity ?? 0) >= 1, 'get_quantity', 'A buy_x_get_y rule needs get_quantity.');
    }
    const c = r.conditions;
    if (c.validFrom && c.validTo) need(c.validFrom <= c.validTo, 'valid_to', 'The valid_to must be after valid_from.');
    // Each list of targets: the ids it adds (not in `before`) must exist, each error on its index.
    const targets = async (
      field: string,
      what: string,
      ids: number[] | undefined,
      kept: number[] | undefined,
      existing: (ids: number[]) => Promise<Set<number>>,
    ) => {
      const added = (ids ?? []).filter((id) => !kept?.includes(id));
      if (!added.length) return;
      const found = await existing(added);
      ids!.forEach((id, i) => need(found.has(id) || !added.includes(id), `${field}.${i}`, `The selected ${what} does not exist.`));
    };
    await targets('item_ids', 'item', c.itemIds, before?.itemIds, async (ids) => new Set((await this.items.findByIds(ids)).map((f) => f.id)));
    await targets('category_ids', 'category', c.categoryIds, before?.categoryIds, (ids) => this.items.existingCategoryIds(ids));
    await targets('store_ids', 'store', c.storeIds, before?.storeIds, async (ids) => {
      const stores = await Promise.all(ids.map((id) => this.stores.store(id)));
      return new Set(stores.flatMap((s) => (s ? [s.id] : [])));
    });
    await targets('customer_group_ids', 'customer group', c.customerGroupIds, before?.customerGroupIds, async () => {
      return new Set((await this.customers.groups()).map((g) => g.id));
    });
    if (Object.keys(errors).length) throw new ValidationFailedError(errors);
  }
}
