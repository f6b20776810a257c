/** The documents a store numbers, each from its own counter (receipts, invoices, returns, credit notes). */
export type NumberedDocument = 'receipt' | 'invoice' | 'return' | 'credit_note';

/** Receipts carry the bare store code: they came first and are what customers quote. */
const PREFIXES: Record<NumberedDocument, string | null> = { receipt: null, invoice: 'INV', return: 'RET', credit_note: 'CN' };

/**
 * A document's number as printed and searched: `[PREFIX-]STORE-000042`, the counter zero-padded
 * to six digits (longer once a store passes 999,999: the padding only keeps early numbers sortable).
 * `n` comes from the store's counter; anything but a positive integer is a defect, not input.
 */
export function documentNumber(document: NumberedDocument, storeCode: string, n: number): string {
  if (!Number.isSafeInteger(n) || n < 1) throw new RangeError(`A ${document} number must be a positive integer, not ${n}.`);
  const prefix = PREFIXES[document];
  const number = `${storeCode}-${String(n).padStart(6, '0')}`;
  return prefix === null ? number : `${prefix}-${number}`;
}
