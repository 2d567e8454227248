// Maps the language code found in a file name to a row of the languages table. Weblate looks a code up
// through the project's `language_aliases`, then the language codes and their aliases, and then a
// normalised spelling (`pt-BR` → `pt_BR`, any case). Weblate would create a language for an unknown code;
// Glossa skips the file instead and says so in the task log.

export interface KnownLanguage {
  id: number;
  code: string;
  aliases: string[];
  /** The language's default plural (formats whose translations derive their plural from it, formats.md §2.3). */
  plural?: { number: number; formula: string };
}

/** `pt-BR` and `PT_br` both become `pt_br`: Weblate codes use `_` between language and region. */
export function normalizeLanguageCode(code: string): string {
  return code.trim().replace(/-/g, '_').toLowerCase();
}

/** Project `language_aliases`: comma-separated `file_code:language_code` pairs, e.g. `en_GB:en,cs_CZ:cs`. */
export function parseLanguageAliases(text: string): Map<string, string> {
  const aliases = new Map<string, string>();
  for (const pair of text.split(',')) {
    const [from, to] = pair.split(':').map((part) => part.trim());
    if (from && to) aliases.set(from, to);
  }
  return aliases;
}

export class LanguageResolver {
  private readonly byCode = new Map<string, KnownLanguage>();
  private readonly byAlias = new Map<string, KnownLanguage>();
  private readonly byNormalizedCode = new Map<string, KnownLanguage>();
  private readonly byNormalizedAlias = new Map<string, KnownLanguage>();
  private readonly projectAliases: Map<string, string>;

  constructor(languages: readonly KnownLanguage[], projectAliases = '') {
    this.projectAliases = parseLanguageAliases(projectAliases);
    for (const language of languages) {
      this.byCode.set(language.code, language);
      setFirst(this.byNormalizedCode, normalizeLanguageCode(language.code), language);
    }
    // Aliases after codes: an alias never hides a language whose own code matches.
    for (const language of languages) {
      for (const alias of language.aliases) {
        setFirst(this.byAlias, alias.toLowerCase(), language);
        setFirst(this.byNormalizedAlias, normalizeLanguageCode(alias), language);
      }
    }
  }

  /** The language a file's code stands for, or undefined when none matches. */
  resolve(fileCode: string): KnownLanguage | undefined {
    const code = this.projectAliases.get(fileCode) ?? fileCode;
    const normalized = normalizeLanguageCode(code);
    return (
      this.byCode.get(code) ??
      this.byAlias.get(code.toLowerCase()) ??
      this.byNormalizedCode.get(normalized) ??
      this.byNormalizedAlias.get(normalized)
    );
  }
}

function setFirst<K, V>(map: Map<K, V>, key: K, value: V): void {
  if (!map.has(key)) map.set(key, value);
}
