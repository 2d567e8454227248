// Physical lines of a text with their exact offsets, so writers can splice whole lines (CR, LF and CRLF
// line breaks are all recognised, as Java's Properties and Python's universal newlines do).

export interface PhysicalLine {
  /** Offset of the line's first character. */
  start: number;
  /** Offset just past the line's content (before its line break). */
  contentEnd: number;
  /** Offset just past the line break (== contentEnd on the last line without one). */
  end: number;
}

/**
 * Physical lines one at a time through one reused object, so reading a large file allocates nothing per
 * line (`next()` moves to the following line; false past the last one).
 */
export class LineCursor implements PhysicalLine {
  start = 0;
  contentEnd = 0;
  end = 0;
  /** 1-based number of the current line. */
  number = 0;

  constructor(private readonly text: string) {}

  next(): boolean {
    const { text } = this;
    if (this.end >= text.length) return false;
    this.start = this.end;
    let i = this.start;
    while (i < text.length) {
      const code = text.charCodeAt(i);
      if (code === 0x0a || code === 0x0d) break;
      i++;
    }
    this.contentEnd = i;
    if (i < text.length) this.end = text.charCodeAt(i) === 0x0d && text.charCodeAt(i + 1) === 0x0a ? i + 2 : i + 1;
    else this.end = i;
    this.number++;
    return true;
  }
}
