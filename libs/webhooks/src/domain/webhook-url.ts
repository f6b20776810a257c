import { isIpLiteral } from './target-address';

/**
 * SSRF guard, URL half: only http(s), no credentials in the URL, a host. The WHATWG parser
 * normalises every spelling of an address first (`http://2130706433/`, `http://0x7f.1/`,
 * `http://127.1/` all become 127.0.0.1; `[::ffff:127.0.0.1]` becomes `[::ffff:7f00:1]`), so the
 * address check sees the address that would be connected to. Names are resolved later (DNS).
 */
export interface WebhookTarget {
  /** Normalised URL without fragment: what is stored and requested. */
  href: string;
  protocol: 'http:' | 'https:';
  /** Host name or address, IPv6 without brackets. */
  host: string;
  /** The host is an IP address: no DNS lookup happens for it. */
  ipLiteral: boolean;
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;

export function parseWebhookUrl(raw: string): { target: WebhookTarget } | { problem: string } {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { problem: 'The url must be a valid absolute URL.' };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return { problem: 'The url must use http or https.' };
  if (url.username || url.password) return { problem: 'The url must not contain credentials.' };
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  if (!host) return { problem: 'The url must name a host.' };
  // Port 0 names no port (the connection would go to the scheme's default instead).
  if (url.port === '0') return { problem: 'The url must not name port 0.' };
  url.hash = '';
  if (url.href.length > MAX_WEBHOOK_URL_LENGTH) return { problem: `The url may not be longer than ${MAX_WEBHOOK_URL_LENGTH} characters.` };
  return { target: { href: url.href, protocol: url.protocol, host, ipLiteral: isIpLiteral(host) } };
}
