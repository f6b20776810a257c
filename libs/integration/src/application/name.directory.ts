/**
 * Display names of the people reports group by: cashiers (identity's users) and customers
 * (customers'). Reports need only id -> name, so they read them through this narrow port of their
 * own (read only) instead of widening two other contexts' published interfaces.
 */
export abstract class NameDirectory {
  abstract users(ids: number[]): Promise<Map<number, string>>;
  abstract customers(ids: number[]): Promise<Map<number, string>>;
}
