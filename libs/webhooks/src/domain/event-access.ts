/**
 * Who may read which event in the event log (GET /integration/events): the permission under
 * which the integration API shows the event's resource, chosen by the prefix of its kind, so the
 * kinds added to the catalogue later are covered as long as their resource is. A kind with no
 * entry here is shown to nobody (fail closed): `ping` and test sends are not events of the shop.
 *   sale.*                       sales.view       (/integration/data/sales)
 *   invoice.*                    invoices.view    (/integration/data/invoices)
 *   return.*                     returns.view     (/integration/data/returns)
 *   customer.*                   customers.view   (/integration/data/customers)
 *   item.*, price.*, prices.*    items.view       (/integration/data/items carries the prices)
 *   inventory.*                  inventory.view   (/integration/inventory)
 *   session.*                    reports.sales    (there is no sessions.view: the closeout
 *                                                 report is where the API shows sessions)
 */
const PERMISSION_BY_PREFIX: Readonly<Record<string, string>> = {
  sale: 'sales.view',
  invoice: 'invoices.view',
  return: 'returns.view',
  customer: 'customers.view',
  item: 'items.view',
  price: 'items.view',
  prices: 'items.view',
  inventory: 'inventory.view',
  session: 'reports.sales',
};

/** The permission needed to read events of `type` in the log; null: never shown there. */
export function eventReadPermission(type: string): string | null {
  const dot = type.indexOf('.');
  if (dot <= 0) return null;
  return PERMISSION_BY_PREFIX[type.slice(0, dot)] ?? null;
}

/** The kinds of `catalogue` the event log can show at all (those with a read permission). */
export function loggedEventKinds(catalogue: readonly string[]): string[] {
  return catalogue.filter((k) => eventReadPermission(k) !== null);
}

/** Of `kinds`, those a reader holding `may(permission)` sees. */
export function readableEventKinds(kinds: readonly string[], may: (permission: string) => boolean): string[] {
  return kinds.filter((k) => {
    const permission = eventReadPermission(k);
    return permission !== null && may(permission);
  });
}
