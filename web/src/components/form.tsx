// Forms whose fields show the API's messages: each field's own under it (aria-describedby),
// the rest (detail, non_field_errors, fields this form has no input for) in the form's alert.
// The alert goes sooner than a field's message (hooks/use-action.ts).
import { type ComponentChildren, createContext } from 'preact';
import { useContext, useRef } from 'preact/hooks';
import type { Problems } from '../api/problems.ts';
import type { Action } from '../hooks/use-action.ts';

const FormContext = createContext<{ id: string; fields: Problems['fields'] }>({ id: 'form', fields: {} });

interface FormProps {
  /** Unique on the page: the fields' ids start with it. */
  id: string;
  action: Action;
  onSubmit(data: FormData, form: HTMLFormElement): void;
  label?: string;
  children: ComponentChildren;
}

export function Form({ id, action, onSubmit, label, children }: FormProps) {
  const ref = useRef<HTMLFormElement>(null);
  const { problems } = action;
  // `entries.0.text` belongs to the input named `entries`, if the form has one.
  const own = (name: string) =>
    name.split('.').some((_, i, parts) => ref.current?.elements.namedItem(parts.slice(0, i + 1).join('.')) != null);
  const others = Object.entries(problems.fields).filter(([name]) => !own(name));
  return (
    <FormContext.Provider value={{ id, fields: action.fieldMessages }}>
      <form
        id={id}
        ref={ref}
        aria-label={label}
        noValidate
        aria-busy={action.busy ? 'true' : undefined}
        onSubmit={(event) => {
          event.preventDefault();
          // With the pressed button's name and value, for forms with several buttons.
          onSubmit(new FormData(event.currentTarget, event.submitter), event.currentTarget);
        }}
      >
        <div role="alert" class="alert">
          {problems.general.map((message) => (
            <p key={message}>{message}</p>
          ))}
          {others.map(([name, messages]) => (
            <p key={name}>
              {name}: {messages.join(' ')}
            </p>
          ))}
        </div>
        {children}
      </form>
    </FormContext.Provider>
  );
}

interface ControlProps {
  name: string;
  label: string;
  hint?: string;
  required?: boolean;
  autocomplete?: string;
  defaultValue?: string | number | null;
}

function useControl(name: string, hint: string | undefined) {
  const { id: formId, fields } = useContext(FormContext);
  const id = `${formId}-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;
  const found = Object.entries(fields).filter(([field]) => field === name || field.startsWith(`${name}.`));
  const messages = found.length > 0 ? found.flatMap(([, list]) => list) : undefined;
  const describedBy = [hint ? `${id}-hint` : '', messages ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  const after = (
    <>
      {hint && (
        <p id={`${id}-hint`} class="hint">
          {hint}
        </p>
      )}
      {messages && (
        <p id={`${id}-error`} class="field-error">
          {messages.join(' ')}
        </p>
      )}
    </>
  );
  return { id, messages, describedBy, after, invalid: messages ? ('true' as const) : undefined };
}

export function Field(
  props: ControlProps & {
    type?: 'text' | 'email' | 'password' | 'file' | 'tel' | 'date';
    inputMode?: 'numeric' | 'email' | 'tel' | 'text';
    accept?: string;
    onChange?(event: Event): void;
    onInput?(event: Event): void;
    spellcheck?: boolean;
  },
) {
  const { id, describedBy, after, invalid } = useControl(props.name, props.hint);
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={(props.type ?? 'text') as 'text'}
        inputMode={props.inputMode}
        accept={props.accept}
        onChange={props.onChange}
        onInput={props.onInput}
        spellcheck={props.spellcheck}
        required={props.required}
        autocomplete={props.autocomplete}
        defaultValue={props.defaultValue == null ? undefined : String(props.defaultValue)}
        aria-invalid={invalid}
        aria-describedby={describedBy}
      />
      {after}
    </div>
  );
}

export function TextArea(props: ControlProps & { rows?: number }) {
  const { id, describedBy, after, invalid } = useControl(props.name, props.hint);
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <textarea
        id={id}
        name={props.name}
        rows={props.rows ?? 3}
        required={props.required}
        defaultValue={props.defaultValue == null ? undefined : String(props.defaultValue)}
        aria-invalid={invalid}
        aria-describedby={describedBy}
      />
      {after}
    </div>
  );
}

export function Select(props: ControlProps & { options: { value: string | number; label: string }[] }) {
  const { id, describedBy, after, invalid } = useControl(props.name, props.hint);
  return (
    <div class="field">
      <label for={id}>{props.label}</label>
      <select
        id={id}
        name={props.name}
        required={props.required}
        defaultValue={props.defaultValue == null ? undefined : String(props.defaultValue)}
        aria-invalid={invalid}
        aria-describedby={describedBy}
      >
        {props.options.map((option) => (
          <option key={option.value} value={String(option.value)}>
            {option.label}
          </option>
        ))}
      </select>
      {after}
    </div>
  );
}

export function Check(props: {
  name: string;
  /** Visible text, and hidden words naming what it is about when a page has several alike. */
  label: ComponentChildren;
  defaultChecked?: boolean;
  required?: boolean;
  /** For what else in the form follows it. */
  onChange?(checked: boolean): void;
}) {
  const { id, describedBy, after, invalid } = useControl(props.name, undefined);
  const { onChange } = props;
  return (
    <div class="field check">
      <input
        id={id}
        name={props.name}
        type="checkbox"
        required={props.required}
        defaultChecked={props.defaultChecked}
        onChange={onChange && ((event) => onChange((event.target as HTMLInputElement).checked))}
        aria-invalid={invalid}
        aria-describedby={describedBy}
      />
      <label for={id}>{props.label}</label>
      {after}
    </div>
  );
}

export function Submit({
  action,
  children,
  name,
  value,
  variant,
  disabled,
}: {
  action: Action;
  children: ComponentChildren;
  name?: string;
  value?: string;
  variant?: string;
  /** Besides while the action runs. */
  disabled?: boolean;
}) {
  return (
    <button type="submit" name={name} value={value} class={variant} disabled={action.busy || disabled}>
      {children}
    </button>
  );
}

/** A text field's value as typed ('' when absent): the API trims it (passwords excepted) and judges it. */
export function text(data: FormData, name: string): string {
  const value = data.get(name);
  return typeof value === 'string' ? value : '';
}
