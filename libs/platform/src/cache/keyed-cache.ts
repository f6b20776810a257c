/**
 * Reference data kept per process by id (items, their units and barcodes, price book entries):
 * read in one set query for the ids not held, kept for `ttlMs`, forgotten at once by `forget`
 * (the owner calls it after a committed write, here and, through ReplicaBroadcast, on the other
 * replicas). Absent ids are kept too (as null), so a scan of an unknown code does not read again.
 * A load that overlaps a `forget` is used for its caller but not kept: what it read may be the
 * row as it was before the write. At most `max` ids are held (the oldest go first).
 */
export class KeyedCache<V> {
  private readonly entries = new Map<number, { value: V | null; until: number }>();
  private generation = 0;

  constructor(
    private readonly ttlMs: number,
    private readonly max = 50_000,
  ) {}

  async getMany(ids: readonly number[], load: (missing: number[]) => Promise<Map<number, V>>): Promise<Map<number, V | null>> {
    const out = new Map<number, V | null>();
    const absent = new Set<number>();
    const now = Date.now();
    for (const id of ids) {
      const hit = this.entries.get(id);
      if (hit && hit.until > now) out.set(id, hit.value);
      else absent.add(id);
    }
    if (!absent.size) return out;
    const missing = [...absent];
    const generation = this.generation;
    const loaded = await load(missing);
    const keep = generation === this.generation && this.ttlMs > 0;
    const until = Date.now() + this.ttlMs;
    for (const id of missing) {
      const value = loaded.get(id) ?? null;
      out.set(id, value);
      if (!keep) continue;
      this.entries.delete(id);
      this.entries.set(id, { value, until });
    }
    if (keep && this.entries.size > this.max)
      for (const id of this.entries.keys()) {
        if (this.entries.size <= this.max) break;
        this.entries.delete(id);
      }
    return out;
  }

  /** Forgets these ids (all when none are given). */
  forget(ids?: readonly number[]): void {
    this.generation++;
    if (!ids) this.entries.clear();
    else for (const id of ids) this.entries.delete(id);
  }

  get size(): number {
    return this.entries.size;
  }
}
