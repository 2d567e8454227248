import { ValidationPipe } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';
import type { Test } from 'supertest';
import { DataSource } from 'typeorm';
import { authHeader } from '../support/contract';
import { createTranslatedComponent } from '../support/content-factories';
import { createComponent, createLanguage, createProject } from '../support/factories';
import { createTestApp, TEST_ADMIN_TOKEN, TestApp } from '../support/test-app';
import { createUserWithToken } from '../support/users-factories';

// Issue 12 items 1 and 2: DRF request semantics. Every write takes JSON, urlencoded and multipart bodies
// alike (the body layer, src/common/http/request-body.ts), form values are coerced as DRF's fields coerce
// them (src/common/http/drf-fields.ts), and every create/update route checks in DRF's order:
// authenticate (401), site-wide permission (403), object (404), object permission (403), body (400)
// (src/common/auth/check-order.ts).

type Encoding = 'json' | 'form' | 'multipart';
const ENCODINGS: Encoding[] = ['json', 'form', 'multipart'];
type Method = 'post' | 'put' | 'patch' | 'delete';
type Fields = Record<string, unknown>;

/** Form fields as a browser or Django's test client sends them: repeated keys for lists, `a.b` for nested objects. */
function formEntries(fields: Fields, prefix = ''): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  for (const [key, value] of Object.entries(fields)) {
    const name = prefix === '' ? key : `${prefix}.${key}`;
    if (Array.isArray(value)) for (const item of value) entries.push([name, String(item)]);
    else if (value !== null && typeof value === 'object') entries.push(...formEntries(value as Fields, name));
    else entries.push([name, String(value)]);
  }
  return entries;
}

function withBody(test: Test, encoding: Encoding, fields: Fields | undefined): Test {
  if (fields === undefined) return test;
  if (encoding === 'json') return test.send(fields);
  const entries = formEntries(fields);
  if (encoding === 'form') return test.type('form').send(new URLSearchParams(entries).toString());
  // An empty multipart body still needs one part to be multipart: a file part, which no serializer reads.
  if (entries.length === 0) return test.attach('ignored', Buffer.from('x'), 'ignored.txt');
  for (const [name, value] of entries) test = test.field(name, value);
  return test;
}

