import { defineEvent } from '@pos/platform';
import type { ReturnDetailView } from './return.views';

/** Integration events (webhooks), written to the outbox in the transaction of the change. */
export const ReturnCreated = defineEvent<{ return: ReturnDetailView }>('return.created');
export const ReturnProcessed = defineEvent<{ return: ReturnDetailView; sale: { id: number; receipt_number: string; status: string } }>('return.processed');
export const ReturnApproved = defineEvent<{ return: ReturnDetailView }>('return.approved');
export const ReturnRejected = defineEvent<{ return: ReturnDetailView }>('return.rejected');
export const ReturnCancelled = defineEvent<{ return: ReturnDetailView }>('return.cancelled');

/** The event of each decision (approve, reject, cancel), by the status it leads to. */
export const RETURN_DECISION_EVENTS = { approved: ReturnApproved, rejected: ReturnRejected, cancelled: ReturnCancelled } as const;
