import { applyAutofixes } from './autofix';
import { Flags } from './flags';

const fix = (source: string[], target: string[], flags = '', language = 'cs') => applyAutofixes(source, target, Flags.merge(flags), language);

describe('applyAutofixes', () => {
  it('copies the source whitespace at both ends', () => {
    expect(fix(['\n  Hello \n'], ['Ahoj'])).toEqual({ target: ['\n  Ahoj \n'], applied: ['end-whitespace'] });
    expect(fix(['Hello'], ['  Ahoj\n'])).toEqual({ target: ['Ahoj'], applied: ['end-whitespace'] });
  });

  it('keeps an end untouched under its ignore flag', () => {
    expect(fix([' Hello '], ['  Ahoj'], 'ignore-begin-space')).toEqual({ target: ['  Ahoj '], applied: ['end-whitespace'] });
    expect(fix([' Hello '], ['Ahoj  '], 'ignore-end-space')).toEqual({ target: [' Ahoj  '], applied: ['end-whitespace'] });
  });

  it('replaces a trailing ... by … when the source ends with …', () => {
    expect(fix(['Loading…'], ['Načítání...'])).toEqual({ target: ['Načítání…'], applied: ['end-ellipsis'] });
    expect(fix(['Loading...'], ['Načítání...'])).toEqual({ target: ['Načítání...'], applied: [] });
  });

  it('drops zero-width spaces the source lacks, except for Khmer', () => {
    expect(fix(['Hello'], ['Ah\u200boj'])).toEqual({ target: ['Ahoj'], applied: ['zero-width-space'] });
    expect(fix(['Hello'], ['Ah\u200boj'], '', 'km')).toEqual({ target: ['Ah\u200boj'], applied: [] });
  });

  it('drops control characters but keeps tabs and newlines', () => {
    expect(fix(['a\tb'], ['x\u0007\ty\u001b'])).toEqual({ target: ['x\ty'], applied: ['control-chars'] });
  });

  it('fixes plural forms against the last source form and leaves empty forms empty', () => {
    expect(fix(['%d file', '%d files '], ['%d soubor ', '%d soubory', ''])).toEqual({ target: ['%d soubor', '%d soubory ', ''], applied: ['end-whitespace'] });
  });

  it('cleans HTML to the safe subset under safe-html (or auto-safe-html with an HTML source), not under ignore-safe-html', () => {
    const hostile = ['Klikněte <b onclick="x()">sem</b><script>x()</script>'];
    expect(fix(['Click <b>here</b>'], hostile, 'safe-html')).toEqual({ target: ['Klikněte <b>sem</b>'], applied: ['safe-html'] });
    expect(fix(['Click <b>here</b>'], hostile, 'auto-safe-html')).toEqual({ target: ['Klikněte <b>sem</b>'], applied: ['safe-html'] });
    expect(fix(['Click here'], hostile, 'auto-safe-html')).toEqual({ target: hostile, applied: [] });
    expect(fix(['Click <b>here</b>'], hostile, 'safe-html, ignore-safe-html')).toEqual({ target: hostile, applied: [] });
    expect(fix(['Click <b>here</b>'], hostile)).toEqual({ target: hostile, applied: [] });
    expect(fix(['Click <b>here</b>'], ['Klikněte <b>sem</b>'], 'safe-html')).toEqual({ target: ['Klikněte <b>sem</b>'], applied: [] });
  });

  it('leaves a text that is only whitespace alone', () => {
    expect(fix(['Hello'], ['  '])).toEqual({ target: ['  '], applied: [] });
  });
});
