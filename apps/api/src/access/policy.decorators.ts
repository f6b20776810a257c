import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiBearerAuth, ApiExtension, ApiForbiddenResponse, ApiTooManyRequestsResponse, ApiUnauthorizedResponse } from '@nestjs/swagger';
import { Permission, Principal } from '@pos/identity';
import { RejectUnknownQuery } from '../http/unknown-query';

/**
 * Every route declares who may call it, exactly once (checked at boot):
 *   @Public()                  no token (login, health)
 *   @Authenticated()           any valid token with the POS ability (own account: me, logout, 2FA)
 *   @RequirePermission(p)      a POS/back-office permission
 *   @IntegrationRead(p)        an API application user + ability integration:read + permission p
 *   @IntegrationReadPerEvent() the same with no route permission: the use case shows each record
 *                              only under the permission of its kind (the event log)
 * and its rate-limit tier with @RateTier (default standard).
 */
export type RoutePolicy =
  { kind: 'public' } | { kind: 'authenticated' } | { kind: 'permission'; permission: Permission } | { kind: 'integration'; permission: Permission | null };

export const ROUTE_POLICY = Symbol('ROUTE_POLICY');

export type RateTierName = 'login' | 'standard' | 'pos' | 'bulk' | 'none';
export const RATE_TIER = Symbol('RATE_TIER');

export const RateTier = (tier: RateTierName) => SetMetadata(RATE_TIER, tier);

const protectedDocs = (permissionText: string) => [
  ApiBearerAuth(),
  ApiUnauthorizedResponse({ description: 'Missing, invalid, expired or revoked token (message `Unauthorized.`)' }),
  ApiForbiddenResponse({ description: permissionText }),
  ApiTooManyRequestsResponse({
    description:
      "Rate limit exceeded: the route's tier for this token, or this client IP's budget of failed authentications (RATE_LIMIT_AUTH_FAILURES per minute); see Retry-After",
  }),
];

export const Public = () => applyDecorators(SetMetadata(ROUTE_POLICY, { kind: 'public' } satisfies RoutePolicy), ApiExtension('x-permission', 'none (public)'));

export const Authenticated = () =>
  applyDecorators(
    SetMetadata(ROUTE_POLICY, { kind: 'authenticated' } satisfies RoutePolicy),
    ApiExtension('x-permission', 'any authenticated user'),
    ...protectedDocs('Token lacks the POS ability'),
  );

export const RequirePermission = (permission: Permission) =>
  applyDecorators(
    SetMetadata(ROUTE_POLICY, { kind: 'permission', permission } satisfies RoutePolicy),
    ApiExtension('x-permission', permission),
    ...protectedDocs(`Requires permission \`${permission}\` (and a token with the POS ability)`),
  );

export const IntegrationRead = (permission: Permission) =>
  applyDecorators(
    SetMetadata(ROUTE_POLICY, { kind: 'integration', permission } satisfies RoutePolicy),
    ApiExtension('x-permission', `${permission} (API application, ability integration:read)`),
    ...protectedDocs(`Requires an API application token with ability \`integration:read\` and permission \`${permission}\``),
    RejectUnknownQuery(), // an unknown query parameter is 422 on every integration route (http/unknown-query.ts)
  );

/** GET /integration/events: integration:read, then each event under the permission of its resource (libs/webhooks event-access.ts). */
export const IntegrationReadPerEvent = () =>
  applyDecorators(
    SetMetadata(ROUTE_POLICY, { kind: 'integration', permission: null } satisfies RoutePolicy),
    ApiExtension('x-permission', 'per event kind (API application, ability integration:read)'),
    ...protectedDocs('Requires an API application token with ability `integration:read`; events are then filtered by permission'),
    RejectUnknownQuery(),
  );

/** The authenticated principal of the request. */
export const CurrentPrincipal = createParamDecorator((_: unknown, ctx: ExecutionContext): Principal => {
  return ctx.switchToHttp().getRequest<{ user: Principal }>().user;
});
