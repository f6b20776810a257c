import { defineView, s } from '../http/openapi';

/** Response schemas of authentication and API applications (what the identity use cases return). */
export const RoleRef = defineView('RoleRef', { id: s.int(), name: s.string(), slug: s.string() });

export const LoginResult = defineView('LoginResult', {
  token: s.string('Opaque bearer token, shown once'),
  user: s.object({
    id: s.int(),
    name: s.string(),
    email: s.string(),
    role: s.nullable(RoleRef),
    store_id: s.nullable(s.int()),
    store_name: s.nullable(s.string()),
    is_super_admin: s.bool(),
    has_two_factor: s.bool(),
  }),
  permissions: s.array(s.string()),
  store_id: s.nullable(s.int()),
});

export const LogoutResult = defineView('LogoutResult', { message: s.string() });

export const CurrentUser = defineView('CurrentUser', {
  id: s.int(),
  name: s.string(),
  email: s.string(),
  role: s.nullable(s.object({ id: s.int(), name: s.string() })),
  store_id: s.nullable(s.int()),
  permissions: s.array(s.string()),
  discount_limits: s.object({ max_discount_percent: s.percent(), max_discount_amount: s.money() }),
});

export const TwoFactorEnrolment = defineView('TwoFactorEnrolment', { secret: s.string('Base32 TOTP secret'), otpauth_url: s.string() });
export const TwoFactorState = defineView('TwoFactorState', { has_two_factor: s.bool() });

const token = {
  id: s.int(),
  name: s.string(),
  abilities: s.array(s.string()),
  last_used_at: s.nullable(s.dateTime()),
  expires_at: s.nullable(s.dateTime('null: never expires. Responses to an API application token carry it as X-Token-Expires-At')),
  revoked_at: s.nullable(s.dateTime()),
  created_at: s.dateTime(),
};
export const ApiToken = defineView('ApiToken', token);
export const IssuedApiToken = defineView('IssuedApiToken', { token: s.string('The token, shown once'), ...token });

const application = {
  id: s.int(),
  name: s.string(),
  email: s.string(),
  is_api_application: s.constant(true),
  permissions: s.array(s.string()),
  store_ids: s.array(s.int(), 'Empty: every store'),
  created_at: s.dateTime(),
};
export const ApiApplication = defineView('ApiApplication', application);
export const ApiApplicationDetail = defineView('ApiApplicationDetail', { ...application, tokens: s.array(ApiToken) });
