// Runs one API call for a form or a button: tracks "busy", and keeps the error body's
// problems for the form to show (field messages beside their fields, the rest in its alert).
// Starting, or failing with a message of the page's own, clears the page's status line: what
// it said was about an earlier action. The alert keeps the status line's time (status-line.tsx):
// the next action anywhere on the page, a question or a move clears it. A message under a field
// stays until this action runs again or the page moves: it is about the value still in the
// field, which the person may be correcting meanwhile.
import { useState } from 'preact/hooks';
import type { ApiResult } from '../api/client.ts';
import { NO_PROBLEMS, type Problems, problemsOf, UNREACHABLE } from '../api/problems.ts';
import { type Moment, useStanding, useStatusLine } from '../status-line.tsx';

export interface Action {
  busy: boolean;
  /** The last failure's, for the alert: until anything clears the status line. */
  problems: Problems;
  /** The last failure's messages by field, for under the fields: until the page moves. */
  fieldMessages: Problems['fields'];
  /** The answer's data when it succeeded; null (and problems set) when it did not. */
  run<T>(call: () => Promise<ApiResult<T>>): Promise<{ data: T } | null>;
  clear(): void;
  /** Shows a message of the page's own (not the API's) in the form's alert. */
  fail(message: string): void;
}

interface Failure {
  problems: Problems;
  at: Moment;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const status = useStatusLine();
  const standing = useStanding();
  /** Shown from now, unless the page moved since the action started: then it is about another page. */
  function failed(problems: Problems, started: Moment) {
    const at = status.now();
    if (at.moves === started.moves) setFailure({ problems, at });
  }
  return {
    busy,
    problems: failure && standing.said(failure.at) ? failure.problems : NO_PROBLEMS,
    fieldMessages: failure && standing.here(failure.at) ? failure.problems.fields : NO_PROBLEMS.fields,
    clear: () => setFailure(null),
    fail(message) {
      status.clear();
      setFailure({ problems: { fields: {}, general: [message] }, at: status.now() });
    },
    async run<T>(call: () => Promise<ApiResult<T>>) {
      setBusy(true);
      setFailure(null);
      status.clear();
      const started = status.now();
      try {
        const result = await call();
        if (result.response.ok) return { data: result.data as T };
        failed(problemsOf(result.error, result.response.status), started);
        return null;
      } catch {
        failed(UNREACHABLE, started);
        return null;
      } finally {
        setBusy(false);
      }
    },
  };
}
