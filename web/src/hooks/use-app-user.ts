// The app user a data page shows: the one its path names (/data/users/:user/…), the caller's
// own or one shared with them (docs/sharing.md), or else the caller's own (an account has at
// most one). `user` is undefined while loading, null when there is none (or, by path, none the
// caller may see). What the caller may do with it comes with it, so that a page offers only
// what would work.
import { useRoute } from 'preact-iso';
import { api } from '../api/client.ts';
import type { Problems } from '../api/problems.ts';
import type { AppUser } from '../api/types.ts';
import { useLoad } from './use-load.ts';

export interface AppUserState {
  user: AppUser | null | undefined;
  problems: Problems | undefined;
  /** Where this app user's pages are: `/data` for one's own, `/data/users/<id>` by path. */
  base: string;
  /** The caller owns it: its name and quote, sharing, deleting and private profiles are theirs alone. */
  mine: boolean;
  /** The caller may change what is under it (profiles, topics, items, gallery, emergency). */
  canWrite: boolean;
  reload(): void;
}

export function useAppUser(): AppUserState {
  const param = useRoute().params.user;
  const id = param === undefined ? undefined : Number(param);
  const loaded = useLoad<AppUser | null>(async () => {
    if (id === undefined) {
      const list = await api.GET('/app/users/');
      return { ...list, data: list.data && (list.data.find((user) => user.is_owned_by_current_user) ?? null) };
    }
    // A path that is no number, or an app user the caller may not see, has nothing to show.
    if (!Number.isSafeInteger(id) || id < 1) return { data: null, response: new Response() };
    const detail = await api.GET('/app/users/{id}/', { params: { path: { id } } });
    return detail.response.status === 404 ? { data: null, response: new Response() } : detail;
  }, id);
  const user = loaded.data;
  return {
    user,
    problems: loaded.problems,
    base: id === undefined ? '/data' : `/data/users/${id}`,
    mine: user?.is_owned_by_current_user ?? false,
    canWrite: user?.permissions.write ?? false,
    reload: loaded.reload,
  };
}
