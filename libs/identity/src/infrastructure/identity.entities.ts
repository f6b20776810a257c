import { Column, Entity, JoinColumn, ManyToOne, OneToMany, PrimaryColumn, PrimaryGeneratedColumn } from 'typeorm';
import { bigintToNumber, utcDate } from '@pos/platform/database/columns';
import type { RoleRecord, TokenRecord, UserRecord } from '../application/ports';

@Entity('roles')
export class RoleEntity implements RoleRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column() name!: string;
  @Column() slug!: string;
  @Column({ name: 'is_super_admin' }) isSuperAdmin!: boolean;
  @Column({ name: 'max_discount_percent_bp', type: 'integer' }) maxDiscountPercentBp!: number;
  @Column({ name: 'max_discount_amount', type: 'bigint', transformer: bigintToNumber }) maxDiscountAmount!: number;
  @OneToMany(() => RolePermissionEntity, (p) => p.role) permissions?: RolePermissionEntity[];
  @Column({ name: 'created_at', type: 'datetime', transformer: utcDate }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'datetime', transformer: utcDate }) updatedAt!: Date;
}

@Entity('role_permissions')
export class RolePermissionEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'role_id' }) roleId!: number;
  @Column() permission!: string;
  @ManyToOne(() => RoleEntity, (r) => r.permissions, { onDelete: 'CASCADE' })
  @JoinColumn({ name: 'role_id' })
  role?: RoleEntity;
}

@Entity('users')
export class UserEntity implements UserRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column() name!: string;
  @Column() email!: string;
  @Column({ name: 'password_hash', type: 'varchar', nullable: true }) passwordHash!: string | null;
  @Column({ name: 'pin_hash', type: 'varchar', nullable: true }) pinHash!: string | null;
  @Column({ name: 'role_id', type: 'integer', nullable: true }) roleId!: number | null;
  @Column({ name: 'default_store_id', type: 'integer', nullable: true }) defaultStoreId!: number | null;
  @Column({ name: 'is_api_application' }) isApiApplication!: boolean;
  @Column({ name: 'is_active' }) isActive!: boolean;
  @Column({ name: 'two_factor_secret', type: 'varchar', nullable: true }) twoFactorSecret!: string | null;
  @Column({ name: 'two_factor_confirmed_at', type: 'datetime', nullable: true, transformer: utcDate }) twoFactorConfirmedAt!: Date | null;
  @Column({ name: 'two_factor_last_step', type: 'bigint', nullable: true, transformer: bigintToNumber }) twoFactorLastStep!: number | null;
  @Column({ name: 'max_discount_percent_bp', type: 'integer', nullable: true }) maxDiscountPercentBp!: number | null;
  @Column({ name: 'max_discount_amount', type: 'bigint', nullable: true, transformer: bigintToNumber }) maxDiscountAmount!: number | null;
  @Column({ name: 'created_at', type: 'datetime', transformer: utcDate }) createdAt!: Date;
  @Column({ name: 'updated_at', type: 'datetime', transformer: utcDate }) updatedAt!: Date;
  @Column({ name: 'deleted_at', type: 'datetime', nullable: true, transformer: utcDate }) deletedAt!: Date | null;
}

@Entity('user_permissions')
export class UserPermissionEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'user_id' }) userId!: number;
  @Column() permission!: string;
}

@Entity('user_stores')
export class UserStoreEntity {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'user_id' }) userId!: number;
  @Column({ name: 'store_id' }) storeId!: number;
}

@Entity('access_tokens')
export class AccessTokenEntity implements TokenRecord {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ name: 'user_id' }) userId!: number;
  @Column() name!: string;
  @Column({ name: 'token_hash' }) tokenHash!: string;
  @Column({ type: 'text', transformer: { to: (v: string[]) => JSON.stringify(v), from: (v: string) => JSON.parse(v) as string[] } })
  abilities!: string[];
  @Column({ name: 'store_id', type: 'integer', nullable: true }) storeId!: number | null;
  @Column({ name: 'last_used_at', type: 'datetime', nullable: true, transformer: utcDate }) lastUsedAt!: Date | null;
  @Column({ name: 'expires_at', type: 'datetime', nullable: true, transformer: utcDate }) expiresAt!: Date | null;
  @Column({ name: 'revoked_at', type: 'datetime', nullable: true, transformer: utcDate }) revokedAt!: Date | null;
  @Column({ name: 'created_at', type: 'datetime', transformer: utcDate }) createdAt!: Date;
}

/** Failed discount-approval verifications of a cashier (approver 0: their budget) or of one approver for them. */
@Entity('approval_attempts')
export class ApprovalAttemptEntity {
  @PrimaryColumn({ name: 'cashier_id', type: 'integer' }) cashierId!: number;
  @PrimaryColumn({ name: 'approver_id', type: 'integer' }) approverId!: number;
  @Column({ type: 'integer' }) failures!: number;
  @Column({ name: 'window_end_ms', type: 'bigint', nullable: true, transformer: bigintToNumber }) windowEndMs!: number | null;
}

export const IDENTITY_ENTITIES = [
  RoleEntity,
  RolePermissionEntity,
  UserEntity,
  UserPermissionEntity,
  UserStoreEntity,
  AccessTokenEntity,
  ApprovalAttemptEntity,
];
