import { decodeWebhookSecret, signWebhook } from './webhook-signature';

describe('Standard Webhooks signature', () => {
  // The test vector of integration.md §2.2 (secret = bytes 0..31).
  const secret = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';
  const id = '7f1c5477f6275a69af7b83236c20cb1a';
  const compact =
    '{"change_id":99,"action":"Translation changed","timestamp":"2025-05-29T08:00:23.044281+00:00","project":"demo","component":"app","translation":"cs"}';

  const keyOf = (text: string): Buffer => {
    const decoded = decodeWebhookSecret(text);
    if (!('key' in decoded)) throw new Error(decoded.problem);
    return decoded.key;
  };

  it('signs the compact body of the reference vector', () => {
    expect(signWebhook(keyOf(secret), id, 1748505623, Buffer.from(compact))).toBe('v1,lAX9Sufaf/qVSI0LhlMSN5kqDuC/IhxpCqo2G3CsXFc=');
  });

  it('signs the exact bytes: the same object spaced as Python writes it signs differently', () => {
    const spaced = JSON.stringify(JSON.parse(compact)).replaceAll('":', '": ').replaceAll(',"', ', "');
    expect(signWebhook(keyOf(secret), id, 1748505623, Buffer.from(spaced))).toBe('v1,Yym5gA5aqP6CBI0/Uha5XTxhYBjTNiHZPhEwLpLzmn4=');
  });

  it('accepts the secret with or without whsec_ and 24 to 64 bytes only', () => {
    expect(keyOf(secret.slice('whsec_'.length))).toEqual(Buffer.from([...Array(32).keys()]));
    expect(decodeWebhookSecret(Buffer.alloc(24).toString('base64'))).toHaveProperty('key');
    expect(decodeWebhookSecret(Buffer.alloc(64).toString('base64'))).toHaveProperty('key');
    expect(decodeWebhookSecret(Buffer.alloc(23).toString('base64'))).toEqual({ problem: 'The secret must decode to 24 to 64 bytes, not 23.' });
    expect(decodeWebhookSecret(Buffer.alloc(65).toString('base64'))).toHaveProperty('problem');
    expect(decodeWebhookSecret('whsec_not base64!')).toHaveProperty('problem');
    expect(decodeWebhookSecret('whsec_')).toHaveProperty('problem');
  });
});
