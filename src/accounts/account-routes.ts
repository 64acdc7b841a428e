// The accounts capability (docs/accounts.md): one call per room registers its routes.
import { PasswordCheckThrottle } from '../auth/password-check-throttle.ts';
import type { AppContext } from '../context.ts';
import type { App } from '../http/types.ts';
import { registerAccountProfileRoutes } from './core/profile-routes.ts';
import { registerAccountDeletionRoutes } from './deletion/account-deletion-routes.ts';
import { registerEmailRoutes } from './emails/email-routes.ts';
import { registerExportRoutes } from './export/export-routes.ts';
import { registerIdentityRoutes } from './identities/identity-routes.ts';
import { registerLoginRoutes } from './login/login-routes.ts';
import { registerMfaRoutes } from './mfa/mfa-routes.ts';
import { registerPasskeyRoutes } from './passkeys/passkey-routes.ts';
import { registerPasskeySignInRoutes } from './passkeys/passkey-sign-in-routes.ts';
import { registerPasswordRoutes } from './passwords/password-routes.ts';
import { registerRegistrationRoutes } from './registration/registration-routes.ts';
import { registerSessionRoutes } from './sessions/session-routes.ts';
import { registerAccountActivityRoutes } from './activity-routes.ts';

export function registerAccountRoutes(app: App, ctx: AppContext): void {
  // One count of password checks per account, whichever route checks the password.
  const passwordChecks = new PasswordCheckThrottle(ctx.config.rateLimits, ctx.counters, ctx.clock);
  registerRegistrationRoutes(app, ctx);
  registerLoginRoutes(app, ctx);
  registerSessionRoutes(app, ctx);
  registerAccountActivityRoutes(app, ctx);
  registerExportRoutes(app, ctx);
  registerAccountProfileRoutes(app, ctx);
  registerEmailRoutes(app, ctx);
  registerPasswordRoutes(app, ctx, passwordChecks);
  registerAccountDeletionRoutes(app, ctx, passwordChecks);
  registerMfaRoutes(app, ctx, passwordChecks);
  registerPasskeyRoutes(app, ctx, passwordChecks);
  registerPasskeySignInRoutes(app, ctx);
  registerIdentityRoutes(app, ctx, passwordChecks);
}
