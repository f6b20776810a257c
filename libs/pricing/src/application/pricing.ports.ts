import { Bundle, PricingRule, RuleConditions, RuleKind } from '../domain/pricing.types';

export interface RuleRecord extends PricingRule {
  description: string | null;
  /** 1 when created, +1 on every write of the row (If-Match on PUT compares it). */
  version: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface RuleWrite {
  name: string;
  description: string | null;
  kind: RuleKind;
  priority: number;
  exclusive: boolean;
  active: boolean;
  value: number | null;
  tiers: { minQuantity: number; percentOffBp?: number; unitPrice?: number }[] | null;
  buyQuantity: number | null;
  getQuantity: number | null;
  getPercentOffBp: number | null;
  conditions: RuleConditions;
}

export interface RuleFilter {
  storeId?: number;
  validity?: 'active' | 'upcoming' | 'expired';
  itemId?: number;
  categoryId?: number;
  isActive?: boolean;
  at: Date;
}

export interface BundleRecord extends Bundle {
  code: string;
  description: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface BundleWrite {
  name: string;
  code: string;
  description: string | null;
  price: number;
  active: boolean;
  storeIds: number[];
  validFrom: Date | null;
  validTo: Date | null;
  components: { itemId: number; quantity: number }[];
}

export interface BulkJobRecord {
  id: number;
  jobKey: string;
  userId: number | null;
  status: string;
  total: number;
  processed: number;
  failed: number;
  payload: string;
  result: string | null;
  startedAt: Date | null;
  finishedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface PriceChangeRow {
  itemId: number;
  price: number;
  priceBookId?: number;
  minQuantity?: number;
}

/** An item's price in one book. */
export interface PriceBookEntryRef {
  priceBookId: number;
  price: number;
  minQuantity: number;
}

export abstract class PricingRepository {
  abstract createBulkJob(job: Omit<BulkJobRecord, 'id'>): Promise<BulkJobRecord>;
  abstract bulkJob(id: number): Promise<BulkJobRecord | null>;
  abstract updateBulkJob(id: number, changes: Partial<BulkJobRecord>): Promise<void>;
  /** Jobs to queue again: `queued` ones last touched before `queuedBefore`, `running` ones before `staleBefore` (no progress). */
  abstract unfinishedBulkJobs(
    queuedBefore: Date,
    staleBefore: Date,
    limit: number,
  ): Promise<Pick<BulkJobRecord, 'id' | 'jobKey' | 'status' | 'processed' | 'updatedAt'>[]>;
  /** Every live rule (optionally only active or inactive ones), highest priority first. */
  abstract rules(isActive?: boolean): Promise<RuleRecord[]>;
  abstract activeRules(): Promise<RuleRecord[]>;
  abstract rule(id: number): Promise<RuleRecord | null>;
  abstract saveRule(id: number | null, rule: RuleWrite, now: Date): Promise<number>;
  abstract deleteRule(id: number, at: Date): Promise<void>;
  /** A live rule's version, its row locked until the transaction ends (see ItemRepository.lockVersion); null: none. */
  abstract lockRuleVersion(id: number): Promise<number | null>;
  /** Every live bundle. */
  abstract bundles(): Promise<BundleRecord[]>;
  abstract activeBundles(): Promise<BundleRecord[]>;
  abstract bundle(id: number): Promise<BundleRecord | null>;
  abstract bundleByCode(code: string): Promise<BundleRecord | null>;
  abstract saveBundle(id: number | null, bundle: BundleWrite, now: Date): Promise<number>;
  abstract deleteBundle(id: number, at: Date): Promise<void>;
  /** Every entry of these items, in any book (the per-process cache filters them by book). */
  abstract priceBookEntriesOf(itemIds: number[]): Promise<Map<number, PriceBookEntryRef[]>>;
  abstract latestRate(currencyCode: string, at: Date): Promise<{ rateE8: number; effectiveAt: Date } | null>;
  abstract addRate(currencyCode: string, rateE8: number, effectiveAt: Date, now: Date): Promise<void>;
}
