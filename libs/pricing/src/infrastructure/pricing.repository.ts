import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { In, IsNull, LessThan, LessThanOrEqual } from 'typeorm';
import { RuleConditions, RuleKind } from '../domain/pricing.types';
import { BulkJobRecord, BundleRecord, BundleWrite, PriceBookEntryRef, PricingRepository, RuleRecord, RuleWrite } from '../application/pricing.ports';
import { BulkPriceJobEntity, BundleEntity, BundleItemEntity, ExchangeRateEntity, PricingRuleEntity, PricingRuleTargetEntity } from './pricing.entities';

/**
 * Rules and bundles are few (hundreds) and read whole; their services filter them in memory with
 * the engine's own domain functions (JSON-held conditions filter the same way they apply).
 */
/** Every write of a pricing_rules row moves its version on (RuleRecord.version). */
const NEXT_VERSION = () => 'version + 1';

@Injectable()
export class TypeOrmPricingRepository extends TxRepository implements PricingRepository {
  private async toRules(rows: PricingRuleEntity[]): Promise<RuleRecord[]> {
    if (!rows.length) return [];
    const targets = await this.em.getRepository(PricingRuleTargetEntity).findBy({ pricingRuleId: In(rows.map((r) => r.id)) });
    return rows.map((r) => {
      const mine = targets.filter((t) => t.pricingRuleId === r.id);
      const stored = (r.conditions ?? {}) as Omit<RuleConditions, 'validFrom' | 'validTo' | 'itemIds' | 'categoryIds'>;
      return {
        id: r.id,
        name: r.name,
        description: r.description,
        kind: r.kind as RuleKind,
        priority: r.priority,
        exclusive: r.isExclusive,
        active: r.isActive,
        value: r.value ?? undefined,
        tiers: r.tiers ?? undefined,
        buyQuantity: r.buyQuantity ?? undefined,
        getQuantity: r.getQuantity ?? undefined,
        getPercentOffBp: r.getPercentOffBp ?? undefined,
        conditions: {
          ...stored,
          itemIds: mine.filter((t) => t.targetType === 'item').map((t) => t.targetId),
          categoryIds: mine.filter((t) => t.targetType === 'category').map((t) => t.targetId),
          validFrom: r.validFrom,
          validTo: r.validTo,
        },
        version: r.version,
        createdAt: r.createdAt,
        updatedAt: r.updatedAt,
      };
    });
  }

  async rules(isActive?: boolean): Promise<RuleRecord[]> {
    const rows = await this.em.getRepository(PricingRuleEntity).find({
      where: { deletedAt: IsNull(), ...(isActive !== undefined ? { isActive } : {}) },
      order: { priority: 'DESC', id: 'ASC' },
      take: 5000,
    });
    return this.toRules(rows);
  }

  async activeRules(): Promise<RuleRecord[]> {
    return this.toRules(
      await this.em.getRepository(PricingRuleEntity).find({ where: { deletedAt: IsNull(), isActive: true }, order: { priority: 'DESC', id: 'ASC' } }),
    );
  }

  async rule(id: number): Promise<RuleRecord | null> {
    const row = await this.em.getRepository(PricingRuleEntity).findOneBy({ id, deletedAt: IsNull() });
    return row ? (await this.toRules([row]))[0] : null;
  }

