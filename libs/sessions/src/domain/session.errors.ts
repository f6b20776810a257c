import { ConflictError } from '@pos/kernel';

/** The sessions context's errors, each with its stable code. */
export const SessionErrors = {
  alreadyOpen: () => new ConflictError('session_already_open', 'You already have an open or suspended session in this store; resume or close it first.'),
  noOpenSession: () => new ConflictError('no_open_session', 'Open a cashier session in this store before selling.'),
  invalidState: (status: string, action: string) =>
    new ConflictError('invalid_session_state', `The session is ${status}; it cannot ${action.replace('_', ' ')} now.`),
};
