// Absolute URLs of the personal-data resources, always built from PUBLIC_URL (docs/api-conventions.md).
import type { AppContext } from '../context.ts';

const at = (ctx: AppContext, path: string) => `${ctx.config.publicUrl}${path}`;

export const appUserUrl = (ctx: AppContext, id: number) => at(ctx, `/app/users/${id}/`);
export const profilesUrl = (ctx: AppContext, appUserId: number) => at(ctx, `/app/users/${appUserId}/profiles/`);
export const galleryUrl = (ctx: AppContext, appUserId: number) => at(ctx, `/app/users/${appUserId}/gallery/`);
export const emergencyItemsUrl = (ctx: AppContext, appUserId: number) => at(ctx, `/app/users/${appUserId}/emergency-items/`);
export const emergencyContactsUrl = (ctx: AppContext, appUserId: number) => at(ctx, `/app/users/${appUserId}/emergency-contacts/`);
export const profileUrl = (ctx: AppContext, id: number) => at(ctx, `/app/profiles/${id}/`);
export const topicsUrl = (ctx: AppContext, profileId: number) => at(ctx, `/app/profiles/${profileId}/topics/`);
export const topicUrl = (ctx: AppContext, id: number) => at(ctx, `/app/topics/${id}/`);
export const itemsUrl = (ctx: AppContext, topicId: number) => at(ctx, `/app/topics/${topicId}/items/`);
export const itemUrl = (ctx: AppContext, id: number) => at(ctx, `/app/items/${id}/`);
export const listEntryUrl = (ctx: AppContext, id: number) => at(ctx, `/app/list-entries/${id}/`);
export const emergencyItemUrl = (ctx: AppContext, id: number) => at(ctx, `/app/emergency-items/${id}/`);
export const emergencyContactUrl = (ctx: AppContext, id: number) => at(ctx, `/app/emergency-contacts/${id}/`);
