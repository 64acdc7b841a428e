// What a cached view of an app user's data is stamped with (app-data/views/rendering-cache.ts): the
// app user and its data version. The version alone is not enough: every app user counts from
// the same start, so an app user deleted and made again by the same account would, after as
// many writes, carry the same number as the renderings of the one that is gone.

export interface DataVersion {
  appUserId: number;
  dataVersion: number;
}

/** The stamp of a row read with its app user's id and version; null when there is no app user. */
export function dataVersionOf(appUserId: number | null | undefined, dataVersion: number | null | undefined): DataVersion | null {
  return appUserId == null || dataVersion == null ? null : { appUserId, dataVersion };
}
