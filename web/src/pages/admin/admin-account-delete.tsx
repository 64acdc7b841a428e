// Deleting an account from the console: it cannot be undone, so it has a form of its own, and
// its button works only once the operator has typed the account's address — a tick anyone
// gives without looking would not tell one account's page from another's.
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { Field, Form, Submit, text } from '../../components/form.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useStatusLine } from '../../status-line.tsx';
import { t } from '../../i18n/language.ts';

/** Whether what was typed is the address: surrounding spaces and letter case aside. */
function sameAddress(typed: string, email: string): boolean {
  return typed.trim().toLowerCase() === email.toLowerCase();
}

export function DeleteAccount({ id, email, onDeleted }: { id: number; email: string; onDeleted(): void }) {
  const action = useAction();
  const status = useStatusLine();
  const [typed, setTyped] = useState('');
  const matches = sameAddress(typed, email);

  async function remove(data: FormData) {
    if (!sameAddress(text(data, 'confirm_email'), email)) return;
    const reason = text(data, 'reason').trim();
    const done = await action.run(() => api.DELETE('/admin/accounts/{id}/', { params: { path: { id } }, body: reason ? { reason } : {} }));
    if (!done) return;
    status.say(t('admin.delete.done'));
    onDeleted();
  }

  return (
    <section aria-labelledby="delete-account-heading">
      <h2 id="delete-account-heading">{t('admin.delete.heading')}</h2>
      <p>{t('admin.delete.explain')}</p>
      <Form id="delete-account" action={action} label={t('admin.delete.heading')} onSubmit={remove}>
        <Field name="reason" label={t('admin.delete.reason')} />
        <Field
          name="confirm_email"
          label={t('admin.delete.confirm', { email })}
          hint={t('admin.delete.confirmHint')}
          autocomplete="off"
          spellcheck={false}
          onInput={(event) => setTyped((event.currentTarget as HTMLInputElement).value)}
        />
        <p class="actions">
          <Submit action={action} variant="danger" disabled={!matches}>
            {t('admin.delete.button')}
          </Submit>
        </p>
      </Form>
    </section>
  );
}
