import request from 'supertest';
import { OpenApiDoc, ResponseChecker } from '../support/openapi-fuzz';
import { TestApp } from '../support/test-app';

export interface OutboxEvent {
  id: number;
  type: string;
  storeId: number | null;
  data: Record<string, unknown>;
}

/** The newest outbox id: events written after it are those of the operation that follows. */
export async function outboxMark(t: TestApp): Promise<number> {
  return Number((await t.db.query('SELECT COALESCE(MAX(id), 0) AS n FROM outbox_events'))[0].n);
}

/** The events written after `mark`, in order (test sends excluded). */
export async function outboxAfter(t: TestApp, mark: number): Promise<OutboxEvent[]> {
  const rows = (await t.db.query("SELECT id, type, store_id, payload FROM outbox_events WHERE id > ? AND type NOT LIKE 'test:%' ORDER BY id", [mark])) as {
    id: number | string;
    type: string;
    store_id: number | string | null;
    payload: string;
  }[];
  return rows.map((r) => ({
    id: Number(r.id),
    type: r.type,
    storeId: r.store_id === null ? null : Number(r.store_id),
    data: JSON.parse(r.payload) as Record<string, unknown>,
  }));
}

const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

/**
 * Checks event payloads against the served OpenAPI document's `<Kind>EventData` component,
 * closed (a field the document does not name fails), as the fuzz suite checks responses.
 */
export class EventSchemas {
  private constructor(
    readonly doc: OpenApiDoc,
    private readonly checker: ResponseChecker,
  ) {}

  static async load(t: TestApp): Promise<EventSchemas> {
    const doc = (await request(t.http).get('/api/docs-json')).body as OpenApiDoc;
    return new EventSchemas(doc, new ResponseChecker(doc));
  }

  componentOf(type: string): string {
    return `${pascal(type)}EventData`;
  }

  /** null when `data` matches the documented schema of `type`; else the first problem. */
  problem(type: string, data: unknown): string | null {
    const name = this.componentOf(type);
    if (!this.doc.components.schemas[name]) return `no component ${name}`;
    const op = { responses: { '200': { content: { 'application/json': { schema: { $ref: `#/components/schemas/${name}` } } } } } };
    return this.checker.check(op, 200, data, 'application/json');
  }
}
