import { webhookBody, webhookPayload, type WebhookChangeRow } from './webhook-payload';

const base: WebhookChangeRow = {
  id: '99',
  action: 2,
  timestamp: '2025-05-29 08:00:23.044281+00',
  target: '',
  old: '',
  source: null,
  id_hash: null,
  user: null,
  author: null,
  project: 'demo',
  component: 'app',
  translation: 'cs',
};

describe('webhook payload', () => {
  it('writes Weblate’s fields in order, leaving out empty ones', () => {
    const body = webhookBody(webhookPayload(base)).toString();
    expect(body).toBe(
      '{"change_id":99,"action":"Translation changed","timestamp":"2025-05-29T08:00:23.044281+00:00","url":"/projects/demo/app/cs/","project":"demo","component":"app","translation":"cs"}',
    );
  });

  it('sends texts as arrays of plural forms and links the string', () => {
    const payload = webhookPayload({ ...base, target: 'jeden\x1e\x1edva', old: 'x', source: 'one\x1e\x1emany', id_hash: '-1', user: 'u', author: 'a' });
    expect(payload).toEqual({
      change_id: 99,
      action: 'Translation changed',
      timestamp: '2025-05-29T08:00:23.044281+00:00',
      target: ['jeden', 'dva'],
      old: ['x'],
      source: ['one', 'many'],
      url: '/translate/demo/app/cs/?checksum=7fffffffffffffff',
      author: 'a',
      user: 'u',
      project: 'demo',
      component: 'app',
      translation: 'cs',
    });
  });

  it('links the component or project when the change has no translation', () => {
    expect(webhookPayload({ ...base, translation: null }).url).toBe('/projects/demo/app/');
    expect(webhookPayload({ ...base, translation: null, component: null }).url).toBe('/projects/demo/');
    expect(webhookPayload({ ...base, translation: null, component: null, project: null })).not.toHaveProperty('url');
  });
});
