import { Inject, Injectable } from '@nestjs/common';
import { APP_CONFIG, AppConfig, readAsOf } from '@pos/platform';
import { StoreContext, StoreRecord, WarehouseRecord } from '@pos/catalog';
import { Clock, ValidationFailedError } from '@pos/kernel';
import { canAccessStore, Principal } from '@pos/identity';
import { EpochDay, formatDay } from '../domain/calendar';
import { Period, reportCalendar, resolvePeriod } from '../domain/report-period';
import { ReportMeta } from '../domain/report-payload';
import { RollupJournalStore } from './rollup.ports';

export interface ReportFilters {
  dateFrom?: string;
  dateTo?: string;
  storeId?: number;
  warehouseId?: number;
}

export interface ScopeStore {
  id: number;
  name: string;
  code: string;
  currencyCode: string;
  timeZone: string;
}

/** What one report request covers, resolved and checked once. */
export interface ReportScope {
  period: Period;
  timeZone: string;
  today: EpochDay;
  now: Date;
  /** Facts committed before this moment are in the rollups (the oldest journal row still pending, else now). */
  asOf: Date;
  stores: ScopeStore[];
  storeIds: number[];
  storeId: number | null;
  warehouseId: number | null;
  /** Every store of the service and no filter: the per-currency rollups (`*_all`) answer. */
  unrestricted: boolean;
  /** Warehouses whose stock is in scope: the one asked, else those of (and serving) the stores. */
  warehouseIds: number[];
  warehouseNames: Map<number, string>;
  currencies: string[];
}

/**
 * Resolves a report's filters against the caller: store_id must be one of theirs (403) and exist
 * (422); warehouse_id must exist (422), be theirs (403) and serve store_id when both are given
 * (422). An API application created with store_ids sees only those stores. The calendar is the
 * store's when exactly one store is in scope, else UTC with the latest store day as today
 * (reportCalendar); the period defaults to the last 30 days up to today.
 */
@Injectable()
export class ReportScopeResolver {
  private cached: { at: number; directory: Promise<{ store: StoreRecord; warehouses: WarehouseRecord[] }[]> } | null = null;

  constructor(
    private readonly context: StoreContext,
    private readonly clock: Clock,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly journal: RollupJournalStore,
  ) {}

  /**
   * Stores and their warehouses, read from the catalog at most every REPORTS_DIRECTORY_TTL_MS per process:
   * every report needs them, they almost never change (a new store shows in reports within that
   * time). Filters naming a store or warehouse are still checked against the catalog itself.
   */
  private directory() {
    const now = Date.now();
    if (!this.cached || now - this.cached.at >= this.config.reportsDirectoryTtlMs) {
      const directory = this.context.directory();
      this.cached = { at: now, directory };
      directory.catch(() => (this.cached = null));
    }
    return this.cached.directory;
  }

  async resolve(principal: Principal, f: ReportFilters): Promise<ReportScope> {
    if (f.storeId !== undefined) await this.context.resolve(principal, f.storeId);
    let servedStores: number[] | null = null;
    if (f.warehouseId !== undefined) {
      await this.context.requireWarehouse(principal, f.warehouseId, 'forbidden');
      servedStores = await this.context.storesOfWarehouse(f.warehouseId);
      if (f.storeId !== undefined && !servedStores.includes(f.storeId))
        throw ValidationFailedError.field('warehouse_id', 'The selected warehouse does not serve the selected store.');
    }
    const visible = (await this.directory()).filter((d) => canAccessStore(principal, d.store.id));
    const inScope = visible.filter((d) => (f.storeId !== undefined ? d.store.id === f.storeId : servedStores === null || servedStores.includes(d.store.id)));
    const stores: ScopeStore[] = inScope.map(({ store: s }) => ({ id: s.id, name: s.name, code: s.code, currencyCode: s.currencyCode, timeZone: s.timezone }));
    const warehouseNames = new Map<number, string>();
    for (const d of inScope) for (const w of d.warehouses) warehouseNames.set(w.id, w.name);
    if (f.warehouseId !== undefined && !warehouseNames.has(f.warehouseId))
      warehouseNames.set(f.warehouseId, (await this.context.warehouse(f.warehouseId))?.name ?? '');
    const [now, pendingSince] = [this.clock.now(), await this.journal.oldestPending()];
    // On a read replica the data holds the primary's commits up to its last heartbeat only.
    const replicaAsOf = readAsOf();
    const upTo = replicaAsOf && replicaAsOf < now ? replicaAsOf : now;
    const asOf = pendingSince && pendingSince < upTo ? pendingSince : upTo;
    const { timeZone, today } = reportCalendar(
      stores.map((s) => s.timeZone),
      now,
    );
    const period = resolvePeriod({ dateFrom: f.dateFrom, dateTo: f.dateTo }, today);
    return {
      period,
      timeZone,
      today,
      now,
      asOf,
      stores,
      storeIds: stores.map((s) => s.id),
      storeId: f.storeId ?? null,
      warehouseId: f.warehouseId ?? null,
      unrestricted: principal.stores === 'all' && f.storeId === undefined && f.warehouseId === undefined,
      warehouseIds: f.warehouseId !== undefined ? [f.warehouseId] : [...warehouseNames.keys()].sort((a, b) => a - b),
      warehouseNames,
      currencies: [...new Set(stores.map((s) => s.currencyCode))].sort(),
    };
  }
}

export function reportMeta(scope: ReportScope, note?: string): ReportMeta {
  const at = scope.now.toISOString();
  return {
    filters: {
      date_from: formatDay(scope.period.from),
      date_to: formatDay(scope.period.to),
      store_id: scope.storeId,
      warehouse_id: scope.warehouseId,
      time_zone: scope.timeZone,
    },
    generated_at: at,
    as_of: scope.asOf.toISOString(),
    ...(note ? { note } : {}),
  };
}
