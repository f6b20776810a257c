export interface KeyedCacheOptions {
  /** At most this many keys are held; the oldest go first. Default 50,000. */
  max?: number;
  /**
   * Whether a key its load did not find is kept (as null, the default: a scan of an unknown code
   * does not read again) or read again next time (false: for what may be created behind the
   * service's back, such as stores, which must then show at once).
   */
  keepAbsent?: boolean;
}

/**
 * The per-process cache of reference data by key (items, their units and barcodes, price book
 * entries, stores, currencies' decimals, active rules): read in one set query for the keys not
 * held, kept for `ttlMs`, forgotten at once by `forget` (the owner calls it after a committed
 * write, here and, through ReplicaBroadcast, on the other replicas). A value read once for the
 * whole process (the base currency) is a cache of one key.
 *  - Absent keys are kept too (as null) unless `keepAbsent` is false.
 *  - A key already being read is not read again: its caller waits for that read (a burst of
 *    requests for the same store or rules costs one query). With a TTL of 0 nothing is kept or
 *    shared: every call reads.
 *  - A load that overlaps a `forget` is used for its callers but neither kept nor joined by later
 *    ones: what it read may be the row as it was before the write.
 *  - A load that fails keeps nothing; its callers get its error.
 */
export class KeyedCache<V, K extends number | string = number> {
  private readonly entries = new Map<K, { value: V | null; until: number }>();
  private readonly pending = new Map<K, Promise<Map<K, V>>>();
  private readonly max: number;
  private readonly keepAbsent: boolean;
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    options: KeyedCacheOptions = {},
  ) {
    this.max = options.max ?? 50_000;
    this.keepAbsent = options.keepAbsent ?? true;
  }

  /**
   * These keys' values, in the order asked (absent: null); `load` gets the keys neither held nor
   * being read. When every key is held the answer is ready without a further await (a warm
   * request's lookups are most of its calls).
   */
  getMany(keys: readonly K[], load: (missing: K[]) => Promise<Map<K, V>>): Promise<Map<K, V | null>> {
    const held = new Map<K, V | null>();
    const joined = new Map<K, Promise<Map<K, V>>>();
    const missing = new Set<K>();
    const now = Date.now();
    for (const key of keys) {
      if (held.has(key) || joined.has(key) || missing.has(key)) continue;
      const hit = this.entries.get(key);
      const flight = this.ttlMs > 0 ? this.pending.get(key) : undefined;
      if (hit && hit.until > now) held.set(key, hit.value);
      else if (flight) joined.set(key, flight);
      else missing.add(key);
    }
    if (!missing.size && !joined.size) return Promise.resolve(held); // all held: already in the order asked
    return this.complete(keys, load, held, joined, missing);
  }

  private async complete(
    keys: readonly K[],
    load: (missing: K[]) => Promise<Map<K, V>>,
    held: Map<K, V | null>,
    joined: Map<K, Promise<Map<K, V>>>,
    missing: Set<K>,
  ): Promise<Map<K, V | null>> {
    if (missing.size) await this.loadMissing([...missing], load, held);
    for (const [key, flight] of joined) held.set(key, (await flight).get(key) ?? null);
    const out = new Map<K, V | null>();
    for (const key of keys) out.set(key, held.get(key) ?? null);
    return out;
  }

  /**
   * One key's value (null: absent). A cache whose loads never answer null (they throw instead,
   * or it holds nothing else) never answers null either: hence the first signature.
   */
  get(key: K, load: () => Promise<V>): Promise<V>;
  get(key: K, load: () => Promise<V | null>): Promise<V | null>;
  get(key: K, load: () => Promise<V | null>): Promise<V | null> {
    const hit = this.entries.get(key);
    if (hit && hit.until > Date.now()) return Promise.resolve(hit.value); // held: no read, no further await
    return this.getOne(key, load);
  }

  private async getOne(key: K, load: () => Promise<V | null>): Promise<V | null> {
    const got = await this.getMany([key], async () => {
      const value = await load();
      const found = new Map<K, V>();
      if (value !== null) found.set(key, value);
      return found;
    });
    return got.get(key) ?? null;
  }

  /** Forgets these keys (all when none are given), and the reads of them under way. */
  forget(keys?: readonly K[]): void {
    this.generation++;
    if (!keys) {
      this.entries.clear();
      this.pending.clear();
    } else
      for (const key of keys) {
        this.entries.delete(key);
        this.pending.delete(key);
      }
  }

  get size(): number {
    return this.entries.size;
  }

  private async loadMissing(missing: K[], load: (missing: K[]) => Promise<Map<K, V>>, out: Map<K, V | null>): Promise<void> {
    const generation = this.generation;
    const flight = load(missing);
    if (this.ttlMs > 0) for (const key of missing) this.pending.set(key, flight);
    let loaded: Map<K, V>;
    try {
      loaded = await flight;
    } finally {
      for (const key of missing) if (this.pending.get(key) === flight) this.pending.delete(key);
    }
    const keep = generation === this.generation && this.ttlMs > 0;
    const until = Date.now() + this.ttlMs;
    for (const key of missing) {
      const value = loaded.get(key) ?? null;
      out.set(key, value);
      if (!keep || (value === null && !this.keepAbsent)) continue;
      this.entries.delete(key);
      this.entries.set(key, { value, until });
    }
    if (keep && this.entries.size > this.max)
      for (const key of this.entries.keys()) {
        if (this.entries.size <= this.max) break;
        this.entries.delete(key);
      }
  }
}
