// /data/activity: what others did with the owner's data, newest first (docs/activity.md).
import { api } from '../../api/client.ts';
import type { ActivityEvent } from '../../api/types.ts';
import { ActivityList, actorName, OPERATOR } from '../../components/activity-list.tsx';
import { AppUserMissing } from '../../components/no-app-user.tsx';
import { Page } from '../../components/page.tsx';
import { BackLink } from '../../components/shared-note.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useAppUser } from '../../hooks/use-app-user.ts';

const KINDS: Record<string, string> = {
  profile: 'profile',
  topic: 'topic',
  item: 'item',
  list_entry: 'list entry',
  emergency_item: 'emergency item',
  emergency_contact: 'emergency contact',
  media_resource: 'picture',
};

/** "Ben added 'Penicillin' (item)", "Ada viewed your data", "Your emergency link 'Wallet card' was opened". */
export function dataSentence(event: ActivityEvent): string {
  const who = actorName(event);
  const name = event.object?.name ?? '';
  const type = event.object?.type ?? '';
  if (event.actor?.kind === 'operator') return `${who} ${OPERATOR[event.action] ?? event.action}.`;
  if (type === 'accessor') {
    switch (event.action) {
      case 'invited':
        return `You invited ${name} to see your data.`;
      case 'changed':
        return `You changed what ${name} may do.`;
      case 'revoked':
        return `You stopped sharing your data with ${name}.`;
      case 'accepted':
        return `${who} accepted your invitation.`;
      case 'declined':
        return `${who} declined your invitation.`;
      case 'left':
        return `${who} stopped seeing your data.`;
      case 'expired':
        return `Your share with ${name} ended on its end date.`;
    }
  }
  if (type === 'emergency_link') {
    const verb = { created: 'made', changed: 'changed', revoked: 'revoked' }[event.action] ?? event.action;
    return `You ${verb} the emergency link '${name}'.`;
  }
  switch (event.action) {
    case 'read':
      return `${who} viewed your data.`;
    case 'viewed':
      return `${who} was opened.`;
    case 'exported':
      return 'You exported your data.';
    case 'created':
      return `${who} added '${name}' (${KINDS[type] ?? type}).`;
    case 'updated':
      return `${who} changed '${name}' (${KINDS[type] ?? type}).`;
    case 'deleted':
      return `${who} deleted '${name}' (${KINDS[type] ?? type}).`;
  }
  return `${who}: ${event.action}.`;
}

export const DataActivity = signedIn(function DataActivity() {
  const { user, problems } = useAppUser();
  return (
    <Page title="Activity">
      <BackLink user={user} base="/data" />
      {!user ? (
        <AppUserMissing user={user} problems={problems} />
      ) : (
        <>
          <p>Who read or changed your data, and your shares and emergency links over time. Your own changes are not listed.</p>
          <ActivityList
            caption="Activity on your data"
            sentence={dataSentence}
            load={(before) => api.GET('/app/users/{id}/activity/', { params: { path: { id: user.id }, query: { before } } })}
          />
        </>
      )}
    </Page>
  );
});
