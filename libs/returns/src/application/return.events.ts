import { defineEvent } from '@pos/platform';
import type { ReturnDetailView } from './return.views';

/** Integration events (webhooks), written to the outbox in the transaction of the change. */
export const ReturnCreated = defineEvent<{ return: ReturnDetailView }>('return.created');
export const ReturnProcessed = defineEvent<{ return: ReturnDetailView; sale: { id: number; receipt_number: string; status: string } }>('return.processed');