  async saveRule(id: number | null, r: RuleWrite, now: Date): Promise<number> {
    const { itemIds = [], categoryIds = [], validFrom = null, validTo = null, ...stored } = r.conditions;
    const values = {
      name: r.name,
      description: r.description,
      kind: r.kind,
      priority: r.priority,
      isExclusive: r.exclusive,
      isActive: r.active,
      value: r.value,
      tiers: r.tiers,
      buyQuantity: r.buyQuantity,
      getQuantity: r.getQuantity,
      getPercentOffBp: r.getPercentOffBp,
      conditions: stored as Record<string, unknown>,
      validFrom,
      validTo,
      updatedAt: now,
    };
    const repo = this.em.getRepository(PricingRuleEntity);
    let ruleId = id;
    const targets = this.em.getRepository(PricingRuleTargetEntity);
    // A new rule has no targets to delete, and on MySQL a DELETE that finds nothing locks the
    // index's end, where concurrent creates then deadlock (see ItemRepository.create).
    if (ruleId === null) ruleId = (await repo.save(repo.create({ ...values, version: 1, createdAt: now, deletedAt: null }))).id;
    else {
      await repo.save({ ...values, id: ruleId });
      await repo.update({ id: ruleId }, { version: NEXT_VERSION });
      await targets.delete({ pricingRuleId: ruleId });
    }
    const rows = [
      ...itemIds.map((t) => ({ pricingRuleId: ruleId!, targetType: 'item', targetId: t })),
      ...categoryIds.map((t) => ({ pricingRuleId: ruleId!, targetType: 'category', targetId: t })),
    ];
    if (rows.length) await targets.insert(rows);
    return ruleId;
  }

  async deleteRule(id: number, at: Date): Promise<void> {
    await this.em.getRepository(PricingRuleEntity).update({ id }, { deletedAt: at, updatedAt: at, isActive: false, version: NEXT_VERSION });
  }

  async lockRuleVersion(id: number): Promise<number | null> {
    const rows = (await this.em.query(`SELECT version FROM pricing_rules WHERE id = ? AND deleted_at IS NULL${this.isSqlite ? '' : ' FOR UPDATE'}`, [id])) as {
      version: number | string;
    }[];
    return rows.length ? Number(rows[0].version) : null;
  }

  private async toBundles(rows: BundleEntity[]): Promise<BundleRecord[]> {
    if (!rows.length) return [];
    const items = await this.em.getRepository(BundleItemEntity).find({ where: { bundleId: In(rows.map((b) => b.id)) }, order: { id: 'ASC' } });
    return rows.map((b) => ({
      id: b.id,
      name: b.name,
      code: b.code,
      description: b.description,
      price: b.price,
      active: b.isActive,
      storeIds: b.storeIds ?? [],
      validFrom: b.validFrom,
      validTo: b.validTo,
      components: items.filter((i) => i.bundleId === b.id).map((i) => ({ itemId: i.itemId, quantity: i.quantity })),
      createdAt: b.createdAt,
      updatedAt: b.updatedAt,
    }));
  }

  async bundles(): Promise<BundleRecord[]> {
    return this.toBundles(await this.em.getRepository(BundleEntity).find({ where: { deletedAt: IsNull() }, order: { id: 'ASC' }, take: 5000 }));
  }

  async activeBundles(): Promise<BundleRecord[]> {
    return this.toBundles(await this.em.getRepository(BundleEntity).find({ where: { deletedAt: IsNull(), isActive: true }, order: { id: 'ASC' } }));
  }

  async bundle(id: number): Promise<BundleRecord | null> {
    const row = await this.em.getRepository(BundleEntity).findOneBy({ id, deletedAt: IsNull() });
    return row ? (await this.toBundles([row]))[0] : null;
  }

  /** Without regard to case, on both databases (MySQL's collation ignores it; SQLite's = does not). */
  async bundleByCode(code: string): Promise<BundleRecord | null> {
    const row = await this.em
      .getRepository(BundleEntity)
      .createQueryBuilder('b')
      .where('LOWER(b.code) = :code AND b.deleted_at IS NULL', { code: code.toLowerCase() })
      .getOne();
    return row ? (await this.toBundles([row]))[0] : null;
  }

  async saveBundle(id: number | null, b: BundleWrite, now: Date): Promise<number> {
    const repo = this.em.getRepository(BundleEntity);
    const values = {
      name: b.name,
      code: b.code,
      description: b.description,
      price: b.price,
      isActive: b.active,
      storeIds: b.storeIds,
      validFrom: b.validFrom,
      validTo: b.validTo,
      updatedAt: now,
    };
    let bundleId = id;
    const items = this.em.getRepository(BundleItemEntity);
    // Inserts only for a new bundle (see saveRule).
    if (bundleId === null) bundleId = (await repo.save(repo.create({ ...values, createdAt: now, deletedAt: null }))).id;
    else {
      await repo.update({ id: bundleId }, values);
      await items.delete({ bundleId });
    }
    await items.insert(b.components.map((c) => ({ bundleId: bundleId!, itemId: c.itemId, quantity: c.quantity })));
    return bundleId;
  }

