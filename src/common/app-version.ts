/** Glossa's version (package.json), as the OpenAPI document and written files' `X-Generator` give it. */
export const GLOSSA_VERSION = '0.1.0';

/** What Glossa writes where Weblate writes `Weblate <version>` (PO `X-Generator`, formats.md §3.1). */
export const GENERATOR = `Glossa ${GLOSSA_VERSION}`;
