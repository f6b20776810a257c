import { Injectable } from '@nestjs/common';
import { Clock } from '@pos/kernel';
import { BundleRecord, PricingRepository, RuleRecord } from './pricing.ports';

const TTL_MS = 5000;

/**
 * Active rules and bundles are read by every priced cart but change rarely: they are kept per
 * process for 5 s. A write on this replica clears them at once; other replicas see a change
 * within 5 s (documented in the README).
 */
@Injectable()
export class ActivePricingCache {
  private rules?: { until: number; value: Promise<RuleRecord[]> };
  private bundles?: { until: number; value: Promise<BundleRecord[]> };

  constructor(
    private readonly pricing: PricingRepository,
    private readonly clock: Clock,
  ) {}

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
  }
}
