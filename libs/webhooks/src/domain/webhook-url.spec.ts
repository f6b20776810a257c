import { classifyAddress } from './target-address';
import { parseWebhookUrl, WebhookTarget } from './webhook-url';

const target = (raw: string): WebhookTarget => {
  const r = parseWebhookUrl(raw);
  if ('problem' in r) throw new Error(r.problem);
  return r.target;
};

describe('parseWebhookUrl (SSRF guard, URL rules)', () => {
  it('accepts http and https and normalises the URL', () => {
    expect(target('https://Hooks.Example.com/pos?x=1#frag')).toEqual({
      href: 'https://hooks.example.com/pos?x=1',
      protocol: 'https:',
      host: 'hooks.example.com',
      ipLiteral: false,
    });
    expect(target('http://127.0.0.1:8080/in').ipLiteral).toBe(true);
  });

  it('sees through every spelling of a loopback address', () => {
    for (const raw of [
      'http://127.0.0.1/',
      'http://127.1/',
      'http://127.0.1/',
      'http://2130706433/',
      'http://0x7f000001/',
      'http://0x7f.0.0.1/',
      'http://0177.0.0.1/',
      'http://127.255.255.254/',
      'http://[::1]/',
      'http://[::ffff:127.0.0.1]/',
      'http://[0:0:0:0:0:ffff:7f00:1]/',
      'http://[::127.0.0.1]/',
    ]) {
      const t = target(raw);
      expect(t.ipLiteral).toBe(true);
      expect(classifyAddress(t.host)).toBe('loopback');
    }
    expect(classifyAddress(target('http://0.0.0.0/').host)).toBe('unspecified');
    expect(classifyAddress(target('http://0/').host)).toBe('unspecified');
    expect(classifyAddress(target('http://169.254.169.254/latest/meta-data').host)).toBe('link_local');
    expect(target('http://localhost:3000/').ipLiteral).toBe(false); // a name: resolved, then judged
  });

  it('refuses other schemes, credentials and non-URLs', () => {
    for (const [raw, problem] of [
      ['ftp://example.com/x', /http or https/],
      ['file:///etc/passwd', /http or https/],
      ['gopher://127.0.0.1:6379/_FLUSHALL', /http or https/],
      ['javascript:alert(1)', /http or https/],
      ['https://user:pass@example.com/', /credentials/],
      ['https://user@example.com/', /credentials/],
      ['not a url', /valid absolute URL/],
      ['/relative/path', /valid absolute URL/],
      ['http://', /valid absolute URL/],
      [`https://example.com/${'a'.repeat(2100)}`, /longer than 2048/],
      ['https://example.com:0/hook', /port 0/], // was taken, and then sent to port 443
      ['http://127.0.0.1:00/hook', /port 0/],
    ] as const) {
      const r = parseWebhookUrl(raw);
      expect('problem' in r && r.problem).toMatch(problem);
    }
  });
});
