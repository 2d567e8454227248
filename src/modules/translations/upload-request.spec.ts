import { ApiValidationError } from '../../common/http/api-errors';
import { getFileFormat } from '../../formats/format.registry';
import type { ComponentRef, TranslationRef } from './translation-lookup.service';
import { checkUploadRights, parseUploadFields, type UploadOptions } from './upload-request';

// UploadRequestSerializer.check_perms and check_upload_method_permissions of Weblate 4.x (weblate-api.md §10.8).

const component = (overrides: Partial<ComponentRef> = {}): ComponentRef =>
  ({ template: '', fileFormat: 'po', manageUnits: false, editTemplate: true, ...overrides }) as ComponentRef;
const translation = (isSource: boolean, overrides: Partial<ComponentRef> = {}): TranslationRef =>
  ({ isSource, filename: isSource ? '' : 'po/cs.po', component: component(overrides) }) as TranslationRef;
const caller = (...granted: string[]) => ({ can: (permission: string) => granted.includes(permission) });
const options = (method: UploadOptions['method'], conflicts: UploadOptions['conflicts'] = ''): UploadOptions => ({ method, conflicts, fuzzy: '' });

function answer(run: () => void): unknown {
  try {
    run();
    return 'ok';
  } catch (error) {
    if (error instanceof ApiValidationError) return error.getResponse();
    throw error;
  }
}

const HINT = 'This method is not available here. Check your permissions or use different translation object.';
const ADD_HINT = 'This method is not available here. Try adding to the source instead of the translation.';

describe('checkUploadRights', () => {
  const po = getFileFormat('po');
  const json = getFileFormat('json');

  it('checks conflicts before the method, in check_perms order', () => {
    expect(answer(() => checkUploadRights(caller('unit.edit'), translation(false), po, options('translate', 'replace-translated')))).toEqual({ conflicts: ['You can not overwrite existing translations.'] });
    expect(answer(() => checkUploadRights(caller('upload.overwrite'), translation(false), po, options('source', 'replace-approved')))).toEqual({
      conflicts: ['You can not overwrite existing approved translations.'],
    });
  });

  it('takes `source` on the source language of a po component only, with no right beyond upload.perform', () => {
    expect(answer(() => checkUploadRights(caller(), translation(false), po, options('source')))).toEqual({ method: ['Source upload is supported only on source language.'] });
    expect(answer(() => checkUploadRights(caller(), translation(true), po, options('source')))).toBe('ok');
    expect(answer(() => checkUploadRights(caller(), translation(true, { fileFormat: 'json', template: 'en.json' }), json, options('source')))).toEqual({ method: [HINT] });
  });

  it('takes `add` where Weblate’s unit.add allows it, with its hint off the source language', () => {
    const mono = { fileFormat: 'json', template: 'en.json', manageUnits: true };
    expect(answer(() => checkUploadRights(caller('unit.add'), translation(false), po, options('add')))).toEqual({ method: [ADD_HINT] });
    expect(answer(() => checkUploadRights(caller('unit.add'), translation(false, { manageUnits: true }), po, options('add')))).toBe('ok');
    expect(answer(() => checkUploadRights(caller(), translation(false, { manageUnits: true }), po, options('add')))).toEqual({ method: [ADD_HINT] });
    expect(answer(() => checkUploadRights(caller('unit.add'), translation(false, mono), json, options('add')))).toEqual({ method: [ADD_HINT] });
    expect(answer(() => checkUploadRights(caller('unit.add'), translation(true, mono), json, options('add')))).toBe('ok');
    expect(answer(() => checkUploadRights(caller('unit.add'), translation(true, { ...mono, editTemplate: false }), json, options('add')))).toEqual({ method: [HINT] });
  });

  it('needs unit.edit, unit.review, suggestion.add and component.edit for the other methods', () => {
    expect(answer(() => checkUploadRights(caller('unit.edit'), translation(false), po, options('fuzzy')))).toBe('ok');
    expect(answer(() => checkUploadRights(caller('unit.edit'), translation(false), po, options('approve')))).toEqual({ method: [HINT] });
    expect(answer(() => checkUploadRights(caller('suggestion.add'), translation(false), po, options('suggest')))).toBe('ok');
    expect(answer(() => checkUploadRights(caller('unit.edit'), translation(false), po, options('replace')))).toEqual({ method: [HINT] });
    expect(answer(() => checkUploadRights(caller('component.edit'), translation(false), po, options('replace')))).toBe('ok');
  });
});

describe('parseUploadFields', () => {
  it('validates choices like DRF and reads wlc’s overwrite=yes as replace-translated', () => {
    expect(answer(() => parseUploadFields({ method: 'nope' }, false))).toEqual({ file: ['No file was submitted.'], method: ['"nope" is not a valid choice.'] });
    expect(parseUploadFields({ overwrite: 'yes' }, true)).toEqual({ method: 'translate', conflicts: 'replace-translated', fuzzy: '' });
  });
});
