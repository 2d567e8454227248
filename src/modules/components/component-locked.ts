import { permissionDenied, type ApiError } from '../../common/http/api-errors';

/**
 * A locked component (POST …/lock/, weblate-api.md §10.6) refuses translating, adding and removing strings
 * and uploads. Weblate reports it through the permission check (`unit.edit` is denied with this reason), so
 * the answer is 403 with its text; 423 is what Weblate sends for lock *timeouts* (§4.3, §10.4), not for this.
 */
export function componentLocked(): ApiError {
  return permissionDenied('This translation is currently locked.');
}

export function assertComponentUnlocked(component: { locked: boolean }): void {
  if (component.locked) throw componentLocked();
}
