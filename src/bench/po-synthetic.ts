// A synthetic PO file of N entries in the shapes real catalogs have (plain, msgctxt, plural, wrapped,
// comments), for the benchmark's `formats` part and the 50,000-entry correctness test in po-edge-cases.spec.ts.

export function bigPo(entries: number): Buffer {
  const parts = [
    'msgid ""\nmsgstr ""\n"Language: cs\\n"\n"MIME-Version: 1.0\\n"\n"Content-Type: text/plain; charset=UTF-8\\n"\n' +
      '"Content-Transfer-Encoding: 8bit\\n"\n"Plural-Forms: nplurals=3; plural=(n==1) ? 0 : (n>=2 && n<=4) ? 1 : 2;\\n"\n',
  ];
  for (let i = 0; i < entries; i++) {
    if (i % 10 === 0) {
      parts.push(
        `#: src/files/module${i}.c:${i}\n#, c-format\nmsgid "%d file number ${i}"\nmsgid_plural "%d files number ${i}"\n` +
          `msgstr[0] "%d soubor číslo ${i}"\nmsgstr[1] "%d soubory číslo ${i}"\nmsgstr[2] "%d souborů číslo ${i}"\n`,
      );
    } else if (i % 7 === 0) {
      parts.push(
        `#. A developer comment for entry ${i}\nmsgid ""\n"A long source text number ${i} that was wrapped by the extractor over "\n` +
          `"two lines because it is long."\nmsgstr ""\n"Dlouhý zdrojový text číslo ${i}, který extraktor zalomil na dva "\n"řádky, protože je dlouhý."\n`,
      );
    } else {
      parts.push(`#: src/main.c:${i}\nmsgctxt "ctx${i % 100}"\nmsgid "Source string ${i}"\nmsgstr "Přeložený řetězec ${i}"\n`);
    }
  }
  return Buffer.from(parts.join('\n'), 'utf8');
}
