import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  /** Exactly the bytes received: signatures are verified on this, never on re-serialised JSON. */
  rawBody: string;
  body: { id: number; type: string; created_at: string; data: Record<string, unknown> };
  at: number;
  deliveryId: string;
}

export type Reply = { status: number; body?: string; delayMs?: number };

/**
 * A real HTTP receiver on 127.0.0.1 (the only address tests send to). Each path can answer its
 * own way; by default 200.
 */
export class WebhookReceiver {
  readonly received: Received[] = [];
  private server?: Server;
  private readonly replies = new Map<string, (r: Received, seenBefore: number) => Reply>();

  on(path: string, reply: (r: Received, seenBefore: number) => Reply): this {
    this.replies.set(path, reply);
    return this;
  }

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const rawBody = Buffer.concat(chunks).toString('utf8');
        let body: Received['body'];
        try {
          body = JSON.parse(rawBody) as Received['body'];
        } catch {
          body = { id: -1, type: 'unparseable', created_at: '', data: {} };
        }
        const path = (req.url ?? '/').split('?')[0];
        const deliveryId = String(req.headers['x-service-delivery-id'] ?? '');
        const r: Received = { path, headers: req.headers, rawBody, body, at: Date.now(), deliveryId };
        const seenBefore = this.received.filter((x) => x.deliveryId === deliveryId).length;
        this.received.push(r);
        const reply = this.replies.get(path)?.(r, seenBefore) ?? { status: 200 };
        const send = () => {
          res.writeHead(reply.status, { 'Content-Type': 'text/plain' });
          res.end(reply.body ?? 'ok');
        };
        if (reply.delayMs) setTimeout(send, reply.delayMs);
        else send();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get port(): number {
    return (this.server!.address() as AddressInfo).port;
  }

  url(path: string, host = '127.0.0.1'): string {
    return `http://${host}:${this.port}${path}`;
  }

  at(path: string): Received[] {
    return this.received.filter((r) => r.path === path);
  }

  /** Waits until `check` holds for what `path` received (or times out with what came). */
  async waitFor(path: string, check: (got: Received[]) => boolean, timeoutMs = 20_000): Promise<Received[]> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const got = this.at(path);
      if (check(got)) return got;
      if (Date.now() > until)
        throw new Error(`receiver ${path}: condition not met in ${timeoutMs} ms; got ${got.length}: ${got.map((g) => g.body.type).join(', ')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

export async function eventually<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > until) throw new Error(`condition not met in ${timeoutMs} ms; last value: ${JSON.stringify(v)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
