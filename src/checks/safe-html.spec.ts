import { isSafeUrl, looksLikeHtml, sanitizeHtml } from './safe-html';

describe('sanitizeHtml', () => {
  it('keeps clean HTML byte for byte (entities, non-breaking spaces, quoting and spacing as written)', () => {
    for (const clean of [
      'Plain text',
      'Tom &amp; Jerry&nbsp;\u00a0&#169;',
      'Click <b>here</b> or <a href="https://example.com/a?b=1&amp;c=2" title=\'Go\'>there</a>.',
      'Line<br>break<br/>and <img src="/logo.png" alt="Logo" />',
      '<a\n  href=relative/path>x</a>',
      '1 > 0',
    ]) {
      expect(sanitizeHtml(clean)).toBe(clean);
    }
  });

  it('drops script and style elements with their content', () => {
    expect(sanitizeHtml('Hi<script>alert(1)</script> there')).toBe('Hi there');
    expect(sanitizeHtml('Hi<SCRIPT type="text/javascript">alert("</b>")</SCRIPT >!')).toBe('Hi!');
    expect(sanitizeHtml('Hi<style>body{display:none}</style>!')).toBe('Hi!');
    expect(sanitizeHtml('Hi<script>alert(1)')).toBe('Hi');
    expect(sanitizeHtml('<iframe src="https://evil.example"></iframe>ok')).toBe('ok');
  });

  it('drops event handlers, style and unknown attributes, keeping the allowed ones', () => {
    expect(sanitizeHtml('<img src=x onerror=alert(1)>')).toBe('<img src=x>');
    expect(sanitizeHtml('<img src="x" ONERROR="alert(1)" alt="a">')).toBe('<img src="x" alt="a">');
    expect(sanitizeHtml('<b style="position:fixed" onclick=\'x()\'>bold</b>')).toBe('<b>bold</b>');
    expect(sanitizeHtml('<a title=">" onmouseover="alert(1)">x</a>')).toBe('<a title=">">x</a>');
    expect(sanitizeHtml('<b/onclick=alert(1)>x</b>')).toBe('<b>x</b>');
  });

  it('refuses script URLs, however they are disguised', () => {
    expect(sanitizeHtml('<a href="javascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<a href="  JaVaScRiPt:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<a href="java\tscript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<a href="&#106;avascript&colon;alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<a href="&#x6A;avascript:alert(1)">x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<img src="data:text/html;base64,PHNjcmlwdD4=">')).toBe('<img>');
    expect(sanitizeHtml('<a href=vbscript:msgbox(1)>x</a>')).toBe('<a>x</a>');
    expect(sanitizeHtml('<a href="mailto:a@example.com">x</a>')).toBe('<a href="mailto:a@example.com">x</a>');
  });

  it('drops unknown and forbidden tags but keeps their text, and removes comments and doctypes', () => {
    expect(sanitizeHtml('<blink>old</blink> <form action="/x"><input name=a>text</form>')).toBe('old text');
    expect(sanitizeHtml('a<!-- <script>alert(1)</script> -->b<!DOCTYPE html><?php echo 1 ?>c')).toBe('abc');
    // A tag name runs to whitespace, `/` or `>` as in browsers: "scr<script" is one unknown tag, the rest is text.
    expect(sanitizeHtml('<scr<script>ipt>alert(1)</script>')).toBe('ipt>alert(1)');
    expect(sanitizeHtml('<svg><script>alert(1)</script></svg>after')).toBe('after');
  });

  it('balances tags: closes what is left open and drops stray end tags', () => {
    expect(sanitizeHtml('<b>bold')).toBe('<b>bold</b>');
    expect(sanitizeHtml('<a href="/x"><b>link</a> rest')).toBe('<a href="/x"><b>link</b></a> rest');
    expect(sanitizeHtml('text</div></b>')).toBe('text');
    expect(sanitizeHtml('<i>a</i foo="bar">')).toBe('<i>a</i>');
  });

  it('escapes a < that starts no tag, and unterminated tags or quotes', () => {
    expect(sanitizeHtml('a < b and 3<4')).toBe('a &lt; b and 3&lt;4');
    expect(sanitizeHtml('<a href="x>never closed')).toBe('&lt;a href="x>never closed');
    expect(sanitizeHtml('<b')).toBe('&lt;b');
    expect(sanitizeHtml('<a title=\'it"s\' href="/a">x</a>')).toBe('<a title=\'it"s\' href="/a">x</a>');
  });

  it('allows the tags and attributes the source uses, never the forbidden ones', () => {
    expect(sanitizeHtml('<blink class="x">old</blink>', '<blink class="y">old</blink>')).toBe('<blink class="x">old</blink>');
    expect(sanitizeHtml('<b data-id="1">x</b>', '<b data-id="2">y</b>')).toBe('<b data-id="1">x</b>');
    expect(sanitizeHtml('<script>alert(1)</script>', '<script>ok()</script>')).toBe('');
    expect(sanitizeHtml('<b onclick="x()">x</b>', '<b onclick="y()">y</b>')).toBe('<b>x</b>');
    expect(sanitizeHtml('<a href="javascript:x()">x</a>', '<a href="javascript:y()">y</a>')).toBe('<a>x</a>');
  });

  it('stays linear on hostile input', () => {
    const hostile = '<a '.repeat(30_000) + '<b x="'.repeat(3_000);
    expect(sanitizeHtml(hostile).startsWith('&lt;a ')).toBe(true);
    expect(sanitizeHtml('x'.repeat(200_000) + '<script>')).toBe(`${'x'.repeat(200_000)}&lt;script>`);
  });
});

describe('isSafeUrl and looksLikeHtml', () => {
  it('accepts relative and safe-scheme URLs only', () => {
    expect(isSafeUrl('/path?a=b:c')).toBe(true);
    expect(isSafeUrl('#anchor')).toBe(true);
    expect(isSafeUrl('https://example.com')).toBe(true);
    expect(isSafeUrl('javascript:x')).toBe(false);
    expect(isSafeUrl('file:///etc/passwd')).toBe(false);
  });

  it('recognises a text with a tag', () => {
    expect(looksLikeHtml('Click <b>here</b>')).toBe(true);
    expect(looksLikeHtml('3 < 4 > 2')).toBe(false);
  });
});
