import { ConflictError } from '@pos/kernel';

/**
 * Return states (decisions.md): pending -> approved -> processed; pending -> rejected;
 * pending|approved -> cancelled. `process_immediately` (with returns.process) goes from creation
 * straight to processed. Rejected, cancelled and processed are final.
 */
export const RETURN_STATUSES = ['pending', 'approved', 'rejected', 'cancelled', 'processed'] as const;
export type ReturnStatus = (typeof RETURN_STATUSES)[number];
export type ReturnAction = 'approve' | 'reject' | 'cancel' | 'process';

const FROM: Record<ReturnAction, readonly ReturnStatus[]> = {
  approve: ['pending'],
  reject: ['pending'],
  cancel: ['pending', 'approved'],
  process: ['approved'],
};

const TO: Record<ReturnAction, ReturnStatus> = { approve: 'approved', reject: 'rejected', cancel: 'cancelled', process: 'processed' };

/** States from which an action is allowed. */
export function statesAllowing(action: ReturnAction): readonly ReturnStatus[] {
  return FROM[action];
}

/** The status after an action, or a 409 naming the state that forbids it. */
export function transition(status: ReturnStatus, action: ReturnAction): ReturnStatus {
  if (!FROM[action].includes(status)) {
    const hint = action === 'process' && status === 'pending' ? ' Approve it first.' : '';
    throw new ConflictError('invalid_return_state', `The return is ${status}; it cannot be ${TO[action]} now.${hint}`);
  }
  return TO[action];
}

/** Returns that still hold their units (a cancelled or rejected one gives them back). */
export function holdsUnits(status: ReturnStatus): boolean {
  return status === 'pending' || status === 'approved' || status === 'processed';
}
