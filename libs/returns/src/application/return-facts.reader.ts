import { Injectable } from '@nestjs/common';
import { ReturnFacts, returnFactsOf } from './return.facts';
import { ReturnRepository } from './return.ports';

/**
 * Processed returns read back as the ReturnProcessedFacts their processing published, in id
 * order and batches: how the report rebuild replays them (the sales context's SaleFactsReader
 * does the same for sales).
 */
@Injectable()
export class ReturnFactsReader {
  constructor(private readonly returns: ReturnRepository) {}

  async batch(afterId: number, limit: number): Promise<{ id: number; facts: ReturnFacts }[]> {
    const list = await this.returns.processedAfter(afterId, limit);
    if (!list.length) return [];
    const ids = list.map((r) => r.id);
    const items = byReturn(await this.returns.items(ids));
    const refunds = byReturn(await this.returns.refunds(ids));
    const notes = byReturn(await this.returns.creditNotes(ids));
    const reasonIds = [...new Set(list.map((r) => r.reasonId).filter((id): id is number => id !== null))];
    const reasons = new Map((await this.returns.reasonsByIds(reasonIds)).map((x) => [x.id, x.code]));
    return list.map((r) => ({
      id: r.id,
      facts: returnFactsOf(
        r,
        (items.get(r.id) ?? []).sort((a, b) => a.lineNo - b.lineNo),
        (refunds.get(r.id) ?? []).sort((a, b) => a.id - b.id),
        notes.get(r.id)?.[0] ?? null,
        r.reasonId === null ? null : (reasons.get(r.reasonId) ?? null),
      ),
    }));
  }
}

function byReturn<T extends { returnId: number }>(rows: T[]): Map<number, T[]> {
  const map = new Map<number, T[]>();
  for (const row of rows) map.set(row.returnId, [...(map.get(row.returnId) ?? []), row]);
  return map;
}
