/** One value of a tag key among an error's kept events. */
export interface TagValueCount {
  readonly value: string;
  readonly count: number;
  /** `count` over the events that carry the key, 0..1. */
  readonly share: number;
  readonly firstSeen: Date;
  readonly lastSeen: Date;
}

/** A tag key of an error: how many kept events carry it, and its top values. */
export interface TagKeyDistribution {
  readonly key: string;
  readonly total: number;
  readonly uniqueValues: number;
  readonly topValues: readonly TagValueCount[];
}

/** Keys an error's tags panel shows, alphabetically. */
export const MAX_TAG_KEYS = 100;
/** Values per key the panel and the API show, most frequent first. */
export const TOP_TAG_VALUES = 10;
/** Releases the error list's picker offers, most recently seen first. */
export const MAX_PICKER_RELEASES = 100;
