import { ApiError, ApiValidationError, badRequest, permissionDenied } from '../../common/http/api-errors';
import { PLURAL_SEPARATOR } from '../../common/text/word-count';
import type { UnitWriteBody } from './dto/unit-bodies';

// The rules of a translation edit (weblate-api.md §10.2, 4.x), shared by PATCH/PUT `/api/units/<id>/` and the
// bulk translate route so both answer an item exactly alike. Pure: the caller supplies the unit as it is and
// what the caller may do on its translation.

/** States a translation edit may set (weblate-api.md §10.2, 4.x). */
const SETTABLE_STATES = new Set([0, 10, 20, 30]);

/** What the rules need to know about the unit being translated. */
export interface TranslatedUnitFacts {
  source: string;
  state: number;
  /** The translation's (or its language's) number of plural forms. */
  plural_number: number;
}

/** What the caller may do on the unit's translation. */
export interface TranslatePermissions {
  edit: boolean;
  review: boolean;
}

/** How many plural forms a target of this unit must have: the language's for plural sources, else one. */
export function expectedForms(unit: Pick<TranslatedUnitFacts, 'source' | 'plural_number'>): number {
  return unit.source.includes(PLURAL_SEPARATOR) ? unit.plural_number : 1;
}

/**
 * The rules of §10.2 that depend on the body alone (translationEditError applies them after the
 * unit-dependent ones, in Weblate's order): both target and state, a settable state, and state 0 with an
 * empty target only.
 */
export function translationBodyError(data: UnitWriteBody): ApiError | null {
  const target = data.target;
  if (target === undefined || target.length === 0 || data.state === undefined) return badRequest('Please provide both state and target for a partial update');
  if (!SETTABLE_STATES.has(data.state)) return badRequest('Invalid state');
  const hasText = target.some((form) => form !== '');
  if (data.state === 0 && hasText) return badRequest('Can not use empty state with non empty target');
  if (data.state !== 0 && !hasText) return badRequest('Can not use non empty state with empty target');
  return null;
}

/**
 * The checks of §10.2 in Weblate's order (plural count, read-only, the body, unit.edit, review); 4.x reports
 * view-level problems as `{"detail": ...}`. Null when the edit is allowed.
 */
export function translationEditError(unit: TranslatedUnitFacts, data: UnitWriteBody, may: TranslatePermissions): ApiError | ApiValidationError | null {
  const target = data.target;
  if (target !== undefined && target.length > 0 && target.length !== expectedForms(unit)) {
    return new ApiValidationError({ target: ['Number of plurals does not match'] });
  }
  if (unit.state === 100) return permissionDenied('The string is read-only.');
  const bodyError = translationBodyError(data);
  if (bodyError !== null) return bodyError;
  if (!may.edit) return permissionDenied();
  // Approving (30) or un-approving an approved string needs unit.review (weblate-api.md §2.5).
  if ((data.state === 30 || unit.state === 30) && !may.review) return permissionDenied('Insufficient privileges for approving.');
  return null;
}
