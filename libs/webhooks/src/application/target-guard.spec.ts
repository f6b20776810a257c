import { ValidationFailedError } from '@pos/kernel';
import { WebhookTargetGuard } from './target-guard';
import { HostResolver } from './webhook.ports';
import { WebhookSettings } from './webhook-settings';

/** An IPv4 or IPv6 literal anywhere in a text. */
const IP_LITERAL = /\b\d{1,3}(\.\d{1,3}){3}\b|(?<![0-9a-z:])[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,}/i;

class FixedResolver extends HostResolver {
  constructor(private readonly answers: Record<string, string[]>) {
    super();
  }
  addresses(host: string): Promise<string[]> {
    return Promise.resolve(this.answers[host] ?? ['93.184.215.14']);
  }
}

async function refusal(guard: WebhookTargetGuard, url: string): Promise<string> {
  const error = await guard.check(url).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ValidationFailedError);
  return (error as ValidationFailedError).fields.url[0];
}

describe('WebhookTargetGuard (issue 25 item 8: the kind of address, never the address)', () => {
  const guard = new WebhookTargetGuard(
    new FixedResolver({
      'intranet.example': ['10.12.0.7'],
      'metadata.example': ['169.254.169.254'],
      'v6.example': ['fd12:3456::1'],
      'mixed.example': ['93.184.215.14', '127.0.0.1'],
      'mapped.example': ['::ffff:192.168.1.20'],
    }),
    { allowPrivateTargets: false } as WebhookSettings,
  );

  it.each([
    ['http://intranet.example/hook', 'resolves to a private address'],
    ['http://metadata.example/hook', 'resolves to a link-local address'],
    ['http://v6.example/hook', 'resolves to a private address'],
    ['http://mixed.example/hook', 'resolves to a loopback address'],
    ['http://mapped.example/hook', 'resolves to a private address'],
    ['http://10.1.2.3/hook', 'is a private address'],
    ['http://[::1]/hook', 'is a loopback address'],
    ['http://0x7f.1/hook', 'is a loopback address'],
    ['http://224.0.0.1/hook', 'is a multicast address'],
  ])('%s: the 422 says the host %s and quotes no address', async (url, kind) => {
    const message = await refusal(guard, url);
    expect(message).toContain(`The url's host ${kind}: webhooks may only target public addresses`);
    expect(message).not.toMatch(IP_LITERAL);
  });

  it('the address pattern would see one (the test can fail)', () => {
    for (const text of ['resolves to 10.12.0.7', 'is fd12:3456::1', 'is ::1', 'is ::ffff:c0a8:114']) expect(text).toMatch(IP_LITERAL);
  });

  it('accepts a public target', async () => {
    await expect(guard.check('https://partner.example/hook')).resolves.toBe('https://partner.example/hook');
  });
});
