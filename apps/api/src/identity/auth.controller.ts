import { Body, Controller, Get, HttpCode, Post } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import { AuthService, Principal } from '@pos/identity';
import { AuthFailureLimiter } from '../access/auth-failures';
import { Authenticated, CurrentPrincipal, Public, RateTier } from '../access/policy.decorators';
import { DisableTwoFactorDto, LoginDto, PasswordDto, TwoFactorCodeDto } from './auth.dto';
import { CurrentUser, LoginResult, LogoutResult, TwoFactorEnrolment, TwoFactorState } from './identity.responses';
import { ApiEnvelope, ApiErrors } from '../http/openapi';

/** Password verifications are bounded per process (PasswordCheckGate); what a caller past the bound gets. */
const PASSWORD_CHECKS =
  'Passwords are verified PASSWORD_VERIFY_CONCURRENCY at a time per process with PASSWORD_VERIFY_QUEUE more waiting; past it: 429 with code `password_checks_busy` and Retry-After.';

@ApiTags('Authentication')
@Controller('auth')
export class AuthController {
  constructor(
    private readonly auth: AuthService,
    private readonly failures: AuthFailureLimiter,
  ) {}

  @Post('login')
  @HttpCode(201)
  @Public()
  @RateTier('login')
  @ApiOperation({
    summary: 'Log in with email and password; returns a bearer token (5 per minute per IP and email)',
    description: PASSWORD_CHECKS,
  })
  @ApiEnvelope(LoginResult, { status: 201 })
  @ApiErrors([
    429,
    `Past the login limits (RATE_LIMIT_LOGIN per IP and email, RATE_LIMIT_LOGIN_IP per IP), or too many password checks in progress (code \`password_checks_busy\`); see Retry-After`,
  ])
  async login(@Body() body: LoginDto) {
    const result = await this.auth.login({
      email: body.email,
      password: body.password,
      deviceName: body.device_name,
      storeId: body.store_id,
      twoFactorCode: body.two_factor_code,
    });
    // A terminal behind an address past its failure budget can still use the token it just got.
    this.failures.issued(result.token);
    return result;
  }

  @Post('logout')
  @HttpCode(201)
  @Authenticated()
  @ApiOperation({ summary: 'Revoke the presented token' })
  @ApiEnvelope(LogoutResult, { status: 201 })
  async logout(@CurrentPrincipal() principal: Principal) {
    await this.auth.logout(principal);
    return { message: 'Logged out successfully.' };
  }

  @Get('me')
  @Authenticated()
  @ApiOperation({ summary: 'The current user, permissions and discount limits' })
  @ApiEnvelope(CurrentUser)
  me(@CurrentPrincipal() principal: Principal) {
    return this.auth.me(principal);
  }

  @Post('two-factor/enable')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({
    summary: 'Start TOTP enrolment (needs the password): returns the secret and otpauth URL (active after confirm)',
    description: PASSWORD_CHECKS,
  })
  @ApiEnvelope(TwoFactorEnrolment)
  @ApiErrors(409)
  enableTwoFactor(@CurrentPrincipal() principal: Principal, @Body() body: PasswordDto) {
    return this.auth.enableTwoFactor(principal, body.password);
  }

  @Post('two-factor/confirm')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({ summary: 'Confirm TOTP enrolment with a current code' })
  @ApiEnvelope(TwoFactorState)
  @ApiErrors(409)
  confirmTwoFactor(@CurrentPrincipal() principal: Principal, @Body() body: TwoFactorCodeDto) {
    return this.auth.confirmTwoFactor(principal, body.code);
  }

  @Post('two-factor/disable')
  @HttpCode(200)
  @Authenticated()
  @ApiOperation({ summary: 'Turn two-factor authentication off (password and a current code)', description: PASSWORD_CHECKS })
  @ApiEnvelope(TwoFactorState)
  @ApiErrors(409)
  disableTwoFactor(@CurrentPrincipal() principal: Principal, @Body() body: DisableTwoFactorDto) {
    return this.auth.disableTwoFactor(principal, body.password, body.code);
  }
}
