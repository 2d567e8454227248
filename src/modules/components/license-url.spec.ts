import { licenseUrl } from './license-url';

describe('licenseUrl', () => {
  it('links SPDX ids and leaves empty or odd values without a URL', () => {
    expect(licenseUrl('MIT')).toBe('https://spdx.org/licenses/MIT.html');
    expect(licenseUrl('GPL-3.0-or-later')).toBe('https://spdx.org/licenses/GPL-3.0-or-later.html');
    expect(licenseUrl('')).toBe('');
    expect(licenseUrl('my license')).toBe('');
  });
});
