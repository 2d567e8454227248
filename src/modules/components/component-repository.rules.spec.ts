import { getFileFormat } from '../../formats/format.registry';
import { repositoryFileErrors } from './component-repository.rules';

const files = ['sources/app.json', 'translations/cs/app.json', 'translations/de/app.json', 'po/app.pot', 'po/cs.po'];
const mono = { filemask: 'translations/*/app.json', language_regex: '^[^.]+$', template: 'sources/app.json', intermediate: '', new_base: '' };
const json = getFileFormat('json-nested');
const po = getFileFormat('po');

describe('repositoryFileErrors', () => {
  it('accepts settings whose files exist', () => {
    expect(repositoryFileErrors(files, mono, json)).toBeNull();
    expect(repositoryFileErrors(files, { ...mono, filemask: 'po/*.po', template: '', new_base: 'po/app.pot' }, po)).toBeNull();
  });

  it('refuses a file mask that matches nothing, also after the language filter', () => {
    const error = { filemask: ['The file mask did not match any files.'] };
    expect(repositoryFileErrors(files, { ...mono, filemask: 'locale/*/app.json' }, json)).toEqual(error);
    expect(repositoryFileErrors(files, { ...mono, language_regex: '^fr$' }, json)).toEqual(error);
  });

  it('refuses a missing or absent template of a monolingual format, and a missing intermediate', () => {
    expect(repositoryFileErrors(files, { ...mono, template: 'sources/missing.json' }, json)).toEqual({ template: ['File does not exist.'] });
    // aresource (Android) is monolingual only; json-nested may also be used without a template.
    expect(repositoryFileErrors(files, { ...mono, template: '' }, getFileFormat('aresource'))).toEqual({
      template: ['You can not use a monolingual translation without a base file.'],
    });
    expect(repositoryFileErrors(files, { ...mono, template: '' }, json)).toBeNull();
    expect(repositoryFileErrors(files, { ...mono, intermediate: 'sources/en-dev.json' }, json)).toEqual({ intermediate: ['File does not exist.'] });
  });

  it('refuses a new_base that does not exist; the file mask is reported first', () => {
    expect(repositoryFileErrors(files, { ...mono, new_base: 'templates/new.json' }, json)).toEqual({ new_base: ['File does not exist.'] });
    expect(repositoryFileErrors(files, { ...mono, filemask: 'x/*.json', new_base: 'templates/new.json' }, json)).toEqual({
      filemask: ['The file mask did not match any files.'],
    });
  });
});
