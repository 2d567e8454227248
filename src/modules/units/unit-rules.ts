import { permissionDenied } from '../../common/http/api-errors';

/**
 * Weblate's `check_manage_units` (weblate-api.md §10.1, §10.2), shared by adding and removing strings and
 * checked before the caller's own permission, so even superusers get these answers: monolingual components
 * take strings on the source language only, and only when the component manages units (and, with a template,
 * lets it be edited).
 */
export function checkManageUnits(target: { isSource: boolean; template: string; manageUnits: boolean; editTemplate: boolean }): void {
  const monolingual = target.template !== '';
  if (monolingual && !target.isSource) throw permissionDenied('Add the string to the source language instead.');
  if (!target.manageUnits || (monolingual && !target.editTemplate)) {
    throw permissionDenied('Adding strings is disabled in the component configuration.');
  }
}
