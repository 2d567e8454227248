import { spawnSync } from 'node:child_process';
import { expectMsgfmtAccepts } from '../formats/gettext/gettext-test-helpers';
import { msgmerge, msgmergeErrors, MsgmergeError } from './po-msgmerge';

// The msgmerge run behind `source` uploads (formats.md §3.1, §5): Weblate's `msgmerge --previous`.

const installed = spawnSync('msgmerge', ['--version']).status === 0;
if (!installed && process.env.CI === 'true') throw new Error('msgmerge (gettext) is required in CI');
const withGettext = installed ? it : it.skip;

const HEADER = 'msgid ""\nmsgstr ""\n"Language: cs\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n"Content-Transfer-Encoding: 8bit\\n"\n"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"\n';
const PO = `${HEADER}\n# translator's note\n#: old.c:1\nmsgid "Hello"\nmsgstr "Ahoj"\n\n#: old.c:2\nmsgid "Open the file"\nmsgstr "Otevřít soubor"\n\n#: old.c:3\nmsgid "Gone"\nmsgstr "Pryč"\n\nmsgid "Untranslated and gone"\nmsgstr ""\n`;
const POT = 'msgid ""\nmsgstr ""\n"Content-Type: text/plain; charset=UTF-8\\n"\n\n#: new.c:1\nmsgid "Hello"\nmsgstr ""\n\n#: new.c:2\nmsgid "Open the files"\nmsgstr ""\n\n#. A brand new string\n#: new.c:3\nmsgid "Later"\nmsgstr ""\n';

describe('msgmerge', () => {
  withGettext('updates a PO from the POT: kept, fuzzy with the previous msgid, new, and obsolete entries', async () => {
    const merged = await msgmerge(Buffer.from(PO), Buffer.from(POT));
    expect(merged.toString()).toBe(
      `${HEADER}\n# translator's note\n#: new.c:1\nmsgid "Hello"\nmsgstr "Ahoj"\n\n#: new.c:2\n#, fuzzy\n#| msgid "Open the file"\nmsgid "Open the files"\nmsgstr "Otevřít soubor"\n\n#. A brand new string\n#: new.c:3\nmsgid "Later"\nmsgstr ""\n\n#~ msgid "Gone"\n#~ msgstr "Pryč"\n`,
    );
    expectMsgfmtAccepts(merged);
  });

  withGettext('fails on a template msgmerge cannot read', async () => {
    await expect(msgmerge(Buffer.from(PO), Buffer.from('msgid "broken'))).rejects.toBeInstanceOf(MsgmergeError);
  });
});

describe('msgmergeErrors', () => {
  it('ignores the warnings Weblate ignores and keeps the rest', () => {
    const stderr = 'ref.pot: warning: internationalized messages should not contain the \'\\r\' escape sequence\n.... done.\nref.pot:3: end-of-file within string\n';
    expect(msgmergeErrors(stderr)).toEqual(['ref.pot:3: end-of-file within string']);
  });
});
