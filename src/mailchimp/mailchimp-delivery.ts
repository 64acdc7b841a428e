// The outbox handler for mailing-list sync jobs (queued by queueMemberSync). Outages (network
// errors, timeouts, 408, 429, 5xx) are retried by the worker with back-off; any other 4xx is
// an answer retrying cannot change (bad key, unknown list, an address another member already
// has, …) and is recorded as a permanent failure.
import { PermanentDeliveryError } from '../outbox/outbox.ts';
import type { DeliveryHandler } from '../outbox/worker.ts';
import { deleteListMemberPermanently, MailchimpApiError, upsertListMember, type MailchimpSettings } from './mailchimp-client.ts';
import type { MailchimpJob } from './queue-member-sync.ts';

function isRetryable(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

export function mailchimpDelivery(settings: MailchimpSettings): DeliveryHandler {
  return {
    // A delivered job keeps nothing of the member (its address and names are gone from the outbox).
    redact: (job: MailchimpJob) => ('deletePermanently' in job ? { deletePermanently: true } : { synced: true }),
    async deliver(job: MailchimpJob) {
      try {
        if ('deletePermanently' in job) {
          await deleteListMemberPermanently(settings, job.deletePermanently);
          return;
        }
        await upsertListMember(settings, {
          memberEmail: job.previousEmail,
          email: job.email,
          firstName: job.firstName,
          lastName: job.lastName,
        });
      } catch (error) {
        if (error instanceof MailchimpApiError && !isRetryable(error.status)) throw new PermanentDeliveryError(error.message);
        throw error;
      }
    },
  };
}
