import { promisify } from 'node:util';
import { gzip } from 'node:zlib';
import type { Request, Response } from 'express';

const gzipAsync = promisify(gzip);
/** Below this a compressed body is hardly smaller; not worth the CPU. */
const MIN_BYTES = 1024;

/**
 * Sends a JSON body, gzip-compressed when the client accepts it (Accept-Encoding), for the sync
 * download routes only (pages of up to 5,000 records compress about tenfold). Compression runs
 * on libuv's thread pool, off the event loop. No dependency: node:zlib.
 */
export async function sendJson(req: Request, res: Response, status: number, body: unknown): Promise<void> {
  const json = Buffer.from(JSON.stringify(body));
  res.status(status);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Vary', 'Accept-Encoding');
  if (json.length >= MIN_BYTES && req.acceptsEncodings('gzip') === 'gzip') {
    const compressed = await gzipAsync(json, { level: 6 });
    res.setHeader('Content-Encoding', 'gzip');
    res.setHeader('Content-Length', compressed.length);
    res.end(compressed);
    return;
  }
  res.setHeader('Content-Length', json.length);
  res.end(json);
}
