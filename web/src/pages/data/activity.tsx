// /data/activity: what others did with the owner's data, newest first (docs/activity.md).
import { api } from '../../api/client.ts';
import type { ActivityEvent } from '../../api/types.ts';
import { ActivityList, actorName, operatorSentence } from '../../components/activity-list.tsx';
import { AppUserMissing } from '../../components/no-app-user.tsx';
import { Page } from '../../components/page.tsx';
import { BackLink } from '../../components/shared-note.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { isPhone } from '../../device.ts';
import { useAppUser } from '../../hooks/use-app-user.ts';
import { formatDate, t } from '../../i18n/language.ts';

/** What kind of thing an event is about, as a noun. */
function kindOf(type: string): string {
  switch (type) {
    case 'profile':
      return t('data.activity.kind.profile');
    case 'topic':
      return t('data.activity.kind.topic');
    case 'item':
      return t('data.activity.kind.item');
    case 'list_entry':
      return t('data.activity.kind.listEntry');
    case 'emergency_item':
      return t('data.activity.kind.emergencyItem');
    case 'emergency_contact':
      return t('data.activity.kind.emergencyContact');
    case 'media_resource':
      return t('data.activity.kind.picture');
  }
  return type;
}

type Changes = NonNullable<NonNullable<ActivityEvent['object']>['changes']>;

/** What an owner's change of a share or a link changed: "may now change your data; ends on 5 Dec 2026"; undefined when it says nothing. */
function changeWords(changes: Changes | undefined): string | undefined {
  if (!changes) return undefined;
  const yes = (value: boolean) => (value ? 'yes' : 'no');
  const words: string[] = [];
  if (changes.label !== undefined) words.push(t('data.activity.change.renamed'));
  if (changes.can_write !== undefined) words.push(t('data.activity.change.canWrite', { value: yes(changes.can_write) }));
  if (changes.has_private_profile_access !== undefined)
    words.push(t('data.activity.change.privateAccess', { value: yes(changes.has_private_profile_access) }));
  if (changes.profiles !== undefined)
    words.push(
      changes.profiles === null ? t('data.activity.change.everyProfile') : t('data.activity.change.profiles', { count: changes.profiles }),
    );
  if (changes.expires_at !== undefined)
    words.push(
      changes.expires_at === null
        ? t('data.activity.change.noEnd')
        : t('data.activity.change.endsOn', { date: formatDate(changes.expires_at) }),
    );
  if (changes.pin !== undefined) words.push(t('data.activity.change.pin', { value: yes(changes.pin) }));
  if (changes.emergency_items !== undefined)
    words.push(
      changes.emergency_items === null
        ? t('data.activity.change.everyItem')
        : t('data.activity.change.items', { count: changes.emergency_items }),
    );
  if (changes.emergency_contacts !== undefined)
    words.push(
      changes.emergency_contacts === null
        ? t('data.activity.change.everyContact')
        : t('data.activity.change.contacts', { count: changes.emergency_contacts }),
    );
  return words.length > 0 ? words.join('; ') : undefined;
}

/** An accessor's write: "Ben added 'Penicillin' (item) to 'Allergies'", or without the "where" when the event has none. */
function writeSentence(
  action: 'created' | 'updated' | 'deleted',
  values: { who: string; name: string; kind: string },
  parent?: string | null,
) {
  if (parent === undefined || parent === null) {
    if (action === 'created') return t('data.activity.created', values);
    return action === 'updated' ? t('data.activity.updated', values) : t('data.activity.deleted', values);
  }
  const placed = { ...values, parent };
  if (action === 'created') return t('data.activity.createdIn', placed);
  return action === 'updated' ? t('data.activity.updatedIn', placed) : t('data.activity.deletedIn', placed);
}

/** "Ben added 'Penicillin' (item) to 'Allergies'", "Ada viewed your data", "Your emergency link 'Wallet card' was opened". */
export function dataSentence(event: ActivityEvent): string {
  const who = actorName(event);
  const name = event.object?.name ?? '';
  const type = event.object?.type ?? '';
  if (event.actor?.kind === 'operator') return operatorSentence(event);
  if (type === 'accessor') {
    switch (event.action) {
      case 'invited':
        return t('data.activity.accessor.invited', { name });
      case 'changed': {
        const changes = changeWords(event.object?.changes);
        return changes ? t('data.activity.accessor.changedTo', { name, changes }) : t('data.activity.accessor.changed', { name });
      }
      case 'revoked':
        return t('data.activity.accessor.revoked', { name });
      case 'accepted':
        return t('data.activity.accessor.accepted', { who });
      case 'declined':
        return t('data.activity.accessor.declined', { who });
      case 'left':
        return t('data.activity.accessor.left', { who });
      case 'expired':
        return t('data.activity.accessor.expired', { name });
    }
  }
  if (type === 'emergency_link') {
    switch (event.action) {
      case 'created':
        return t('data.activity.link.created', { name });
      case 'changed': {
        const changes = changeWords(event.object?.changes);
        return changes ? t('data.activity.link.changedTo', { name, changes }) : t('data.activity.link.changed', { name });
      }
      case 'revoked':
        return t('data.activity.link.revoked', { name });
      case 'expired':
        return t('data.activity.link.expired', { name });
    }
    return t('data.activity.link.other', { name, action: event.action });
  }
  switch (event.action) {
    case 'read':
      return t('data.activity.read', { who });
    case 'viewed':
      // Only an emergency link is viewed: its actor is the link ("Your emergency link 'Wallet card'").
      return isPhone(event.object?.user_agent) ? t('data.activity.viewedFromPhone', { who }) : t('data.activity.viewed', { who });
    case 'exported':
      return t('data.activity.exported');
    case 'created':
    case 'updated':
    case 'deleted':
      return writeSentence(event.action, { who, name, kind: kindOf(type) }, event.object?.parent?.name);
  }
  return t('data.activity.other', { who, action: event.action });
}

export const DataActivity = signedIn(function DataActivity() {
  const { user, problems } = useAppUser();
  return (
    <Page title={t('data.activity.title')}>
      <BackLink user={user} base="/data" />
      {!user ? (
        <AppUserMissing user={user} problems={problems} />
      ) : (
        <>
          <p>{t('data.activity.intro')}</p>
          <ActivityList
            caption={t('data.activity.caption')}
            sentence={dataSentence}
            load={(before) => api.GET('/app/users/{id}/activity/', { params: { path: { id: user.id }, query: { before } } })}
          />
        </>
      )}
    </Page>
  );
});
