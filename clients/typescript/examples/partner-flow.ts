import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createPosClient, PosApiError, verifyWebhook, WebhookVerificationError, type DataOf, type VerifiedWebhook } from '@pos/client';

/**
 * A partner integration: an application user and its read-only token (issued by an admin), a
 * page of the sales feed, and a signed webhook received and verified.
 *
 *   import { runPartnerFlow } from './partner-flow';
 *   const result = await runPartnerFlow('http://127.0.0.1:3000');
 *
 * The webhook receiver listens on 127.0.0.1, which the service sends to only with
 * WEBHOOK_ALLOW_PRIVATE_TARGETS=true (a local or test setup); a real receiver has a public URL.
 */
export interface PartnerFlowOptions {
  adminEmail?: string;
  password?: string;
  /** A sale to read in detail through the feed (e.g. one the terminal flow just made). */
  saleId?: number;
  /** How long to wait for the webhook delivery (default 120 s). */
  webhookWaitMs?: number;
}

export interface PartnerFlowResult {
  applicationId: number;
  tokenAbilities: string[];
  feed: { rows: number; total: number; saleIds: number[] };
  sale: DataOf<'getIntegrationSale'> | null;
  webhook: { endpointId: number; verified: VerifiedWebhook; forgedRejected: boolean };
}

export async function runPartnerFlow(baseUrl: string, options: PartnerFlowOptions = {}): Promise<PartnerFlowResult> {
  // 1. As an admin: an application user holding what the partner may read, and a token for it.
  const admin = createPosClient({ baseUrl });
  await admin.login({ email: options.adminEmail ?? 'admin@example.com', password: options.password ?? 'password' });
  const application = await admin.call('createApiApplication', { body: { name: 'Example partner', permissions: ['sales.view'] } });
  const issued = await admin.call('issueApiApplicationToken', {
    params: { path: { user: application.id } },
    body: { name: 'example-partner', abilities: ['integration:read'] },
  });

  // 2. As the partner, with that token (shown once: store it as a secret): a page of the sales feed.
  const partner = createPosClient({ baseUrl, token: issued.token });
  const page = await partner.envelope('listIntegrationSales', { params: { query: { per_page: 20, page: 1 } } });
  const total = 'total' in page.meta ? page.meta.total : page.data.length;
  const sale = options.saleId ? await partner.call('getIntegrationSale', { params: { path: { sale: options.saleId } } }) : null;

  // 3. A webhook: the partner's receiver, an endpoint for it (its secret is in this answer only),
  //    and a signed ping, verified on the raw body before anything reads it.
  const receiver = await startReceiver();
  try {
    const endpoint = await admin.call('createWebhook', { body: { url: receiver.url, events: ['sale.completed'], description: 'Example partner' } });
    const received = receiver.next(endpoint.secret, options.webhookWaitMs ?? 120_000);
    await admin.call('pingWebhook', { params: { path: { webhook: String(endpoint.id) } } });
    const { verified, rawBody, headers } = await received;
    // A 503 (busy records, or a short outage) changed nothing: send it again after Retry-After.
    await whenServed(() => admin.call('deleteWebhook', { params: { path: { webhook: String(endpoint.id) } } }));
    return {
      applicationId: application.id,
      tokenAbilities: issued.abilities,
      feed: { rows: page.data.length, total, saleIds: page.data.map((s) => s.id) },
      sale,
      webhook: { endpointId: endpoint.id, verified, forgedRejected: rejectsForgery(endpoint.secret, rawBody, headers) },
    };
  } finally {
    await receiver.close();
  }
}

/** Sends a request again while the answer is retryable (429 or 503: nothing was changed), a few times. */
async function whenServed<T>(send: () => Promise<T>, tries = 4): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof PosApiError) || !error.retryable || attempt >= tries) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.min(5, error.retryAfterSeconds ?? 1) * 1000));
    }
  }
}

/** A body changed in transit (or signed with another secret) does not verify. */
function rejectsForgery(secret: string, rawBody: string, headers: IncomingHttpHeaders): boolean {
  try {
    verifyWebhook({ secret, rawBody: rawBody.replace('"ping"', '"pong"'), headers });
    return false;
  } catch (e) {
    return e instanceof WebhookVerificationError && e.reason === 'bad_signature';
  }
}

interface Delivery {
  verified: VerifiedWebhook;
  rawBody: string;
  headers: IncomingHttpHeaders;
}

/** A webhook receiver: answers 200 to a delivery that verifies, 401 to one that does not. */
async function startReceiver() {
  let waiting: { secret: string; resolve: (d: Delivery) => void } | null = null;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      try {
        if (!waiting) throw new WebhookVerificationError('bad_signature', 'No endpoint secret to check against yet');
        const verified = verifyWebhook({ secret: waiting.secret, rawBody, headers: req.headers });
        res.writeHead(200).end();
        waiting.resolve({ verified, rawBody, headers: req.headers });
        waiting = null;
      } catch {
        res.writeHead(401).end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/pos-webhooks`,
    /** The next delivery that verifies with this secret. */
    next(secret: string, waitMs: number): Promise<Delivery> {
      return new Promise<Delivery>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`No verified webhook delivery within ${waitMs} ms`)), waitMs);
        waiting = {
          secret,
          resolve: (d) => {
            clearTimeout(timer);
            resolve(d);
          },
        };
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
