// /data/emergency/links: the app user's emergency links (docs/emergency-links.md), its owner's alone.
// Creating one shows its link this once — the service keeps only a hash of its token — on a
// printable card with a QR code; the list shows every link, to change, watch and revoke.
import { useEffect, useRef, useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import type { CreatedEmergencyLink } from '../../api/types.ts';
import { Check, Field, Form, Submit, text } from '../../components/form.tsx';
import { AppUserMissing } from '../../components/no-app-user.tsx';
import { Loading, Page, Status } from '../../components/page.tsx';
import { PrintableCard } from '../../components/printable-card.tsx';
import { signedIn } from '../../components/signed-in.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useAppUser } from '../../hooks/use-app-user.ts';
import { useLoad } from '../../hooks/use-load.ts';
import { useStatusLine } from '../../status-line.tsx';
import { aYearFromToday, createBody, linkName } from './emergency-link-fields.ts';
import { LinkChoices, type Shown } from './emergency-link-choices.tsx';
import { EmergencyLinkEntry } from './emergency-link-entry.tsx';
import { t } from '../../i18n/language.ts';
import { Rich } from '../../components/rich-text.tsx';

interface NewLink {
  created: CreatedEmergencyLink;
  pinHint: string;
}

function CreateLink({ userId, shown, onCreated }: { userId: number; shown: Shown | undefined; onCreated(link: NewLink): void }) {
  const action = useAction();
  async function create(data: FormData, form: HTMLFormElement) {
    const done = await action.run(() =>
      api.POST('/app/users/{id}/emergency-links/', { params: { path: { id: userId } }, body: createBody(data) }),
    );
    if (done) {
      onCreated({ created: done.data, pinHint: text(data, 'pin_hint').trim() });
      form.reset();
    }
  }
  return (
    <section aria-labelledby="create-link-heading">
      <h2 id="create-link-heading">{t('data.links.create')}</h2>
      <Form id="create-link" action={action} onSubmit={create}>
        <Field name="label" label={t('data.links.label')} hint={t('data.links.labelHint')} />
        <Field
          name="expires_at"
          type="date"
          label={t('data.links.expiry')}
          hint={t('data.links.expiryHint')}
          defaultValue={aYearFromToday()}
        />
        <Check name="never" label={t('data.links.never')} />
        <Field name="pin" label={t('data.links.pin')} inputMode="numeric" autocomplete="off" hint={t('data.links.pinHint')} />
        <Field name="pin_hint" label={t('data.links.cardHint')} hint={t('data.links.cardHintHint')} />
        {shown && <LinkChoices shown={shown} link={{ emergency_items: null, emergency_contacts: null }} idPrefix="create-link" />}
        <Submit action={action}>{t('data.links.createButton')}</Submit>
      </Form>
    </section>
  );
}

function NewLinkCard({ link, name }: { link: NewLink; name: string }) {
  // Where the person's attention goes once the link is made (and the page scrolls to it).
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section aria-labelledby="new-link-heading" class="new-link">
      <h2 id="new-link-heading" tabIndex={-1} ref={heading}>
        {t('data.links.cardFor', { name: linkName(link.created) })}
      </h2>
      <p>{t('data.links.onlyOnce')}</p>
      <PrintableCard name={name} link={link.created.link} hasPin={link.created.has_pin} pinHint={link.pinHint} />
      <p class="actions">
        <button type="button" onClick={() => window.print()}>
          {t('data.links.print')}
        </button>
      </p>
    </section>
  );
}

function LinkList({ userId, version, shown }: { userId: number; version: number; shown: Shown | undefined }) {
  const links = useLoad(() => api.GET('/app/users/{id}/emergency-links/', { params: { path: { id: userId } } }), `${userId}-${version}`);
  const revoking = useAction();
  const status = useStatusLine();
  function changed(message: string) {
    status.say(message);
    links.reload();
  }
  return (
    <section aria-labelledby="links-heading">
      <h2 id="links-heading">{t('data.links.yours')}</h2>
      <div role="alert" class="alert">
        {[...(links.problems?.general ?? []), ...revoking.problems.general].join(' ')}
      </div>
      {!links.data ? (
        links.problems ? null : (
          <Loading />
        )
      ) : links.data.length === 0 ? (
        <p class="muted">{t('data.links.none')}</p>
      ) : (
        <ul class="cards">
          {links.data.map((link) => (
            // A changed link is drawn anew: its form closes and shows what was saved.
            <EmergencyLinkEntry
              key={`${link.id}-${link.label}-${link.expires_at}-${link.has_pin}-${link.emergency_items}-${link.emergency_contacts}`}
              link={link}
              shown={shown}
              revoking={revoking}
              onChanged={changed}
            />
          ))}
        </ul>
      )}
    </section>
  );
}

export const EmergencyLinks = signedIn(function EmergencyLinks() {
  const { user, problems } = useAppUser();
  const status = useStatusLine();
  const [created, setCreated] = useState<NewLink | undefined>(undefined);
  const [version, setVersion] = useState(0);
  const items = useLoad(
    () =>
      user
        ? api.GET('/app/users/{id}/emergency-items/', { params: { path: { id: user.id } } })
        : Promise.resolve({ data: undefined, response: new Response() }),
    user?.id,
  );
  const contacts = useLoad(
    () =>
      user
        ? api.GET('/app/users/{id}/emergency-contacts/', { params: { path: { id: user.id } } })
        : Promise.resolve({ data: undefined, response: new Response() }),
    user?.id,
  );
  // The choice of what a link shows, once both lists are read.
  const shown = items.data && contacts.data ? { items: items.data, contacts: contacts.data } : undefined;
  function onCreated(link: NewLink) {
    setCreated(link);
    status.say(t('data.links.created', { name: linkName(link.created) }));
    setVersion((n) => n + 1);
  }
  return (
    <Page title={t('data.emergencyLinks')}>
      <Status />
      {!user ? (
        <AppUserMissing user={user} problems={problems} />
      ) : (
        <>
          <p>
            <Rich k="data.links.intro" parts={{ link: <a href="/data/emergency">{t('data.links.introLink')}</a> }} />
          </p>
          {created && <NewLinkCard key={created.created.id} link={created} name={user.name} />}
          <CreateLink userId={user.id} shown={shown} onCreated={onCreated} />
          <LinkList userId={user.id} version={version} shown={shown} />
        </>
      )}
    </Page>
  );
});
