/**
 * Read replicas of the MySQL primary (issue 24): where read-only use cases may read, and how
 * stale a replica may be before its reads go back to the primary. Read by `loadConfig` with the
 * same reader (every bad variable is named at once). Absent: no replica, one pool, as before.
 */

/** The part of loadConfig's reader used here (structural: this file does not import app-config, which imports it). */
interface EnvReader {
  string(name: string): string | undefined;
  int(name: string, fallback: number, min: number, max: number): number;
}

/** One replica: a mysql:// URL, or a host and port with the primary's credentials and database. */
export type ReadReplicaEndpoint = { url: string } | { host: string; port: number };

export interface ReadReplicasConfig {
  /** Empty: no replica (every query on the primary). */
  endpoints: ReadReplicaEndpoint[];
  /** A replica whose data is older than this (heartbeat) is not read; its reads go to the primary. */
  maxLagSeconds: number;
  /** How long a replica's measured lag (or its being down) is trusted before it is measured again (0: every read). */
  checkIntervalMs: number;
}

const HOST = /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?)(:(\d{1,5}))?$/i;

/** `host[:port]`, the port defaulting to the primary's. */
function parseHost(item: string, defaultPort: number): ReadReplicaEndpoint | null {
  const m = HOST.exec(item);
  if (!m) return null;
  const port = m[4] === undefined ? defaultPort : Number(m[4]);
  if (port < 1 || port > 65535) return null;
  return { host: m[1].replace(/^\[|\]$/g, ''), port };
}

function parseUrl(item: string): ReadReplicaEndpoint | null {
  if (!/^mysql:\/\//i.test(item)) return null;
  try {
    const u = new URL(item);
    return u.hostname ? { url: item } : null;
  } catch {
    return null;
  }
}

function list(raw: string | undefined): string[] | undefined {
  return raw
    ?.split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
}

export function readReadReplicas(read: EnvReader, dbType: 'sqlite' | 'mysql', primaryPort: number, problems: string[]): ReadReplicasConfig {
  const hosts = list(read.string('DB_READ_HOSTS'));
  const urls = list(read.string('DB_READ_URLS'));
  const config: ReadReplicasConfig = {
    endpoints: [],
    maxLagSeconds: read.int('DB_READ_MAX_LAG_SECONDS', 5, 1, 86_400),
    checkIntervalMs: read.int('DB_READ_CHECK_INTERVAL_MS', 1000, 0, 60_000),
  };
  if (hosts === undefined && urls === undefined) return config;
  if (hosts !== undefined && urls !== undefined) {
    problems.push('DB_READ_HOSTS and DB_READ_URLS cannot both be set (use one list of read replicas)');
    return config;
  }
  if (dbType !== 'mysql') {
    problems.push('DB_READ_HOSTS / DB_READ_URLS need DB_TYPE=mysql (the embedded database has no replicas)');
    return config;
  }
  const name = hosts !== undefined ? 'DB_READ_HOSTS' : 'DB_READ_URLS';
  const items = hosts ?? urls ?? [];
  const parsed = items.map((item) => (hosts !== undefined ? parseHost(item, primaryPort) : parseUrl(item)));
  const bad = items.filter((_, i) => parsed[i] === null);
  if (items.length === 0) problems.push(`${name} must list at least one replica`);
  else if (items.length > 32) problems.push(`${name} lists ${items.length} replicas (at most 32)`);
  else if (bad.length > 0)
    problems.push(
      hosts !== undefined
        ? `DB_READ_HOSTS must be comma-separated host[:port] (got "${bad.join('", "')}")`
        : `DB_READ_URLS must be comma-separated mysql:// URLs (got ${bad.length} that ${bad.length === 1 ? 'is' : 'are'} not)`,
    );
  else config.endpoints = parsed as ReadReplicaEndpoint[];
  return config;
}
