import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { Brackets, In, IsNull } from 'typeorm';
import { Page, pageOffset, PageRequest } from '@pos/kernel';
import { NewUser, UserAccess, UserRecord, UserRepository } from '../application/ports';
import { RoleEntity, RolePermissionEntity, UserEntity, UserPermissionEntity, UserStoreEntity } from './identity.entities';

@Injectable()
export class TypeOrmUserRepository extends TxRepository implements UserRepository {
  findByEmail(email: string): Promise<UserRecord | null> {
    return this.em.getRepository(UserEntity).findOne({ where: { email, deletedAt: IsNull() } });
  }

  findById(id: number): Promise<UserRecord | null> {
    return this.em.getRepository(UserEntity).findOne({ where: { id, deletedAt: IsNull() } });
  }

  async loadAccess(userId: number): Promise<UserAccess | null> {
    const user = await this.findById(userId);
    if (!user) return null;
    return (await this.loadAccessFor([user]))[0] ?? null;
  }

  private async loadAccessFor(users: UserEntity[]): Promise<UserAccess[]> {
    if (users.length === 0) return [];
    const ids = users.map((u) => u.id);
    const roleIds = [...new Set(users.map((u) => u.roleId).filter((r): r is number => r !== null))];
    const [roles, rolePerms, userPerms, stores] = await Promise.all([
      roleIds.length ? this.em.getRepository(RoleEntity).findBy({ id: In(roleIds) }) : Promise.resolve([]),
      roleIds.length
        ? this.em.getRepository(RolePermissionEntity).find({ select: { roleId: true, permission: true }, where: { roleId: In(roleIds) } })
        : Promise.resolve([]),
      this.em.getRepository(UserPermissionEntity).find({ select: { userId: true, permission: true }, where: { userId: In(ids) } }),
      this.em.getRepository(UserStoreEntity).find({ select: { userId: true, storeId: true }, where: { userId: In(ids) }, order: { storeId: 'ASC' } }),
    ]);
    return users.map((user) => {
      const role = roles.find((r) => r.id === user.roleId) ?? null;
      const permissions = new Set([
        ...rolePerms.filter((p) => p.roleId === user.roleId).map((p) => p.permission),
        ...userPerms.filter((p) => p.userId === user.id).map((p) => p.permission),
      ]);
      return { user, role, permissions: [...permissions], storeIds: stores.filter((s) => s.userId === user.id).map((s) => s.storeId) };
    });
  }

  async create(input: NewUser, permissions: string[], storeIds: number[]): Promise<UserRecord> {
    const now = new Date();
    const user = await this.em.getRepository(UserEntity).save(
      this.em.getRepository(UserEntity).create({
        ...input,
        pinHash: null,
        isActive: true,
        twoFactorSecret: null,
        twoFactorConfirmedAt: null,
        twoFactorLastStep: null,
        maxDiscountPercentBp: null,
        maxDiscountAmount: null,
        createdAt: now,
        updatedAt: now,
        deletedAt: null,
      }),
    );
    if (permissions.length) {
      await this.em.getRepository(UserPermissionEntity).insert(permissions.map((permission) => ({ userId: user.id, permission })));
    }
    // Inserts only: a DELETE of the new user's (absent) rows would lock the index's end on MySQL,
    // and concurrent creates deadlock on that gap (see ItemRepository.create).
    await this.insertStores(user.id, storeIds);
    return user;
  }

  async update(id: number, changes: Partial<UserRecord>): Promise<void> {
    await this.em.getRepository(UserEntity).update({ id }, { ...changes, updatedAt: new Date() });
  }

  async setStores(userId: number, storeIds: number[]): Promise<void> {
    await this.em.getRepository(UserStoreEntity).delete({ userId });
    await this.insertStores(userId, storeIds);
  }

  private async insertStores(userId: number, storeIds: number[]): Promise<void> {
    if (storeIds.length) await this.em.getRepository(UserStoreEntity).insert(storeIds.map((storeId) => ({ userId, storeId })));
  }

  roleBySlug(slug: string): Promise<RoleEntity | null> {
    return this.em.getRepository(RoleEntity).findOneBy({ slug });
  }

  async listApplications(page: PageRequest): Promise<Page<UserAccess>> {
    const [users, total] = await this.em.getRepository(UserEntity).findAndCount({
      where: { isApiApplication: true, deletedAt: IsNull() },
      order: { id: 'ASC' },
      skip: pageOffset(page),
      take: page.perPage,
    });
    return new Page(await this.loadAccessFor(users), total, page.page, page.perPage);
  }

  async allApplications(): Promise<UserAccess[]> {
    const users = await this.em.getRepository(UserEntity).find({ where: { isApiApplication: true, deletedAt: IsNull() }, order: { id: 'ASC' } });
    return this.loadAccessFor(users);
  }

  async claimTwoFactorStep(userId: number, step: number): Promise<boolean> {
    const result = await this.em
      .getRepository(UserEntity)
      .createQueryBuilder()
      .update(UserEntity)
      .set({ twoFactorLastStep: step })
      .where('id = :userId', { userId })
      .andWhere(new Brackets((b) => b.where('two_factor_last_step IS NULL').orWhere('two_factor_last_step < :step', { step })))
      .execute();
    return (result.affected ?? 0) > 0;
  }
}
