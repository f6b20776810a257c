/**
 * Display names of the people reports group by: cashiers (identity's users) and customers
 * (customers'). Reports need only id -> name, so they read them through this narrow port of their
 * own (read only) instead of widening two other contexts' published interfaces.
 */
export abstract class NameDirectory {
  abstract users(ids: number[]): Promise<Map<number, string>>;
  /**
   * A member of staff a caller with these stores may name in a report of their own (the one-cashier
   * report): not an API application, and working in one of the stores (assigned to it, or a super
   * admin, who works in all); undefined otherwise, as for an unknown id.
   */
  abstract staffName(id: number, stores: readonly number[] | 'all'): Promise<string | undefined>;
  abstract customers(ids: number[]): Promise<Map<number, string>>;
}
