import { validateComponentWrite } from './component-write.validator';

const context = { fileFormats: ['json-nested', 'json'], allowLocalRepositories: false };
const minimal = {
  name: 'App',
  slug: 'app',
  repo: 'https://example.org/app.git',
  filemask: 'translations/*/app.json',
  file_format: 'json-nested',
};

describe('validateComponentWrite', () => {
  it('requires the five required fields on create and PUT, nothing on PATCH', () => {
    const required = ['This field is required.'];
    expect(validateComponentWrite({}, 'create', context).errors).toEqual({
      name: required,
      slug: required,
      repo: required,
      filemask: required,
      file_format: required,
    });
    expect(Object.keys(validateComponentWrite({}, 'replace', context).errors)).toHaveLength(5);
    expect(validateComponentWrite({}, 'update', context)).toEqual({ values: {}, errors: {} });
  });

  it('accepts DRF spellings, trims strings and ignores read-only and unknown keys', () => {
    const { values, errors } = validateComponentWrite(
      { ...minimal, name: '  App  ', priority: '120', restricted: 'true', edit_template: 0, commit_pending_age: '12', id: 7, url: 'x', other: 1 },
      'create',
      context,
    );
    expect(errors).toEqual({});
    expect(values).toEqual({ ...minimal, priority: 120, restricted: true, edit_template: false, commit_pending_age: 12 });
  });

  it('reports one DRF message per field', () => {
    const { errors } = validateComponentWrite(
      {
        ...minimal,
        name: '',
        slug: 'bad slug',
        filemask: 'translations/app.json',
        file_format: 'po',
        vcs: 'svn',
        restricted: 'maybe',
        priority: 7,
        commit_pending_age: 5000,
        enforced_checks: 'same',
        suggestion_autoaccept: 1,
        language_regex: '(',
        report_source_bugs: 'nobody',
        commit_message: '   ',
        license: 'x'.repeat(151),
      },
      'create',
      context,
    );
    expect(errors).toEqual({
      name: ['This field may not be blank.'],
      slug: ['Enter a valid “slug” consisting of letters, numbers, underscores or hyphens.'],
      filemask: ['File mask does not contain * as a language placeholder!'],
      file_format: ['"po" is not a valid choice.'],
      vcs: ['"svn" is not a valid choice.'],
      restricted: ['Must be a valid boolean.'],
      priority: ['"7" is not a valid choice.'],
      commit_pending_age: ['Ensure this value is less than or equal to 2160.'],
      enforced_checks: ['Enforced checks has to be a list.'],
      suggestion_autoaccept: ['A value of 1 is not allowed.'],
      language_regex: ['Compilation failed: Invalid language filter: missing closing ): `(` (RE2 syntax: no backreferences or lookaround)'],
      report_source_bugs: ['Enter a valid email address.'],
      commit_message: ['This field may not be blank.'],
      license: ['Ensure this field has no more than 150 characters.'],
    });
  });

  it('applies the repository URL policy, with local paths only when allowed', () => {
    expect(validateComponentWrite({ ...minimal, repo: '/srv/repo.git' }, 'create', context).errors).toEqual({
      repo: ['Local repositories are not allowed on this server (ALLOW_LOCAL_REPOSITORIES).'],
    });
    expect(validateComponentWrite({ ...minimal, repo: '/srv/repo.git' }, 'create', { ...context, allowLocalRepositories: true }).errors).toEqual({});
    expect(validateComponentWrite({ ...minimal, repo: 'ext::sh -c touch% /tmp/x' }, 'create', context).errors.repo).toHaveLength(1);
    expect(validateComponentWrite({ ...minimal, branch: '--upload-pack=x' }, 'create', context).errors).toEqual({
      branch: ['"--upload-pack=x" is not a valid branch name.'],
    });
    expect(validateComponentWrite({ ...minimal, template: '../etc/passwd' }, 'create', context).errors).toEqual({
      template: ['File path "../etc/passwd" must not contain "..".'],
    });
  });

  it('accepts language filters RE2 can run and refuses backreferences and lookaround (issue 10 item 8)', () => {
    expect(validateComponentWrite({ language_regex: '^(a+)+$' }, 'update', context).errors).toEqual({});
    expect(validateComponentWrite({ language_regex: '^(?P<code>[a-z]{2})\\Z' }, 'update', context).errors).toEqual({});
    for (const pattern of ['^(?P<a>x)(?P=a)$', '^(x)\\1$', '^(?!en)', '(?<=x)y']) {
      const { errors } = validateComponentWrite({ language_regex: pattern, variant_regex: pattern }, 'update', context);
      expect(errors.language_regex).toEqual([expect.stringMatching(/^Compilation failed: Invalid language filter: .*no backreferences or lookaround\)$/)]);
      expect(errors.variant_regex).toHaveLength(1);
    }
  });

  it('takes source_language as a code or an object with a code', () => {
    expect(validateComponentWrite({ source_language: 'cs' }, 'update', context).values).toEqual({ source_language: 'cs' });
    expect(validateComponentWrite({ source_language: { code: 'cs', name: 'Czech' } }, 'update', context).values).toEqual({ source_language: 'cs' });
    expect(validateComponentWrite({ source_language: {} }, 'update', context).errors).toEqual({ source_language: { code: ['This field is required.'] } });
    expect(validateComponentWrite({ source_language: 5 }, 'update', context).errors).toEqual({
      source_language: { non_field_errors: ['Invalid data. Expected a dictionary, but got int.'] },
    });
  });

  it('turns manage_units on when a template is given and manage_units is not', () => {
    expect(validateComponentWrite({ ...minimal, template: 'sources/app.json' }, 'create', context).values.manage_units).toBe(true);
    expect(validateComponentWrite({ ...minimal, template: 'sources/app.json', manage_units: false }, 'create', context).values.manage_units).toBe(false);
    expect(validateComponentWrite(minimal, 'create', context).values.manage_units).toBeUndefined();
  });

  it('accepts enforced_checks naming Weblate checks and names the first unknown id', () => {
    expect(validateComponentWrite({ enforced_checks: ['same', 'c_format', 'max-length'] }, 'update', context)).toEqual({
      values: { enforced_checks: ['same', 'c_format', 'max-length'] },
      errors: {},
    });
    expect(validateComponentWrite({ enforced_checks: ['same', 'no_such_check', 'other'] }, 'update', context).errors).toEqual({
      enforced_checks: ['Unsupported enforced check: no_such_check'],
    });
  });

  it('rejects a body that is not an object', () => {
    expect(validateComponentWrite([], 'create', context).errors).toEqual({ non_field_errors: ['Invalid data. Expected a dictionary, but got list.'] });
  });
});
