/**
 * The sync token a terminal keeps between syncs, and the cursor of a paged download. Both are
 * opaque to clients: base64url JSON plus a signature (a tampered or truncated one is refused as
 * malformed). A token says when the download it ends was fixed (`issuedAt`, taken before anything
 * was read) and what the device then held beyond records with timestamps: the store's
 * warehouses, its price books and a fingerprint of the small reference sets, so the next delta
 * can send what became visible without changing (a warehouse or price book newly serving the
 * store) and skip the reference sets when they did not change.
 */
export interface SyncToken {
  storeId: number;
  issuedAt: Date;
  warehouseIds: number[];
  priceBookIds: number[];
  referenceHash: string;
}

/** Where a paged download stands. `since` is the token the delta started from (absent for the initial download). */
export interface FeedCursor {
  kind: 'initial' | 'delta';
  token: SyncToken;
  since: SyncToken | null;
  section: number;
  afterId: number;
}

export type Signer = (payload: string) => string;

const TOKEN_VERSION = 1;

interface TokenJson {
  v: number;
  s: number;
  t: number;
  w: number[];
  b: number[];
  r: string;
}

function tokenJson(t: SyncToken): TokenJson {
  return { v: TOKEN_VERSION, s: t.storeId, t: t.issuedAt.getTime(), w: t.warehouseIds, b: t.priceBookIds, r: t.referenceHash };
}

function tokenFrom(j: unknown): SyncToken | null {
  if (!j || typeof j !== 'object') return null;
  const o = j as Partial<TokenJson>;
  const ids = (v: unknown): v is number[] => Array.isArray(v) && v.length <= 1000 && v.every((n) => Number.isSafeInteger(n) && (n as number) > 0);
  if (o.v !== TOKEN_VERSION || !Number.isSafeInteger(o.s) || (o.s as number) <= 0 || !Number.isSafeInteger(o.t) || (o.t as number) <= 0) return null;
  if (!ids(o.w) || !ids(o.b) || typeof o.r !== 'string' || o.r.length > 64) return null;
  return { storeId: o.s!, issuedAt: new Date(o.t!), warehouseIds: o.w, priceBookIds: o.b, referenceHash: o.r };
}

function seal(json: unknown, sign: Signer): string {
  const body = Buffer.from(JSON.stringify(json)).toString('base64url');
  return `${body}.${sign(body)}`;
}

function open(raw: string, sign: Signer): unknown {
  if (typeof raw !== 'string' || raw.length > 20_000) return null;
  const dot = raw.lastIndexOf('.');
  if (dot <= 0) return null;
  const body = raw.slice(0, dot);
  if (!/^[A-Za-z0-9_-]+$/.test(body) || !sameText(sign(body), raw.slice(dot + 1))) return null;
  try {
    return JSON.parse(Buffer.from(body, 'base64url').toString('utf8')) as unknown;
  } catch {
    return null;
  }
}

/** Compares in time independent of where the texts differ (signatures). */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

export function encodeSyncToken(t: SyncToken, sign: Signer): string {
  return seal(tokenJson(t), sign);
}

/** The token, or null when it is not one this service issued (malformed, truncated, tampered). */
export function decodeSyncToken(raw: string, sign: Signer): SyncToken | null {
  return tokenFrom(open(raw, sign));
}

export function encodeCursor(c: FeedCursor, sign: Signer): string {
  return seal({ k: c.kind, t: tokenJson(c.token), f: c.since ? tokenJson(c.since) : null, x: c.section, a: c.afterId }, sign);
}

export function decodeCursor(raw: string, sign: Signer): FeedCursor | null {
  const j = open(raw, sign) as { k?: unknown; t?: unknown; f?: unknown; x?: unknown; a?: unknown } | null;
  if (!j || (j.k !== 'initial' && j.k !== 'delta')) return null;
  const token = tokenFrom(j.t);
  const since = j.f === null ? null : tokenFrom(j.f);
  if (!token || (j.k === 'delta') !== (since !== null)) return null;
  if (!Number.isSafeInteger(j.x) || (j.x as number) < 0 || !Number.isSafeInteger(j.a) || (j.a as number) < 0) return null;
  return { kind: j.k, token, since, section: j.x as number, afterId: j.a as number };
}
