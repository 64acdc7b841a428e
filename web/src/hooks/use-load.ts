// Loads what a page shows, again on `reload()` (after a change) or when `key` changes.
import { useEffect, useState } from 'preact/hooks';
import type { ApiResult } from '../api/client.ts';
import { type Problems, problemsOf, UNREACHABLE } from '../api/problems.ts';

export interface Loaded<T> {
  data: T | undefined;
  problems: Problems | undefined;
  /** 404: missing, or someone else's (the API does not say which). */
  notFound: boolean;
  reload(): void;
}

export function useLoad<T>(load: () => Promise<ApiResult<T>>, key: unknown = null): Loaded<T> {
  const [data, setData] = useState<T | undefined>(undefined);
  const [problems, setProblems] = useState<Problems | undefined>(undefined);
  const [notFound, setNotFound] = useState(false);
  const [version, setVersion] = useState(0);
  // Loads again when its key or version changes, not when `load` (a new closure each render) does.
  useEffect(() => {
    let current = true;
    load().then(
      (result) => {
        if (!current) return;
        setNotFound(result.response.status === 404);
        if (result.response.ok) {
          setData(result.data as T);
          setProblems(undefined);
        } else setProblems(problemsOf(result.error, result.response.status));
      },
      () => current && setProblems(UNREACHABLE),
    );
    return () => {
      current = false;
    };
  }, [key, version]);
  return { data, problems, notFound, reload: () => setVersion((n) => n + 1) };
}
