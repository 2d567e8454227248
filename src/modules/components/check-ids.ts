import { isWeblate418Check } from '../../checks/check-list';

// Component `enforced_checks` must name Weblate 4.18's check ids, the spec's era (checks-suggestions-search.md
// §1.10, §3.4); checks added later (end_interrobang, Fluent, rst-*, objc_format, …) are refused as 4.18
// refuses them. The ids come from the one list of checks, src/checks/check-list.ts (WEBLATE_CHECKS, with
// the 4.18 ones marked), which the check engine uses too, so validation and the checks never disagree.

export function isKnownCheck(id: string): boolean {
  return isWeblate418Check(id);
}
