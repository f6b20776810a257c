import { defineEvent } from '@pos/platform';
import type { SessionView } from './session.views';

export const SessionOpened = defineEvent<{ session: SessionView }>('session.opened');
export const SessionClosed = defineEvent<{ session: SessionView }>('session.closed');
