import { ConflictError, ValidationFailedError } from '@pos/kernel';

/** The stock ledger's errors, each with its stable code. */
export const StockErrors = {
  insufficient: (detail: string) => new ConflictError('insufficient_stock', `Not enough stock of ${detail}.`),
  serialNotInStock: (field: string) => ValidationFailedError.field(`${field}.serial_number`, 'The serial number is not in stock in this warehouse.'),
};
