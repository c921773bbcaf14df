/*
 * What the reader makes of a document, whatever its kind: its title, its page count and its text as
 * a flat list of headings and paragraphs in reading order. It is plain text: no markup of the
 * original (HTML, Markdown, Word styles) survives it.
 */

/** A heading or a paragraph of a document's text. */
export interface Block {
  kind: 'heading' | 'paragraph';
  /** A heading's level, 1 to 6. */
  level?: number;
  text: string;
  /** The page it is on, 1-based: only where the document has pages (a PDF). */
  page?: number;
}

/** A document as read. */
export interface ParsedDocument {
  title?: string;
  /** Its page count: a PDF's pages; 1 for the kinds that have no pages. */
  pages: number;
  blocks: Block[];
}
