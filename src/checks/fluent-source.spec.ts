import { Flags } from './flags';
import { fluentInnerHtmlFails, fluentSyntaxFails } from './fluent-source';
import { runSourceChecks } from './source-checks';

// Weblate's Fluent source checks (checks-suggestions-search.md §1.6): a failing and a passing case per rule,
// and the flags that switch them on and off.

describe('fluent-source-syntax', () => {
  it.each([
    ['Hello, { $name }!', false],
    ['\n    { $count ->\n        [one] One file\n       *[other] { $count } files\n    }', false],
    ['Save { -brand-name }', false],
    ['Literal { "{" } brace', false],
    ['', false],
    ['Hello, { $name !', true],
    ['Unclosed { $name', true],
    ['Stray } brace', true],
    ['{ $count ->\n    [one] One\n}', true],
    ['Text\n.title = an attribute', true],
    ['{ }', true],
  ])('%j fails: %s', (text, fails) => {
    expect(fluentSyntaxFails(text)).toBe(fails);
  });
});

describe('fluent-source-inner-html', () => {
  it.each([
    // Plain text and well-formed markup.
    ['No markup at all', false],
    ['1 < 2 and 3 > 2', false],
    ['I <3 you', false],
    ['Read <a href="https://example.org" data-l10n-name="link">the docs</a>', false],
    ['Line<br>break and <br/> again and <img src="x.png">', false],
    ["Single <span class='x'>quotes</span>", false],
    ['Nested <b><i>both</i></b>', false],
    ['Escaped &lt;tag&gt; &amp; &#60; &#x3C; &nbsp;', false],
    ['Cats & dogs, &foo and &#', false],
    ['Literal <{ "{" } brace', false],
    ['Literal { "<" }{ $tag }', true],
    ['Literal brace <b>{ "{" }</b>', false],
    // Lost or unintended markup.
    ['Unclosed <b>bold', true],
    ['Mismatched <b>bold</i>', true],
    ['Stray end </b>', true],
    ['Void end <br></br>', true],
    ['Self-closed <span/>', true],
    ['Comment <!-- hidden -->', true],
    ['Instruction <?xml?>', true],
    ['Reference <{ $tag }>', true],
    ['Reference &{ $entity };', true],
    ['Reference &l{ $rest }', true],
    ['Unquoted <a href=x>link</a>', true],
    ['Bare attribute <input disabled>', true],
    ['Duplicate <a href="a" href="b">link</a>', true],
    ['Bad name <a_b>x</a_b>', true],
    ['Not closed <b', true],
    ['Not closed <a href="x"', true],
    ['Bad end tag </ b>', true],
    ['Legacy reference &copy2024', true],
    ['Legacy reference &lt', true],
    ['Numeric without semicolon &#60 here', true],
    ['Numeric cut short &#60x; here', true],
    ['Empty reference &; here', true],
    ['Bad hex &#xZZ; here', true],
    // Every variant of a select expression counts.
    ['\n    { $n ->\n        [one] <b>one</b>\n       *[other] <b>many\n    }', true],
    ['\n    { $n ->\n        [one] <b>one</b>\n       *[other] <b>many</b>\n    }', false],
  ])('%j fails: %s', (text, fails) => {
    expect(fluentInnerHtmlFails(text, 'message')).toBe(fails);
  });

  it('leaves attributes and invalid syntax alone', () => {
    expect(fluentInnerHtmlFails('Unclosed <b>bold', 'message.title')).toBe(false);
    expect(fluentInnerHtmlFails('Unclosed <b>{ $x', 'message')).toBe(false);
    expect(fluentInnerHtmlFails('', 'message')).toBe(false);
  });
});

describe('Fluent source checks in runSourceChecks', () => {
  const check = (source: string, flags: string, context = 'message') => runSourceChecks({ source: [source], flags: Flags.merge(flags), sourceLanguage: 'en', context });
  const both = 'fluent-source-syntax, fluent-source-inner-html';

  it('runs only with their flags (the Fluent format sets both)', () => {
    expect(check('Broken { $x', '')).toEqual([]);
    expect(check('Unclosed <b>bold', '')).toEqual([]);
    expect(check('Broken { $x', both)).toEqual(['fluent-source-syntax']);
    expect(check('Unclosed <b>bold', both)).toEqual(['fluent-source-inner-html']);
    expect(check('Unclosed <b>bold', both, 'message.title')).toEqual([]);
    expect(check('Fine <b>bold</b>', both)).toEqual([]);
  });

  it('is switched off by ignore flags', () => {
    expect(check('Broken { $x', `${both}, ignore-fluent-source-syntax`)).toEqual([]);
    expect(check('Unclosed <b>bold', `${both}, ignore-fluent-source-inner-html`)).toEqual([]);
    expect(check('Unclosed <b>bold', `${both}, ignore-all-checks`)).toEqual([]);
  });
});
