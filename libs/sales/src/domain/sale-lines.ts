import { FieldErrors } from '@pos/kernel';

/**
 * The rules of a cart line before it is sold (contract 2.4): where the goods leave from, in which
 * unit, with which serial. Pure: the caller looks up whether a warehouse serves the store and
 * what the item and unit are, and gets the problems back by field (`items.<i>.<field>`).
 */
export interface SaleLineFacts {
  /** The line's warehouse: its own, else the store's default (see lineWarehouse); null when neither is set. */
  warehouseId: number | null;
  /** Whether that warehouse serves the sale's store. */
  servesStore: boolean;
  /** Sold units (packs for a pack unit). */
  qty: number;
  /** Base units per sold unit (1 for the base unit). */
  factor: number;
  /** The base quantity the till computed, when it sent one: it must be qty x factor. */
  baseQuantity?: number;
  serialTracked: boolean;
  serialNumber?: string;
}

/** The warehouse a line leaves from: the one it names, else the store's default (null: neither). */
export function lineWarehouse(requested: number | undefined, storeDefault: number | null): number | null {
  return requested ?? storeDefault;
}

/**
 * Every line's problems, by field. A line with no warehouse at all is reported for that alone
 * (its other fields are not judged: the till must first say where it leaves from); a warehouse
 * that does not serve the store still has its unit and serial judged, so the till sees them all.
 */
export function saleLineProblems(lines: readonly SaleLineFacts[]): FieldErrors {
  const errors: FieldErrors = {};
  lines.forEach((l, i) => {
    const field = (name: string, message: string) => (errors[`items.${i}.${name}`] = [message]);
    if (l.warehouseId === null) {
      field('warehouse_id', 'The store has no default warehouse; give warehouse_id.');
      return;
    }
    if (!l.servesStore) field('warehouse_id', 'The selected warehouse does not serve this store.');
    const base = l.qty * l.factor;
    if (l.baseQuantity !== undefined && l.baseQuantity !== base) field('base_quantity', `The base_quantity must be qty x unit factor (${base}).`);
    if (l.serialTracked) {
      // One serial names one unit: a serial-tracked line is exactly one base unit.
      if (!l.serialNumber) field('serial_number', 'A serial number is required for this item.');
      else if (base !== 1) field('qty', 'A serial-tracked item is sold one unit per line.');
    }
  });
  return errors;
}
