import { ChildProcess, execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createConnection } from 'mysql2/promise';

/**
 * The drill's hands: the cluster of scripts/cluster/cluster.sh (3 Galera nodes behind HAProxy,
 * Redis with a replica and 3 Sentinels, all on loopback ports of their own) and the service's own
 * processes (built API replicas and workers, `npm run build` first), started and killed as an
 * operator would.
 */
const ROOT = join(__dirname, '../..');
const SCRIPT = join(ROOT, 'scripts/cluster/cluster.sh');
const API = join(ROOT, 'dist/apps/api/src/main.js');
const WORKER = join(ROOT, 'dist/apps/worker/src/main.js');
const CLI = join(ROOT, 'dist/apps/cli/src/main.js');
export const LOG_DIR = process.env.DRILL_LOG_DIR ?? '/tmp/pos-cluster-logs';

export function cluster(...args: string[]): string {
  const res = spawnSync('bash', [SCRIPT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 600_000 });
  if (res.status !== 0) throw new Error(`cluster.sh ${args.join(' ')} failed (${res.status}): ${res.stderr}\n${res.stdout}`);
  return res.stdout;
}

/** The same, without blocking this process (the webhook receiver lives here and must keep answering). */
export function clusterAsync(...args: string[]): Promise<string> {
  return new Promise((resolve, reject) =>
    execFile('bash', [SCRIPT, ...args], { encoding: 'utf8', timeout: 600_000 }, (err, stdout, stderr) =>
      err ? reject(new Error(`cluster.sh ${args.join(' ')} failed: ${err.message}\n${stderr}`)) : resolve(stdout),
    ),
  );
}

export function clusterEnv(): Record<string, string> {
  return Object.fromEntries(
    cluster('env')
      .trim()
      .split('\n')
      .map((line) => line.split(/=(.*)/s).slice(0, 2) as [string, string]),
  );
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Polls `fn` until `ok` (bounded by tries, not by a deadline the test asserts on). */
export async function poll<T>(fn: () => Promise<T>, ok: (v: T) => boolean, tries = 300, everyMs = 200): Promise<T> {
  let last: T | undefined;
  for (let i = 0; i < tries; i++) {
    try {
      last = await fn();
      if (ok(last)) return last;
    } catch {
      /* not yet */
    }
    await sleep(everyMs);
  }
  throw new Error(`condition not reached after ${tries} tries; last: ${JSON.stringify(last)}`);
}

/** One SQL statement on a MariaDB endpoint (a node or HAProxy's), on a connection of its own. */
export async function sqlAt<T = Record<string, unknown>>(port: number, sql: string, params: unknown[] = [], database?: string): Promise<T[]> {
  const conn = await createConnection({ host: '127.0.0.1', port, user: 'root', password: '', database, connectTimeout: 2000 });
  try {
    const [rows] = await conn.query(sql, params);
    return rows as T[];
  } finally {
    await conn.end().catch(() => undefined);
  }
}

/**
 * What an operator reads first when the drill fails: HAProxy's view of each node (state, times
 * marked down, last check) and the last warnings and errors each service logged (the 503s name
 * their cause there).
 */
export function diagnostics(names: string[], perService = 12): string {
  const out: string[] = [];
  try {
    out.push('haproxy:', cluster('haproxy-stat').trim());
  } catch (e) {
    out.push(`haproxy: no stats (${(e as Error).message.split('\n')[0]})`);
  }
  for (const name of names) {
    const file = join(LOG_DIR, `${name}.log`);
    if (!existsSync(file)) continue;
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => /"level":(4|5|6)\d/.test(l))
      .slice(-perService)
      .map((l) => (l.length > 600 ? `${l.slice(0, 600)}...` : l));
    out.push(`${name} (last ${lines.length} warnings/errors):`, ...lines);
  }
  return out.join('\n');
}

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  port?: number;
  url?: string;
}

/** The API replicas and workers, each a real process of the built service. */
export class Services {
  readonly database = `pos_drill_${randomBytes(3).toString('hex')}`;
  readonly queuePrefix = `pos-drill-${randomBytes(3).toString('hex')}`;
  readonly appKey = randomBytes(32).toString('hex');
  readonly procs: ServiceProcess[] = [];

  constructor(
    private readonly base: Record<string, string>,
    private readonly extra: Record<string, string> = {},
  ) {
    for (const file of [API, WORKER, CLI]) if (!existsSync(file)) throw new Error(`${file} is missing: run \`npm run build\` before the drill`);
  }

  env(overrides: Record<string, string> = {}): NodeJS.ProcessEnv {
    return {
      PATH: process.env.PATH,
      NODE_ENV: 'test',
      LOG_LEVEL: 'info',
      DEMO_HISTORY_DAYS: '0', // the drill is about failover: the bare demo set
      APP_KEY: this.appKey,
      DB_DATABASE: this.database,
      QUEUE_PREFIX: this.queuePrefix,
      RATE_LIMIT_KEY_PREFIX: `${this.queuePrefix}-rl`,
      ...this.base,
      ...this.extra,
      ...overrides,
    };
  }

  cli(...args: string[]): void {
    const res = spawnSync(process.execPath, [CLI, ...args], { env: this.env(), encoding: 'utf8', timeout: 300_000 });
    if (res.status !== 0) throw new Error(`cli ${args.join(' ')} failed: ${res.stderr}`);
  }

  private start(name: string, file: string, env: NodeJS.ProcessEnv, port?: number): ServiceProcess {
    const out = openSync(join(LOG_DIR, `${name}.log`), 'a');
    const child = spawn(process.execPath, [file], { env, stdio: ['ignore', out, out] });
    closeSync(out);
    const proc: ServiceProcess = { name, child, port, url: port ? `http://127.0.0.1:${port}` : undefined };
    this.procs.push(proc);
    return proc;
  }

  async api(name: string, port: number, overrides: Record<string, string> = {}): Promise<ServiceProcess> {
    const proc = this.start(name, API, this.env({ PORT: String(port), ...overrides }), port);
    await poll(
      async () => (await fetch(`${proc.url}/api/v1/health`)).status,
      (s) => s === 200,
      300,
    );
    return proc;
  }

  worker(name: string, overrides: Record<string, string> = {}): ServiceProcess {
    return this.start(name, WORKER, this.env(overrides));
  }

  kill(proc: ServiceProcess, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
    const { child } = proc;
    if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
    return new Promise((resolve) => {
      child.once('exit', () => resolve());
      child.kill(signal);
    });
  }

  async stopAll(): Promise<void> {
    await Promise.all(this.procs.map((p) => this.kill(p, 'SIGKILL')));
  }
}
