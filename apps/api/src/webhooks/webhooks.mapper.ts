import { EndpointInput } from '@pos/webhooks';
import { CreateWebhookDto, UpdateWebhookDto } from './webhooks.dto';

/** An endpoint body to the use case's input; on an update, only the fields given change. */
export function endpointInput(b: CreateWebhookDto): EndpointInput;
export function endpointInput(b: UpdateWebhookDto): Partial<EndpointInput>;
export function endpointInput(b: CreateWebhookDto | UpdateWebhookDto): Partial<EndpointInput> {
  return { url: b.url, events: b.events, description: b.description, active: b.active, replayFrom: b.replay_from };
}
