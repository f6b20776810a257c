import { ConflictError, ValidationFailedError } from '@pos/kernel';

/** The stock ledger's errors, each with its stable code. */
export const StockErrors = {
  insufficient: (detail: string) => new ConflictError('insufficient_stock', `Not enough stock of ${detail}.`),
  serialNotInStock: (field: string) => ValidationFailedError.field(`${field}.serial_number`, 'The serial number is not in stock in this warehouse.'),
  /** A unit coming back with a sale (a return, a void) whose serial is not out with a sale: restocking it would count it twice. */
  serialNotSold: (serial: string, status: string) =>
    new ConflictError('serial_not_sold', `The serial number ${serial} is ${status.replace('_', ' ')}, not sold: it cannot come back with this sale.`),
};
