import { sleep } from './topology';

/**
 * Tills as the drill's clients: each rings a bounded number of sales through the API replicas in
 * turn, with a till's discipline: one idempotency key per sale, and on a 503 or a broken
 * connection the same request again (bounded), so an outage must never sell twice or lose an
 * acknowledged sale. Every answer is recorded for the checks.
 */
export interface Answer {
  status: number;
  body: { data?: Record<string, unknown> } & Record<string, unknown>;
  headers: Headers;
}

export async function call(base: string, method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
  const res = await fetch(`${base}/api/v1${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
  const text = await res.text();
  let parsed: Answer['body'] = {};
  try {
    parsed = text ? (JSON.parse(text) as Answer['body']) : {};
  } catch {
    parsed = { raw: text };
  }
  return { status: res.status, body: parsed, headers: res.headers };
}

/**
 * The same, sent again on a 503 (Retry-After honoured, at most 5 s a wait; bounded tries), as any
 * client does: for the drill's own set-up, which is not what it measures. `onRefused` hears each 503.
 */
export async function callServed(
  base: string,
  method: string,
  path: string,
  token?: string,
  body?: unknown,
  onRefused: (a: Answer) => void = () => undefined,
  tries = 6,
): Promise<Answer> {
  let answer = await call(base, method, path, token, body);
  for (let i = 1; i < tries && answer.status === 503; i++) {
    onRefused(answer);
    await sleep(Math.min(5, Number(answer.headers.get('retry-after')) || 1) * 1000);
    answer = await call(base, method, path, token, body);
  }
  return answer;
}

export async function loginAt(base: string, email: string): Promise<string> {
  const res = await callServed(base, 'POST', '/auth/login', undefined, { email, password: 'password' });
  if (res.status !== 201) throw new Error(`login ${email}: ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.data as { token: string }).token;
}

export interface Acknowledged {
  key: string;
  saleId: number;
  lineIds: number[];
  paymentIds: number[];
  storeId: number;
  /** The till's token: a replay is the same user's request again. */
  token: string;
  body: Record<string, unknown>;
}

export interface TillLog {
  acknowledged: Acknowledged[];
  /** Every non-2xx status seen, or 0 for a broken connection. */
  refusals: number[];
  /** The sales that never got an answer within the retries: must be none. */
  unanswered: string[];
  /** Time of each acknowledged sale (ms since the epoch): the drill's recovery figure. */
  ackTimes: number[];
  returnsMade: number;
  lookups: number;
}

export interface TillOptions {
  name: string;
  apis: string[];
  token: string;
  storeId: number;
  cart: Record<string, unknown>[];
  total: number;
  sales: number;
  /** Every Nth sale is returned at once (one line, processed). 0: none. */
  returnEvery?: number;
  /** Retries of one request on 503 or a broken connection. */
  retries?: number;
  pauseMs?: number;
  onAck?: (count: number) => void;
}

const RETRYABLE = new Set([0, 502, 503]);

/** Sends `body` until it gets an answer that is not retryable, at most `retries` times. */
async function persist(api: (i: number) => string, path: string, token: string, body: unknown, retries: number, log: TillLog): Promise<Answer | undefined> {
  for (let attempt = 0; attempt < retries; attempt++) {
    let answer: Answer;
    try {
      answer = await call(api(attempt), 'POST', path, token, body);
    } catch {
      answer = { status: 0, body: {}, headers: new Headers() };
    }
    if (answer.status < 300) return answer;
    log.refusals.push(answer.status);
    if (!RETRYABLE.has(answer.status)) return answer;
    await sleep(Math.min(1000, 100 * (attempt + 1)));
  }
  return undefined;
}

export async function runTill(o: TillOptions): Promise<TillLog> {
  const log: TillLog = { acknowledged: [], refusals: [], unanswered: [], ackTimes: [], returnsMade: 0, lookups: 0 };
  const retries = o.retries ?? 120;
  for (let i = 0; i < o.sales; i++) {
    const key = `${o.name}-${i}`;
    const body = {
      store_id: o.storeId,
      idempotency_key: key,
      items: o.cart,
      payments: [{ payment_method_code: 'cash', amount: o.total }],
      total_amount: o.total,
    };
    const answer = await persist((a) => o.apis[(i + a) % o.apis.length], '/pos/checkout', o.token, body, retries, log);
    if (!answer) {
      log.unanswered.push(key);
      continue;
    }
    if (answer.status !== 201) throw new Error(`${key}: ${answer.status} ${JSON.stringify(answer.body)}`);
    const data = answer.body.data as { id: number; items: { id: number }[]; payments: { id: number }[] };
    log.acknowledged.push({
      key,
      saleId: Number(data.id),
      lineIds: data.items.map((l) => Number(l.id)),
      paymentIds: data.payments.map((p) => Number(p.id)),
      storeId: o.storeId,
      token: o.token,
      body,
    });
    log.ackTimes.push(Date.now());
    o.onAck?.(log.acknowledged.length);
    if (o.returnEvery && i % o.returnEvery === o.returnEvery - 1) {
      const sale = log.acknowledged[log.acknowledged.length - 1];
      const ret = await persist(
        (a) => o.apis[(i + a + 1) % o.apis.length],
        '/returns',
        o.token,
        { sale_id: sale.saleId, idempotency_key: `${key}-r`, process_immediately: true, items: [{ sale_item_id: sale.lineIds[0], quantity: 1 }] },
        retries,
        log,
      );
      if (!ret || ret.status >= 300) throw new Error(`${key}: return refused ${ret?.status} ${JSON.stringify(ret?.body)}`);
      log.returnsMade++;
    }
    try {
      const look = await call(o.apis[i % o.apis.length], 'GET', `/items?per_page=5`, o.token);
      if (look.status < 300) log.lookups++;
      else log.refusals.push(look.status);
    } catch {
      log.refusals.push(0);
    }
    if (o.pauseMs) await sleep(o.pauseMs);
  }
  return log;
}
