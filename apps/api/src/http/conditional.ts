import { createHash } from 'node:crypto';
import type { Request, Response } from 'express';
import { BadRequestError, ExpectedVersions, PreconditionFailedError } from '@pos/kernel';

/**
 * Conditional requests (issue 26 item 4).
 *
 * Reads: a GET (or HEAD) answered 2xx on a path below one of CONDITIONAL_ROOTS carries an ETag
 * and `Cache-Control: private, no-cache` (a client may keep it, must revalidate it every time);
 * a request whose `If-None-Match` holds that tag gets 304 with no body (Express's `req.fresh`,
 * weak comparison, run by `res.send`). Everything else keeps `no-store` (security-headers.ts):
 * logins and tokens, webhook secrets, the audit trail, errors. The list is an allow-list, so a new
 * root with secrets in it is not cached by mistake.
 *
 * Tags are weak (gzip changes the bytes): `W/"<sha1 of the body, hex>"`, and for a record that
 * carries `version` (items, customers, pricing rules) `W/"v<version>-<sha1>"`. The hash covers what
 * the version does not (an item's stock), the version prefix is what `If-Match` compares. The body
 * is hashed once, from the bytes that are sent (a coalesced report's shared bytes: once for all
 * the requests that share them).
 *
 * Writes: `If-Match` on a versioned record's PUT is compared by version only (the `v<n>` of the
 * tag its GET or PUT sent, or a bare `"<n>"`); `*` matches any version. A well-formed tag that
 * names no version can never match (412); a header that is not a list of entity tags is a 400.
 */
export const CONDITIONAL_CACHE_CONTROL = 'private, no-cache';

const CONDITIONAL_ROOTS = new Set([
  'items',
  'categories',
  'stores',
  'warehouses',
  'payment-methods',
  'price-books',
  'customers',
  'customer-groups',
  'pricing-rules',
  'pricing',
  'bundles',
  'currencies',
  'sales',
  'invoices',
  'returns',
  'inventory',
  'sessions',
  'reports',
  'integration',
  'integrations',
]);

/** Roots where only some sub-paths are records (the till's product lookups). */
const CONDITIONAL_PREFIXES = ['pos/products'];

const API_ROOT = '/api/v1/';

/** Whether GETs of this path (a request path, or an OpenAPI path template) are conditional. */
export function isConditionalPath(path: string): boolean {
  if (!path.startsWith(API_ROOT)) return false;
  const rest = path.slice(API_ROOT.length);
  const slash = rest.indexOf('/');
  if (CONDITIONAL_ROOTS.has(slash < 0 ? rest : rest.slice(0, slash))) return true;
  return CONDITIONAL_PREFIXES.some((p) => rest === p || rest.startsWith(p + '/'));
}

const hashes = new WeakMap<Buffer, string>();

function sha1(bytes: Buffer): string {
  let hash = hashes.get(bytes);
  if (hash === undefined) {
    hash = createHash('sha1').update(bytes).digest('hex');
    hashes.set(bytes, hash);
  }
  return hash;
}

/** The record version an envelope's `data` carries (a single record), if any. */
function versionOf(answer: Record<string, unknown> | null): number | undefined {
  const data = answer?.data as { version?: unknown } | null | undefined;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return undefined;
  return Number.isSafeInteger(data.version) ? (data.version as number) : undefined;
}

/** The weak entity tag of an answer: its bytes' hash, prefixed by the record's version when it has one. */
export function entityTag(bytes: Buffer, version?: number): string {
  return version === undefined ? `W/"${sha1(bytes)}"` : `W/"v${version}-${sha1(bytes)}"`;
}

function tagged(req: Request, status: number): 'read' | 'write' | null {
  if (status < 200 || status >= 300 || !isConditionalPath(req.path)) return null;
  if (req.method === 'GET' || req.method === 'HEAD') return 'read';
  return req.method === 'PUT' || req.method === 'PATCH' ? 'write' : null; // PATCH: the same partial update (partial-update.ts)
}

/**
 * Sends a success answer as JSON. On a conditional path a GET/HEAD answer gets its ETag and
 * Cache-Control (and becomes a 304 when If-None-Match holds the tag: Express's `send` does it),
 * a PUT answer its ETag (the tag to send back as If-Match for the next edit). Otherwise false:
 * the caller sends as usual (nothing is serialised twice).
 * `answer` is the envelope object, or `bytes` an answer serialised already (SerializedJson).
 */
export function sendConditional(res: Response, status: number, answer: Record<string, unknown> | null, bytes?: Buffer): boolean {
  const kind = tagged(res.req, status);
  if (!kind) return false;
  const body = bytes ?? Buffer.from(JSON.stringify(answer));
  res.status(status);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('ETag', entityTag(body, bytes ? undefined : versionOf(answer)));
  if (kind === 'read') res.setHeader('Cache-Control', CONDITIONAL_CACHE_CONTROL);
  res.send(body);
  return true;
}

/** One member of an If-Match list: `W/"..."` or `"..."` (RFC 9110 etagc characters, commas included), then a comma or the end. */
const LIST_MEMBER = /[ \t]*(?:W\/)?"([\x21\x23-\x7e\x80-\xff]*)"[ \t]*(?:,|$)/y;
/** The versions a tag names: `v<n>-<hash>` (what GET and PUT send), `v<n>` or a bare `<n>`. */
const VERSION_IN_TAG = /^(?:v(\d{1,15})(?:-.*)?|(\d{1,15}))$/;

/**
 * The versions a PUT may overwrite, from its If-Match header and its body's `version` (either,
 * both or neither; undefined: no precondition, last write wins as before). Both given and
 * disagreeing: 412 at once (the record cannot be at both). A malformed If-Match is a 400 (a
 * client bug: it must not be read as "no precondition", nor look like someone else's edit).
 */
export function expectedVersions(ifMatch: string | undefined, bodyVersion: number | undefined, resource: string): ExpectedVersions {
  const fromHeader = parseIfMatch(ifMatch);
  if (bodyVersion === undefined) return fromHeader === '*' ? undefined : fromHeader;
  if (fromHeader !== undefined && fromHeader !== '*' && !fromHeader.includes(bodyVersion)) throw new PreconditionFailedError(resource);
  return [bodyVersion];
}

/** `*`, the versions the tags name (possibly none: nothing can match), or undefined when absent. */
export function parseIfMatch(header: string | undefined): '*' | number[] | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (value === '*') return '*';
  const malformed = () =>
    new BadRequestError(
      'invalid_if_match',
      'If-Match must be * or a comma-separated list of entity tags: the ETag a GET or PUT sent (W/"v3-..."), or "3" for version 3.',
    );
  if (value === '') throw malformed();
  const versions: number[] = [];
  for (let at = 0; at < value.length; at = LIST_MEMBER.lastIndex) {
    LIST_MEMBER.lastIndex = at;
    const member = LIST_MEMBER.exec(value);
    if (!member) throw malformed();
    const version = VERSION_IN_TAG.exec(member[1]);
    if (version) versions.push(Number(version[1] ?? version[2]));
  }
  return versions;
}
