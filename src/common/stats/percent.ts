// Weblate's `translation_percent` (weblate-api.md §11.2): truncates to one decimal (4.x and later),
// with guards so that a non-zero count never shows 0.0 and an incomplete set never shows 100.0.

/** Percentage of `count` out of `total`, floored to one decimal; an empty total is 100 only if `zeroComplete`. */
export function translationPercent(count: number, total: number, zeroComplete: boolean): number {
  if (total === 0) return zeroComplete ? 100 : 0;
  const perMille = Math.floor((1000 * count) / total);
  if (perMille === 0 && count > 0) return 0.1;
  if (perMille === 1000 && count < total) return 99.9;
  return perMille / 10;
}
