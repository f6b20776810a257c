import { localTime, withinWindow } from './rule-calendar';
import { CartLineInput, PricingContext, PricingRule } from './pricing.types';

/** A rule's conditions read once into one shape (no optional-property lookups per cart). */
interface Check {
  active: boolean;
  /** Validity window ends as numbers (ms); null: open. */
  validFrom: number | null;
  validTo: number | null;
  storeIds: number[] | null;
  customerGroupIds: number[] | null;
  minSubtotal: number | undefined;
  /** Whether the rule has days of week or hours (then the store's local time is needed). */
  calendar: boolean;
  daysOfWeek: number[] | null;
  startTime: string | undefined;
  endTime: string | undefined;
  scoped: boolean;
  itemIds: number[] | undefined;
  categoryIds: number[] | undefined;
  minQuantity: number | undefined;
}

const UNKNOWN = 0;
const APPLIES = 1;
const DOES_NOT = 2;

/**
 * A set of pricing rules prepared for pricing many carts: each rule's conditions read into one
 * shape, and the rules indexed by the items and categories they name. Building it walks every
 * rule; a cart then checks only the rules its lines' items and categories reach (200 rules x 50
 * lines: a few lookups per line, each rule's cart conditions checked at most once per cart).
 * The rules are not copied: a book is for a set that no longer changes (the active rules the
 * pricing cache holds); `priceCart` without one of its very rules builds one for that cart.
 */
export class RuleBook {
  private readonly checks: Check[];
  private readonly unscoped: number[] = [];
  private readonly byItem = new Map<number, number[]>();
  private readonly byCategory = new Map<number, number[]>();

  /** The active rules in the order the engine applies them: priority (high first), then id. */
  static ordered(rules: readonly PricingRule[]): RuleBook {
    return new RuleBook(
      rules.filter((r) => r.active).sort((a, b) => b.priority - a.priority || a.id - b.id),
      rules,
    );
  }

  /** `rules` in the order given (that order is the order `forCart` answers in); `source`: the list they were taken from. */
  constructor(
    readonly rules: readonly PricingRule[],
    readonly source: readonly PricingRule[] = rules,
  ) {
    this.checks = rules.map(checkOf);
    this.checks.forEach((c, i) => {
      if (!c.scoped) this.unscoped.push(i);
      for (const id of c.itemIds ?? []) add(this.byItem, id, i);
      for (const id of c.categoryIds ?? []) add(this.byCategory, id, i);
    });
  }

  /** The rules (in the book's order) that apply to each line of one cart, for its context and subtotal. */
  forCart(ctx: PricingContext, cartSubtotal: number): (line: CartLineInput) => PricingRule[] {
    const at = Number(ctx.at);
    const state = new Uint8Array(this.rules.length);
    let local: { dayOfWeek: number; minutes: number } | undefined;
    const cartOk = (i: number): boolean => {
      if (state[i] === UNKNOWN) {
        const ok = appliesToCart(this.checks[i], ctx, at, cartSubtotal, () => (local ??= localTime(ctx.at, ctx.timeZone)));
        state[i] = ok ? APPLIES : DOES_NOT;
      }
      return state[i] === APPLIES;
    };
    return (line) => {
      const indexes = mergeAscending(this.unscoped, this.byItem.get(line.itemId), line.categoryId !== null ? this.byCategory.get(line.categoryId) : undefined);
      const out: PricingRule[] = [];
      for (const i of indexes) if (appliesToLine(this.checks[i], line) && cartOk(i)) out.push(this.rules[i]);
      return out;
    };
  }
}

function checkOf(rule: PricingRule): Check {
  const c = rule.conditions;
  return {
    active: rule.active,
    validFrom: c.validFrom ? Number(c.validFrom) : null,
    validTo: c.validTo ? Number(c.validTo) : null,
    storeIds: c.storeIds?.length ? c.storeIds : null,
    customerGroupIds: c.customerGroupIds?.length ? c.customerGroupIds : null,
    minSubtotal: c.minSubtotal,
    calendar: Boolean(c.daysOfWeek?.length || c.startTime || c.endTime),
    daysOfWeek: c.daysOfWeek?.length ? c.daysOfWeek : null,
    startTime: c.startTime,
    endTime: c.endTime,
    scoped: (c.itemIds?.length ?? 0) > 0 || (c.categoryIds?.length ?? 0) > 0,
    itemIds: c.itemIds,
    categoryIds: c.categoryIds,
    minQuantity: c.minQuantity,
  };
}

/** The conditions a rule puts on the cart's context: the same for every line of the cart. */
function appliesToCart(c: Check, ctx: PricingContext, at: number, cartSubtotal: number, local: () => { dayOfWeek: number; minutes: number }): boolean {
  if (!c.active) return false;
  if (c.validFrom !== null && at < c.validFrom) return false;
  if (c.validTo !== null && at > c.validTo) return false;
  if (c.storeIds && !c.storeIds.includes(ctx.storeId)) return false;
  if (c.customerGroupIds && (ctx.customerGroupId === null || !c.customerGroupIds.includes(ctx.customerGroupId))) return false;
  if (c.minSubtotal !== undefined && cartSubtotal < c.minSubtotal) return false;
  if (c.calendar) {
    const { dayOfWeek, minutes } = local();
    if (c.daysOfWeek && !c.daysOfWeek.includes(dayOfWeek)) return false;
    if (!withinWindow(minutes, c.startTime, c.endTime)) return false;
  }
  return true;
}

/** The conditions a rule puts on one line: its item or category, and its quantity. */
function appliesToLine(c: Check, line: CartLineInput): boolean {
  if (c.scoped && !(c.itemIds?.includes(line.itemId) || (line.categoryId !== null && c.categoryIds?.includes(line.categoryId)))) return false;
  if (c.minQuantity !== undefined && line.quantity < c.minQuantity) return false;
  return true;
}

function add(map: Map<number, number[]>, key: number, index: number): void {
  const list = map.get(key);
  if (!list) map.set(key, [index]);
  else if (list[list.length - 1] !== index) list.push(index);
}

/** The union of ascending lists, ascending, without repeats. */
function mergeAscending(...lists: (number[] | undefined)[]): number[] {
  const present = lists.filter((l): l is number[] => l !== undefined && l.length > 0);
  if (present.length === 0) return [];
  if (present.length === 1) return present[0];
  return [...new Set(present.flat())].sort((a, b) => a - b);
}
