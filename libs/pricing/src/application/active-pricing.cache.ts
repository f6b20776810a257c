import { Injectable } from '@nestjs/common';
import { Clock } from '@pos/kernel';
import { BundleRecord, PricingRepository, RuleRecord } from './pricing.ports';
import { ReferenceRepository } from './reference.ports';
import { TaxRateRecord } from './reference.records';

const TTL_MS = 5000;

/**
 * Active rules and bundles, and the tax rates of a store's tax classes, are read by every priced
 * cart but change rarely: they are kept per process for 5 s. A write on this replica clears them
 * at once; other replicas (and rows edited in the database) show within 5 s (documented in the README).
 */
@Injectable()
export class ActivePricingCache {
  private rules?: { until: number; value: Promise<RuleRecord[]> };
  private bundles?: { until: number; value: Promise<BundleRecord[]> };
  private rates = new Map<string, { until: number; value: Promise<TaxRateRecord[]> }>();

  constructor(
    private readonly pricing: PricingRepository,
    private readonly clock: Clock,
    private readonly reference: ReferenceRepository,
  ) {}

  /** Active rates of these tax classes that apply in a store (its own and the general ones). */
  taxRates(taxClassIds: number[], storeId: number | null): Promise<TaxRateRecord[]> {
    const key = `${storeId}:${[...taxClassIds].sort((a, b) => a - b).join(',')}`;
    const now = this.clock.now().getTime();
    const hit = this.rates.get(key);
    if (hit && hit.until > now) return hit.value;
    if (this.rates.size > 1000) this.rates.clear();
    const value = this.reference.taxRates(taxClassIds, storeId);
    this.rates.set(key, { until: now + TTL_MS, value });
    value.catch(() => this.rates.delete(key));
    return value;
  }

  activeRules(): Promise<RuleRecord[]> {
    const now = this.clock.now().getTime();
    if (!this.rules || this.rules.until <= now) {
      const value = this.pricing.activeRules();
      this.rules = { until: now + TTL_MS, value };
      value.catch(() => (this.rules = undefined));
    }
    return this.rules.value;
  }

  activeBundles(): Promise<BundleRecord[]> {
    const now = this.clock.now().getTime();
    if (!this.bundles || this.bundles.until <= now) {
      const value = this.pricing.activeBundles();
      this.bundles = { until: now + TTL_MS, value };
      value.catch(() => (this.bundles = undefined));
    }
    return this.bundles.value;
  }

  clear(): void {
    this.rules = undefined;
    this.bundles = undefined;
    this.rates.clear();
  }
}
