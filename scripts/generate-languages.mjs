#!/usr/bin/env node
// Builds src/modules/languages/data/languages.json (Glossa's built-in language table) from Unicode CLDR
// (npm cldr-core, cldr-localenames-full, cldr-misc-full), rewrites the "derived" part of
// src/modules/languages/data/plural-types.json and copies that whole type table into the generated block
// of src/modules/languages/plural-type.ts. Run with `npm run languages:generate`.
// Rules: shared/reference/languages-formats-hashing.md §1 (Weblate's language data and plural types).
// Output is deterministic: same inputs -> identical bytes.
import { readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = join(root, 'src/modules/languages/data');
const pkgDir = (name) => dirname(require.resolve(`${name}/package.json`));
const load = (name, file) => JSON.parse(readFileSync(join(pkgDir(name), file), 'utf8'));

const plurals = load('cldr-core', 'supplemental/plurals.json').supplemental['plurals-type-cardinal'];
const territoryInfo = load('cldr-core', 'supplemental/territoryInfo.json').supplemental.territoryInfo;
const containment = load('cldr-core', 'supplemental/territoryContainment.json').supplemental.territoryContainment;
const languageAlias = load('cldr-core', 'supplemental/aliases.json').supplemental.metadata.alias.languageAlias;
const likely = load('cldr-core', 'supplemental/likelySubtags.json').supplemental.likelySubtags;
const scriptMetadata = load('cldr-core', 'scriptMetadata.json').scriptMetadata;
const availableLocales = load('cldr-core', 'availableLocales.json').availableLocales.full;
const enNames = load('cldr-localenames-full', 'main/en/languages.json').main.en.localeDisplayNames.languages;
const enScripts = load('cldr-localenames-full', 'main/en/scripts.json').main.en.localeDisplayNames.scripts;
const enTerritories = load('cldr-localenames-full', 'main/en/territories.json').main.en.localeDisplayNames.territories;
const localePattern = load('cldr-localenames-full', 'main/en/localeDisplayNames.json').main.en.localeDisplayNames
  .localeDisplayPattern.localePattern;

const typeTablePath = join(dataDir, 'plural-types.json');
const typeTable = JSON.parse(readFileSync(typeTablePath, 'utf8'));

// ---------------------------------------------------------------------------------------------------
// Which languages: every English CLDR language name (base codes, plus the region/script variants CLDR
// names directly, e.g. pt-BR, zh-Hans), plus every lang-Script locale CLDR ships (sr-Latn, uz-Cyrl …).
// Not languages: und/mul/zxx/mis. en-US is left out because Weblate treats en_us as an alias of en
// (languages-formats-hashing.md §1.3).
const SKIP = new Set(['und', 'mul', 'zxx', 'mis', 'en-US']);
const isScript = (s) => /^[A-Z][a-z]{3}$/.test(s);
const tags = new Set(Object.keys(enNames).filter((k) => !/-(alt|menu)-/.test(k) && !SKIP.has(k)));
for (const loc of availableLocales) {
  const [base, sub, more] = loc.split('-');
  if (!more && sub && isScript(sub) && enNames[base]) tags.add(loc);
}

// Weblate style: underscores, script title-case, region upper-case (BCP47 subtags already are).
const toCode = (tag) => tag.replaceAll('-', '_');
const baseOf = (tag) => tag.split(/[-_@]/)[0];

// ---------------------------------------------------------------------------------------------------
// Names: CLDR English display name; variants CLDR does not name get its locale pattern "{0} ({1})".
function nameOf(tag) {
  if (enNames[tag]) return enNames[tag];
  const [base, ...subs] = tag.split('-');
  const parts = subs.map((s) => (isScript(s) ? enScripts[s] : enTerritories[s]) ?? s);
  return localePattern.replace('{0}', enNames[base]).replace('{1}', parts.join(', '));
}

// ---------------------------------------------------------------------------------------------------
// Direction: the locale's own CLDR layout if CLDR has one, else the script (explicit or likely) is RTL
// according to CLDR scriptMetadata.
const rtlScripts = new Set(Object.keys(scriptMetadata).filter((s) => scriptMetadata[s].rtl === 'YES'));
function directionOf(tag) {
  const layoutFile = join(pkgDir('cldr-misc-full'), 'main', tag, 'layout.json');
  if (existsSync(layoutFile)) {
    const order = JSON.parse(readFileSync(layoutFile, 'utf8')).main[tag].layout.orientation.characterOrder;
    return order === 'right-to-left' ? 'rtl' : 'ltr';
  }
  const explicit = tag.split('-').slice(1).find(isScript);
  const script = explicit ?? (likely[tag] ?? likely[baseOf(tag)] ?? '').split('-')[1];
  return rtlScripts.has(script) ? 'rtl' : 'ltr';
}

// ---------------------------------------------------------------------------------------------------
// Population: sum over territories of population × the language's percentage, truncated like Weblate
// (this reproduces en 1728473503, cs 13236057, de 141873196, fr 332956350, pt_BR 200247320 of
// languages-formats-hashing.md §1.3). Only entries keyed by the bare code count (TW's zh_Hant entry is
// not zh). Script variants take the base's population; region variants (pt-BR, es-419) only count the
// territories of their region.
function leafTerritories(region, seen = new Set()) {
  if (territoryInfo[region]) return [region];
  if (seen.has(region) || !containment[region]) return [];
  seen.add(region);
  return containment[region]._contains.flatMap((r) => leafTerritories(r, seen));
}
function populationOf(tag) {
  const base = baseOf(tag);
  const region = tag.split('-').slice(1).find((s) => !isScript(s));
  const territories = region ? [...new Set(leafTerritories(region))] : Object.keys(territoryInfo);
  let total = 0;
  for (const t of territories) {
    const info = territoryInfo[t];
    for (const [lang, p] of Object.entries(info.languagePopulation ?? {})) {
      if (lang === base) total += (Number(info._population) * Number(p._populationPercent)) / 100;
    }
  }
  return Math.floor(total);
}

// ---------------------------------------------------------------------------------------------------
// Aliases: CLDR languageAlias sources whose replacement is exactly this code, unless the source is
// itself one of our languages (sh, tl …).
const codes = new Set([...tags].map(toCode));
const aliasesByCode = new Map();
for (const [source, { _replacement }] of Object.entries(languageAlias)) {
  const target = toCode(_replacement);
  const alias = toCode(source).toLowerCase();
  if (!codes.has(target) || codes.has(toCode(source))) continue;
  if (!aliasesByCode.has(target)) aliasesByCode.set(target, []);
  aliasesByCode.get(target).push(alias);
}

// ---------------------------------------------------------------------------------------------------
// Plurals. CLDR rules -> gettext formula for non-negative integers: n = i = the number, and
// v = w = f = t = e = c = 0 (languages-formats-hashing.md §1.7).
const CATEGORIES = ['zero', 'one', 'two', 'few', 'many', 'other'];

// One relation, e.g. "i % 10 = 2..4" -> a boolean constant when the operand is one of the decimal-only
// operands, else { text, or } (a C/JS expression over n; `or` marks a top-level "||" list).
function relation(source) {
  const m = source.trim().match(/^([nivwftce])\s*(?:%\s*(\d+))?\s*(!=|=)\s*([\d.,\s]+)$/);
  if (!m) throw new Error(`cannot parse plural relation "${source}"`);
  const [, operand, mod, op, list] = m;
  const items = list.split(',').map((s) => s.trim().split('..').map(Number));
  if (!'ni'.includes(operand)) {
    const hit = items.some(([a, b = a]) => a <= 0 && 0 <= b); // the operand (and operand % m) is 0
    return op === '=' ? hit : !hit;
  }
  const x = mod ? `n%${mod}` : 'n';
  if (op === '=') {
    const parts = items.map(([a, b]) => (b === undefined ? `${x}==${a}` : `${x}>=${a} && ${x}<=${b}`));
    return { text: parts.join(' || '), or: parts.length > 1 };
  }
  const parts = items.map(([a, b]) => (b === undefined ? `${x}!=${a}` : `(${x}<${a} || ${x}>${b})`));
  return { text: parts.join(' && '), or: false };
}

// A whole condition ("a and b or c") -> true, false or an expression ("&&" binds tighter than "||",
// as "and" does over "or" in CLDR, so only "||" lists inside an "&&" chain need parentheses).
function condition(source) {
  const ors = [];
  for (const andSource of source.split(/\s+or\s+/)) {
    const rels = andSource.split(/\s+and\s+/).map(relation);
    if (rels.includes(false)) continue;
    const exprs = rels.filter((r) => r !== true);
    if (exprs.length === 0) return true;
    ors.push(exprs.map((r) => (r.or && exprs.length > 1 ? `(${r.text})` : r.text)).join(' && '));
  }
  return ors.length === 0 ? false : ors.join(' || ');
}

// CLDR rule set -> {categories, formula}. Dropped: categories that no integer can match, the CLDR-38
// compact-number "many" (any rule using the exponent e: fr, es, it, pt, ca …; gettext and Weblate keep
// 2 forms), and "other" when CLDR lists no integer sample for it (ru, uk, be, pl: the last integer
// category then becomes the fallback, as in gettext).
function derivePlural(rules) {
  const kept = [];
  for (const cat of CATEGORIES) {
    const rule = rules[`pluralRule-count-${cat}`];
    if (rule === undefined) continue;
    const [cond, samples = ''] = rule.split(/@integer/);
    const text = cond.split('@')[0].trim();
    if (cat === 'other') {
      if (samples.trim() !== '' || kept.length === 0) kept.push({ cat, expr: true });
      continue;
    }
    if (/\be\b/.test(text)) continue;
    const expr = condition(text);
    if (expr !== false) kept.push({ cat, expr });
  }
  const cats = kept.map((k) => k.cat);
  if (kept.length === 1) return { cats, formula: '0' };
  let formula = String(kept.length - 1);
  for (let i = kept.length - 2; i >= 0; i--) formula = `${kept[i].expr} ? ${i} : ${formula}`;
  return { cats, formula };
}

// Weblate's exact default formula strings (languages-formats-hashing.md §1.3 and §1.5, "examples"
// column). Keyed by code; a variant without its own entry uses its base code's entry (ar_001 -> ar,
// sr_Latn -> sr). These win over CLDR, also where the rule differs (he keeps 4 forms, vec/scn keep the
// n % 1000000 form, mk/is/kw/… use gettext's rules).
const RU = 'n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2';
const PL = 'n==1 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2';
const AR = 'n==0 ? 0 : n==1 ? 1 : n==2 ? 2 : n%100>=3 && n%100<=10 ? 3 : n%100>=11 ? 4 : 5';
const AR_ALT =
  '(n == 0) ? 0 : ((n == 1) ? 1 : ((n == 2) ? 2 : ((n % 100 >= 3 && n % 100 <= 10) ? 3 : ((n % 100 >= 11 && n % 100 <= 99) ? 4 : 5))))';
const TWO_A = '(n == 1) ? 0 : ((n == 2) ? 1 : 2)';
const TWO_B = 'n == 1 ? 0 : n == 2 ? 1 : 2';
const TWO_C = 'n==1 ? 0 : n==2 ? 1 : 2';
const CS = '(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2';
const FIL = 'n != 1 && n != 2 && n != 3 && (n % 10 == 4 || n % 10 == 6 || n % 10 == 9)';
const MILLION = '(n == 1) ? 0 : ((n != 0 && n % 1000000 == 0) ? 1 : 2)';
const SORBIAN = '(n % 100 == 1) ? 0 : ((n % 100 == 2) ? 1 : ((n % 100 == 3 || n % 100 == 4) ? 2 : 3))';
const ZERO_ONE = '(n == 0) ? 0 : ((n == 1) ? 1 : 2)';
const OVERRIDES = {
  en: 'n != 1', de: 'n != 1', es: 'n != 1', it: 'n != 1',
  // gettext's Portuguese (Portugal) rule; pt_BR uses n > 1 (gettext manual, "Plural forms").
  pt: 'n != 1', pt_BR: 'n > 1', fr: 'n > 1', am: 'n > 1',
  ja: '0', zh_Hans: '0', ko: '0',
  ru: RU, uk: RU, be: RU, bs: RU, hr: RU, sr: RU,
  ar: AR, apc: AR, arq: AR_ALT, ars: AR_ALT, arz: AR_ALT,
  iu: TWO_A, se: TWO_A, smi: TWO_A, sat: TWO_B, sa: TWO_C, grc: TWO_C,
  pl: PL, csb: PL, szl: PL,
  lv: '(n % 10 == 0 || n % 100 >= 11 && n % 100 <= 19) ? 0 : ((n % 10 == 1 && n % 100 != 11) ? 1 : 2)',
  cv: ZERO_ONE, lag: ZERO_ONE, ksh: 'n==0 ? 0 : n==1 ? 1 : 2',
  fil: FIL, tl: FIL, ceb: FIL,
  cs: CS, sk: CS,
  vec: MILLION, scn: MILLION,
  dsb: SORBIAN, hsb: SORBIAN,
  he: '(n == 1) ? 0 : ((n == 2) ? 1 : ((n > 10 && n % 10 == 0) ? 2 : 3))',
  br: '(n % 10 == 1 && n % 100 != 11 && n % 100 != 71 && n % 100 != 91) ? 0 : ((n % 10 == 2 && n % 100 != 12 && n % 100 != 72 && n % 100 != 92) ? 1 : ((((n % 10 == 3 || n % 10 == 4) || n % 10 == 9) && (n % 100 < 10 || n % 100 > 19) && (n % 100 < 70 || n % 100 > 79) && (n % 100 < 90 || n % 100 > 99)) ? 2 : ((n != 0 && n % 1000000 == 0) ? 3 : 4)))',
  cy: '(n==0) ? 0 : (n==1) ? 1 : (n==2) ? 2 : (n==3) ? 3 :(n==6) ? 4 : 5',
  ga: 'n==1 ? 0 : n==2 ? 1 : (n>2 && n<7) ? 2 :(n>6 && n<11) ? 3 : 4',
  gd: '(n==1 || n==11) ? 0 : (n==2 || n==12) ? 1 : (n > 2 && n < 20) ? 2 : 3',
  gv: '(n % 10 == 1) ? 0 : ((n % 10 == 2) ? 1 : ((n % 100 == 0 || n % 100 == 20 || n % 100 == 40 || n % 100 == 60 || n % 100 == 80) ? 2 : 3))',
  is: 'n % 10 != 1 || n % 100 == 11',
  kw: '(n == 0) ? 0 : ((n == 1) ? 1 : (((n % 100 == 2 || n % 100 == 22 || n % 100 == 42 || n % 100 == 62 || n % 100 == 82) || n % 1000 == 0 && (n % 100000 >= 1000 && n % 100000 <= 20000 || n % 100000 == 40000 || n % 100000 == 60000 || n % 100000 == 80000) || n != 0 && n % 1000000 == 100000) ? 2 : ((n % 100 == 3 || n % 100 == 23 || n % 100 == 43 || n % 100 == 63 || n % 100 == 83) ? 3 : ((n != 1 && (n % 100 == 1 || n % 100 == 21 || n % 100 == 41 || n % 100 == 61 || n % 100 == 81)) ? 4 : 5))))',
  lt: '(n % 10 == 1 && (n % 100 < 11 || n % 100 > 19)) ? 0 : ((n % 10 >= 2 && n % 10 <= 9 && (n % 100 < 11 || n % 100 > 19)) ? 1 : 2)',
  ltg: 'n%10==1 && n%100!=11 ? 0 : n != 0 ? 1 : 2',
  mk: 'n==1 || n%10==1 ? 0 : 1',
  mt: 'n==1 ? 0 : n==0 || ( n%100>1 && n%100<11) ? 1 : (n%100>10 && n%100<20 ) ? 2 : 3',
  ro: 'n==1 ? 0 : (n==0 || (n%100 > 0 && n%100 < 20)) ? 1 : 2',
  ro_MD: '(n == 1) ? 0 : ((n == 0 || n % 100 >= 2 && n % 100 <= 19) ? 1 : 2)',
  sgs: '(n % 10 == 1 && n % 100 != 11) ? 0 : ((n == 2) ? 1 : ((n != 2 && n % 10 >= 2 && n % 10 <= 9 && (n % 100 < 11 || n % 100 > 19)) ? 2 : 3))',
  shi: '(n == 0 || n == 1) ? 0 : ((n >= 2 && n <= 10) ? 1 : 2)',
  sl: 'n%100==1 ? 0 : n%100==2 ? 1 : n%100==3 || n%100==4 ? 2 : 3',
  tzm: 'n >= 2 && (n < 11 || n > 99)',
};

// Numeric canonicalisation: a derived formula that computes the same as one of Weblate's spellings gets
// that spelling, so every simple one/other language is exactly "n != 1", fr-like ones "n > 1", etc.
// Candidates in §1.5 table order (most used first), so ties pick the commonest spelling.
const SAMPLE = [...Array(10001).keys(), 100000, 101000, 1000000, 1000001, 1100000, 2000000, 10000000];
const evaluate = (formula) => {
  const fn = new Function('n', `return +(${formula});`);
  return SAMPLE.map((n) => fn(n));
};
const CANONICAL = [
  'n != 1', '0', 'n > 1', RU, AR, TWO_A, PL, OVERRIDES.lv, AR_ALT, ZERO_ONE, FIL, CS, MILLION, TWO_B,
  SORBIAN, TWO_C, OVERRIDES.he, OVERRIDES.ksh, OVERRIDES.br, OVERRIDES.cy, OVERRIDES.ga, OVERRIDES.gd,
  OVERRIDES.gv, OVERRIDES.is, OVERRIDES.kw, OVERRIDES.lt, OVERRIDES.ltg, OVERRIDES.mk, OVERRIDES.mt,
  OVERRIDES.ro, OVERRIDES.ro_MD, OVERRIDES.sgs, OVERRIDES.shi, OVERRIDES.sl, OVERRIDES.tzm,
].map((formula) => ({ formula, values: evaluate(formula).join() }));
const canonical = (formula) => {
  const values = evaluate(formula).join();
  return CANONICAL.find((c) => c.values === values)?.formula ?? formula;
};
const countForms = (formula) => Math.max(...evaluate(formula)) + 1;

// Weblate type of a category list (labels of languages-formats-hashing.md §1.5).
const TYPE_BY_CATEGORIES = {
  'one/other': 1, 'one/few/other': 2, 'one/two/other': 4, 'one/two/few/other': 6, 'one/few/many/other': 8,
  'two/other': 9, 'one/two/few/many/other': 10, 'zero/one/other': 11, 'zero/one/two/few/many/other': 12,
  'zero/other': 15, 'zero/one/few/other': 16, 'zero/one/two/few/other': 17, 'zero/one/two/other': 18,
  'zero/one/few/many/other': 19, 'one/many/other': 20, 'zero/one/many/other': 21, 'one/few/many': 22,
};

// Same algorithm as src/modules/languages/plural-type.ts (Weblate's get_plural_type, §1.5).
function pluralType(code, formula, derived) {
  const f = formula.endsWith(';') ? formula.slice(0, -1) : formula;
  if (f === '0') return 0;
  const key = f.replaceAll(' ', '');
  if (Object.hasOwn(typeTable.weblate, key)) return typeTable.weblate[key];
  if (Object.hasOwn(derived, key)) return derived[key];
  return baseOf(code) === 'ar' ? 3 : 666;
}

// The "derived" type table: every CLDR rule set's own derived spelling (so the type lookup also knows
// formulas converted from CLDR), typed like the Weblate spelling it computes the same as (what newest
// Weblate's numeric-equivalence fallback does, §1.5 step 5), else by its category list.
const derived = {};
for (const locale of Object.keys(plurals).sort()) {
  const { cats, formula } = derivePlural(plurals[locale]);
  const key = formula.replaceAll(' ', '');
  if (formula === '0' || Object.hasOwn(typeTable.weblate, key) || Object.hasOwn(derived, key)) continue;
  const same = canonical(formula);
  const type = same !== formula ? pluralType(locale, same, {}) : TYPE_BY_CATEGORIES[cats.join('/')];
  if (type !== undefined && type !== 666) derived[key] = type;
}

function pluralOf(tag) {
  const code = toCode(tag);
  const override = OVERRIDES[code] ?? (code.includes('_') ? OVERRIDES[baseOf(code)] : undefined);
  if (override !== undefined) return { number: countForms(override), formula: override };
  const rules = plurals[tag] ?? plurals[baseOf(tag)];
  // No CLDR data at all: gettext's (and Weblate's) default of two forms.
  if (!rules) return { number: 2, formula: 'n != 1' };
  const { cats, formula } = derivePlural(rules);
  return { number: cats.length, formula: canonical(formula) };
}

// ---------------------------------------------------------------------------------------------------
const languages = [...tags]
  .map((tag) => {
    const code = toCode(tag);
    const plural = pluralOf(tag);
    return {
      code,
      name: nameOf(tag),
      direction: directionOf(tag),
      population: populationOf(tag),
      aliases: (aliasesByCode.get(code) ?? []).sort(),
      plural: { ...plural, type: pluralType(code, plural.formula, derived) },
    };
  })
  .sort((a, b) => (a.code < b.code ? -1 : a.code > b.code ? 1 : 0));

// Self-check: every formula yields an index in [0, number).
for (const { code, plural } of languages) {
  const values = evaluate(plural.formula);
  if (values.some((v) => !Number.isInteger(v) || v < 0 || v >= plural.number)) {
    throw new Error(`${code}: formula "${plural.formula}" out of range for ${plural.number} forms`);
  }
}

writeFileSync(
  join(dataDir, 'languages.json'),
  `[\n${languages.map((l) => `  ${JSON.stringify(l)}`).join(',\n')}\n]\n`,
);
const sortedDerived = Object.fromEntries(Object.entries(derived).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(typeTablePath, `${JSON.stringify({ ...typeTable, derived: sortedDerived }, null, 2)}\n`);

// The same table, inlined into plural-type.ts between its BEGIN/END GENERATED markers.
const tsPath = join(root, 'src/modules/languages/plural-type.ts');
const entries = Object.entries({ ...typeTable.weblate, ...sortedDerived }).map(([formula, type]) => {
  if (/['\\]/.test(formula)) throw new Error(`cannot quote formula ${formula}`);
  return `  '${formula}': ${type},`;
});
const block = [
  '// BEGIN GENERATED',
  'const KNOWN_FORMULAS: Readonly<Record<string, number>> = {',
  ...entries,
  '};',
  '// END GENERATED',
].join('\n');
const ts = readFileSync(tsPath, 'utf8');
if (!/\/\/ BEGIN GENERATED[\s\S]*\/\/ END GENERATED/.test(ts)) throw new Error(`${tsPath}: markers missing`);
writeFileSync(tsPath, ts.replace(/\/\/ BEGIN GENERATED[\s\S]*\/\/ END GENERATED/, () => block));
console.log(`wrote ${languages.length} languages, ${Object.keys(sortedDerived).length} derived plural formulas`);
