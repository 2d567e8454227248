// Weblate's translation flags (checks-suggestions-search.md §2): a comma-separated list of `name` or
// `name:param:param…` items, merged from several places in a fixed order (§2.2). A later occurrence of a flag
// replaces the earlier one; `discard:NAME` removes an inherited flag. Parameters that contain `,`, `:` or
// spaces are quoted ("…" or '…', backslash escapes the quote, a backslash, and `\n` is a newline);
// `r"…"` marks a regular-expression parameter (placeholders:, regex:).

/** One parameter of a flag. */
export interface FlagParam {
  value: string;
  /** Written `r"…"`: a regular expression, not a literal. */
  regex: boolean;
}

/** A flag string longer than this is not parsed past it (file flags, check_flags and extra_flags are user data). */
export const MAX_FLAGS_LENGTH = 10_000;

const ALIASES: Readonly<Record<string, string>> = { 'markdown-text': 'md-text', 'csharp-format': 'c-sharp-format' };

/** Splits one flag string into items of name + parameters; quoted parts keep their commas and colons. */
export function parseFlagItems(text: string): Array<{ name: string; params: FlagParam[] }> {
  const source = text.length > MAX_FLAGS_LENGTH ? text.slice(0, MAX_FLAGS_LENGTH) : text;
  const items: Array<{ name: string; params: FlagParam[] }> = [];
  let parts: FlagParam[] = [];
  let current = '';
  let regex = false;
  let quotedPart = false;
  const endPart = (): void => {
    parts.push({ value: quotedPart ? current : current.trim(), regex });
    current = '';
    regex = false;
    quotedPart = false;
  };
  const endItem = (): void => {
    endPart();
    const [head, ...params] = parts;
    parts = [];
    const name = head.value.replace(/^#\s*/, '').trim();
    if (name !== '' && name !== 'fuzzy') items.push({ name: ALIASES[name] ?? name, params });
  };
  let i = 0;
  while (i < source.length) {
    const ch = source[i];
    const isRegexQuote = (ch === 'r' && (source[i + 1] === '"' || source[i + 1] === "'") && current.trim() === '' && parts.length > 0);
    if (ch === '"' || ch === "'" || isRegexQuote) {
      if (isRegexQuote) {
        regex = true;
        i += 1;
      }
      const quote = source[i];
      i += 1;
      let value = '';
      while (i < source.length && source[i] !== quote) {
        if (source[i] === '\\' && i + 1 < source.length) {
          const next = source[i + 1];
          // Inside r"…" a backslash belongs to the expression, except before the closing quote.
          if (regex) value += next === quote ? next : `\\${next}`;
          else value += next === 'n' ? '\n' : next;
          i += 2;
          continue;
        }
        value += source[i];
        i += 1;
      }
      current = value;
      quotedPart = true;
      i += 1;
      continue;
    }
    if (ch === ':') endPart();
    else if (ch === ',') endItem();
    else if (!quotedPart) current += ch;
    i += 1;
  }
  endItem();
  return items;
}

/** The merged flags of one unit. */
export class Flags {
  private readonly items = new Map<string, FlagParam[]>();

  /** Merges flag strings in order (§2.2): later ones replace earlier values; `discard:X` removes X. */
  static merge(...sources: ReadonlyArray<string | null | undefined>): Flags {
    const flags = new Flags();
    for (const text of sources) {
      if (!text) continue;
      for (const item of parseFlagItems(text)) {
        if (item.name === 'discard') {
          for (const param of item.params) flags.items.delete(param.value);
          continue;
        }
        flags.items.set(item.name, item.params);
      }
    }
    return flags;
  }

  has(name: string): boolean {
    return this.items.has(name);
  }

  params(name: string): FlagParam[] | undefined {
    return this.items.get(name);
  }

  names(): string[] {
    return [...this.items.keys()];
  }

  /** The check id's flag (id with `_` → `-`) is switched off by `ignore-<flag>` or `ignore-all-checks`. */
  ignores(checkId: string): boolean {
    return this.items.has('ignore-all-checks') || this.items.has(`ignore-${checkFlag(checkId)}`);
  }
}

/** A check id as a flag: every `_` becomes `-` (c_format → c-format, §1.1). */
export const checkFlag = (checkId: string): string => checkId.replace(/_/g, '-');
