import { randomBytes } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { ForbiddenError, NotFoundError, Page, pageOffset, PageRequest, ValidationFailedError } from '@pos/kernel';
import { hasPermission, Principal } from '../domain/principal';
import { tokenHasAbility } from '../domain/permissions';
import { StoreDirectory, TokenRecord, TokenRepository, UserAccess, UserRepository } from './ports';
import { TokenService } from './token.service';
import { APP_CONFIG, AppConfig, AuditLog, Transactional } from '@pos/platform';

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
 *
 * No escalation: a creator grants only permissions it holds, stores it has (a creator limited to
 * some stores cannot make an all-stores application; omitted store_ids then means its own
 * stores) and abilities its own token carries. Applications beyond the creator's own scope
 * (a permission or store it lacks) do not exist for it: 404, and absent from its list.
 *
 * Token lifetime (issue 25 item 10): a partner's integration must not stop without warning. Its
 * tokens live APP_TOKEN_TTL_MINUTES (default 365 days; 0: never expire) unless the issuer names a
 * lifetime; `expires_at` is shown when issued and in the application's token list, and every
 * response to such a token says when it expires (X-Token-Expires-At), with a Warning header in
 * its last APP_TOKEN_EXPIRY_WARNING_DAYS. Rotation: issue a new token, switch, revoke the old.
 */
@Injectable()
export class ApiApplicationService {
  constructor(
    private readonly users: UserRepository,
    private readonly tokens: TokenService,
    private readonly tokenRecords: TokenRepository,
    private readonly stores: StoreDirectory,
    private readonly audit: AuditLog,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Transactional()
  async create(creator: Principal, input: { name: string; permissions: string[]; storeIds?: number[] }): Promise<ApiApplicationView> {
    let storeIds = [...new Set(input.storeIds ?? [])];
    const existing = await this.stores.existingIds(storeIds);
    const missing = storeIds.findIndex((id) => !existing.includes(id));
    if (missing >= 0) throw ValidationFailedError.field(`store_ids.${missing}`, 'The selected store does not exist.');
    const notHeld = [...new Set(input.permissions)].filter((p) => !hasPermission(creator, p));
    if (notHeld.length) throw new ForbiddenError(`You cannot grant permissions you do not hold: ${notHeld.join(', ')}.`, 'permission_escalation');
    if (creator.stores !== 'all') {
      const own = creator.stores;
      if (storeIds.some((id) => !own.includes(id))) throw new ForbiddenError('You do not have access to this store.', 'store_forbidden');
      if (!storeIds.length) storeIds = [...own]; // never "all stores" from a creator that does not have them
    }
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
    const view = await this.show(creator, user.id);
    await this.audit.record(
      {
        action: 'api_application.created',
        target: { type: 'user', id: user.id },
        after: { name: view.name, permissions: view.permissions, store_ids: storeIds },
      },
      actor(creator),
    );
    return view;
  }

  async list(viewer: Principal, page: PageRequest): Promise<Page<ApiApplicationView>> {
    if (viewer.isSuperAdmin) return (await this.users.listApplications(page)).map(applicationView);
    const visible = (await this.users.allApplications()).filter((a) => withinScope(viewer, a));
    const start = pageOffset(page);
    return new Page(visible.slice(start, start + page.perPage).map(applicationView), visible.length, page.page, page.perPage);
  }

  async show(viewer: Principal, id: number): Promise<ApiApplicationView & { tokens: TokenView[] }> {
    const access = await this.requireApplication(viewer, id);
    const tokens = (await this.tokenRecords.listForUser(id)).map(tokenView);
    return { ...applicationView(access), tokens };
  }

  @Transactional()
  async issueToken(
    issuer: Principal,
    appId: number,
    input: { name: string; abilities: string[]; expiresInMinutes?: number },
  ): Promise<TokenView & { token: string }> {
    await this.requireApplication(issuer, appId);
    const notHeld = [...new Set(input.abilities)].filter((a) =>
      a === '*' ? !issuer.token.abilities.includes('*') : !tokenHasAbility(issuer.token.abilities, a),
    );
    if (notHeld.length) throw new ForbiddenError(`You cannot grant abilities your token does not carry: ${notHeld.join(', ')}.`, 'ability_escalation');
    const issued = await this.tokens.issue(appId, {
      name: input.name,
      abilities: [...new Set(input.abilities)],
      storeId: null,
      expiresInMinutes: input.expiresInMinutes ?? (this.config.appTokens.ttlMinutes || null),
    });
    const view = tokenView(issued.record);
    await this.audit.record(
      { action: 'token.issued', target: { type: 'token', id: issued.record.id }, after: { ...view, application_id: appId } },
      actor(issuer),
    );
    return { token: issued.plainText, ...view };
  }

  @Transactional()
  async revokeToken(viewer: Principal, appId: number, tokenId: number): Promise<void> {
    await this.requireApplication(viewer, appId);
    const token = await this.tokenRecords.findForUser(appId, tokenId);
    if (!token) throw new NotFoundError('Token');
    // Revoking a revoked token again answers the same but changes nothing, so it is not audited again.
    if (!(await this.tokens.revoke(tokenId))) return;
    await this.audit.record(
      { action: 'token.revoked', target: { type: 'token', id: tokenId }, before: { ...tokenView(token), application_id: appId } },
      actor(viewer),
    );
  }

  private async requireApplication(viewer: Principal, id: number): Promise<UserAccess> {
    const access = await this.users.loadAccess(id);
    if (!access || !access.user.isApiApplication || !withinScope(viewer, access)) throw new NotFoundError('API application');
    return access;
  }
}

const actor = (p: Principal) => ({ userId: p.userId, name: p.name });

/** An application the viewer could have created: its permissions and stores are the viewer's. */
function withinScope(viewer: Principal, app: UserAccess): boolean {
  if (viewer.isSuperAdmin) return true;
  if (!app.permissions.every((p) => hasPermission(viewer, p))) return false;
  if (viewer.stores === 'all') return true;
  const own = viewer.stores;
  return app.storeIds.length > 0 && app.storeIds.every((s) => own.includes(s));
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
