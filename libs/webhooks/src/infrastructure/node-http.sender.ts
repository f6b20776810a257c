import { lookup as dnsLookup, LookupAddress } from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import { LookupFunction, Socket } from 'node:net';
import { performance } from 'node:perf_hooks';
import { Injectable, OnModuleDestroy } from '@nestjs/common';
import { ADDRESS_KIND_TEXT, classifyAddress, isAllowedAddress, isIpLiteral } from '../domain/target-address';
import { HostNotResolvedError, HostResolver, SendRequest, SendResult, WebhookSender } from '../application/webhook.ports';

/** Read at most this much of a response (the rest is not wanted; the socket is dropped). */
const MAX_RESPONSE_BYTES = 4096;
/** Kept in the attempt log. */
const EXCERPT_CHARS = 1024;

class TargetRefused extends Error {
  readonly code = 'EWEBHOOKTARGET';
}

/**
 * node:http(s) with keep-alive agents. The SSRF guard runs where the connection is made:
 *  - a URL naming an address is checked before connecting (no DNS lookup happens for it);
 *  - a name is resolved by our own `lookup`, which refuses the request if any answer is not an
 *    allowed address (so a name re-pointed at 127.0.0.1 after it was accepted is refused);
 *  - the socket's remote address is checked once connected, whatever path led there.
 * Redirects are never followed (node:http does not), so a 3xx is a failed attempt.
 */
@Injectable()
export class NodeHttpWebhookSender extends WebhookSender implements OnModuleDestroy {
  private readonly agents = {
    'http:': new http.Agent({ keepAlive: true, maxSockets: 128, maxFreeSockets: 16, timeout: 30_000 }),
    'https:': new https.Agent({ keepAlive: true, maxSockets: 128, maxFreeSockets: 16, timeout: 30_000 }),
  };

  send(req: SendRequest): Promise<SendResult> {
    const started = performance.now();
    const elapsed = () => Math.round(performance.now() - started);
    // The attempt log names the kind of a refused address, never the address (nor keeps it as
    // remote_address): a name re-pointed inside must not tell its owner where it points.
    const refusal = (address: string): string | null => {
      const kind = classifyAddress(address);
      return isAllowedAddress(kind, req.allowPrivateTargets) ? null : `Refused: the target is ${ADDRESS_KIND_TEXT[kind]} (SSRF guard)`;
    };
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      return Promise.resolve({ statusCode: null, durationMs: 0, error: 'Invalid URL', remoteAddress: null, responseExcerpt: null });
    }
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const literalRefusal = isIpLiteral(host) ? refusal(host) : null;
    if (literalRefusal) return Promise.resolve({ statusCode: null, durationMs: elapsed(), error: literalRefusal, remoteAddress: null, responseExcerpt: null });

    return new Promise<SendResult>((resolve) => {
      let settled = false;
      let statusCode: number | null = null;
      let remoteAddress: string | null = null;
      const chunks: Buffer[] = [];
      let size = 0;
      const finish = (error: string | null) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        const excerpt = size ? Buffer.concat(chunks).toString('utf8').slice(0, EXCERPT_CHARS) : null;
        // A 2xx that arrived in time succeeded even if reading the rest of its body did not.
        resolve({ statusCode, durationMs: elapsed(), error: statusCode !== null ? null : error, remoteAddress, responseExcerpt: excerpt });
      };
      const lib = url.protocol === 'https:' ? https : http;
      const request = lib.request(
        url,
        {
          method: 'POST',
          agent: this.agents[url.protocol as 'http:' | 'https:'],
          headers: { ...req.headers, 'Content-Length': String(Buffer.byteLength(req.body)) },
          lookup: guardedLookup(refusal),
        },
        (res) => {
          statusCode = res.statusCode ?? null;
          res.on('data', (chunk: Buffer) => {
            if (size >= MAX_RESPONSE_BYTES) return;
            chunks.push(chunk);
            size += chunk.length;
            if (size >= MAX_RESPONSE_BYTES) {
              res.destroy();
              finish(null);
            }
          });
          res.on('end', () => finish(null));
          res.on('error', () => finish(null));
          res.on('close', () => finish(null));
        },
      );
      request.on('socket', (socket: Socket) => {
        const check = () => {
          const connected = socket.remoteAddress ?? null;
          const refused = connected ? refusal(connected) : null;
          if (refused) request.destroy(new TargetRefused(refused));
          else remoteAddress = connected;
        };
        if (socket.connecting) socket.once('connect', check);
        else check();
      });
      request.on('error', (error: Error) => finish(describe(error)));
      const timer = setTimeout(() => request.destroy(new Error(`Timed out after ${req.timeoutMs} ms`)), req.timeoutMs);
      request.end(req.body);
    });
  }

  onModuleDestroy(): void {
    this.agents['http:'].destroy();
    this.agents['https:'].destroy();
  }
}

/** `lookup` for net.connect: resolves, then refuses unless every address is allowed. */
function guardedLookup(refusal: (address: string) => string | null): LookupFunction {
  return ((hostname: string, options: { family?: number; hints?: number; all?: boolean }, callback: (...args: unknown[]) => void) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0, hints: options.hints }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err);
      const refused = addresses.map((a) => refusal(a.address)).find((r) => r !== null);
      if (refused) return callback(new TargetRefused(refused));
      if (!addresses.length) return callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }));
      if (options.all) return callback(null, addresses);
      return callback(null, addresses[0].address, addresses[0].family);
    });
  }) as unknown as LookupFunction;
}

function describe(error: Error): string {
  const code = (error as { code?: string }).code;
  if (error instanceof TargetRefused || code === 'EWEBHOOKTARGET') return error.message;
  return error.message || code || 'Request failed';
}

/** A request must not wait on a stuck resolver: past this the host counts as unresolved (422). */
const RESOLVE_TIMEOUT_MS = 5000;

/** System DNS (getaddrinfo, as connections use), every address of the name. */
@Injectable()
export class SystemHostResolver extends HostResolver {
  addresses(host: string): Promise<string[]> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new HostNotResolvedError(`${host}: no answer within ${RESOLVE_TIMEOUT_MS} ms`)), RESOLVE_TIMEOUT_MS);
      dnsLookup(host, { all: true }, (err, addresses: LookupAddress[]) => {
        clearTimeout(timer);
        if (err) {
          const code = (err as NodeJS.ErrnoException).code;
          reject(code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'ENODATA' ? new HostNotResolvedError(err.message) : err);
          return;
        }
        if (!addresses.length) reject(new HostNotResolvedError(host));
        else resolve(addresses.map((a) => a.address));
      });
    });
  }
}
