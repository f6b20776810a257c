import { ItemBarcodeRecord, ItemUnitRecord } from '../application/catalog.records';
import { PageDetails } from '../application/catalog.ports';

/**
 * What an item page's views need besides the items (barcodes, units, category name) as columns of
 * the page's own statement: correlated subqueries on the items row `alias`, so a page is read in
 * one round trip rather than two. `d_barcodes` and `d_units` are JSON arrays of the item's rows
 * (MySQL: JSON_ARRAYAGG, NULL when there are none; SQLite: json_group_array), `d_category` the
 * name of its category. The servers evaluate select-list subqueries for the rows they send only,
 * so the statement must send no more rows than it shows (callers: a plain page, or a search's
 * first page). JSON keeps each value's type (ids, factors and prices in minor units are numbers).
 */
export function detailColumns(d: { sqlite: boolean }, alias: string): string {
  const array = (fields: string) => (d.sqlite ? `json_group_array(json_object(${fields}))` : `JSON_ARRAYAGG(JSON_OBJECT(${fields}))`);
  return (
    `, (SELECT ${array("'id', db.id, 'barcode', db.barcode, 'unit', db.item_unit_id")} FROM item_barcodes db WHERE db.item_id = ${alias}.id) AS d_barcodes` +
    `, (SELECT ${array("'id', du.id, 'name', du.name, 'factor', du.factor, 'price', du.price")} FROM item_units du WHERE du.item_id = ${alias}.id) AS d_units` +
    `, (SELECT dc.name FROM categories dc WHERE dc.id = ${alias}.category_id) AS d_category`
  );
}

/**
 * The details of these rows (read with detailColumns) as pageDetails answers them: barcodes and
 * units in id order, categories once each in id order. Null when a column cannot be read as a
 * JSON array (e.g. MariaDB cut JSON_ARRAYAGG at a small group_concat_max_len): the caller then
 * reads them with pageDetails.
 */
export function detailsOfRows(rows: Record<string, unknown>[]): PageDetails | null {
  const barcodes: ItemBarcodeRecord[] = [];
  const units: ItemUnitRecord[] = [];
  const categories = new Map<number, { id: number; name: string }>();
  for (const r of rows) {
    const itemId = Number(r.id);
    const codes = jsonArray(r.d_barcodes);
    const own = jsonArray(r.d_units);
    if (!codes || !own) return null;
    for (const b of codes) barcodes.push({ id: Number(b.id), itemId, barcode: String(b.barcode), itemUnitId: b.unit === null ? null : Number(b.unit) });
    for (const u of own)
      units.push({ id: Number(u.id), itemId, name: String(u.name), factor: Number(u.factor), price: u.price === null ? null : Number(u.price) });
    if (r.category_id !== null && r.d_category !== null && r.d_category !== undefined)
      categories.set(Number(r.category_id), { id: Number(r.category_id), name: String(r.d_category) });
  }
  const byId = (a: { id: number }, b: { id: number }) => a.id - b.id;
  return { barcodes: barcodes.sort(byId), units: units.sort(byId), categories: [...categories.values()].sort(byId) };
}

/** A JSON array column's objects ([] for SQL NULL); null when it is not one. mysql2 may hand it over parsed already. */
function jsonArray(value: unknown): Record<string, unknown>[] | null {
  if (value === null || value === undefined) return [];
  let parsed = value;
  if (typeof value === 'string' || Buffer.isBuffer(value)) {
    try {
      parsed = JSON.parse(String(value));
    } catch {
      return null;
    }
  }
  if (!Array.isArray(parsed)) return null;
  // Some MariaDB versions aggregate JSON_OBJECT values as strings of JSON.
  const items = parsed.map((e: unknown) => (typeof e === 'string' ? safeParse(e) : e));
  return items.every((e) => e !== null && typeof e === 'object' && !Array.isArray(e)) ? (items as Record<string, unknown>[]) : null;
}

function safeParse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
