/**
 * How the processes reach Redis (issue 24 item 4): one endpoint (REDIS_URL), a master found
 * through Sentinels (REDIS_SENTINELS + REDIS_SENTINEL_NAME), or a Redis Cluster
 * (REDIS_CLUSTER_NODES). Read by `loadConfig` with the same reader, so every bad variable or
 * combination is named at boot. Every connection is built from this one description
 * (libs/platform/src/redis/redis-connections.ts), so all of them follow a failover.
 */

/** The part of loadConfig's reader used here (structural: this file does not import app-config, which imports it). */
interface EnvReader {
  string(name: string): string | undefined;
  int(name: string, fallback: number, min: number, max: number): number;
  bool(name: string, fallback: boolean): boolean;
}

export interface RedisNode {
  host: string;
  port: number;
}

export type RedisConfig =
  /** One endpoint; credentials, TLS (rediss://) and the database number are in the URL. */
  | { mode: 'standalone'; url: string; db: number }
  /** The master that the Sentinels name (`masterName`), asked again after every failover. */
  | {
      mode: 'sentinel';
      sentinels: RedisNode[];
      masterName: string;
      sentinelPassword?: string;
      username?: string;
      password?: string;
      db: number;
      tls: boolean;
    }
  /** Redis Cluster: database 0 only, and BullMQ's keys need a hash-tagged prefix (see clusterQueuePrefix). */
  | { mode: 'cluster'; nodes: RedisNode[]; username?: string; password?: string; tls: boolean };

const MODES = ['REDIS_URL', 'REDIS_SENTINELS', 'REDIS_CLUSTER_NODES'] as const;
/** Connection details read with REDIS_SENTINELS or REDIS_CLUSTER_NODES (REDIS_URL carries them itself). */
const DETAILS = ['REDIS_USERNAME', 'REDIS_PASSWORD', 'REDIS_DB', 'REDIS_TLS'] as const;
const SENTINEL_ONLY = ['REDIS_SENTINEL_NAME', 'REDIS_SENTINEL_PASSWORD'] as const;

export function readRedis(read: EnvReader, problems: string[]): RedisConfig | undefined {
  const set = (names: readonly string[]) => names.filter((n) => read.string(n) !== undefined);
  const modes = set(MODES);
  if (modes.length > 1) {
    problems.push(`Set only one of REDIS_URL, REDIS_SENTINELS and REDIS_CLUSTER_NODES (got ${modes.join(' and ')})`);
    return undefined;
  }
  const mode = modes[0];
  const details = set(DETAILS);
  const sentinelOnly = set(SENTINEL_ONLY);
  if (mode !== 'REDIS_SENTINELS' && sentinelOnly.length)
    problems.push(`${sentinelOnly.join(' and ')} ${sentinelOnly.length > 1 ? 'are' : 'is'} only read with REDIS_SENTINELS`);
  if (mode === undefined) {
    if (details.length) problems.push(`${details.join(', ')} set, but no Redis is configured (REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES)`);
    return undefined;
  }
  if (mode === 'REDIS_URL') {
    if (details.length) problems.push(`${details.join(', ')} cannot be combined with REDIS_URL: put them in the URL (rediss://user:password@host:6379/2)`);
    return readUrl(read.string('REDIS_URL')!, problems);
  }
  const username = read.string('REDIS_USERNAME');
  const password = read.string('REDIS_PASSWORD');
  const tls = read.bool('REDIS_TLS', false);
  const db = read.int('REDIS_DB', 0, 0, 1_000_000);
  if (mode === 'REDIS_CLUSTER_NODES') {
    if (db !== 0) problems.push('REDIS_DB must be 0 (or unset) with REDIS_CLUSTER_NODES: Redis Cluster has database 0 only');
    return { mode: 'cluster', nodes: readNodes(read, 'REDIS_CLUSTER_NODES', problems), username, password, tls };
  }
  const masterName = read.string('REDIS_SENTINEL_NAME');
  if (masterName === undefined) problems.push('REDIS_SENTINEL_NAME (the master name the Sentinels monitor) is required with REDIS_SENTINELS');
  const sentinelPassword = read.string('REDIS_SENTINEL_PASSWORD');
  return {
    mode: 'sentinel',
    sentinels: readNodes(read, 'REDIS_SENTINELS', problems),
    masterName: masterName ?? '',
    sentinelPassword,
    username,
    password,
    db,
    tls,
  };
}

function readUrl(url: string, problems: string[]): RedisConfig | undefined {
  if (!/^rediss?:\/\//.test(url)) {
    problems.push('REDIS_URL must be a redis:// or rediss:// URL (for Sentinel or Cluster use REDIS_SENTINELS or REDIS_CLUSTER_NODES)');
    return undefined;
  }
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    problems.push('REDIS_URL is not a valid URL');
    return undefined;
  }
  // As ioredis reads it: the path's first segment, else a `db` query parameter, else 0.
  const db = parsed.pathname.length > 1 ? decodeURIComponent(parsed.pathname.slice(1)) : (parsed.searchParams.get('db') ?? '0');
  if (!/^\d{1,7}$/.test(db)) {
    problems.push(`REDIS_URL's database number (the path, as in redis://host:6379/2) must be an integer (got "${db}")`);
    return undefined;
  }
  return { mode: 'standalone', url, db: Number(db) };
}

/** `host:port,host:port` (IPv6 in brackets: `[::1]:26379`). */
function readNodes(read: EnvReader, name: string, problems: string[]): RedisNode[] {
  const raw = read.string(name) ?? '';
  const parts = raw
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  const nodes: RedisNode[] = [];
  const bad: string[] = [];
  for (const part of parts) {
    const m = /^(?:\[([0-9a-f:.]+)\]|([^\s:/[\]@]+)):(\d{1,5})$/i.exec(part);
    const port = m ? Number(m[3]) : 0;
    if (!m || port < 1 || port > 65535) bad.push(part);
    else nodes.push({ host: m[1] ?? m[2], port });
  }
  if (bad.length || nodes.length === 0)
    problems.push(`${name} must be comma-separated host:port pairs, like 10.0.0.1:26379,10.0.0.2:26379 (got "${bad.length ? bad.join('", "') : raw}")`);
  return nodes;
}

/**
 * BullMQ runs multi-key scripts over one queue's keys, which Redis Cluster accepts only when they
 * hash to one slot: a prefix with a hash tag (`{pos}`) puts every key of every queue there. A
 * QUEUE_PREFIX that already has one is kept as it is; else it is wrapped in braces.
 */
export function clusterQueuePrefix(prefix: string): string {
  return /\{[^{}]+\}/.test(prefix) ? prefix : `{${prefix}}`;
}

/** The database number of a configuration (pub/sub ignores it: see the replica broadcast's channels). */
export function redisDb(config: RedisConfig): number {
  return config.mode === 'cluster' ? 0 : config.db;
}
