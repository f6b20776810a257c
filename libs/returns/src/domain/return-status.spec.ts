import { ConflictError } from '@pos/kernel';
import { RETURN_STATUSES, ReturnAction, transition } from './return-status';

describe('return transitions', () => {
  const allowed: Record<ReturnAction, Record<string, string>> = {
    approve: { pending: 'approved' },
    reject: { pending: 'rejected' },
    cancel: { pending: 'cancelled', approved: 'cancelled' },
    process: { approved: 'processed' },
  };

  it('follows decisions.md and refuses every other move with a 409', () => {
    for (const action of Object.keys(allowed) as ReturnAction[]) {
      for (const status of RETURN_STATUSES) {
        const next = allowed[action][status];
        if (next) expect(transition(status, action)).toBe(next);
        else expect(() => transition(status, action)).toThrow(ConflictError);
      }
    }
  });
});
