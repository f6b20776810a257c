import { defineEvent } from '@pos/platform';
import type { CustomerView } from './customer.views';

export const CustomerCreated = defineEvent<{ customer: CustomerView }>('customer.created');
export const CustomerUpdated = defineEvent<{ customer: CustomerView }>('customer.updated');
/** Deleted: personal data anonymised and the row soft-deleted, so only the id is told. */
export const CustomerDeleted = defineEvent<{ customer: { id: number } }>('customer.deleted');
