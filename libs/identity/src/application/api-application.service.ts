import { randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { NotFoundError, Page, PageRequest, ValidationFailedError } from '@pos/kernel';
import { StoreDirectory, TokenRecord, TokenRepository, UserAccess, UserRepository } from './ports';
import { TokenService } from './token.service';
import { Transactional } from '@pos/platform';

export interface ApiApplicationView {
  id: number;
  name: string;
  email: string;
  is_api_application: true;
  permissions: string[];
  store_ids: number[];
  created_at: string;
}

export interface TokenView {
  id: number;
  name: string;
  abilities: string[];
  last_used_at: string | null;
  expires_at: string | null;
  revoked_at: string | null;
  created_at: string;
}

/**
 * API application users: machine accounts that cannot log in with a password; an administrator
 * issues their tokens with explicit abilities (decisions.md). With no store_ids they may read
 * every store; with store_ids they are limited to those.
 */
@Injectable()
export class ApiApplicationService {
  constructor(
    private readonly users: UserRepository,
    private readonly tokens: TokenService,
    private readonly tokenRecords: TokenRepository,
    private readonly stores: StoreDirectory,
  ) {}

  @Transactional()
  async create(input: { name: string; permissions: string[]; storeIds?: number[] }): Promise<ApiApplicationView> {
    const storeIds = [...new Set(input.storeIds ?? [])];
    const existing = await this.stores.existingIds(storeIds);
    const missing = storeIds.findIndex((id) => !existing.includes(id));
    if (missing >= 0) throw ValidationFailedError.field(`store_ids.${missing}`, 'The selected store does not exist.');
    const slug =
      input.name
        .toLowerCase()
        .replace(/[^a-z0-9]+/g, '-')
        .replace(/^-|-$/g, '')
        .slice(0, 40) || 'app';
    const email = `${slug}.${randomBytes(4).toString('hex')}@api-applications.invalid`;
    const user = await this.users.create(
      { name: input.name, email, passwordHash: null, roleId: null, defaultStoreId: null, isApiApplication: true },
      [...new Set(input.permissions)],
      storeIds,
    );
    return this.show(user.id);
  }

  async list(page: PageRequest): Promise<Page<ApiApplicationView>> {
    return (await this.users.listApplications(page)).map(applicationView);
  }

  async show(id: number): Promise<ApiApplicationView & { tokens: TokenView[] }> {
    const access = await this.requireApplication(id);
    const tokens = (await this.tokenRecords.listForUser(id)).map(tokenView);
    return { ...applicationView(access), tokens };
  }

  @Transactional()
  async issueToken(appId: number, input: { name: string; abilities: string[]; expiresInMinutes?: number }): Promise<TokenView & { token: string }> {
    await this.requireApplication(appId);
    const issued = await this.tokens.issue(appId, {
      name: input.name,
      abilities: [...new Set(input.abilities)],
      storeId: null,
      expiresInMinutes: input.expiresInMinutes,
    });
    return { token: issued.plainText, ...tokenView(issued.record) };
  }

  @Transactional()
  async revokeToken(appId: number, tokenId: number): Promise<void> {
    await this.requireApplication(appId);
    const token = await this.tokenRecords.findForUser(appId, tokenId);
    if (!token) throw new NotFoundError('Token');
    await this.tokens.revoke(tokenId);
  }

  private async requireApplication(id: number): Promise<UserAccess> {
    const access = await this.users.loadAccess(id);
    if (!access || !access.user.isApiApplication) throw new NotFoundError('API application');
    return access;
  }
}

function applicationView(access: UserAccess): ApiApplicationView {
  return {
    id: access.user.id,
    name: access.user.name,
    email: access.user.email,
    is_api_application: true,
    permissions: [...access.permissions].sort(),
    store_ids: access.storeIds,
    created_at: access.user.createdAt.toISOString(),
  };
}

export function tokenView(t: TokenRecord): TokenView {
  return {
    id: t.id,
    name: t.name,
    abilities: t.abilities,
    last_used_at: t.lastUsedAt?.toISOString() ?? null,
    expires_at: t.expiresAt?.toISOString() ?? null,
    revoked_at: t.revokedAt?.toISOString() ?? null,
    created_at: t.createdAt.toISOString(),
  };
}
