import { loadBooks } from './books';
import { Findings } from './known-defects';
import { storeIds, World } from './harness';
import { checkInvoices, checkSales } from './invariants-sales';
import { checkReturns, checkSaleStock, checkSessions, checkStock } from './invariants-other';
import { checkViews } from './views';
import { checkReports } from './reports';

/** Every record invariant over the sequence's stores, then the same books through the HTTP views and the reports. */
export async function checkBooks(w: World, f: Findings): Promise<void> {
  const b = await loadBooks(w.suite.q, storeIds(w));
  checkSales(b, f, w.suite.exemptCustomerId);
  checkInvoices(b, f);
  checkReturns(b, f);
  checkSessions(b, f);
  checkStock(b, f);
  checkSaleStock(b, f);
  await checkViews(w, b, f, w.suite.exemptCustomerId);
  await checkReports(w, b, f);
}
