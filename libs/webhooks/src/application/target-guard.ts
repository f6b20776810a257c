import { Injectable } from '@nestjs/common';
import { ValidationFailedError } from '@pos/kernel';
import { ADDRESS_KIND_TEXT, classifyAddress, isAllowedAddress } from '../domain/target-address';
import { parseWebhookUrl } from '../domain/webhook-url';
import { HostNotResolvedError, HostResolver } from './webhook.ports';
import { WebhookSettings } from './webhook-settings';

/**
 * SSRF guard at the door: a URL is accepted (create, update) only when it is http(s) without
 * credentials and every address its host resolves to is allowed (one bad address is enough to
 * refuse: a name must not mix public and internal answers). Each delivery checks again, on the
 * address actually connected to (WebhookSender), since DNS can change after this.
 */
@Injectable()
export class WebhookTargetGuard {
  constructor(
    private readonly resolver: HostResolver,
    private readonly settings: WebhookSettings,
  ) {}

  /** The normalised URL to store, or 422 on `url`. */
  async check(raw: string): Promise<string> {
    const parsed = parseWebhookUrl(raw);
    if ('problem' in parsed) throw ValidationFailedError.field('url', parsed.problem);
    const { target } = parsed;
    let addresses: string[];
    if (target.ipLiteral) addresses = [target.host];
    else {
      try {
        addresses = await this.resolver.addresses(target.host);
      } catch (error) {
        if (error instanceof HostNotResolvedError) throw ValidationFailedError.field('url', `The host ${target.host} could not be resolved.`);
        throw error;
      }
    }
    for (const address of addresses) {
      const kind = classifyAddress(address);
      if (!isAllowedAddress(kind, this.settings.allowPrivateTargets)) {
        // The kind, never the address: quoting what a name resolves to would turn this check
        // into an oracle of the internal DNS (which names exist inside, and where they point).
        throw ValidationFailedError.field(
          'url',
          `The url's host ${target.ipLiteral ? 'is' : 'resolves to'} ${ADDRESS_KIND_TEXT[kind]}: webhooks may only target public addresses` +
            (kind === 'multicast' || kind === 'broadcast' || kind === 'invalid' ? '.' : ' (unless WEBHOOK_ALLOW_PRIVATE_TARGETS is set).'),
        );
      }
    }
    return target.href;
  }
}
