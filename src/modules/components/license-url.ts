/**
 * `license_url` of a component: Weblate derives it from the SPDX id (weblate-api.md §6.3). SPDX publishes
 * every license at a stable address, so no table is needed; an empty license has no URL.
 */
export function licenseUrl(license: string): string {
  const id = license.trim();
  if (id === '' || !/^[A-Za-z0-9.+-]+$/.test(id)) return '';
  return `https://spdx.org/licenses/${id}.html`;
}
