// The caller's app user (an account has at most one): undefined while loading, null when
// there is none yet.
import { api } from '../api/client.ts';
import type { Problems } from '../api/problems.ts';
import { useLoad } from './use-load.ts';

export interface AppUserState {
  user: { id: number; name: string; quote?: string | null } | null | undefined;
  problems: Problems | undefined;
  reload(): void;
}

export function useAppUser(): AppUserState {
  const list = useLoad(() => api.GET('/app/users/'));
  return { user: list.data ? (list.data[0] ?? null) : undefined, problems: list.problems, reload: list.reload };
}
