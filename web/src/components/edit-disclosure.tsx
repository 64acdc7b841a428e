// A closed "Edit" disclosure that opens a form changing one thing (an item, an entry, a file,
// an emergency item or contact): the page gives the fields, the API call, and what follows a
// success; the disclosure keeps the call's busy state and shows its problems in the form.
import type { ComponentChildren } from 'preact';
import type { ApiResult } from '../api/client.ts';
import { useAction } from '../hooks/use-action.ts';
import { Form, Submit } from './form.tsx';

export interface EditDisclosureProps<T> {
  /** The form's id. */
  id: string;
  /** The disclosure's label (visible text, and hidden text naming what it changes). */
  summary: ComponentChildren;
  /** The button's label, likewise. */
  submit: ComponentChildren;
  save(data: FormData): Promise<ApiResult<T>>;
  onSaved(saved: T): void;
  children: ComponentChildren;
}

export function EditDisclosure<T>({ id, summary, submit, save, onSaved, children }: EditDisclosureProps<T>) {
  const action = useAction();
  async function run(data: FormData) {
    const done = await action.run(() => save(data));
    if (done) onSaved(done.data);
  }
  return (
    <details>
      <summary>{summary}</summary>
      <Form id={id} action={action} onSubmit={run}>
        {children}
        <Submit action={action}>{submit}</Submit>
      </Form>
    </details>
  );
}
