import { WEBHOOK_EVENT_KINDS } from '@pos/webhooks';
import { RequiredString } from '../http/validators';

/** POST /webhooks/{id}/test: the kind whose sample to send. */
export class TestWebhookDto {
  @RequiredString({ max: 64, in: WEBHOOK_EVENT_KINDS, example: 'sale.completed', description: 'An event kind (GET /webhooks/event-types)' }) type!: string;
}
