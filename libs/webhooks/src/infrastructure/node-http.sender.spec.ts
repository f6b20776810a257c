import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { SendRequest } from '../application/webhook.ports';
import { NodeHttpWebhookSender } from './node-http.sender';

/** The sender against a real server on 127.0.0.1 (private targets allowed unless a test says otherwise). */
describe('NodeHttpWebhookSender', () => {
  let server: Server;
  let port: number;
  const hits: string[] = [];
  const sender = new NodeHttpWebhookSender();
  const req = (path: string, extra: Partial<SendRequest> = {}): SendRequest => ({
    url: `http://127.0.0.1:${port}${path}`,
    headers: { 'Content-Type': 'application/json', 'X-Service-Event': 'ping' },
    body: '{"id":1}',
    timeoutMs: 2000,
    allowPrivateTargets: true,
    ...extra,
  });

  beforeAll(async () => {
    server = createServer((request, res) => {
      hits.push(request.url ?? '');
      if (request.url === '/ok') {
        let body = '';
        request.on('data', (c: Buffer) => (body += c.toString()));
        request.on('end', () => res.writeHead(200).end(`got ${body} ${String(request.headers['x-service-event'])}`));
      } else if (request.url === '/big') res.writeHead(200).end('x'.repeat(1_000_000));
      else if (request.url === '/redirect') res.writeHead(302, { Location: '/target' }).end();
      else if (request.url === '/silent') {
        /* never answers */
      } else if (request.url === '/trickle')
        res.writeHead(202).write('started'); // headers in time, body never ends
      else res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    sender.onModuleDestroy();
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('POSTs the body and headers and keeps the start of the response', async () => {
    const r = await sender.send(req('/ok'));
    expect(r).toMatchObject({ statusCode: 200, error: null, remoteAddress: '127.0.0.1', responseExcerpt: 'got {"id":1} ping' });
    expect(r.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('reads at most a few KB of a response', async () => {
    const started = Date.now();
    const r = await sender.send(req('/big'));
    expect(r.statusCode).toBe(200);
    expect(r.responseExcerpt).toHaveLength(1024);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('does not follow redirects', async () => {
    hits.length = 0;
    const r = await sender.send(req('/redirect'));
    expect(r).toMatchObject({ statusCode: 302, error: null });
    expect(hits).toEqual(['/redirect']);
  });

  it('gives up at the timeout; a 2xx that came in time counts even if its body never ends', async () => {
    const silent = await sender.send(req('/silent', { timeoutMs: 300 }));
    expect(silent).toMatchObject({ statusCode: null, error: 'Timed out after 300 ms' });
    expect(silent.durationMs).toBeGreaterThanOrEqual(290);
    const trickle = await sender.send(req('/trickle', { timeoutMs: 300 }));
    expect(trickle).toMatchObject({ statusCode: 202, error: null });
  });

  it('refuses a loopback address literal or a name resolving to loopback, before connecting', async () => {
    hits.length = 0;
    const literal = await sender.send(req('/ok', { allowPrivateTargets: false }));
    expect(literal).toMatchObject({ statusCode: null, error: 'Refused: the target is a loopback address (SSRF guard)', remoteAddress: null });
    const mapped = await sender.send(req('/ok', { url: `http://[::ffff:127.0.0.1]:${port}/ok`, allowPrivateTargets: false }));
    expect(mapped.error).toBe('Refused: the target is a loopback address (SSRF guard)');
    const named = await sender.send(req('/ok', { url: `http://localhost:${port}/ok`, allowPrivateTargets: false }));
    expect(named).toMatchObject({ error: 'Refused: the target is a loopback address (SSRF guard)', remoteAddress: null });
    const meta = await sender.send(req('/ok', { url: 'http://169.254.169.254/latest/meta-data/', allowPrivateTargets: false }));
    expect(meta.error).toBe('Refused: the target is a link-local address (SSRF guard)');
    expect(hits).toEqual([]);
  });

  it('reports a connection failure as an error without a status', async () => {
    const r = await sender.send(req('/ok', { url: 'http://127.0.0.1:1/ok' }));
    expect(r).toMatchObject({ statusCode: null, error: expect.stringMatching(/ECONNREFUSED/) });
  });
});
