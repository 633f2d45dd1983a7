/** Kinvey's hook names and the names of their management paths. */
export const HOOK_PATHS: Readonly<Record<string, string>> = {
  onPreInsert: 'pre-insert',
  onPreUpdate: 'pre-update',
  onPreSave: 'pre-save',
  onPreFetch: 'pre-fetch',
  onPreDelete: 'pre-delete',
  onPostInsert: 'post-insert',
  onPostUpdate: 'post-update',
  onPostSave: 'post-save',
  onPostFetch: 'post-fetch',
  onPostDelete: 'post-delete',
};
