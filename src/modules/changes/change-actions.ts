// Weblate's change action codes and their English labels (weblate-api.md §8.1). The spec era is Weblate 4.x,
// so `action_name` uses the 4.x wording ("Resource update", "New translation", the "Screnshot" typo); codes
// that only exist in 5.x and later keep their later name, so a row written with one never shows a bare number.
// Codes 10, 11, 12, 16 and 40 are unused since 4.x and have no label.

export const ACTION_RESOURCE_UPDATE = 0;
export const ACTION_COMPLETE = 1;
export const ACTION_CHANGE = 2;
export const ACTION_COMMENT = 3;
export const ACTION_SUGGESTION = 4;
export const ACTION_NEW = 5;
export const ACTION_ACCEPT = 7;
export const ACTION_NEW_SOURCE = 13;
export const ACTION_SOURCE_CHANGE = 30;
export const ACTION_REMOVE_TRANSLATION = 25;
export const ACTION_SUGGESTION_DELETE = 26;
export const ACTION_NEW_UNIT = 31;
/** Weblate's ACTION_BULK_EDIT ("Bulk status change"): one per string whose state a bulk edit changed. */
export const ACTION_BULK_EDIT = 32;
export const ACTION_APPROVE = 36;
export const ACTION_MARKED_EDIT = 37;
export const ACTION_NEW_STRING = 44;
export const ACTION_NEW_CONTRIBUTOR = 45;
export const ACTION_ADDED_LANGUAGE = 48;
export const ACTION_HOOK = 53;
export const ACTION_STRING_REPO_UPDATE = 59;
export const ACTION_STRING_REMOVE = 63;
export const ACTION_COMMENT_DELETE = 64;
export const ACTION_COMMENT_RESOLVE = 65;
/** 5.x: a label added to / removed from a string, target "Added label X" / "Removed label X" (weblate-api.md §8.1). */
export const ACTION_LABEL_ADD = 86;
export const ACTION_LABEL_REMOVE = 87;

/**
 * Weblate's content-change actions (ACTIONS_CONTENT): what `changed:` / `changed_by:` searches look at
 * (checks-suggestions-search.md §7.4), and what statistics' `last_change`/`recent_changes` follow.
 */
export const CONTENT_CHANGE_ACTIONS: readonly number[] = [2, 5, 6, 7, 8, 9, 27, 30, 31, 32, 36, 37, 66, 76, 77];

const ACTION_NAMES: ReadonlyMap<number, string> = new Map([
  [0, 'Resource update'],
  [1, 'Translation completed'],
  [2, 'Translation changed'],
  [3, 'Comment added'],
  [4, 'Suggestion added'],
  [5, 'New translation'],
  [6, 'Automatic translation'],
  [7, 'Suggestion accepted'],
  [8, 'Translation reverted'],
  [9, 'Translation uploaded'],
  [13, 'New source string'],
  [14, 'Component locked'],
  [15, 'Component unlocked'],
  [17, 'Committed changes'],
  [18, 'Pushed changes'],
  [19, 'Reset repository'],
  [20, 'Merged repository'],
  [21, 'Rebased repository'],
  [22, 'Failed merge on repository'],
  [23, 'Failed rebase on repository'],
  [24, 'Parse error'],
  [25, 'Removed translation'],
  [26, 'Suggestion removed'],
  [27, 'Search and replace'],
  [28, 'Failed push on repository'],
  [29, 'Suggestion removed during cleanup'],
  [30, 'Source string changed'],
  [31, 'New string added'],
  [32, 'Bulk status change'],
  [33, 'Changed visibility'],
  [34, 'Added user'],
  [35, 'Removed user'],
  [36, 'Translation approved'],
  [37, 'Marked for edit'],
  [38, 'Removed component'],
  [39, 'Removed project'],
  [41, 'Renamed project'],
  [42, 'Renamed component'],
  [43, 'Moved component'],
  [44, 'New string to translate'],
  [45, 'New contributor'],
  [46, 'New announcement'],
  [47, 'New alert'],
  [48, 'Added new language'],
  [49, 'Requested new language'],
  [50, 'Created project'],
  [51, 'Created component'],
  [52, 'Invited user'],
  [53, 'Received repository notification'],
  [54, 'Replaced file by upload'],
  [55, 'License changed'],
  [56, 'Contributor agreement changed'],
  [57, 'Screnshot added'],
  [58, 'Screnshot uploaded'],
  [59, 'String updated in the repository'],
  [60, 'Add-on installed'],
  [61, 'Add-on configuration changed'],
  [62, 'Add-on uninstalled'],
  [63, 'Removed string'],
  [64, 'Removed comment'],
  [65, 'Resolved comment'],
  [66, 'Explanation updated'],
  // 5.x and later (no 4.x label exists).
  [67, 'Category removed'],
  [68, 'Category renamed'],
  [69, 'Category moved'],
  [70, 'Saving string failed'],
  [71, 'String added in the repository'],
  [72, 'String updated in the upload'],
  [73, 'String added in the upload'],
  [74, 'Translation updated by source upload'],
  [75, 'Component translation completed'],
  [76, 'Applied enforced check'],
  [77, 'Propagated change'],
  [78, 'File uploaded'],
  [79, 'Extra flags updated'],
  [80, 'Font uploaded'],
  [81, 'Font changed'],
  [82, 'Font removed'],
  [83, 'Forced synchronization of translations'],
  [84, 'Forced rescan of translations'],
  [85, 'Screenshot removed'],
  [86, 'Label added'],
  [87, 'Label removed'],
  [88, 'Repository cleanup'],
  [89, 'Source string added in the upload'],
  [90, 'Source string added in the repository'],
  [91, 'Project backed up'],
  [92, 'Project restored'],
  [93, 'Component restored'],
  [94, 'User edit reverted'],
  [95, 'Project setting changed'],
  [96, 'Component setting changed'],
  [97, 'User access changed'],
  [98, 'Workspace created'],
  [99, 'Workspace setting changed'],
  [100, 'Project moved'],
  [101, 'Remote repository updated'],
  [102, 'Remote repository update failed'],
  [103, 'Alert dismissed'],
  [104, 'Alert reopened'],
]);

/** The label of `action`; an unknown code (none is ever written) falls back to its number. */
export function actionName(action: number): string {
  return ACTION_NAMES.get(action) ?? String(action);
}

/** Whether `action` is one of the choices the `action` filter accepts (§7.2). */
export function isKnownAction(action: number): boolean {
  return ACTION_NAMES.has(action);
}

/** Every known code, ascending (for the OpenAPI description of the filter). */
export function knownActions(): number[] {
  return [...ACTION_NAMES.keys()];
}
