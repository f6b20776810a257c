import { Clock } from '@pos/kernel';
import { OPERATOR, Principal } from '@pos/identity';
import { PricingRuleService, ruleCoversItem } from './pricing-rule.service';
import { RuleRecord } from './pricing.ports';
import { RuleConditions } from '../domain/pricing.types';

const NOW = new Date('2026-06-15T12:00:00Z');

function rule(id: number, conditions: RuleConditions, active = true): RuleRecord {
  return {
    id,
    name: `rule ${id}`,
    description: null,
    kind: 'percent_off',
    priority: 0,
    exclusive: false,
    active,
    value: 1000,
    conditions,
    version: 1,
    createdAt: NOW,
    updatedAt: NOW,
  };
}

/** The service over fakes: only the ports its listings read (rules, the clock, the catalog currency). */
function serviceOver(rules: RuleRecord[]): PricingRuleService {
  const repository = { rules: (isActive?: boolean) => Promise.resolve(rules.filter((r) => isActive === undefined || r.active === isActive)) };
  const clock: Clock = { now: () => NOW };
  const currency = { decimals: () => Promise.resolve(2) };
  const unused = {} as never;
  return new PricingRuleService(repository as never, unused, unused, unused, clock, unused, currency as never, unused, unused, unused);
}

describe('rule scope', () => {
  const item = { id: 7, categoryId: 3 };

  it('a rule reaches an item it names, one in a category it names, and every item when it names neither', () => {
    expect(ruleCoversItem({ item_ids: [7], category_ids: [] }, item)).toBe(true);
    expect(ruleCoversItem({ item_ids: [], category_ids: [3] }, item)).toBe(true);
    expect(ruleCoversItem({ item_ids: [1], category_ids: [3] }, item)).toBe(true);
    expect(ruleCoversItem({ item_ids: [], category_ids: [] }, item)).toBe(true);
  });

  it('a rule naming other items or categories does not reach it, nor a category rule an item without one', () => {
    expect(ruleCoversItem({ item_ids: [8], category_ids: [] }, item)).toBe(false);
    expect(ruleCoversItem({ item_ids: [], category_ids: [4] }, item)).toBe(false);
    expect(ruleCoversItem({ item_ids: [8], category_ids: [4] }, item)).toBe(false);
    expect(ruleCoversItem({ item_ids: [], category_ids: [3] }, { id: 7, categoryId: null })).toBe(false);
  });

  it('inForceForItem: the rules in force now whose scope reaches the item; inactive, upcoming and expired ones left out', async () => {
    const service = serviceOver([
      rule(1, { itemIds: [7] }),
      rule(2, { categoryIds: [3] }),
      rule(3, {}),
      rule(4, { itemIds: [8] }),
      rule(5, { itemIds: [7] }, false),
      rule(6, { itemIds: [7], validFrom: new Date('2026-07-01T00:00:00Z') }),
      rule(7, { categoryIds: [3], validTo: new Date('2026-06-01T00:00:00Z') }),
      rule(8, { itemIds: [7], customerGroupIds: [2], storeIds: [5] }),
    ]);
    expect((await service.inForceForItem(OPERATOR, { id: 7, categoryId: 3 })).map((r) => r.id)).toEqual([1, 2, 3, 8]);
    expect((await service.inForceForItem(OPERATOR, { id: 9, categoryId: null })).map((r) => r.id)).toEqual([3]);
    expect((await service.inForce(OPERATOR)).map((r) => r.id)).toEqual([1, 2, 3, 4, 8]);
  });

  it("a caller limited to some stores sees chain-wide rules and those applying in one of their stores, not another store's", async () => {
    const service = serviceOver([rule(1, {}), rule(2, { storeIds: [1] }), rule(3, { storeIds: [2] }), rule(4, { storeIds: [1, 2] })]);
    const storeOne: Principal = { ...OPERATOR, isSuperAdmin: false, stores: [1] };
    expect((await service.inForce(storeOne)).map((r) => r.id)).toEqual([1, 2, 4]);
    expect((await service.list(storeOne, {}, { page: 1, perPage: 10 })).total).toBe(3);
  });
});
