import { Liquid } from 'liquidjs';

// Commit, add, delete and merge messages are Django templates in Weblate (languages-formats-hashing.md §4.2).
// They are rendered with liquidjs (§4.3: byte-identical on Weblate's defaults, Django's `|filter:"arg"`
// syntax, strict undefined variables) and a context adapter for the places where Liquid and Django differ:
// floats print Python-style (`50.0`, not `50`), empty lists and objects are false in `{% if %}`, and
// `forloop.counter` is Liquid's `forloop.index`.

const engine = new Liquid({
  // Django raises on an undefined variable when Weblate validates or renders a template.
  strictVariables: true,
  // Django's truthiness for "" and 0 (empty lists are handled by the adapter).
  jsTruthy: true,
  // Messages are plain text: no HTML escaping (Weblate renders with autoescape off).
  outputEscape: undefined,
  cache: 100,
});
// Django filter names that Liquid spells differently.
engine.registerFilter('upper', (value: unknown) => String(value ?? '').toUpperCase());
engine.registerFilter('lower', (value: unknown) => String(value ?? '').toLowerCase());
engine.registerFilter('length', (value: unknown) => (Array.isArray(value) || typeof value === 'string' ? value.length : 0));
engine.registerFilter('slugify', (value: unknown) =>
  String(value ?? '')
    .normalize('NFKD')
    .replace(/[^\w\s-]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[-\s]+/g, '-'),
);

/** A float that Django prints with its decimal part (Python `str(50.0)` is `50.0`). */
export class PythonFloat {
  constructor(readonly value: number) {}

  toString(): string {
    return Number.isInteger(this.value) ? this.value.toFixed(1) : String(this.value);
  }

  // Liquid compares and prints through valueOf/toString.
  valueOf(): number {
    return this.value;
  }
}

/** The template syntax is wrong or names a variable the context lacks (Weblate reports both on save). */
export class MessageTemplateError extends Error {
  override readonly name = 'MessageTemplateError';
}

/** Renders a message template with Weblate's variables; throws MessageTemplateError. */
export function renderMessageTemplate(template: string, context: Record<string, unknown>): string {
  const source = template.replace(/forloop\.counter0\b/g, 'forloop.index0').replace(/forloop\.counter\b/g, 'forloop.index');
  try {
    return engine.parseAndRenderSync(source, adapt(context) as Record<string, unknown>);
  } catch (error) {
    throw new MessageTemplateError(error instanceof Error ? error.message : String(error));
  }
}

function adapt(value: unknown): unknown {
  if (Array.isArray(value)) return value.length === 0 ? null : value.map(adapt);
  if (value instanceof PythonFloat) return value;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return null;
    return Object.fromEntries(entries.map(([key, item]) => [key, adapt(item)]));
  }
  return value;
}
