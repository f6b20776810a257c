import type { Principal } from '@pos/identity';
import { REPORT_ROWS, ReportFilters, ReportResult, RowsPage } from '@pos/integration';
import { SerializedJson } from '../http/envelope';
import type { ReportQuery } from './reports.dto';

/** The use case's filters from a report's query. */
export function reportFilters(q: ReportQuery): ReportFilters {
  return { dateFrom: q.date_from, dateTo: q.date_to, storeId: q.store_id, warehouseId: q.warehouse_id };
}

/** The page of rows a report's query asks for (validated by ReportQuery: per_page over the maximum is 422). */
export function reportRows(q: ReportQuery): RowsPage {
  return { page: q.page ?? 1, perPage: q.per_page ?? REPORT_ROWS.default };
}

/**
 * Identical report requests in flight share one computation and one serialised answer (request
 * coalescing, like Go's singleflight or a proxy's cache lock). Reports are read-mostly and many
 * dashboards ask the same question at the same moment (the last 30 days of the caller's stores):
 * the second and later callers wait for the computation already running instead of starting
 * their own, and get the same bytes. Nothing is kept once it is answered, so no answer is older
 * than the computation that produced it (`meta.generated_at` says when it ran).
 *
 * Two requests are identical when they ask the same report with the same filters and their
 * callers can see the same stores (what a report's figures depend on: the route's permission was
 * checked for each caller before it gets here), and the same page of rows.
 */
const inFlight = new Map<string, Promise<SerializedJson>>();

export function sharedReport(
  report: string,
  p: Principal,
  q: ReportQuery,
  compute: () => Promise<ReportResult>,
  extra: string | number = '',
): Promise<SerializedJson> {
  const stores = p.stores === 'all' ? 'all' : [...p.stores].sort((a, b) => a - b).join(',');
  const key = `${report}|${extra}|${q.date_from ?? ''}|${q.date_to ?? ''}|${q.store_id ?? ''}|${q.warehouse_id ?? ''}|${stores}|${q.page ?? 1}|${q.per_page ?? REPORT_ROWS.default}`;
  let running = inFlight.get(key);
  if (!running) {
    running = compute()
      .then((r) => SerializedJson.of({ success: true, data: r.data, meta: r.meta }))
      .finally(() => inFlight.delete(key));
    inFlight.set(key, running);
  }
  return running;
}

/** Report computations running now (tests). */
export function reportsInFlight(): number {
  return inFlight.size;
}
