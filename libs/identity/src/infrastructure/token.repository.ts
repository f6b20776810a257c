import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { IsNull } from 'typeorm';
import { NewToken, TokenRecord, TokenRepository } from '../application/ports';
import { AccessTokenEntity } from './identity.entities';

@Injectable()
export class TypeOrmTokenRepository extends TxRepository implements TokenRepository {
  private get repo() {
    return this.em.getRepository(AccessTokenEntity);
  }

  insert(token: NewToken): Promise<TokenRecord> {
    return this.repo.save(this.repo.create({ ...token, lastUsedAt: null, revokedAt: null, createdAt: new Date() }));
  }

  findByHash(hash: string): Promise<TokenRecord | null> {
    return this.repo.findOneBy({ tokenHash: hash });
  }

  findForUser(userId: number, tokenId: number): Promise<TokenRecord | null> {
    return this.repo.findOneBy({ id: tokenId, userId });
  }

  listForUser(userId: number): Promise<TokenRecord[]> {
    return this.repo.find({ where: { userId }, order: { id: 'ASC' } });
  }

  async revoke(tokenId: number, at: Date): Promise<boolean> {
    return ((await this.repo.update({ id: tokenId, revokedAt: IsNull() }, { revokedAt: at })).affected ?? 0) > 0;
  }

  async revokeAllOf(userId: number, at: Date): Promise<number> {
    return (await this.repo.update({ userId, revokedAt: IsNull() }, { revokedAt: at })).affected ?? 0;
  }

  async touch(tokenId: number, at: Date): Promise<void> {
    await this.repo.update({ id: tokenId }, { lastUsedAt: at });
  }
}
