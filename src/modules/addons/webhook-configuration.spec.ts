import { parseRange } from '../../common/net/network-address';
import { ANY_HOST, PUBLIC_HOSTS_ONLY } from '../../common/net/host-policy';
import {
  checkWebhookTarget,
  isRedactedSecretOf,
  parseWebhookConfiguration,
  redactWebhookSecret,
  WebhookConfigurationError,
} from './webhook-configuration';

const SECRET = 'whsec_AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=';

function errorText(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (error instanceof WebhookConfigurationError) return error.text;
    throw error;
  }
  throw new Error('no error');
}

describe('webhook add-on configuration', () => {
  it('keeps the known keys, events as unique strings', () => {
    expect(parseWebhookConfiguration({ webhook_url: 'https://hooks.example/x', secret: SECRET, events: [2, '5', 2], other: 1 })).toEqual({
      webhook_url: 'https://hooks.example/x',
      secret: SECRET,
      events: ['2', '5'],
    });
    expect(parseWebhookConfiguration({ webhook_url: 'http://hooks.example' })).toEqual({ webhook_url: 'http://hooks.example/', secret: '', events: [] });
  });

  it('answers the first problem in Weblate 4.x words', () => {
    expect(errorText(() => parseWebhookConfiguration([]))).toBe('Expected a dictionary of items.');
    expect(errorText(() => parseWebhookConfiguration({}))).toBe('Error in webhook_url: This field is required.');
    expect(errorText(() => parseWebhookConfiguration({ webhook_url: 'not a url' }))).toBe('Error in webhook_url: Enter a valid URL.');
    expect(errorText(() => parseWebhookConfiguration({ webhook_url: 'ftp://h.example/' }))).toBe('Error in webhook_url: Only http and https URLs are allowed.');
    expect(errorText(() => parseWebhookConfiguration({ webhook_url: 'https://u:p@h.example/' }))).toBe('Error in webhook_url: The URL must not contain credentials.');
    expect(errorText(() => parseWebhookConfiguration({ webhook_url: `https://h.example/${'a'.repeat(2048)}` }))).toBe('Error in webhook_url: Enter a valid URL.');
    expect(errorText(() => parseWebhookConfiguration({ webhook_url: 'https://h.example/', secret: 'short' }))).toBe(
      'Error in secret: The secret must be base64 encoded, optionally prefixed with "whsec_".',
    );
    expect(errorText(() => parseWebhookConfiguration({ webhook_url: 'https://h.example/', events: [999] }))).toBe(
      'Error in events: Select a valid choice. 999 is not one of the available choices.',
    );
    expect(errorText(() => parseWebhookConfiguration({ webhook_url: 'https://h.example/', events: '2' }))).toBe('Error in events: Enter a list of values.');
  });

  it('redacts the secret and takes the redacted form back as unchanged', () => {
    expect(redactWebhookSecret(SECRET)).toBe('whsec_AAEC***');
    expect(redactWebhookSecret('')).toBe('');
    expect(isRedactedSecretOf('whsec_AAEC***', SECRET)).toBe(true);
    expect(isRedactedSecretOf('whsec_AAEC***', '')).toBe(false);
    const stored = parseWebhookConfiguration({ webhook_url: 'https://h.example/', secret: SECRET });
    expect(parseWebhookConfiguration({ webhook_url: 'https://h.example/', secret: 'whsec_AAEC***' }, stored).secret).toBe(SECRET);
    expect(errorText(() => parseWebhookConfiguration({ webhook_url: 'https://h.example/', secret: 'whsec_AAEC***' }))).toMatch(/^Error in secret/);
  });

  it('refuses non-public targets unless allowed', async () => {
    const lookup = async (): Promise<string[]> => ['10.1.2.3'];
    await expect(checkWebhookTarget('http://127.0.0.1:9/', PUBLIC_HOSTS_ONLY)).rejects.toThrow(/non-public/);
    await expect(checkWebhookTarget('http://[::ffff:169.254.169.254]/', PUBLIC_HOSTS_ONLY)).rejects.toThrow(/non-public/);
    await expect(checkWebhookTarget('https://internal.example/', PUBLIC_HOSTS_ONLY, lookup)).rejects.toThrow(/non-public/);
    await expect(checkWebhookTarget('https://public.example/', PUBLIC_HOSTS_ONLY, async () => ['93.184.216.34'])).resolves.toBeUndefined();
    await expect(checkWebhookTarget('http://127.0.0.1:9/', ANY_HOST)).resolves.toBeUndefined();
    const allowlist = { allowAllPrivate: false, allowedNames: [], allowedRanges: [parseRange('10.0.0.0/8')!] };
    await expect(checkWebhookTarget('https://internal.example/', allowlist, lookup)).resolves.toBeUndefined();
  });
});
