import request from 'supertest';
import { bearer, TestApp } from '../support/test-app';

export interface Download {
  token: string;
  pages: number;
  tokens: Set<string>;
  reference: Record<string, unknown> | null;
  referencePages: number;
  records: Record<string, { id: number; [k: string]: unknown }[]>;
  deleted: Record<string, number[]>;
}

/** Follows next_cursor from the first page of an initial download or a delta to the last, collecting everything. */
export async function downloadAll(t: TestApp, token: string, path: '/api/v1/sync/initial' | '/api/v1/sync/delta', query: Record<string, string | number>) {
  const out: Download = { token: '', pages: 0, tokens: new Set(), reference: null, referencePages: 0, records: {}, deleted: {} };
  let params: Record<string, string | number> = query;
  for (;;) {
    const res = await request(t.http).get(path).query(params).set(bearer(token));
    if (res.status !== 200) throw new Error(`${path} ${res.status} ${JSON.stringify(res.body)}`);
    const d = res.body.data;
    out.pages += 1;
    out.tokens.add(d.sync_token);
    out.token = d.sync_token;
    if (d.reference) {
      out.reference = d.reference;
      out.referencePages += 1;
    }
    for (const [type, rows] of Object.entries(d.records as Record<string, { id: number }[]>)) (out.records[type] ??= []).push(...rows);
    for (const [type, ids] of Object.entries(d.deleted as Record<string, number[]>)) (out.deleted[type] ??= []).push(...ids);
    if (d.complete) {
      if (d.next_cursor !== null) throw new Error('a complete page with a cursor');
      return out;
    }
    params = { cursor: d.next_cursor, ...(query.limit ? { limit: query.limit } : {}) };
    if (out.pages > 10_000) throw new Error('runaway paging');
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Whether a promise settles within `ms` (it keeps running either way). */
export async function settlesWithin(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const result = await Promise.race([
    p.then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms))),
  ]);
  clearTimeout(timer);
  return result;
}