  /** Soft delete; the code is freed for reuse (it is unique across all rows). */
  async deleteBundle(id: number, at: Date): Promise<void> {
    const repo = this.em.getRepository(BundleEntity);
    const b = await repo.findOneBy({ id });
    if (!b) return;
    await repo.update({ id }, { deletedAt: at, updatedAt: at, isActive: false, code: `~${id}~${b.code}`.slice(0, 32) });
  }

  async priceBookEntriesOf(itemIds: number[]): Promise<Map<number, PriceBookEntryRef[]>> {
    const out = new Map<number, PriceBookEntryRef[]>();
    for (let i = 0; i < itemIds.length; i += 1000) {
      const part = itemIds.slice(i, i + 1000);
      const rows = (await this.em.query(
        `SELECT item_id, price_book_id, price, min_quantity FROM price_book_entries WHERE item_id IN (${part.map(() => '?').join(',')}) ORDER BY id`,
        part,
      )) as { item_id: number | string; price_book_id: number | string; price: number | string; min_quantity: number | string }[];
      for (const r of rows) {
        const list = out.get(Number(r.item_id)) ?? [];
        list.push({ priceBookId: Number(r.price_book_id), price: Number(r.price), minQuantity: Number(r.min_quantity) });
        out.set(Number(r.item_id), list);
      }
    }
    return out;
  }

  async latestRate(currencyCode: string, at: Date): Promise<{ rateE8: number; effectiveAt: Date } | null> {
    const row = await this.em
      .getRepository(ExchangeRateEntity)
      .findOne({ where: { currencyCode, effectiveAt: LessThanOrEqual(at) }, order: { effectiveAt: 'DESC', id: 'DESC' } });
    return row ? { rateE8: row.rateE8, effectiveAt: row.effectiveAt } : null;
  }

  async addRate(currencyCode: string, rateE8: number, effectiveAt: Date, now: Date): Promise<void> {
    await this.em.getRepository(ExchangeRateEntity).insert({ currencyCode, rateE8, effectiveAt, createdAt: now });
  }

  createBulkJob(job: Omit<BulkJobRecord, 'id'>): Promise<BulkJobRecord> {
    const repo = this.em.getRepository(BulkPriceJobEntity);
    return repo.save(repo.create(job));
  }

  bulkJob(id: number): Promise<BulkJobRecord | null> {
    return this.em.getRepository(BulkPriceJobEntity).findOneBy({ id });
  }

  async updateBulkJob(id: number, changes: Partial<BulkJobRecord>): Promise<void> {
    await this.em.getRepository(BulkPriceJobEntity).update({ id }, changes);
  }

  unfinishedBulkJobs(
    queuedBefore: Date,
    staleBefore: Date,
    limit: number,
  ): Promise<Pick<BulkJobRecord, 'id' | 'jobKey' | 'status' | 'processed' | 'updatedAt'>[]> {
    return this.em.getRepository(BulkPriceJobEntity).find({
      select: { id: true, jobKey: true, status: true, processed: true, updatedAt: true },
      where: [
        { status: 'queued', updatedAt: LessThan(queuedBefore) },
        { status: 'running', updatedAt: LessThan(staleBefore) },
      ],
      order: { id: 'ASC' },
      take: limit,
    });
  }

  /** Raw-query parameters: SQLite stores booleans as 1/0 and dates as UTC text. */
  private bool(v: boolean): boolean | number {
    return this.isSqlite ? (v ? 1 : 0) : v;
  }

  private when(d: Date): Date | string {
    return this.isSqlite ? d.toISOString().replace('T', ' ').replace('Z', '') : d;
  }
}