/** The answer without what differs by construction between encodings (ids, the encoding's own names). */
function normalized(body: unknown, encoding: Encoding): string {
  return JSON.stringify(body ?? null)
    .replace(new RegExp(`([-_ ])${encoding}\\b`, 'g'), '$1ENC')
    .replace(/"id":\d+/g, '"id":N')
    .replace(/\/api\/(groups|roles|units|suggestions)\/\d+\//g, '/api/$1/N/')
    .replace(/"(last_change|created)":"[^"]*"/g, '"$1":"T"')
    .replace(/"(date_joined|last_login|timestamp)":"[^"]*"/g, '"$1":"T"');
}

describe('DRF request semantics', () => {
  let app: TestApp;
  let ds: DataSource;
  let plain: { token: string };
  const admin = authHeader(TEST_ADMIN_TOKEN);
  let roleId: number;
  let pub: { projectId: number; componentId: number };
  /** Units of a translated component, one per encoding, for the unit, suggestion and comment writes. */
  const unitOf = new Map<Encoding, string>();
  const suggestionOf = new Map<Encoding, number>();

  function call(token: string | null, method: Method, path: string, encoding: Encoding, fields?: Fields): Test {
    let test = app.http()[method](path);
    if (token !== null) test = test.set(...authHeader(token));
    return withBody(test, encoding, fields);
  }

  beforeAll(async () => {
    app = await createTestApp();
    ds = app.glossa.app.get(DataSource);
    plain = await createUserWithToken(ds, 'plain');
    await createLanguage(ds, 'cs');
    const project = await createProject(ds, { name: 'Pub', slug: 'pub' });
    const component = await createComponent(ds, project, { name: 'App', slug: 'app' });
    pub = { projectId: project.id, componentId: component.id };
    const secret = await createProject(ds, { name: 'Secret', slug: 'secret', accessControl: 100 });
    await createComponent(ds, secret, { name: 'Hidden', slug: 'hidden' });
    const roles = (await app.http().get('/api/roles/?page_size=100').set(...admin).expect(200)).body.results as Array<{ id: number; name: string }>;
    roleId = roles.find((role) => role.name === 'Translate')!.id;
    const content = await createTranslatedComponent(ds, { project: { name: 'Units', slug: 'units' }, component: { name: 'Strings', slug: 'strings' }, languages: ['cs'], units: 6 });
    ENCODINGS.forEach((encoding, index) => unitOf.set(encoding, content.translations[0].unitIds[index]));
    // Voting on, so a vote reaches its body (with voting off it is 403 before the body is read).
    await app.http().patch('/api/components/units/strings/').set(...admin).send({ suggestion_voting: true }).expect(200);
    for (const encoding of ENCODINGS) {
      await createTranslatedComponent(ds, { project: { name: `Adding ${encoding}`, slug: `adding-${encoding}` }, component: { name: 'Strings', slug: 'strings' }, languages: ['cs'], units: 2 });
    }
  });

  afterAll(async () => {
    await app?.close();
  });

  // The validation pipe is bound to bodies, not to the app (src/common/http/validation.ts ValidatedBody): every
  // body parameter of every route must carry it, or that route would skip DTO validation and the NUL check.
  it('every body parameter of every route goes through the validation pipe', () => {
    const scanner = app.glossa.app.get(MetadataScanner);
    const bodies: string[] = [];
    const unvalidated: string[] = [];
    for (const wrapper of app.glossa.app.get(DiscoveryService).getControllers()) {
      const controller = wrapper.metatype as (new () => object) | null;
      if (!controller) continue;
      for (const method of scanner.getAllMethodNames(controller.prototype)) {
        const params = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<string, { pipes?: unknown[] }>;
        for (const [key, param] of Object.entries(params)) {
          if (Number(key.split(':')[0]) !== RouteParamtypes.BODY) continue;
          bodies.push(`${controller.name}.${method}`);
          if (!(param.pipes ?? []).some((pipe) => pipe instanceof ValidationPipe)) unvalidated.push(`${controller.name}.${method}`);
        }
      }
    }
    expect(bodies.length).toBeGreaterThan(40);
    expect(unvalidated).toEqual([]);
  });

  describe('every write endpoint answers the same to its body as JSON, urlencoded and multipart', () => {
    /** One write per encoding; `path` and `fields` may use the encoding to name their own objects. */
    interface Row {
      label: string;
      method: Method;
      path: (e: Encoding) => string;
      fields?: (e: Encoding) => Fields;
      status: number;
      /** Objects the row needs, made per encoding (e.g. a user to edit). */
      setup?: (e: Encoding) => Promise<void>;
    }
    const groupIds = new Map<Encoding, number>();
    const subscriptionIds = new Map<Encoding, number>();
    const rows: Row[] = [
      { label: 'create user', method: 'post', path: () => '/api/users/', fields: (e) => ({ username: `u-${e}`, full_name: 'User', email: `u-${e}@example.org`, is_active: true, is_bot: false }), status: 201 },
      { label: 'patch user', method: 'patch', path: (e) => `/api/users/u-${e}/`, fields: () => ({ full_name: 'Renamed', is_superuser: false }), status: 200 },
      { label: 'put user', method: 'put', path: (e) => `/api/users/u-${e}/`, fields: (e) => ({ username: `u-${e}`, full_name: 'Again', email: `u-${e}@example.org` }), status: 200 },
      {
        label: 'create team', method: 'post', path: () => '/api/groups/', fields: (e) => ({ name: `team-${e}`, project_selection: 0, language_selection: 1 }), status: 201,
      },
      {
        label: 'patch team', method: 'patch', path: (e) => `/api/groups/${groupIds.get(e)}/`, fields: () => ({ language_selection: 0 }), status: 200,
        setup: async (e) => {
          const list = (await app.http().get('/api/groups/?page_size=100').set(...admin)).body.results as Array<{ id: number; name: string }>;
          groupIds.set(e, list.find((group) => group.name === `team-${e}`)!.id);
        },
      },
      { label: 'put team', method: 'put', path: (e) => `/api/groups/${groupIds.get(e)}/`, fields: (e) => ({ name: `team-${e}`, project_selection: 0, language_selection: 1 }), status: 200 },
      { label: 'team role', method: 'post', path: (e) => `/api/groups/${groupIds.get(e)}/roles/`, fields: () => ({ role_id: roleId }), status: 200 },
      { label: 'team project', method: 'post', path: (e) => `/api/groups/${groupIds.get(e)}/projects/`, fields: () => ({ project_id: pub.projectId }), status: 200 },
      { label: 'team component', method: 'post', path: (e) => `/api/groups/${groupIds.get(e)}/components/`, fields: () => ({ component_id: pub.componentId }), status: 200 },
      { label: 'team language', method: 'post', path: (e) => `/api/groups/${groupIds.get(e)}/languages/`, fields: () => ({ language_code: 'cs' }), status: 200 },
      { label: 'join team', method: 'post', path: (e) => `/api/users/u-${e}/groups/`, fields: (e) => ({ group_id: groupIds.get(e) }), status: 200 },
      { label: 'leave team', method: 'delete', path: (e) => `/api/users/u-${e}/groups/`, fields: (e) => ({ group_id: groupIds.get(e) }), status: 200 },
      { label: 'create subscription', method: 'post', path: (e) => `/api/users/u-${e}/notifications/`, fields: () => ({ notification: 'LockNotification', scope: 20, frequency: 2 }), status: 201 },
      {
        label: 'patch subscription', method: 'patch', path: (e) => `/api/users/u-${e}/notifications/${subscriptionIds.get(e)}/`, fields: () => ({ frequency: 3 }), status: 200,
        setup: async (e) => {
          const list = (await app.http().get(`/api/users/u-${e}/notifications/?page_size=100`).set(...admin)).body.results as Array<{ id: number; notification: string; scope: number }>;
          subscriptionIds.set(e, list.find((s) => s.notification === 'LockNotification' && s.scope === 20)!.id);
        },
      },
      { label: 'put subscription', method: 'put', path: (e) => `/api/users/u-${e}/notifications/${subscriptionIds.get(e)}/`, fields: () => ({ notification: 'LockNotification', scope: 20, frequency: 1 }), status: 200 },
      { label: 'create role', method: 'post', path: () => '/api/roles/', fields: (e) => ({ name: `role-${e}`, permissions: ['unit.edit', 'unit.review'] }), status: 201 },
      { label: 'create role with one permission', method: 'post', path: () => '/api/roles/', fields: (e) => ({ name: `single-${e}`, permissions: ['unit.edit'] }), status: 201 },
      { label: 'create language', method: 'post', path: () => '/api/languages/', fields: (e) => ({ code: `x_${e}`, name: `Lang ${e}`, direction: 'rtl', population: 7, plural: { number: 3, formula: 'n%3' } }), status: 201 },
      { label: 'patch language', method: 'patch', path: (e) => `/api/languages/x_${e}/`, fields: () => ({ population: 9, plural: { number: 2 } }), status: 200 },
      { label: 'create project', method: 'post', path: () => '/api/projects/', fields: (e) => ({ name: `Proj ${e}`, slug: `proj-${e}`, web: 'https://example.org/', enable_hooks: false }), status: 201 },
      { label: 'patch project', method: 'patch', path: (e) => `/api/projects/proj-${e}/`, fields: () => ({ instructions: 'Read me', translation_review: true }), status: 200 },
      { label: 'create component, invalid', method: 'post', path: (e) => `/api/projects/proj-${e}/components/`, fields: () => ({ name: 'C', file_format: 'bogus', priority: 'x' }), status: 400 },
      { label: 'patch component, invalid', method: 'patch', path: () => '/api/components/pub/app/', fields: () => ({ priority: 7, enforced_checks: ['same'], restricted: 'maybe' }), status: 400 },
      { label: 'lock component', method: 'post', path: () => '/api/components/pub/app/lock/', fields: () => ({ lock: true }), status: 200 },
      { label: 'unlock component', method: 'post', path: () => '/api/components/pub/app/lock/', fields: () => ({ lock: false }), status: 200 },
      { label: 'repository operation, invalid', method: 'post', path: () => '/api/components/pub/app/repository/', fields: () => ({ operation: 'invalid' }), status: 400 },
      { label: 'translate unit', method: 'patch', path: (e) => `/api/units/${unitOf.get(e)}/`, fields: (e) => ({ target: [`Přeloženo ${e}`], state: 20 }), status: 200 },
      { label: 'put unit', method: 'put', path: (e) => `/api/units/${unitOf.get(e)}/`, fields: (e) => ({ target: [`Znovu ${e}`], state: 10 }), status: 200 },
      { label: 'add suggestion', method: 'post', path: (e) => `/api/units/${unitOf.get(e)}/suggestions/`, fields: (e) => ({ target: [`Návrh ${e}`] }), status: 201 },
      { label: 'add comment', method: 'post', path: (e) => `/api/units/${unitOf.get(e)}/comments/`, fields: (e) => ({ comment: `Poznámka ${e}`, scope: 'translation' }), status: 201 },
      {
        label: 'accept suggestion', method: 'post', path: (e) => `/api/suggestions/${suggestionOf.get(e)}/accept/`, fields: () => ({ approve: false }), status: 200,
        setup: async (e) => {
          const added = await app.http().post(`/api/units/${unitOf.get(e)}/suggestions/`).set(...admin).send({ target: [`Přijmout ${e}`] }).expect(201);
          suggestionOf.set(e, added.body.id);
        },
      },
      {
        label: 'vote on suggestion', method: 'post', path: (e) => `/api/suggestions/${suggestionOf.get(e)}/vote/`, fields: () => ({ value: 1 }), status: 200,
        setup: async (e) => {
          const added = await call(plain.token, 'post', `/api/units/${unitOf.get(e)}/suggestions/`, 'json', { target: [`Hlasovat ${e}`] }).expect(201);
          suggestionOf.set(e, added.body.id);
        },
      },
      {
        // The `same` check fails once the target equals the source; dismissing it takes a boolean.
        label: 'dismiss check', method: 'patch', path: (e) => `/api/units/${unitOf.get(e)}/checks/same/`, fields: () => ({ dismissed: true }), status: 200,
        setup: async (e) => {
          const unit = (await app.http().get(`/api/units/${unitOf.get(e)}/`).expect(200)).body as { source: string[] };
          await app.http().patch(`/api/units/${unitOf.get(e)}/`).set(...admin).send({ target: unit.source, state: 20 }).expect(200);
        },
      },
      { label: 'add translation', method: 'post', path: (e) => `/api/components/adding-${e}/strings/translations/`, fields: () => ({ language_code: 'de' }), status: 201 },
      { label: 'remove team language', method: 'delete', path: (e) => `/api/groups/${groupIds.get(e)}/languages/cs/`, status: 204 },
    ];

    for (const row of rows) {
      it(row.label, async () => {
        const answers: string[] = [];
        for (const encoding of ENCODINGS) {
          await row.setup?.(encoding);
          const response = await call(TEST_ADMIN_TOKEN, row.method, row.path(encoding), encoding, row.fields?.(encoding));
          expect({ encoding, status: response.status, body: response.status >= 400 ? response.body : undefined }).toEqual({
            encoding,
            status: row.status,
            body: row.status >= 400 ? response.body : undefined,
          });
          answers.push(normalized(response.body, encoding));
        }
        expect(answers[1]).toEqual(answers[0]);
        expect(answers[2]).toEqual(answers[0]);
      });
    }

    it('keeps what each encoding sent', async () => {
      for (const encoding of ENCODINGS) {
        const role = (await app.http().get('/api/roles/?page_size=100').set(...admin)).body.results.find((r: { name: string }) => r.name === `single-${encoding}`);
        expect(role.permissions).toEqual(['unit.edit']);
        const language = (await app.http().get(`/api/languages/x_${encoding}/`).set(...admin).expect(200)).body;
        expect(language).toMatchObject({ direction: 'rtl', population: 9, plural: { number: 2, formula: 'n%3' } });
      }
    });
  });

  describe('form values are coerced as DRF fields coerce them', () => {
    const patchUser = (encoding: Encoding, fields: Fields) => call(TEST_ADMIN_TOKEN, 'patch', '/api/users/coerced/', encoding, fields);

    beforeAll(async () => {
      await createUserWithToken(ds, 'coerced');
    });

    it('reads file parts of a non-upload write without keeping them, and refuses one over MAX_REQUEST_BODY_BYTES with 413', async () => {
      const small = await app.http().patch('/api/users/coerced/').set(...admin).field('is_bot', 'on').attach('ignored', Buffer.alloc(64 * 1024, 'x'), 'ignored.txt').expect(200);
      expect(small.body.is_bot).toBe(true);
      const huge = Buffer.alloc(app.config.maxRequestBodyBytes + 1, 'x');
      const refused = await app.http().patch('/api/users/coerced/').set(...admin).field('is_bot', 'off').attach('ignored', huge, 'ignored.txt').expect(413);
      expect(refused.body).toEqual({ detail: 'Request entity too large.' });
      const after = await app.http().get('/api/users/coerced/').set(...admin).expect(200);
      expect(after.body.is_bot).toBe(true);
    });

    it('BooleanField: every spelling DRF accepts, and nothing else', async () => {
      for (const [value, expected] of [['yes', true], ['on', true], ['1', true], ['t', true], ['True', true], ['off', false], ['0', false], ['no', false], ['F', false], ['false', false]] as const) {
        for (const encoding of ['form', 'multipart', 'json'] as const) {
          const response = await patchUser(encoding, { is_bot: value }).expect(200);
          expect({ value, encoding, is_bot: response.body.is_bot }).toEqual({ value, encoding, is_bot: expected });
        }
      }
      for (const encoding of ENCODINGS) await patchUser(encoding, { is_bot: 'maybe' }).expect(400, { is_bot: ['Must be a valid boolean.'] });
    });

    it('IntegerField: "3", " 3 " and "3.0" are 3; "3.5", "three" and true are not integers', async () => {
      const group = (await app.http().post('/api/groups/').set(...admin).send({ name: 'Coerced', project_selection: 0, language_selection: 1 }).expect(201)).body.id as number;
      for (const value of [String(group), ` ${group} `, `${group}.0`]) {
        for (const encoding of ENCODINGS) await call(TEST_ADMIN_TOKEN, 'post', '/api/users/coerced/groups/', encoding, { group_id: value }).expect(200);
      }
      for (const value of [`${group}.5`, 'three']) {
        for (const encoding of ENCODINGS) {
          await call(TEST_ADMIN_TOKEN, 'post', '/api/users/coerced/groups/', encoding, { group_id: value }).expect(400, { group_id: ['A valid integer is required.'] });
        }
      }
      await call(TEST_ADMIN_TOKEN, 'post', '/api/users/coerced/groups/', 'json', { group_id: true }).expect(400, { group_id: ['A valid integer is required.'] });
    });

    it('ChoiceField: "1" selects the choice 1; unknown values are "not a valid choice"', async () => {
      const group = (await app.http().post('/api/groups/').set(...admin).send({ name: 'Choices', project_selection: 0, language_selection: 0 }).expect(201)).body.id as number;
      for (const encoding of ENCODINGS) {
        const response = await call(TEST_ADMIN_TOKEN, 'patch', `/api/groups/${group}/`, encoding, { language_selection: '1', project_selection: '3' }).expect(200);
        expect(response.body).toMatchObject({ language_selection: 1, project_selection: 3 });
        await call(TEST_ADMIN_TOKEN, 'patch', `/api/groups/${group}/`, encoding, { language_selection: '7' }).expect(400, { language_selection: ['"7" is not a valid choice.'] });
      }
    });

    it('ListField: one form value is a one-item list; a JSON string is not a list', async () => {
      for (const encoding of ['form', 'multipart'] as const) {
        const made = await call(TEST_ADMIN_TOKEN, 'post', '/api/roles/', encoding, { name: `list-${encoding}`, permissions: 'suggestion.add' }).expect(201);
        expect(made.body.permissions).toEqual(['suggestion.add']);
      }
      await call(TEST_ADMIN_TOKEN, 'post', '/api/roles/', 'json', { name: 'list-json', permissions: 'suggestion.add' }).expect(400, {
        permissions: ['Expected a list of items but got type "str".'],
      });
    });

    it('a repeated form key is read by a scalar field as its last value (QueryDict.get)', async () => {
      for (const encoding of ['form', 'multipart'] as const) {
        const test = app.http().patch('/api/users/coerced/').set(...admin);
        const sent = encoding === 'form' ? test.type('form').send('full_name=First&full_name=Last') : test.field('full_name', 'First').field('full_name', 'Last');
        expect((await sent.expect(200)).body.full_name).toBe('Last');
      }
    });

    it('nested serializers: JSON objects and `field.key` form keys; a plain form value is not an object', async () => {
      const plural = { number: 2, formula: 'n != 1' };
      await call(TEST_ADMIN_TOKEN, 'post', '/api/languages/', 'json', { code: 'nest_json', name: 'N', plural }).expect(201);
      await call(TEST_ADMIN_TOKEN, 'post', '/api/languages/', 'form', { code: 'nest_form', name: 'N', plural }).expect(201);
      await app.http().post('/api/languages/').set(...admin).type('form').send('code=nest_flat&name=N&plural=2').expect(400, { plural: ['This field is required.'] });
      await call(TEST_ADMIN_TOKEN, 'post', '/api/languages/', 'json', { code: 'nest_str', name: 'N', plural: 'two' }).expect(400, {
        plural: ['Invalid data. Expected a dictionary, but got str.'],
      });
    });

    it('an empty optional form value is absent; the same JSON value is validated', async () => {
      await call(TEST_ADMIN_TOKEN, 'patch', '/api/users/coerced/', 'form', { is_bot: '', full_name: 'Kept' }).expect(200);
      await call(TEST_ADMIN_TOKEN, 'patch', '/api/users/coerced/', 'json', { is_bot: '' }).expect(400, { is_bot: ['Must be a valid boolean.'] });
    });

    it('multipart bodies keep the configured field limits', async () => {
      let test = app.http().patch('/api/users/coerced/').set(...admin);
      for (let i = 0; i <= app.config.uploadMaxFields; i++) test = test.field(`f${i}`, 'x');
      const tooMany = await test;
      expect(tooMany.status).toBe(400);
      const long = await app.http().patch('/api/users/coerced/').set(...admin).field('full_name', 'x'.repeat(app.config.uploadMaxFieldBytes + 1));
      expect(long.status).toBe(400);
    });
  });

  describe('check order: authenticate, permission, object, permission on it, then the body', () => {
    type Persona = 'anonymous' | 'plain' | 'superuser';
    const PERSONAS: Persona[] = ['anonymous', 'plain', 'superuser'];
    const token = (persona: Persona): string | null => (persona === 'anonymous' ? null : persona === 'plain' ? plain.token : TEST_ADMIN_TOKEN);
    const NOT_AUTHENTICATED = { detail: 'Authentication credentials were not provided.' };
    const NOT_FOUND = { detail: 'Not found.' };
    const denied = (detail = 'You do not have permission to perform this action.') => ({ detail });

    /** A path, or a function making the object it names first (for writes that use their object up, e.g. accepting a suggestion). */
    type Target = string | (() => Promise<string>);
    const pathOf = (target: Target): Promise<string> => (typeof target === 'string' ? Promise.resolve(target) : target());
    /** What the plain user sends where a route has no `invalid` body of its own: invalid for every older route. */
    const INVALID_FOR_ANY = { name: '', project_selection: 'x', permissions: 'x', lock: 'x', plural: 'x' };

    interface Route {
      label: string;
      method: Method;
      /** An object the plain user can see (or the collection). */
      visible: Target;
      /** An object that is invisible to the plain user or does not exist. */
      invisible?: Target;
      /** The 403 body for the plain user. */
      denied: object;
      /** What the plain user gets for the invisible object: 403 when the permission is site-wide, else 404. */
      invisibleStatus?: 403 | 404;
      /** The superuser's status for an empty body, where it is not 400 (PATCH: nothing to change, 200). */
      superuserEmpty?: number;
      /** A body this route refuses (400 for the superuser); the plain user gets 403 for it, never 400. */
      invalid?: Fields;
    }
    let routes: Route[] = [];

    beforeAll(async () => {
      const groups = (await app.http().get('/api/groups/?page_size=100').set(...admin)).body.results as Array<{ id: number; name: string }>;
      const users = groups.find((g) => g.name === 'Users')!.id;
      const managers = groups.find((g) => g.name === 'Managers')!.id;
      const roles = (await app.http().get('/api/roles/?page_size=100').set(...admin)).body.results as Array<{ id: number; name: string }>;
      const power = roles.find((r) => r.name === 'Power user')!.id;
      const admin403 = roles.find((r) => r.name === 'Administration')!.id;
      await createUserWithToken(ds, 'target');
      const groupsMsg = denied('Can not manage groups');
      const rolesMsg = denied('Can not manage roles');
      const usersMsg = denied('Can not manage Users');
      const languagesMsg = denied('Can not manage languages');
      routes = [
        { label: 'create user', method: 'post', visible: '/api/users/', denied: usersMsg },
        { label: 'patch user', method: 'patch', visible: '/api/users/target/', invisible: '/api/users/nobody/', denied: usersMsg, invisibleStatus: 403 },
        { label: 'put user', method: 'put', visible: '/api/users/target/', invisible: '/api/users/nobody/', denied: usersMsg, invisibleStatus: 403 },
        { label: 'user joins team', method: 'post', visible: '/api/users/target/groups/', invisible: '/api/users/nobody/groups/', denied: usersMsg, invisibleStatus: 403 },
        { label: 'create team', method: 'post', visible: '/api/groups/', denied: groupsMsg },
        // "Users" is the plain user's own team (visible); "Managers" is not: both 403 as in Weblate.
        { label: 'patch own team', method: 'patch', visible: `/api/groups/${users}/`, invisible: `/api/groups/${managers}/`, denied: groupsMsg, invisibleStatus: 403 },
        { label: 'put team', method: 'put', visible: `/api/groups/${users}/`, invisible: `/api/groups/${managers}/`, denied: groupsMsg, invisibleStatus: 403 },
        { label: 'team role', method: 'post', visible: `/api/groups/${users}/roles/`, invisible: `/api/groups/${managers}/roles/`, denied: groupsMsg, invisibleStatus: 403 },
        { label: 'team project', method: 'post', visible: `/api/groups/${users}/projects/`, invisible: '/api/groups/99999/projects/', denied: groupsMsg, invisibleStatus: 403 },
        { label: 'team component', method: 'post', visible: `/api/groups/${users}/components/`, invisible: '/api/groups/99999/components/', denied: groupsMsg, invisibleStatus: 403 },
        { label: 'team language', method: 'post', visible: `/api/groups/${users}/languages/`, invisible: '/api/groups/99999/languages/', denied: groupsMsg, invisibleStatus: 403 },
        { label: 'create role', method: 'post', visible: '/api/roles/', denied: rolesMsg },
        { label: 'patch own role', method: 'patch', visible: `/api/roles/${power}/`, invisible: `/api/roles/${admin403}/`, denied: rolesMsg, invisibleStatus: 403 },
        { label: 'put role', method: 'put', visible: `/api/roles/${power}/`, invisible: '/api/roles/99999/', denied: rolesMsg, invisibleStatus: 403 },
        { label: 'create language', method: 'post', visible: '/api/languages/', denied: languagesMsg },
        { label: 'patch language', method: 'patch', visible: '/api/languages/cs/', invisible: '/api/languages/zz_none/', denied: languagesMsg, invisibleStatus: 403 },
        { label: 'put language', method: 'put', visible: '/api/languages/cs/', invisible: '/api/languages/zz_none/', denied: languagesMsg, invisibleStatus: 403 },
        { label: 'create project', method: 'post', visible: '/api/projects/', denied: denied('Can not create projects') },
        { label: 'patch project', method: 'patch', visible: '/api/projects/pub/', invisible: '/api/projects/secret/', denied: denied('Can not edit project'), invisibleStatus: 404 },
        { label: 'put project', method: 'put', visible: '/api/projects/pub/', invisible: '/api/projects/secret/', denied: denied('Can not edit project'), invisibleStatus: 404 },
        { label: 'create component', method: 'post', visible: '/api/projects/pub/components/', invisible: '/api/projects/secret/components/', denied: denied('Can not create components'), invisibleStatus: 404 },
        { label: 'patch component', method: 'patch', visible: '/api/components/pub/app/', invisible: '/api/components/secret/hidden/', denied: denied('Can not edit component'), invisibleStatus: 404 },
        { label: 'put component', method: 'put', visible: '/api/components/pub/app/', invisible: '/api/components/secret/hidden/', denied: denied('Can not edit component'), invisibleStatus: 404 },
        { label: 'lock component', method: 'post', visible: '/api/components/pub/app/lock/', invisible: '/api/components/secret/hidden/lock/', denied: denied(), invisibleStatus: 404 },
        { label: 'issue user token', method: 'post', visible: '/api/users/target/token/', invisible: '/api/users/nobody/token/', denied: usersMsg, invisibleStatus: 403, superuserEmpty: 201 },
        ...(await projectScopedRoutes()),
      ];
    });

    /*
     * The routes on translation content (units, translations, files, suggestions, comments, checks, repositories).
     * Their rights come from teams on the project, and on a public project the built-in "Users" team gives every
     * signed-in user "Power user", so the object the plain user sees without the permission lives in a
     * *protected* project (access_control 1): visible to every signed-in user, rights only through a team that
     * selects it ("Users" selects public projects only, builtin-access.ts). The invisible objects are the same
     * content in a private project (404 for the plain user, found by the superuser).
     *
     * Covered elsewhere, not here: the repository hooks (`/hooks/...`, no authentication: hooks.e2e-spec.ts),
     * notification subscriptions (the test below: 404 for other users' ones), and the DELETE routes, which
     * are neither creates nor updates (permissions.e2e-spec.ts, security-authz.e2e-spec.ts); except deleting a
     * suggestion, which takes a body. Component alerts have no write (read-only Glossa extension).
     */
    async function projectScopedRoutes(): Promise<Route[]> {
      const component = { name: 'Strings', slug: 'strings', manageUnits: true, editTemplate: true, suggestionVoting: true, newLang: 'add' };
      await createTranslatedComponent(ds, { project: { name: 'Guarded', slug: 'guarded', accessControl: 1 }, component, languages: ['cs'], units: 4 });
      await createTranslatedComponent(ds, { project: { name: 'Private', slug: 'private', accessControl: 100 }, component, languages: ['cs'], units: 4 });
      const units = async (project: string): Promise<string[]> =>
        ((await app.http().get(`/api/translations/${project}/strings/cs/units/`).set(...admin).expect(200)).body.results as Array<{ id: number }>).map((u) => `/api/units/${u.id}/`);
      const [guarded, hidden] = [await units('guarded'), await units('private')];
      let made = 0;
      const suggest = async (unit: string): Promise<number> =>
        (await app.http().post(`${unit}suggestions/`).set(...admin).send({ target: [`Návrh ${++made}`] }).expect(201)).body.id as number;
      const comment = async (unit: string): Promise<number> =>
        (await app.http().post(`${unit}comments/`).set(...admin).send({ comment: 'Poznámka', scope: 'translation' }).expect(201)).body.id as number;
      // The `same` check fails once the target equals the source: a stored check to dismiss.
      for (const unit of [guarded[1], hidden[1]]) {
        const { source } = (await app.http().get(unit).set(...admin).expect(200)).body as { source: string[] };
        await app.http().patch(unit).set(...admin).send({ target: source, state: 20 }).expect(200);
      }
      const [guardedComment, hiddenComment] = [await comment(guarded[0]), await comment(hidden[0])];
      const suggestionRoute = (action: string): Pick<Route, 'visible' | 'invisible'> => ({
        visible: async () => `/api/suggestions/${await suggest(guarded[0])}/${action}`,
        invisible: async () => `/api/suggestions/${await suggest(hidden[0])}/${action}`,
      });
      const inBoth = (path: (project: string) => string): Pick<Route, 'visible' | 'invisible'> => ({ visible: path('guarded'), invisible: path('private') });
      const scoped: Array<Omit<Route, 'denied' | 'invisibleStatus'> & { denied?: object }> = [
        { label: 'patch unit', method: 'patch', visible: guarded[0], invisible: hidden[0], invalid: { target: 'x', state: 20 } },
        { label: 'put unit', method: 'put', visible: guarded[0], invisible: hidden[0], superuserEmpty: 200, invalid: { target: ['a', 'b'], state: 20 } },
        { label: 'add unit', method: 'post', ...inBoth((p) => `/api/translations/${p}/strings/en/units/`), denied: denied('Can not add unit'), invalid: { key: 'new', value: 'x' } },
        { label: 'add translation', method: 'post', ...inBoth((p) => `/api/components/${p}/strings/translations/`), denied: denied('Can not create translation'), invalid: { language_code: 'zz_none' } },
        { label: 'upload file', method: 'post', ...inBoth((p) => `/api/translations/${p}/strings/cs/file/`), invalid: { method: 'bogus' } },
        { label: 'upload file (PUT)', method: 'put', ...inBoth((p) => `/api/translations/${p}/strings/cs/file/`), invalid: { method: 'bogus' } },
        { label: 'add suggestion', method: 'post', visible: `${guarded[0]}suggestions/`, invisible: `${hidden[0]}suggestions/`, invalid: { target: 'x' } },
        { label: 'accept suggestion', method: 'post', ...suggestionRoute('accept/'), superuserEmpty: 200, invalid: { approve: 'maybe' } },
        { label: 'vote on suggestion', method: 'post', ...suggestionRoute('vote/'), invalid: { value: 5 } },
        { label: 'delete suggestion', method: 'delete', ...suggestionRoute(''), superuserEmpty: 204 },
        { label: 'add comment', method: 'post', visible: `${guarded[0]}comments/`, invisible: `${hidden[0]}comments/`, invalid: { comment: '', scope: 'x' } },
        { label: 'resolve comment', method: 'post', visible: `${guarded[0]}comments/${guardedComment}/resolve/`, invisible: `${hidden[0]}comments/${hiddenComment}/resolve/`, superuserEmpty: 200 },
        { label: 'dismiss check', method: 'patch', visible: `${guarded[1]}checks/same/`, invisible: `${hidden[1]}checks/same/`, superuserEmpty: 400, invalid: { dismissed: 'maybe' } },
        { label: 'project repository operation', method: 'post', ...inBoth((p) => `/api/projects/${p}/repository/`), invalid: { operation: 'invalid' } },
        { label: 'component repository operation', method: 'post', ...inBoth((p) => `/api/components/${p}/strings/repository/`), invalid: { operation: 'invalid' } },
        { label: 'translation repository operation', method: 'post', ...inBoth((p) => `/api/translations/${p}/strings/cs/repository/`), invalid: { operation: 'invalid' } },
      ];
      return scoped.map((route) => ({ denied: denied(), invisibleStatus: 404, ...route }));
    }

    it('an empty body: 401 anonymous, 403 without the permission, 400 with it (PATCH: nothing to change, 200)', async () => {
      for (const route of routes) {
        for (const persona of PERSONAS) {
          for (const encoding of ENCODINGS) {
            const response = await call(token(persona), route.method, await pathOf(route.visible), encoding, {});
            const superuser = route.superuserEmpty ?? (route.method === 'patch' ? 200 : 400);
            const expected = { anonymous: [401, NOT_AUTHENTICATED], plain: [403, route.denied], superuser: [superuser, undefined] }[persona];
            const label = `${route.label} ${persona} ${encoding}`;
            expect({ label, status: response.status }).toEqual({ label, status: expected[0] });
            if (expected[1] !== undefined) expect({ label, body: response.body }).toEqual({ label, body: expected[1] });
          }
        }
      }
    });

    it('an invisible or unknown object: 403 where the permission is site-wide, otherwise 404; superusers 404 for unknown ones', async () => {
      for (const route of routes.filter((r) => r.invisible !== undefined)) {
        for (const persona of PERSONAS) {
          const path = await pathOf(route.invisible!);
          const response = await call(token(persona), route.method, path, 'json', { name: '' });
          const label = `${route.label} ${persona}`;
          if (persona === 'anonymous') expect({ label, status: response.status, body: response.body }).toEqual({ label, status: 401, body: NOT_AUTHENTICATED });
          if (persona === 'plain') {
            const body = route.invisibleStatus === 403 ? route.denied : NOT_FOUND;
            expect({ label, status: response.status, body: response.body }).toEqual({ label, status: route.invisibleStatus, body });
          }
          // The superuser sees everything: existing objects are found (and the body is looked at), unknown ones are 404.
          if (persona === 'superuser' && /99999|nobody|zz_none/.test(path)) expect({ label, body: response.body }).toEqual({ label, body: NOT_FOUND });
          else if (persona === 'superuser') expect({ label, found: response.status !== 404 && response.status < 500 }).toEqual({ label, found: true });
        }
      }
    });

    it('a visible object without the permission: 403 before an invalid body is looked at', async () => {
      for (const route of routes) {
        for (const encoding of ENCODINGS) {
          const response = await call(token('plain'), route.method, await pathOf(route.visible), encoding, route.invalid ?? INVALID_FOR_ANY);
          const label = `${route.label} ${encoding}`;
          expect({ label, status: response.status, body: response.body }).toEqual({ label, status: 403, body: route.denied });
        }
      }
    });

    it('the same invalid bodies are refused once the permission holds (400), so the 403 above is the order', async () => {
      for (const route of routes.filter((r) => r.invalid !== undefined)) {
        const response = await call(TEST_ADMIN_TOKEN, route.method, await pathOf(route.visible), 'json', route.invalid);
        expect({ label: route.label, status: response.status }).toEqual({ label: route.label, status: 400 });
      }
    });

    it('notification subscriptions: the user (404 for others, who may not learn of them), then the body', async () => {
      await call(token('plain'), 'post', '/api/users/target/notifications/', 'json', {}).expect(404, NOT_FOUND);
      await call(token('plain'), 'post', '/api/users/plain/notifications/', 'json', {}).expect(400);
      await call(token('plain'), 'patch', '/api/users/plain/notifications/99999/', 'json', { scope: 'x' }).expect(404, NOT_FOUND);
      await call(null, 'post', '/api/users/plain/notifications/', 'json', {}).expect(401, NOT_AUTHENTICATED);
    });

    it('removing an unknown project, component or language from a team is 404', async () => {
      const team = (await app.http().post('/api/groups/').set(...admin).send({ name: 'Removals', project_selection: 0, language_selection: 0 }).expect(201)).body.id as number;
      await app.http().delete(`/api/groups/${team}/components/99999/`).set(...admin).expect(404, NOT_FOUND);
      await app.http().delete(`/api/groups/${team}/projects/99999/`).set(...admin).expect(404, NOT_FOUND);
      await app.http().delete(`/api/groups/${team}/languages/zz_none/`).set(...admin).expect(404, NOT_FOUND);
      await app.http().delete(`/api/groups/${team}/roles/99999/`).set(...admin).expect(404, NOT_FOUND);
    });
  });

  describe('built-in teams (issue 12 item 3)', () => {
    it('"Users" is a real membership: a user removed from it loses its rights', async () => {
      const member = await createUserWithToken(ds, 'member');
      const teams = (await app.http().get('/api/groups/?page_size=100').set(...admin)).body.results as Array<{ id: number; name: string }>;
      const users = teams.find((team) => team.name === 'Users')!.id;
      const own = await app.http().get('/api/groups/').set(...authHeader(member.token)).expect(200);
      expect(own.body.results.map((team: { name: string }) => team.name)).toEqual(['Users']);
      // Its team's role is visible to it while it is a member.
      await app.http().get(`/api/roles/`).set(...authHeader(member.token)).expect(200).expect((r) => expect(r.body.count).toBe(1));

      await app.http().delete('/api/users/member/groups/').set(...admin).send({ group_id: users }).expect(200);
      const none = await app.http().get('/api/groups/').set(...authHeader(member.token)).expect(200);
      expect(none.body.count).toBe(0);
      expect((await app.http().get('/api/roles/').set(...authHeader(member.token)).expect(200)).body.count).toBe(0);
      // Back in the team, the rights come back.
      await app.http().post('/api/users/member/groups/').set(...admin).send({ group_id: users }).expect(200);
      expect((await app.http().get('/api/roles/').set(...authHeader(member.token)).expect(200)).body.count).toBe(1);
    });

    it('users created through the API join "Users" too', async () => {
      await app.http().post('/api/users/').set(...admin).send({ username: 'fresh', full_name: 'Fresh', email: 'fresh@example.org' }).expect(201);
      const [{ count }] = await ds.query(`SELECT count(*)::int AS count FROM group_members gm JOIN groups g ON g.id = gm.group_id JOIN users u ON u.id = gm.user_id WHERE g.name = 'Users' AND u.username = 'fresh'`);
      expect(count).toBe(1);
    });

    it('a team created with `defining_project` selects that project and goes with it', async () => {
      const made = await app.http().post('/api/groups/').set(...admin).send({ name: 'Pub team', project_selection: 0, language_selection: 1, defining_project: 'http://example.org/api/projects/pub/' }).expect(201);
      expect(made.body.projects).toEqual([expect.stringContaining('/api/projects/pub/')]);
      await app.http().post('/api/groups/').set(...admin).send({ name: 'No team', project_selection: 0, language_selection: 1, defining_project: '/api/projects/none/' }).expect(400, {
        defining_project: ['Invalid hyperlink - Object does not exist.'],
      });
      await app.http().post('/api/groups/').set(...admin).send({ name: 'Bad team', project_selection: 0, language_selection: 1, defining_project: '/api/users/x/' }).expect(400, {
        defining_project: ['Invalid hyperlink - No URL match.'],
      });
    });

    it('lists Weblate’s inactive `anonymous` user, a member of Guests that cannot be edited', async () => {
      const listed = await app.http().get('/api/users/?username=anonymous').expect(200);
      expect(listed.body.results).toEqual([{ full_name: 'Anonymous', username: 'anonymous' }]);
      const full = await app.http().get('/api/users/anonymous/').set(...admin).expect(200);
      expect(full.body).toMatchObject({ is_active: false, is_superuser: false });
      await app.http().patch('/api/users/anonymous/').set(...admin).send({ full_name: 'X' }).expect(403, { detail: 'This user can not be edited.' });
      const guests = await app.http().get('/api/groups/').expect(200);
      expect(guests.body.results.map((team: { name: string }) => team.name)).toEqual(['Guests']);
    });
  });
});
