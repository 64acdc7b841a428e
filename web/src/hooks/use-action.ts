// Runs one API call for a form or a button: tracks "busy", and keeps the error body's
// problems for the form to show (field messages beside their fields, the rest in its alert).
// Starting, or failing with a message of the page's own, clears the page's status line: what
// it said was about an earlier action.
import { useState } from 'preact/hooks';
import type { ApiResult } from '../api/client.ts';
import { NO_PROBLEMS, type Problems, problemsOf, UNREACHABLE } from '../api/problems.ts';
import { useStatusLine } from '../status-line.tsx';

export interface Action {
  busy: boolean;
  problems: Problems;
  /** The answer's data when it succeeded; null (and problems set) when it did not. */
  run<T>(call: () => Promise<ApiResult<T>>): Promise<{ data: T } | null>;
  clear(): void;
  /** Shows a message of the page's own (not the API's) in the form's alert. */
  fail(message: string): void;
}

export function useAction(): Action {
  const [busy, setBusy] = useState(false);
  const [problems, setProblems] = useState<Problems>(NO_PROBLEMS);
  const status = useStatusLine();
  return {
    busy,
    problems,
    clear: () => setProblems(NO_PROBLEMS),
    fail(message) {
      status.clear();
      setProblems({ fields: {}, general: [message] });
    },
    async run<T>(call: () => Promise<ApiResult<T>>) {
      setBusy(true);
      setProblems(NO_PROBLEMS);
      status.clear();
      try {
        const result = await call();
        if (result.response.ok) return { data: result.data as T };
        setProblems(problemsOf(result.error, result.response.status));
        return null;
      } catch {
        setProblems(UNREACHABLE);
        return null;
      } finally {
        setBusy(false);
      }
    },
  };
}
