import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './generated/schema';
import { OPERATIONS, type OperationName } from './generated/operations';
import { PosApiError } from './errors';

/** The named schemas of the API (`Schema<'SaleDetail'>`, `Schema<'CheckoutDto'>`). */
export type Schema<N extends keyof components['schemas']> = components['schemas'][N];

type Op<K extends OperationName> = operations[K];
type SuccessStatus = 200 | 201 | 202 | 204;
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : undefined;
type RequiredKeys<T> = { [P in keyof T]-?: object extends Pick<T, P> ? never : P }[keyof T];

/** The success envelope of an operation: `{success: true, data, meta?}` or `{success: true, message}`. */
export type SuccessBody<K extends OperationName> = JsonOf<Op<K>['responses'][Extract<keyof Op<K>['responses'], SuccessStatus>]>;
/** The `data` of an operation's success envelope. */
export type DataOf<K extends OperationName> = SuccessBody<K> extends { data: infer D } ? D : undefined;
/** The request body of an operation. */
export type BodyOf<K extends OperationName> = JsonOf<NonNullable<Op<K>['requestBody']>>;

type ParamsInit<K extends OperationName> = RequiredKeys<Op<K>['parameters']> extends never ? { params?: Op<K>['parameters'] } : { params: Op<K>['parameters'] };
type BodyInit<K extends OperationName> = [NonNullable<Op<K>['requestBody']>] extends [never]
  ? { body?: never }
  : Op<K> extends { requestBody: unknown }
    ? { body: BodyOf<K> }
    : { body?: BodyOf<K> };
/** What `call(name, init)` takes: path, query and header parameters, the body, and extra headers. */
export type CallInit<K extends OperationName> = ParamsInit<K> & BodyInit<K> & { headers?: Record<string, string>; signal?: AbortSignal };
type CallArgs<K extends OperationName> = RequiredKeys<CallInit<K>> extends never ? [init?: CallInit<K>] : [init: CallInit<K>];

export interface PosClientOptions {
  /** The service's origin, e.g. `http://127.0.0.1:3000` (paths carry /api/v1). */
  baseUrl: string;
  /** A bearer token (from `login`, or an API application token for partner feeds). */
  token?: string;
  /** Another fetch (tests, proxies, retries); the global fetch by default. */
  fetch?: typeof fetch;
  /** Headers sent with every request. */
  headers?: Record<string, string>;
}

type RawResult = { data?: unknown; error?: unknown; response: Response };

/**
 * A typed client of the Point-of-Sale Service API, generated from its OpenAPI document.
 *
 *   const pos = createPosClient({ baseUrl: 'http://127.0.0.1:3000' });
 *   await pos.login({ email: 'cashier@example.com', password: 'password' });   // keeps the token
 *   const sale = await pos.call('checkout', { body: { ... } });                 // `data` of the envelope
 *   const { data, meta } = await pos.envelope('listSales', { params: { query: { per_page: 50 } } });
 *   const raw = await pos.api.GET('/api/v1/sales/{sale}/receipt', { params: { path: { sale: 1 }, query: { format: 'text' } }, parseAs: 'text' });
 *
 * `call` and `envelope` name operations by their operationId and throw a `PosApiError` on any
 * status outside 2xx; `api` is the openapi-fetch client over every path, for everything else.
 */
export class PosClient {
  readonly api: Client<paths>;
  private bearer: string | undefined;

  constructor(options: PosClientOptions) {
    this.bearer = options.token;
    this.api = createClient<paths>({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      fetch: options.fetch,
      headers: { Accept: 'application/json', ...options.headers },
    });
    const auth: Middleware = {
      onRequest: ({ request }) => {
        if (this.bearer && !request.headers.has('Authorization')) request.headers.set('Authorization', `Bearer ${this.bearer}`);
        return request;
      },
    };
    this.api.use(auth);
  }

  /** The bearer token sent with each request (undefined: none). */
  get token(): string | undefined {
    return this.bearer;
  }

  setToken(token: string | undefined): void {
    this.bearer = token;
  }

  /** POST /auth/login; the client then sends the token it returned. */
  async login(body: BodyOf<'login'>): Promise<DataOf<'login'>> {
    const result = await this.call('login', { body });
    this.setToken(result.token);
    return result;
  }

  /** POST /auth/logout (revokes the token), then forgets it. */
  async logout(): Promise<void> {
    await this.call('logout');
    this.setToken(undefined);
  }

  /** Sends an operation by its operationId; resolves to the `data` of the success envelope. */
  async call<K extends OperationName>(name: K, ...args: CallArgs<K>): Promise<DataOf<K>> {
    const body = (await this.envelope(name, ...args)) as { data?: unknown };
    return body?.data as DataOf<K>;
  }

  /** Sends an operation by its operationId; resolves to the whole success envelope (`data`, `meta` of a page, `message`). */
  async envelope<K extends OperationName>(name: K, ...args: CallArgs<K>): Promise<SuccessBody<K>> {
    const { method, path } = OPERATIONS[name];
    const send = this.api.request as unknown as (method: string, path: string, init: object) => Promise<RawResult>;
    return unwrap(await send(method.toLowerCase(), path, args[0] ?? {})) as SuccessBody<K>;
  }
}

/** The success body of an openapi-fetch result, or a `PosApiError` thrown for any status outside 2xx. */
export function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (!result.response.ok) throw PosApiError.fromResponse(result.response, result.error);
  return result.data as T;
}

export function createPosClient(options: PosClientOptions): PosClient {
  return new PosClient(options);
}
