// A section listing named things of the app user as cards, each with a Delete button, and a
// form to add one: what the emergency items and the emergency contacts share. The page gives
// the API calls, the add form's fields and what a card shows between its heading and Delete.
// Without write access (someone else's app user, shared to read), only the cards show.
import type { ComponentChildren } from 'preact';
import type { ApiResult } from '../api/client.ts';
import { useAction } from '../hooks/use-action.ts';
import type { Loaded } from '../hooks/use-load.ts';
import { useStatusLine } from '../status-line.tsx';
import { t } from '../i18n/language.ts';
import { Form, Submit } from './form.tsx';
import { Loading } from './page.tsx';
import { ConfirmButton } from './confirm-button.tsx';
import { Named } from './rich-text.tsx';

interface WithName {
  id: number;
  name: string;
}

export interface CollectionProps<T extends WithName> {
  /** Prefixes the ids of the section's heading and of its add form. */
  id: string;
  heading: string;
  /** Shown when there is nothing yet. */
  empty: string;
  list: Loaded<T[]>;
  /** The caller may add and delete: the form and the Delete buttons show. */
  canWrite: boolean;
  create(data: FormData): Promise<ApiResult<T>>;
  remove(id: number): Promise<ApiResult<unknown>>;
  /** The card's content between its heading and its Delete button. */
  card(entry: T): ComponentChildren;
  /** The add form's fields. */
  fields: ComponentChildren;
  submitLabel: string;
}

export function Collection<T extends WithName>(props: CollectionProps<T>) {
  const { list } = props;
  const addAction = useAction();
  const removeAction = useAction();
  const status = useStatusLine();
  async function add(data: FormData, form: HTMLFormElement) {
    const done = await addAction.run(() => props.create(data));
    if (done) {
      form.reset();
      status.say(t('data.collection.added', { name: done.data.name }));
      list.reload();
    }
  }
  async function remove(entry: T) {
    if (await removeAction.run(() => props.remove(entry.id))) {
      status.say(t('data.collection.deleted', { name: entry.name }));
      list.reload();
    }
  }
  return (
    <section aria-labelledby={`${props.id}-heading`}>
      <h2 id={`${props.id}-heading`}>{props.heading}</h2>
      <div role="alert" class="alert">
        {removeAction.problems.general.join(' ')}
      </div>
      {!list.data ? (
        <Loading />
      ) : list.data.length === 0 ? (
        <p class="muted">{props.empty}</p>
      ) : (
        <ul class="cards">
          {list.data.map((entry) => (
            <li key={entry.id} class="card">
              <h3>{entry.name}</h3>
              {props.card(entry)}
              {props.canWrite && (
                <ConfirmButton
                  small
                  question={t('data.collection.deleteQuestion', { name: entry.name })}
                  confirm={t('data.yesDelete')}
                  disabled={removeAction.busy}
                  onConfirm={() => remove(entry)}
                >
                  <Named shown={t('data.delete')} heard={t('data.collection.deleteNamed', { name: entry.name })} />
                </ConfirmButton>
              )}
            </li>
          ))}
        </ul>
      )}
      {props.canWrite && (
        <Form id={`add-${props.id}`} action={addAction} onSubmit={add}>
          {props.fields}
          <Submit action={addAction}>{props.submitLabel}</Submit>
        </Form>
      )}
    </section>
  );
}
