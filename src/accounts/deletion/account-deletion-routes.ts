// DELETE /account/ (docs/accounts.md).
import { Type } from 'typebox';
import { perIpRateLimit } from '../../auth/ip-rate-limits.ts';
import type { PasswordCheckThrottle } from '../../auth/password-check-throttle.ts';
import { callerOf } from '../../auth/token-auth.ts';
import type { AppContext } from '../../context.ts';
import type { App } from '../../http/types.ts';
import { deleteAccount } from './account-deletion.ts';
import { OptionalCodeField } from '../mfa/mfa-schemas.ts';
import { errors } from '../../http/error-schemas.ts';
import { EXAMPLE_PASSWORD } from '../../http/openapi-document.ts';

const DeleteAccountBody = Type.Object(
  {
    password: Type.Optional(
      Type.String({
        minLength: 1,
        description:
          "The account's password. An account without one (made by another provider) sends none: its session must have been opened within the last 5 minutes",
        examples: [EXAMPLE_PASSWORD],
      }),
    ),
    code: OptionalCodeField,
  },
  { examples: [{ password: EXAMPLE_PASSWORD }] },
);

export function registerAccountDeletionRoutes(app: App, ctx: AppContext, passwordChecks: PasswordCheckThrottle): void {
  app.delete(
    '/account/',
    {
      config: { rateLimit: perIpRateLimit(ctx, ctx.config.rateLimits.changePassword) },
      schema: {
        tags: ['account'],
        summary: 'Delete the account and everything it holds, for good (its media files too); a last notice goes to the primary address',
        body: DeleteAccountBody,
        operationId: 'deleteAccount',
        response: { 204: Type.Null(), ...errors({ auth: true, body: true, rateLimited: true }) },
      },
    },
    async (request, reply) => {
      await deleteAccount(ctx, passwordChecks, callerOf(request), request.body);
      return reply.code(204).send(null);
    },
  );
}
