// A button that deletes or ends something asks first: pressed, it gives way to the question
// (a fieldset's legend), a button that does it and one that cancels (focus moves to the first, so a keyboard or a
// screen reader lands on the question). Asking clears the page's status line, which no longer applies.
import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { useStatusLine } from '../status-line.tsx';
import { t } from '../i18n/language.ts';

export function ConfirmButton(props: {
  children: ComponentChildren;
  /** "End the session started 26/11/2026, 07:00?" */
  question: string;
  /** The confirming button's text: "Yes, end it". */
  confirm: string;
  disabled?: boolean;
  small?: boolean;
  /** When the question is asked, besides clearing the status line. */
  onAsk?: () => void;
  onConfirm: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const status = useStatusLine();
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  const size = props.small ? ' small' : '';
  if (!asking) {
    return (
      <button
        type="button"
        class={`danger${size}`}
        disabled={props.disabled}
        onClick={() => {
          status.clear();
          props.onAsk?.();
          setAsking(true);
        }}
      >
        {props.children}
      </button>
    );
  }
  return (
    <fieldset class="confirm">
      <legend>{props.question}</legend>
      <button
        ref={confirmRef}
        type="button"
        class={`danger${size}`}
        disabled={props.disabled}
        onClick={() => {
          setAsking(false);
          props.onConfirm();
        }}
      >
        {props.confirm}
      </button>{' '}
      <button type="button" class={size.trim()} onClick={() => setAsking(false)}>
        {t('confirm.cancel')}
      </button>
    </fieldset>
  );
}
