/** Weblate's colour choices for labels (and glossaries), weblate-api.md §8.11, in Weblate's order. */
export const LABEL_COLORS = ['navy', 'blue', 'aqua', 'teal', 'olive', 'green', 'lime', 'yellow', 'orange', 'red', 'maroon', 'fuchsia', 'purple', 'black', 'gray', 'silver'] as const;
