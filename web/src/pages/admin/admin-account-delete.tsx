// Deleting an account from the console: it cannot be undone, so it has a form of its own, and
// its button works only once the operator has typed the account's address — a tick anyone
// gives without looking would not tell one account's page from another's.
import { useState } from 'preact/hooks';
import { api } from '../../api/client.ts';
import { Field, Form, Submit, text } from '../../components/form.tsx';
import { useAction } from '../../hooks/use-action.ts';
import { useStatusLine } from '../../status-line.tsx';

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
    status.say('The account is deleted, with everything it held. A last notice is on its way to its address.');
    onDeleted();
  }

  return (
    <section aria-labelledby="delete-account-heading">
      <h2 id="delete-account-heading">Delete this account</h2>
      <p>Everything the account holds goes, for good. Its address gets a last notice.</p>
      <Form id="delete-account" action={action} label="Delete this account" onSubmit={remove}>
        <Field name="reason" label="Reason for deleting (kept in the audit)" />
        <Field
          name="confirm_email"
          label={`To confirm, type the account's address: ${email}`}
          hint="Delete account works once the address is typed."
          autocomplete="off"
          spellcheck={false}
          onInput={(event) => setTyped((event.currentTarget as HTMLInputElement).value)}
        />
        <p class="actions">
          <Submit action={action} variant="danger" disabled={!matches}>
            Delete account
          </Submit>
        </p>
      </Form>
    </section>
  );
}
